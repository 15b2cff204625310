"""Tiles, sides and moves: the values of the engine, and the tables its hot loops use.

Tiles are tuples ``(low, high)`` at the API and small integers inside the
engine: the index of a tile in the nested sets (double-six first, in sort
order, so that sorting a double-six set's indices sorts its tiles). Sides are strings at the API and codes inside, numbered in
their alphabetical order (the order of the source diagrams). Every table is
sized from `N_VALUES` and holds the largest set; a round uses the first
`SETS[top]` indices.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Final

Tile = tuple[int, int]  # (low, high), 0 <= low <= high <= the set's highest pip

# -- Tile tables (index <-> tile) ----------------------------------------------
# -- larger sets (family.md 3.7): the tables hold the double-eighteen set, nested so that the
# first 28 indices are the double-six set in its sort order (so a double-six round's indices,
# bitmasks, codes and seeded deals are exactly those of before), the next 27 complete the
# double-nine set, the next 36 the double-twelve set, the next 45 the double-fifteen set and the
# last 54 the double-eighteen set. Within a larger set, index order is
# no longer tile order: the API sorts with `SORT_KEY` where it promises sorted tiles.

SETS: dict[int, int] = {6: 28, 9: 55, 12: 91, 15: 136, 18: 190}  # highest pip -> tiles in the set (its first indices)
N_VALUES = 19  # half values 0..18: the largest set, double-eighteen


def _nested_tiles() -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for top in SETS:
        out += sorted((a, b) for a in range(top + 1) for b in range(a, top + 1) if (a, b) not in out)
    return tuple(out)


TILES: tuple[tuple[int, int], ...] = _nested_tiles()
N_TILES = len(TILES)
SORT_KEY: tuple[int, ...] = tuple(sorted(range(N_TILES), key=TILES.__getitem__).index(i) for i in range(N_TILES))
# -- end larger sets
INDEX: dict[tuple[int, int], int] = {t: i for i, t in enumerate(TILES)}
LO: tuple[int, ...] = tuple(a for a, _ in TILES)
HI: tuple[int, ...] = tuple(b for _, b in TILES)
PIPS: tuple[int, ...] = tuple(a + b for a, b in TILES)
IS_DOUBLE: tuple[bool, ...] = tuple(a == b for a, b in TILES)
BIT: tuple[int, ...] = tuple(1 << i for i in range(N_TILES))
# MASK[v]: the tiles having a half of value v
MASK_ALL: tuple[int, ...] = tuple(sum(1 << i for i, (a, b) in enumerate(TILES) if v in (a, b)) for v in range(N_VALUES))
# -- larger sets: each set's own masks (MASK_BY_SET[tiles in set]); MASK is the double-six set's, whose
# 28-bit ints keep the hot loop's `hand & MASK[v]` on small ints
MASK_BY_SET: dict[int, tuple[int, ...]] = {n: tuple(m & ((1 << n) - 1) for m in MASK_ALL) for n in SETS.values()}
MASK = MASK_BY_SET[SETS[6]]
# -- end larger sets

_TEXT_INDEX: dict[str, int] = {f"[{a}|{b}]": i for i, (a, b) in enumerate(TILES)}
_TEXT_INDEX.update({f"[{b}|{a}]": i for i, (a, b) in enumerate(TILES)})
# ANY_INDEX: a tile's index from its index, its tuple (either order) or its canonical text
ANY_INDEX: dict[Any, int] = {**_TEXT_INDEX, **{(b, a): i for i, (a, b) in enumerate(TILES)}, **INDEX,
                             **{i: i for i in range(N_TILES)}}
ANY_BIT: dict[Any, int] = {k: 1 << i for k, i in ANY_INDEX.items()}  # the same keys: the tile's bit (read_deal)

# -- Sides -------------------------------------------------------------------

SIDES: tuple[str, ...] = ("branch-a", "branch-b", "high", "line-a", "line-b", "low")
# the side codes, SIDES' indices; Final, so that the compiled modules (setup.py) read them as constants
BRANCH_A: Final = 0
BRANCH_B: Final = 1
HIGH: Final = 2
LINE_A: Final = 3
LINE_B: Final = 4
LOW: Final = 5
SIDE_CODE: dict[str, int] = {s: i for i, s in enumerate(SIDES)}
# -- Move codes ----------------------------------------------------------------
# A move is coded `tile << TILE_SHIFT | key`: `key` is the free side it takes, `target << 3 | side`
# (interpreter.layout's side key), or LEAD_KEY for the lead; sorting codes sorts moves by tile, then
# target tile, then side. Read and make codes with the helpers below (`code_tile`, `code_key`,
# `lead_code`, `move_code`, `key_tile`, `key_side`); the hot loops of interpreter.round and
# interpreter.layout spell the same operations with these named constants, inline.
TILE_SHIFT: Final = 11  # the tile index sits above the key's bits
KEY_BITS: Final = 0x7FF  # the bits of a code that hold its key (a side key, or LEAD_KEY)
TILE_BITS: Final = 0xFF  # the bits of `code >> TILE_SHIFT` that hold the tile (ENDWISE is above them)
SIDE_SHIFT: Final = 3  # a side key is `target << SIDE_SHIFT | side`
SIDE_BITS: Final = 7
LEAD_KEY: Final = 0x7FF  # the key of a lead: no target (every key bit set: above every side key)
# the sniff: a spinner laid endwise has this bit in its move code, above the tile
# (tile indices are below 256); a code without it is crosswise, as every move was before
ENDWISE: Final = 1 << 19
ORIENTATIONS = ("crosswise", "endwise")
# drawing while able to place (family.md 3.8): the draw move's code, above every placement's
# (so it sorts last); offered only under `a player may draw while able to place`
DRAW_CODE: Final = 1 << 20


def code_tile(code: int) -> int:
    """The tile index of a placement's or lead's code (crosswise or endwise)."""
    return code >> TILE_SHIFT & TILE_BITS


def code_key(code: int) -> int:
    """The key of a code: the side key it takes (`key_tile`, `key_side`), or LEAD_KEY."""
    return code & KEY_BITS


def lead_code(tile: int) -> int:
    """The code of leading the tile index `tile` (crosswise)."""
    return tile << TILE_SHIFT | LEAD_KEY


def move_code(tile: int, key: int) -> int:
    """The code of placing the tile index `tile` on the side key `key` (crosswise)."""
    return tile << TILE_SHIFT | key


def side_key(tile: int, side: int) -> int:
    """The key of the side `side` (a code of SIDES) of the tile index `tile`."""
    return tile << SIDE_SHIFT | side


def key_tile(key: int) -> int:
    """The tile index of a side key (the target)."""
    return key >> SIDE_SHIFT


def key_side(key: int) -> int:
    """The side (a code of SIDES) of a side key."""
    return key & SIDE_BITS


def parse_tile(text: object) -> tuple[int, int]:
    """Parse "[1|4]" (or "[4|1]", normalised) into (1, 4)."""
    m = _TILE_RE.fullmatch(text.strip()) if isinstance(text, str) else None
    if not m:
        raise ValueError(f"not a tile: {text!r} (expected a tile like [1|4], halves 0 to 6)")
    a, b = int(m.group(1)), int(m.group(2))
    if a > 18 or b > 18:  # larger sets: two-digit halves up to 18 ([10|18])
        raise ValueError(f"not a tile: {text!r} (halves are 0 to 6, up to 18 in larger sets)")
    return (a, b) if a <= b else (b, a)


def format_tile(tile: Sequence[object]) -> str:
    """Format (1, 4) as "[1|4]"."""
    a, b = tile
    return f"[{a}|{b}]"


def as_tile(value: str | Sequence[int | str]) -> tuple[int, int]:
    """Accept a tile as a tuple, a list or text; return the normalised tuple."""
    if isinstance(value, str):
        return parse_tile(value)
    try:
        a, b = value
        a, b = int(a), int(b)
    except (TypeError, ValueError):
        raise ValueError(f"not a tile: {value!r}") from None
    if not (0 <= a <= 18 and 0 <= b <= 18):  # larger sets: up to double-eighteen
        raise ValueError(f"not a tile: {value!r} (halves must be 0 to 6, up to 18 in larger sets)")
    return (a, b) if a <= b else (b, a)


def tile_index(value: Any) -> int:
    """The index of a tile given as an index, a tuple, a list or text."""
    if value.__class__ is not list:
        i = ANY_INDEX.get(value)
        if i is not None:
            return i
    if isinstance(value, int):  # every index of the tables is in ANY_INDEX: this one is not a tile
        raise ValueError(f"not a tile: {value!r} (tile indices are 0 to {N_TILES - 1})")
    i = None
    if type(value) is str:
        i = _TEXT_INDEX.get(value)
    elif type(value) is tuple:
        try:
            i = INDEX.get(value)
        except TypeError:  # unhashable halves: as_tile says what is wrong
            pass
    return INDEX[as_tile(value)] if i is None else i


def mask_tiles(mask: int) -> list[tuple[int, int]]:
    """The tiles of a bitmask, sorted."""
    out = []
    big = mask >> 28  # larger sets: index order is not tile order
    while mask:
        low = mask & -mask
        out.append(TILES[low.bit_length() - 1])
        mask ^= low
    if big:
        out.sort()
    return out


def mask_indices(mask: int) -> list[int]:
    """The tile indices of a bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _pips_table(first: int) -> list[int]:
    """Pips of every subset of the (up to) 14 tiles from index `first`."""
    width = min(14, N_TILES - first)
    out = [0] * (1 << width)
    for m in range(1, 1 << width):
        low = m & -m
        out[m] = out[m ^ low] + PIPS[first + low.bit_length() - 1]
    return out


