"""Per-configuration tables the hot loop reads, computed once per Config."""
from __future__ import annotations

from .config import Config
from .tiles import IS_DOUBLE, LO, PIPS


def round5(x: int) -> int:
    """Round a pip total to the nearest 5: remainder 1-2 down, 3-4 up."""
    return (x + 2) // 5 * 5


class Rules:
    """The configuration flattened into plain attributes and tables for speed."""

    __slots__ = (
        "config", "dv", "branch_every", "branch_first", "at_once", "in_play", "multiple",
        "draw_until", "forced_lead", "exact", "target", "every_event", "overshoot", "floor",
        "ties", "unit", "_sides", "_sides_cw", "reserve", "opener_first",
    )

    def __init__(self, cfg: Config):
        self.config = cfg
        # "a terminal double counts both halves" (2p) / "... one half" (p)
        one_half = cfg.terminal_count == "one-half"
        self.dv = tuple((LO[t] if one_half else PIPS[t]) if IS_DOUBLE[t] else 0 for t in range(28))
        # "every double branches" / "only the first double branches" / "no double branches"
        self.branch_every = cfg.branching == "every"
        self.branch_first = cfg.branching == "first"
        # "branches open at once" / "branches open after the line"
        self.at_once = cfg.branch_sides == "at-once"
        self.in_play = cfg.in_play
        self.multiple = cfg.multiple
        self.draw_until = cfg.drawing == "until-playable"
        self.forced_lead = cfg.lead == "forced"
        self.exact = cfg.target_mode == "exact"
        self.target = cfg.target
        self.every_event = cfg.target_check == "every-event"
        self.overshoot = cfg.overshoot
        self.floor = cfg.score_floor
        self.ties = cfg.ties
        self.unit = cfg.unit
        self._sides = {n: cfg.sides_of(n) for n in (1, 2, 3, 4)}
        self.reserve = {n: cfg.reserve(n) for n in (1, 2, 3, 4)}
        self.opener_first = cfg.opener_first
        self._sides_cw = {}
        for n, side_of in self._sides.items():
            rows = []
            for start in range(n):
                order = []
                for i in range(n):
                    sd = side_of[(start + i) % n]
                    if sd not in order:
                        order.append(sd)
                rows.append(tuple(order))
            self._sides_cw[n] = tuple(rows)

    def sides_of(self, players: int):
        """The side of each seat."""
        return self._sides[players]

    def sides_clockwise(self, players: int, start: int) -> tuple:
        """The sides in seat order clockwise from seat `start`, each once."""
        return self._sides_cw[players][start]


def rules_for(cfg: Config) -> Rules:
    """The tables of a configuration (computed once, kept on the Config)."""
    r = cfg._rules
    if r is None:
        r = Rules(cfg)
        object.__setattr__(cfg, "_rules", r)
    return r
