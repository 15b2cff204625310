"""Shrink a failing case: the fewest moves and the smallest deal that an engine still fails (`conform --shrink`).

Delta debugging (Zeller's ddmin) over the parts of a case: the steps after the
first difference are dropped and only the differing expectation is kept; then
steps before it, the later deals, and the dealt tiles are removed, a chunk at a
time, while the candidate stays a correct case. A candidate is kept when

- the built-in engine passes it (its moves are still legal and the kept,
  hand-worked expectations still hold: no expected value is recorded from an
  engine, the built-in engine only filters), and
- the failing engine still fails it with the same symptom: its first
  difference is at the last step, under the same observation key.

Removed tiles are simply out of play (PROTOCOL.md 1: tiles in no hand and not
in the boneyard), so the shrunk case is tagged `partial-deal`; it keeps the
original's other tags (`multi-round` only while it still deals a later round).

What shrinking may spend is bounded (a `Budget`): candidates per case and
across the run, and the run's deadline (`conform --deadline`), which also
bounds each candidate's timeout. An engine that gives no answer to three
candidates in a row abandons the case. A shrink that stops early keeps the
smallest case found so far (every kept candidate was checked).
"""
from __future__ import annotations

import json
import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .builtin import run_case as builtin_run_case
from .cases import Case, lint, step_words
from .compare import Difference, compare
from .runner import MAX_CONSECUTIVE_TIMEOUTS, request_for

MAX_RUNS = 3000  # candidates tried per case at most (each is one run of the engine and one of the built-in engine)
MAX_RUN_CANDIDATES = 20000  # candidates tried across a whole run (every failing case) at most
SUFFIX = "-shrunk"
ID_MAX = 80  # the case schema's bound on an id
MOVE_KEYS = ("play", "claim", "draw", "pass", "call", "observe", "reject")  # what a step keeps without its expectation


