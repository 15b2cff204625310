"""The console script's fast `check` (rulelang/entry.py): the same output and exit status as the click command.

`rulelang check FILE...` of valid files is answered without importing click
(issue 12); anything else runs the click command. Each command line below is
run both ways (RULELANG_NO_FAST_CHECK=1 forces the click command) and must
print the same bytes on both streams and exit with the same status.
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


@pytest.fixture
def files(tmp_path: Path) -> Path:
    bad = (ROOT / "tests" / "data" / "rulesets" / "bad")
    some_bad = sorted(bad.glob("*.rules"))[:1]
    for p in some_bad:
        (tmp_path / "bad.rules").write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "good.rules").write_text((ROOT / "rulesets" / "exact61.rules").read_text(encoding="utf-8"),
                                         encoding="utf-8")
    (tmp_path / "syntax.rules").write_text('based on allfives\nruleset s "S"\nsource "x"\nplayers banana\n')
    (tmp_path / "folder.rules").mkdir()
    return tmp_path


@pytest.mark.parametrize("args", [
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
])
def test_the_fast_check_says_what_the_command_says(files, args):
    fast = _run(args, True, files, stdin=(ROOT / "rulesets" / "allfives.rules").read_text(encoding="utf-8"))
    slow = _run(args, False, files, stdin=(ROOT / "rulesets" / "allfives.rules").read_text(encoding="utf-8"))
    assert fast == slow


def test_a_valid_file_is_checked_without_click(files):
    code = ("import sys; sys.argv = ['rulelang', 'check', 'good.rules']\n"
            "from rulelang.entry import fast_check\n"
            "status = fast_check(sys.argv[1:])\n"
            "print(status, 'click' in sys.modules, 'lark' in sys.modules, 'jsonschema' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, "-c", code], cwd=files, env=env, capture_output=True, text=True, timeout=120)
    assert run.stdout.splitlines() == ["good.rules: ok", "0 False False False"], run.stderr


def test_the_fast_check_leaves_everything_else_to_the_command(files, monkeypatch):
    from rulelang.entry import fast_check

    monkeypatch.chdir(files)
    assert fast_check(["check", "syntax.rules"]) is None
    assert fast_check(["check", "--json", "good.rules"]) is None
    assert fast_check(["check", "-"]) is None
    assert fast_check(["compile", "good.rules"]) is None
    assert fast_check(["check"]) is None
