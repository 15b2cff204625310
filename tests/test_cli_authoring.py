"""The command line as editors, scripts and pipes use it: standard input, --json, exit codes, output options."""
from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.language.bundled import bundled_names, bundled_text

ROOT = Path(__file__).resolve().parents[1]
LSP_DATA = Path(__file__).parent / "data" / "lsp"
BROKEN = (LSP_DATA / "broken.rules").read_text(encoding="utf-8")
UNFORMATTED = (LSP_DATA / "unformatted.rules").read_text(encoding="utf-8")


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


# -- standard input -----------------------------------------------------------------------

def test_check_reads_standard_input_with_a_name_for_messages():
    result = run("check", "-", "--stdin-filename", "club.rules", input=BROKEN)
    assert result.exit_code == 1
    assert "club.rules:4:8: unexpected word `tils`" in result.output
    assert "hint: did you mean `tiles`?" in result.output
    result = run("check", "-", input=bundled_text("pagat"))
    assert result.exit_code == 0 and "<stdin>: ok" in result.output
    result = run("check", "-", "-", input="")
    assert result.exit_code == 2 and "once" in result.output


def test_fmt_reads_standard_input_and_writes_the_canonical_text():
    from rulelang.language.formatter import canonical

    result = run("fmt", "-", input=UNFORMATTED)
    assert result.exit_code == 0
    assert result.output == canonical(UNFORMATTED, "<stdin>")[0]
    assert run("fmt", "-", "--check", input=UNFORMATTED).exit_code == 1
    assert run("fmt", "-", "--check", input=result.output).exit_code == 0
    bad = run("fmt", "-", "--stdin-filename", "club.rules", input=BROKEN)
    assert bad.exit_code == 1 and "club.rules:4:8" in bad.output
    assert run("fmt", "-", "x.rules", input="").exit_code == 2


def test_fmt_of_a_bundled_name_points_to_show():
    result = run("fmt", "pagat")
    assert result.exit_code == 1 and "rulelang show pagat" in result.output


# -- --json ----------------------------------------------------------------------------------

def test_check_json_gives_every_error_with_its_position(tmp_path):
    path = tmp_path / "broken.rules"
    path.write_text(BROKEN, encoding="utf-8")
    result = run("check", "--json", str(path), "pagat", str(tmp_path / "missing.rules"))
    assert result.exit_code == 1
    doc = json.loads(result.output)
    assert doc["ok"] is False
    broken, pagat, missing = doc["files"]
    assert broken == {"file": str(path), "kind": "ruleset", "ok": False, "errors": [{
        "code": "unexpected-word", "file": str(path), "line": 4, "column": 8, "end": {"line": 4, "column": 12},
        "message": "unexpected word `tils`", "hint": "did you mean `tiles`?"}]}
    assert pagat == {"file": "rulesets/pagat.rules", "kind": "ruleset", "ok": True, "errors": []}
    assert missing["kind"] == "file" and missing["errors"][0]["code"] == "file-not-found"
    ok = json.loads(run("check", "--json", "--all").output)
    assert ok["ok"] is True and len(ok["files"]) == len(bundled_names())


def test_list_json():
    doc = json.loads(run("list", "--json").output)["rulesets"]
    assert [r["name"] for r in doc] == bundled_names()
    exact = next(r for r in doc if r["name"] == "exact61")
    assert exact["title"] == "Exact 61 Five Up" and exact["players"] == [2, 3, 4]
    assert exact["target"]["raw"] == 305 and exact["target"]["mode"] == "exact" and exact["unit"] == 5


def test_explain_json_marks_inherited_rules():
    doc = json.loads(run("explain", "--json", "allfives-pooled").output)
    assert doc["name"] == "allfives-pooled" and doc["based_on"] == "allfives"
    rules = [r for section in doc["sections"] for r in section["rules"]]
    assert any(r["inherited"] for r in rules) and any(not r["inherited"] for r in rules)
    assert all(set(r) == {"key", "text", "inherited"} for r in rules)


def test_diff_json_and_exit_status():
    result = run("diff", "--json", "allfives", "allfives-pooled")
    assert result.exit_code == 1
    doc = json.loads(result.output)
    assert doc["same"] is False and len(doc["differences"]) == 2
    assert set(doc["differences"][0]) == {"what", "a", "b"}
    same = run("diff", "--json", "pagat", "pagat")
    assert same.exit_code == 0 and json.loads(same.output)["same"] is True


def test_simulate_json_summary_and_comparison():
    result = run("simulate", "pagat", "-n", "4", "--json", "--vs", "exact61")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["variant"] == "pagat" and doc["matches"] == 4 and doc["vs"]["variant"] == "exact61"
    assert sum(w["count"] for w in doc["summary"]["wins"]) + doc["summary"]["draws"] + doc["summary"]["unfinished"] == 4
    assert {t["metric"] for t in doc["tests"]} >= {"rounds per match", "blocked rounds"}


# -- output options ---------------------------------------------------------------------------