_PIPS_0, _PIPS_1 = _pips_table(0), _pips_table(14)  # the double-six set
_PIPS_LARGER: list[list[int]] = []  # the tiles past the double-six set, 14 at a time: made on first use


def _larger_pips_tables() -> list[list[int]]:
    """The pip tables of the tiles past the double-six set (made once, when a larger set is first counted:
    building them at import cost every engine command about 15 ms)."""
    if not _PIPS_LARGER:
        _PIPS_LARGER.extend(_pips_table(k) for k in range(28, N_TILES, 14))
    return _PIPS_LARGER


def mask_pips(mask: int) -> int:
    """Pip total of the tiles of a bitmask (a table lookup per 14 tiles)."""
    total = _PIPS_0[mask & 0x3FFF] + _PIPS_1[mask >> 14 & 0x3FFF]  # the double-six set: two look-ups
    mask >>= 28
    if mask:  # larger sets
        for table in _larger_pips_tables():
            total += table[mask & 0x3FFF]
            mask >>= 14
    return total


def masks_pips(masks: Sequence[int]) -> list[int]:
    """`mask_pips` of each mask (a round's hands at its end, in one call; a loop, quicker than a
    list comprehension, which is a function call in Python 3.11)."""
    out = []
    for m in masks:
        out.append(mask_pips(m) if m >> 28 else _PIPS_0[m & 0x3FFF] + _PIPS_1[m >> 14])  # (larger sets: mask_pips)
    return out


