"""Engines written from the documents: PROTOCOL.md is enough, and engines may decline configurations.

`fresh_engine.py` was written from conformance/PROTOCOL.md and docs/config.md
alone; it passes every case it claims. It and the example engines decline, by
the capabilities they declare, every configuration field or value they do not
play, which the runner reports as a skip with the reason.
"""
from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

from click.testing import CliRunner

from rulelang.cli import main
from rulelang.conformance import builtin, cases, runner
from rulelang.conformance.capabilities import unsupported, values_at
from rulelang.conformance.protocol import InProcessEngine, SubprocessEngine

FRESH = Path(__file__).parent / "data" / "conformance" / "fresh_engine.py"
EXAMPLES = Path(__file__).parents[1] / "conformance" / "examples"
SOURCE_VARIANTS = ("exact61", "pagat", "allfives")  # the variants of the three source texts
LINT = cases.lint()


def _fresh(*flags):
    return " ".join(shlex.quote(x) for x in [sys.executable, str(FRESH), *flags])


def conform(*args):
    return CliRunner().invoke(main, ["conform", *args], catch_exceptions=False)


def test_the_fresh_engine_passes_every_case_it_claims():
    result = runner.run(SubprocessEngine([sys.executable, str(FRESH)]), LINT.cases, timeout=30)
    bad = {r.case.id: (r.difference or r.error) for r in result.results if r.outcome in ("fail", "error")}
    assert bad == {}
    # every case it does not play it declines through the capabilities it declared at start: a feature
    # tag outside its `features`, or a configuration field or value outside its `configurations`
    caps = result.engine["capabilities"]
    skipped = {r.case.id for r in result.results if r.outcome == "skip"}
    for r in result.results:
        if r.outcome == "skip":
            missing = [t for t in r.case.tags if t not in caps["features"]]
            assert r.skip_reason == (f"the engine does not claim {', '.join(missing)}" if missing
                                     else unsupported(caps["configurations"], runner.request_for(r.case)))
    assert {c.id for c in LINT.cases if "larger-set" in c.tags} <= skipped
    # the muggins rule and what a seat sees it plays: every such case it is sent passes
    claimed = [r for r in result.results if {"claims", "observation"} & set(r.case.tags)]
    assert claimed and all(r.outcome == "pass" for r in claimed if r.case.id not in skipped)
    # none declined (but on a larger set, drawing while able to place, losing missed points only when called,
    # a sniff counted by its sides or a count in threes, which it declines whatever the case observes)
    declined = {"larger-set", "draw-while-able", "claims-lost-if-called", "sniff-count", "unit-3"}
    assert all(r.outcome == "pass" for r in result.results
               if "observation" in r.case.tags and not declined & set(r.case.tags))
    # it keeps checking the hand-worked cases: every case of the three source variants' own rulesets
    assert all(r.outcome == "pass" for r in result.results
               if r.case.variant in SOURCE_VARIANTS and isinstance(r.case.ruleset, str))
    assert result.counts()["pass"] == len(LINT.cases) - len(skipped)


def test_values_at_walks_lists():
    cfg = {"settlement": {"domino": {"terms": [{"kind": "hands"}, {"kind": "differences"}]}}, "drawing": "none"}
    assert values_at(cfg, "settlement.domino.terms.kind") == ["hands", "differences"]
    assert values_at(cfg, "drawing") == ["none"]
    assert values_at(cfg, "no.such.path") == []


def test_a_field_outside_the_declared_fields_is_skipped_with_its_reason():
    supported = {"@fields": ["hand_size", "settlement.domino.terms.kind"], "drawing": ["until-playable", "none"]}
    known = {"hand_size": {"2": 7, "3": 5}, "drawing": "none",  # a listed field covers the fields under it
             "settlement": {"domino": {"terms": [{"kind": "hands"}, {"kind": "differences"}]}}}
    assert unsupported(supported, {"players": 2, "config": known}) is None
    for path, config in [("scoring", dict(known, scoring={"unit": 5})),
                         ("settlement.domino.events", {"settlement": {"domino": {"events": "one"}}}),
                         ("settlement.domino.terms.to", {"settlement": {"domino": {"terms": [{"to": "winner"}]}}})]:
        assert unsupported(supported, {"players": 2, "config": config}) == (
            f"the engine does not support the configuration field {path} (not in its @fields)")
    # without "@fields" every field is played, as before
    assert unsupported({"drawing": ["none"]}, {"players": 2, "config": dict(known, scoring={"unit": 5})}) is None


