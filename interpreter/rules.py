"""Per-configuration tables the hot loop reads, computed once per Config."""
from __future__ import annotations

from .config import Config
from .tiles import IS_DOUBLE, LO, TILES, PIPS


def round5(x: int) -> int:
    """Round a pip total to the nearest 5: remainder 1-2 down, 3-4 up."""
    return (x + 2) // 5 * 5


class Rules:
    """The configuration flattened into plain attributes and tables for speed."""

    __slots__ = (
        "config", "dv", "branch_every", "branch_first", "at_once", "in_play", "multiple",
        "draw_until", "forced_lead", "exact", "target", "every_event", "overshoot", "floor",
        "ties", "unit", "simple_events", "_sides",
    )

    def __init__(self, cfg: Config):
        self.config = cfg
        # doubles.terminal_count: a terminal double counts 2p ("both-halves") or p ("one-half")
        one_half = cfg.terminal_count == "one-half"
        self.dv = tuple((LO[t] if one_half else PIPS[t]) if IS_DOUBLE[t] else 0 for t in range(28))
        # doubles.branching: every / first / none
        self.branch_every = cfg.branching == "every"
        self.branch_first = cfg.branching == "first"
        # doubles.branch_sides: at-once opens a spinner's branches when it is placed
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
        # a placement event can be applied by the short path: no overshoot, no floor
        self.simple_events = not self.exact and self.floor is None
        self._sides = {n: cfg.sides_of(n) for n in (1, 2, 3, 4)}

    def sides_of(self, players: int):
        """The side of each seat."""
        return self._sides[players]


_CACHE: dict[Config, Rules] = {}


def rules_for(cfg: Config) -> Rules:
    """The (cached) tables of a configuration."""
    r = _CACHE.get(cfg)
    if r is None:
        if len(_CACHE) > 64:
            _CACHE.clear()
        r = _CACHE[cfg] = Rules(cfg)
    return r


def deciding_tile(hand_tiles) -> int:
    """The tile that ranks a hand under `highest-double`: its highest double, else its heaviest
    tile (most pips; equal pips: the larger high half). Returns (rank, tile index)."""
    best = None
    for t in hand_tiles:
        a, b = TILES[t]
        rank = (1, a, 0) if a == b else (0, a + b, b)
        if best is None or rank > best[0]:
            best = (rank, t)
    return best
