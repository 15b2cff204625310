"""The language commands through click's CliRunner: output and exit status."""
from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from cli_run import run as run_guarded
from click.testing import CliRunner

import rulelang
from rulelang.cli import main
from rulelang.language.bundled import bundled_text

DATA = Path(__file__).parent / "data" / "rulesets"


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(main, list(args), catch_exceptions=False)

    return invoke


def test_list(run):
    result = run("list")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].split() == ["name", "title", "players", "target"]
    assert len(lines) == 1 + len(rulelang.bundled_names())
    exact = next(line for line in lines if line.startswith("exact61 "))
    assert "Exact 61 Five Up" in exact and "2-4 (teams at 4)" in exact and "exactly 61 shown" in exact
    assert "at least 150" in next(line for line in lines if line.startswith("allfives "))


def test_check_all_bundled(run):
    result = run("check", "--all")
    assert result.exit_code == 0
    assert "exact61 (bundled): ok" in result.output
    assert result.output.count(": ok") == len(rulelang.bundled_names())


def test_check_files_and_names(run, tmp_path):
    good = tmp_path / "good.rules"
    good.write_text(bundled_text("pagat"), encoding="utf-8")
    result = run("check", str(good), "allfives")
    assert result.exit_code == 0
    assert f"{good}: ok" in result.output and "allfives (bundled): ok" in result.output


