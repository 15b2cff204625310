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

from click.testing import CliRunner

from rulelang.cli import main
from rulelang.conformance import builtin, cases
from rulelang.conformance.protocol import InProcessEngine, SubprocessEngine
from rulelang.conformance.shrink import ddmin, shrink

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

