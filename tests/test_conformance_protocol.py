"""A bad engine costs one case, never the run: timeouts, crashes, garbage, huge lines, wrong versions."""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest
from cli_run import run

import rulelang
from rulelang.conformance import cases, runner
from rulelang.conformance.builtin import run_case
from rulelang.conformance.protocol import PROTOCOL_VERSION, SubprocessEngine, serve

TOY = Path(__file__).parents[1] / "conformance" / "examples" / "toy_engine.py"
ALL = cases.lint().cases
# three short cases; the engine misbehaves on the middle one
PICK = [c for c in ALL if c.id in ("pagat-diagram-14", "pagat-diagram-22", "pagat-diagram-00")]
BAD = "pagat-diagram-22"


def _toy(*flags):
    return SubprocessEngine([sys.executable, str(TOY), *flags])


def _outcomes(result):
    return {r.case.id: r.outcome for r in result.results}


@pytest.mark.parametrize("mode,kind", [
    ("hang", "timeout"), ("crash", "crash"), ("garbage", "malformed"), ("huge", "oversized"), ("wrongseq", "protocol"),
])
def test_a_misbehaving_engine_errors_that_case_and_the_run_goes_on(mode, kind):
    engine = _toy("--misbehave", f"{mode}:{BAD}")
    result = runner.run(engine, PICK, timeout=3, expected_failures={})
    assert len(PICK) == 3
    assert _outcomes(result) == {"pagat-diagram-14": "pass", BAD: "error", "pagat-diagram-00": "pass"}
    bad = next(r for r in result.results if r.case.id == BAD)
    assert bad.error["kind"] == kind
    assert result.restarts == 1  # started again after the bad case
    assert not result.ok
    assert engine.proc is None  # stopped and reaped


def test_a_crash_reports_the_exit_code():
    result = runner.run(_toy("--misbehave", f"crash:{BAD}"), PICK, timeout=5, expected_failures={})
    bad = next(r for r in result.results if r.case.id == BAD)
    assert bad.error["context"].get("exit_code") == 3


def test_a_wrong_protocol_version_errors_every_case():
    result = runner.run(_toy("--misbehave", "version"), PICK, timeout=5, expected_failures={})
    assert set(_outcomes(result).values()) == {"error"}
    assert all(r.error["kind"] == "version" for r in result.results)


@pytest.mark.parametrize("argv, kind", [
    (["/nonexistent/engine"], "spawn"),
    ([sys.executable, "-c", "pass"], "crash"),  # exits before it answers `start`
    ([sys.executable, "-c", "import time; time.sleep(60)"], "timeout"),  # never answers `start`
    ([sys.executable, str(TOY), "--misbehave", "version"], "version"),
], ids=["missing", "exits", "hangs", "version"])
def test_an_engine_that_fails_at_start_counts_every_case_an_error_the_same_way(argv, kind):
    """However it fails at start, no case is skipped (its capabilities are unknown) and none is abandoned apart."""
    assert any(runner.undeclared_request({}, runner.request_for(c)) for c in ALL)  # cases an empty start would skip
    result = runner.run(SubprocessEngine(argv, start_timeout=1), ALL, timeout=5, expected_failures={})
    assert result.engine["start_error"]
    assert result.counts() == {**dict.fromkeys(runner.OUTCOMES, 0), "error": len(ALL)}
    assert {r.error["kind"] for r in result.results} == {kind}
    assert len({r.error["message"] for r in result.results}) == 1


def test_an_engine_that_does_not_exist_errors_every_case():
    result = runner.run(SubprocessEngine(["/nonexistent/engine"]), PICK[:1], timeout=5, expected_failures={})
    assert _outcomes(result) == {PICK[0].id: "error"}


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead for our purpose
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except OSError:
        return False


def test_a_hanging_engine_leaves_no_orphans(tmp_path, monkeypatch):
    pidfile = tmp_path / "child.pid"
    monkeypatch.setenv("TOY_ORPHAN_PIDFILE", str(pidfile))
    engine = _toy("--misbehave", f"orphan:{BAD}")
    result = runner.run(engine, PICK, timeout=3, expected_failures={})
    assert _outcomes(result)[BAD] == "error"
    child = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child), "the engine's child outlived the run"


