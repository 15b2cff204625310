"""Loading, checking and stepping through saved game transcripts.

A transcript, of a finished match or of a game stopped early (``result.over``
false), is checked by the engine's own ``replay``: every turn, every round's
deal (openers, carried scores) and the result. ``step_transcript`` then rebuilds each round from its
recorded deal and yields the live round after every turn, for printing and
rendering.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import cast

from rulelang.base.readinput import InputError, read_json
from rulelang.interpreter import (
    Config,
    ConfigError,
    IllegalMove,
    Match,
    Move,
    Round,
    TranscriptMismatch,
    Turn,
    first_difference,
    replay,
)
from rulelang.interpreter.series import Series
from rulelang.tools.configs import ToolError
from rulelang.tools.documents import Deal, RoundRecord, Transcript, TurnRecord


class TranscriptError(ToolError):
    """A transcript that cannot be read or contradicts the rules (exit 1)."""


def load_transcript(path: str) -> Transcript:
    try:
        data = read_json(path)  # a regular file, bounded in size and nesting
    except FileNotFoundError:
        raise TranscriptError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise TranscriptError(f"{path} is a directory, not a transcript") from None
    except json.JSONDecodeError as exc:
        raise TranscriptError(f"{path} is not a rulelang transcript: it is not JSON "
                              f"(line {exc.lineno}, column {exc.colno})") from None
    except (InputError, ValueError) as exc:  # not a regular file, too large, not UTF-8 text, nested too deep
        raise TranscriptError(f"{path} is not a rulelang transcript: {exc}") from None
    except OSError as exc:
        raise TranscriptError(f"cannot read transcript {path}: {exc}") from None
    if not isinstance(data, dict) or "config" not in data or not ("rounds" in data or "games" in data
                                                                   or "deal" in data):
        raise TranscriptError(f"{path} is not a rulelang transcript (no config, rounds, games or deal)")
    problem = _shape_problem(data)
    if problem:
        raise TranscriptError(f"{path} is not a valid rulelang transcript: {problem}")
    return cast(Transcript, data)  # its shape checked above; its content, by the engine's replay


def transcript_of(game: Match | Round | Series) -> Transcript:
    """The engine's transcript of a game (record=True), typed."""
    return cast(Transcript, game.transcript())


def deal_of(rnd: Round) -> Deal:
    """The engine's record of a round's deal, typed."""
    return cast(Deal, rnd.deal_dict())


def _shape_problem(t: dict[str, object]) -> str | None:
    """Where the transcript's structure is wrong (a JSON path and what is expected), or None."""
    if not isinstance(t["config"], dict):
        return "/config must be an object (a compiled configuration)"
    if "games" in t:  # a series of games: each game's rounds, in order
        games = t["games"]
        if not isinstance(games, list) or not games:
            return "/games must be a list of games (a series' transcript)"
        rounds = []
        for k, g in enumerate(games):
            if not isinstance(g, dict) or not isinstance(g.get("rounds"), list) or not g["rounds"]:
                return f"/games/{k} must be an object with its rounds (a game)"
            rounds += [(f"/games/{k}/rounds/{i}", r) for i, r in enumerate(g["rounds"])]
        if t.get("result") is not None and not isinstance(t["result"], dict):
            return "/result must be an object"
    elif "rounds" in t:
        if not isinstance(t["rounds"], list):
            return "/rounds must be a list of rounds"
        rounds = [(f"/rounds/{i}", r) for i, r in enumerate(t["rounds"])]
        if not rounds:
            return "/rounds holds no round"
        if t.get("result") is not None and not isinstance(t["result"], dict):
            return "/result must be an object"
    else:
        rounds = [("", {"deal": t["deal"], "turns": t.get("turns", []), "result": t.get("result")})]
    for where, r in rounds:
        if not isinstance(r, dict):
            return f"{where or '/'} must be an object (a round)"
        if not isinstance(r.get("deal"), dict):
            return f"{where}/deal must be an object (the round's deal)"
        turns = r.get("turns", [])
        if not isinstance(turns, list):
            return f"{where}/turns must be a list of turns"
        for k, turn in enumerate(turns):
            if not isinstance(turn, dict):
                return f"{where}/turns/{k} must be an object (a turn)"
        if r.get("result") is not None and not isinstance(r["result"], dict):
            return f"{where}/result must be an object"
    return None


def rounds_of(t: Transcript) -> list[RoundRecord]:
    """Every round of a transcript in order (a series' games one after the other)."""
    if "games" in t:
        return [r for g in t["games"] for r in g["rounds"]]
    if "rounds" in t:
        return list(t["rounds"])
    return [{"deal": t["deal"], "turns": t.get("turns", []), "result": t.get("result")}]


@dataclass(frozen=True)
class Place:
    """Where a round of `rounds_of` lies: its game (None outside a series), its index there, its JSON path."""

    game: int | None
    index: int
    path: str


