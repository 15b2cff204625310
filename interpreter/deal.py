"""Dealing, reading an explicit deal, and the openers by a double: how a round starts, before any rule of play."""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final, NamedTuple

from .config import Config
from .tiles import (
    ANY_BIT,
    ANY_INDEX,
    BIT,
    HI,
    INDEX,
    IS_DOUBLE,
    LO,
    N_TILES,
    PIPS,
    SETS,
    TILES,
    format_tile,
    mask_pips,
    tile_index,
)

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
    return holder_of(masks, deciding_tile)


def holder_of(masks: Sequence[int], rank: Callable[[int], int]) -> int:
    """The seat holding the tile `rank` picks from all the hands together."""
    held = 0
    for m in masks:
        held |= m
    b = BIT[rank(held)]
    for seat, m in enumerate(masks):
        if m & b:
            return seat
    raise AssertionError("unreachable")


# "opener ...: the heaviest tile": every tile from the heaviest down (most pips; equal pips: the larger high half), a
# double ranked like any other tile (Majestic Hotel Harrogate: "the highest number of dots on a domino")
_WEIGHT_ORDER = sorted(range(N_TILES), key=lambda t: (PIPS[t], HI[t]), reverse=True)


def heaviest_tile(mask: int) -> int:
    """The heaviest tile of a hand (most pips; equal pips: the larger high half; a double is ranked like any other tile)."""
    for t in _WEIGHT_ORDER:
        if mask & BIT[t]:
            return t
    raise ValueError("empty hand")


# the openers by a tile, each with the tile that ranks a hand: the holder of the top one opens, and under
# `opener leads the deciding tile` leads its own
BY_TILE: Final[dict[str, Callable[[int], int]]] = {"highest-double": deciding_tile, "heaviest-tile": heaviest_tile}


