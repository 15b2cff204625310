"""The muggins rule (family.md 2.3): claims with placements, and the opponent's call.

`claims` (docs/config.md) is "none" (the default: this module is not used),
"muggins", "any-opponent", "lost-if-called" or "forfeit". With the rule on, a
placement's points are credited only as far as its player claims them with
the move:

1. The claim is said in **shown points** (what a player pegs at the table; with
   unit 5 a count of 10 is claimed as 2), so every amount stays a multiple of
   the unit. A move without a claim claims 0.
2. A claim of at most the score is credited (an ordinary `placement` event, with
   the target, overshoot and entry rules); the rest of the score is *missed*.
   A claim above the score earns its player nothing.
3. "muggins": after the placement, the first opponent clockwise from the placer
   (the *caller*) may call, before the next placement: his side takes the missed
   points, or after an over-claim the whole claim as a penalty (Foster: "his
   adversary marks it"), as one `call` event of his side at the time of the call.
   A penalty needs the call, as missed points do.
   "any-opponent": as "muggins", but every seat on another side than the placer
   may call; when several would, the first in turn order after the placer takes
   it (the caller of the window, `call()` without a seat, and the bots asked in
   that order); the first call closes the window.
   "lost-if-called": any opponent may call, as under "any-opponent", but a call
   takes nothing for the caller: the missed points (after an over-claim, the
   whole score) are lost. Without a call they stay with the placer: when the
   chance closes (the next placement, before it scores; the round's end,
   before the settlement) its side gets them as a `placement` event of the
   placer (with the round's last placement when it dominoes).
   "forfeit": missed points are lost and nobody calls.
4. The chance to call closes at the next placement, after a call, and when the
   round ends (a domino, a block, or the match won mid-round): a call never
   comes after the round's last placement, so it never meets the settlement.

What was claimed, and who may call on it, is round state: the round keeps one
`Claims` (`claims_of`: None with the rule off), copied by `Round.clone`, and asks it
at the moments of a turn: `checked` (a move's claim, in `play`), `credit` (a
placement's points as claimed, before any house rule: the chance to call opens),
`close` (the chance closes at the next placement or the round's end: what the placer
keeps without a call), `take` (a call), `to_call` (who may call now, for `run`'s
bots, which claim with `bot_claim`), `stated` and `observe` (what players see).
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from .config import Config
from .errors import IllegalMove
from .tiles import Move

__all__ = ["ANY_OPPONENT", "CLAIM_ALL", "Claims", "bot_claim", "claims_of", "set_miss_rate"]

CLAIM_ALL = -1  # the claim of a player who claims exactly its score (bots, search, `play_code`)
ANY_OPPONENT = ("any-opponent", "lost-if-called")  # the modes in which every opponent may call


def claims_of(cfg: Config, sides: Sequence[int]) -> Claims | None:
    """A new round's claims under `cfg` (`claims`, docs/config.md), or None when points are not claimed."""
    return None if cfg.claims == "none" else Claims(cfg.claims, cfg.unit, sides)


