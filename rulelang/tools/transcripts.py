"""Loading, checking and stepping through saved game transcripts.

A finished match is checked by the engine's own ``replay``; a transcript of a
game stopped early (``result.over`` false) is checked turn by turn here, with
the same comparison. ``step_transcript`` then rebuilds each round from its
recorded deal and yields the live round after every turn, for printing and
rendering.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rulelang.tools.configs import ToolError
from rulelang.tools.engine import get


class TranscriptError(ToolError):
    """A transcript that cannot be read or contradicts the rules (exit 1)."""


def load_transcript(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        raise TranscriptError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise TranscriptError(f"{path} is a directory, not a transcript") from None
    except (OSError, ValueError) as exc:
        raise TranscriptError(f"cannot read transcript {path}: {exc}") from None
    if not isinstance(data, dict) or "config" not in data or not ("rounds" in data or "deal" in data):
        raise TranscriptError(f"{path} is not a rulelang transcript (no config, rounds or deal)")
    return data


def rounds_of(t: dict) -> list[dict]:
    if "rounds" in t:
        return list(t["rounds"])
    return [{"deal": t["deal"], "turns": t.get("turns", []), "result": t.get("result")}]


def is_finished(t: dict) -> bool:
    if "rounds" in t:
        return bool((t.get("result") or {}).get("over"))
    return t.get("result") is not None


@dataclass
class Step:
    """The state after one recorded turn."""

    number: int  # 1-based turn number over the whole transcript
    round_index: int  # 0-based
    turn_index: int  # 0-based within the round
    record: dict  # the recorded turn
    turn: Any  # the engine's Turn
    round: Any  # the live Round (state after the turn)


def _mismatch_text(exc) -> str:
    return (f"transcript contradicts the rules at step {exc.step} "
            f"(turn {exc.step + 1} as `rulelang replay` numbers them; {exc.path}): "
            f"the transcript has {exc.expected!r}, the rules give {exc.got!r}")


def check_transcript(t: dict):
    """Validate a transcript; TranscriptError naming the step if it contradicts the rules."""
    TranscriptMismatch = get("TranscriptMismatch")
    ConfigError = get("ConfigError")
    try:
        if is_finished(t):
            return get("replay")(t)
        for _ in step_transcript(t, check=True):
            pass
        return None
    except TranscriptMismatch as exc:
        raise TranscriptError(_mismatch_text(exc)) from None
    except ConfigError as exc:
        raise TranscriptError(f"the transcript's configuration is invalid: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise TranscriptError(f"malformed transcript: {exc!r}") from None


def new_round(cfg, deal: dict):
    Round = get("Round")
    return Round(cfg, deal["players"], deal["hands"], deal["boneyard"], deal["opener"],
                 deal.get("scores"), record=True, opening=deal.get("opening"),
                 tiebreak=deal.get("tiebreak", False))


def step_transcript(t: dict, check: bool = False) -> Iterator[Step]:
    """Yield the state after every recorded turn (rounds rebuilt from their deals)."""
    Config = get("Config")
    Move = get("Move")
    IllegalMove = get("IllegalMove")
    TranscriptMismatch = get("TranscriptMismatch")
    from interpreter.transcript import first_difference

    cfg = Config.from_dict(t["config"])
    number = 0
    for ri, r in enumerate(rounds_of(t)):
        base = f"/rounds/{ri}" if "rounds" in t else ""
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
            if not rnd.over:
                raise TranscriptMismatch(number, f"{base}/result", r.get("result"), "the round goes on")
            d = first_difference(r["result"], rnd.result.to_dict(), f"{base}/result")
            if d:
                raise TranscriptMismatch(number, d[0], d[1], d[2])


def round_at(t: dict, turn: int | None):
    """The live round after ``turn`` turns (None: the last), and its Step (None before any turn)."""
    if turn is not None and turn < 0:
        raise TranscriptError("--turn must be 0 or more")
    last = None
    if turn == 0:
        r0 = rounds_of(t)[0]
        return new_round(get("Config").from_dict(t["config"]), r0["deal"]), None
    for st in step_transcript(t):
        last = st
        if turn is not None and st.number == turn:
            return st.round, st
    if last is None:
        return new_round(get("Config").from_dict(t["config"]), rounds_of(t)[0]["deal"]), None
    if turn is not None:
        raise TranscriptError(f"--turn {turn}: the transcript has only {last.number} turns")
    return last.round, last