def test_simulate_output_dash_is_standard_output_and_out_still_works(tmp_path):
    result = subprocess.run([sys.executable, "-m", "rulelang", "simulate", "pagat", "-n", "3", "-o", "-"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 3 and json.loads(lines[0])["index"] == 0
    assert "win rate" in result.stderr  # the table goes to stderr when stdout carries the results
    assert not (ROOT / "-").exists()
    old = tmp_path / "old.jsonl"
    assert run("simulate", "pagat", "-n", "2", "--out", str(old)).exit_code == 0  # the old spelling
    assert len(old.read_text().splitlines()) == 2
    assert run("simulate", "pagat", "-n", "2", "--json", "-o", "-").exit_code == 2


def test_render_output_and_its_old_spelling(tmp_path):
    for option in ("-o", "--output", "--out"):
        out = tmp_path / f"b{option.strip('-')}.svg"
        result = run("render", "--case", "pagat-diagram-13", option, str(out))
        assert result.exit_code == 0, result.output
        assert out.read_text().startswith("<svg") or "<svg" in out.read_text()[:200]
    assert run("render", "--case", "pagat-diagram-13").exit_code == 2


def test_piped_tables_are_plain_ascii():
    result = subprocess.run([sys.executable, "-m", "rulelang", "simulate", "pagat", "-n", "2"], cwd=ROOT,
                            capture_output=True, text=True, encoding="utf-8")
    assert result.returncode == 0
    table = result.stdout
    assert "+---" in table and not any(ch in table for ch in "━┃│┏┡─")


# -- exit codes: 0 success, 1 findings, 2 usage, 130 interrupted ---------------------------

EXIT_CODES = tomllib.loads((ROOT / "tests" / "data" / "cli" / "exit-codes.toml").read_text(encoding="utf-8"))["command"]


@pytest.mark.parametrize("args, code", [(c["args"], c["code"]) for c in EXIT_CODES], ids=[" ".join(c["args"]) for c in EXIT_CODES])
def test_exit_codes(args, code, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, args, input="")
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output


def test_show_prints_the_bundled_text():
    assert run("show", "exact61").output == bundled_text("exact61")


def test_help_lists_topics_and_prints_the_installed_reference():
    assert "language" in run("help").output
    text = run("help", "language").output
    assert text == (ROOT / "docs" / "language.md").read_text(encoding="utf-8")


def test_lsp_without_pygls_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pygls", None)
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)
    monkeypatch.delitem(sys.modules, "rulelang.lsp.server", raising=False)
    result = CliRunner().invoke(main, ["lsp"])
    assert result.exit_code == 1 and "pip install 'rulelang[lsp]'" in result.output


# -- start-up ---------------------------------------------------------------------------------

def test_help_lists_every_command_with_its_summary():
    """`rulelang --help` lists each command with the first sentence of its own help."""
    import click

    from rulelang.cli import COMMANDS

    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0, result.output
    rows = dict(line.split(None, 1) for line in result.output.split("Commands:\n", 1)[1].splitlines())
    assert sorted(rows) == sorted(COMMANDS)
    ctx = click.Context(main)
    for name, shown in rows.items():
        command = main.get_command(ctx, name)
        assert command is not None and shown
        assert command.get_short_help_str(limit=300).startswith(shown.removesuffix("...")), name


def test_bundled_index_is_current():
    """Run `python -m rulelang.language.bundled_index` after changing a bundled ruleset."""
    from rulelang.language import bundled_index

    stored = json.loads((ROOT / "rulesets" / "index.json").read_text(encoding="utf-8"))
    assert stored == bundled_index.build()
    assert bundled_index.summaries() == [bundled_index.summary(n) for n in bundled_names()]


def test_piped_conformance_table_is_plain_ascii():
    result = subprocess.run([sys.executable, "-m", "rulelang", "conform", "--variant", "pagat", "--tag", "diagram"],
                            cwd=ROOT, capture_output=True, text=True, encoding="utf-8")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "+---" in result.stdout and not any(ch in result.stdout for ch in "━┃│┏┡─")


@pytest.mark.parametrize("base", [None, "pagat", "allfives-pooled"])
def test_new_writes_a_valid_canonical_starting_file(base, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["new", "club-fives", "--title", "Club Fives"] + (["--based-on", base] if base else [])
    result = run(*args)
    assert result.exit_code == 0, result.output
    path = tmp_path / "club-fives.rules"
    text = path.read_text(encoding="utf-8")
    assert 'ruleset club-fives "Club Fives"' in text and "rulelang help language" in text
    assert (f"based on {base}" in text) == bool(base)
    assert run("check", str(path)).exit_code == 0
    assert run("fmt", "--check", str(path)).exit_code == 0
    again = run(*args)
    assert again.exit_code == 1 and "is kept" in again.output
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("args, code", [(["new", "Bad Name"], 2), (["new", "x", "--based-on", "nope"], 1),
                                        (["new", "x", "--title", 'a "b"'], 2)])
def test_new_refuses_bad_usage(args, code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(*args)
    assert result.exit_code == code and not list(tmp_path.iterdir())
