"""All comparison happens here: a case's expectations against an engine's observations.

Only the keys a step's `expect` gives are compared. Connections and spinners are
compared as sets (sorted on both sides); events compare only the keys the
expected event gives. The answer is the first difference: the step, the JSON
path, what the case expects and what the engine reported.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .hidden import dealt_top, named_tiles, tables

MISSING = "<missing>"
ORDER = ["seat", "drawn", "passed", "pass_drawn", "offered", "layout", "attach_points", "counted", "count",
         "points", "shown", "events", "scores", "shown_scores", "round", "match"]


@dataclass
class Difference:
    step: int  # index into the case's steps
    path: str  # JSON path, e.g. $.steps[3].attach_points[2]
    expected: Any
    got: Any

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step, "path": self.path, "expected": self.expected, "got": self.got}


def _first(path: str, exp: Any, got: Any) -> tuple[str, Any, Any] | None:
    """The first place where `got` differs from `exp` (dicts: only the expected keys)."""
    if isinstance(exp, dict):
        if not isinstance(got, dict):
            return path, exp, got
        for k, v in exp.items():
            d = _first(f"{path}.{k}", v, got.get(k, MISSING))
            if d:
                return d
        return None
    if isinstance(exp, list):
        if not isinstance(got, list):
            return path, exp, got
        for i, (e, g) in enumerate(zip(exp, got, strict=False)):
            d = _first(f"{path}[{i}]", e, g)
            if d:
                return d
        if len(exp) != len(got):
            i = min(len(exp), len(got))
            return (f"{path}[{i}]", exp[i] if i < len(exp) else MISSING,
                    got[i] if i < len(got) else MISSING)
        return None
    if isinstance(exp, bool) or isinstance(got, bool):
        return None if (type(exp) is type(got) and exp == got) else (path, exp, got)
    if exp == got and (exp is None) == (got is None):
        return None
    return path, exp, got


def _canonical(key: str, exp: Any, got: Any) -> tuple[Any, Any]:
    if key == "layout" and isinstance(got, dict):
        got = dict(got)
        exp = dict(exp)
        for k in ("connections", "spinners"):
            if k in exp and isinstance(got.get(k), list):
                exp[k] = sorted(exp[k], key=str)
                got[k] = sorted(got[k], key=str)
    return exp, got


def compare_step(i: int, step: dict[str, Any], obs: Any, table: frozenset[str] = frozenset(),
                 top: int = 12) -> Difference | None:
    """Step I's first difference; an `observe` step's view is also checked for hidden tiles, TABLE being the
    tiles on the table by the case's moves (`hidden.tables`), TOP the set's top half."""
    base = f"$.steps[{i}]"
    if not isinstance(obs, dict):
        return Difference(i, base, "an observation object", obs)
    want = step.get("reject")
    got = obs.get("reject", MISSING)
    if want != got:
        return Difference(i, f"{base}.reject", want, got)
    expect = step.get("expect") or {}
    for key in sorted(expect, key=lambda k: ORDER.index(k) if k in ORDER else len(ORDER)):
        exp, g = _canonical(key, expect[key], obs.get(key, MISSING))
        d = _first(f"{base}.{key}", exp, g)
        if d:
            return Difference(i, *d)
    if "observe" in step and want is None:
        return leak(i, expect, obs, table, top)
    return None


def leak(i: int, expect: dict[str, Any], obs: dict[str, Any], table: frozenset[str] = frozenset(),
         top: int = 12) -> Difference | None:
    """A seat's view names no tile but its own hand's and the layout's (PROTOCOL.md 2.1): the first other tile
    found anywhere in it, in any notation (`hidden.named_tiles`), is a hidden tile shown (another hand's, the
    boneyard's, or out of play). What the seat may know comes from the case, not from the answer: the hand
    the case states (the lint requires it) and the table of the case's moves; a view whose layout names a
    tile that is not on that table leaks it there too."""
    hand = expect.get("hand", obs.get("hand"))  # (the answer's hand only for a case that states none)
    known = set(table) | set(hand if isinstance(hand, list) else [])
    for path, tile in named_tiles(obs, f"$.steps[{i}]", top):
        if tile not in known:
            return Difference(i, path, "no tile outside the seat's hand and the layout", tile)
    return None


def compare(case: dict[str, Any], result: Any) -> Difference | None:
    """The first difference between a case and an engine's result, or None when it passes."""
    steps = case["steps"]
    if not isinstance(result, dict) or not isinstance(result.get("steps"), list):
        return Difference(0, "$.steps", f"a list of {len(steps)} observations", result)
    got = result["steps"]
    observed = any("observe" in s for s in steps)
    table = tables(case) if observed else [frozenset()] * len(steps)
    top = dealt_top(case) if observed else 12
    for i, step in enumerate(steps):
        if i >= len(got):
            return Difference(i, f"$.steps[{i}]", "an observation", MISSING)
        d = compare_step(i, step, got[i], table[i], top)
        if d:
            return d
    if len(got) != len(steps):
        return Difference(len(steps), f"$.steps[{len(steps)}]", MISSING, got[len(steps)])
    return None
