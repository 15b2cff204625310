"""`rulelang conform --shrink DIR`: a failing case shrunk to the fewest moves and tiles that still fail.

A copy of the Python example engine with one rule mistake (an internal double
still counts) fails a generated complete-match case; the shrunk case is a valid
case file, much smaller, that the broken engine still fails and the built-in
and fresh engines pass.
"""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.conformance import builtin, cases
from rulelang.conformance.protocol import InProcessEngine, SubprocessEngine
from rulelang.conformance.shrink import Budget, ddmin, shrink, write

ROOT = Path(__file__).parents[1]
TOY = ROOT / "conformance" / "examples" / "toy_engine.py"
FRESH = ROOT / "tests" / "data" / "conformance" / "fresh_engine.py"
CASE = "pagat-complete-match-3p-seed1-rounds-dealt"  # generated: three rounds, every tile dealt
MISTAKE = ('if terminal or "internal-double-counts" in BREAKS:', "if True:  # the mistake: an internal double counts")


def conform(*args):
    return CliRunner().invoke(main, ["conform", *args], catch_exceptions=False)


def _broken(tmp_path: Path) -> str:
    text = TOY.read_text(encoding="utf-8")
    assert MISTAKE[0] in text
    path = tmp_path / "broken_engine.py"
    path.write_text(text.replace(MISTAKE[0], MISTAKE[1]), encoding="utf-8")
    return " ".join(shlex.quote(x) for x in (sys.executable, str(path)))


def _tiles(case: dict) -> int:
    deals = [case["setup"], *case.get("next_rounds", [])]
    return sum(len(h) for d in deals for h in d["hands"]) + sum(len(d["boneyard"]) for d in deals)


def test_a_broken_engine_is_shrunk_to_a_small_failing_case(tmp_path):
    engine = _broken(tmp_path)
    out = tmp_path / "shrunk"
    res = conform("--engine", engine, "--id", CASE, "--shrink", str(out))
    assert res.exit_code == 1 and f"FAIL {CASE}" in res.output  # the run's own verdict is unchanged
    path = out / "pagat" / f"{CASE}-shrunk.json"
    assert path.is_file(), res.output
    linted = cases.lint(out)
    assert linted.ok, linted.errors
    (shrunk,) = linted.cases
    original = next(c for c in cases.lint().cases if c.id == CASE)
    assert shrunk.id == f"{CASE}-shrunk" and shrunk.ruleset == original.ruleset
    assert len(shrunk.data["steps"]) <= 6 < len(original.data["steps"])
    assert _tiles(shrunk.data) <= 10 < _tiles(original.data)
    assert "partial-deal" in shrunk.tags and ("multi-round" in shrunk.tags) == bool(shrunk.data.get("next_rounds"))
    assert shrunk.data["source"]["where"].endswith(f"(shrunk from {CASE} by rulelang conform --shrink)")
    # correct: the built-in and the fresh engine pass it; the broken engine still fails it
    assert conform("--cases", str(out)).exit_code == 0
    fresh = " ".join(shlex.quote(x) for x in (sys.executable, str(FRESH)))
    assert conform("--cases", str(out), "--engine", fresh).exit_code == 0
    again = conform("--cases", str(out), "--engine", engine)
    assert again.exit_code == 1 and f"FAIL {CASE}-shrunk" in again.output


def test_only_the_differing_expectation_of_hand_worked_values_is_kept(tmp_path):
    original = next(c for c in cases.lint().cases if c.id == CASE)
    engine = SubprocessEngine(shlex.split(_broken(tmp_path)))
    try:
        result = shrink(original, engine)
    finally:
        engine.stop()
    assert result is not None and result.runs > 1
    *lead, last = result.data["steps"]
    assert all("expect" not in s for s in lead)
    key = result.difference.path.split(".")[2].split("[")[0]
    assert list(last["expect"]) == [key]
    # the kept value is one the original case states at the same move
    assert any(s.get("play") == last["play"] and s.get("expect", {}).get(key) == last["expect"][key]
               for s in original.data["steps"])
    assert result.steps[0] < result.steps[1] and result.tiles[0] < result.tiles[1]


def test_a_case_the_engine_passes_is_not_shrunk():
    engine = InProcessEngine(builtin.run_case, builtin.implementation(), builtin.capabilities())
    assert shrink(next(c for c in cases.lint().cases if c.id == CASE), engine) is None


def test_ddmin_finds_a_smallest_failing_sublist():
    calls = []

    def fails(items):
        calls.append(items)
        return {3, 7} <= set(items)

    assert ddmin(list(range(10)), fails) == [3, 7]
    assert ddmin([1, 2], lambda items: True) == []
    assert len(calls) < 60


def test_a_passing_run_writes_nothing(tmp_path):
    out = tmp_path / "shrunk"
    res = conform("--id", CASE, "--shrink", str(out))
    assert res.exit_code == 0, res.output
    assert not out.exists() or not any(out.rglob("*.json"))



# --- what shrinking may spend: the deadline, timeouts in a row, candidates across the run

