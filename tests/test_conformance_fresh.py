"""Engines written from the documents: PROTOCOL.md is enough, and engines may decline configurations.

`fresh_engine.py` was written from conformance/PROTOCOL.md and docs/config.md
alone; it passes every case it claims. It can also decline `drawing: none` by
configuration, which the runner reports as a skip with the reason.
"""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

from click.testing import CliRunner

from conformance import builtin, cases, runner
from conformance.capabilities import unsupported, values_at
from conformance.protocol import InProcessEngine, SubprocessEngine
from rulelang.cli import main

FRESH = Path(__file__).parent / "data" / "conformance" / "fresh_engine.py"
LINT = cases.lint()


def _fresh(*flags):
    return " ".join(shlex.quote(x) for x in [sys.executable, str(FRESH), *flags])


def conform(*args):
    return CliRunner().invoke(main, ["conform", *args], catch_exceptions=False)


def test_the_fresh_engine_passes_every_case_it_claims():
    result = runner.run(SubprocessEngine([sys.executable, str(FRESH)]), LINT.cases, timeout=30)
    bad = {r.case.id: (r.difference or r.error) for r in result.results if r.outcome in ("fail", "error")}
    assert bad == {}
    assert result.counts()["pass"] == len(LINT.cases)


def test_values_at_walks_lists():
    cfg = {"settlement": {"domino": {"terms": [{"kind": "hands"}, {"kind": "differences"}]}}, "drawing": "none"}
    assert values_at(cfg, "settlement.domino.terms.kind") == ["hands", "differences"]
    assert values_at(cfg, "drawing") == ["none"]
    assert values_at(cfg, "no.such.path") == []


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
