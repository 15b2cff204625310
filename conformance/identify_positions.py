"""Where identify asks: positions (a deal and moves, no expectations) and the built-in engine's transcripts of them.

A position comes from a suite case (a deciding case, a case of the claimed
variant), from seeded greedy rounds of a configuration (`generate.traces`), or
from the search that finds deciding cases; what a value of a field expects
there is the built-in engine's transcript under the twin with that value,
computed once per configuration and position for the whole process.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from rulelang.interpreter import Config, as_config

from . import deciding, generate
from .builtin import run_case
from .cases import Case
from .runner import request_for

POOL = 16  # seeded positions of the base variant looked at per field
TWIN_TRACES = 4  # seeded positions of each twin looked at per field, when the base's did not tell the values apart
VIEW_KEYS = ("hand", "others", "boneyard", "to_move", "moves", "move_points", "may_call")  # an observe step's keys
STEP_KEYS = ("play", "claim", "draw", "pass", "call")  # what a position's step keeps of a case's (observe steps: no)
KEYS = (*generate.OBSERVED, "shown", "shown_scores", *VIEW_KEYS)  # what a transcript compares


def json_key(value: Any) -> str:
    """A value as a text that is equal exactly when the values are."""
    return json.dumps(value, sort_keys=True)


@dataclass
class Position:
    """A deal and moves to ask the engine (no expectations: each value of a field brings its own)."""

    id: str
    players: int
    setup: dict[str, Any]
    next_rounds: list[dict[str, Any]]
    steps: list[dict[str, Any]]
    source: str


class Transcripts:
    """The built-in engine's transcript of a position under a configuration, cached (None: it cannot play it)."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, str], list[dict[str, Any]] | None] = {}
        self._configs: dict[str, Config] = {}  # each configuration validated once

    def of(self, config: dict[str, Any], pos: Position) -> list[dict[str, Any]] | None:
        ckey = json_key(config)
        key = (ckey, json_key([pos.players, pos.setup, pos.next_rounds, pos.steps]))  # ids may recur across bases
        if key not in self._cache:
            if ckey not in self._configs:
                self._configs[ckey] = as_config(config)
            try:
                out = run_case({"config": self._configs[ckey], "players": pos.players, "setup": pos.setup,
                                "next_rounds": pos.next_rounds, "steps": pos.steps})["steps"]
                self._cache[key] = [{k: o[k] for k in ("reject", *KEYS) if k in o} for o in out]
            except Exception:  # a deal this configuration cannot play (another set, a count it does not allow)
                self._cache[key] = None
        return self._cache[key]


TRANSCRIPTS = Transcripts()  # shared by every run of this process


def trace_positions(config: dict[str, Any], label: str, limit: int) -> Iterator[Position]:
    """The first `limit` positions `generate.traces` plays under `config` (greedy players, seeded)."""
    for i, t in enumerate(generate.traces(config)):
        if i >= limit:
            return
        steps = [generate._step(m) for m in t.moves]  # each move (with its claim) as a case step
        yield Position(f"identify-{label}-{t.players}p-{t.kind}-seed{t.seed}", t.players, t.setup, t.next_rounds,
                       steps, f"Match seed {t.seed}, {t.kind}, greedy players, under {label}")


def case_position(case: Case, what: str) -> Position:
    """A suite case as a position: its deal and moves, without its expectations nor its observe steps (what a
    seat sees is not a rule of play, and an engine need not answer them)."""
    req = request_for(case)
    steps = [s for s in req["steps"] if "observe" not in s]
    return Position(case.id, case.data["players"], req["setup"], req.get("next_rounds", []), steps, f"{what} {case.id}")


@cache
def twin_positions(config: str, label: str) -> tuple[Position, ...]:
    """The first seeded positions of a twin (a JSON text), kept for the process."""
    return tuple(trace_positions(json.loads(config), label, TWIN_TRACES))


@cache
def pool_of(config: str, label: str) -> Pool:
    """The positions of a base configuration (a JSON text), shared by every field and every run."""
    return Pool(json.loads(config), label)


class Pool:
    """Seeded positions of one base configuration, made as they are needed and kept."""

    def __init__(self, config: dict[str, Any], label: str, limit: int = POOL):
        self._gen = trace_positions(config, label, limit)
        self.items: list[Position] = []

    def __iter__(self) -> Iterator[Position]:
        i = 0
        while True:
            if i == len(self.items):
                nxt = next(self._gen, None)
                if nxt is None:
                    return
                self.items.append(nxt)
            yield self.items[i]
            i += 1


def dealt_for(claimed: dict[str, Any] | None, pos: Position) -> bool:
    """Whether a position can be asked of an engine playing the claimed variant: where that variant draws lots
    for an opener, the case must name the seat (PROTOCOL.md 3.9), so a deal that leaves it to the rule is not."""
    if claimed is None:
        return True
    op = claimed["opener"]
    if pos.setup.get("opener") is None and op["first_round"] == "lottery":
        return False
    return not (any(d.get("opener") is None for d in pos.next_rounds)
                and "lottery" in (op["after_domino"], op["after_block"]))


def searched(name: str, a: Any, b: Any, ca: dict[str, Any], cb: dict[str, Any], tries: int,
              label: str) -> Position | None:
    """A position where `a` and `b` differ, from the search that finds deciding cases (unshrunk), or None."""
    from .deciding_search import search

    found = search(deciding.Pair(name, a, b), tries=tries, shrinking=False, configs=[(label, ca, cb)])
    if found is None:
        return None
    d = found.data
    steps = [{k: st[k] for k in STEP_KEYS if k in st} for st in d["steps"]]
    return Position(f"identify-{label}-search-{name}-{found.seed}", d["players"], d["setup"], d.get("next_rounds", []),
                    steps, f"a match the search played (seed {found.seed})")
