"""The everyday command lines as a user runs them (`python -m rulelang ...` in a folder of files): what they
print, which files they leave and their exit status (0 done, 1 invalid rulesets or files, 2 wrong usage)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SYNTAX = 'based on allfives\nruleset s "S"\nsource "x"\nplayers banana\n'


def _run(args: list[str], cwd: Path, stdin: str = "") -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if k != "RULELANG_DEBUG"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    run = subprocess.run([sys.executable, "-m", "rulelang", *args], cwd=cwd, env=env, input=stdin,
                         capture_output=True, text=True, timeout=120)
    return run.returncode, run.stdout, run.stderr


@pytest.fixture
def files(tmp_path: Path) -> Path:
    bad = sorted((ROOT / "tests" / "data" / "rulesets" / "bad").glob("*.rules"))[0]
    (tmp_path / "bad.rules").write_text(bad.read_text(encoding="utf-8"), encoding="utf-8")
    good = (ROOT / "rulesets" / "exact61.rules").read_text(encoding="utf-8")
    (tmp_path / "good.rules").write_text(good, encoding="utf-8")
    (tmp_path / "messy.rules").write_text(good.replace("\n", "  \n").replace("players", "players ", 1), encoding="utf-8")
    (tmp_path / "syntax.rules").write_text(SYNTAX, encoding="utf-8")
    (tmp_path / "folder.rules").mkdir()
    return tmp_path


CHECKS = [
    (["check", "good.rules"], 0, "good.rules: ok\n", ""),
    (["check", "good.rules", "allfives", "pagat"], 0, "good.rules: ok\nallfives (bundled): ok\npagat (bundled): ok\n", ""),
    (["check", "good.rules", "bad.rules"], 1, "good.rules: ok\nbad.rules:4:1: multiples of 3 or 5", ""),
    (["check", "syntax.rules"], 1, "syntax.rules:4:9: unexpected word `banana`\n    4 | players banana\n", ""),
    (["check", "missing.rules"], 1, "missing.rules: no such file: missing.rules", ""),
    (["check", "folder.rules"], 1, "folder.rules: no ruleset file (*.rules) in this folder", ""),
    (["check", "nosuchname"], 1, "nosuchname: no such file or bundled ruleset: nosuchname\nhint: bundled rulesets:", ""),
    (["check"], 2, "", "Usage: rulelang check [OPTIONS] FILE|NAME|-..."),
    (["check", "-", "good.rules"], 0, "<stdin>: ok\ngood.rules: ok\n", ""),
    (["fmt", "good.rules", "--check"], 0, "", ""),
    (["fmt", "--check", "good.rules", "messy.rules"], 1, "would reformat messy.rules\n", ""),
    (["fmt", "syntax.rules", "good.rules"], 1, "", "syntax.rules:4:9: unexpected word `banana`"),
    (["fmt", "folder.rules"], 1, "", "folder.rules: no ruleset file (*.rules) in this folder"),
    (["fmt", "--check", "folder.rules"], 1, "", "folder.rules: no ruleset file (*.rules) in this folder"),
    (["fmt"], 2, "", "Usage: rulelang fmt [OPTIONS] FILE|DIR...|-"),
    (["explain", "bad.rules"], 1, "", "bad.rules:4:1: multiples of 3 or 5"),
    (["explain", "good.rules", "extra"], 2, "", "Usage: rulelang explain [OPTIONS] FILE|NAME"),
    (["nosuchcommand"], 2, "", "Usage: rulelang [OPTIONS] COMMAND [ARGS]..."),
]


@pytest.mark.parametrize(("args", "status", "out", "err"), CHECKS, ids=[" ".join(c[0]) or "none" for c in CHECKS])
def test_what_a_command_line_prints_and_its_exit_status(files, args, status, out, err):
    stdin = (ROOT / "rulesets" / "allfives.rules").read_text(encoding="utf-8")
    got = _run(args, files, stdin)
    assert got[0] == status, got
    assert got[1].startswith(out) and got[2].startswith(err), got
    if not out:
        assert got[1] == ""


def test_fmt_rewrites_only_the_files_not_in_canonical_form(files):
    good = (files / "good.rules").read_text(encoding="utf-8")
    stamp = (files / "good.rules").stat().st_mtime_ns
    assert _run(["fmt", "good.rules", "messy.rules"], files) == (0, "reformatted messy.rules\n", "")
    assert (files / "messy.rules").read_text(encoding="utf-8") == good
    assert (files / "good.rules").stat().st_mtime_ns == stamp
    assert _run(["fmt", "--check", "messy.rules"], files) == (0, "", "")


def test_explain_prints_the_rules_in_words(files):
    status, out, err = _run(["explain", "exact61"], files)
    assert status == 0 and not err and out.startswith("Exact 61 Five Up (exact61)\nSource: "), out
    assert _run(["explain", "good.rules"], files) == (0, out, "")  # the same rules from a file


def test_version_says_which_engine_is_installed(files):
    status, out, _ = _run(["--version"], files)
    assert status == 0 and out.startswith("rulelang, version ") and "(engine: " in out


@pytest.mark.parametrize(("extra_env", "line"), [({}, b"\x1b[32mgood.rules: ok\x1b[0m"), ({"NO_COLOR": "1"}, b"good.rules: ok"),
                                                 ({"TERM": "dumb"}, b"good.rules: ok")], ids=["colour", "NO_COLOR", "dumb"])
def test_at_a_terminal_check_says_ok_in_green_unless_colour_is_off(files, extra_env, line):
    pexpect = pytest.importorskip("pexpect")
    env = {k: v for k, v in os.environ.items() if k not in ("RULELANG_DEBUG", "NO_COLOR", "FORCE_COLOR", "COLUMNS")}
    env.update({"PYTHONPATH": os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]), "TERM": "xterm"}, **extra_env)
    child = pexpect.spawn(sys.executable, ["-m", "rulelang", "check", "good.rules"], cwd=str(files), env=env,
                          timeout=120, dimensions=(40, 200))
    out = child.read()
    child.close()
    assert child.exitstatus == 0 and out.strip() == line, out
