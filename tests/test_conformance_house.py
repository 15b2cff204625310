"""The conformance suite covers every bundled variant, the house variants included, and each passes on its own."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import rulelang
from rulelang.cli import main
from rulelang.conformance import cases

LINT = cases.lint()
BUNDLED = rulelang.bundled_names()
SOURCE_VARIANTS = {"exact61", "pagat", "allfives"}


def _by_variant():
    out: dict[str, list] = {}
    for c in LINT.cases:
        out.setdefault(c.variant, []).append(c)
    return out


def test_the_suite_lints_clean():
    assert LINT.errors == []


def test_there_are_house_variants_to_cover():
    assert set(BUNDLED) - SOURCE_VARIANTS, "no house variant is bundled"


@pytest.mark.parametrize("name", BUNDLED)
def test_every_bundled_variant_has_cases(name):
    mine = _by_variant().get(name, [])
    assert mine, f"no conformance case for the bundled variant {name!r} (conformance/cases/{name}/)"
    # a variant's directory holds cases of that variant's ruleset (an inline text may derive from it)
    for c in mine:
        assert c.ruleset == name or isinstance(c.ruleset, dict), (c.id, c.ruleset)


@pytest.mark.parametrize("name", sorted(set(BUNDLED) - SOURCE_VARIANTS))
def test_every_house_variant_has_an_illegal_move_and_a_complete_round(name):
    mine = _by_variant().get(name, [])
    assert any("illegal-move" in c.tags for c in mine), name
    assert any(c.topic == "complete" for c in mine), name
    assert all(c.id.startswith(name + "-") for c in mine), name


def test_every_case_directory_is_a_bundled_variant():
    assert set(_by_variant()) - {"deciding"} <= set(BUNDLED)  # the deciding cases each carry their own ruleset


@pytest.mark.parametrize("name", BUNDLED)
def test_conform_passes_for_each_variant(name, tmp_path):
    report = tmp_path / "r.json"
    res = CliRunner().invoke(main, ["conform", "--variant", name, "--report", str(report)], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    doc = json.loads(report.read_text(encoding="utf-8"))
    assert doc["ok"] is True
    assert doc["cases"], name
    assert {c["variant"] for c in doc["cases"]} == {name}
    assert all(c["outcome"] == "pass" for c in doc["cases"]), [c["id"] for c in doc["cases"] if c["outcome"] != "pass"]
