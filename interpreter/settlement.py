"""The end-of-round settlement (settlement.domino / settlement.block) as pure functions.

What a settlement pays depends only on the configuration's settlement spec, the
hands left (bitmasks), the side of each seat, the opener and the round's winner;
the round applies the payments it returns as scoring events, in order.

A spec is read once per configuration into a `Plan` (`Rules.domino_plan`,
`Rules.block_plan`), with the house rules that count the hands left
(`HouseRule.hands`), and the sides once per seating into `Seats` (`Seating.seats`);
the round counts the hands once (`Plan.counts`) for both the winner and the
payments (`winner_of_block`, `payments`). `block_winner` and `settle` take the
round's own Plan (`rules_of(config).domino_plan` / `.block_plan`), the hands and the
sides, so they settle as the round does, its house rules included; a bare spec is a
Plan without house rules.
(Loops, not list comprehensions, on the usual path: in Python 3.11 each comprehension is a call.)
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .hooks import HandsLeft, HouseRule
from .points import round5
from .tiles import PIPS, mask_indices, masks_pips

# A payment: (receiving side, raw points, the seat it concerns or None)
Payment = tuple[int, int, "int | None"]
# An amount of a term: (receiving side, raw, seat, order key, term index)
_Amount = tuple[int, int, "int | None", tuple[int, ...], int]


class Term:
    """One settlement term (settlement.*.terms[k], docs/config.md) with its fields read and defaulted once."""

    __slots__ = ("kind", "hands", "to_winner", "each", "sign", "rounding", "divisor", "per_tile")

    def __init__(self, term: Mapping[str, Any]):
        self.kind: str = term["kind"]  # hands / differences / heaviest / tiles / net
        # "rounded to N" (roundN): N; "not rounded" (and a tiles term, never rounded): 0
        rounding = term.get("rounding", "none")
        self.rounding: int = 0 if rounding == "none" else int(rounding[len("round"):])
        self.divisor: int = term.get("divisor", 1)  # "rounded to N and divided by D": D
        self.per_tile: int = term.get("per_tile", 0)  # a tiles term: "N points per tile": N
        self.sign: int = -1 if term["sign"] == "debit" else 1
        # (kind hands only:) everyone / opponents / partner / own, "... hands separately" or pooled, to whom
        self.hands: str = term.get("hands", "everyone")
        self.to_winner: bool = term.get("to", "winner") == "winner"
        self.each: bool = term.get("pooling") == "each"


class Plan:
    """A settlement spec (config.domino or config.block) read once per configuration: the look-ups and
    defaults a settlement would otherwise make on every round's end."""

    __slots__ = ("winner", "tie_break", "alone", "events", "terms", "with_last_placement", "bonus", "hand_rules")

    def __init__(self, spec: Mapping[str, Any], hand_rules: tuple[HouseRule, ...] = ()):
        # block.winner: lightest-hand / none / fewest-tiles / lightest-side; domino.winner: dominoer /
        # lightest-side (family.md 3.9)
        self.winner: str = spec.get("winner", "dominoer")
        self.tie_break: str = spec.get("tie_break", "none")  # block: fewest-tiles / lightest-tile / none
        # "partners' ties too" (block.partners_tie no-winner): partners sharing the lightest hand do not win together
        self.alone: bool = spec.get("partners_tie", "side-wins") == "no-winner"
        self.events: str = spec["events"]  # one / per-term / per-hand
        self.terms: tuple[Term, ...] = tuple(Term(t) for t in spec["terms"])
        # domino: "as one event with the last placement"; "bonus N points to the winner"
        self.with_last_placement: bool = bool(spec.get("with_last_placement"))  # (a block's spec has none)
        self.bonus: int = spec.get("bonus", 0)
        self.hand_rules = hand_rules  # how the hands left count ("a double left in hand counts one half")

    def counts(self, hands: Sequence[int]) -> list[int]:
        """Each hand's count at the end of a round: its pips, as the house rules count them."""
        counts = masks_pips(hands)
        if self.hand_rules:
            at = HandsLeft(tuple(hands))
            for rule in self.hand_rules:
                counts = rule.hands(at, counts)
        return counts


