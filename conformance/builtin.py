"""The built-in engine (`interpreter`) seen through the conformance protocol.

`run_case(request) -> result` plays one case and reports what it observes after
every step; it compares nothing (the runner does). The same function answers
`run` requests in-process and inside `rulelang engine-adapter`.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulelang._version import __version__
from rulelang.conformance.cases import known_tags
from rulelang.interpreter import Config, Event, IllegalMove, Match, Move, Round, Tile, Turn, as_config, shown_points

PROTOCOL_VERSION = 1


def capabilities() -> dict[str, Any]:
    """What the built-in engine supports: every feature tag, and `observe` steps (PROTOCOL.md 2.1)."""
    return {"features": sorted(known_tags()), "observe": True}


def implementation() -> dict[str, Any]:
    """Who answers, for the report."""
    return {"name": "rulelang", "version": __version__, "language": "python"}


def _tile(t: Tile) -> str:
    return f"[{t[0]}|{t[1]}]"


def _event(e: Event) -> dict[str, Any]:
    return {"side": e.side, "kind": e.kind, "raw": e.raw, "accepted": e.accepted,
            "score_after": e.score_after, "seat": e.seat}


def _observe(match: Match, rnd: Round, turn: Turn | None) -> dict[str, Any]:
    """Everything a case may assert after a step, from the round the step was played in."""
    obs: dict[str, Any] = {"reject": None}
    if turn is not None:
        obs.update({
            "seat": turn.seat,
            "drawn": [_tile(t) for t in turn.drawn],
            "passed": list(turn.passed),
            "pass_drawn": [[_tile(t) for t in d] for d in turn.pass_drawn],
            "offered": [str(m) for m in turn.offered],
            "points": turn.points,
            "shown": shown_points(turn.points, rnd.config.unit),
            "events": [_event(e) for e in turn.events],
        })
    lay = rnd.layout.to_dict()  # the engine's own serialisation, split as the protocol groups it
    obs.update({
        "layout": {key: lay[key] for key in ("tiles", "connections", "spinners")},
        "attach_points": lay["attach_points"],
        "counted": lay["counted"],
        "count": lay["count"],
        "scores": list(rnd.scores),
        "shown_scores": list(rnd.shown_scores),
    })
    res = rnd.result
    obs["round"] = None if res is None else {
        "kind": res.kind, "seat": res.seat, "side": res.side, "hand_pips": list(res.hand_pips)}
    obs["match"] = {"over": bool(match.over), "winner": match.winner}
    return obs


def _seat_view(match: Match, rnd: Round, seat: int) -> dict[str, Any]:
    """What `seat` sees now (PROTOCOL.md 2.1), from the engine's own per-seat observation (Round.observation):
    no other hand's tiles, no boneyard tiles; the points of its moves only where points are not claimed."""
    if type(seat) is not int or not 0 <= seat < rnd.players:
        raise ValueError(f"an observe step names a seat of the game (0 to {rnd.players - 1}), not {seat!r}")
    view = rnd.observation(seat)
    sides = rnd.sides
    table = _observe(match, rnd, None)
    call = view.get("call")
    return {
        "reject": None, "seat": seat, "hand": [_tile(t) for t in view["hand"]],
        "others": [{"seat": s, "partner": sides[s] == sides[seat], "tiles": view["hand_counts"][s]}
                   for s in ((seat + k) % rnd.players for k in range(1, rnd.players))],
        "boneyard": view["boneyard"],
        **{key: table[key] for key in ("layout", "attach_points", "counted", "count", "scores", "shown_scores")},
        "to_move": view["seat_to_move"],
        "moves": [str(m) for m in view["legal"]],
        "move_points": None if "claims" in view else list(view["points"]),  # claimed points are not previewed
        "may_call": bool(call and seat in call.get("callers", [call["caller"]]) and call["amount"]),  # any-opponent
    }


def _claimed(step: dict[str, Any]) -> Any:
    """The step's move, with its `claim` (the muggins rule) when the step has one."""
    if "claim" not in step:
        return step["play"]
    claim = step["claim"]
    if type(claim) is not int:
        raise ValueError(f"a claim is a whole number, not {claim!r}")
    return replace(Move.parse(step["play"]), claim=claim)


def _observe_call(match: Match, rnd: Round, seat: int, events: list[Event]) -> dict[str, Any]:
    """A call step's observation: the caller, its events, and the state after it (no placement keys)."""
    obs = _observe(match, rnd, None)
    obs["seat"] = seat
    obs["events"] = [_event(e) for e in events]
    return obs


def _past_last_deal(match: Match, dealt: int) -> bool:
    """True once the last dealt round has ended: the case deals no further round (PROTOCOL.md 3.10; a deal
    thrown in, `...: the tiles are dealt again`, uses up its entry too)."""
    return match.deal_index >= dealt


def run_case(request: dict[str, Any]) -> dict[str, Any]:
    """Play `request` (config, players, setup, next_rounds, steps); return {"steps": [observation...]}."""
    if not isinstance(request.get("config"), (dict, Config)):
        # a configuration is a JSON object (or a Config already validated: identify replays one position under
        # many configurations); a text or a number is never opened as a path or a descriptor
        raise ValueError("`config` must be a compiled configuration (a JSON object), "
                         f"not {type(request.get('config')).__name__}")
    cfg = as_config(request["config"])
    setup = dict(request["setup"])
    deals = [setup] + [dict(d) for d in request.get("next_rounds", [])]
    match = Match(cfg, request["players"], seed=0, record=True, deal=deals)
    out = []
    for step in request["steps"]:
        rnd = match.round
        turn = None
        try:
            if match.over or _past_last_deal(match, len(deals)):
                raise IllegalMove("round-over", "the match is over, or no round is dealt after the last one")
            if "play" in step:
                turn = match.play(_claimed(step))
            elif "call" in step:  # the muggins rule (feature `claims`)
                seat = step["call"]
                if type(seat) is not int:
                    raise ValueError(f"a call step names a seat (a number), not {seat!r}")
                events = match.call(seat)
                out.append(_observe_call(match, rnd, seat, events))
                continue
            elif "observe" in step:  # what a seat sees; nothing changes
                out.append(_seat_view(match, rnd, step["observe"]))
                continue
            elif "draw" in step:
                turn = rnd.draw()  # applied only where a player may draw while able to place
            else:
                rnd.pass_turn()
        except IllegalMove as exc:
            out.append({"reject": exc.code})
            continue
        out.append(_observe(match, rnd, turn))
    return {"steps": out}