class _Clock:
    """A fake clock: the fake engines below advance it instead of taking real time."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class _SlowOnCandidates:
    """Fails the case at once (the points of its last step are wrong), then takes 5 s of the fake clock, or
    the whole timeout it is given if that is shorter, to answer each shrink candidate; or, with `hang`, never
    answers a candidate (a timeout)."""

    def __init__(self, clock, hang=False):
        self.clock, self.hang = clock, hang
        self.timeouts: list[float] = []  # the timeout each run was given
        self.start_timeout = 10.0

    def run(self, seq, case, timeout):
        self.timeouts.append(timeout)
        if len(self.timeouts) > 1:
            self.clock.now += min(5.0, timeout)
            if self.hang or timeout < 5.0:
                return {"seq": seq, "errored": {"message": "timeout: no answer", "kind": "timeout"}}
        result = builtin.run_case(case)
        result["steps"][-1]["points"] = -1
        return {"seq": seq, "result": result}

    def stop(self):
        pass


def _original():
    return next(c for c in cases.lint().cases if c.id == CASE)


def test_shrinking_stops_at_the_deadline_with_the_smallest_case_found_by_then():
    clock = _Clock()
    engine = _SlowOnCandidates(clock)
    result = shrink(_original(), engine, timeout=10.0, budget=Budget(ends_at=20.0, clock=clock))
    assert result is not None and result.stopped == "deadline"
    assert clock.now <= 20.0 and len(engine.timeouts) <= 5  # 4 candidates of 5 s fit, no more
    assert all(t <= 20.0 - 5.0 * k for k, t in enumerate(engine.timeouts[1:]))  # each given the time left at most
    assert engine.start_timeout <= 20.0  # a restart of the engine is bounded by the deadline too
    assert result.difference.step == len(result.data["steps"]) - 1  # a case it still fails, found before then


def test_three_timeouts_in_a_row_abandon_a_case():
    engine = _SlowOnCandidates(_Clock(), hang=True)
    result = shrink(_original(), engine, timeout=10.0, budget=Budget())
    assert result is not None and result.stopped == "timeouts"
    assert len(engine.timeouts) == 1 + 3
    assert result.data["steps"] == _original().data["steps"]  # nothing smaller was found


def test_the_candidates_are_bounded_across_the_run():
    budget = Budget(candidates=12)
    engine = _SlowOnCandidates(_Clock())
    first = shrink(_original(), engine, timeout=10.0, budget=budget)
    assert first is not None and first.stopped == "candidates" and budget.candidates == 0
    second = shrink(_original(), engine, timeout=10.0, budget=budget)  # the next failing case gets none
    assert second is not None and second.stopped == "candidates" and second.steps == (26, 26)
    assert len(engine.timeouts) <= 12 + 2  # the first run of each case, and the candidates


def test_conform_says_that_the_deadline_stopped_the_shrinking(tmp_path, monkeypatch):
    import io
    import time as real_time

    from rich.console import Console

    from rulelang.commands import conform as conform_cmd
    from rulelang.conformance import shrink as shrink_module
    from rulelang.conformance.runner import CaseResult, RunResult

    clock = _Clock()
    clock.now = real_time.monotonic()
    monkeypatch.setattr(shrink_module, "Budget", lambda ends_at=None: Budget(ends_at=ends_at, clock=clock))
    original = _original()
    run = RunResult(engine={}, results=[CaseResult(original, "fail"), CaseResult(original, "fail")])
    err = io.StringIO()
    conform_cmd._shrink_failures(run, _SlowOnCandidates(clock), tmp_path / "out", 10.0,
                                 Console(file=err, width=300), clock.now + 20.0, 20.0)
    text = err.getvalue()
    assert f"shrunk {CASE} (stopped early: the run's deadline of 20 s passed; the smallest case found by then)" \
        in text, text
    assert "shrink: the run's deadline of 20 s passed; 1 failing cases not shrunk" in text
    assert (tmp_path / "out" / "pagat" / f"{CASE}-shrunk.json").is_file()


# --- the shrunk case file is written atomically, never through a link or into a FIFO

def _a_shrunk_case():
    from rulelang.conformance.shrink import Shrunk

    original = _original()
    return Shrunk(original, {**original.data, "id": f"{CASE}-shrunk"}, None, 0)


def test_the_shrunk_case_replaces_a_symbolic_link_not_its_target(tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    path = tmp_path / "out" / "pagat" / f"{CASE}-shrunk.json"
    path.parent.mkdir(parents=True)
    path.symlink_to(target)
    assert write(_a_shrunk_case(), tmp_path / "out") == path
    assert target.read_text() == "keep me\n"
    assert not path.is_symlink() and cases.lint(tmp_path / "out").ok


def test_the_shrunk_case_replaces_a_fifo_and_never_writes_into_it(tmp_path):
    import os
    import stat

    path = tmp_path / "out" / "pagat" / f"{CASE}-shrunk.json"
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # so that a write into the FIFO would not block this test
    try:
        write(_a_shrunk_case(), tmp_path / "out")
        assert os.read(reader, 100) == b""  # nothing went into the FIFO
    finally:
        os.close(reader)
    assert stat.S_ISREG(os.lstat(path).st_mode) and cases.lint(tmp_path / "out").ok


def test_a_write_cut_short_leaves_the_earlier_file_whole_and_no_scrap(tmp_path, monkeypatch):
    import os

    path = tmp_path / "out" / "pagat" / f"{CASE}-shrunk.json"
    write(_a_shrunk_case(), tmp_path / "out")
    before = path.read_text(encoding="utf-8")

    def killed(*args):
        raise KeyboardInterrupt  # the run is stopped before the new file takes the old one's place

    monkeypatch.setattr(os, "replace", killed)
    monkeypatch.setattr(os, "rename", killed)
    shrunk = _a_shrunk_case()
    shrunk.data["description"] += " (a second time)"
    with pytest.raises(KeyboardInterrupt):
        write(shrunk, tmp_path / "out")
    assert path.read_text(encoding="utf-8") == before
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