_TILE_RE = re.compile(r"\[\s*(\d|1[0-8])\s*\|\s*(\d|1[0-8])\s*\]")  # larger sets: halves up to 18
_MOVE_RE = re.compile(r"\s*(\[[^\]]*\])(?:\s+on\s+(\[[^\]]*\])\s+([a-z-]+))?(?:\s+(endwise|crosswise))?\s*")
_CLAIM_RE = re.compile(r"(.*?)\s+claim\s+(-?\d+)\s*")  # the muggins rule: "... claim 2"


@dataclass(frozen=True, order=True)
class Move:
    """A lead (`target is None`) or a placement of `tile` on `target`'s free `side`.

    `endwise`: the sniff laid in the line; written with the suffix ` endwise`.
    `draw`: the draw move `draw` (`a player may draw while able to place`): one tile from the
    boneyard instead of a placement; its `tile` means nothing (it is [0|0]): read `draw` first."""

    tile: tuple[int, int]
    target: tuple[int, int] | None = None
    side: str | None = None
    endwise: bool = False
    # the muggins rule: the points its player claims with it (shown), or None; what a
    # player says with a move, not which move it is (moves equal without it; `claims.py`)
    claim: int | None = field(default=None, compare=False)
    draw: bool = False  # the draw move
    _code: ClassVar[int]  # (an instance attribute, set by `code()`: the engine's code, computed once)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tile", as_tile(self.tile))
        if self.target is not None:
            object.__setattr__(self, "target", as_tile(self.target))
        if (self.target is None) != (self.side is None):
            raise ValueError("a placement names both a target tile and a side; a lead names neither")
        if self.side is not None and self.side not in SIDE_CODE:
            raise ValueError(f"unknown side {self.side!r} (sides: {', '.join(SIDES)})")
        if self.claim is not None and type(self.claim) is not int:
            raise ValueError(f"a claim is a whole number of points, not {self.claim!r}")

    def __str__(self) -> str:
        if self.draw:
            return "draw"
        text = format_tile(self.tile) if self.target is None else \
            f"{format_tile(self.tile)} on {format_tile(self.target)} {self.side}"
        if self.endwise:
            text += " endwise"
        return text if self.claim is None else f"{text} claim {self.claim}"  # the muggins rule

    def __repr__(self) -> str:
        if self.draw:
            return "Move(draw=True)"
        ew = ", endwise=True" if self.endwise else ""  # (a crosswise move reads as before the sniff)
        said = "" if self.claim is None else f", claim={self.claim}"  # the muggins rule
        return f"Move(tile={self.tile!r}, target={self.target!r}, side={self.side!r}{ew}{said})"

    def sort_key(self) -> tuple[tuple[int, int], tuple[int, int], str, bool]:
        """Sort by tile, then target tile, then side (a lead first), then crosswise before endwise; a draw last."""
        if self.draw:
            return ((99, 99), (99, 99), "", False)
        return (self.tile, self.target or (-1, -1), self.side or "", self.endwise)

    @classmethod
    def parse(cls, text: object) -> Move:
        """Parse canonical notation: "[1|5] on [1|1] branch-a" or "[1|4]"."""
        if not isinstance(text, str):
            raise ValueError(f"a move is text like '[1|5] on [1|1] branch-a' or '[1|4]', not {text!r}")
        move = _PARSED.get(text)
        if move is not None:
            return move
        if text.strip() == "draw":  # the draw move
            return move_from_code(DRAW_CODE)
        said = _CLAIM_RE.fullmatch(text)
        if said is not None:  # the muggins rule: "[1|5] on [1|1] high claim 2"
            return replace(cls.parse(said.group(1)), claim=int(said.group(2)))
        m = _MOVE_RE.fullmatch(text)
        if not m:
            raise ValueError(
                f"cannot read move {text!r}: write a lead as '[1|4]' and a placement as "
                "'[1|5] on [1|1] branch-a' (tile, 'on', target tile, side, and 'endwise' for a spinner laid "
                "in the line), or 'draw' where a player may draw while able to place")
        tile = parse_tile(m.group(1))
        endwise = m.group(4) == "endwise"  # "crosswise" is the default spelling, written or not
        if m.group(2) is None:
            move = cls(tile, endwise=endwise)
        else:
            side = m.group(3)
            if side not in SIDE_CODE:
                raise ValueError(f"cannot read move {text!r}: unknown side {side!r} (sides: {', '.join(SIDES)})")
            move = cls(tile, parse_tile(m.group(2)), side, endwise)
        if cls is Move and str(move) == text:
            move = move_from_code(move.code())  # canonical text: remember the interned move
            _PARSED[text] = move
        return move

    # -- internal code: tile << TILE_SHIFT | target << SIDE_SHIFT | side (the Move codes above)
    def code(self) -> int:
        """The engine's integer code for this move."""
        c: int | None = self.__dict__.get("_code")  # interned moves, and moves asked before, know it
        if c is None:
            if self.draw:
                c = DRAW_CODE
            elif self.target is None or self.side is None:  # (a Move has both or neither)
                c = lead_code(INDEX[self.tile])
            else:
                c = move_code(INDEX[self.tile], side_key(INDEX[self.target], SIDE_CODE[self.side]))
            if self.endwise and not self.draw:
                c |= ENDWISE
            object.__setattr__(self, "_code", c)
        return c


