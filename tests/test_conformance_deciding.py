"""A deciding case for every pair of values of every rule (conformance/deciding.py, `rulelang cases coverage`).

The pairs come from the field declarations; each pair has a case that tells
its two values apart, or an excuse the search confirms. Each deciding case
passes under its own ruleset and fails under every twin it names.
"""
from __future__ import annotations

import itertools
import json
from functools import cache
from typing import Any

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.config.declared import typed
from rulelang.conformance import deciding
from rulelang.conformance.builtin import run_case
from rulelang.conformance.cases import Case, lint
from rulelang.conformance.compare import compare
from rulelang.conformance.configs import compiled
from rulelang.conformance.runner import request_for


@cache
def _cases() -> tuple[Case, ...]:
    report = lint()
    assert report.ok, report.errors
    return tuple(report.cases)


def _deciding() -> list[Case]:
    return [c for c in _cases() if "decides" in c.data]


def test_every_rule_field_has_pairs_derived_from_its_declaration() -> None:
    fields = {p.field for p in deciding.pairs()}
    for d in typed():
        if d.spec.dotted in deciding.NOT_RULES:
            continue
        assert any(f == d.spec.dotted or f.startswith(d.spec.dotted + ".") for f in fields), d.spec.dotted


def test_a_closed_set_gives_every_pair_and_a_number_its_boundary_and_neighbour() -> None:
    got = {p.key for p in deciding.pairs() if p.field == "target.overshoot"}
    assert got == {'target.overshoot: "discard" vs "bounce"', 'target.overshoot: "discard" vs "none"',
                   'target.overshoot: "bounce" vs "none"'}
    # a Natural (0 allowed, its default): the boundary 0 and its neighbour 1
    assert [(p.a, p.b) for p in deciding.pairs() if p.field == "scoring.knock_bonus"] == [(0, 1)]
    assert [(p.a, p.b) for p in deciding.pairs() if p.field == "reserve.4"] == [(0, 1)]
    assert deciding.domains()["settlement.block.terms.kind"][0] == ["hands", "differences", "heaviest", "tiles", "net"]


def test_a_twin_changes_the_field_and_stays_valid() -> None:
    config = compiled("exact61")
    out = deciding.twin(config, "target.overshoot", "none")
    assert out is not None
    twin, also = out
    assert deciding.get_value(twin, "target.overshoot") == "none" and deciding.valid(twin)
    assert [f for f, _ in also] == ["target.mode"]  # an at-least target goes with no overshoot rule


def test_every_pair_is_decided_or_excused() -> None:
    cov = deciding.coverage(list(_cases()))
    assert [p.key for p in cov.uncovered] == []


def _observed(case: Case, config: dict[str, Any]) -> Any:
    try:
        return run_case({**request_for(case), "config": config})
    except Exception as exc:  # noqa: BLE001 - a twin the engine cannot even play differs from the case
        return {"error": str(exc)}


@pytest.mark.parametrize("case", _deciding(), ids=lambda c: c.id)
def test_each_deciding_case_decides_its_pairs(case: Case) -> None:
    dec = case.data["decides"]
    config = compiled(case.ruleset)
    assert deciding.get_value(config, dec["field"]) == dec["value"]
    own = _observed(case, config)
    assert compare(case.data, own) is None  # it passes under its own ruleset
    ends = deciding.round_ends(own["steps"])
    for other in dec["against"]:
        made = deciding.twin(config, dec["field"], other)
        assert made is not None, f"no valid twin with {dec['field']} = {other!r}"
        assert not deciding.draws_lots_unseated(made[0], case.data, ends), f"{other!r} would draw lots for an unseated round"
        assert compare(case.data, _observed(case, made[0])) is not None, f"{dec['field']} = {other!r} passes it too"


def test_the_deciding_cases_were_found() -> None:
    assert _deciding(), "no case carries `decides`"


def test_a_decides_key_naming_no_field_or_value_does_not_lint(tmp_path: Any) -> None:
    src = next(c for c in _cases() if c.variant == "allfives")
    data = {k: v for k, v in src.data.items() if k != "decides"}
    bad = [dict(data, id="x-one", decides={"field": "no.such", "value": 1, "against": [2]}),
           dict(data, id="x-two", decides={"field": "target.overshoot", "value": "discard", "against": ["sometimes"]})]
    folder = tmp_path / "allfives"
    folder.mkdir()
    (folder / "x.json").write_text(json.dumps({"description": "bad deciding keys", "ruleset": src.ruleset,
                                               "cases": bad}), encoding="utf-8")
    errors = lint(tmp_path).errors
    assert any("decides an unknown field 'no.such'" in e for e in errors), errors
    assert any("'sometimes' is not a value of target.overshoot" in e for e in errors), errors


