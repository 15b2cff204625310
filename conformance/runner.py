"""Run the suite against an engine: lint, select, send each case, compare, classify.

Outcomes: pass, fail (an observation differs), error (the engine crashed, hung,
answered garbage or `errored`), skip (the engine skipped it or does not claim one
of its feature tags), xfail (listed in expected-failures/<engine>.json and did
fail), xpass (listed but passed: the list is stale, and that fails the run).
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .capabilities import problems, undeclared_request, unsupported
from .cases import Case, load_expected_failures, step_words
from .compare import Difference, compare
from .configs import RulesetError, compiled
from .folders import load_expected_failures_in

FAILING = ("fail", "error", "xpass")
MAX_CONSECUTIVE_TIMEOUTS = 3  # an engine that stops answering costs this many timeouts, not one per case
OUTCOMES = ("pass", "fail", "error", "skip", "xfail", "xpass")


@dataclass
class CaseResult:
    case: Case
    outcome: str
    difference: Difference | None = None
    error: dict[str, Any] | None = None
    skip_reason: str | None = None
    xfail_reason: str | None = None
    seconds: float = 0.0
    observation: Any = None  # the engine's whole observation of the step that differs

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.case.id, "variant": self.case.variant, "topic": self.case.topic,
                             "outcome": self.outcome, "description": self.case.description,
                             "seconds": round(self.seconds, 4)}
        if self.difference is not None:
            step = self.case.data["steps"][self.difference.step] if self.difference.step < len(self.case.data["steps"]) else None
            d["difference"] = self.difference.to_dict()
            if step is not None:
                d["difference"]["move"] = step_words(step)
            if self.observation is not None:
                d["difference"]["observation"] = self.observation
        if self.error is not None:
            d["error"] = self.error
        if self.skip_reason:
            d["skip_reason"] = self.skip_reason
        if self.xfail_reason:
            d["xfail_reason"] = self.xfail_reason
        return d


@dataclass
class RunResult:
    engine: dict[str, Any]
    results: list[CaseResult] = field(default_factory=list)
    restarts: int = 0
    stale_expected_failures: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(OUTCOMES, 0)
        for r in self.results:
            out[r.outcome] += 1
        return out

    @property
    def ok(self) -> bool:
        return not any(r.outcome in FAILING for r in self.results) and not self.stale_expected_failures


def request_for(case: Case) -> dict[str, Any]:
    """What the engine is sent: the compiled configuration, the deal and the moves, never the expectations."""
    steps = []
    for s in case.data["steps"]:
        steps.append({k: s[k] for k in ("play", "claim", "draw", "pass", "call", "observe") if k in s})
    req: dict[str, Any] = {"id": case.id, "config": compiled(case.ruleset), "players": case.data["players"],
                           "setup": case.data["setup"], "steps": steps}
    if case.data.get("next_rounds"):
        req["next_rounds"] = case.data["next_rounds"]
    return req


def run(engine: Any, cases: Iterable[Case], timeout: float = 10.0,
        expected_failures: dict[str, str] | None = None, progress: Callable[[CaseResult], Any] | None = None,
        all_ids: Iterable[str] | None = None, deadline: float | None = None,
        xfail_dirs: Iterable[Any] | None = None) -> RunResult:
    """Run `cases` on `engine` (InProcessEngine or SubprocessEngine); the engine is stopped at the end.

    An engine that times out on MAX_CONSECUTIVE_TIMEOUTS cases in a row is given
    no more: its remaining cases are errored at once. An engine that did not
    start errs every case with that failure, whichever way it failed (none is
    skipped: its capabilities are unknown). `deadline` (seconds) bounds
    the whole run: a case is given at most the time left, and the cases left
    when it has passed are errored without being sent.

    Without `expected_failures`, the engine's list is looked up by its name in
    `xfail_dirs` (default: the suite's own expected-failures folder).
    """
    cases = list(cases)
    ends_at = None if deadline is None else time.monotonic() + deadline
    if ends_at is not None and hasattr(engine, "start_timeout"):
        engine.start_timeout = min(engine.start_timeout, max(deadline or 0.0, 0.001))
    failure = _start(engine)
    start_error = None if failure is None else {"message": str(failure)}
    sending = _Sending(engine, timeout, deadline, ends_at, failure)
    name = (engine.implementation or {}).get("name", "unknown")
    xfails = _expected_failures(name, expected_failures, xfail_dirs)
    run_result = RunResult(engine={"implementation": engine.implementation, "capabilities": engine.capabilities,
                                   **({"start_error": start_error} if start_error else {})})
    if sending.supported is not None and problems(sending.supported):  # declines nothing, and says so
        run_result.engine["capability_problems"] = problems(sending.supported)
    try:
        for case in cases:
            res = sending.send(case)
            _mark_expected(res, xfails.get(case.id))
            run_result.results.append(res)
            if progress is not None:
                progress(res)
    finally:
        engine.stop()
    run_result.restarts = getattr(engine, "restarts", 0)
    if all_ids is not None:
        # a listed id that is no case of the suite: the list went stale, and that fails the run
        run_result.stale_expected_failures = lint_expected_failures(xfails, set(all_ids))
    return run_result


def _start(engine: Any) -> Exception | None:
    """Start the engine; what went wrong, if it did (every case is then an error of that start)."""
    try:
        engine.start()
    except Exception as exc:  # EngineFailure
        return exc
    return None


def _start_failed(case: Case, failure: Exception) -> CaseResult:
    """A case of an engine that did not start: an error, whatever the case (nothing is known of the engine's
    capabilities, so none is skipped for them), as the engine's `run` reports a failed start."""
    kind = getattr(failure, "kind", "start")
    error = {"message": f"{kind}: {getattr(failure, 'message', failure)}", "kind": kind}
    context = getattr(failure, "context", None)
    if context:
        error["context"] = context
    return CaseResult(case, "error", error=error)


def _expected_failures(name: str, given: dict[str, str] | None, xfail_dirs: Iterable[Any] | None) -> dict[str, str]:
    if given is not None:
        return given
    if xfail_dirs is not None:
        return load_expected_failures_in(name, xfail_dirs)
    return load_expected_failures(name)


def _mark_expected(res: CaseResult, reason: str | None) -> None:
    """A listed case that fails is an xfail; one that passes an xpass (the list is stale)."""
    if reason is None:
        return
    res.xfail_reason = reason
    if res.outcome in ("fail", "error"):
        res.outcome = "xfail"
    elif res.outcome == "pass":
        res.outcome = "xpass"


class _Sending:
    """Sends the cases one by one, within the run's deadline, giving up on an engine that stopped answering."""

    def __init__(self, engine: Any, timeout: float, deadline: float | None, ends_at: float | None,
                 failure: Exception | None = None):
        """`engine` has started (its capabilities are known), or FAILURE says why it did not."""
        self.engine = engine
        self.failure = failure
        self.timeout = timeout
        self.deadline = deadline
        self.ends_at = ends_at
        self.claimed: list[str] | None = (engine.capabilities or {}).get("features")
        self.supported: Any = (engine.capabilities or {}).get("configurations")
        self.capabilities: Any = engine.capabilities or {}
        self.seq = 0
        self.timeouts = 0  # consecutive

    def send(self, case: Case) -> CaseResult:
        t0 = time.monotonic()
        left = None if self.ends_at is None else self.ends_at - t0
        if self.failure is not None:  # not sent: the engine would only report its failed start again
            res = _start_failed(case, self.failure)
        elif self.timeouts >= MAX_CONSECUTIVE_TIMEOUTS:
            res = _not_run(case, self.claimed, "abandoned", f"not run: the engine gave no answer to {self.timeouts} "
                           "cases in a row, so it was given no more")
        elif left is not None and left <= 0:
            res = _not_run(case, self.claimed, "deadline", f"not run: the run's deadline of {self.deadline:g} s had passed")
        else:
            res = _run_one(self.engine, case, self.seq, self.timeout if left is None else min(self.timeout, left),
                           self.claimed, self.supported, self.capabilities)
            self.seq += 1
            timed_out = res.outcome == "error" and (res.error or {}).get("kind") == "timeout"
            self.timeouts = self.timeouts + 1 if timed_out else 0
        res.seconds = time.monotonic() - t0
        return res


def _not_run(case: Case, claimed: list[str] | None, kind: str, message: str) -> CaseResult:
    """A case never sent to the engine: skipped if the engine does not claim its tags, else errored."""
    missing = [t for t in case.tags if claimed is not None and t not in claimed]
    if missing:
        return CaseResult(case, "skip", skip_reason=f"the engine does not claim {', '.join(missing)}")
    return CaseResult(case, "error", error={"message": message, "kind": kind})


def _run_one(engine: Any, case: Case, seq: int, timeout: float, claimed: list[str] | None,
             supported: Any = None, capabilities: Any = None) -> CaseResult:
    if claimed is not None:
        missing = [t for t in case.tags if t not in claimed]
        if missing:
            return CaseResult(case, "skip", skip_reason=f"the engine does not claim {', '.join(missing)}")
    try:
        request = request_for(case)
    except RulesetError as exc:
        return CaseResult(case, "error", error={"message": str(exc), "kind": "ruleset"})
    reason = undeclared_request(capabilities or {}, request)
    if reason:
        return CaseResult(case, "skip", skip_reason=reason)
    if supported is not None:
        reason = unsupported(supported, request)
        if reason:
            return CaseResult(case, "skip", skip_reason=reason)
    answer = engine.run(seq, request, timeout)
    if "errored" in answer:
        err = answer["errored"]
        return CaseResult(case, "error", error=err if isinstance(err, dict) else {"message": str(err)})
    if "skipped" in answer:
        sk = answer["skipped"]
        return CaseResult(case, "skip", skip_reason=(sk.get("reason") if isinstance(sk, dict) else str(sk)) or "skipped")
    result = answer.get("result")
    diff = compare(case.data, result)
    if diff is None:
        return CaseResult(case, "pass")
    observation = None
    if isinstance(result, dict) and isinstance(result.get("steps"), list) and diff.step < len(result["steps"]):
        observation = result["steps"][diff.step]
    return CaseResult(case, "fail", difference=diff, observation=observation)


def lint_expected_failures(xfails: dict[str, str], known: set[str]) -> list[str]:
    """Ids listed as expected failures that are not cases of the suite."""
    return sorted(i for i in xfails if i not in known)
