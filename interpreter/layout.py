"""The layout: the tiles on the table, their free sides, the counted sum and the branching doubles.

A `Layout` owns this state and is the only code that changes it (`place`). Inside,
a free side is a key ``tile << 3 | side`` mapped to the value a tile must show to
attach there; the counted sum is kept up to date on each placement, so the work
per move is proportional to the number of free sides, never to the size of the
layout. The read-only members (`placed`, `free`, `total`, `spin`) and the methods
below are the interface the round, players and tools use.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, final

from . import tiles
from .config import Config
from .tiles import (
    BRANCH_A,
    BRANCH_B,
    ENDWISE,
    HIGH,
    KEY_BITS,
    LEAD_KEY,
    LINE_A,
    LINE_B,
    LOW,
    MASK_ALL,
    MASK_BY_SET,
    N_TILES,
    N_VALUES,
    SETS,
    SIDES,
    TILE_BITS,
    TILE_SHIFT,
    TILES,
    code_key,
    code_tile,
    format_tile,
    key_tile,
    mask_tiles,
    move_code,
)

# The tables the hot loops read, as final names of this module (the same objects as interpreter.tiles'):
# compiled (setup.py), mypyc keeps a final module name in a C static, where an imported name is looked up
# in the module's dict at every use.
BIT: Final = tiles.BIT
IS_DOUBLE: Final = tiles.IS_DOUBLE
LO: Final = tiles.LO
HI: Final = tiles.HI
PIPS: Final = tiles.PIPS
MASK: Final = tiles.MASK

Connection = tuple[tuple[int, int], str, tuple[int, int], str]


@final
class Tables:
    """What the layout reads of its configuration, derived once per configuration (`Rules.layout`)."""

    __slots__ = ("dv", "branch_every", "branch_first", "branch_lead", "branch_after_lead", "at_once", "orient",
                 "uncovered", "one_tile", "sniff", "n_tiles", "mask", "fill_first")

    def __init__(self, cfg: Config):
        self.n_tiles = SETS[cfg.tiles]  # larger sets: the set is the first n_tiles indices
        self.mask = MASK_BY_SET[self.n_tiles]  # MASK[v] for this set (double-six: the 28-bit tiles.MASK)
        extend_shifted(self.n_tiles)
        # "a terminal double counts both halves" (2p) / "... one half" (p)
        one_half = cfg.terminal_count == "one-half"
        self.dv: tuple[int, ...] = tuple(
            (LO[t] if one_half else PIPS[t]) if IS_DOUBLE[t] else 0 for t in range(N_TILES))
        # "every double branches" / "only the first double branches" / "no double branches"
        self.branch_every = cfg.branching == "every"
        self.branch_first = cfg.branching == "first"
        # "only a leading double branches" / "every double but the lead branches": decided at the lead
        self.branch_lead = cfg.branching == "lead"
        self.branch_after_lead = cfg.branching == "all-but-lead"
        # "branches open at once" / "branches open after the line"
        self.at_once = cfg.branch_sides == "at-once"
        # "branches open after the line, the spinner filled first": also, until the round's first spinner has a
        # tile on each of its four sides, no other side takes one
        self.fill_first = cfg.branch_sides == "spinner-first"
        # the sniff: "the spinner is always laid crosswise" (0) / "... always laid endwise" (1) /
        # "... laid crosswise or endwise, as its player chooses" (2)
        self.orient = {"crosswise": 0, "endwise": 1, "choice": 2}[cfg.spinner_orientation]
        # "the spinner counts each uncovered side" / "the spinner counts while terminal"
        self.uncovered = cfg.spinner_count == "uncovered-sides"
        # "each branch of the spinner takes one tile": a tile on a branch side is a dead end that still counts
        self.one_tile = cfg.branch_length == "one-tile"
        self.sniff = bool(self.orient or self.uncovered or self.one_tile)  # (the layout's slower, general path)


@final
class Layout:
    """The tiles placed in a round: free sides, counted sum, attach points (changed only by `place`)."""

    __slots__ = ("placed", "free", "total", "spin", "_spin_next", "_in_line", "_r", "_connections",
                 "orienting", "_sniff", "_mode", "_uncov", "dead",  # the sniff
                 "_fill", "held")  # the spinner filled first

    def __init__(self, rules: Tables, copy_of: Layout | None = None):
        if copy_of is not None:
            self._copy(copy_of)
            return
        self.placed: list[int] = []  # move codes (interpreter.tiles.move_code) in placement order
        self.free: dict[int, int] = {}  # free side key -> the value a tile must show there
        self.total = 0  # the counted sum
        self.spin = 0  # the branching doubles on the layout (bitmask)
        # doubles.branching: "every double branches" / "only the first double branches" (the first
        # double of the round, the lead included) / "no double branches"
        self._spin_next = rules.branch_every or rules.branch_first or rules.branch_lead
        self._r = rules  # the tables: what a terminal double counts (dv), when branches open
        self._in_line = [0] * rules.n_tiles  # free in-line sides of each double on the layout
        self._connections: list[Connection] = []  # cache of connections(), a prefix of placed
        # -- the sniff: while the spinner is still to be placed under `the spinner is laid
        # crosswise or endwise, ...` / `... always laid endwise`, its placements carry an orientation
        self.orienting = bool(rules.orient) and self._spin_next
        self._sniff = -1  # the spinner when it counts by its sides, else -1
        self._mode = 0  # 1: p per free line side (laid endwise); 2: p per uncovered branch side (crosswise)
        self._uncov = 0  # its uncovered branch sides
        # "each branch of the spinner takes one tile": the free ends of tiles on branch sides, counted but
        # closed (key -> value, like `free`)
        self.dead: dict[int, int] = {}
        # "the spinner filled first": the spinner being filled (-1: none yet; -2: the rule is off, or it is
        # filled), and the other free sides held back meanwhile (kept counted in `dead`)
        self._fill = -1 if rules.fill_first else -2
        self.held: list[int] = []

    def copy(self) -> Layout:
        """An independent copy (for a cloned round)."""
        return Layout(self._r, self)

    def _copy(self, other: Layout) -> None:
        """Become a copy of `other` (in the constructor: a compiled class is made only by it)."""
        self.placed = other.placed.copy()
        self.free = other.free.copy()
        self.total = other.total
        self.spin = other.spin
        self._spin_next = other._spin_next
        self._r = other._r
        self._in_line = other._in_line.copy()
        self._connections = []
        self.orienting = other.orienting
        self._sniff = other._sniff
        self._mode = other._mode
        self._uncov = other._uncov
        self.dead = other.dead.copy()
        self._fill = other._fill
        self.held = other.held.copy()

    # -- the one place the layout changes --------------------------------------------

    def place(self, code: int) -> int:
        """Place the (legal) move `code` (rules.md 1.1, 1.2); return the new counted sum."""
        ti = code >> TILE_SHIFT  # (code_tile and code_key, inline: the hot path)
        ew = ti > TILE_BITS  # the sniff laid endwise
        if ew:
            ti &= TILE_BITS
            code ^= ENDWISE
        key = code & KEY_BITS
        if key == LEAD_KEY:
            return self._lead(ti, ew, code)
        free = self.free
        v = free[key]  # (not free.pop(key): compiled, mypyc calls dict.pop generically, these two directly)
        del free[key]
        t = key >> 3
        total = self.total
        dead = False
        if IS_DOUBLE[t]:
            # "each branch of the spinner takes one tile": the tile on a branch side is a dead end
            dead = (key & 7) <= BRANCH_B and self._r.one_tile
            if t == self._sniff:
                total -= self._cover_sniff(t, key & 7, v)  # the sniff counts by its sides
            elif (key & 7) >= LINE_A:
                inline = self._in_line
                n = inline[t] - 1
                inline[t] = n
                if not n:
                    # both in-line sides occupied: the double is internal, counts nothing
                    total -= self._r.dv[t]
                    # "branches open after the line" (branch_sides after-line): they open now
                    if self.spin & BIT[t] and not self._r.at_once:
                        free[t << 3 | BRANCH_A] = v
                        free[t << 3 | BRANCH_B] = v
            # a branch side counted nothing, so covering it changes nothing here
        else:
            total -= v  # the covered end no longer counts
        if IS_DOUBLE[ti]:
            # a double joins with line-a; line-b becomes free; terminal: counts 2p (or p)
            free[ti << 3 | LINE_B] = v
            self._in_line[ti] = 1
            total += self._spinner(ti, v, ew, 1) if self._spin_next else self._r.dv[ti]
        elif LO[ti] == v:
            free[ti << 3 | HIGH] = e = HI[ti]  # joins with its low half; the high half counts
            total += e
        else:
            free[ti << 3 | LOW] = e = LO[ti]  # joins with its high half; the low half counts
            total += e
        if dead:  # its new free side still counts, but nothing may join it
            for k in [k for k in free if k >> 3 == ti]:
                self.dead[k] = free.pop(k)
        self.total = total
        self.placed.append(code)
        if self._fill >= 0:
            self._hold()
        return total

    def _lead(self, ti: int, ew: bool, code: int) -> int:
        """Place the opening tile `ti` alone, all its sides free; return the counted sum."""
        free = self.free
        if IS_DOUBLE[ti]:
            e = LO[ti]
            free[ti << 3 | LINE_A] = e
            free[ti << 3 | LINE_B] = e
            self._in_line[ti] = 2
            # an opening double alone counts 2p once (a sniff by its sides: 2p either way)
            total = self._spinner(ti, e, ew, 2) if self._spin_next else self._r.dv[ti]
        else:
            free[ti << 3 | LOW] = LO[ti]
            free[ti << 3 | HIGH] = HI[ti]
            total = PIPS[ti]  # an opening non-double counts both halves
        if self._r.branch_lead:
            self._spin_next = False  # "only a leading double branches": no double after the lead
        elif self._r.branch_after_lead:
            self._spin_next = True  # "every double but the lead branches": every double after it
        self.total = total
        self.placed.append(code)
        if self._fill >= 0:
            self._hold()
        return total

    def _hold(self) -> None:
        """"the spinner filled first": hold back every free side but the spinner's until a tile lies on each
        of its four sides, then free them (Merry-Go-Round: "the succeeding plays must be made on it until all
        four sides have been played on"). Held sides still count: they wait in `dead`."""
        t = self._fill
        free = self.free
        dead = self.dead
        others = [k for k in free if k >> 3 != t]
        for k in others:
            dead[k] = free.pop(k)
            self.held.append(k)
        if free or self._in_line[t]:
            return  # a side of the spinner is still free, or its branches are not open yet
        for k in self.held:
            free[k] = dead.pop(k)
        self.held = []
        self._fill = -2

    @property
    def ends(self) -> int:
        """The tiles (a bitmask) that fit some free side."""
        ends = 0
        mask = self._r.mask  # larger sets: the set's masks
        for v in self.free.values():
            ends |= mask[v]
        return ends

    def _spinner(self, ti: int, p: int, endwise: bool, inline: int) -> int:
        """Make double `ti` a branching double (doubles.branching); return what it counts now."""
        r = self._r
        self.spin |= BIT[ti]
        if self._fill == -1:
            self._fill = ti  # "the spinner filled first": the round's first spinner
        if r.branch_first:
            self._spin_next = False  # "only the first double branches": later doubles do not
            self.orienting = False
        if r.at_once:
            # "branches open at once": free as soon as the spinner is placed
            self.free[ti << 3 | BRANCH_A] = p
            self.free[ti << 3 | BRANCH_B] = p
        # the sniff: laid endwise, it lies in the line and counts p per free line side;
        # crosswise under "the spinner counts each uncovered side", p per uncovered branch side (reading 23);
        # otherwise it counts as a terminal double (dv) while terminal, as every spinner did before
        mode = 1 if endwise else 2 if r.uncovered else 0
        if not mode:
            return r.dv[ti]
        self._sniff = ti
        self._mode = mode
        self._uncov = 2
        return p * inline if mode == 1 else 2 * p

    def _cover_sniff(self, t: int, side: int, v: int) -> int:
        """A tile joins side `side` of the sniff `t`: what the sniff no longer counts."""
        if side >= LINE_A:
            inline = self._in_line
            n = inline[t] - 1
            inline[t] = n
            if not n and not self._r.at_once:
                # "branches open after the line": in either orientation (family.md 2.4)
                self.free[t << 3 | BRANCH_A] = v
                self.free[t << 3 | BRANCH_B] = v
            return v if self._mode == 1 else 0  # endwise: one free line side fewer
        self._uncov -= 1
        return v if self._mode == 2 else 0  # crosswise: one uncovered branch side fewer

    def oriented(self, codes: list[int]) -> list[int]:
        """The placements `codes` with each placement of the spinner in the orientations allowed.

        Only while `orienting`: a double placed now is the spinner; under the holder's choice it has two
        moves, crosswise then endwise; under "always laid endwise" only the endwise one."""
        both = self._r.orient == 2
        out = []
        for c in codes:
            if IS_DOUBLE[code_tile(c)]:
                if both:
                    out.append(c)
                out.append(c | ENDWISE)
            else:
                out.append(c)
        return out

    def orientations(self, ti: int) -> tuple[bool, bool]:
        """Whether tile `ti` placed now may be laid (crosswise, endwise)."""
        if self.orienting and IS_DOUBLE[ti]:
            return self._r.orient == 2, True
        return True, False

    @property
    def endwise_spinner(self) -> tuple[int, int] | None:
        """The spinner laid endwise, else None."""
        return TILES[self._sniff] if self._mode == 1 else None

    def sniff_entry(self) -> tuple[int, int, bool] | None:
        """The spinner counted by its sides: (tile, what it counts, whether it is listed)."""
        t = self._sniff
        if t < 0:
            return None
        k = self._in_line[t] if self._mode == 1 else self._uncov
        return t, LO[t] * k, k > 0

    # -- questions the round asks --------------------------------------------------------

    def placement_codes(self, hand: int) -> list[int]:
        """Every placement of a tile of `hand` (a bitmask) as sorted move codes."""
        return placement_codes(self.free, hand, self._r.mask)

    def preview(self, code: int) -> int:
        """The counted sum after placing the (legal) move `code`, without placing it."""
        return self.points_of((code,), _SUMS)[0]

    def points_of(self, codes: Sequence[int], points: Sequence[int]) -> list[int]:
        """`points[s]` for the counted sum s after each legal move code, without placing it (rules.md 1.2)."""
        if self._r.sniff:
            # the sniff counts by its sides and orientation: place each on a copy
            return [points[self.copy().place(c)] for c in codes]
        dv = self._r.dv
        free = self.free
        inline = self._in_line
        total = self.total
        out = []
        for code in codes:
            ti = code >> TILE_SHIFT  # (code_tile and code_key, inline: the hot path; no endwise code here)
            key = code & KEY_BITS
            if key == LEAD_KEY:
                out.append(points[dv[ti] if IS_DOUBLE[ti] else PIPS[ti]])
                continue
            v = free[key]
            t = key >> 3
            c = total
            if IS_DOUBLE[t]:
                if (key & 7) >= LINE_A and inline[t] == 1:
                    c -= dv[t]
            else:
                c -= v
            if IS_DOUBLE[ti]:
                c += dv[ti]
            else:
                c += HI[ti] if LO[ti] == v else LO[ti]
            out.append(points[c])
        return out

    def holds(self, tile: int) -> bool:
        """True if the tile (an index) is on the layout."""
        return any(code_tile(c) == tile for c in self.placed)

    def side_covered(self, key: int) -> bool:
        """True if a tile was placed on the side `key` (tile << 3 | side)."""
        return any(code_key(c) == key for c in self.placed)

    # -- the layout as players see it --------------------------------------------------------

    @property
    def tiles(self) -> list[tuple[int, int]]:
        """Tiles in placement order."""
        return [TILES[code_tile(c)] for c in self.placed]

    def connections(self) -> list[Connection]:
        """(parent_tile, parent_side, child_tile, child_side) in placement order."""
        out = self._connections
        done = len(out) + 1 if self.placed else 0  # the lead has no connection
        for c in self.placed[done:]:
            key = code_key(c)
            ti, t = code_tile(c), key_tile(key)
            # the child joins with line-a (a double) or with its half equal to the side's value
            value = HI[t] if (key & 7) == HIGH else LO[t]
            own = "line-a" if IS_DOUBLE[ti] else ("low" if LO[ti] == value else "high")
            out.append((TILES[t], SIDES[key & 7], TILES[ti], own))
        return list(out)

    def spinners(self) -> list[tuple[int, int]]:
        """The branching doubles on the layout, sorted."""
        return mask_tiles(self.spin)

    def attach_points(self) -> list[tuple[tuple[int, int], str, int]]:
        """Free sides `(tile, side, value)` sorted by tile then side."""
        out = [(TILES[k >> 3], SIDES[k & 7], v) for k, v in sorted(self.free.items())]
        if out and max(self.free) >= 28 << 3:  # larger sets: index order is not tile order
            out.sort(key=lambda e: (e[0], e[1]))
        return out

    def counted(self) -> list[tuple[tuple[int, int], str, int]]:
        """Counted ends `(tile, end, value)` sorted by tile then end ("double" for a terminal double)."""
        return counted_ends(self.counted_sides(), self._r.dv, self.sniff_entry())

    def counted_sides(self) -> dict[int, int]:
        """The free sides and the dead ends: every side whose value may count."""
        return {**self.free, **self.dead} if self.dead else self.free

    def count(self) -> int:
        """The counted sum."""
        return self.total

    def __len__(self) -> int:
        return len(self.placed)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "tiles": [format_tile(t) for t in self.tiles],
            "connections": [[format_tile(a), s, format_tile(b), t] for a, s, b, t in self.connections()],
            "spinners": [format_tile(t) for t in self.spinners()],
            "attach_points": [[format_tile(t), s, v] for t, s, v in self.attach_points()],
            "counted": [[format_tile(t), e, v] for t, e, v in self.counted()],
            "count": self.total,
        }


