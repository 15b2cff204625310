"""The round's records (events, turns, results): plain data, kept apart from the rules that make them."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .tiles import Move, Tile, format_tile, mask_pips, mask_tiles

# A scoring event as the round keeps it: (side, kind, raw, accepted, score_after, seat)
EventRow = tuple[int, str, int, bool, int, "int | None"]


def shown_points(raw: int, unit: int) -> int | float:
    """Raw points in shown units (an int when whole)."""
    return raw // unit if raw % unit == 0 else raw / unit


@dataclass(frozen=True)
class Event:
    """A scoring event: `raw` points for `side`, accepted or discarded by the overshoot rule."""

    side: int
    kind: str  # placement / domino / block
    raw: int
    accepted: bool
    score_after: int
    seat: int | None
    unit: int = 1

    @property
    def shown(self) -> int | float:
        """The event's points in shown units."""
        return shown_points(self.raw, self.unit)

    @property
    def shown_after(self) -> int | float:
        """The side's shown score after the event."""
        return shown_points(self.score_after, self.unit)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"side": self.side, "kind": self.kind, "raw": self.raw, "shown": self.shown,
                "accepted": self.accepted, "score_after": self.score_after,
                "shown_after": self.shown_after, "seat": self.seat}


@dataclass
class Turn:
    """One placement and what led to it (draws, passes) and followed from it (events)."""

    seat: int
    drawn: list[Tile]
    passed: list[int]
    offered: list[Move]
    move: Move
    counted: list[tuple[Tile, str, int]]
    count: int
    points: int
    events: list[Event]
    pass_drawn: list[list[Tile]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "seat": self.seat,
            "passed": list(self.passed),
            "pass_drawn": [[format_tile(t) for t in d] for d in self.pass_drawn],
            "drawn": [format_tile(t) for t in self.drawn],
            "offered": [str(m) for m in self.offered],
            "move": str(self.move),
            "counted": [[format_tile(t), e, v] for t, e, v in self.counted],
            "count": self.count,
            "points": self.points,
            "events": [e.to_dict() for e in self.events],
        }


class RoundResult:
    """How a round ended: `kind` domino / blocked (or `target`: the match ended mid-round)."""

    __slots__ = ("kind", "seat", "side", "match_over", "winner", "tiebreak", "scores", "drawn",
                 "unit", "_masks", "_settle")

    _settle: Sequence[EventRow]

    def __init__(self, kind: str, seat: int | None, side: int | None, match_over: bool, winner: int | None,
                 tiebreak: bool, masks: Sequence[int], settle: Sequence[EventRow], scores: list[int],
                 drawn: list[tuple[int, list[Tile]]], unit: int):
        self.kind = kind
        self.seat = seat  # who dominoed, or the block's winning seat, or None
        self.side = side  # the round's winning side, or None
        self.match_over = match_over
        self.winner = winner  # the match winner's side when match_over (None: drawn or not over)
        self.tiebreak = tiebreak  # the top score is shared at the target: extra rounds follow
        self._masks = masks
        self._settle = settle
        self.scores = scores
        self.drawn = drawn  # [(seat, tiles)] drawn after the last placement
        self.unit = unit

    @property
    def hand_pips(self) -> list[int]:
        """Pips left in each seat's hand."""
        return [mask_pips(h) for h in self._masks]

    @property
    def hands(self) -> list[list[Tile]]:
        """Tiles left in each seat's hand."""
        return [mask_tiles(h) for h in self._masks]

    @property
    def settlement(self) -> list[Event]:
        """The settlement's events."""
        return [Event(*e, unit=self.unit) for e in self._settle]

    @property
    def shown_scores(self) -> list[int | float]:
        """Scores in shown units."""
        return [shown_points(s, self.unit) for s in self.scores]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "kind": self.kind, "seat": self.seat, "side": self.side,
            "hand_pips": self.hand_pips,
            "hands": [[format_tile(t) for t in h] for h in self.hands],
            "drawn": [[s, [format_tile(t) for t in d]] for s, d in self.drawn],
            "settlement": [e.to_dict() for e in self.settlement],
            "scores": list(self.scores), "shown_scores": self.shown_scores,
            "match_over": self.match_over, "winner": self.winner, "tiebreak": self.tiebreak,
        }

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RoundResult) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return (f"RoundResult(kind={self.kind!r}, seat={self.seat}, side={self.side}, "
                f"hand_pips={self.hand_pips}, match_over={self.match_over}, winner={self.winner})")
