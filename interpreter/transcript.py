"""Replaying transcripts: rebuild the game from its recorded chance and moves, check every step."""
from __future__ import annotations

from typing import Any

from .config import Config
from .errors import IllegalMove, TranscriptMismatch
from .match import Match
from .round import Round
from .series import Series
from .tiles import Move, format_tile


def first_difference(expected: object, got: object, path: str = "") -> tuple[str, object, object] | None:
    """The first JSON path where two JSON-like values differ, as (path, expected, got), or None.

    Keys starting with "x-" (annotations a tool may add to a transcript) are not compared."""
    if isinstance(expected, dict) and isinstance(got, dict):
        for k in expected:
            if isinstance(k, str) and k.startswith("x-"):
                continue
            if k not in got:
                return (f"{path}/{k}", expected[k], None)
            d = first_difference(expected[k], got[k], f"{path}/{k}")
            if d:
                return d
        for k in got:
            if k not in expected and not (isinstance(k, str) and k.startswith("x-")):
                return (f"{path}/{k}", None, got[k])
        return None
    if isinstance(expected, (list, tuple)) and isinstance(got, (list, tuple)):
        for i, (e, g) in enumerate(zip(expected, got)):
            d = first_difference(e, g, f"{path}/{i}")
            if d:
                return d
        if len(expected) != len(got):
            i = min(len(expected), len(got))
            return (f"{path}/{i}", expected[i] if i < len(expected) else None,
                    got[i] if i < len(got) else None)
        return None
    if type(expected) is bool or type(got) is bool:
        return None if expected is got else (path, expected, got)
    return None if expected == got else (path, expected, got)


def _check(step: int, expected: object, got: object, path: str) -> None:
    d = first_difference(expected, got, path)
    if d:
        raise TranscriptMismatch(step, d[0], d[1], d[2])


def _pre_turn(rnd: Round) -> dict[str, object]:
    """The part of a turn known before its move is played."""
    return {
        "seat": rnd.seat_to_move,
        "passed": rnd.passed_before_move,
        "pass_drawn": [[format_tile(t) for t in d] for d in rnd.pass_drawn_before_move],
        "drawn": [format_tile(t) for t in rnd.drawn_before_move],
        "offered": [str(m) for m in rnd.legal_moves()],
    }


def _replay_turns(rnd: Round, turns: list[Any], step: int, base: str) -> int:
    """Play recorded turns on `rnd`, comparing each; return the next step number."""
    for i, t in enumerate(turns):
        path = f"{base}/turns/{i}"
        if rnd.over:
            raise TranscriptMismatch(step, path, t, None)
        if not isinstance(t, dict):
            raise TranscriptMismatch(step, path, t, "a turn object")
        pre = _pre_turn(rnd)
        _check(step, {k: t.get(k) for k in pre}, pre, path)
        try:
            move = Move.parse(t.get("move"))
            turn = rnd.play(move)
        except (ValueError, IllegalMove) as e:
            code = getattr(e, "code", "bad-move")
            raise TranscriptMismatch(step, f"{path}/move", t.get("move"), f"illegal ({code}): {e}") from None
        call = t.get("call")
        if call is not None:  # the muggins rule: the opponent's call on this placement
            try:
                rnd.call(call.get("seat") if isinstance(call, dict) else call)
            except (ValueError, IllegalMove) as e:
                code = getattr(e, "code", "bad-call")
                raise TranscriptMismatch(step, f"{path}/call", call, f"illegal ({code}): {e}") from None
        _check(step, t, turn.to_dict(), path)
        step += 1
    return step


def _round_from_deal(cfg: Config, deal: dict[str, Any]) -> Round:
    return Round(cfg, deal["players"], deal["hands"], deal["boneyard"], deal["opener"],
                 deal.get("scores"), record=True, opening=deal.get("opening"),
                 tiebreak=deal.get("tiebreak", False), round_no=deal.get("round", 0),
                 first=deal.get("first_opener"))


def replay(transcript: dict[str, Any]) -> Match | Round | Series:
    """Reproduce a transcript (of a Match, a Round or a series of games); TranscriptMismatch at the first
    difference."""
    if not isinstance(transcript, dict) or "config" not in transcript:
        raise TranscriptMismatch(0, "", "a transcript object with a config", transcript)
    cfg = Config.from_dict(transcript["config"])
    if "games" in transcript:  # "the match is the best of N games": each game a match (interpreter/series.py)
        return _replay_series(cfg, transcript)
    if "rounds" in transcript:
        return _replay_match(cfg, transcript)
    deal = _need(transcript, "deal", 0, "")
    try:
        rnd = _round_from_deal(cfg, deal)
    except (ValueError, KeyError, TypeError) as e:
        raise TranscriptMismatch(0, "/deal", deal, f"invalid deal: {e}") from None
    _check(0, deal, rnd.deal_dict(), "/deal")
    step = _replay_turns(rnd, transcript.get("turns", []), 0, "")
    if transcript.get("result") is None and not rnd.over:
        return rnd  # a round still in progress
    if not rnd.over:
        raise TranscriptMismatch(step, f"/turns/{len(transcript.get('turns', []))}", None,
                                 [str(m) for m in rnd.legal_moves()])
    assert rnd.result is not None  # set whenever the round is over
    _check(step, transcript.get("result"), rnd.result.to_dict(), "/result")
    return rnd


