"""The command line's promises kept alike across commands: one message per failure, the exit statuses of the
documented table (0 done, 1 invalid rulesets or files, 2 wrong usage), folders walked, pipes given plain text."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def test_conform_with_an_engine_that_cannot_start_says_so_once_and_exits_1(tmp_path):
    report = tmp_path / "report.json"
    result = run("conform", "--engine", str(tmp_path / "nope"), "--report", str(report))
    assert result.exit_code == 1
    assert result.output.count("cannot start") == 1 and len(result.output.splitlines()) == 1, result.output
    assert json.loads(report.read_text(encoding="utf-8"))["engine"]["start_error"]


SMALL = ["--matches", "4", "--skill-matches", "2", "--strong", "pimc:2"]


def test_balance_takes_o_output_as_every_writing_command_does(tmp_path):
    out = tmp_path / "study.jsonl"
    result = run("balance", "exact61", *SMALL, "--json", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert len(out.read_text(encoding="utf-8").splitlines()) > 1  # a header line, then the matches
    resumed = run("balance", "exact61", *SMALL, "--json", "--output", str(out), "--resume")
    assert resumed.exit_code == 0 and "reused" in resumed.output
    assert run("balance", "exact61", "-o", "-").exit_code == 2  # a study file, not a stream
    assert run("balance", "exact61", "-o", str(out), "--out", str(out)).exit_code == 2


def test_cases_generate_of_an_invalid_ruleset_exits_1_as_every_command(tmp_path):
    broken = tmp_path / "c.rules"
    broken.write_text('ruleset c "c"\nsource "s"\nbased on allfives\nhand 0 tiles\n', encoding="utf-8")
    assert run("check", str(broken)).exit_code == 1
    result = run("cases", "generate", str(broken), "-o", str(tmp_path / "out"))
    assert result.exit_code == 1 and "c.rules" in result.output and "Usage" not in result.output


def _tree(root: Path) -> None:
    """A project: rulesets in folders, and copies in places a walk must not enter."""
    good = (ROOT / "rulesets" / "exact61.rules").read_text(encoding="utf-8")
    for rel in ("b/two.rules", "a/one.rules", "top.rules", "a/deep/three.rules",
                ".git/hidden.rules", ".venv/lib/v.rules", "myenv/m.rules", "node_modules/n.rules"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(good, encoding="utf-8")
    (root / "myenv" / "pyvenv.cfg").write_text("home = /usr\n", encoding="utf-8")
    (root / "notes.txt").write_text("not a ruleset\n", encoding="utf-8")
    (root / "a" / "deep" / "three.rules").write_text(good.replace("\n", "  \n"), encoding="utf-8")


WALKED = ["a/deep/three.rules", "a/one.rules", "b/two.rules", "top.rules"]


def test_check_of_a_folder_checks_every_ruleset_below_it_sorted(tmp_path, monkeypatch):
    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = run("check", ".")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [f"{p}: ok" for p in WALKED]
    assert run("check", "a").output.splitlines() == ["a/deep/three.rules: ok", "a/one.rules: ok"]
    (tmp_path / "empty").mkdir()
    empty = run("check", "empty")
    assert empty.exit_code == 1 and "empty: no ruleset file (*.rules) in this folder" in empty.output


def test_fmt_of_a_folder_formats_every_ruleset_below_it_and_check_exits_as_for_files(tmp_path, monkeypatch):
    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    would = run("fmt", "--check", ".")
    assert would.exit_code == 1 and would.output == "would reformat a/deep/three.rules\n"
    assert run("fmt", ".").output == "reformatted a/deep/three.rules\n"
    assert run("fmt", "--check", ".").exit_code == 0
    hidden = (tmp_path / ".git" / "hidden.rules").read_text(encoding="utf-8")
    assert hidden == (ROOT / "rulesets" / "exact61.rules").read_text(encoding="utf-8")
    (tmp_path / "empty").mkdir()  # a folder without rulesets: exit 1 for check and fmt --check alike
    assert run("fmt", "--check", "empty").exit_code == run("check", "empty").exit_code == 1


def test_fmt_diff_prints_what_would_change_changes_nothing_and_exits_1(tmp_path):
    good = (ROOT / "rulesets" / "exact61.rules").read_text(encoding="utf-8")
    messy = good.replace("players", "players ", 1)
    (tmp_path / "messy.rules").write_text(messy, encoding="utf-8")
    (tmp_path / "good.rules").write_text(good, encoding="utf-8")
    result = run("fmt", "--diff", str(tmp_path))
    assert result.exit_code == 1
    path = str(tmp_path / "messy.rules")
    lines = result.output.splitlines()
    assert lines[:2] == [f"--- {path}", f"+++ {path}"] and lines[2].startswith("@@ ")
    assert [x for x in lines if x[:1] in "+-" and x[:3] not in ("---", "+++")] == [
        "-" + next(x for x in messy.splitlines() if x.startswith("players ")),
        "+" + next(x for x in good.splitlines() if x.startswith("players"))]
    assert (tmp_path / "messy.rules").read_text(encoding="utf-8") == messy  # nothing written
    assert run("fmt", "--diff", str(tmp_path / "good.rules")).output == ""
    assert run("fmt", "--diff", str(tmp_path / "good.rules")).exit_code == 0
    piped = run("fmt", "-", "--diff", "--stdin-filename", "club.rules", input=messy)
    assert piped.exit_code == 1 and piped.output.startswith("--- club.rules\n+++ club.rules\n@@ ")


def test_check_names_a_bundled_ruleset_as_the_user_did_not_by_its_place_in_the_package(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("check", "allfives")
    assert result.exit_code == 0 and result.output == "allfives (bundled): ok\n"
    (tmp_path / "allfives.rules").write_text((ROOT / "rulesets" / "exact61.rules").read_text(encoding="utf-8"),
                                             encoding="utf-8")
    assert run("check", "allfives.rules").output == "allfives.rules: ok\n"  # a file of the user's: its path


UNICODE_BOX = "━┃│┏┡─┳╇└┘"


def _piped_tables_are_ascii_and_whole(output: str) -> None:
    assert "+---" in output and not any(ch in output for ch in UNICODE_BOX), output
    assert "…" not in output  # no cell truncated


def test_piped_balance_and_ladder_tables_are_ascii_with_every_column_labelled():
    plain = run("balance", "exact61", *SMALL)
    assert plain.exit_code == 0, plain.output
    _piped_tables_are_ascii_and_whole(plain.output)
    compared = run("balance", "exact61", *SMALL, "--vs", "allfives")
    assert compared.exit_code == 0, compared.output
    _piped_tables_are_ascii_and_whole(compared.output)
    header = next(line for line in compared.output.splitlines() if line.startswith("| figure"))
    assert all(cell.strip() for cell in header.strip("|").split("|")), header  # no unlabelled column
    ladder = run("balance", "exact61", "--ladder", "--link-matches", "4", "--rungs", "random,greedy")
    assert ladder.exit_code == 0, ladder.output
    _piped_tables_are_ascii_and_whole(ladder.output)


def test_piped_conform_table_keeps_long_variant_names_whole():
    result = run("conform", "--variant", "muggins-three-hands", "--variant", "muggins")  # wider than 80 columns
    assert result.exit_code == 0, result.output
    _piped_tables_are_ascii_and_whole(result.output)
    assert "| muggins-three-hands | complete " in result.output and "| house-statements |" in result.output


def _piped(args: list[str], cwd: Path, **env: str) -> tuple[int, str]:
    import os
    import subprocess
    import sys

    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "RULELANG_DEBUG")}
    base["PYTHONPATH"] = os.pathsep.join([str(ROOT), base.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-m", "rulelang", *args], cwd=cwd, env={**base, **env},
                          capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout


GREEN_OK = "\x1b[32mgood.rules: ok\x1b[0m"


def test_colour_follows_force_color_no_color_and_the_color_option(tmp_path):
    (tmp_path / "good.rules").write_text((ROOT / "rulesets" / "exact61.rules").read_text(encoding="utf-8"),
                                         encoding="utf-8")
    assert _piped(["check", "good.rules"], tmp_path) == (0, "good.rules: ok\n")  # piped: plain
    assert _piped(["check", "good.rules"], tmp_path, FORCE_COLOR="1")[1].strip() == GREEN_OK
    assert _piped(["--color", "always", "check", "good.rules"], tmp_path)[1].strip() == GREEN_OK
    assert _piped(["--color", "always", "check", "good.rules"], tmp_path, NO_COLOR="1")[1].strip() == GREEN_OK
    assert _piped(["--color", "never", "check", "good.rules"], tmp_path, FORCE_COLOR="1")[1] == "good.rules: ok\n"
    assert _piped(["check", "good.rules"], tmp_path, FORCE_COLOR="1", NO_COLOR="1")[1] == "good.rules: ok\n"
    assert _piped(["--color", "sometimes", "check", "good.rules"], tmp_path)[0] == 2


def _completions(args: list[str], incomplete: str) -> list[tuple[str, str]]:
    from click.shell_completion import ShellComplete

    items = ShellComplete(main, {}, "rulelang", "_RULELANG_COMPLETE").get_completions(args, incomplete)
    return [(item.type, item.value) for item in items]


def test_shell_completion_offers_bundled_names_where_a_ruleset_is_taken_and_files_too():
    from rulelang.language.bundled import bundled_names

    muggins = [("plain", n) for n in bundled_names() if n.startswith("mug")]
    assert muggins and _completions(["check"], "mug") == [*muggins, ("file", "mug")]
    for args in (["explain"], ["compile"], ["diff", "exact61"], ["play"], ["simulate"], ["balance"],
                 ["balance", "exact61", "--vs"], ["cases", "generate"]):
        assert _completions(args, "mug")[:-1] == muggins, args
    assert _completions(["show"], "mug") == muggins  # bundled names only: show prints a bundled ruleset
    assert _completions(["new", "x", "--based-on"], "mug") == muggins
    script = _piped(["--help"], ROOT, _RULELANG_COMPLETE="bash_source")[1]
    assert "_rulelang_completion" in script and "complete -o nosort -F" in script


def test_color_is_taken_after_the_command_too(tmp_path):
    (tmp_path / "good.rules").write_text((ROOT / "rulesets" / "exact61.rules").read_text(encoding="utf-8"),
                                         encoding="utf-8")
    assert _piped(["check", "--color", "always", "good.rules"], tmp_path)[1].strip() == GREEN_OK
    assert _piped(["check", "good.rules", "--color=never"], tmp_path, FORCE_COLOR="1")[1] == "good.rules: ok\n"
    assert _piped(["cases", "generate", "--color", "sometimes"], tmp_path)[0] == 2  # a subgroup's command too


def test_a_mistyped_command_gets_a_did_you_mean():
    result = CliRunner().invoke(main, ["chek", "allfives"])
    assert result.exit_code == 2
    assert "No such command 'chek'" in result.output and "Did you mean 'check'?" in result.output
    result = CliRunner().invoke(main, ["cases", "genrate"])
    assert result.exit_code == 2 and "Did you mean 'generate'?" in result.output
    result = CliRunner().invoke(main, ["zzzzzz"])  # nothing close: no suggestion
    assert result.exit_code == 2 and "Did you mean" not in result.output


# Every command that takes a variant, given a name that names none: the table of docs/tools.md says 1 ("an
# unknown variant"), whether the command also takes a file there or only a bundled name; diff keeps diff(1)'s 2,
# and `conform --variant` selects cases, as `--tag` and `--id` do: a selection that names none is wrong usage (2).
UNKNOWN_VARIANT = {
    "check": ["check", "nosuch"], "compile": ["compile", "nosuch"], "explain": ["explain", "nosuch"],
    "fmt": ["fmt", "--check", "nosuch"], "show": ["show", "nosuch"], "new": ["new", "club", "--based-on", "nosuch"],
    "play": ["play", "nosuch"], "simulate": ["simulate", "nosuch", "-n", "1"], "balance": ["balance", "nosuch"],
    "cases generate": ["cases", "generate", "nosuch", "-o", "out"],
    "conform --variant": ["conform", "--variant", "nosuch"], "diff": ["diff", "nosuch", "allfives"],
}


def _documented_exit_codes() -> dict[int, str]:
    text = (ROOT / "docs" / "tools.md").read_text(encoding="utf-8").split("## Exit codes", 1)[1]
    return {int(code): meaning for code, meaning in re.findall(r"^\| (\d+) \| (.+) \|$", text, flags=re.M)}


@pytest.mark.parametrize("name", sorted(UNKNOWN_VARIANT))
def test_an_unknown_variant_exits_as_the_table_says_in_every_command(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    table = _documented_exit_codes()
    expected = 2 if name in ("diff", "conform --variant") else 1
    assert "unknown variant" in table[1] and "diff(1)" in table[2] and "conform --variant" in table[2]
    result = CliRunner().invoke(main, UNKNOWN_VARIANT[name], input="")
    assert result.exit_code == expected, result.output
    assert "nosuch" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "club.rules").exists()


def _exit_status_when_reader_leaves(args):
    p = subprocess.Popen([sys.executable, "-m", "rulelang", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env={**os.environ, "RULELANG_NO_PROGRESS": "1"})
    assert p.stdout is not None and p.stderr is not None
    # The reader leaves before the command has written anything (it is still starting up):
    # reading a line first would race, as a short output can fit whole in the pipe's buffer.
    p.stdout.close()
    err = p.stderr.read().decode()
    return p.wait(), err


@pytest.mark.parametrize("args", [["conform", "--variant", "pagat"], ["simulate", "pagat", "-n", "5"]])
def test_rich_output_into_a_closed_pipe_ends_like_the_other_commands(args):
    code, err = _exit_status_when_reader_leaves(args)
    assert code == 141 and "Traceback" not in err  # not 1, which reads as "a case failed"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["compile", "exact61"], ["list"], ["explain", "pagat"]])
def test_a_full_disk_on_stdout_is_an_error_not_a_bug(args):
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "rulelang", *args], stdout=full, stderr=subprocess.PIPE, text=True)
    assert p.returncode == 1
    assert "No space left on device" in p.stderr and "bug" not in p.stderr and "Traceback" not in p.stderr


def test_a_dash_as_output_means_standard_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(main, ["compile", "allfives-pooled", "-o", "-"])
    assert res.exit_code == 0 and json.loads(res.output)["name"] == "allfives-pooled"
    res = CliRunner().invoke(main, ["render", "--case", "pagat-diagram-13", "-o", "-"])
    assert res.exit_code == 0 and res.output.lstrip().startswith("<")
    ET.fromstring(res.output)
    assert not (tmp_path / "-").exists()
