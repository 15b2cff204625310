"""Per-configuration tables the hot loop reads, computed once per Config (`rules_of(config)`)."""
from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING

from .tiles import IS_DOUBLE, LO, MASK_BY_SET, N_TILES, PIPS, SETS

if TYPE_CHECKING:
    from .config import Config

MAX_PLAYERS = 12  # larger sets: double-twelve allows up to 12 players (family.md 3.7)


def round5(x: int) -> int:
    """Round a pip total to the nearest 5: remainder 1-2 down, 3-4 up."""
    return (x + 2) // 5 * 5


def placement_scoring(cfg: Config) -> Callable[[int], int]:
    """The raw points a placement earns as a function of the counted sum (scoring.in_play)."""
    if not cfg.in_play:
        return _nothing  # "placements score nothing"
    divisors = cfg.divisors
    if cfg.formula == "per-multiple":
        def per_multiple(s: int) -> int:
            # "placements score multiples of 5 or 3, one point per multiple": s/d for each divisor d of s
            return sum(s // d for d in divisors if s % d == 0) if s > 0 else 0
        return per_multiple
    if cfg.formula == "face-value":
        def face_value(s: int) -> int:
            # "placements score multiples of 5 or 3 at face value": s once for each divisor of s
            return s * sum(1 for d in divisors if s % d == 0) if s > 0 else 0
        return face_value
    n = cfg.multiple

    def multiples(s: int) -> int:
        # "placements score multiples of N": a positive sum divisible by N scores itself
        return s if s > 0 and s % n == 0 else 0

    return multiples


def _nothing(s: int) -> int:
    return 0


class Rules:
    """The configuration flattened into plain attributes and tables for speed."""

    __slots__ = (
        "config", "dv", "branch_every", "branch_first", "at_once", "points", "score",
        "draw_until", "forced_lead", "exact", "target", "every_event", "overshoot", "floor",
        "ties", "unit", "_sides", "_partners", "reserve", "opener_first", "side_out",
        "entry", "rounds", "target_by_count", "_copies", "lead_cannot_win", "draw_limit",  # family tier B
        "n_tiles", "mask",  # larger sets
        "orient", "uncovered", "one_tile", "sniff",  # the sniff (family tier C)
        "knock_bonus", "half_doubles", "tie_rounds", "draw_while_able",  # issue 9
        "domino_plan", "block_plan",  # the settlement specs, read once (interpreter.settlement.Plan)
        "_seating",  # per player count: Seating, made on first use
    )

    def __init__(self, cfg: Config):
        self.config = cfg
        self.n_tiles = SETS[cfg.tiles]  # larger sets: the set is the first n_tiles indices
        self.mask = MASK_BY_SET[self.n_tiles]  # MASK[v] for this set (double-six: the 28-bit tiles.MASK)
        if self.n_tiles > SETS[6]:
            from .layout import extend_shifted

            extend_shifted(self.n_tiles)
        # "a terminal double counts both halves" (2p) / "... one half" (p)
        one_half = cfg.terminal_count == "one-half"
        self.dv: tuple[int, ...] = tuple(
            (LO[t] if one_half else PIPS[t]) if IS_DOUBLE[t] else 0 for t in range(N_TILES))
        # "every double branches" / "only the first double branches" / "no double branches"
        self.branch_every = cfg.branching == "every"
        self.branch_first = cfg.branching == "first"
        # "branches open at once" / "branches open after the line"
        self.at_once = cfg.branch_sides == "at-once"
        # the sniff (family tier C): "the spinner is always laid crosswise" (0, today's rule) / "... always
        # laid endwise" (1) / "... laid crosswise or endwise, as its player chooses" (2)
        self.orient = {"crosswise": 0, "endwise": 1, "choice": 2}[cfg.spinner_orientation]
        # "the spinner counts each uncovered side" / "the spinner counts while terminal" (today's rule)
        self.uncovered = cfg.spinner_count == "uncovered-sides"
        # "each branch of the spinner takes one tile": a tile on a branch side is a dead end that still counts
        self.one_tile = cfg.branch_length == "one-tile"
        self.sniff = bool(self.orient or self.uncovered or self.one_tile)  # (the layout's slower, general path)
        # the placement's raw points, a function of the counted sum, tabulated for every possible sum
        # (a counted sum never exceeds the pips of the whole set)
        self.score = placement_scoring(cfg)
        self.points: tuple[int, ...] = tuple(self.score(s) for s in range(sum(PIPS) + 1))
        self.draw_until = cfg.drawing == "until-playable"
        self.forced_lead = cfg.lead == "forced"
        self.exact = cfg.target_mode == "exact"
        self.target = cfg.target
        self.every_event = cfg.target_check == "every-event"
        self.overshoot = cfg.overshoot
        self.floor = cfg.score_floor
        self.ties = cfg.ties
        # -- family tier B (docs/design/family.md): house rules of the match
        # "N points to get in": while a side's score is 0, an event below N raw is discarded
        self.entry: int = cfg.entry
        # "the match lasts N rounds": no target check and no overshoot; the Match ends it after round N
        self.rounds: int | None = cfg.rounds
        if self.rounds is not None:
            self.every_event = False
        self.unit = cfg.unit
        counts = range(1, max(MAX_PLAYERS, *cfg.counts) + 1)
        self._sides = {n: cfg.sides_of(n) for n in counts}
        self._partners: dict[int, tuple[tuple[int, ...], ...]] = {}  # partners_of, made on first use
        self.reserve = {n: cfg.reserve(n) for n in counts}
        self.opener_first = cfg.opener_first
        # "the round ends when both partners go out" (family tier A): only where partners play
        self.side_out = cfg.round_end == "side-out"
        # "target ... with 2 players, 150 with 3 or 4" (family tier B): a copy of these tables per player count
        self.target_by_count: dict[int, int] = dict(cfg.target_by_count)
        self._copies: dict[int, Rules] = {}
        self._seating: dict[int, Seating] = {}
        # "the opening placement cannot win": its event is discarded if it would reach the target
        # "draw until playable, at most K tiles": after K draws without a fit the player passes
        self.draw_limit: int | None = cfg.draw_limit
        # "a player may draw while able to place" (family.md 3.8, puzzle-place.net; issue 9): the draw move
        self.draw_while_able: bool = cfg.draw_while_able and self.draw_until
        self.lead_cannot_win: bool = cfg.lead_cannot_win and self.rounds is None
        # "the next player to place scores N points per knock" (family.md 3.8, Sadman): raw per pass
        self.knock_bonus: int = cfg.knock_bonus
        # "a double left in hand counts one half" (family.md reading 20): hands at the end of a round
        self.half_doubles: bool = cfg.hand_doubles == "one-half"
        # "a tie at the top plays N extra rounds ..." (family.md reading 18): per player count, else one at a time
        self.tie_rounds: dict[int, int] = dict(cfg.tie_rounds)
        # the settlement specs, read once here rather than at the end of every round
        from .settlement import Plan  # (settlement imports this module)

        self.domino_plan = Plan(cfg.domino)
        self.block_plan = Plan(cfg.block)

    def for_players(self, players: int) -> Rules:
        """These tables with the target for `players` (family tier B: a target per player count)."""
        if not self.target_by_count:
            return self
        got = self._copies.get(players)
        if got is None:
            got = Rules(self.config)  # (not copy.copy: a compiled class is made only by its constructor)
            got.target = self.target_by_count.get(players, self.target)
            got.target_by_count = {}
            self._copies[players] = got
        return got

    def seating(self, players: int) -> Seating:
        """What a round of `players` players takes from these tables, found once per player count."""
        got = self._seating.get(players)
        if got is None:
            # (from the configuration's own tables: a copy for one player count, which may share this
            # cache, answers for every count as they do)
            got = self._seating[players] = Seating(rules_of(self.config), players)
        return got

    def sides_of(self, players: int) -> tuple[int, ...]:
        """The side of each seat."""
        return self._sides[players]

    def partners_of(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Each seat's partners (the other seats of its side)."""
        got = self._partners.get(players)
        if got is None:
            sides = self._sides[players]
            got = self._partners[players] = tuple(
                tuple(p for p in range(players) if sides[p] == sides[s] and p != s) for s in range(players))
        return got


class Seating:
    """The tables of one player count (`Rules.seating`): what every round of that count starts from."""

    __slots__ = ("rules", "sides", "nsides", "partners", "side_out", "reserve", "seats")

    def __init__(self, rules: Rules, players: int):
        from .settlement import seats_of  # (settlement imports this module)

        self.rules = rules.for_players(players)  # family tier B: the target per player count
        self.sides = rules.sides_of(players)  # the side of each seat
        self.nsides = max(self.sides) + 1
        self.seats = seats_of(self.sides)  # the seats as the settlement asks about them
        self.partners = rules.partners_of(players)  # each seat's partners
        # "the round ends when both partners go out" (family tier A), where partners play
        self.side_out = rules.side_out and players in rules.config.partnerships
        self.reserve = rules.reserve[players]  # "reserve N tiles": the last N tiles are never drawn


_RULES_OF: weakref.WeakKeyDictionary[Config, Rules] = weakref.WeakKeyDictionary()


def rules_of(config: Config) -> Rules:
    """The engine's tables for `config`, built on first use and kept while the configuration lives."""
    got = _RULES_OF.get(config)
    if got is None:
        got = _RULES_OF[config] = Rules(config)
    return got