def deal_tiles(cfg: Config, players: int, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """Shuffle the set (Fisher-Yates with rng.random()) and deal: (hands as index lists, boneyard)."""
    d = _shuffled(SETS[cfg.tiles], rng)  # larger sets: the first n indices (double-six: the same 28 as always)
    h = cfg.hand_size(players)
    return [d[k * h:(k + 1) * h] for k in range(players)], d[players * h:]


def mask_of(indices: Sequence[int]) -> int:
    """Tile indices as a bitmask (a hand given as indices: an explicit deal, a seat's opening draws)."""
    m = 0
    for i in indices:
        m |= BIT[i]
    return m


def deal_masks(cfg: Config, players: int, rng: random.Random) -> tuple[list[int], list[int]]:
    """The deal of `deal_tiles` (the same tiles from the same generator) with the hands as bitmasks, made as
    they are dealt: a random round's set-up reads them so, and the index lists are never built."""
    d = _shuffled(SETS[cfg.tiles], rng)
    h = cfg.hand_size(players)
    masks: list[int] = []
    k = 0
    for _ in range(players):
        m = 0
        for i in range(k, k + h):
            m |= BIT[d[i]]
        masks.append(m)
        k += h
    return masks, d[k:]


def _shuffled(n: int, rng: random.Random) -> list[int]:
    """The indices 0..n-1 shuffled by Fisher-Yates with rng.random() (the order every seeded deal promises)."""
    rand = rng.random
    d = list(range(n))
    for i in range(n - 1, 0, -1):
        j = int(rand() * (i + 1))
        d[i], d[j] = d[j], d[i]
    return d


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


# -- rounds opened by a double: a set or rotating double, and who leads when nobody holds it
# ("if nobody holds the opening double: ..."; docs/config.md, opener.no_double)

DOUBLE_OPENERS = ("highest-double", "double-six", "rotating-double", "lowest-double")
_SET_DOUBLES = {top: sum(BIT[t] for t in range(n) if IS_DOUBLE[t]) for top, n in SETS.items()}
# every double of the largest set, as a hand mask: a hand of a smaller set holds only its own ("opener leads any
# double, ...")
DOUBLES: Final = _SET_DOUBLES[max(SETS)]
_RANK = {t: r for r, t in enumerate(_RANK_ORDER)}  # 0: the highest double


class Opening(NamedTuple):
    """How a round opened by a double starts: who leads (-1: nobody holds it and the deal is thrown in),
    the tile the lead must be (-1: any), and the opening draws (seat, tile) in draw order."""

    opener: int
    forced: int
    drawn: tuple[tuple[int, int], ...]


def round_double(cfg: Config, rule: str, round_no: int) -> int:
    """The double a round opened by `rule` wants: [6|6], the rotating double of round `round_no` (the set's
    top double first, then one lower each round, after [0|0] the top again), or -1 for any double (the
    highest or the lowest double)."""
    if rule == "double-six":
        return INDEX[(6, 6)]
    if rule == "rotating-double":
        d = cfg.tiles - round_no % (cfg.tiles + 1)
        return INDEX[(d, d)]
    return -1


def holds_double(cfg: Config, rule: str, masks: Sequence[int], round_no: int) -> bool:
    """Whether some hand holds the double that opens the round (any double under the highest double)."""
    want = round_double(cfg, rule, round_no)
    bits = BIT[want] if want >= 0 else _SET_DOUBLES[cfg.tiles]
    for m in masks:
        if m & bits:
            return True
    return False


def redeals(cfg: Config, rule: str) -> bool:
    """Whether a deal of a round opened by `rule` may be thrown in (`thrown_in` says whether it is)."""
    return cfg.redeal_doubles is not None or cfg.no_double == "redeal" and rule in DOUBLE_OPENERS


def thrown_in(cfg: Config, rule: str, masks: Sequence[int], round_no: int) -> bool:
    """A deal thrown in: one hand holds N or more doubles (`the tiles are dealt again when a hand holds N or
    more doubles`), or `...: the tiles are dealt again` and nobody holds the double opening the round."""
    least = cfg.redeal_doubles
    if least is not None:
        doubles = _SET_DOUBLES[cfg.tiles]
        for m in masks:
            if (m & doubles).bit_count() >= least:
                return True
    return cfg.no_double == "redeal" and rule in DOUBLE_OPENERS and not holds_double(cfg, rule, masks, round_no)


def _by_lowest_double(cfg: Config, masks: Sequence[int]) -> Opening:
    """"...: the lowest double": its holder leads ([0|0] first), that double under a forced lead."""
    for d in range(cfg.tiles + 1):
        t = INDEX[(d, d)]
        for seat, m in enumerate(masks):
            if m & BIT[t]:
                return Opening(seat, t if cfg.lead == "forced" else -1, ())
    raise AssertionError("unreachable: a double is held")


def _by_heaviest_tile(cfg: Config, masks: Sequence[int]) -> Opening:
    opener = highest_holder(masks)  # the highest double held, else the heaviest tile
    return Opening(opener, deciding_tile(masks[opener]) if cfg.lead == "forced" else -1, ())


def draws_to_a_double(masks: list[int], seat: int, bone: Sequence[int],
                      bend: int) -> tuple[list[int], tuple[tuple[int, int], ...]]:
    """`opener leads any double, drawing until one turns up`: an opener holding no double draws from the front of
    the boneyard (its first `bend` tiles) until it draws one (the boneyard out: it stops). The hands with the
    draws, and the draws as opening draws, (seat, tile) each."""
    if masks[seat] & DOUBLES:
        return masks, ()
    masks = list(masks)
    drawn = []
    for k in range(bend):
        t = bone[k]
        masks[seat] |= BIT[t]
        drawn.append((seat, t))
        if IS_DOUBLE[t]:
            break
    return masks, tuple(drawn)


def open_by_double(cfg: Config, rule: str, masks: list[int], bone: Sequence[int], bend: int, round_no: int,
                   previous: int | None) -> Opening:
    """Who opens a round opened by a double, and with what; the opening draws (`draw`) join `masks` in place.

    Held: its holder leads it (the highest and the lowest double: as `opener.lead` says). Held by nobody, `cfg.no_double`:
    the heaviest tile (the highest double held first, for a set double), draws from seat 0 in turn from the
    first `bend` tiles of the boneyard until a double turns up (run out: the heaviest tile), the heaviest
    hand (any tile), the seat after `previous` (seat 0 in the first round; any tile, or its own highest double,
    else its heaviest tile), or thrown in."""
    want = round_double(cfg, rule, round_no)
    if holds_double(cfg, rule, masks, round_no):
        if want < 0:  # any double: the highest, or the lowest ("...: the lowest double")
            return _by_lowest_double(cfg, masks) if rule == "lowest-double" else _by_heaviest_tile(cfg, masks)
        return Opening(next(s for s, m in enumerate(masks) if m & BIT[want]), want, ())
    how = cfg.no_double
    if how == "heaviest-hand":
        best = max(range(len(masks)), key=lambda s: (mask_pips(masks[s]), -_RANK[deciding_tile(masks[s])]))
        return Opening(best, -1, ())
    if how == "next-seat":
        return Opening(0 if previous is None else (previous + 1) % len(masks), -1, ())
    if how == "next-seat-double":  # "...: the lead passes to the next seat, who must lead its highest double"
        seat = 0 if previous is None else (previous + 1) % len(masks)
        return Opening(seat, deciding_tile(masks[seat]), ())
    if how == "redeal":
        return Opening(-1, -1, ())
    if how == "draw":
        drawn = []
        seat = 0
        for k in range(bend):
            t = bone[k]
            masks[seat] |= BIT[t]
            drawn.append((seat, t))
            if IS_DOUBLE[t]:
                return Opening(seat, t, tuple(drawn))
            seat = (seat + 1) % len(masks)
        opener = highest_holder(masks)  # the boneyard ran out first: the heaviest tile
        return Opening(opener, deciding_tile(masks[opener]) if cfg.lead == "forced" else -1, tuple(drawn))
    return _by_heaviest_tile(cfg, masks)
