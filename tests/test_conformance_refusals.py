"""Every refusal and every protocol error has a case on every tile set.

The reason codes are read from the engine's code (each `IllegalMove(...)` and `illegal(...)` it
raises, and the protocol adapter's), the protocol's error kinds from the runner's code (each
`EngineFailure(...)` and each kind a case is errored with), and the tile sets from the
interpreter's table of sets: a reason, an error kind or a set added there without a case opens
a hole these tests name.
"""
from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from rulelang.conformance import cases, runner
from rulelang.conformance.configs import compiled
from rulelang.conformance.protocol import SubprocessEngine
from rulelang.interpreter.tiles import SETS

ROOT = Path(__file__).parents[1]
ENGINE_CODE = sorted((ROOT / "interpreter").glob("*.py")) + [ROOT / "conformance" / "builtin.py"]
RUNNER_CODE = [ROOT / "conformance" / "protocol.py", ROOT / "conformance" / "runner.py"]
MISBEHAVING = ROOT / "tests" / "data" / "conformance" / "misbehaving_engine.py"
LINT = cases.lint()


def _first_texts(paths: list[Path], callees: set[str], position: int = 0) -> Iterator[str]:
    """The text literal given as argument POSITION to every call of one of CALLEES in PATHS."""
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and len(node.args) > position:
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                arg = node.args[position]
                if name in callees and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    yield arg.value


def reason_codes() -> set[str]:
    """Every stable reason code the engine refuses a step with."""
    return set(_first_texts(ENGINE_CODE, {"IllegalMove", "illegal"}))


def error_kinds() -> set[str]:
    """Every kind of error the runner gives a case: an engine's protocol failures and the runner's own."""
    kinds = set(_first_texts(RUNNER_CODE, {"EngineFailure"})) | set(_first_texts(RUNNER_CODE, {"_not_run"}, 2))
    for path in RUNNER_CODE:  # CaseResult(..., error={"message": ..., "kind": "ruleset"})
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values, strict=True):
                    if isinstance(k, ast.Constant) and k.value == "kind" and isinstance(v, ast.Constant):
                        kinds.add(v.value)
    return kinds


def _set_of(case: cases.Case) -> int:
    return int(compiled(case.ruleset).get("tiles", 6))


@cache
def _refusals() -> dict[tuple[str, int], list[str]]:
    out: dict[tuple[str, int], list[str]] = {}
    for c in LINT.cases:
        for step in c.data["steps"]:
            if "reject" in step:
                out.setdefault((step["reject"], _set_of(c)), []).append(c.id)
    return out


def test_the_reason_codes_are_read_from_the_code():
    codes = reason_codes()
    assert {"no-match", "round-over", "must-place", "claims-off", "boneyard-empty", "dead-end"} <= codes
    assert len(codes) >= 20


@pytest.mark.parametrize("code", sorted(reason_codes()))
def test_every_reason_code_is_documented(code):
    assert f"`{code}`" in (ROOT / "conformance" / "PROTOCOL.md").read_text(encoding="utf-8")
    assert f"`{code}`" in (ROOT / "docs" / "engine-api.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("top", sorted(SETS))
@pytest.mark.parametrize("code", sorted(reason_codes()))
def test_every_reason_code_has_a_case_on_every_tile_set(code, top):
    assert _refusals().get((code, top)), f"no case refuses a step with {code!r} on the double-{top} set"


# -- the protocol's errors (PROTOCOL.md 4), on a case of every set ------------------------------------------------

def _a_case_of_each_set() -> dict[int, cases.Case]:
    out: dict[int, cases.Case] = {}
    for c in LINT.cases:
        out.setdefault(_set_of(c), c)
    return out


CASES = _a_case_of_each_set()
MODES = {"timeout": "hang", "crash": "crash", "malformed": "garbage", "oversized": "huge", "protocol": "wrongseq",
         "version": "version"}


def _errors(engine: Any, selected: list[cases.Case], **options: Any) -> list[dict[str, Any]]:
    result = runner.run(engine, selected, expected_failures={}, **options)
    assert [r.outcome for r in result.results] == ["error"] * len(selected)
    return [r.error or {} for r in result.results]


def _misbehaving(mode: str) -> SubprocessEngine:
    return SubprocessEngine([sys.executable, str(MISBEHAVING), mode])


def _kind_errors(kind: str, case: cases.Case) -> list[dict[str, Any]]:
    """The errors a run gives CASE when it meets the protocol error KIND."""
    if kind in MODES:
        return _errors(_misbehaving(MODES[kind]), [case], timeout=0.5)
    if kind == "spawn":
        return _errors(SubprocessEngine([str(ROOT / "no-such-engine")]), [case])
    if kind == "abandoned":  # the case after MAX_CONSECUTIVE_TIMEOUTS timeouts in a row is not sent
        return _errors(_misbehaving("hang"), [case] * (runner.MAX_CONSECUTIVE_TIMEOUTS + 1), timeout=0.2)[-1:]
    if kind == "deadline":  # started in time, the first case hangs past the run's deadline: the second is not sent
        return _errors(_misbehaving("hang"), [case, case], timeout=30, deadline=2.0)[-1:]
    if kind == "ruleset":  # a ruleset the runner cannot compile is that case's error
        text = f"ruleset broken \"broken\"\nsource \"s\"\nbased on {case.ruleset if isinstance(case.ruleset, str) else 'muggins'}\nnonsense\n"
        broken = cases.Case(case.id, case.variant, case.topic, case.file, case.data, {"text": text})
        return _errors(_misbehaving("errored"), [broken])
    raise AssertionError(f"no way to meet the error kind {kind!r} here: add one (and its case) to this test")


def test_the_error_kinds_are_read_from_the_code():
    assert set(MODES) | {"spawn", "abandoned", "deadline", "ruleset"} <= error_kinds()


def test_there_is_a_case_on_every_tile_set():
    assert sorted(CASES) == sorted(SETS)


@pytest.mark.parametrize("top", sorted(SETS))
@pytest.mark.parametrize("kind", sorted(error_kinds()))
def test_every_protocol_error_errors_a_case_of_every_set_with_its_kind(kind, top):
    (error,) = _kind_errors(kind, CASES[top])
    assert error.get("kind") == kind, error


@pytest.mark.parametrize("top", sorted(SETS))
def test_an_engine_that_errors_or_answers_two_results_errors_a_case_of_every_set(top):
    (own,) = _errors(_misbehaving("errored"), [CASES[top]])
    assert own == {"message": "the engine failed", "kind": "engine"}
    (both,) = _errors(_misbehaving("twokeys"), [CASES[top]])
    assert both["kind"] == "protocol" and "exactly one of result, skipped, errored" in both["message"]
    (start,) = _errors(_misbehaving("badstart"), [CASES[top]])
    assert start["kind"] == "protocol" and "at start" in start["message"]
