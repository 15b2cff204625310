"""The command line's promises kept alike across commands: one message per failure, the exit statuses of the
documented table (0 done, 1 invalid rulesets or files, 2 wrong usage), folders walked, pipes given plain text."""
from __future__ import annotations

import json
from pathlib import Path

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
