"""Configurations survive the trip to text and back: every ruleset the suite and the tests use, and house rules."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from ruleset_text import compiled

import rulelang
from rulelang.language.compiler import analyse
from rulelang.language.formatter import config_to_text

ROOT = Path(__file__).resolve().parent.parent


def _case_rulesets() -> list[tuple[str, str]]:
    """The inline rulesets of the conformance cases (house rules the bundled rulesets do not state)."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "conformance" / "cases").glob("*/*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")).get("cases", []):
            rs = case.get("ruleset")
            if isinstance(rs, dict) and "text" in rs:
                found.setdefault(rs["text"], rs.get("filename", case["id"]))
    return [(name, text) for text, name in found.items()]


def _good_files() -> list[tuple[str, str]]:
    paths = [p for p in sorted((ROOT / "tests" / "data").rglob("*.rules")) if "bad" not in p.parts]
    return [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in paths]


def test_every_ruleset_the_suite_and_the_tests_use_survives_the_trip_to_text_and_back():
    checked = 0
    for name, text in _case_rulesets() + _good_files():
        result = analyse(text, name if name.endswith(".rules") else name + ".rules")
        if result.errors or result.config is None:
            continue  # a file of the tests that needs its neighbours (a base) is checked where it is used
        config = {**result.config, "based_on": None}
        again = analyse(config_to_text(config), "again.rules")
        assert again.errors == [], (name, [e.message for e in again.errors])
        assert again.config == config, name
        checked += 1
    assert checked > 40


@pytest.mark.parametrize("base, extra", [
    ("pagat", "a tie at the top plays 2 extra rounds with 2 players, 3 with 3, 4 with 4\n"),
    ("pagat", "a tie at the top plays 3 extra rounds\n"),
    ("pagat", "10 raw points to get in\n"),
    ("allfives", "10 points to get in\n"),
    ("muggins", "players 2 or 4\n"),
    ("muggins", "players 3 to 4\n"),
    ("allfives", "players 2 to 4\nreserve 2 tiles with 2 players, 1 with 3, 0 with 4\n"),
])
def test_house_rules_survive_the_trip_to_text_and_back(base, extra):
    config = {**compiled(base, extra), "based_on": None}
    assert analyse(config_to_text(config), "again.rules").config == config


@pytest.mark.parametrize("name", rulelang.bundled_names())
def test_every_bundled_ruleset_survives_the_trip_to_text_and_back(name):
    config = {**rulelang.compile_bundled(name), "based_on": None}
    again = analyse(config_to_text(config), f"{name}.rules")
    assert again.errors == [], [e.message for e in again.errors]
    assert again.config == config
