"""Every `--json` shape of `check`, `list`, `explain`, `diff` and `simulate` carries its format (name and major
version) and validates against the JSON Schema shipped in `rulelang/schema/`."""
from __future__ import annotations

import json
import re
from importlib import resources

import jsonschema
import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.commands.jsonout import KINDS, schema_file

BROKEN = 'ruleset broken "Broken"\nsource "s"\nbased on allfives\nhand 6 tils\n'


def _schema(kind: str) -> dict:
    return json.loads(resources.files("rulelang").joinpath(schema_file(kind)).read_text(encoding="utf-8"))


def _validated(kind: str, *args: str, exit_code: int = 0) -> dict:
    res = CliRunner().invoke(main, [*args], env={"RULELANG_NO_PROGRESS": "1"})
    assert res.exit_code == exit_code, res.output
    doc = json.loads(res.stdout)
    assert doc["format"] == f"rulelang-{kind}/1"
    assert next(iter(doc)) == "format"  # the first key: a reader sees the version before anything else
    jsonschema.Draft202012Validator(_schema(kind)).validate(doc)
    return doc


@pytest.mark.parametrize("kind", KINDS)
def test_every_schema_is_a_valid_versioned_schema(kind):
    schema = _schema(kind)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"] == f"urn:rulelang:schema:{kind}:1"
    assert re.fullmatch(r"urn:rulelang:schema:[a-z-]+:\d+", schema["$id"])
    assert schema["properties"]["format"] == {"const": f"rulelang-{kind}/1"}
    assert "format" in schema["required"]


def test_check_json(tmp_path):
    bad = tmp_path / "broken.rules"
    bad.write_text(BROKEN, encoding="utf-8")
    doc = _validated("check", "check", "--json", str(bad), "pagat", str(tmp_path / "missing.rules"),
                     str(tmp_path / "missing.json"), exit_code=1)
    assert [f["kind"] for f in doc["files"]] == ["ruleset", "ruleset", "file", "configuration"]
    _validated("check", "check", "--json", "--all")


def test_list_json():
    doc = _validated("list", "list", "--json")
    assert all(r["valid"] for r in doc["rulesets"])


def test_explain_json():
    _validated("explain", "explain", "--json", "allfives-pooled")
    _validated("explain", "explain", "--json", "muggins")


def test_diff_json():
    _validated("diff", "diff", "--json", "allfives", "muggins", exit_code=1)
    assert _validated("diff", "diff", "--json", "pagat", "pagat")["differences"] == []


def test_simulate_json():
    doc = _validated("simulate", "simulate", "pagat", "-n", "2", "--json")
    assert "vs" not in doc and "tests" not in doc
    doc = _validated("simulate", "simulate", "muggins-claims", "-n", "2", "--json", "--miss-rate", "0.3",
                     "--vs", "muggins")
    assert "call" in doc["summary"]["points_per_round"] and doc["tests"]


def test_a_document_of_another_shape_is_refused():
    """The schemas say something: a document without its format, or of another kind, does not validate."""
    doc = json.loads(CliRunner().invoke(main, ["diff", "--json", "pagat", "pagat"]).stdout)
    validator = jsonschema.Draft202012Validator(_schema("diff"))
    assert validator.is_valid(doc)
    assert not validator.is_valid({k: v for k, v in doc.items() if k != "format"})
    assert not validator.is_valid(dict(doc, format="rulelang-diff/2"))
    assert not jsonschema.Draft202012Validator(_schema("explain")).is_valid(doc)
