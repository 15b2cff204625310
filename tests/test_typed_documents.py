"""The TypedDicts of the JSON documents the tools write name exactly the fields of the JSON Schemas that ship
with them (rulelang/schema/*.schema.json), so a type and its schema cannot drift apart; and the tools, the
commands and the playground say what their values are (`Any` only where a third party's signature is
passed on)."""
from __future__ import annotations

import json
import tokenize
from importlib import resources
from pathlib import Path

import pytest

from rulelang.commands.jsonout import ErrorRecord, FileRecord
from rulelang.language.bundled_index import RulesetSummary
from rulelang.tools import documents as d
from rulelang.tools import simjson

ROOT = Path(__file__).resolve().parent.parent


def _schema(kind: str) -> dict:
    return json.loads(resources.files("rulelang").joinpath(f"schema/{kind}.schema.json").read_text(encoding="utf-8"))


def _at(schema: dict, path: str) -> dict:
    """The sub-schema at a slash path ("$defs/ladder/properties/chain/items")."""
    node = schema
    for part in path.split("/"):
        node = node[part]
    return node


def _fields(typed: type) -> set[str]:
    return set(typed.__required_keys__) | set(typed.__optional_keys__)


SIMULATE, LADDER, CHECK, LIST = _schema("simulate"), _schema("ladder"), _schema("check"), _schema("list")

PAIRS = {
    "simulate summary": (simjson.SummaryRecord, _at(SIMULATE, "$defs/summary")),
    "simulate points_per_round": (simjson.Points, _at(SIMULATE, "$defs/summary/properties/points_per_round")),
    "simulate spread": (simjson.Spread, _at(SIMULATE, "$defs/spread")),
    "simulate rate": (simjson.Rate, _at(SIMULATE, "$defs/rate")),
    "simulate win": (simjson.Win, _at(SIMULATE, "$defs/win")),
    "simulate test": (simjson.Test, _at(SIMULATE, "$defs/test")),
    "ladder report": (d.LadderReport, LADDER),
    "ladder study": (d.LadderStudy, _at(LADDER, "properties/study")),
    "ladder comparison": (d.LadderComparison, _at(LADDER, "properties/comparison")),
    "ladder ruleset": (d.Ladder, _at(LADDER, "$defs/ladder")),
    "ladder chain": (d.Chain, _at(LADDER, "$defs/ladder/properties/chain/items")),
    "ladder rating": (d.Rating, _at(LADDER, "$defs/ladder/properties/ratings/items")),
    "ladder link": (d.LadderLink, _at(LADDER, "$defs/link")),
    "ladder estimate": (d.Estimate, _at(LADDER, "$defs/estimate")),
    "ladder test": (d.LadderTest, _at(LADDER, "$defs/test")),
    "check error": (ErrorRecord, _at(CHECK, "$defs/error")),
}


@pytest.mark.parametrize("name", list(PAIRS))
def test_a_documents_type_names_its_schemas_fields(name):
    typed, schema = PAIRS[name]
    fields = set(schema["properties"]) - {"format"}  # `format` is added by jsonout.versioned
    assert _fields(typed) - {"format", "version"} == fields - {"version"}
    assert set(schema.get("required", [])) - {"format", "version"} <= _fields(typed)


def test_list_summary_names_the_fields_of_a_valid_and_an_invalid_ruleset():
    valid, invalid = (set(_at(LIST, f"$defs/{k}/properties")) for k in ("valid", "invalid"))
    assert _fields(RulesetSummary) == valid | invalid
    assert set(RulesetSummary.__required_keys__) == valid & invalid


def test_check_file_record_names_the_fields_check_writes():
    assert _fields(FileRecord) == {"file", "kind", "ok", "errors"}


SCOPE = ("rulelang/tools", "rulelang/playground", "rulelang/commands")
# a constructor that hands a third party's own `Any` arguments on (uvicorn's protocol), and the modules of the
# language's commands, whose analysis is being typed on its own (issue 34, item 3)
PASSED_ON = {"rulelang/playground/connections.py": 2}
ELSEWHERE = {"rulelang/commands/lang.py", "rulelang/commands/authoring.py"}


def _lines_naming_any(path: Path) -> set[int]:
    """The lines where the name `Any` is used (as code: not in a string or a comment)."""
    with path.open("rb") as fh:
        return {tok.start[0] for tok in tokenize.tokenize(fh.readline) if tok.type == tokenize.NAME and tok.string == "Any"}


def test_the_tools_commands_and_playground_say_what_their_values_are():
    uses = {}
    for folder in SCOPE:
        for path in sorted((ROOT / folder).glob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in ELSEWHERE:
                continue
            count = len(_lines_naming_any(path))
            if count:
                uses[rel] = count
    assert uses == PASSED_ON