def _need(obj: Any, key: str, step: int, path: str) -> Any:
    """obj[key], or a TranscriptMismatch naming what is missing."""
    if not isinstance(obj, dict) or key not in obj:
        raise TranscriptMismatch(step, f"{path}/{key}", None, f"a transcript needs {key!r} here")
    return obj[key]


def _replay_match(cfg: Config, t: dict[str, Any]) -> Match:
    rounds = _need(t, "rounds", 0, "")
    deals = [_need(r, "deal", 0, f"/rounds/{i}") for i, r in enumerate(rounds)]
    try:
        m = Match(cfg, _need(t, "players", 0, ""), t.get("seed"), record=True, deal=deals,
                  trust_openers=False)
    except (ValueError, KeyError, TypeError) as e:
        raise TranscriptMismatch(0, "/rounds/0/deal", deals[0] if deals else None, f"invalid deal: {e}") from None
    step = 0
    for i, r in enumerate(rounds):
        base = f"/rounds/{i}"
        if m.over:
            raise TranscriptMismatch(step, base, r, None)
        _check(step, r["deal"], m.round.deal_dict(), f"{base}/deal")
        rnd = m.round
        turns = r.get("turns", [])
        step = _replay_turns(rnd, turns, step, base)
        if r.get("result") is None and not rnd.over and i == len(rounds) - 1:
            # a match still in progress
            _check(step, t.get("result"), m.transcript()["result"], "/result")
            return m
        if not rnd.over:
            raise TranscriptMismatch(step, f"{base}/turns/{len(turns)}", None,
                                     [str(mv) for mv in rnd.legal_moves()])
        assert rnd.result is not None  # set whenever the round is over
        _check(step, r.get("result"), rnd.result.to_dict(), f"{base}/result")
        try:
            m.finish_round()  # starts the next round from the next recorded deal
        except (ValueError, KeyError, TypeError) as e:
            raise TranscriptMismatch(step, f"/rounds/{i + 1}/deal", deals[i + 1] if i + 1 < len(deals) else None,
                                     f"invalid deal: {e}") from None
    if not m.over:
        raise TranscriptMismatch(step, f"/rounds/{len(rounds)}", None, "the match goes on")
    _check(step, t.get("result"), m.transcript()["result"], "/result")
    return m


def _replay_series(cfg: Config, t: dict[str, Any]) -> Series:
    """Reproduce a series' transcript (`games`); TranscriptMismatch at the first difference."""
    games = _need(t, "games", 0, "")
    if not isinstance(games, list) or not games:
        raise TranscriptMismatch(0, "/games", games, "a list of games")
    deals = [[_need(r, "deal", 0, f"/games/{k}/rounds/{i}") for i, r in enumerate(_need(g, "rounds", 0, f"/games/{k}"))]
             for k, g in enumerate(games)]
    try:
        s = Series(cfg, _need(t, "players", 0, ""), t.get("seed"), record=True, deals=deals, trust_openers=False)
    except (ValueError, KeyError, TypeError) as e:
        raise TranscriptMismatch(0, "/games/0/rounds/0/deal", deals[0][0] if deals[0] else None,
                                 f"invalid deal: {e}") from None
    step = 0
    for k, g in enumerate(games):
        gbase = f"/games/{k}"
        if s.over or len(s.games) != k:
            raise TranscriptMismatch(step, gbase, g, None)
        _check(step, g.get("opener"), s.opener_record(k), f"{gbase}/opener")
        rounds = g["rounds"]
        for i, r in enumerate(rounds):
            base = f"{gbase}/rounds/{i}"
            if s.game.over:
                raise TranscriptMismatch(step, base, r, None)
            _check(step, r["deal"], s.round.deal_dict(), f"{base}/deal")
            rnd = s.round
            turns = r.get("turns", [])
            step = _replay_turns(rnd, turns, step, base)
            if r.get("result") is None and not rnd.over and k == len(games) - 1 and i == len(rounds) - 1:
                _check(step, t.get("result"), s.transcript()["result"], "/result")  # a series still in progress
                return s
            if not rnd.over:
                raise TranscriptMismatch(step, f"{base}/turns/{len(turns)}", None, [str(m) for m in rnd.legal_moves()])
            assert rnd.result is not None  # set whenever the round is over
            _check(step, r.get("result"), rnd.result.to_dict(), f"{base}/result")
            game = s.game
            try:
                s.finish_round()  # the next round of the game, or the next game, from the next recorded deal
            except (ValueError, KeyError, TypeError) as e:
                raise TranscriptMismatch(step, f"{base}/deal", r["deal"], f"invalid deal: {e}") from None
            if game.over:
                if i != len(rounds) - 1:
                    raise TranscriptMismatch(step, f"{gbase}/rounds/{i + 1}", rounds[i + 1], None)
                _check(step, g.get("result"), game.transcript()["result"], f"{gbase}/result")
        if len(s.games) != k + 1:
            raise TranscriptMismatch(step, f"{gbase}/rounds/{len(rounds)}", None, "the game goes on")
    if not s.over:
        raise TranscriptMismatch(step, f"/games/{len(games)}", None, "the match goes on")
    _check(step, t.get("result"), s.transcript()["result"], "/result")
    return s
