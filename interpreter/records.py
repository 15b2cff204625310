"""The round's records (events, turns, results): plain data, kept apart from the rules that make them."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .layout import counted_ends, placement_codes
from .rules import Rules
from .tiles import TILES, Move, Tile, format_tile, in_tile_order, mask_pips, mask_tiles, move_from_code

# A scoring event as the round keeps it: (side, kind, raw, accepted, score_after, seat)
EventRow = tuple[int, str, int, bool, int, "int | None"]
# the moves offered before a placement: their codes, or the free sides and the tiles that could go there
Offered = list[int] | tuple[dict[int, int], int, tuple[int, ...]]  # larger sets: with the set's masks
# draws and passes before a placement: (drawn tile indices, passed seats, per passed seat its drawn tile indices)
Pending = Sequence[Any]


def shown_points(raw: int, unit: int) -> int | float:
    """Raw points in shown units (an int when whole)."""
    return raw // unit if raw % unit == 0 else raw / unit


class Event(NamedTuple):
    """A scoring event: `raw` points for `side`, accepted or discarded by the overshoot rule.

    (A named tuple: the round makes one per event each time its events are read, so it must be cheap.)"""

    side: int
    kind: str  # placement / domino / block / call (the muggins rule)
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


def events_of(rows: Sequence[EventRow], unit: int) -> list[Event]:
    """The public events of the round's event rows (= `[Event(*e, unit=unit) for e in rows]`, made cheaper)."""
    tail = (unit,)
    return [_new_tuple(Event, e + tail) for e in rows]


_new_tuple = tuple.__new__


class Turn:
    """One placement and what led to it (draws, passes) and followed from it (events); or a draw move
    (`move.draw`, `a player may draw while able to place`: no points, no events, the table unchanged).

    The round hands over its compact records (move codes, tile indices, a copy of
    the free sides), kept as one tuple; the public values are built when read, so a
    turn costs little to make when nobody reads it (replay, search)."""

    __slots__ = ("_d", "_codes", "call")

    # _d: (seat, pre, offered, move, free, rules, count, points, events, sniff) -- pre: the draws and
    # passes before the move; offered: the legal move codes when the move was made (or what gives
    # them); free: the free sides after the move; rules: what a terminal double counts (dv), the unit;
    # sniff: the spinner counted by its sides after the move, or None
    _d: tuple[int, Pending, Offered, Move, dict[int, int], Rules, int, int, Sequence[EventRow],
              tuple[int, int, bool] | None]
    _codes: list[int]  # the offered move codes, once read
    # the muggins rule: the call that answered this placement, (seat, why, events)
    call: tuple[int, str, list[EventRow]] | None

    def __init__(self, seat: int, pre: Pending, offered: Offered, move: Move, free: dict[int, int],
                 rules: Rules, count: int, points: int, events: Sequence[EventRow],
                 sniff: tuple[int, int, bool] | None = None):
        self._d = (seat, pre, offered, move, free, rules, count, points, events, sniff)
        self.call = None

    @property
    def seat(self) -> int:
        """The seat that placed."""
        return self._d[0]

    @property
    def move(self) -> Move:
        """The move."""
        return self._d[3]

    @property
    def count(self) -> int:
        """The counted sum after the move."""
        return self._d[6]

    @property
    def points(self) -> int:
        """Raw points of the placement."""
        return self._d[7]

    @property
    def drawn(self) -> list[Tile]:
        """Tiles the mover drew before the move."""
        return [TILES[t] for t in self._d[1][0]]

    @property
    def passed(self) -> list[int]:
        """Seats that passed before the move."""
        return list(self._d[1][1])

    @property
    def pass_drawn(self) -> list[list[Tile]]:
        """Per passing seat, the tiles it drew before passing (aligned with `passed`)."""
        return [[TILES[t] for t in d] for d in self._d[1][2]]

    @property
    def offered(self) -> list[Move]:
        """The legal moves offered."""
        return [move_from_code(c) for c in self._offered_codes()]

    def _offered_codes(self) -> list[int]:
        try:
            codes = self._codes
        except AttributeError:
            offered = self._d[2]
            codes = self._codes = placement_codes(*offered) if isinstance(offered, tuple) else offered
        return in_tile_order(codes)  # larger sets: index order is not tile order

    @property
    def counted(self) -> list[tuple[Tile, str, int]]:
        """The counted ends after the move."""
        return counted_ends(self._d[4], self._d[5].layout.dv, self._d[9])

    @property
    def events(self) -> list[Event]:
        """The events this turn caused (its placement's, and the settlement's when the round ends on it)."""
        return events_of(self._d[8], self._d[5].config.unit)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        out = {
            "seat": self.seat,
            "passed": list(self._d[1][1]),
            "pass_drawn": [[format_tile(TILES[t]) for t in d] for d in self._d[1][2]],
            "drawn": [format_tile(TILES[t]) for t in self._d[1][0]],
            "offered": [str(move_from_code(c)) for c in self._offered_codes()],
            "move": str(self.move),
            "counted": [[format_tile(t), e, v] for t, e, v in self.counted],
            "count": self.count,
            "points": self.points,
            "events": [e.to_dict() for e in self.events],
        }
        if self.call is not None:  # the muggins rule: only a called placement has the key
            seat, why, events = self.call
            out["call"] = {"seat": seat, "for": why, "events": [e.to_dict() for e in events_of(events, self._d[5].config.unit)]}
        return out

    def _key(self) -> tuple[Any, ...]:
        return (self.seat, self.drawn, self.passed, self.offered, self.move, self.move.claim, self.counted,
                self.count, self.points, self.events, self.pass_drawn, self.call)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Turn) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable record, as the dataclass it replaces

    def __repr__(self) -> str:
        return (f"Turn(seat={self.seat}, drawn={self.drawn}, passed={self.passed}, move={str(self.move)!r}, "
                f"count={self.count}, points={self.points}, events={self.events})")


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
        return events_of(self._settle, self.unit)

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
