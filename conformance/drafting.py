"""Drafting cases from the built-in engine: a round's deal and a turn's expectations in case format.

Shared by `rulelang cases generate` (conformance/generate.py) and the authoring scripts in
conformance/authoring/. A drafted case is only a starting point: an independent engine or a person
checks it before it joins a suite.
"""
from __future__ import annotations

from typing import Any

from rulelang.interpreter import Match, Round, format_tile

EVENT_KEYS = ("side", "kind", "raw", "accepted", "score_after")


def deal_of(rnd: Round) -> dict[str, Any]:
    """The deal of a round as a case's `setup` (hands, boneyard in draw order, opener)."""
    return {"hands": [[format_tile(t) for t in h] for h in rnd.hands],
            "boneyard": [format_tile(t) for t in rnd.boneyard], "opener": rnd.opener}


def turn_expectation(turn: dict[str, Any]) -> dict[str, Any]:
    """What a complete-round step expects of a played turn (`Turn.to_dict()`): seat, draws, passes, count,
    points and events."""
    expect: dict[str, Any] = {"seat": turn["seat"], "count": turn["count"], "points": turn["points"]}
    for key in ("drawn", "passed"):
        if turn[key]:
            expect[key] = turn[key]
    if turn["events"]:
        expect["events"] = [{k: e[k] for k in EVENT_KEYS} for e in turn["events"]]
    return expect


def seat_to_move(match: Match) -> int:
    """The seat to move of a match that is not over."""
    seat = match.seat_to_move
    assert seat is not None
    return seat
