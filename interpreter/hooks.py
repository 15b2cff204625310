"""House rules as hooks: each optional rule is one `HouseRule`, called by the round at fixed points.

A rule is compiled once per configuration (`HouseRule.compile`: the rule's object, or
None when the configuration does not have it) and the round calls it only at the fixed
points it overrides, in the order of `interpreter.house.HOUSE_RULES`:

- `placement`: a placement scored (the raw points its side is credited);
- `offered`: a turn begun (the move codes offered to the seat to move);
- `draws`: a draw (how many tiles a seat may draw before it passes);
- `goes_on`: a hand emptied (whether the round goes on rather than dominoes);
- `hands`: the round's end (each hand's count for the settlement);
- `accepts`: an event offered to the scoreboard (whether it stands).

Each default leaves the round as it is without the rule, so a rule overrides only its
own points and a configuration without house rules calls nothing.
"""
from __future__ import annotations

from collections.abc import Sequence

from .claims import Claims
from .config import Config

POINTS = ("placement", "offered", "draws", "goes_on", "hands", "accepts")


class HouseRule:
    """One optional rule of play; the round calls the methods a subclass overrides."""

    @classmethod
    def compile(cls, cfg: Config) -> HouseRule | None:
        """The rule as `cfg` sets it, or None when `cfg` does not have it."""
        return None

    def placement(self, seat: int, pts: int, raw: int, passes: int, claim: int | None,
                  claims: Claims | None) -> int:
        """A placement scored: the raw points credited to its side (`pts`: the placement's own points,
        `raw`: what earlier rules made of them, `passes`: passes since the last placement, `claim`: the
        claim stated with the move, `claims`: the round's claims under the muggins rule)."""
        return raw

    def offered(self, codes: list[int], can_draw: bool) -> list[int]:
        """A turn begun: the move codes offered (`can_draw`: the boneyard has a tile the seat may take
        now). Return a new list rather than changing `codes`."""
        return codes

    def draws(self, room: int) -> int:
        """A draw: how many tiles the seat may draw now (`room`: what drawing until playable may take)."""
        return room

    def goes_on(self, hands: Sequence[int], partners: tuple[int, ...]) -> bool:
        """A hand emptied: True when the round goes on (`partners`: the partners of the seat gone out)."""
        return False

    def hands(self, masks: Sequence[int], counts: list[int]) -> list[int]:
        """The round's end: each hand's count for the settlement (`counts`: what it counts so far)."""
        return counts

    def accepts(self, kind: str, old: int, raw: int, placed: int, accepted: bool, reached: bool) -> bool:
        """An event offered to the scoreboard: False discards it (`old`: the side's score before it,
        `placed`: tiles on the layout, `accepted`/`reached`: whether the target rules accept it and
        whether its score reaches the target)."""
        return True


def _overrides(rule: HouseRule, point: str) -> bool:
    return getattr(type(rule), point) is not getattr(HouseRule, point)


class Hooks:
    """A configuration's house rules, listed per fixed point (an empty tuple: nothing to call)."""

    __slots__ = ("rules", "placement", "offered", "draws", "goes_on", "hands", "accepts")

    def __init__(self, rules: Sequence[HouseRule]):
        self.rules = tuple(rules)
        self.placement = tuple(r for r in rules if _overrides(r, "placement"))
        self.offered = tuple(r for r in rules if _overrides(r, "offered"))
        self.draws = tuple(r for r in rules if _overrides(r, "draws"))
        self.goes_on = tuple(r for r in rules if _overrides(r, "goes_on"))
        self.hands = tuple(r for r in rules if _overrides(r, "hands"))
        self.accepts = tuple(r for r in rules if _overrides(r, "accepts"))