def test_the_coverage_command_lists_every_pair_and_exits_by_the_uncovered() -> None:
    res = CliRunner().invoke(main, ["cases", "coverage", "--json", "--field", "target.overshoot"])
    doc = json.loads(res.output)
    assert doc["format"] == "rulelang-deciding-coverage/1"
    assert doc["summary"]["pairs"] == 3 and len(doc["pairs"]) == 3
    assert res.exit_code == (1 if doc["summary"]["uncovered"] else 0)
    bad = CliRunner().invoke(main, ["cases", "coverage", "--field", "no.such"])
    assert bad.exit_code == 2 and "no field 'no.such'" in bad.output


def _excused_pairs() -> list[deciding.Pair]:
    return [p for p in deciding.pairs() if any(e.covers(p) for e in deciding.excused())]


def test_every_excuse_names_pairs_and_a_reason() -> None:
    for e in deciding.excused():
        assert any(e.covers(p) for p in deciding.pairs()), e.field
        assert len(e.reason) > 30, e.field


@pytest.mark.parametrize("pair", _excused_pairs(), ids=lambda p: p.key)
def test_the_search_finds_no_difference_for_an_excused_pair(pair: deciding.Pair) -> None:
    from rulelang.conformance.deciding_search import configs_for, search

    configs = list(itertools.islice(configs_for(pair), 2))  # bounded: two bases, four seeded matches each
    assert search(pair, tries=4, shrinking=False, configs=configs) is None


def test_the_search_finds_shrinks_and_cross_checks_a_deciding_case() -> None:
    from rulelang.conformance.deciding_search import check, configs_for, search

    pair = next(p for p in deciding.pairs() if p.field == "opener.lead")
    found = search(pair, tries=20, configs=list(itertools.islice(configs_for(pair), 1)))
    assert found is not None
    assert deciding.get_value(found.config, "opener.lead") == "any"
    assert deciding.get_value(found.twin, "opener.lead") == "forced"
    (lead,) = found.data["steps"]  # the lead decides: what is offered, or a lead the forced rule refuses
    assert set(lead.get("expect", {})) <= {"offered"} and "reject" not in lead
    agree, disagree = check(found.config, found.data)
    assert agree is not None and "fresh_engine.py" in agree and disagree == []


def test_a_rounding_the_language_refuses_is_no_valid_configuration() -> None:
    """`rounded to 1` does not compile (bad-rounding), so `round1` is no value of the configuration either: the
    deciding pairs take their values from the schema, and one validator holds for the language and the engine."""
    config = compiled("allfives")
    config["settlement"]["domino"]["terms"][0]["rounding"] = "round1"
    assert not deciding.valid(config)
    config["settlement"]["domino"]["terms"][0]["rounding"] = "round2"
    assert deciding.valid(config)


def test_a_deciding_case_id_keeps_the_hyphen_of_a_word_and_spells_a_sign():
    from rulelang.conformance.deciding_search import slug

    assert slug("seat-0") == "seat-0"  # was seatminus-0
    assert (slug(-1), slug([1, 2]), slug("one-half"), slug([])) == ("minus-1", "1-2", "one-half", "empty")


def test_a_covered_pair_can_be_searched_again_for_a_shorter_case() -> None:
    # `--pair KEY` searches a pair even when a case decides it already: "draw until playable" against "..., or the
    # round is blocked" was decided at step 84 of a five-round match; a dealt position where the next seat cannot
    # place with nothing to draw decides it at the lead
    import re
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    key = 'drawing: "until-playable" vs "until-found"'
    res = subprocess.run([sys.executable, str(root / "conformance" / "authoring" / "deciding.py"), "--pair", key,
                          "--tries", "60", "--bases", "1", "--dry-run"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    # (a new id beside the ones there: -2 before the case was added, -3 now); how far the shrinker gets depends on
    # its time budget (1 step on a quiet machine, 3 seen under load): shorter than the 84 steps before, in any case
    found = re.search(r"decide-drawing-until-playable-vs-until-found-\d: (\d+) steps, against \['until-found'\]",
                      res.stderr)
    assert found and int(found.group(1)) < 84, res.stderr
    assert "1 pairs searched" in res.stdout
    decided = [c for c in _deciding() if c.data["decides"]["field"] == "drawing"
               and c.data["decides"]["value"] == "until-playable" and "until-found" in c.data["decides"]["against"]]
    assert min(len(c.data["steps"]) for c in decided) == 1
    bad = subprocess.run([sys.executable, str(root / "conformance" / "authoring" / "deciding.py"), "--pair", "no: 1 vs 2",
                          "--dry-run"], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "no pair 'no: 1 vs 2'" in bad.stderr and "Traceback" not in bad.stderr