class Seats:
    """The seats as a settlement asks about them, found once per seating (`seats_of`)."""

    __slots__ = ("sides", "nsides", "everyone", "opponents", "partners", "clockwise", "rank", "sides_cw")

    def __init__(self, sides: tuple[int, ...]):
        n = len(sides)
        self.sides = sides  # the side of each seat (sides are score indices 0, 1, ...)
        self.nsides = max(sides) + 1
        self.everyone = tuple(range(n))
        self.opponents = tuple(tuple(s for s in range(n) if sides[s] != sd) for sd in range(self.nsides))  # per side
        self.partners = tuple(tuple(p for p in range(n) if sides[p] == sides[s] and p != s) for s in range(n))
        self.clockwise = _CLOCKWISE[n]  # [start]: the seats clockwise from `start`
        self.rank = _RANK[n]  # [start][seat]: how far `seat` is from `start`
        self.sides_cw = tuple(sides_clockwise(sides, s) for s in range(n))  # [start]: the sides clockwise


def seats_of(sides: Sequence[int]) -> Seats:
    """The Seats of `sides` (made once per seating)."""
    key = tuple(sides)
    got = _SEATS_OF.get(key)
    if got is None:
        got = _SEATS_OF[key] = Seats(key)
    return got


def plan_of(spec: Mapping[str, Any] | Plan) -> Plan:
    """The spec's Plan (a Plan is its own; a bare spec's counts the hands' pips, with no house rule)."""
    if isinstance(spec, Plan):
        return spec
    return Plan(spec)


def block_winner(plan: Mapping[str, Any] | Plan, hands: Sequence[int], sides: Sequence[int],
                 opener: int) -> int | None:
    """The seat winning a blocked round (block.winner: lightest-hand, tie_break fewest-tiles or lightest-tile),
    or None: under the round's own Plan (`rules_of(config).block_plan`), or a bare spec."""
    p = plan_of(plan)
    return winner_of_block(p, seats_of(sides), p.counts(hands), hands, opener)


def winner_of_block(p: Plan, t: Seats, pips: Sequence[int], hands: Sequence[int], opener: int) -> int | None:
    """`block_winner` from the hands' counts (`Plan.counts`) and masks."""
    if p.winner == "none":
        return None  # "winner: none"
    if p.winner == "lightest-side":
        return lightest_side(t, pips, opener)  # "winner: the lightest side"
    sides = t.sides
    if p.winner == "fewest-tiles":
        # "winner: the fewest tiles, ties broken by lightest hand": rank by (tiles, pips)
        order = t.clockwise[opener]
        rank = {s: (hands[s].bit_count(), pips[s]) for s in order}
        best = min(rank.values())
        tied = [s for s in order if rank[s] == best]
        return tied[0] if len({sides[s] for s in tied}) == 1 else None
    # "winner: the lightest hand, ties broken by fewest tiles" / "..., ties not broken"
    low = min(pips)
    tied = []
    for s in t.clockwise[opener]:
        if pips[s] == low:
            tied.append(s)
    alone = p.alone
    if len(tied) == 1 or not alone and len({sides[s] for s in tied}) == 1:
        return tied[0]  # shared only within one side: that side wins, first seat clockwise
    if p.tie_break == "fewest-tiles":
        counts = {s: hands[s].bit_count() for s in tied}
        few = min(counts.values())
        tied = [s for s in tied if counts[s] == few]
        if (len(tied) == 1) if alone else (len({sides[s] for s in tied}) == 1):
            return tied[0]
    elif p.tie_break == "lightest-tile":
        # "..., ties broken by lightest tile" (family.md reading 21, brogames): the hand holding the tile
        # with the fewest pips (an empty hand counts as holding a tile of 0)
        light = {s: min((PIPS[t] for t in mask_indices(hands[s])), default=0) for s in tied}
        least = min(light.values())
        tied = [s for s in tied if light[s] == least]
        if (len(tied) == 1) if alone else (len({sides[s] for s in tied}) == 1):
            return tied[0]
    return None  # still shared across sides: no winner