def _engines():
    """The commands of the example engines and the fresh engine (the JavaScript one where node is on PATH)."""
    out = {"example-python": [sys.executable, str(EXAMPLES / "toy_engine.py")], "fresh": [sys.executable, str(FRESH)]}
    if shutil.which("node"):
        out["example-js"] = [shutil.which("node"), str(EXAMPLES / "toy_engine.mjs")]
    return out


def test_a_configuration_field_no_engine_knows_is_declined_by_every_engine():
    """A rule added after an engine was written is skipped with its field named, without editing the engine."""
    case = next(c for c in LINT.cases if c.id == "pagat-domino-each-loses-own-hand")
    request = runner.request_for(case)
    newer = dict(request, config=dict(request["config"], scoring=dict(request["config"]["scoring"], newer_rule=3)))
    for name, argv in _engines().items():
        engine = SubprocessEngine(argv)
        engine.start()
        engine.stop()
        declines = engine.capabilities["configurations"]
        assert unsupported(declines, request) is None, name
        assert unsupported(declines, newer) == (
            "the engine does not support the configuration field scoring.newer_rule (not in its @fields)"), name


def test_an_example_engine_skips_a_step_it_does_not_know():
    case = next(c for c in LINT.cases if c.id == "pagat-domino-each-loses-own-hand")
    request = runner.request_for(case)
    request["steps"] = request["steps"] + [{"newer_step": True}]
    for name, argv in _engines().items():
        if name == "fresh":
            continue  # it declines by feature tag: a new kind of step comes with a new tag
        engine = SubprocessEngine(argv)
        engine.start()
        answer = engine.run(0, request, 30)
        engine.stop()
        assert answer["skipped"] == {"reason": 'the engine does not play "newer_step" steps'}, name


def test_a_configuration_outside_the_declared_values_is_skipped_with_its_reason():
    request = {"players": 3, "config": {"drawing": "none"}}
    assert unsupported({"drawing": ["until-playable"]}, request) == (
        'the engine does not support drawing = "none" (it supports "until-playable")')
    assert unsupported({"@players": [2]}, request) == 'the engine does not support @players = 3 (it supports 2)'
    assert unsupported({"drawing": ["none"], "@players": [3]}, request) is None


def test_conform_reports_what_was_skipped_and_why():
    res = conform("--engine", _fresh("--without-no-drawing"), "--variant", "allfives-block", "--variant", "pagat")
    assert res.exit_code == 0, res.output
    # six cases carry the tag; one more has drawing none without it, and the configuration declines it
    assert "skipped 6: the engine does not claim no-drawing" in res.output
    assert 'skipped 1: the engine does not support drawing = "none" (it supports "until-playable")' in res.output
    res = conform("--engine", _fresh("--without-no-drawing"), "--variant", "allfives-block", "--variant", "pagat",
                  "--strict")
    assert res.exit_code == 1


def test_a_configuration_declined_by_capability_alone_is_skipped():
    caps = dict(builtin.capabilities(), configurations={"drawing": ["until-playable"]})
    engine = InProcessEngine(builtin.run_case, builtin.implementation(), caps)
    picked = cases.select(LINT.cases, variants=["allfives-block", "pagat"])
    result = runner.run(engine, picked)
    skipped = {r.case.variant for r in result.results if r.outcome == "skip"}
    assert skipped == {"allfives-block"}
    assert all(r.skip_reason.startswith("the engine does not support drawing") for r in result.results
               if r.outcome == "skip")
    assert result.ok


def test_a_run_where_nothing_passed_fails_unless_allowed():
    engine = _fresh("--without-no-drawing")
    # every allfives-block case needs drawing none: all are skipped
    res = conform("--engine", engine, "--variant", "allfives-block", "--tag", "no-drawing")
    assert res.exit_code == 1
    assert "no case passed" in res.output
    res = conform("--engine", engine, "--variant", "allfives-block", "--tag", "no-drawing", "--allow-empty")
    assert res.exit_code == 0, res.output