def test_serve_answers_start_run_stop():
    import io

    requests = "\n".join(json.dumps(r) for r in [
        {"cmd": "start", "version": PROTOCOL_VERSION},
        {"cmd": "run", "seq": 4, "case": {"id": "x"}},
        {"cmd": "run", "seq": 5, "case": {"id": "boom"}},
        {"cmd": "stop"},
        {"cmd": "run", "seq": 6, "case": {"id": "after stop"}},
    ]) + "\n"

    def run_case(case):
        if case["id"] == "boom":
            raise KeyError("boom")
        return {"steps": []}

    out = io.StringIO()
    serve(run_case, {"name": "t"}, {"features": []}, stdin=io.StringIO(requests), stdout=out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[0] == {"version": PROTOCOL_VERSION, "implementation": {"name": "t"}, "capabilities": {"features": []}}
    assert answers[1] == {"seq": 4, "result": {"steps": []}}
    assert answers[2]["seq"] == 5 and "KeyError" in answers[2]["errored"]["message"]
    assert len(answers) == 3


def test_cases_outside_the_claimed_features_are_skipped():
    from rulelang.conformance import builtin
    from rulelang.conformance.protocol import InProcessEngine

    engine = InProcessEngine(builtin.run_case, {"name": "partial"}, {"features": ["diagram", "three-players", "two-players",
                             "layout", "attach-points", "counted-ends", "placement-score", "branching-every",
                             "branch-after-line", "unit-5", "terminal-double", "internal-double", "opening-double"]})
    result = runner.run(engine, ALL, expected_failures={})
    out = _outcomes(result)
    assert out["pagat-diagram-34"] == "pass"
    assert out["exact61-block-differences"] == "skip"
    assert result.ok


def test_an_in_process_engine_that_loops_is_stopped_by_the_case_timeout_and_the_run_goes_on():
    from rulelang.conformance import builtin
    from rulelang.conformance.protocol import InProcessEngine

    selected = cases.select(cases.lint().cases, ["pagat"], ["diagram"])[:3]
    hang_id = selected[1].id

    def run_case(case):
        if case["id"] == hang_id:
            while True:  # an engine stuck in a loop
                pass
        return builtin.run_case(case)

    engine = InProcessEngine(run_case, {"name": "looping"}, {})
    result = runner.run(engine, selected, timeout=0.5)
    outcomes = {r.case.id: r.outcome for r in result.results}
    assert outcomes[hang_id] == "error"
    assert [r.error for r in result.results if r.case.id == hang_id][0]["kind"] == "timeout"
    assert [o for i, o in outcomes.items() if i != hang_id] == ["pass", "pass"]


def test_engine_adapter_survives_requests_of_the_wrong_shape():
    requests = [{"cmd": "start", "version": 1}, {"cmd": "run", "seq": 1, "case": 5}, [1], "x",
                {"cmd": ["start"]}, {"cmd": "stop"}]
    res = run("engine-adapter", input="\n".join(json.dumps(r) for r in requests) + "\n")
    assert res.exit_code == 0
    answers = [json.loads(line) for line in res.output.splitlines()]
    assert len(answers) == 5
    assert answers[1] == {"seq": 1, "errored": {"message": "bad request: `case` must be a JSON object"}}
    assert all("errored" in a for a in answers[2:])


DRAW_HEAD = 'ruleset h "H"\nsource "a test"\nbased on muggins\n'


DRAW_WHILE_ABLE = DRAW_HEAD + "a player may draw while able to place\n"


def draw_cfg(text: str = DRAW_WHILE_ABLE) -> dict:
    return rulelang.compile_text(text, "h.rules")


def test_the_adapter_applies_a_draw_step_only_where_the_rule_offers_it():
    setup = {"hands": [["[1|4]", "[4|5]"], ["[1|5]", "[6|6]"]], "boneyard": ["[0|0]"], "opener": 0}
    steps = [{"play": "[1|4]"}, {"draw": True}, {"draw": True}]
    off = run_case({"config": rulelang.compile_bundled("muggins"), "players": 2, "setup": setup, "steps": steps})
    assert [s.get("reject") for s in off["steps"]] == [None, "must-place", "must-place"]
    on = run_case({"config": draw_cfg(), "players": 2, "setup": setup, "steps": steps})
    assert [s.get("reject") for s in on["steps"]] == [None, None, "boneyard-empty"]
    assert on["steps"][1]["offered"] == ["[1|5] on [1|4] low", "draw"] and on["steps"][1]["seat"] == 1
