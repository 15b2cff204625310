"""Dealing, reading an explicit deal, and the highest-double opener: how a round starts, before any rule of play."""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .config import Config
from .tiles import ANY_BIT, ANY_INDEX, BIT, HI, IS_DOUBLE, LO, N_TILES, PIPS, SETS, TILES, format_tile, tile_index

# highest-double: doubles from the highest down, then the heaviest non-doubles (equal pips: larger high half)
_RANK_ORDER = sorted(range(N_TILES), key=lambda t: (IS_DOUBLE[t], PIPS[t] if not IS_DOUBLE[t] else LO[t], HI[t]),
                     reverse=True)
# -- larger sets: the same order over the double-six set alone (its masks never go past bit 27)
_RANK_ORDER_6 = [t for t in _RANK_ORDER if t < SETS[6]]
_SIX = (1 << SETS[6]) - 1


def set_tiles(cfg: Config) -> int:
    """How many tiles the configuration's set has (its first indices): 28, 55 or 91."""
    return SETS[cfg.tiles]
# -- end larger sets


def deciding_tile(mask: int) -> int:
    """The tile deciding a hand's rank under highest-double."""
    for t in (_RANK_ORDER_6 if mask <= _SIX else _RANK_ORDER):
        if mask & BIT[t]:
            return t
    raise ValueError("empty hand")


def highest_holder(masks: Sequence[int]) -> int:
    """The seat holding the highest double, else the heaviest tile."""
    held = 0
    for m in masks:
        held |= m
    b = BIT[deciding_tile(held)]
    for seat, m in enumerate(masks):
        if m & b:
            return seat
    raise AssertionError("unreachable")


def deal_tiles(cfg: Config, players: int, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """Shuffle the set (Fisher-Yates with rng.random()) and deal: (hands as index lists, boneyard)."""
    rand = rng.random
    n = SETS[cfg.tiles]  # larger sets: the first n indices (double-six: the same 28 as always)
    d = list(range(n))
    for i in range(n - 1, 0, -1):
        j = int(rand() * (i + 1))
        d[i], d[j] = d[j], d[i]
    h = cfg.hand_size(players)
    return [d[k * h:(k + 1) * h] for k in range(players)], d[players * h:]


def read_deal(hands: Sequence[Sequence[Any]], boneyard: Sequence[Any]) -> tuple[list[int], list[int]]:
    """Hands as bitmasks and the boneyard as tile indices, from tiles in any accepted form (ValueError if wrong).

    Well-formed deals take a fast path (table look-ups); anything else is read tile by tile, which
    raises at the first wrong tile, as the docs promise."""
    bits = ANY_BIT  # (a local: read once per tile)
    masks = []
    dealt = count = 0
    try:
        for h in hands:
            count += len(h)
            # a hand's mask is the sum of its tiles' bits: a tile not known (KeyError) or unhashable
            # (TypeError) goes to the slow reader
            m = 0
            for t in h:
                m += bits[t]
            masks.append(m)
            dealt += m
        bone = []
        for t in boneyard:
            i = ANY_INDEX[t]
            bone.append(i)
            dealt += BIT[i]
        count += len(bone)
    except (KeyError, TypeError):
        return _read_deal_slowly(hands, boneyard)
    # `count` bits sum to a number with `count` bits set only when they are distinct (a tile dealt twice,
    # in one hand or in two, carries): one check for the whole deal
    if dealt.bit_count() != count or not all(masks):  # (or an empty hand)
        return _read_deal_slowly(hands, boneyard)
    return masks, bone


def _read_deal_slowly(hands: Sequence[Sequence[Any]], boneyard: Sequence[Any]) -> tuple[list[int], list[int]]:
    """The deal read tile by tile: the first wrong tile, repeated tile or empty hand raises ValueError."""
    seen = 0
    masks = []
    for seat, h in enumerate(hands):
        m = 0
        for t in h:
            b = BIT[tile_index(t)]
            if seen & b:
                raise ValueError(f"tile {format_tile(TILES[tile_index(t)])} dealt twice")
            seen |= b
            m |= b
        if not m:
            raise ValueError(f"seat {seat} has an empty hand")
        masks.append(m)
    bone = []
    for t in boneyard:
        i = tile_index(t)
        if seen & BIT[i]:
            raise ValueError(f"tile {format_tile(TILES[i])} dealt twice")
        seen |= BIT[i]
        bone.append(i)
    return masks, bone
