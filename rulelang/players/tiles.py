"""Tiles as the engine writes them ((low, high) tuples) and the set a layout accepts."""
from __future__ import annotations

from rulelang.interpreter import Layout

ALL_TILES: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(7) for b in range(a, 7))


def fitting_tiles(layout: Layout) -> list[tuple[int, int]]:
    """The tiles that would fit some free side of `layout` (its read-only `ends` mask, in tile sort order)."""
    ends = layout.ends
    return [t for i, t in enumerate(ALL_TILES) if ends >> i & 1]