def places_of(t: Transcript) -> list[Place]:
    """The place of each round of `rounds_of(t)`, in the same order."""
    if "games" in t:
        return [Place(k, i, f"/games/{k}/rounds/{i}") for k, g in enumerate(t["games"]) for i in range(len(g["rounds"]))]
    if "rounds" in t:
        return [Place(None, i, f"/rounds/{i}") for i in range(len(t["rounds"]))]
    return [Place(None, 0, "")]


def is_finished(t: Transcript) -> bool:
    if "rounds" in t or "games" in t:
        return bool((t.get("result") or {}).get("over"))
    return t.get("result") is not None


@dataclass
class Step:
    """The state after one recorded turn."""

    number: int  # 1-based turn number over the whole transcript
    round_index: int  # 0-based
    turn_index: int  # 0-based within the round
    record: TurnRecord  # the recorded turn
    turn: Turn  # the engine's Turn
    round: Round  # the live Round (state after the turn)


def _mismatch_text(exc: TranscriptMismatch) -> str:
    return (f"transcript contradicts the rules at step {exc.step} "
            f"(turn {exc.step + 1} as `rulelang replay` numbers them; {exc.path}): "
            f"the transcript has {exc.expected!r}, the rules give {exc.got!r}")


def check_transcript(t: Transcript) -> Match | Round | Series:
    """Validate a transcript; TranscriptError naming the step if it contradicts the rules."""
    try:
        # the engine's replay checks a match stopped early too (its last round in progress):
        # every round's deal (openers, carried scores) and the match result, not only the turns
        return replay(dict(t))
    except TranscriptMismatch as exc:
        raise TranscriptError(_mismatch_text(exc)) from None
    except ConfigError as exc:
        raise TranscriptError(f"the transcript's configuration is invalid: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise TranscriptError(f"malformed transcript: {exc!r}") from None


def new_round(cfg: Config, deal: Deal) -> Round:
    """A round rebuilt from its recorded deal, as the engine's replay rebuilds it (the rotating double's round
    number included: without it every round would want the top double)."""
    return Round(cfg, deal["players"], deal["hands"], deal["boneyard"], deal["opener"],
                 deal.get("scores"), record=True, opening=deal.get("opening"),
                 tiebreak=deal.get("tiebreak", False), round_no=deal.get("round", 0),
                 first=deal.get("first_opener"))


def step_transcript(t: Transcript, check: bool = False) -> Iterator[Step]:
    """Yield the state after every recorded turn (rounds rebuilt from their deals)."""
    cfg = Config.from_dict(t["config"])
    number = 0
    for ri, (r, place) in enumerate(zip(rounds_of(t), places_of(t))):
        base = place.path
        try:
            rnd = new_round(cfg, r["deal"])
        except (KeyError, TypeError, ValueError) as exc:
            raise TranscriptMismatch(number, f"{base}/deal", r.get("deal"), f"invalid deal: {exc}") from None
        for ti, rec in enumerate(r.get("turns", [])):
            path = f"{base}/turns/{ti}"
            if rnd.over:
                raise TranscriptMismatch(number, path, rec, "the round is over")
            try:
                turn = rnd.play(Move.parse(rec.get("move")))
            except (ValueError, IllegalMove) as exc:
                code = getattr(exc, "code", "bad-move")
                raise TranscriptMismatch(number, f"{path}/move", rec.get("move"),
                                         f"illegal ({code}): {exc}") from None
            if check:
                d = first_difference(rec, turn.to_dict(), path)
                if d:
                    raise TranscriptMismatch(number, d[0], d[1], d[2])
            number += 1
            yield Step(number, ri, ti, rec, turn, rnd)
        if check and r.get("result") is not None:
            if not rnd.over or rnd.result is None:
                raise TranscriptMismatch(number, f"{base}/result", r.get("result"), "the round goes on")
            d = first_difference(r["result"], rnd.result.to_dict(), f"{base}/result")
            if d:
                raise TranscriptMismatch(number, d[0], d[1], d[2])


def round_at(t: Transcript, turn: int | None) -> tuple[Round, Step | None]:
    """The live round after ``turn`` turns (None: the last), and its Step (None before any turn)."""
    if turn is not None and turn < 0:
        raise TranscriptError("--turn must be 0 or more")
    last = None
    if turn == 0:
        r0 = rounds_of(t)[0]
        return new_round(Config.from_dict(t["config"]), r0["deal"]), None
    for st in step_transcript(t):
        last = st
        if turn is not None and st.number == turn:
            return st.round, st
    if last is None:
        if turn is not None:
            raise TranscriptError(f"--turn {turn}: the transcript has no turns (use --turn 0 or leave it out)")
        return new_round(Config.from_dict(t["config"]), rounds_of(t)[0]["deal"]), None
    if turn is not None:
        raise TranscriptError(f"--turn {turn}: the transcript has only {last.number} turns")
    return last.round, last