def winner_of_domino(p: Plan, t: Seats, pips: Sequence[int], dominoer: int) -> int | None:
    """The seat winning a domino: the dominoer, or (domino.winner lightest-side, family.md 3.9) the first
    seat clockwise from the dominoer of the side with the lowest pip total (`pips`: the hands' counts,
    `Plan.counts`); equal lowest totals: None."""
    return dominoer if p.winner == "dominoer" else lightest_side(t, pips, dominoer)


def lightest_side(t: Seats, pips: Sequence[int], opener: int) -> int | None:
    """"winner: the lightest side": the side with the lowest pip total (both partners' hands
    with partnerships), its first seat clockwise from `opener`; equal lowest totals: None."""
    sides = t.sides
    totals = [0] * t.nsides
    for s in t.everyone:
        totals[sides[s]] += pips[s]
    low = min(totals)
    if totals.count(low) > 1:
        return None  # equal totals: no winner
    for s in t.clockwise[opener]:
        if totals[sides[s]] == low:
            return s  # its first seat clockwise from the opener
    raise AssertionError("unreachable")


def settle(plan: Mapping[str, Any] | Plan, hands: Sequence[int], sides: Sequence[int], opener: int,
           winner: int | None, fold: int = 0, bonus: int = 0) -> list[Payment]:
    """The settlement's payments in the order they apply (settlement.events), under the round's own Plan
    (`rules_of(config).domino_plan` / `.block_plan`) or a bare spec.

    `fold` is a last placement's points folded into the winner side's first event
    ("as one event with the last placement"); `bonus` the domino bonus ("bonus N points
    to the winner"), which joins that event too, or comes first as its own event when
    the settlement makes one event per term or per hand."""
    p = plan_of(plan)
    return payments(p, seats_of(sides), p.counts(hands), opener, winner, fold, bonus, hands)


def payments(p: Plan, t: Seats, pips: Sequence[int], opener: int, winner: int | None, fold: int,
             bonus: int, hands: Sequence[int] = ()) -> list[Payment]:
    """`settle` from the hands' counts (`Plan.counts`); `hands` (the masks) for terms counted per tile."""
    amounts = _amounts(p, t, pips, opener, winner, hands)
    mode = p.events
    order = t.sides_cw[opener if winner is None else winner]
    wside = None if winner is None else t.sides[winner]
    events: list[Payment] = []
    if bonus and wside is not None:
        if mode == "one":
            fold += bonus
        else:
            events.append((wside, bonus, winner))
    if mode == "one":
        # "as one event": one event per receiving side, the winner's side first, then clockwise
        totals: dict[int, int] = {}
        for a in amounts:
            totals[a[0]] = totals.get(a[0], 0) + a[1]
        if fold and wside is not None:
            totals[wside] = totals.get(wside, 0) + fold
        for sd in order:
            if sd in totals:
                events.append((sd, totals[sd], winner if sd == wside else None))
    elif mode == "per-term":
        # "one event per term": per term, one event per side (the winner's side first)
        for k in range(len(p.terms)):
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


