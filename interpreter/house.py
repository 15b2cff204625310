"""The house rules of play, one `HouseRule` each (interpreter.hooks), in the order the round calls them.

A new rule is one class here, added to `HOUSE_RULES`: `compile` reads its field from
the configuration, and it overrides the fixed points it changes, each reading the
record of its moment (interpreter.hooks.POINTS). The first line of a rule's docstring
quotes its statement: docs/engine-api.md lists the rules from them.
"""
from __future__ import annotations

from .config import Config
from .hooks import Drawing, EventOffered, GoneOut, HandsLeft, HouseRule, Placed, TurnBegun
from .tiles import BIT, DRAW_CODE, IS_DOUBLE, N_TILES, mask_pips

_DOUBLES = sum(BIT[t] for t in range(N_TILES) if IS_DOUBLE[t])  # every double of the largest set


class KnockBonus(HouseRule):
    """"the next player to place scores N points per knock": N raw per pass since the last placement.

    In the placement's event, not claimed under the muggins rule."""

    def __init__(self, bonus: int):
        self.bonus = bonus

    @classmethod
    def compile(cls, cfg: Config) -> HouseRule | None:
        return cls(cfg.knock_bonus) if cfg.knock_bonus else None

    def placement(self, at: Placed, raw: int) -> int:
        return raw + self.bonus * at.passes


class DrawWhileAble(HouseRule):
    """"a player may draw while able to place": the draw move, offered last while the seat may draw."""

    @classmethod
    def compile(cls, cfg: Config) -> HouseRule | None:
        return cls() if cfg.draw_while_able else None

    def offered(self, at: TurnBegun, codes: list[int]) -> list[int]:
        return codes + [DRAW_CODE] if at.can_draw else codes


class DrawLimit(HouseRule):
    """"draw until playable, at most K tiles": after K draws without a fit the seat passes."""

    def __init__(self, limit: int):
        self.limit = limit

    @classmethod
    def compile(cls, cfg: Config) -> HouseRule | None:
        return None if cfg.draw_limit is None else cls(cfg.draw_limit)

    def draws(self, at: Drawing, room: int) -> int:
        return min(room, self.limit)


class DrawAndPass(HouseRule):
    """"draw 1 tile and pass": a seat that cannot place draws one tile and passes (the round does not let it place
    the drawn tile in that turn, even if it fits)."""

    @classmethod
    def compile(cls, cfg: Config) -> HouseRule | None:
        return cls() if cfg.drawing == "draw-and-pass" else None

    def draws(self, at: Drawing, room: int) -> int:
        return min(room, 1)


class SideOut(HouseRule):
    """"the round ends when both partners go out": a seat gone out leaves the round to its partners."""

    @classmethod
    def compile(cls, cfg: Config) -> HouseRule | None:
        return cls() if cfg.round_end == "side-out" else None

    def goes_on(self, at: GoneOut) -> bool:
        hands = at.hands
        for p in at.partners:
            if hands[p]:
                return True
        return False


class HalfDoubles(HouseRule):
    """"a double left in hand counts one half": [4|4] left in hand counts 4."""

    @classmethod
    def compile(cls, cfg: Config) -> HouseRule | None:
        return cls() if cfg.hand_doubles == "one-half" else None

    def hands(self, at: HandsLeft, counts: list[int]) -> list[int]:
        return [c - mask_pips(m & _DOUBLES) // 2 for m, c in zip(at.hands, counts)]


class Entry(HouseRule):
    """"N points to get in": while a side's score is 0, an event below N raw is discarded."""

    def __init__(self, entry: int):
        self.entry = entry

    @classmethod
    def compile(cls, cfg: Config) -> HouseRule | None:
        return cls(cfg.entry) if cfg.entry else None

    def accepts(self, at: EventOffered) -> bool:
        return at.old != 0 or at.raw >= self.entry


class LeadCannotWin(HouseRule):
    """"the opening placement cannot win": its event is discarded if it would reach the target."""

    @classmethod
    def compile(cls, cfg: Config) -> HouseRule | None:
        return cls() if cfg.lead_cannot_win and cfg.rounds is None else None

    def accepts(self, at: EventOffered) -> bool:
        return not (at.accepted and at.reached and at.placed == 1 and at.kind == "placement")


# The order the round calls them in at a shared point: the entry rule discards an event before the
# opening placement is asked. (The muggins rule's claims are the round's own state, credited before
# any placement hook: interpreter.claims.)
HOUSE_RULES: tuple[type[HouseRule], ...] = (
    KnockBonus, DrawWhileAble, DrawLimit, DrawAndPass, SideOut, HalfDoubles, Entry, LeadCannotWin,
)


def house_rules(cfg: Config) -> list[HouseRule]:
    """The house rules `cfg` has, compiled, in `HOUSE_RULES` order."""
    out = []
    for rule in HOUSE_RULES:
        got = rule.compile(cfg)
        if got is not None:
            out.append(got)
    return out
