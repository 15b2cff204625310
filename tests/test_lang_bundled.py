"""The bundled rulesets compile to the expected configurations."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

import rulelang
from rulelang.language.bundled import bundled_text
from rulelang.language.compiler import compile_ruleset, validate_config
from rulelang.language.formatter import config_to_text, format_text

CONFIGS = Path(__file__).parent / "data" / "configs"
SOURCE_VARIANTS = ["exact61", "pagat", "allfives"]
HOUSE_VARIANTS = ["allfives-block", "allfives-draw", "allfives-pooled", "bounce61", "spinners250"]
FAMILY_VARIANTS = ["allfives-pagat", "muggins"]
TIER_A_VARIANTS = ["fives-and-threes", "all-threes", "threes-and-fives"]  # the family's common variants (docs/design/family.md)


def test_bundled_names():
    names = rulelang.bundled_names()
    assert set(SOURCE_VARIANTS + HOUSE_VARIANTS) <= set(names)
    assert names == sorted(names)


@pytest.mark.parametrize("name", SOURCE_VARIANTS)
def test_source_variant_compiles_to_expected_config(name):
    expected = json.loads((CONFIGS / f"{name}.json").read_text(encoding="utf-8"))
    assert rulelang.compile_bundled(name) == expected


@pytest.mark.parametrize("name", sorted(set(rulelang.bundled_names())))
def test_bundled_config_validates_against_the_schema(name):
    config = rulelang.compile_bundled(name)
    assert validate_config(config) == []
    import jsonschema

    jsonschema.validate(config, rulelang.config_schema())


def test_exact61_parameters():
    c = rulelang.compile_bundled("exact61")
    assert c["players"] == {"counts": [2, 3, 4], "partnerships": [4]}
    assert c["hand_size"] == {"2": 5, "3": 5, "4": 5}
    assert c["doubles"] == {"branching": "every", "branch_sides": "after-line", "terminal_count": "both-halves"}
    assert c["scoring"] == {"in_play": True, "multiple": 5, "unit": 5}
    assert c["target"] == {"raw": 305, "mode": "exact", "check": "every-event", "overshoot": "discard",
                           "ties": "impossible"}
    dom = c["settlement"]["domino"]
    assert [(t["hands"], t["pooling"], t["sign"]) for t in dom["terms"]] == [
        ("opponents", "pooled", "credit"), ("partner", "pooled", "debit")]
    assert dom["events"] == "one" and dom["with_last_placement"] is True
    blk = c["settlement"]["block"]
    assert blk["winner"] == "lightest-hand" and blk["tie_break"] == "none"
    assert blk["terms"] == [{"kind": "differences", "rounding": "round5", "to": "owner", "sign": "credit"}]
    assert blk["events"] == "per-hand"


def test_pagat_parameters():
    c = rulelang.compile_bundled("pagat")
    assert c["target"] == {"raw": 305, "mode": "at-least", "check": "after-settlement", "overshoot": "none",
                           "ties": "extra-rounds"}
    for section in ("domino", "block"):
        s = c["settlement"][section]
        assert s["terms"] == [{"kind": "hands", "hands": "everyone", "pooling": "each", "rounding": "round5",
                               "to": "owner", "sign": "debit"}]
        assert s["events"] == "per-hand"
    assert c["settlement"]["block"]["winner"] == "none"
    assert c["opener"] == {"first_round": "lottery", "after_domino": "dominoer", "after_block": "lottery",
                           "lead": "any"}


def test_allfives_parameters():
    c = rulelang.compile_bundled("allfives")
    assert c["players"] == {"counts": [2, 3, 4], "partnerships": []}
    assert c["hand_size"] == {"2": 7, "3": 6, "4": 5}
    assert c["opener"] == {"first_round": "highest-double", "after_domino": "highest-double",
                           "after_block": "highest-double", "lead": "forced"}
    assert c["doubles"]["branching"] == "first" and c["doubles"]["branch_sides"] == "at-once"
    assert c["scoring"]["unit"] == 1 and c["target"]["raw"] == 150
    assert c["settlement"]["block"]["tie_break"] == "fewest-tiles"
    assert c["settlement"]["domino"]["terms"][0]["pooling"] == "each"


@pytest.mark.parametrize("name", HOUSE_VARIANTS)
def test_house_variants_say_so_and_use_the_language(name):
    text = bundled_text(name)
    assert "house variant" in text.lower()
    c = rulelang.compile_bundled(name)
    assert "house variant" in c["title"].lower() and "house variant" in c["source"].lower()


def test_house_variant_parameters():
    pooled = rulelang.compile_bundled("allfives-pooled")
    assert pooled["based_on"] == "allfives"
    assert pooled["settlement"]["domino"]["terms"][0]["pooling"] == "pooled"
    draw = rulelang.compile_bundled("allfives-draw")
    assert draw["scoring"]["in_play"] is False and draw["target"]["raw"] == 100
    block = rulelang.compile_bundled("allfives-block")
    assert block["drawing"] == "none" and block["target"]["raw"] == 100
    spinners = rulelang.compile_bundled("spinners250")
    assert spinners["doubles"]["branching"] == "every" and spinners["target"]["raw"] == 250
    bounce = rulelang.compile_bundled("bounce61")
    assert bounce["target"]["overshoot"] == "bounce" and bounce["score_floor"] == 0
    assert bounce["opener"]["after_block"] == "block-winner"


@pytest.mark.parametrize("name", rulelang.bundled_names())
def test_bundled_text_is_canonical(name):
    text = bundled_text(name)
    assert format_text(text) == text


@pytest.mark.parametrize("name", rulelang.bundled_names())
def test_config_to_text_round_trips_bundled(name):
    config = rulelang.compile_bundled(name)
    config["based_on"] = None  # the emitted text states every rule
    assert rulelang.compile_text(config_to_text(config)) == config


def test_compile_bundled_returns_fresh_dicts():
    a = rulelang.compile_bundled("exact61")
    a["target"]["raw"] = 1
    assert rulelang.compile_bundled("exact61")["target"]["raw"] == 305


def test_load_config_accepts_name_rules_and_json(tmp_path):
    assert rulelang.load_config("pagat") == rulelang.compile_bundled("pagat")
    rules = tmp_path / "mine.rules"
    rules.write_text(bundled_text("pagat"), encoding="utf-8")
    assert rulelang.load_config(str(rules)) == rulelang.compile_bundled("pagat")
    js = tmp_path / "mine.json"
    js.write_text(json.dumps(rulelang.compile_bundled("allfives")), encoding="utf-8")
    assert rulelang.load_config(js) == rulelang.compile_bundled("allfives")


def test_load_config_rejects_bad_json(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "rulelang-config/1"}', encoding="utf-8")
    with pytest.raises(rulelang.RulesetFileError) as info:
        rulelang.load_config(bad)
    assert info.value.code == "invalid-config"
    broken = tmp_path / "broken.json"
    broken.write_text("{\n  nope", encoding="utf-8")
    with pytest.raises(rulelang.RulesetFileError) as info:
        rulelang.load_config(broken)
    assert (info.value.code, info.value.line) == ("invalid-config", 2)


def test_load_config_unknown(tmp_path):
    with pytest.raises(rulelang.RulesetFileError) as info:
        rulelang.load_config("no-such-variant")
    assert info.value.code == "unknown-ruleset"
    with pytest.raises(rulelang.RulesetFileError) as info:
        rulelang.load_config(str(tmp_path / "missing.rules"))
    assert info.value.code == "file-not-found"
    with pytest.raises(rulelang.RulesetFileError) as info:
        rulelang.compile_bundled("nope")
    assert info.value.code == "unknown-ruleset"


def test_bundled_found_independent_of_cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert rulelang.compile_bundled("allfives")["name"] == "allfives"


def test_public_api():
    for name in ["loads", "load", "compile_text", "compile_file", "compile_bundled", "bundled_names",
                 "load_config", "config_schema", "RulesetError", "RulesetSyntaxError", "RulesetCheckError",
                 "check_text", "analyse", "Analysis"]:
        assert name in rulelang.__all__ and hasattr(rulelang, name)
    ruleset = rulelang.loads(bundled_text("exact61"), "exact61.rules")
    assert ruleset.name == "exact61" and ruleset.based_on is None
    assert compile_ruleset(ruleset) == rulelang.compile_bundled("exact61")
    with pytest.raises(dataclasses.FrozenInstanceError):
        ruleset.statements[0].key = "x"  # frozen


def test_load_and_compile_file(tmp_path):
    path = tmp_path / "x.rules"
    path.write_text(bundled_text("allfives-pooled"), encoding="utf-8")
    assert rulelang.load(path).based_on == "allfives"
    assert rulelang.compile_file(path) == rulelang.compile_bundled("allfives-pooled")


@pytest.mark.parametrize("name", TIER_A_VARIANTS)
def test_tier_a_variant_compiles_to_expected_config(name):
    expected = json.loads((CONFIGS / f"{name}.json").read_text(encoding="utf-8"))
    assert rulelang.compile_bundled(name) == expected


@pytest.mark.parametrize("name", FAMILY_VARIANTS + TIER_A_VARIANTS)
def test_family_variants_cite_a_public_source(name):
    c = rulelang.compile_bundled(name)
    assert "http" in c["source"] and "house variant" not in c["title"].lower()


def test_muggins_is_the_rule_book_game():
    """`muggins` is the game of the rule books (no spinner, 7/5/5, to 61 shown), not the old pooled house variant."""
    c = rulelang.compile_bundled("muggins")
    assert c["doubles"]["branching"] == "none" and c["hand_size"] == {"2": 7, "3": 5, "4": 5}
    assert c["scoring"]["unit"] == 5 and c["target"]["raw"] == 305 and c["based_on"] is None
    assert [t["pooling"] for t in c["settlement"]["domino"]["terms"]] == ["each"]