def test_a_step_after_the_last_dealt_round_is_refused():
    case = next(c for c in LINT.cases if c.id == "pagat-domino-each-loses-own-hand")
    request = runner.request_for(case)
    request["steps"] += [{"play": "[0|0]"}, {"draw": True}]
    for run_case in (builtin.run_case, _fresh_run_case()):
        out = run_case(request)["steps"]
        assert out[-2:] == [{"reject": "round-over"}, {"reject": "round-over"}]


def _fresh_run_case():
    import importlib.util

    spec = importlib.util.spec_from_file_location("fresh_engine", FRESH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.run_case


# -- `rulelang conform --cases DIR`: any case folder, expected failures next to it -------------

def _club_folder(tmp_path, name="club", case_id="club-house-rule-one-half", copy=("allfives/derived.json", 0)):
    """A club's folder holding one case of its house rule (copied from a shipped case, with its own id)."""
    import json

    doc = json.loads((cases.CASES_DIR / copy[0]).read_text(encoding="utf-8"))
    doc["cases"] = [dict(doc["cases"][copy[1]], id=case_id)]
    folder = tmp_path / name
    (folder / "house").mkdir(parents=True)
    (folder / "house" / "rules.json").write_text(json.dumps(doc), encoding="utf-8")
    return folder


def test_conform_runs_a_case_folder_of_ones_own(tmp_path):
    folder = _club_folder(tmp_path)
    res = conform("--cases", str(folder))
    assert res.exit_code == 0, res.output
    assert "house" in res.output and "|    1 |" in res.output  # an ASCII table when not a terminal
    res = conform("--cases", str(folder), "--list")
    assert res.output.startswith("club-house-rule-one-half\thouse/rules")


def test_several_folders_run_together_and_ids_must_be_unique(tmp_path):
    a = _club_folder(tmp_path, "a", "club-a-one-half")
    b = _club_folder(tmp_path, "b", "club-b-one-half")
    res = conform("--cases", str(a), "--cases", str(b), "--list")
    assert res.exit_code == 0 and len(res.output.splitlines()) == 2
    c = _club_folder(tmp_path, "c", "club-a-one-half")
    res = conform("--cases", str(a), "--cases", str(c))
    assert res.exit_code == 2
    assert "duplicate id" in res.output


def test_an_empty_case_folder_is_a_clear_error(tmp_path):
    res = conform("--cases", str(tmp_path))
    assert res.exit_code == 2
    assert "no case files under" in res.output


def test_expected_failures_are_found_next_to_the_case_folder_and_in_the_working_directory(tmp_path, monkeypatch):
    import json

    folder = _club_folder(tmp_path, case_id="club-internal-double", copy=("pagat/diagrams.json", 3))  # pagat-diagram-34
    # an engine that counts an internal double fails the copied diagram
    engine = " ".join(shlex.quote(x) for x in [sys.executable, str(EXAMPLES / "toy_engine.py"),
                                               "--break", "internal-double-counts"])
    monkeypatch.chdir(tmp_path)
    res = conform("--cases", str(folder), "--engine", engine)
    assert res.exit_code == 1 and "FAIL club-internal-double" in res.output
    listing = {"engine": "toy", "expected_failures": [{"id": "club-internal-double", "reason": "counts it"}]}
    (folder / "expected-failures").mkdir()
    (folder / "expected-failures" / "toy.json").write_text(json.dumps(listing), encoding="utf-8")
    res = conform("--cases", str(folder), "--engine", engine, "--allow-empty")
    assert res.exit_code == 0, res.output
    (folder / "expected-failures" / "toy.json").unlink()
    (tmp_path / "expected-failures").mkdir()
    (tmp_path / "expected-failures" / "toy.json").write_text(json.dumps(listing), encoding="utf-8")
    res = conform("--cases", str(folder), "--engine", engine, "--allow-empty")
    assert res.exit_code == 0, res.output