def placement_codes(free: dict[int, int], hand: int, mask: tuple[int, ...] = MASK) -> list[int]:
    """Every placement of a tile of `hand` (a bitmask) on the free sides `free`, as sorted move codes.

    `mask`: the set's masks (tiles.MASK_BY_SET; larger sets need theirs). (`codes.append`, not a bound
    method kept in a local: compiled, mypyc calls list.append directly, and calls a local object generically.)"""
    codes: list[int] = []
    for key, v in free.items():
        m = hand & mask[v]
        if m:
            if m & (m - 1):  # two tiles or more fit there: their codes, ascending, from the table
                try:
                    shifted = SHIFTED[m]
                except KeyError:  # the double-fifteen and double-eighteen sets: made on first use
                    shifted = _shifted_of(m)
                for c in shifted:
                    codes.append(c | key)
            else:  # one tile (the usual case): its index by arithmetic (compiled: no boxed key, no look-up)
                codes.append((m.bit_length() - 1) << TILE_SHIFT | key)
    if len(codes) > 1:
        codes.sort()
    return codes


def counted_ends(free: dict[int, int], dv: Sequence[int],
                 sniff: tuple[int, int, bool] | None = None) -> list[tuple[tuple[int, int], str, int]]:
    """The counted ends of a layout whose free sides are `free` (dv: what a terminal double counts).

    `sniff`: the spinner counted by its sides (Layout.sniff_entry): listed once as
    `double` with what it counts, while it has a side that counts."""
    out: list[tuple[tuple[int, int], str, int]] = []
    last = -1
    skip = -1 if sniff is None else sniff[0]  # the sniff's free line sides are not a terminal double's
    # every counted end is a free side: a non-double's free low or high end, or a double
    # with a free in-line side (rules.md 1.2); sorting keys sorts by tile, then "high" < "low"
    for k in sorted(free):
        ti = k >> 3
        side = k & 7
        if IS_DOUBLE[ti]:
            if side >= LINE_A and ti != last and ti != skip:
                out.append((TILES[ti], "double", dv[ti]))
                last = ti
        else:
            out.append((TILES[ti], SIDES[side], free[k]))
    if sniff is not None and sniff[2]:
        out.append((TILES[sniff[0]], "double", sniff[1]))
        out.sort(key=lambda e: (e[0], e[1]))
    elif free and max(free) >= 28 << 3:  # larger sets: index order is not tile order
        out.sort(key=lambda e: (e[0], e[1]))
    return out


