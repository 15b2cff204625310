"""Case files are bounded before they are linted, and `conform --deadline` covers the linting too."""
from __future__ import annotations

import copy
import json
import time
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.conformance import cases

SOURCE = sorted((Path(cases.CASES_DIR) / "pagat").glob("*.json"))[0]


def _doc() -> dict:
    return json.loads(SOURCE.read_text(encoding="utf-8"))


def _write(folder: Path, doc: dict, name: str = "big.json") -> Path:
    (folder / "pagat").mkdir(exist_ok=True)
    path = folder / "pagat" / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_the_schema_bounds_cases_steps_and_rounds():
    max_cases, max_steps, max_rounds = cases.size_limits()
    assert (max_cases, max_steps, max_rounds) == (100, 1000, 20)
    validator = jsonschema.Draft202012Validator(cases.schema())
    doc = _doc()
    one = doc["cases"][0]
    long = copy.deepcopy(one)
    long["steps"] = (one["steps"] * (max_steps // len(one["steps"]) + 1))[:max_steps + 1]
    assert any("is too long" in e.message for e in validator.iter_errors({**doc, "cases": [long]}))
    assert any("is too long" in e.message for e in validator.iter_errors({**doc, "cases": [one] * (max_cases + 1)}))
    rounds = {**one, "next_rounds": [one["setup"]] * (max_rounds + 1)}
    assert any("is too long" in e.message for e in validator.iter_errors({**doc, "cases": [rounds]}))


def test_a_case_with_200000_steps_is_refused_at_once_naming_the_limit(tmp_path):
    doc = _doc()
    doc["cases"] = [doc["cases"][0]]
    doc["cases"][0]["steps"] = doc["cases"][0]["steps"] * (200_000 // len(doc["cases"][0]["steps"]))
    _write(tmp_path, doc)
    started = time.process_time()
    report = cases.lint(tmp_path)
    assert time.process_time() - started < 5  # jsonschema alone takes some 20 s on such a file
    [error] = report.errors
    assert error.startswith("pagat/big.json: /cases/0/steps: ") and "more than the limit of 1000 per case" in error


@pytest.mark.parametrize("what,expected", [("cases", "more than the limit of 100 per file"),
                                           ("total", "steps in all, more than the limit of 10,000 per file"),
                                           ("rounds", "rounds, more than the limit of 20 per case")])
def test_too_many_cases_steps_or_rounds_in_a_file_are_named(tmp_path, what, expected):
    doc = _doc()
    one = doc["cases"][0]
    if what == "cases":
        doc["cases"] = [one] * 101
    elif what == "total":
        doc["cases"] = [{**one, "steps": (one["steps"] * 1000)[:1000]}] * 11
    else:
        doc["cases"] = [{**one, "next_rounds": [one["setup"]] * 21}]
    _write(tmp_path, doc)
    [error] = cases.lint(tmp_path).errors
    assert expected in error


def test_conform_deadline_covers_linting(tmp_path, monkeypatch):
    for k in range(20):
        _write(tmp_path, _doc(), f"copy{k}.json")
    real = cases.read_json

    def slow(path, *args, **kwargs):
        time.sleep(0.2)  # a slow disk, or a large file
        return real(path, *args, **kwargs)

    monkeypatch.setattr(cases, "read_json", slow)
    started = time.monotonic()
    res = CliRunner().invoke(main, ["conform", "--cases", str(tmp_path), "--deadline", "0.5"])
    assert time.monotonic() - started < 3
    assert res.exit_code == 1, res.output
    assert "deadline of 0.5 s passed while linting" in res.output