class Claims:
    """The rule's settings for one round, and its open window (or None)."""

    __slots__ = ("mode", "unit", "callers", "window", "last_claim", "may_call")

    def __init__(self, mode: str, unit: int, sides: Sequence[int], callers: tuple[int, ...] | None = None,
                 may_call: tuple[tuple[int, ...], ...] | None = None):
        self.mode = mode  # "muggins" / "any-opponent" / "lost-if-called" / "forfeit"
        self.unit = unit
        n = len(sides)
        # each placer's opponents in turn order after it (given: a copy's); the first is its caller
        if may_call is None:
            may_call = tuple(tuple(s % n for s in range(p + 1, p + n) if sides[s % n] != sides[p]) for p in range(n))
        # the seats that may call on each placer: its caller, or under "any-opponent" every opponent
        self.may_call = may_call if mode in ANY_OPPONENT else tuple(m[:1] for m in may_call)
        self.callers = callers if callers is not None else tuple(m[0] for m in may_call)
        # [placer, caller, raw amount a call takes (under "lost-if-called": the missed points a call forfeits,
        # which the placer keeps without one; 0: nothing), "missed" / "penalty"]
        self.window: list[Any] | None = None
        self.last_claim = 0  # the claim (shown) of the last placement, as stated

    def copy(self) -> Claims:
        o = Claims(self.mode, self.unit, (), self.callers, self.may_call)
        o.last_claim = self.last_claim
        o.window = None if self.window is None else list(self.window)
        return o

    def checked(self, claim: object) -> int | None:
        """A claim given with `play`, or IllegalMove `negative-claim` (None: no claim, which claims 0)."""
        if claim is None:
            return None
        if type(claim) is not int or claim < 0:
            raise IllegalMove("negative-claim", f"a claim is a whole number of points, 0 or more, not {claim!r}")
        return claim

    def credit(self, seat: int, pts: int, claim: int | None) -> int:
        """The raw points the placement credits its side, given its claim (shown); opens the window."""
        if claim is None:
            claim = 0  # "if the claim is missing": nothing is credited
        elif claim == CLAIM_ALL:
            claim = pts // self.unit  # claims exactly (scores are multiples of the unit: unit-mismatch check)
        self.last_claim = claim
        said = claim * self.unit
        if said <= pts:
            credited, amount, why = said, pts - said, "missed"
        elif self.mode == "lost-if-called":
            credited, amount, why = 0, pts, "missed"  # the score stays with the placer unless an opponent calls
        else:
            credited, amount, why = 0, said, "penalty"  # an over-claim earns nothing (Foster)
        if self.mode == "forfeit":
            amount = 0  # "missed points are lost"
        self.window = [seat, self.callers[seat], amount, why]
        return credited

    def take(self, seat: int | None, over: bool) -> tuple[int, int, str]:
        """A call by `seat` (None: the caller): (caller, raw amount, "missed"/"penalty"); closes the window.

        IllegalMove, in this order: no-calls, late-call, not-caller, nothing-to-take (claims-off: the round)."""
        if self.mode == "forfeit":
            raise IllegalMove("no-calls", "missed points are lost in this game: nobody calls")
        w = self.window
        if over or w is None:
            raise IllegalMove("late-call", "there is no placement to call on: the round ended, no tile is placed "
                              "yet, or the last placement was called already")
        placer, caller, amount, why = w
        if seat is None:
            seat = caller
        if seat not in self.may_call[placer]:
            if self.mode in ANY_OPPONENT:
                raise IllegalMove("not-caller", f"only an opponent of seat {placer} may call on its placement")
            raise IllegalMove("not-caller", f"only seat {caller}, the first opponent after seat {placer}, may call")
        if not amount:
            raise IllegalMove("nothing-to-take", f"seat {placer} claimed its points exactly: there is nothing to take")
        self.window = None
        if self.mode == "lost-if-called":
            return seat, 0, why  # the points are forfeited: the caller takes nothing
        return seat, amount, why

    def close(self) -> tuple[int, int] | None:
        """The chance to call closes without a call (the next placement, or the round's end): (placer, raw points
        it keeps) when missed points were lost only if called ("lost-if-called"), else None."""
        w = self.window
        self.window = None
        if w is None or self.mode != "lost-if-called" or w[2] <= 0:
            return None
        return w[0], w[2]

    def stated(self, move: Move) -> Move:
        """The move as its player stated it, with the claim."""
        return replace(move, claim=self.last_claim)

    def observe(self, over: bool, seat: int) -> dict[str, Any]:
        """What the observation adds: the rule, and the open window (its amount only for a seat that may call;
        under "any-opponent" also `callers`, every seat that may, in turn order)."""
        w = self.window if not over else None
        out: dict[str, Any] = {"claims": self.mode, "call": None}
        if w is not None and self.mode != "forfeit":
            may = self.may_call[w[0]]
            out["call"] = {"placer": w[0], "caller": w[1], "amount": w[2] if seat in may else None}
            if self.mode in ANY_OPPONENT:
                out["call"]["callers"] = list(may)
        return out

    def to_call(self) -> tuple[int, ...]:
        """The seats that may call now and take something, in turn order after the placer (none when the chance
        is closed or there is nothing to take)."""
        w = self.window
        return () if w is None or not w[2] or self.mode == "forfeit" else self.may_call[w[0]]


def set_miss_rate(bot: Any, rate: float, seed: Any = None) -> Any:
    """Make `bot` miss its points: each scoring placement is claimed 0 with probability `rate`.

    The misses come from their own generator, so the bot's choice of moves is unchanged."""
    if not 0 <= rate <= 1:
        raise ValueError(f"a miss rate is between 0 and 1, not {rate}")
    bot.miss_rate = rate
    bot.miss_rng = random.Random(seed)
    return bot


def bot_claim(bot: Any, pts: int, unit: int) -> int:
    """What a bot claims: its whole score, unless it misses (set_miss_rate)."""
    rate = getattr(bot, "miss_rate", 0)
    if pts and rate and bot.miss_rng.random() < rate:
        return 0
    return pts // unit

