"""The console script's fast paths (rulelang/entry.py): the same output, files and exit status as the click command.

`rulelang check FILE...` of valid files, `fmt FILE...` of canonical files and
`explain NAME` are answered without importing click (issue 12); anything else
runs the click command. Each command line below is run both ways
(RULELANG_NO_FAST_CHECK=1 forces the click command) and must print the same
bytes on both streams, leave the same files and exit with the same status.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(args: list[str], fast: bool, cwd: Path, stdin: str = "") -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("RULELANG_NO_FAST_CHECK", "RULELANG_DEBUG")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    if not fast:
        env["RULELANG_NO_FAST_CHECK"] = "1"
    run = subprocess.run([sys.executable, "-m", "rulelang", *args], cwd=cwd, env=env, input=stdin,
                         capture_output=True, text=True, timeout=120)
    return run.returncode, run.stdout, run.stderr


def _files(folder: Path) -> Path:
    folder.mkdir()
    bad = sorted((ROOT / "tests" / "data" / "rulesets" / "bad").glob("*.rules"))[0]
    (folder / "bad.rules").write_text(bad.read_text(encoding="utf-8"), encoding="utf-8")
    good = (ROOT / "rulesets" / "exact61.rules").read_text(encoding="utf-8")
    (folder / "good.rules").write_text(good, encoding="utf-8")
    (folder / "messy.rules").write_text(good.replace("\n", "  \n").replace("players", "players ", 1), encoding="utf-8")
    (folder / "syntax.rules").write_text('based on allfives\nruleset s "S"\nsource "x"\nplayers banana\n')
    (folder / "folder.rules").mkdir()
    return folder


@pytest.fixture
def files(tmp_path: Path) -> Path:
    return _files(tmp_path / "files")


COMMAND_LINES = [
    ["check", "good.rules"],
    ["check", "good.rules", "allfives", "pagat"],
    ["check", "good.rules", "bad.rules"],
    ["check", "syntax.rules"],
    ["check", "missing.rules"],
    ["check", "folder.rules"],
    ["check", "nosuchname"],
    ["check"],
    ["check", "--json", "good.rules"],
    ["check", "-", "good.rules"],
    ["check", "good.rules", "--all"],
    ["fmt", "good.rules"],
    ["fmt", "good.rules", "--check"],
    ["fmt", "--check", "good.rules", "messy.rules"],
    ["fmt", "good.rules", "messy.rules"],
    ["fmt", "syntax.rules", "good.rules"],
    ["fmt", "missing.rules"],
    ["fmt", "folder.rules"],
    ["fmt", "allfives"],
    ["fmt"],
    ["explain", "exact61"],
    ["explain", "good.rules"],
    ["explain", "bad.rules"],
    ["explain", "missing.rules"],
    ["explain", "good.rules", "extra"],
    ["explain", "--json", "good.rules"],
]


@pytest.mark.parametrize("args", COMMAND_LINES, ids=[" ".join(a) or "none" for a in COMMAND_LINES])
def test_the_fast_path_says_and_does_what_the_command_does(tmp_path, args):
    stdin = (ROOT / "rulesets" / "allfives.rules").read_text(encoding="utf-8")
    fast_dir, slow_dir = _files(tmp_path / "fast"), _files(tmp_path / "slow")
    fast = _run(args, True, fast_dir, stdin=stdin)
    slow = _run(args, False, slow_dir, stdin=stdin)
    assert fast == slow
    for name in ("good.rules", "messy.rules", "bad.rules"):  # fmt rewrote the same files the same way
        assert (fast_dir / name).read_text(encoding="utf-8") == (slow_dir / name).read_text(encoding="utf-8")


def test_a_valid_file_is_checked_without_click(files):
    code = ("import sys; sys.argv = ['rulelang', 'check', 'good.rules']\n"
            "from rulelang.entry import fast_check\n"
            "status = fast_check(sys.argv[1:])\n"
            "print(status, 'click' in sys.modules, 'lark' in sys.modules, 'jsonschema' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, "-c", code], cwd=files, env=env, capture_output=True, text=True, timeout=120)
    assert run.stdout.splitlines() == ["good.rules: ok", "0 False False False"], run.stderr


def test_the_fast_path_leaves_everything_else_to_the_command(files, monkeypatch):
    from rulelang.entry import fast_path

    monkeypatch.chdir(files)
    for args in (["check", "syntax.rules"], ["check", "--json", "good.rules"], ["check", "-"], ["check"],
                 ["compile", "good.rules"], ["fmt", "messy.rules"], ["fmt", "missing.rules"], ["fmt", "-"],
                 ["explain", "bad.rules"], ["explain", "--json", "good.rules"], [], ["--help"]):
        assert fast_path(args) is None, args
    assert fast_path(["fmt", "good.rules"]) == 0
    assert (files / "messy.rules").read_text(encoding="utf-8") != (files / "good.rules").read_text(encoding="utf-8")


TERMINAL_LINES = [["check", "good.rules"], ["check", "good.rules", "allfives", "pagat"], ["check", "good.rules", "bad.rules"],
                  ["fmt", "good.rules"], ["fmt", "--check", "good.rules"], ["fmt", "good.rules", "messy.rules"],
                  ["explain", "exact61"]]


def _run_at_terminal(args: list[str], fast: bool, cwd: Path, extra_env: dict[str, str]) -> tuple[int, bytes]:
    pexpect = pytest.importorskip("pexpect")
    env = {k: v for k, v in os.environ.items()
           if k not in ("RULELANG_NO_FAST_CHECK", "RULELANG_DEBUG", "NO_COLOR", "FORCE_COLOR", "COLUMNS")}
    env.update({"PYTHONPATH": os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]), "TERM": "xterm"}, **extra_env)
    if not fast:
        env["RULELANG_NO_FAST_CHECK"] = "1"
    child = pexpect.spawn(sys.executable, ["-m", "rulelang", *args], cwd=str(cwd), env=env, timeout=120,
                          dimensions=(40, 200))
    out = child.read()
    child.close()
    return child.exitstatus, out


@pytest.mark.parametrize("extra_env", [{}, {"NO_COLOR": "1"}, {"TERM": "dumb"}], ids=["colour", "NO_COLOR", "dumb"])
@pytest.mark.parametrize("args", TERMINAL_LINES, ids=[" ".join(a) for a in TERMINAL_LINES])
def test_at_a_terminal_the_fast_path_prints_what_the_command_prints(tmp_path, args, extra_env):
    # at a terminal the command colours through rich: the fast path prints the same bytes (or leaves it to it)
    fast_dir, slow_dir = _files(tmp_path / "fast"), _files(tmp_path / "slow")
    assert _run_at_terminal(args, True, fast_dir, extra_env) == _run_at_terminal(args, False, slow_dir, extra_env)
    for f in ("good.rules", "messy.rules"):
        assert (fast_dir / f).read_bytes() == (slow_dir / f).read_bytes()