# Interned moves: one Move object per code, built on first use (the set of codes is small and fixed)
_MOVE_OF: dict[int, Move] = {}
MOVES = _MOVE_OF  # (read-only outside: `MOVES.get(code) or move_from_code(code)` saves a call)
_PARSED: dict[str, Move] = {}  # canonical text -> interned Move


def move_from_code(code: int) -> Move:
    """The (interned) Move of the engine's integer code."""
    move = _MOVE_OF.get(code)
    if move is None and code == DRAW_CODE:
        move = Move((0, 0), draw=True)
        object.__setattr__(move, "_code", code)
        _MOVE_OF[code] = move
    if move is None:
        key = code_key(code)
        tile = TILES[code_tile(code)]
        ew = code >= ENDWISE  # the sniff laid endwise
        move = Move(tile, endwise=ew) if key == LEAD_KEY else Move(tile, TILES[key_tile(key)], SIDES[key_side(key)], ew)
        object.__setattr__(move, "_code", code)
        _MOVE_OF[code] = move
    return move


# -- larger sets: tile order for lists of codes or keys that may hold tiles past the double-six set

_SIX_KEYS = side_key(28, 0)  # a side key at or past this is a larger set's tile


def _code_key(c: int) -> tuple[int, int, int, int]:
    if c == DRAW_CODE:
        return (N_TILES, 0, 0, 0)  # the draw move last
    k = code_key(c)
    return (SORT_KEY[code_tile(c)], -1 if k == LEAD_KEY else SORT_KEY[key_tile(k)], key_side(k), c >= ENDWISE)


def in_tile_order(codes: list[int]) -> list[int]:
    """Move codes sorted by tile, target tile, side (crosswise, then endwise); a double-six list of
    crosswise moves (already in that order) as it is."""
    for c in codes:
        if c >> TILE_SHIFT >= 28 or _SIX_KEYS <= code_key(c) < LEAD_KEY:  # (an endwise code's tile part is >= 256)
            return sorted(codes, key=_code_key)
    return codes
# -- end larger sets