def test_check_bad_file_prints_every_error(run, tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text('based on exact61\nruleset x "X"\nsource "s"\nhand 5 tils\nplayers 2 to 4, partnership with 4\n',
                   encoding="utf-8")
    result = run("check", str(bad), "exact61")
    assert result.exit_code == 1
    assert f"{bad}:4:8: unexpected word `tils`" in result.output
    assert f"{bad}:5:17: unexpected word `partnership`" in result.output
    assert "hint: did you mean `partnerships`?" in result.output
    assert f"{bad}: 2 errors" in result.output
    assert "exact61 (bundled): ok" in result.output
    assert "Traceback" not in result.output


def test_check_missing_file(run, tmp_path):
    result = run("check", str(tmp_path / "nope.rules"))
    assert result.exit_code == 1
    assert f"no such file: {tmp_path / 'nope.rules'}" in result.output
    result = run("check", "no-such-name")
    assert result.exit_code == 1
    assert "no such file or bundled ruleset: no-such-name" in result.output


def test_check_needs_an_argument(run):
    result = run("check")
    assert result.exit_code == 2
    assert "give at least one ruleset" in result.output


def test_compile_stdout_and_output_file(run, tmp_path):
    result = run("compile", "exact61")
    assert result.exit_code == 0
    assert json.loads(result.output) == rulelang.compile_bundled("exact61")
    out = tmp_path / "x.json"
    result = run("compile", "allfives", "-o", str(out))
    assert result.exit_code == 0 and result.output == ""
    assert json.loads(out.read_text()) == rulelang.compile_bundled("allfives")
    result = run("compile", str(out))  # a compiled .json is checked and echoed
    assert result.exit_code == 0 and json.loads(result.output) == rulelang.compile_bundled("allfives")


def test_compile_bad_input(run, tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text("hand 5 tiles\n", encoding="utf-8")
    result = run("compile", str(bad))
    assert result.exit_code == 1
    assert "missing 21 statements: the ruleset's name and title;" in result.output
    result = run("compile", str(tmp_path / "none.rules"))
    assert result.exit_code == 1 and "no such file" in result.output


def test_fmt_check_and_rewrite(run, tmp_path):
    messy = tmp_path / "messy.rules"
    messy.write_text((DATA / "good" / "messy.rules").read_text(), encoding="utf-8")
    before = rulelang.compile_file(messy)
    result = run("fmt", "--check", str(messy))
    assert result.exit_code == 1
    assert f"would reformat {messy}" in result.output
    assert messy.read_text() == (DATA / "good" / "messy.rules").read_text()
    result = run("fmt", str(messy))
    assert result.exit_code == 0 and f"reformatted {messy}" in result.output
    assert messy.read_text() == (DATA / "good" / "messy.order.fmt").read_text()  # the author's order kept
    assert rulelang.compile_file(messy) == before
    result = run("fmt", "--check", str(messy))
    assert result.exit_code == 0 and result.output == ""
    assert run("fmt", "--check", "--sort", str(messy)).exit_code == 1
    result = run("fmt", "--sort", str(messy))
    assert result.exit_code == 0 and f"reformatted {messy}" in result.output
    assert messy.read_text() == (DATA / "good" / "messy.fmt").read_text()  # the canonical order
    assert rulelang.compile_file(messy) == before
    result = run("fmt", "--check", str(messy))
    assert result.exit_code == 0 and result.output == ""
    assert [p.name for p in tmp_path.iterdir()] == ["messy.rules"]  # no temporary file left


def test_fmt_refuses_broken_files(run, tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text("hand 5 tils\n", encoding="utf-8")
    result = run("fmt", str(bad))
    assert result.exit_code == 1
    assert "unexpected word `tils`" in result.output and "not formatted" in result.output
    assert bad.read_text() == "hand 5 tils\n"
    twice = tmp_path / "twice.rules"
    twice.write_text("hand 5 tiles\nhand 6 tiles\n", encoding="utf-8")
    result = run("fmt", str(twice))
    assert result.exit_code == 1 and "given twice" in result.output
    result = run("fmt", str(tmp_path / "none.rules"))
    assert result.exit_code == 1 and "no such file" in result.output


def test_explain_marks_inherited_rules(run):
    result = run("explain", "allfives-pooled")
    assert result.exit_code == 0
    out = result.output
    assert out.startswith("All Fives, pooled collection (house variant) (allfives-pooled)\n")
    assert "Based on allfives" in out
    assert "- Each player is dealt 7 tiles with 2 players, 6 with 3 players, 5 with 4 players. (from allfives)" in out
    collected = next(line for line in out.splitlines() if "added together and rounded once" in line)
    assert "(from allfives)" not in collected


def test_explain_source_variant(run):
    result = run("explain", "exact61")
    assert result.exit_code == 0
    assert "A side wins by reaching exactly 61 shown points (305 raw)." in result.output
    assert "(from" not in result.output
    result = run("explain", "nope")
    assert result.exit_code == 1 and "no such file or bundled ruleset" in result.output


def test_diff(run):
    result = run("diff", "allfives", "allfives-pooled")
    assert result.exit_code == 1  # as diff(1): the variants differ
    lines = result.output.splitlines()
    assert lines[0] == "allfives and allfives-pooled differ in 2 rules:"
    assert "What is settled on a domino" in lines
    result = run("diff", "exact61", "exact61")
    assert result.exit_code == 0 and "state the same rules" in result.output
    result = run("diff", "exact61", "pagat")
    assert "The target" in result.output and "exactly 61 shown points" in result.output


def test_diff_bad_input(run, tmp_path):
    result = run("diff", "exact61", str(tmp_path / "x.rules"))
    assert result.exit_code == 2 and "no such file" in result.output  # as diff(1): trouble is 2


def test_check_analyses_a_valid_file_once(run, tmp_path, monkeypatch):
    """`check` reads its errors and its warnings from one analysis of the file."""
    import rulelang.language.compiler

    good = tmp_path / "good.rules"
    good.write_text(bundled_text("pagat"), encoding="utf-8")
    seen: list[str] = []
    real = rulelang.language.compiler.analyse

    def counting(text: str, filename: str = "<string>"):
        seen.append(filename)
        return real(text, filename)

    monkeypatch.setattr(rulelang.language.compiler, "analyse", counting)
    monkeypatch.setattr("rulelang.language.api.analyse", counting)
    result = run("check", str(good))
    assert result.exit_code == 0 and f"{good}: ok" in result.output
    assert seen == [str(good)]


def test_compile_output_in_a_missing_folder_names_the_folder_not_a_temp_file(tmp_path):
    res = run_guarded("compile", "exact61", "-o", str(tmp_path / "nope" / "x.json"))
    assert res.exit_code == 1
    assert "no such folder" in res.output and ".tmp" not in res.output


def test_compile_output_gets_ordinary_permissions(tmp_path):
    out = tmp_path / "new.json"
    assert run_guarded("compile", "exact61", "-o", str(out)).exit_code == 0
    assert stat.S_IMODE(out.stat().st_mode) & 0o044  # readable by others (umask permitting), not 0600


def test_compile_refuses_to_write_over_its_own_input(tmp_path):
    from rulelang.language.bundled import bundled_text

    src = tmp_path / "x.rules"
    text = bundled_text("exact61")
    src.write_text(text)
    res = run_guarded("compile", str(src), "-o", str(src))
    assert res.exit_code == 2 and "would replace it" in res.output
    assert src.read_text() == text


def test_check_accepts_a_compiled_configuration_like_compile_and_explain(tmp_path):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    assert run_guarded("compile", "pagat", "-o", str(good)).exit_code == 0
    bad.write_text('"str"')
    res = run_guarded("check", str(good))
    assert res.exit_code == 0 and "ok" in res.output
    res = run_guarded("check", str(bad))
    assert res.exit_code == 1 and "not a rulelang configuration" in res.output


def test_fmt_of_a_bundled_name_says_it_rewrites_files():
    res = run_guarded("fmt", "exact61")
    assert res.exit_code == 1 and "bundled ruleset" in res.output


def test_fmt_of_comments_alone_adds_no_leading_blank_lines():
    import rulelang

    assert rulelang.format_text("# just a comment\n") == "# just a comment\n"


def test_fmt_through_a_symbolic_link_keeps_the_link(tmp_path):
    real = tmp_path / "real.rules"
    real.write_text('ruleset x "X"\nsource "s"\nbased on exact61\ntarget   exactly 61 shown points\n')
    link = tmp_path / "link.rules"
    link.symlink_to(real)
    assert run_guarded("fmt", str(link)).exit_code == 0
    assert link.is_symlink()
    assert "target exactly 61 shown points" in real.read_text()
