"""Scores: how one event changes a side's score, and whether the match ends (a `Scoreboard` per seating)."""
from __future__ import annotations

from collections.abc import Sequence

from .config import Config
from .hooks import HouseRule, event_offered


class Scoreboard:
    """The target rules of one configuration and player count, read once (`Seating.board`), with the house
    rules asked about each event (`HouseRule.accepts`)."""

    __slots__ = ("target", "exact", "overshoot", "floor", "every_event", "by_rounds", "extra_rounds", "to_opener",
                 "from_first", "accepts")

    def __init__(self, cfg: Config, players: int, accepts: tuple[HouseRule, ...]):
        # "target ... with 2 players, 150 with 3 or 4": the raw target of this player count
        self.target: int = cfg.target_by_count.get(players, cfg.target)
        self.exact = cfg.target_mode == "exact"
        self.overshoot: str = cfg.overshoot
        self.floor: int | None = cfg.score_floor
        # "the match lasts N rounds": no target check; the Match ends it after round N
        self.by_rounds = cfg.rounds is not None
        self.every_event = cfg.target_check == "every-event" and not self.by_rounds
        self.extra_rounds = cfg.ties == "extra-rounds"
        self.to_opener = cfg.ties in ("round-opener", "match-opener")
        self.from_first = cfg.ties == "match-opener"  # in turn from the match's first opener, not the round's
        self.accepts = accepts

    def apply(self, kind: str, side: int, seat: int | None, old: int, raw: int,
              layout: list[int]) -> tuple[int, bool, bool]:
        """A side's score after an event of `raw` points: (new score, accepted, the match ends now).

        `side`, `seat`: whom it scores for and concerns; `layout`: the move codes placed so far (what the
        house rules are told of the table)."""
        new = old + raw
        accepted = True
        if self.exact and new > self.target:
            if self.overshoot == "discard":
                # "overshoot discards the event": the event is discarded whole
                accepted = False
                new = old
            elif self.overshoot == "bounce":
                # "overshoot bounces back": the excess is counted back down from the target
                new = 2 * self.target - new
        floor = self.floor
        if floor is not None and new < floor:
            new = floor  # "scores never fall below N"
        reached = new == self.target if self.exact else new >= self.target
        if self.accepts:
            at = event_offered(kind, side, seat, old, raw, len(layout), accepted, reached)
            for rule in self.accepts:
                if not rule.accepts(at):
                    return old, False, False
        # "check the target after every event": the match ends at once
        return new, accepted, accepted and self.every_event and reached

    def after_settlement(self, scores: Sequence[int], tiebreak: bool,
                         turn_order: Sequence[int] = ()) -> tuple[bool, int | None, bool]:
        """The target checked after settlement: (match over, winning side or None, extra rounds needed).

        `turn_order`: the sides in turn from the round's opener, or from the match's first opener under "ties at
        the top: the side that started the match wins" (a tie goes to the first of them that is tied)."""
        if self.every_event:
            return False, None, False  # "check the target after every event": checked already
        if self.by_rounds:
            reached = False  # "the match lasts N rounds": decided after the last round only (tiebreak is set then)
        else:
            reached = (self.target in scores) if self.exact else max(scores) >= self.target
        if not (reached or tiebreak):
            return False, None, False
        top = max(scores)
        tops = [i for i, s in enumerate(scores) if s == top]
        if len(tops) == 1:
            return True, tops[0], False
        if self.extra_rounds:
            # "ties at the top: play extra rounds" until one side alone has the highest score
            return False, None, True
        if self.to_opener:
            # "ties at the top: the side that opened the round wins" / "...: the side that started the match wins"
            # (else the first tied side in turn after that opener)
            for side in turn_order:
                if side in tops:
                    return True, side, False
        # "ties at the top: draw" (or "impossible", which cannot arise): a drawn match
        return True, None, False
