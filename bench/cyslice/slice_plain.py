"""The engine's hottest slice, copied for a compiler measurement (bench/bench_slice_cython.py).

`placement_codes` and `Layout.place` (with `_lead` and `_spinner`) as interpreter/layout.py has them at
`7b1bf0c`, cut to the double-six set and to the configurations without the sniff and without "each branch of
the spinner takes one tile" (All Fives' case); nothing else changed, so mypyc compiles it as the engine's build
does. `replay` and `trace` run recorded rounds through it: a loop like `Round._do`'s, compiled with it.
"""
from __future__ import annotations

from typing import Final, final

TILES: Final = tuple((a, b) for a in range(7) for b in range(a, 7))
N_TILES: Final = 28
LO: Final = tuple(a for a, _ in TILES)
HI: Final = tuple(b for _, b in TILES)
PIPS: Final = tuple(a + b for a, b in TILES)
IS_DOUBLE: Final = tuple(a == b for a, b in TILES)
BIT: Final = tuple(1 << i for i in range(N_TILES))
MASK: Final = tuple(sum(1 << i for i, (a, b) in enumerate(TILES) if v in (a, b)) for v in range(7))
BRANCH_A: Final = 0
BRANCH_B: Final = 1
HIGH: Final = 2
LINE_A: Final = 3
LINE_B: Final = 4
LOW: Final = 5
TILE_SHIFT: Final = 10
KEY_BITS: Final = 0x3FF
LEAD_KEY: Final = 0x3FF


def _shifted_table() -> dict[int, tuple[int, ...]]:
    """SHIFTED[m]: (move_code(tile, 0), ...) ascending for every set m of tiles sharing a half value."""
    out = {}
    for v in range(7):
        idx = [i for i in range(N_TILES) if MASK[v] >> i & 1]
        for sub in range(1 << len(idx)):
            chosen = [i for j, i in enumerate(idx) if sub >> j & 1]
            out[sum(1 << i for i in chosen)] = tuple(i << TILE_SHIFT for i in chosen)
    return out


SHIFTED: Final = _shifted_table()


@final
class Tables:
    """What the layout reads of its configuration (interpreter.layout.Tables, the fields this slice uses)."""

    __slots__ = ("dv", "branch_every", "branch_first", "branch_lead", "branch_after_lead", "at_once")

    def __init__(self, dv: tuple[int, ...], every: bool, first: bool, lead: bool, after_lead: bool,
                 at_once: bool) -> None:
        self.dv = dv
        self.branch_every = every
        self.branch_first = first
        self.branch_lead = lead
        self.branch_after_lead = after_lead
        self.at_once = at_once


@final
class Layout:
    """interpreter.layout.Layout's state and `place`, without the sniff."""

    __slots__ = ("placed", "free", "total", "spin", "_spin_next", "_in_line", "_r")

    def __init__(self, rules: Tables) -> None:
        self.placed: list[int] = []
        self.free: dict[int, int] = {}
        self.total = 0
        self.spin = 0
        self._spin_next = rules.branch_every or rules.branch_first or rules.branch_lead
        self._r = rules
        self._in_line = [0] * N_TILES

    def place(self, code: int) -> int:
        """Place the (legal) move `code`; return the new counted sum."""
        ti = code >> TILE_SHIFT
        key = code & KEY_BITS
        if key == LEAD_KEY:
            return self._lead(ti, code)
        free = self.free
        v = free[key]
        del free[key]
        t = key >> 3
        total = self.total
        if IS_DOUBLE[t]:
            if (key & 7) >= LINE_A:
                inline = self._in_line
                n = inline[t] - 1
                inline[t] = n
                if not n:
                    total -= self._r.dv[t]
                    if self.spin & BIT[t] and not self._r.at_once:
                        free[t << 3 | BRANCH_A] = v
                        free[t << 3 | BRANCH_B] = v
        else:
            total -= v
        if IS_DOUBLE[ti]:
            free[ti << 3 | LINE_B] = v
            self._in_line[ti] = 1
            total += self._spinner(ti, v) if self._spin_next else self._r.dv[ti]
        elif LO[ti] == v:
            free[ti << 3 | HIGH] = e = HI[ti]
            total += e
        else:
            free[ti << 3 | LOW] = e = LO[ti]
            total += e
        self.total = total
        self.placed.append(code)
        return total

    def _lead(self, ti: int, code: int) -> int:
        free = self.free
        if IS_DOUBLE[ti]:
            e = LO[ti]
            free[ti << 3 | LINE_A] = e
            free[ti << 3 | LINE_B] = e
            self._in_line[ti] = 2
            total = self._spinner(ti, e) if self._spin_next else self._r.dv[ti]
        else:
            free[ti << 3 | LOW] = LO[ti]
            free[ti << 3 | HIGH] = HI[ti]
            total = PIPS[ti]
        if self._r.branch_lead:
            self._spin_next = False
        elif self._r.branch_after_lead:
            self._spin_next = True
        self.total = total
        self.placed.append(code)
        return total

    def _spinner(self, ti: int, p: int) -> int:
        r = self._r
        self.spin |= BIT[ti]
        if r.branch_first:
            self._spin_next = False
        if r.at_once:
            self.free[ti << 3 | BRANCH_A] = p
            self.free[ti << 3 | BRANCH_B] = p
        return r.dv[ti]


def placement_codes(free: dict[int, int], hand: int, mask: tuple[int, ...] = MASK) -> list[int]:
    """Every placement of a tile of `hand` (a bitmask) on the free sides `free`, as sorted move codes."""
    codes: list[int] = []
    for key, v in free.items():
        m = hand & mask[v]
        if m:
            if m & (m - 1):
                for c in SHIFTED[m]:
                    codes.append(c | key)
            else:
                codes.append((m.bit_length() - 1) << TILE_SHIFT | key)
    if len(codes) > 1:
        codes.sort()
    return codes


def replay(rules: Tables, hands: list[int], codes: list[int]) -> int:
    """Each step: the legal placements of `hands[i]`, then place `codes[i]` (a lead starts a new round).

    Returns a checksum of every list and counted sum (the same work as `trace`, nothing kept)."""
    lay = Layout(rules)
    check = 0
    for i in range(len(codes)):
        code = codes[i]
        if code & KEY_BITS == LEAD_KEY:
            lay = Layout(rules)
        else:
            legal = placement_codes(lay.free, hands[i])
            check += len(legal) + legal[0]
        check += lay.place(code)
    return check


def trace(rules: Tables, hands: list[int], codes: list[int]) -> list[tuple[list[int], int]]:
    """`replay`, keeping each step's legal placements and counted sum (to compare implementations)."""
    lay = Layout(rules)
    out: list[tuple[list[int], int]] = []
    for i in range(len(codes)):
        code = codes[i]
        legal: list[int] = []
        if code & KEY_BITS == LEAD_KEY:
            lay = Layout(rules)
        else:
            legal = placement_codes(lay.free, hands[i])
        out.append((legal, lay.place(code)))
    return out


def loop_only(rules: Tables, hands: list[int], codes: list[int]) -> int:
    """`replay`'s loop without the slice (a new Layout per round, the same reads): its overhead, to subtract."""
    lay = Layout(rules)
    check = 0
    for i in range(len(codes)):
        code = codes[i]
        if code & KEY_BITS == LEAD_KEY:
            lay = Layout(rules)
        else:
            check += hands[i]
        check += code + lay.total
    return check
