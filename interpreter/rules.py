"""The tables a round reads, derived once per configuration (`rules_of`): never a copy of its fields.

A round reads a configuration field from the `Config` itself; what is here is what
would otherwise be worked out again on every move or every round: the layout's
tables, the points of every counted sum, the settlement plans, the house rules
compiled into hooks, and per player count the seating and the scoreboard.
"""
from __future__ import annotations

from collections.abc import Callable

from .config import Config
from .hooks import Hooks
from .house import house_rules
from .layout import Tables
from .points import placement_scoring, points_table
from .points import round5 as round5  # re-exported: interpreter.rules.round5 stays importable
from .scoring import Scoreboard
from .settlement import Plan, Seats, seats_of

MAX_PLAYERS = 12  # larger sets: double-twelve allows up to 12 players (family.md 3.7)


class Rules:
    """One configuration's derived tables (`rules_of(config)`)."""

    __slots__ = ("config", "layout", "score", "points", "hooks", "domino_plan", "block_plan", "_seating")

    def __init__(self, cfg: Config):
        self.config = cfg
        self.layout = Tables(cfg)  # what a terminal double counts (dv), when branches open, the set's masks
        # the raw points of a placement as a function of the counted sum, and tabulated for every sum
        self.score: Callable[[int], int] = placement_scoring(cfg)
        self.points = points_table(self.score)
        self.hooks = Hooks(house_rules(cfg))  # the house rules, per fixed point of a round
        # the settlement specs, read once here rather than at the end of every round
        self.domino_plan = Plan(cfg.domino, self.hooks.at("hands"))
        self.block_plan = Plan(cfg.block, self.hooks.at("hands"))
        self._seating: dict[int, Seating] = {}

    @property
    def dv(self) -> tuple[int, ...]:
        """What a terminal double counts, per tile."""
        return self.layout.dv

    def seating(self, players: int) -> Seating:
        """What a round of `players` players takes from these tables, found once per player count."""
        got = self._seating.get(players)
        if got is None:
            got = self._seating[players] = Seating(self, players)
        return got


class Seating:
    """The tables of one player count (`Rules.seating`): what every round of that count starts from."""

    __slots__ = ("rules", "sides", "nsides", "partners", "reserve", "seats", "board")

    def __init__(self, rules: Rules, players: int):
        cfg = rules.config
        self.rules = rules
        self.sides = cfg.sides_of(players)  # the side of each seat
        self.nsides = max(self.sides) + 1
        self.seats: Seats = seats_of(self.sides)  # the seats as the settlement asks about them
        self.partners = self.seats.partners  # each seat's partners (the other seats of its side)
        self.reserve = cfg.reserve(players)  # "reserve N tiles": the last N tiles are never drawn
        self.board = Scoreboard(cfg, players, rules.hooks.at("accepts"))  # the target of this player count

    @property
    def target(self) -> int:
        """The raw target of this player count."""
        return self.board.target


_RULES: dict[Config, Rules] = {}
_BY_ID: dict[int, Rules] = {}  # the same, by the configuration object (found without hashing its content)
_KEPT = 256  # configurations whose tables are kept (a tool trying many configurations does not grow without end)


def rules_of(cfg: Config) -> Rules:
    """The tables of `cfg`, made once per configuration (configurations are equal by content)."""
    got = _BY_ID.get(id(cfg))
    if got is not None and got.config is cfg:
        return got
    got = _RULES.get(cfg)
    if got is None:
        if len(_RULES) >= _KEPT:
            _RULES.clear()
            _BY_ID.clear()
        got = _RULES[cfg] = Rules(cfg)
    if len(_BY_ID) >= _KEPT:
        _BY_ID.clear()
    _BY_ID[id(cfg)] = got
    return got
