"""The end-of-round settlement (settlement.domino / settlement.block) as pure functions.

What a settlement pays depends only on the configuration's settlement spec, the
hands left (bitmasks), the side of each seat, the opener and the round's winner;
the round applies the payments it returns as scoring events, in order.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .rules import round5, round_to
from .tiles import BIT, IS_DOUBLE, N_TILES, PIPS, mask_indices, mask_pips

# A payment: (receiving side, raw points, the seat it concerns or None)
Payment = tuple[int, int, "int | None"]
# An amount of a term: (receiving side, raw, seat, order key, term index)
_Amount = tuple[int, int, "int | None", tuple[int, ...], int]


_DOUBLES = sum(BIT[t] for t in range(N_TILES) if IS_DOUBLE[t])  # every double of the largest set


def hand_count(mask: int, half: bool = False) -> int:
    """A hand's count at the end of a round: its pips, or with `half` (scoring.hand_doubles one-half,
    "a double left in hand counts one half") each double counting one half ([4|4] counts 4)."""
    if half:
        return mask_pips(mask) - mask_pips(mask & _DOUBLES) // 2
    return mask_pips(mask)


def block_winner(spec: Mapping[str, Any], hands: Sequence[int], sides: Sequence[int], opener: int,
                 half: bool = False) -> int | None:
    """The seat winning a blocked round (block.winner: lightest-hand, tie_break fewest-tiles or lightest-tile), or None."""
    if spec["winner"] == "none":
        return None  # "winner: none"
    if spec["winner"] in ("fewest-tiles", "lightest-side"):
        return _house_block_winner(spec["winner"], hands, sides, opener, half)  # family tier B
    # "winner: the lightest hand, ties broken by fewest tiles" / "..., ties not broken"
    pips = [hand_count(h, half) for h in hands]
    low = min(pips)
    tied = [s for s in clockwise(len(hands), opener) if pips[s] == low]
    # "partners' ties too" (block.partners_tie no-winner): partners sharing the lightest hand do not win together
    alone = spec.get("partners_tie", "side-wins") == "no-winner"
    if (len(tied) == 1) if alone else (len({sides[s] for s in tied}) == 1):
        return tied[0]  # shared only within one side: that side wins, first seat clockwise
    if spec["tie_break"] == "fewest-tiles":
        counts = {s: hands[s].bit_count() for s in tied}
        few = min(counts.values())
        tied = [s for s in tied if counts[s] == few]
        if (len(tied) == 1) if alone else (len({sides[s] for s in tied}) == 1):
            return tied[0]
    elif spec["tie_break"] == "lightest-tile":
        # "..., ties broken by lightest tile" (family.md reading 21, brogames): the hand holding the tile
        # with the fewest pips (an empty hand counts as holding a tile of 0)
        light = {s: min((PIPS[t] for t in mask_indices(hands[s])), default=0) for s in tied}
        least = min(light.values())
        tied = [s for s in tied if light[s] == least]
        if (len(tied) == 1) if alone else (len({sides[s] for s in tied}) == 1):
            return tied[0]
    return None  # still shared across sides: no winner


def domino_winner(spec: Mapping[str, Any], hands: Sequence[int], sides: Sequence[int], dominoer: int,
                  half: bool = False) -> int | None:
    """The seat winning a domino: the dominoer, or (domino.winner lightest-side, family.md 3.9) the first
    seat clockwise from the dominoer of the side with the lowest pip total; equal lowest totals: None."""
    if spec.get("winner", "dominoer") == "dominoer":
        return dominoer
    return _house_block_winner("lightest-side", hands, sides, dominoer, half)


def _house_block_winner(rule: str, hands: Sequence[int], sides: Sequence[int], opener: int,
                        half: bool = False) -> int | None:
    """Family tier B block winners: by fewest tiles then pips, or by the sides' pip totals."""
    order = clockwise(len(hands), opener)
    if rule == "fewest-tiles":
        # "winner: the fewest tiles, ties broken by lightest hand": rank by (tiles, pips)
        rank = {s: (hands[s].bit_count(), hand_count(hands[s], half)) for s in order}
        best = min(rank.values())
        tied = [s for s in order if rank[s] == best]
        return tied[0] if len({sides[s] for s in tied}) == 1 else None
    # "winner: the lightest side": the pip total of each side (both partners' hands with partnerships)
    totals: dict[int, int] = {}
    for s in order:
        totals[sides[s]] = totals.get(sides[s], 0) + hand_count(hands[s], half)
    low = min(totals.values())
    if list(totals.values()).count(low) > 1:
        return None  # equal totals: no winner
    return next(s for s in order if totals[sides[s]] == low)  # its first seat clockwise from the opener


