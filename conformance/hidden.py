"""What a seat may know, and the tiles a view names in any notation: the check of PROTOCOL.md 2.1.

A seat sees its own hand and the layout. The runner works both out from the case
itself (the hand the case states at the `observe` step; the layout from the case's
applied moves since the round's lead), never from the engine's answer, and reads
every tile the answer names, under any key, in every notation the protocol or a
reader would take for a tile: `[a|b]`, `[b|a]`, `[a | b]`, `a|b`, `[a,b]` in a
text, a JSON list of two whole numbers (`[a, b]`, also inside a list of tiles
`[[a, b]]`), and the Unicode domino tiles U+1F031..U+1F061 and U+1F063..U+1F093.
The first tile outside what the seat may know is the case's difference.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

TOP = 18  # the largest set's top half (double-eighteen): a written tile with a half above it is no tile
_BAR = re.compile(r"(?<!\d)(\d{1,2})\s*\|\s*(\d{1,2})(?!\d)")  # [a|b], [b|a], [a | b], a|b
_COMMA = re.compile(r"\[\s*(\d{1,2})\s*,\s*(\d{1,2})\s*\]")  # [a,b] written in a text
_HORIZONTAL, _VERTICAL = 0x1F031, 0x1F063  # DOMINO TILE HORIZONTAL-00-00 / VERTICAL-00-00; the backs name nothing
# a view's own lists of numbers, which are no tiles: the scores per side, the points of each move
NUMBERS = frozenset({"scores", "shown_scores", "move_points"})


def tile_text(a: int, b: int) -> str:
    """A tile in the canonical notation, low half first."""
    return f"[{min(a, b)}|{max(a, b)}]"


def _in_text(text: str) -> Iterator[str]:
    for found in (_BAR, _COMMA):
        for m in found.finditer(text):
            a, b = int(m[1]), int(m[2])
            if a <= TOP and b <= TOP:
                yield tile_text(a, b)
    for ch in text:
        for first in (_HORIZONTAL, _VERTICAL):
            k = ord(ch) - first
            if 0 <= k < 49:  # double-six only: seven by seven faces
                yield tile_text(k // 7, k % 7)


def _is_number(x: Any) -> bool:
    return type(x) is int


def named_tiles(view: dict[str, Any], path: str, top: int = TOP) -> Iterator[tuple[str, str]]:
    """Every tile a seat's VIEW names, as (JSON path, canonical tile), keys included; a list of two whole
    numbers from 0 to TOP is a tile, but for the view's own lists of numbers (NUMBERS)."""
    for key, x in view.items():
        for tile in _in_text(str(key)):
            yield f"{path}.{key}", tile
        if str(key) not in NUMBERS:  # the view's scores and move points: numbers, never tiles
            yield from _named(x, f"{path}.{key}", top)


def _named(obj: Any, path: str, top: int) -> Iterator[tuple[str, str]]:
    if isinstance(obj, str):
        for tile in _in_text(obj):
            yield path, tile
    elif isinstance(obj, list):
        if len(obj) == 2 and all(_is_number(x) and 0 <= x <= top for x in obj):
            yield path, tile_text(obj[0], obj[1])
            return
        for k, x in enumerate(obj):
            yield from _named(x, f"{path}[{k}]", top)
    elif isinstance(obj, dict):
        for k, x in obj.items():
            for tile in _in_text(str(k)):
                yield f"{path}.{k}", tile
            yield from _named(x, f"{path}.{k}", top)


def dealt_top(case: dict[str, Any]) -> int:
    """The top half of the set the case deals from, as far as its deals show it (6, 9 or 12)."""
    high = 0
    for deal in [case.get("setup", {}), *case.get("next_rounds", [])]:
        for t in [t for h in deal.get("hands", []) for t in h] + list(deal.get("boneyard", [])):
            for m in _BAR.finditer(t):
                high = max(high, int(m[1]), int(m[2]))
    return 6 if high <= 6 else 9 if high <= 9 else TOP


def _moved_tile(move: str) -> str | None:
    m = _BAR.search(move)
    return None if m is None else tile_text(int(m[1]), int(m[2]))


def tables(case: dict[str, Any]) -> list[frozenset[str]]:
    """For each step, the tiles on the table before it, by the case's own moves: an applied lead (a `play`
    without ` on `) starts a round's layout, each applied placement joins it, and a step the case says ended
    its round (`round` not null) leaves the next round's table empty."""
    out: list[frozenset[str]] = []
    table: set[str] = set()
    for step in case["steps"]:
        out.append(frozenset(table))
        if "reject" in step:
            continue
        play = step.get("play")
        tile = _moved_tile(play) if isinstance(play, str) else None
        if tile is not None:
            if " on " not in play:
                table = set()
            table.add(tile)
        if isinstance((step.get("expect") or {}).get("round"), dict):
            table = set()
    return out
