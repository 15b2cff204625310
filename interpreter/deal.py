"""Dealing and the highest-double opener: how a round starts, before any rule of play applies."""
from __future__ import annotations

from .config import Config
from .tiles import BIT, HI, IS_DOUBLE, LO, PIPS

# highest-double: doubles from [6|6] down, then the heaviest non-doubles (equal pips: larger high half)
_RANK_ORDER = sorted(range(28), key=lambda t: (IS_DOUBLE[t], PIPS[t] if not IS_DOUBLE[t] else LO[t], HI[t]),
                     reverse=True)


def _deciding(mask: int) -> int:
    """The tile deciding a hand's rank under highest-double."""
    for t in _RANK_ORDER:
        if mask & BIT[t]:
            return t
    raise ValueError("empty hand")


def _highest_holder(masks) -> int:
    """The seat holding the highest double, else the heaviest tile."""
    held = 0
    for m in masks:
        held |= m
    b = BIT[_deciding(held)]
    for seat, m in enumerate(masks):
        if m & b:
            return seat
    raise AssertionError("unreachable")


def deal_tiles(cfg: Config, players: int, rng):
    """Shuffle the set (Fisher-Yates with rng.random()) and deal: (hands as index lists, boneyard)."""
    random = rng.random
    d = list(range(28))
    for i in range(27, 0, -1):
        j = int(random() * (i + 1))
        d[i], d[j] = d[j], d[i]
    h = cfg.hand_size(players)
    return [d[k * h:(k + 1) * h] for k in range(players)], d[players * h:]
