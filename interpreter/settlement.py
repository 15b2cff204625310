"""Scoring events and the end-of-round settlement: the part of the rules applied off the per-move path."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .config import Config
from .records import RoundResult, _EventRow
from .rules import Rules, round5
from .tiles import TILES, mask_pips


class Settlement:
    """Scoring events, domino and block settlement, and the round's end: a mixin of `Round`."""

    if not TYPE_CHECKING:
        __slots__ = ()  # no state of its own (mypy would check the assignments below against it)

    # the state it reads and writes, owned by Round (in Round.__slots__)
    config: Config
    players: int
    opener: int
    tiebreak: bool
    over: bool
    result: RoundResult | None
    match_over: bool
    winner: int | None
    _rules: Rules
    _side_of: Sequence[int]
    _hands: list[int]
    _scores: list[int]
    _events: list[_EventRow]
    _needs_tiebreak: bool
    _settle_events: Sequence[_EventRow]
    _final_drawn: list

    def _event(self, side: int, kind: str, raw: int, seat) -> bool:
        """Apply one event per the overshoot rule; True when it ends the match (every-event)."""
        if not raw:
            return False  # events of net raw 0 are not recorded
        r = self._rules
        old = self._scores[side]
        new = old + raw
        accepted = True
        if r.exact and new > r.target:
            if r.overshoot == "discard":
                # "overshoot discards the event": the event is discarded whole
                accepted = False
                new = old
            elif r.overshoot == "bounce":
                # "overshoot bounces back": the excess is counted back down from the target
                new = 2 * r.target - new
        if r.floor is not None and new < r.floor:
            new = r.floor  # "scores never fall below N"
        self._scores[side] = new
        self._events.append((side, kind, raw, accepted, new, seat))
        if accepted and r.every_event and (new == r.target if r.exact else new >= r.target):
            # "check the target after every event": the match ends at once
            self.match_over = True
            self.winner = side
            return True
        return False

    def _domino(self, seat: int, pts: int):
        """Settle a domino (settlement.domino), unless the last placement ends the match first."""
        spec = self.config.domino
        side = self._side_of[seat]
        if spec["with_last_placement"]:
            # "as one event with the last placement": the placement folds into the winner side's
            # first settlement event
            self._settle(spec, "domino", seat, pts)
        else:
            # the last placement is an ordinary event; if it ends the match there is no settlement
            if pts and self._event(side, "placement", pts, seat):
                self._end("domino", seat, side)
                return
            self._settle(spec, "domino", seat, 0)
        self._end("domino", seat, side)

    def _block(self, seat: int, drawn):
        """Settle a block (settlement.block)."""
        if drawn:
            self._final_drawn = [(seat, [TILES[t] for t in drawn])]
        spec = self.config.block
        winner = self._block_winner(spec)
        self._settle(spec, "block", winner, 0)
        self._end("blocked", winner, None if winner is None else self._side_of[winner])

    def _clockwise(self, start: int) -> tuple:
        """The seats clockwise from `start`."""
        return _CLOCKWISE[self.players][start]

    def _block_winner(self, spec):
        """block.winner: lightest-hand (tie_break fewest-tiles) or none."""
        if spec["winner"] == "none":
            return None  # "winner: none"
        # "winner: the lightest hand, ties broken by fewest tiles" / "..., ties not broken"
        pips = [mask_pips(h) for h in self._hands]
        order = self._clockwise(self.opener)
        low = min(pips)
        tied = [s for s in order if pips[s] == low]
        if len({self._side_of[s] for s in tied}) == 1:
            return tied[0]  # shared only within one side: that side wins, first seat clockwise
        if spec["tie_break"] == "fewest-tiles":
            counts = {s: self._hands[s].bit_count() for s in tied}
            few = min(counts.values())
            tied = [s for s in tied if counts[s] == few]
            if len({self._side_of[s] for s in tied}) == 1:
                return tied[0]
        return None  # still shared across sides: no winner

    def _amounts(self, spec, winner):
        """The settlement terms' amounts: (receiving side, raw, seat, order key, term index)."""
        n = self.players
        side_of = self._side_of
        pips = [mask_pips(h) for h in self._hands]
        rank = _RANK[n][self.opener]  # position of each seat clockwise from the opener
        wside = None if winner is None else side_of[winner]
        out: list[tuple[int | None, int, int | None, tuple[int, ...], int]] = []
        for k, term in enumerate(spec["terms"]):
            rnd = round5 if term["rounding"] == "round5" else _unrounded
            sign = -1 if term["sign"] == "debit" else 1
            if term["kind"] == "differences":
                # "credit each hand the differences to heavier opponents' hands, rounded to 5"
                for h in range(n):
                    total = sum(pips[o] - pips[h] for o in range(n)
                                if side_of[o] != side_of[h] and pips[o] > pips[h])
                    out.append((side_of[h], sign * rnd(total), h, (0, pips[h], rank[h], k), k))
                continue
            sel = term["hands"]
            to = term["to"]
            if winner is None and (to == "winner" or sel != "everyone"):
                continue  # terms that mention the winner yield nothing without one
            if sel == "opponents":
                seats = [s for s in range(n) if side_of[s] != wside]
            elif sel == "partner":
                seats = [s for s in range(n) if side_of[s] == wside and s != winner]
            elif sel == "own":
                seats = [winner]
            else:
                seats = list(range(n))
            if term["pooling"] == "each":
                # "... hands separately": each hand rounded by itself
                for s in seats:
                    recv = wside if to == "winner" else side_of[s]
                    out.append((recv, sign * rnd(pips[s]), s, (0, pips[s], rank[s], k), k))
            elif to == "winner":
                # "... hands pooled ..., to the winner": summed and rounded once
                out.append((wside, sign * rnd(sum(pips[s] for s in seats)), winner, (1, k), k))
            else:
                # "... pooled ..., to each owner": each owner side's hands summed and rounded once
                for sd in self._sides_clockwise(self.opener):
                    mine = [s for s in seats if side_of[s] == sd]
                    if mine:
                        out.append((sd, sign * rnd(sum(pips[s] for s in mine)), None, (1, k, rank[mine[0]]), k))
        return [a for a in out if a[1]]  # zero amounts are dropped

    def _sides_clockwise(self, start: int) -> tuple:
        """The sides in seat order clockwise from `start`, each once."""
        return self._rules.sides_clockwise(self.players, start)

    def _settle(self, spec, kind: str, winner, fold: int):
        """Group the amounts into events (settlement.events) and apply them in order."""
        amounts = self._amounts(spec, winner)
        mode = spec["events"]
        start = self.opener if winner is None else winner
        order = self._sides_clockwise(start)
        events = []  # (side, raw, seat)
        if mode == "one":
            # "as one event": one event per receiving side, the winner's side first, then clockwise
            totals = dict.fromkeys(order, 0)
            got = set()
            for sd, raw, _, _, _ in amounts:
                totals[sd] += raw
                got.add(sd)
            if fold:
                wside = self._side_of[winner]
                totals[wside] += fold
                got.add(wside)
            for sd in order:
                if sd in got:
                    events.append((sd, totals[sd], winner if winner is not None and sd == self._side_of[winner] else None))
        elif mode == "per-term":
            # "one event per term": per term, one event per side (the winner's side first)
            for k in range(len(spec["terms"])):
                for sd in order:
                    raw = sum(a[1] for a in amounts if a[0] == sd and a[4] == k)
                    if raw:
                        events.append((sd, raw, winner if winner is not None and sd == self._side_of[winner] else None))
        else:
            # "one event per hand": hand amounts in ascending pips, ties clockwise from the opener;
            # then pooled amounts in term order
            for sd, raw, seat, _, _ in sorted(amounts, key=lambda a: a[3]):
                events.append((sd, raw, seat))
        settled: list[_EventRow] = []
        self._settle_events = settled
        for sd, raw, seat in events:
            before = len(self._events)
            ended = self._event(sd, kind, raw, seat)
            if len(self._events) > before:
                settled.append(self._events[-1])
            if ended:
                break  # the match ends mid-settlement; the rest is skipped

    def _end(self, kind: str, seat, side):
        """Close the round: record the result and check the target after settlement."""
        self.over = True
        r = self._rules
        if not self.match_over and not r.every_event and kind != "target":
            # "check the target after settlement"
            sc = self._scores
            reached = any((s == r.target) if r.exact else (s >= r.target) for s in sc)
            if reached or self.tiebreak:
                top = max(sc)
                tops = [i for i, s in enumerate(sc) if s == top]
                if len(tops) == 1:
                    self.match_over = True
                    self.winner = tops[0]
                elif r.ties == "extra-rounds":
                    # "ties at the top: play extra rounds" until one side alone has the highest score
                    self._needs_tiebreak = True
                else:
                    # "ties at the top: draw" (or "impossible", which cannot arise): a drawn match
                    self.match_over = True
                    self.winner = None
        self.result = RoundResult(
            kind, seat, side, self.match_over, self.winner if self.match_over else None,
            self._needs_tiebreak, list(self._hands), self._settle_events, list(self._scores),
            self._final_drawn, r.unit)


# _CLOCKWISE[n][start]: the seats clockwise from `start`
_CLOCKWISE = {n: tuple(tuple((s + i) % n for i in range(n)) for s in range(n)) for n in range(1, 5)}
# _RANK[n][start][seat]: how far `seat` is clockwise from `start`
_RANK = {n: tuple(tuple((seat - s) % n for seat in range(n)) for s in range(n)) for n in range(1, 5)}


def _unrounded(x: int) -> int:
    return x
