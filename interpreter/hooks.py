"""House rules as hooks: each optional rule is one `HouseRule`, called by the round at fixed points.

A rule is compiled once per configuration (`HouseRule.compile`: the rule's object, or
None when the configuration does not have it) and the round calls it only at the fixed
points it overrides, in the order of `interpreter.house.HOUSE_RULES`. `POINTS` declares
the points once: each is a method of `HouseRule` of the same name, called with one
immutable record of the moment (its `record` type below) and, where rules are chained,
what the earlier rules made of the value. The round builds a record only at a point
some rule listens to: a configuration without house rules builds none.

Each default leaves the round as it is without the rule, so a rule overrides only its
own points and a configuration without house rules calls nothing. docs/engine-api.md
lists the points and the rules from these declarations (`python -m rulelang.generate`).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .config import Config
from .tiles import MOVES, Tile, move_from_code


class Placed(NamedTuple):
    """A placement scored.

    seat: the seat that placed
    tile: the tile placed
    target: the tile it joined (None: the lead)
    side: the side of `target` it took (None: the lead)
    counted: the counted sum after it
    points: the raw points it earns (its count scored)
    passes: the seats that passed since the last placement
    goes_out: whether it empties its seat's hand
    claim: the claim stated with it, in shown points (None: points are not claimed)
    """

    seat: int
    tile: Tile
    target: Tile | None
    side: str | None
    counted: int
    points: int
    passes: int
    goes_out: bool
    claim: int | None


class TurnBegun(NamedTuple):
    """A turn begun, its moves being listed.

    seat: the seat to move
    can_draw: whether the boneyard has a tile the seat may take now
    """

    seat: int
    can_draw: bool


class Drawing(NamedTuple):
    """A seat with no placement about to draw until playable.

    seat: the seat that draws
    drawable: the tiles it may take before the boneyard's drawable part is used up
    """

    seat: int
    drawable: int


class GoneOut(NamedTuple):
    """A hand emptied by a placement.

    seat: the seat gone out
    partners: its partners (the other seats of its side)
    hands: every seat's hand, as a bitmask of tile indices
    """

    seat: int
    partners: tuple[int, ...]
    hands: tuple[int, ...]


class HandsLeft(NamedTuple):
    """The round's end: the hands left, counted for the settlement.

    hands: every seat's hand, as a bitmask of tile indices
    """

    hands: tuple[int, ...]


class EventOffered(NamedTuple):
    """A scoring event offered to the scoreboard.

    kind: `placement`, `call`, `domino` or `block`
    side: the side it scores for
    seat: the seat it concerns (None: none)
    old: the side's score before it (raw)
    raw: its raw points
    placed: the tiles on the layout
    accepted: whether the target rules accept it
    reached: whether the side's score after it reaches the target
    """

    kind: str
    side: int
    seat: int | None
    old: int
    raw: int
    placed: int
    accepted: bool
    reached: bool


class Point(NamedTuple):
    """A fixed point of a round: the `HouseRule` method of that name, its record, when it is called and what
    the method returns."""

    name: str
    record: type
    when: str
    returns: str


# The fixed points, declared once, in the order of a turn. Hooks, the docs and the tests read this list.
POINTS: tuple[Point, ...] = (
    Point("offered", TurnBegun, "a turn begun", "the move codes offered (`codes`: those of the earlier rules; "
          "return a new list rather than changing it)"),
    Point("draws", Drawing, "a seat draws until playable", "how many tiles it may draw now (`room`: what the "
          "earlier rules allow)"),
    Point("placement", Placed, "a placement scored", "the raw points credited to its side (`raw`: the points "
          "as claimed, or as the earlier rules made them)"),
    Point("goes_on", GoneOut, "a hand emptied", "True when the round goes on rather than dominoes"),
    Point("hands", HandsLeft, "the round's end", "each hand's count for the settlement (`counts`: its pips, or "
          "as the earlier rules counted them)"),
    Point("accepts", EventOffered, "an event offered to the scoreboard", "False to discard it"),
)


class HouseRule:
    """One optional rule of play; the round calls the methods a subclass overrides (one per point of `POINTS`)."""

    @classmethod
    def compile(cls, cfg: Config) -> HouseRule | None:
        """The rule as `cfg` sets it, or None when `cfg` does not have it."""
        return None

    def offered(self, at: TurnBegun, codes: list[int]) -> list[int]:
        """A turn begun: the move codes offered."""
        return codes

    def draws(self, at: Drawing, room: int) -> int:
        """A seat draws until playable: how many tiles it may draw now."""
        return room

    def placement(self, at: Placed, raw: int) -> int:
        """A placement scored: the raw points credited to its side."""
        return raw

    def goes_on(self, at: GoneOut) -> bool:
        """A hand emptied: True when the round goes on."""
        return False

    def hands(self, at: HandsLeft, counts: list[int]) -> list[int]:
        """The round's end: each hand's count for the settlement."""
        return counts

    def accepts(self, at: EventOffered) -> bool:
        """An event offered to the scoreboard: False discards it."""
        return True


def overrides(rule: type[HouseRule], point: str) -> bool:
    """Whether the rule class has its own method at the fixed point `point`."""
    return getattr(rule, point) is not getattr(HouseRule, point)


class Hooks:
    """A configuration's house rules, listed per fixed point of `POINTS` (an empty tuple: nothing to call)."""

    __slots__ = ("rules", "by_point")

    def __init__(self, rules: Sequence[HouseRule]):
        self.rules = tuple(rules)
        # each point's name -> the rules listening there, in order (read it; `at` says which names exist)
        self.by_point: dict[str, tuple[HouseRule, ...]] = {
            p.name: tuple(r for r in self.rules if overrides(type(r), p.name)) for p in POINTS}

    def at(self, point: str) -> tuple[HouseRule, ...]:
        """The rules listening at `point` (a name of `POINTS`), in the order they are called."""
        got = self.by_point.get(point)
        if got is None:
            raise ValueError(f"no fixed point {point!r} (points: {', '.join(p.name for p in POINTS)})")
        return got


def placed(seat: int, code: int, counted: int, points: int, passes: int, goes_out: bool, claim: int | None) -> Placed:
    """The record of the placement of move code `code` (made only where a rule listens; its tile, target and
    side those of the interned Move, and the tuple made without the named tuple's Python-level `__new__`)."""
    mv = MOVES.get(code) or move_from_code(code)
    return tuple.__new__(Placed, (seat, mv.tile, mv.target, mv.side, counted, points, passes, goes_out, claim))


def event_offered(kind: str, side: int, seat: int | None, old: int, raw: int, placed: int, accepted: bool,
                  reached: bool) -> EventOffered:
    """The record of an event offered to the scoreboard (made only where a rule listens, as `placed`)."""
    return tuple.__new__(EventOffered, (kind, side, seat, old, raw, placed, accepted, reached))
