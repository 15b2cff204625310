"""Dealing and the highest-double opener: how a round starts, before any rule of play applies."""
from __future__ import annotations

import random
from collections.abc import Sequence

from .config import Config
from .tiles import BIT, HI, IS_DOUBLE, LO, N_TILES, PIPS

# highest-double: doubles from the highest down, then the heaviest non-doubles (equal pips: larger high half)
_RANK_ORDER = sorted(range(N_TILES), key=lambda t: (IS_DOUBLE[t], PIPS[t] if not IS_DOUBLE[t] else LO[t], HI[t]),
                     reverse=True)


def deciding_tile(mask: int) -> int:
    """The tile deciding a hand's rank under highest-double."""
    for t in _RANK_ORDER:
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
    d = list(range(N_TILES))
    for i in range(N_TILES - 1, 0, -1):
        j = int(rand() * (i + 1))
        d[i], d[j] = d[j], d[i]
    h = cfg.hand_size(players)
    return [d[k * h:(k + 1) * h] for k in range(players)], d[players * h:]