def _shifted_table() -> dict[int, tuple[int, ...]]:
    """SHIFTED[m]: (move_code(tile, 0), ...) ascending for every set m of tiles sharing a half value."""
    out = {}
    for v in range(7):  # the double-six set; larger sets' subsets are added by _shifted_more
        idx = [i for i in range(SETS[6]) if MASK[v] >> i & 1]
        for sub in range(1 << len(idx)):
            chosen = [i for j, i in enumerate(idx) if sub >> j & 1]
            out[sum(1 << i for i in chosen)] = tuple(move_code(i, 0) for i in chosen)
    return out


SHIFTED: Final = _shifted_table()


_SHIFTED_FOR: set[int] = {SETS[6]}  # the sets (by tile count) SHIFTED covers
# the largest set whose subsets are made ahead: a value of double-fifteen is on 16 tiles (65,536 subsets), of
# double-eighteen on 19: theirs are made on first use (`_shifted_of`)
_AHEAD = SETS[12]


def _shifted_of(m: int) -> tuple[int, ...]:
    """SHIFTED[m] made and kept on a miss (the tiles of the double-fifteen and double-eighteen sets)."""
    out = []
    rest = m
    while rest:
        low = rest & -rest
        out.append(move_code(low.bit_length() - 1, 0))
        rest ^= low
    codes = SHIFTED[m] = tuple(out)
    return codes


def extend_shifted(n_tiles: int) -> None:
    """Add the subsets of a larger set (family.md 3.7) to SHIFTED, once per process (interpreter.rules); the
    largest sets' are made on first use instead (`_shifted_of`).

    Done ahead, not on a miss, so that `placement_codes` stays a plain look-up for double-six."""
    if n_tiles in _SHIFTED_FOR or n_tiles > _AHEAD:
        return
    for v in range(N_VALUES):
        idx = [i for i in range(n_tiles) if MASK_ALL[v] >> i & 1]
        subsets: dict[int, tuple[int, ...]] = {0: ()}
        for i in idx:  # every subset of the tiles up to i, extended by i (ascending codes)
            for m, codes in list(subsets.items()):
                subsets[m | 1 << i] = codes + (move_code(i, 0),)
        del subsets[0]
        SHIFTED.update(subsets)
    _SHIFTED_FOR.add(n_tiles)
_SUMS: Final = range(sum(PIPS) + 1)  # as a points table: the counted sum itself