class Budget:
    """What shrinking may spend across a run: candidates, and time up to ENDS_AT (a time.monotonic() value)."""

    def __init__(self, candidates: int = MAX_RUN_CANDIDATES, ends_at: float | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.candidates = candidates
        self.ends_at = ends_at
        self.clock = clock

    def seconds_left(self) -> float | None:
        return None if self.ends_at is None else self.ends_at - self.clock()

    def spent(self) -> str | None:
        """Why nothing more may be tried ("deadline", "candidates"), or None."""
        left = self.seconds_left()
        if left is not None and left <= 0:
            return "deadline"
        return "candidates" if self.candidates <= 0 else None


class Stopped(Exception):
    """Shrinking stopped before its end: REASON is "deadline", "candidates" (the run's budget) or "timeouts"."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class NoAnswer(Exception):
    """The engine gave no result for the case itself (a timeout, a crash): there is nothing to shrink."""


@dataclass
class Shrunk:
    """A shrunk case and how much smaller it is than the one it came from."""

    original: Case
    data: dict[str, Any]  # the shrunk case (one entry of a case file's `cases`)
    difference: Difference  # the failing engine's difference on it
    runs: int  # candidates tried
    stopped: str | None = None  # why shrinking stopped early (Stopped.reason): the smallest case found by then

    @property
    def steps(self) -> tuple[int, int]:
        return len(self.data["steps"]), len(self.original.data["steps"])

    @property
    def tiles(self) -> tuple[int, int]:
        return _tile_count(self.data), _tile_count(self.original.data)


def _deals(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [data["setup"], *data.get("next_rounds", [])]


def _tile_count(data: dict[str, Any]) -> int:
    return sum(len(h) for d in _deals(data) for h in d["hands"]) + sum(len(d["boneyard"]) for d in _deals(data))


def _key(diff: Difference) -> str | None:
    """The observation key a difference lies under (`$.steps[3].attach_points[2]`: attach_points)."""
    m = re.match(r"\$\.steps\[\d+\]\.([A-Za-z_]+)", diff.path)
    return m.group(1) if m else None


class _Oracle:
    """Runs candidates: on the failing engine (kept started) and on the built-in engine, within the budget."""

    def __init__(self, case: Case, engine: Any, timeout: float, max_runs: int, budget: Budget):
        self.case = case
        self.engine = engine
        self.timeout = timeout
        self.left = max_runs
        self.budget = budget
        self.runs = 0
        self.timeouts = 0  # in a row
        self.key: str | None = None
        self.best: tuple[dict[str, Any], Difference] | None = None  # the last candidate kept, and its difference
        self.last_error: str | None = None  # the engine's error on the last run, if it gave no result

    def _as_case(self, data: dict[str, Any]) -> Case:
        c = self.case
        return Case(data["id"], c.variant, c.topic, c.file, data, c.ruleset)

    def difference(self, data: dict[str, Any]) -> Difference | None:
        """The failing engine's first difference on DATA (None: it passes, or it did not answer with a result).

        Raises Stopped at the deadline, and after the third timeout in a row."""
        left = self.budget.seconds_left()
        if left is not None and left <= 0:
            raise Stopped("deadline")
        timeout = self.timeout if left is None else min(self.timeout, left)
        if left is not None and hasattr(self.engine, "start_timeout"):  # a restart after a timeout counts too
            self.engine.start_timeout = min(self.engine.start_timeout, max(left, 0.001))
        self.runs += 1
        answer = self.engine.run(self.runs, request_for(self._as_case(data)), timeout)
        if self.budget.spent() == "deadline":
            raise Stopped("deadline")
        errored = answer.get("errored")
        self.last_error = None
        if isinstance(errored, dict) and errored.get("kind") == "timeout":
            self.timeouts += 1
            self.last_error = str(errored.get("message", "timeout"))
            if self.timeouts >= MAX_CONSECUTIVE_TIMEOUTS:
                raise Stopped("timeouts")
            return None
        self.timeouts = 0
        if "result" not in answer:
            self.last_error = str((errored or {}).get("message", "no result")) if isinstance(errored, dict) else "no result"
            return None
        return compare(data, answer["result"])

    def builtin_passes(self, data: dict[str, Any]) -> bool:
        try:
            result = builtin_run_case(request_for(self._as_case(data)))
        except Exception:  # noqa: BLE001 - a candidate the engine cannot even set up is no case
            return False
        return compare(data, result) is None

    def fails(self, data: dict[str, Any]) -> bool:
        """DATA is a correct case (the built-in engine passes it) that the engine fails with the same symptom."""
        if self.left <= 0 or any(not h for d in _deals(data) for h in d["hands"]):
            return False
        if self.budget.candidates <= 0:
            raise Stopped("candidates")
        self.left -= 1
        self.budget.candidates -= 1
        if not self.builtin_passes(data):
            return False
        diff = self.difference(data)
        if diff is not None and diff.step == len(data["steps"]) - 1 and _key(diff) == self.key:
            self.best = (data, diff)
            return True
        return False


def ddmin(items: list[Any], keeps_failing: Callable[[list[Any]], bool]) -> list[Any]:
    """The smallest sublist found of ITEMS that still fails: remove chunks, halving their size (Zeller's ddmin)."""
    n = 2
    while len(items) >= 2:
        size = -(-len(items) // n)
        for start in range(0, len(items), size):
            rest = items[:start] + items[start + size:]
            if keeps_failing(rest):
                items, n = rest, max(n - 1, 2)
                break
        else:
            if size == 1:
                break
            n = min(2 * n, len(items))
    if len(items) == 1 and keeps_failing([]):
        return []
    return items


def _cut(data: dict[str, Any], diff: Difference) -> dict[str, Any]:
    """DATA ending at the step that differs, with only that step's differing expectation."""
    steps = [{k: s[k] for k in MOVE_KEYS if k in s} for s in data["steps"][:diff.step]]
    last = dict(data["steps"][diff.step])
    key = _key(diff)
    if key == "reject":  # applied where a refusal is expected, or refused where it is not: no value is needed
        last.pop("expect", None)
    elif key in (last.get("expect") or {}):
        # a view keeps the hand it states too: what the seat may know starts from it (PROTOCOL.md 2.1)
        kept = (key, "hand") if "observe" in last else (key,)
        last["expect"] = {k: v for k, v in last["expect"].items() if k in kept}
    last.pop("note", None)
    return {**data, "steps": [*steps, last]}


def _without_tiles(data: dict[str, Any], removed: set[tuple[int, str, int, str]]) -> dict[str, Any]:
    """DATA with the dealt tiles REMOVED ((deal, "hand"/"boneyard", seat or 0, tile)) taken out of play."""
    deals = []
    for k, d in enumerate(_deals(data)):
        deals.append({**d, "hands": [[t for t in h if (k, "hand", s, t) not in removed] for s, h in enumerate(d["hands"])],
                      "boneyard": [t for t in d["boneyard"] if (k, "boneyard", 0, t) not in removed]})
    out = {**data, "setup": deals[0]}
    if "next_rounds" in data:
        out["next_rounds"] = deals[1:]
    return out


def _dealt(data: dict[str, Any]) -> list[tuple[int, str, int, str]]:
    """Every dealt tile as (deal, "hand"/"boneyard", seat or 0, tile): the boneyard's last tiles first."""
    out = []
    for k, d in enumerate(_deals(data)):
        out += [(k, "boneyard", 0, t) for t in reversed(d["boneyard"])]
        out += [(k, "hand", s, t) for s, h in enumerate(d["hands"]) for t in h]
    return out


def _fewer_steps(data: dict[str, Any], oracle: _Oracle) -> dict[str, Any]:
    """DATA with the fewest steps before its last one found."""
    *lead, last = data["steps"]
    kept = ddmin(lead, lambda steps: oracle.fails({**data, "steps": [*steps, last]}))
    return {**data, "steps": [*kept, last]}


def _fewer_rounds(data: dict[str, Any], oracle: _Oracle) -> dict[str, Any]:
    """DATA without the later deals it does not need (from the last one)."""
    while data.get("next_rounds"):
        fewer = {**data, "next_rounds": data["next_rounds"][:-1]}
        if not fewer["next_rounds"]:
            del fewer["next_rounds"]
        if not oracle.fails(fewer):
            break
        data = fewer
    return data


def _fewer_tiles(data: dict[str, Any], oracle: _Oracle) -> dict[str, Any]:
    """DATA with the fewest dealt tiles found (the others out of play)."""
    dealt = _dealt(data)
    keep = set(ddmin(dealt, lambda tiles: oracle.fails(_without_tiles(data, set(dealt) - set(tiles)))))
    return _without_tiles(data, set(dealt) - keep)


def shrink(case: Case, engine: Any, timeout: float = 10.0, max_runs: int = MAX_RUNS,
           budget: Budget | None = None) -> Shrunk | None:
    """The smallest correct case found that ENGINE still fails as it fails CASE; None when it does not fail it.

    Raises NoAnswer when the engine gives no result for CASE itself, and Stopped when the budget ends before
    that first answer; a budget that ends later gives the smallest case found by then (`Shrunk.stopped`)."""
    oracle = _Oracle(case, engine, timeout, max_runs, budget or Budget())
    data = {k: v for k, v in case.data.items() if k != "replaces"}
    first = oracle.difference(data)
    if first is None:
        if oracle.last_error is not None:
            raise NoAnswer(oracle.last_error)
        return None
    oracle.key = _key(first)
    oracle.best = (data, first)
    stopped = None
    try:
        cut = _cut(data, first)
        if oracle.fails(cut):
            data = cut
        for _ in range(3):  # to a fixed point: a shorter game may free tiles, fewer tiles may free moves
            before = json.dumps(data)
            data = _fewer_tiles(_fewer_rounds(_fewer_steps(data, oracle), oracle), oracle)
            if json.dumps(data) == before:
                break
    except Stopped as exc:
        stopped = exc.reason
    if stopped is None and json.dumps(data, sort_keys=True) != json.dumps(oracle.best[0], sort_keys=True):
        diff = oracle.difference(data)  # not the candidate last kept: asked again
        assert diff is not None
        oracle.best = (data, diff)
    data, diff = oracle.best
    return Shrunk(case, _described(case, data, diff), diff, oracle.runs, stopped)


def _described(case: Case, data: dict[str, Any], diff: Difference) -> dict[str, Any]:
    """The shrunk case with its own id, description and tags."""
    cid = case.id[:ID_MAX - len(SUFFIX)].rstrip("-") + SUFFIX
    step = data["steps"][-1]
    what = f"{_key(diff)} as the case expects" if _key(diff) else "the observation the case expects"
    text = (f"the smallest part found of {case.id}: after {len(data['steps']) - 1} earlier steps, "
            f"{step_words(step)} gives {what} ({_tile_count(data)} of {_tile_count(case.data)} tiles dealt)")
    tags = [t for t in dict.fromkeys([*data["tags"], "partial-deal"]) if t != "multi-round" or data.get("next_rounds")]
    source = {**data["source"], "where": f"{data['source']['where']} (shrunk from {case.id} by rulelang conform --shrink)"}
    rest = {k: v for k, v in data.items() if k not in ("id", "description", "source", "tags")}
    return {"id": cid, "description": text, "source": source, **rest, "tags": tags}


def write(shrunk: Shrunk, folder: Path) -> Path:
    """Write the shrunk case as a case file FOLDER/VARIANT/ID.json, linted as every case file is first (ValueError
    with the problems if it does not lint: nothing is written).

    Written atomically, as every output is (rulelang/base/outfiles.py): a run killed meanwhile leaves the file whole
    or absent, a symbolic link at the path is replaced (never written through onto its target), a FIFO too
    (never opened, so never waited on)."""
    from rulelang.base.outfiles import write_atomic

    case = shrunk.original
    name = f"{shrunk.data['id']}.json"
    doc = {"description": f"A case shrunk from {case.id} ({case.variant}/{case.topic}.json) by rulelang conform "
                          "--shrink: the fewest moves and tiles found that the engine still fails.",
           "ruleset": case.ruleset, "cases": [shrunk.data]}
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    with tempfile.TemporaryDirectory(prefix="rulelang-shrunk-") as scratch:
        draft = Path(scratch) / case.variant / name
        draft.parent.mkdir()
        draft.write_text(text, encoding="utf-8")
        report = lint(Path(scratch), files=[draft])
    if not report.ok:
        raise ValueError("; ".join(report.errors))
    path = folder / case.variant / name
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(str(path), text, follow=False)
    return path