def settle(spec: Mapping[str, Any], hands: Sequence[int], sides: Sequence[int], opener: int,
           winner: int | None, fold: int = 0, bonus: int = 0, half: bool = False) -> list[Payment]:
    """The settlement's payments in the order they apply (settlement.events).

    `fold` is a last placement's points folded into the winner side's first event
    ("as one event with the last placement"); `bonus` the domino bonus ("bonus N points
    to the winner"), which joins that event too, or comes first as its own event when
    the settlement makes one event per term or per hand."""
    amounts = _amounts(spec, [hand_count(h, half) for h in hands], sides, opener, winner)
    mode = spec["events"]
    order = sides_clockwise(sides, opener if winner is None else winner)
    wside = None if winner is None else sides[winner]
    events: list[Payment] = []
    if bonus and wside is not None:
        if mode == "one":
            fold += bonus
        else:
            events.append((wside, bonus, winner))
    if mode == "one":
        # "as one event": one event per receiving side, the winner's side first, then clockwise
        totals = dict.fromkeys(order, 0)
        got = set()
        for sd, raw, _, _, _ in amounts:
            totals[sd] += raw
            got.add(sd)
        if fold and wside is not None:
            totals[wside] += fold
            got.add(wside)
        for sd in order:
            if sd in got:
                events.append((sd, totals[sd], winner if sd == wside else None))
    elif mode == "per-term":
        # "one event per term": per term, one event per side (the winner's side first)
        for k in range(len(spec["terms"])):
            for sd in order:
                raw = sum(a[1] for a in amounts if a[0] == sd and a[4] == k)
                if raw:
                    events.append((sd, raw, winner if sd == wside else None))
    else:
        # "one event per hand": hand amounts in ascending pips, ties clockwise from the opener;
        # then pooled amounts in term order
        for sd, raw, seat, _, _ in sorted(amounts, key=lambda a: a[3]):
            events.append((sd, raw, seat))
    return events


def _amounts(spec: Mapping[str, Any], pips: Sequence[int], sides: Sequence[int], opener: int,
             winner: int | None) -> list[_Amount]:
    """The settlement terms' amounts: (receiving side, raw, seat, order key, term index), from each hand's pips."""
    n = len(pips)
    rank = _RANK[n][opener]  # position of each seat clockwise from the opener
    wside = None if winner is None else sides[winner]
    out: list[_Amount] = []
    for k, term in enumerate(spec["terms"]):
        rounding = term["rounding"]
        # "rounded to N" (roundN) / "not rounded"
        rnd = round5 if rounding == "round5" else _unrounded if rounding == "none" else \
            round_to(int(rounding[len("round"):]))
        sign = -1 if term["sign"] == "debit" else 1
        if term["kind"] == "differences":
            # "credit each hand the differences to heavier opponents' hands, rounded to 5"
            for h in range(n):
                total = sum(pips[o] - pips[h] for o in range(n) if sides[o] != sides[h] and pips[o] > pips[h])
                out.append((sides[h], sign * rnd(total), h, (0, pips[h], rank[h], k), k))
            continue
        if term["kind"] == "heaviest":
            # "credit the heaviest opponent's hand only, rounded to 5, to the winner" (family.md reading 12):
            # the winner's side gets the heaviest single opposing hand; on equal ones, the first clockwise
            if winner is None or wside is None:
                continue
            opp = [s for s in clockwise(n, opener) if sides[s] != wside]
            if opp:
                h = max(opp, key=lambda s: pips[s])  # (max keeps the first of equal ones)
                out.append((wside, sign * rnd(pips[h]), h, (0, pips[h], rank[h], k), k))
            continue
        sel = term["hands"]
        to = term["to"]
        if winner is None or wside is None:
            if to == "winner" or sel != "everyone":
                continue  # terms that mention the winner yield nothing without one
        if sel == "opponents":
            seats = [s for s in range(n) if sides[s] != wside]
        elif sel == "partner":
            seats = [s for s in range(n) if sides[s] == wside and s != winner]
        elif sel == "own":
            assert winner is not None
            seats = [winner]
        else:
            seats = list(range(n))
        if term["pooling"] == "each":
            # "... hands separately": each hand rounded by itself
            for s in seats:
                recv = wside if to == "winner" else sides[s]
                assert recv is not None
                out.append((recv, sign * rnd(pips[s]), s, (0, pips[s], rank[s], k), k))
        elif to == "winner":
            # "... hands pooled ..., to the winner": summed and rounded once
            assert wside is not None
            out.append((wside, sign * rnd(sum(pips[s] for s in seats)), winner, (1, k), k))
        else:
            # "... pooled ..., to each owner": each owner side's hands summed and rounded once
            for sd in sides_clockwise(sides, opener):
                mine = [s for s in seats if sides[s] == sd]
                if mine:
                    out.append((sd, sign * rnd(sum(pips[s] for s in mine)), None, (1, k, rank[mine[0]]), k))
    return [a for a in out if a[1]]  # zero amounts are dropped


def clockwise(players: int, start: int) -> tuple[int, ...]:
    """The seats clockwise from `start`."""
    return _CLOCKWISE[players][start]


def sides_clockwise(sides: Sequence[int], start: int) -> tuple[int, ...]:
    """The sides in seat order clockwise from seat `start`, each once."""
    key = (tuple(sides), start)
    out = _SIDES_CW.get(key)
    if out is None:
        order: list[int] = []
        for seat in clockwise(len(sides), start):
            if sides[seat] not in order:
                order.append(sides[seat])
        out = _SIDES_CW[key] = tuple(order)
    return out


_SEATS = range(1, 13)  # tables for up to 12 seats (larger sets: double-twelve)
# _CLOCKWISE[n][start]: the seats clockwise from `start`; _RANK[n][start][seat]: how far `seat` is from `start`
_CLOCKWISE = {n: tuple(tuple((s + i) % n for i in range(n)) for s in range(n)) for n in _SEATS}
_RANK = {n: tuple(tuple((seat - s) % n for seat in range(n)) for s in range(n)) for n in _SEATS}
_SIDES_CW: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}


def _unrounded(x: int) -> int:
    return x
