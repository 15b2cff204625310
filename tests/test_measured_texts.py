"""The independent measurements of published rule texts (docs/measurements/*.md, one page and one data file
per sample): each sample's data is consistent, every text's ruleset checks and plays, holds every statement
the data says states a rule, and the figure the docs print is the data's."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import rulelang
from rulelang.interpreter.match import play_match

ROOT = Path(__file__).resolve().parent.parent
MEASUREMENTS = ROOT / "docs" / "measurements"
SAMPLES = sorted(MEASUREMENTS.glob("*.json"))
TEXTS = [(data, text) for data in SAMPLES for text in json.loads(data.read_text(encoding="utf-8"))["texts"]]
HEAD = 'ruleset h "H"\nsource "a test"\nbased on allfives\n'


def _doc(data: Path) -> dict:
    return json.loads(data.read_text(encoding="utf-8"))


@pytest.mark.parametrize("data", SAMPLES, ids=[d.stem for d in SAMPLES])
def test_the_counts_are_the_rules_listed(data):
    doc = _doc(data)
    assert doc["texts"]
    for text in doc["texts"]:
        assert text["count"] == len(text["rules"]) and text["stated"] == sum(r["stated"] for r in text["rules"])
    assert doc["rules"] == sum(t["count"] for t in doc["texts"])
    assert doc["stated"] == sum(t["stated"] for t in doc["texts"])


def test_no_text_is_measured_twice():
    addresses = [text["address"] for _, text in TEXTS]
    assert len(addresses) == len(set(addresses))


@pytest.mark.parametrize(("data", "text"), TEXTS, ids=[t["file"] for _, t in TEXTS])
def test_each_text_ruleset_checks_plays_and_holds_the_statements_named(data, text):
    path = data.parent / text["file"]
    assert rulelang.check_text(path.read_text(encoding="utf-8"), path.name) == []
    config = rulelang.compile_file(path)
    play_match(config, min(config["players"]["counts"]), seed=1)
    lines = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines() if not ln.lstrip().startswith("#")]
    for rule in text["rules"]:
        if rule["stated"]:
            for statement in rule["statements"]:
                assert any(statement in ln for ln in lines), (text["file"], statement)
        else:
            assert rule["why"] and rule["closest"]
            rulelang.compile_text(HEAD + rule["closest"] + "\n", "h.rules")  # the closest statement is one


@pytest.mark.parametrize("data", SAMPLES, ids=[d.stem for d in SAMPLES])
def test_the_docs_print_the_measured_figure(data):
    doc = _doc(data)
    figure = f"{doc['stated']} of {doc['rules']}"
    assert f"**{figure} rules stated exactly" in data.with_suffix(".md").read_text(encoding="utf-8")
    bench = (ROOT / "bench" / "README.md").read_text(encoding="utf-8")
    assert re.search(rf"\b{figure} rules\b", bench), "bench/README.md prints another figure"
