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