def _rounded(x: int, n: int) -> int:
    """`x` "rounded to N" (a term's roundN), or "not rounded" (n = 0)."""
    if n == 5:
        return round5(x)  # (looked up here, each time: the rounding of the usual games, in one place)
    if not n:
        return x
    return (x + n // 2) // n * n  # remainder r down when 2r < n, else up


def _amount(x: int, term: Term) -> int:
    """`x` as the term counts it: rounded, then "divided by D" (a settlement in another unit than play)."""
    x = _rounded(x, term.rounding)
    return x if term.divisor == 1 else x // term.divisor


def _amounts(p: Plan, t: Seats, pips: Sequence[int], opener: int, winner: int | None,
             hands: Sequence[int] = ()) -> list[_Amount]:
    """The settlement terms' amounts: (receiving side, raw, seat, order key, term index), from each hand's pips
    (or, for a term counted per tile, from each hand's tiles)."""
    sides = t.sides
    n = len(sides)
    rank = t.rank[opener]  # position of each seat clockwise from the opener
    wside = None if winner is None else sides[winner]
    out: list[_Amount] = []
    for k, term in enumerate(p.terms):
        sign = term.sign
        if term.kind == "hands":  # (the usual kind, first)
            _hand_amounts(out, term, k, t, pips, opener, winner, wside)
        elif term.kind == "differences":
            # "credit each hand the differences to heavier opponents' hands, rounded to 5"
            for h in range(n):
                total = sum(pips[o] - pips[h] for o in range(n) if sides[o] != sides[h] and pips[o] > pips[h])
                out.append((sides[h], sign * _amount(total, term), h, (0, pips[h], rank[h], k), k))
        elif term.kind == "tiles":
            # "credit opponents' hands pooled, 5 points per tile, to the winner": the hands' tiles, not pips
            # (the order key of a hand stays its pips, as for every term)
            tiles = [hands[s].bit_count() * term.per_tile for s in range(n)]
            _hand_amounts(out, term, k, t, tiles, opener, winner, wside, pips)
        elif term.kind == "net":
            # "credit opponents' hands minus own hand, rounded to 5, to the winner": the net rounded once
            if winner is not None and wside is not None:
                net = sum(pips[s] for s in t.opponents[wside]) - pips[winner]
                if net > 0:
                    out.append((wside, _amount(net, term), winner, (1, k), k))
        elif wside is not None:  # heaviest
            # "credit the heaviest opponent's hand only, rounded to 5, to the winner" (family.md reading 12):
            # the winner's side gets the heaviest single opposing hand; on equal ones, the first clockwise
            opp = [s for s in t.clockwise[opener] if sides[s] != wside]
            if opp:
                h = max(opp, key=lambda s: pips[s])  # (max keeps the first of equal ones)
                out.append((wside, sign * _amount(pips[h], term), h, (0, pips[h], rank[h], k), k))
    for a in out:
        if not a[1]:
            return [a for a in out if a[1]]  # zero amounts are dropped
    return out


def _hand_seats(term: Term, t: Seats, winner: int | None, wside: int | None) -> tuple[int, ...] | None:
    """The seats whose hands a `hands` term counts, or None when it yields nothing (it names a winner,
    and there is none)."""
    sel = term.hands
    if wside is None or winner is None:
        return None if term.to_winner or sel != "everyone" else t.everyone
    if sel == "opponents":
        return t.opponents[wside]
    if sel == "partner":
        return t.partners[winner]
    if sel == "own":
        return (winner,)
    return t.everyone


def _hand_amounts(out: list[_Amount], term: Term, k: int, t: Seats, pips: Sequence[int], opener: int,
                  winner: int | None, wside: int | None, order: Sequence[int] | None = None) -> None:
    """Append the amounts of the `hands` (or `tiles`) term `term` (term index `k`) to `out`; `pips` is what each
    hand counts, `order` the pips that order the hands' events (when not `pips`)."""
    seats = _hand_seats(term, t, winner, wside)
    if seats is None:
        return  # terms that mention the winner yield nothing without one
    if order is None:
        order = pips
    sides = t.sides
    rank = t.rank[opener]
    sign = term.sign
    if term.each:
        # "... hands separately": each hand rounded by itself
        for s in seats:
            recv = wside if term.to_winner else sides[s]
            assert recv is not None
            out.append((recv, sign * _amount(pips[s], term), s, (0, order[s], rank[s], k), k))
    elif term.to_winner:
        # "... hands pooled ..., to the winner": summed and rounded once
        assert wside is not None
        total = 0
        for s in seats:
            total += pips[s]
        out.append((wside, sign * _amount(total, term), winner, (1, k), k))
    else:
        # "... pooled ..., to each owner": each owner side's hands summed and rounded once
        for sd in t.sides_cw[opener]:
            mine = [s for s in seats if sides[s] == sd]
            if mine:
                out.append((sd, sign * _amount(sum(pips[s] for s in mine), term), None, (1, k, rank[mine[0]]), k))


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
_SEATS_OF: dict[tuple[int, ...], Seats] = {}
