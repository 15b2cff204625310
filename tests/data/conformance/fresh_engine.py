#!/usr/bin/env python3
"""A fresh conformance engine, written from conformance/PROTOCOL.md and docs/config.md alone.

It exists to prove that those two documents are enough to write an engine that
passes the suite: its author read neither the interpreter nor the toy engines.
Standard library only; it speaks the protocol on stdin/stdout by itself.

    python fresh_engine.py                      # every feature, every configuration
    python fresh_engine.py --without-no-drawing # declares drawing "until-playable" only
"""
from __future__ import annotations

import copy
import json
import sys

TAGS = [
    "diagram", "prose-example", "two-players", "three-players", "four-players", "partnerships", "partial-deal",
    "layout", "attach-points", "counted-ends", "opening-double", "terminal-double", "internal-double",
    "branching-every", "branching-first", "branch-after-line", "branch-at-once", "placement-score", "unit-5",
    "unit-1", "draw", "pass", "forced-lead", "domino", "block", "settle-pooled", "settle-each",
    "settle-differences", "partner-debit", "rounding", "target-exact", "overshoot-discard", "target-every-event",
    "target-after-settlement", "tie-extra-rounds", "block-winner", "multi-round", "match-end", "illegal-move",
    "inline-ruleset", "no-drawing", "no-placement-score", "overshoot-bounce", "score-floor",
    "opener-block-winner", "reserve", "terminal-one-half", "events-per-term", "no-rounding", "opener-next-seat",
    "tie-draw", "own-hand",
    "entry-threshold", "fixed-rounds", "block-fewest-tiles", "block-lightest-side",
    "target-by-count", "lead-cannot-win", "opener-seat-0", "draw-limit", "partners-tie-no-winner",
    "observation", "claims", "claims-any-opponent",
    "more-players",
    "no-double-draw", "no-double-heaviest-hand", "no-double-next-seat", "no-double-redeal", "opener-double-six",
    "opener-rotating-double",
    "settle-tiles", "settle-divided", "settle-net",
]


class Refused(Exception):
    """A step the rules refuse; `code` is the reason code of PROTOCOL.md 3.11."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def parse_tile(text: str) -> tuple[int, int]:
    a, b = int(text[1]), int(text[3])
    return (min(a, b), max(a, b))


def fmt(t: tuple[int, int]) -> str:
    return f"[{t[0]}|{t[1]}]"


def round5(x: int) -> int:
    return (x + 2) // 5 * 5


def pips(hand: list[tuple[int, int]]) -> int:
    return sum(a + b for a, b in hand)


# ---------------------------------------------------------------------------- layout (3.3, 3.4)


class Layout:
    def __init__(self, cfg: dict):
        self.cfg = cfg
        self.tiles: list[tuple[int, int]] = []
        self.occupied: dict[tuple[int, int], set[str]] = {}
        self.spinners: list[tuple[int, int]] = []
        self.connections: list[list[str]] = []

    def sides(self, t):
        if t[0] != t[1]:
            return ["low", "high"]
        return ["line-a", "line-b"] + (["branch-a", "branch-b"] if t in self.spinners else [])

    @staticmethod
    def value(t, side):
        return t[1] if side == "high" else t[0]

    def branch_open(self, t):
        if self.cfg["doubles"]["branch_sides"] == "at-once":
            return True
        occ = self.occupied[t]
        if t == self.tiles[0]:
            return "line-a" in occ and "line-b" in occ
        return "line-b" in occ

    def free(self, t, side):
        if side not in self.sides(t) or side in self.occupied[t]:
            return False
        return not side.startswith("branch") or self.branch_open(t)

    def attach_points(self):
        out = [(t, s, self.value(t, s)) for t in self.tiles for s in self.sides(t) if self.free(t, s)]
        return sorted(out)

    def counted(self):
        out = []
        for t in self.tiles:
            occ = self.occupied[t]
            if t[0] != t[1]:
                out += [(t, s, self.value(t, s)) for s in ("low", "high") if s not in occ]
            elif "line-a" not in occ or "line-b" not in occ:
                full = self.cfg["doubles"]["terminal_count"] == "both-halves"
                out.append((t, "double", 2 * t[0] if full else t[0]))
        return sorted(out)

    def place(self, t, target=None, side=None):
        is_double = t[0] == t[1]
        branching = self.cfg["doubles"]["branching"]
        if is_double and (branching == "every" or (branching == "first" and not any(
                x[0] == x[1] for x in self.tiles))):
            self.spinners.append(t)
        self.tiles.append(t)
        self.occupied[t] = set()
        if target is None:
            return
        self.occupied[target].add(side)
        v = self.value(target, side)
        child = "line-a" if is_double else ("low" if t[0] == v else "high")
        self.occupied[t].add(child)
        self.connections.append([fmt(target), side, fmt(t), child])


# ---------------------------------------------------------------------------- the match


class Game:
    def __init__(self, case: dict):
        self.cfg = cfg = case["config"]
        self.n = n = case["players"]
        by_count = cfg["target"].get("raw_by_count", {})  # the target for this player count
        self.cfg = cfg = {**cfg, "target": {**cfg["target"], "raw": by_count.get(str(n), cfg["target"]["raw"])}}
        self.teams = n in cfg["players"]["partnerships"]
        self.nsides = 2 if self.teams else n
        self.deals = [case["setup"]] + list(case.get("next_rounds") or [])
        self.scores = list(case["setup"].get("scores") or [0] * self.nsides)
        self.match_over = False
        self.winner = None
        self.tiebreak = False
        self.no_more_rounds = False
        self.round_no = 0
        self.deal_no = 0  # the next deal to use: a deal thrown in (`opener.no_double: redeal`) uses one up
        self.prev = None  # (result dict, opener) of the previous round
        self.start_round()

    def side(self, seat):
        return seat % 2 if self.teams else seat

    # -- rounds ------------------------------------------------------------------

    def start_round(self):
        op = self.cfg["opener"]
        if self.prev is None:
            rule = op["first_round"]
        else:
            rule = op["after_domino"] if self.prev[0]["kind"] == "domino" else op["after_block"]
        while True:
            if self.deal_no >= len(self.deals):
                self.no_more_rounds = True  # every deal was thrown in: the case deals no round to play
                return
            deal = self.deals[self.deal_no]
            self.deal_no += 1
            self.hands = [sorted(parse_tile(t) for t in h) for h in deal["hands"]]
            self.boneyard = [parse_tile(t) for t in deal["boneyard"]]
            self.reserve = self.cfg["reserve"].get(str(self.n), 0)
            self.layout = Layout(self.cfg)
            opener = deal.get("opener")
            by_double = rule in ("highest-double", "double-six", "rotating-double")
            how = op.get("no_double", "heaviest-tile")
            if not by_double or (rule == "highest-double" and how == "heaviest-tile"):
                break
            # a round opened by a double (docs/config.md opener.*, opener.no_double)
            wanted = self.wanted_double(rule)
            held = any((t in wanted) for h in self.hands for t in h)
            if held or how != "redeal" or opener is not None:
                break
            # nobody holds it: this deal is thrown in, the next one is dealt
        if by_double and not (rule == "highest-double" and how == "heaviest-tile"):
            before = len(self.boneyard)
            chosen, self.forced = self.open_by_double(rule, wanted, held, how)
            if opener is None:
                opener = chosen
            elif rule == "highest-double" and self.forced is not None and len(self.boneyard) == before:
                self.forced = self.deciding_tile(self.hands[opener])  # the given opener's own, as always
            elif self.forced is not None and self.forced not in self.hands[opener]:
                self.forced = None  # the given opener does not hold the rule's tile: any tile
            self.opener = self.to_move = opener
        else:
            if opener is None:
                opener = self.opener_by_rule(rule)
            self.opener = self.to_move = opener
            self.forced = None
            if op["lead"] == "forced" and rule == "highest-double":
                self.forced = self.deciding_tile(self.hands[opener])
        self.must_play = None
        self.drawing_now: list = []
        self.passed: list[int] = []
        self.pass_drawn: list[list] = []
        self.round_over = False
        self.result = None
        self.window = None  # the muggins rule: (the seats that may call, what a call takes) after a placement

    def wanted_double(self, rule):
        """The doubles that open this round: [6|6], the rotating one (top double first, one lower each round, after
        [0|0] the top again), or every double of the set."""
        top = self.cfg.get("tiles", 6)
        if rule == "double-six":
            return [(6, 6)]
        if rule == "rotating-double":
            d = top - self.round_no % (top + 1)
            return [(d, d)]
        return [(d, d) for d in range(top + 1)]

    def open_by_double(self, rule, wanted, held, how):
        """(opener, forced tile or None) of a round opened by a double, drawing the opening draws if the rule
        says so (they stay in the hands)."""
        forced_lead = self.cfg["opener"]["lead"] == "forced"

        def heaviest_tile():
            best = max((self.deciding_key(t), s) for s, h in enumerate(self.hands) for t in h)[1]
            return best, self.deciding_tile(self.hands[best]) if forced_lead else None

        if held:
            if rule == "highest-double":
                return heaviest_tile()
            tile = wanted[0]
            return next(s for s, h in enumerate(self.hands) if tile in h), tile
        if how == "heaviest-hand":
            key = lambda s: (pips(self.hands[s]), max(self.deciding_key(t) for t in self.hands[s]))  # noqa: E731
            return max(range(self.n), key=key), None
        if how == "next-seat":
            return (0 if self.prev is None else (self.prev[1] + 1) % self.n), None
        if how == "draw":
            s = 0
            while self.drawable() > 0:
                t = self.boneyard.pop(0)
                self.hands[s].append(t)
                self.hands[s].sort()
                if t[0] == t[1]:
                    return s, t
                s = (s + 1) % self.n
        return heaviest_tile()

    @staticmethod
    def deciding_tile(hand):
        doubles = [t for t in hand if t[0] == t[1]]
        if doubles:
            return max(doubles)
        return max(hand, key=lambda t: (t[0] + t[1], t[1]))

    def opener_by_rule(self, rule):
        if rule == "seat-0":
            return 0  # a fixed opening seat (docs/config.md)
        if rule == "highest-double":
            best = max((self.deciding_key(t), s) for s, h in enumerate(self.hands) for t in h)
            return best[1]
        if rule == "dominoer":
            return self.prev[0]["seat"]
        if rule == "next-seat":
            return (self.prev[1] + 1) % self.n
        if rule == "block-winner" and self.prev[0]["seat"] is not None:
            return self.prev[0]["seat"]
        raise ValueError(f"the opener rule {rule} needs the opener given in the deal")

    @staticmethod
    def deciding_key(t):
        # a double beats every non-double; among doubles the highest; else most pips, then the larger high half
        return (1, t[0], 0) if t[0] == t[1] else (0, t[0] + t[1], t[1])

    def drawable(self):
        return len(self.boneyard) - self.reserve if len(self.boneyard) > self.reserve else 0

    def moves_for(self, seat, only=None):
        hand = [only] if only is not None else self.hands[seat]
        if not self.layout.tiles:
            tiles = [self.forced] if self.forced is not None else hand
            return sorted((t, None, None) for t in tiles)
        out = []
        for t in hand:
            for target, side, v in self.layout.attach_points():
                if v in t:
                    out.append((t, target, side))
        return sorted(out)

    def has_placement(self, seat):
        return bool(self.moves_for(seat))

    def advance(self):
        """Draw and pass for seats without a placement (3.2); returns True when the round blocks."""
        until = self.cfg["drawing"] == "until-playable"
        while True:
            nothing_to_draw = not until or self.drawable() == 0
            if nothing_to_draw and not any(self.has_placement(s) for s in range(self.n)):
                return True
            s = self.to_move
            if self.must_play is None and self.has_placement(s):
                return False
            if self.must_play is not None:
                return False
            limit = self.cfg.get("draw_limit")  # at most K tiles a turn (docs/config.md)
            if until and self.drawable() > 0 and (limit is None or len(self.drawing_now) < limit):
                t = self.boneyard.pop(0)
                self.hands[s].append(t)
                self.hands[s].sort()
                self.drawing_now.append(t)
                if self.moves_for(s, only=t):
                    self.must_play = t
                    return False
                continue
            self.passed.append(s)
            self.pass_drawn.append(self.drawing_now)
            self.drawing_now = []
            self.to_move = (s + 1) % self.n

    # -- scoring -----------------------------------------------------------------

    def reached(self, score):
        t = self.cfg["target"]
        return score == t["raw"] if t["mode"] == "exact" else score >= t["raw"]

    def apply(self, side, kind, raw, seat, events):
        if raw == 0 or self.match_over:
            return
        t = self.cfg["target"]
        score = self.scores[side]
        if t.get("entry", 0) and score == 0 and raw < t["entry"]:  # off the board: discarded
            events.append({"side": side, "kind": kind, "raw": raw, "accepted": False, "score_after": 0,
                           "seat": seat})
            return
        new, accepted = score + raw, True
        if t["mode"] == "exact" and new > t["raw"]:
            if t["overshoot"] == "discard":
                new, accepted = score, False
            elif t["overshoot"] == "bounce":
                new = 2 * t["raw"] - new
        floor = self.cfg["score_floor"]
        if floor is not None and new < floor:
            new = floor
        if t.get("lead_cannot_win") and kind == "placement" and self.lead_now and accepted and self.reached(new):
            new, accepted = score, False  # the opening placement cannot win (docs/config.md)
        self.scores[side] = new
        events.append({"side": side, "kind": kind, "raw": raw, "accepted": accepted, "score_after": new,
                       "seat": seat})
        if accepted and t["check"] == "every-event" and t["mode"] != "rounds" and self.reached(new):
            self.match_over, self.winner = True, side

    def block_winner(self, v):
        rule = self.cfg["settlement"]["block"]
        if rule["winner"] == "none":
            return None
        if rule["winner"] == "fewest-tiles":  # tiles, then pips
            key = [(len(self.hands[s]), v[s]) for s in range(self.n)]
            tied = [s for s in range(self.n) if key[s] == min(key)]
            if len({self.side(s) for s in tied}) > 1:
                return None
            return min(tied, key=lambda s: (s - self.opener) % self.n)
        if rule["winner"] == "lightest-side":  # pip totals of the sides
            total: dict = {}
            for s in range(self.n):
                total[self.side(s)] = total.get(self.side(s), 0) + v[s]
            low = min(total.values())
            if list(total.values()).count(low) > 1:
                return None
            return min((s for s in range(self.n) if total[self.side(s)] == low), key=lambda s: (s - self.opener) % self.n)
        tied = [s for s in range(self.n) if v[s] == min(v)]
        alone = rule.get("partners_tie", "side-wins") == "no-winner"  # partners sharing it do not win together

        def shared(seats):
            return len(seats) > 1 if alone else len({self.side(s) for s in seats}) > 1

        if shared(tied) and rule["tie_break"] == "fewest-tiles":
            fewest = min(len(self.hands[s]) for s in tied)
            tied = [s for s in tied if len(self.hands[s]) == fewest]
        if shared(tied):
            return None
        return min(tied, key=lambda s: (s - self.opener) % self.n)

    def settle(self, kind, w, placement_points, events):
        rule = self.cfg["settlement"][kind]
        v = [pips(h) for h in self.hands]
        seats = range(self.n)
        hand_amounts, pooled = [], []  # (term index, hand or None, side, amount)
        for ti, term in enumerate(rule["terms"]):
            rounded = round5 if term.get("rounding") == "round5" else (lambda x: x)
            d = term.get("divisor", 1)  # docs/config.md: the rounded amount divided by the divisor

            def r(x, rounded=rounded, d=d):
                return rounded(x) // d
            sign = 1 if term["sign"] == "credit" else -1
            if term["kind"] == "net":  # opponents' pips minus the winner's own, rounded once; nothing at 0 or less
                if w is not None:
                    net = sum(v[s] for s in seats if self.side(s) != self.side(w)) - v[w]
                    if net > 0:
                        pooled.append((ti, None, self.side(w), r(net)))
                continue
            if term["kind"] == "tiles":  # each tile counts per_tile points, whatever its pips, never rounded
                count = [len(h) * term["per_tile"] for h in self.hands]
            else:
                count = v
            if term["kind"] == "differences":
                for h in seats:
                    total = sum(v[o] - v[h] for o in seats if self.side(o) != self.side(h) and v[o] > v[h])
                    hand_amounts.append((ti, h, self.side(h), sign * r(total)))
                continue
            if w is None and (term["to"] == "winner" or term["hands"] != "everyone"):
                continue
            sel = {"opponents": [s for s in seats if w is not None and self.side(s) != self.side(w)],
                   "partner": [s for s in seats if w is not None and self.side(s) == self.side(w) and s != w],
                   "own": [w], "everyone": list(seats)}[term["hands"]]
            if term["kind"] == "tiles":
                r = lambda x: x  # noqa: E731
            if term["pooling"] == "pooled":
                pooled.append((ti, None, self.side(w), sign * r(sum(count[s] for s in sel))))
            else:
                for h in sel:
                    to = self.side(w) if term["to"] == "winner" else self.side(h)
                    hand_amounts.append((ti, h, to, sign * r(count[h])))
        amounts = [a for a in hand_amounts + pooled if a[3] != 0]
        start = w if w is not None else self.opener
        order = []
        for k in range(self.n):
            sd = self.side((start + k) % self.n)
            if sd not in order:
                order.append(sd)
        wside = self.side(w) if w is not None else None
        planned = []  # [side, raw, seat]
        if rule["events"] == "one":
            for sd in order:
                planned.append([sd, sum(a[3] for a in amounts if a[2] == sd), w if sd == wside else None])
        elif rule["events"] == "per-term":
            for ti in range(len(rule["terms"])):
                for sd in order:
                    these = [a[3] for a in amounts if a[0] == ti and a[2] == sd]
                    if these:
                        planned.append([sd, sum(these), w if sd == wside else None])
        else:
            hands = sorted(seats, key=lambda s: (v[s], (s - self.opener) % self.n))
            for h in hands:
                for a in sorted((a for a in amounts if a[1] == h), key=lambda a: a[0]):
                    planned.append([a[2], a[3], h])
            for a in amounts:
                if a[1] is None:
                    planned.append([a[2], a[3], w])
        if placement_points is not None:
            first = next((p for p in planned if p[0] == wside), None)
            if first is None:
                planned.insert(0, [wside, placement_points, w])
            else:
                first[1] += placement_points
        for sd, raw, seat in planned:
            self.apply(sd, kind, raw, seat, events)

    def end_of_round(self, result):
        self.round_over = True
        self.result = result
        t = self.cfg["target"]
        self.rounds_done = getattr(self, "rounds_done", 0) + 1
        if t["mode"] == "rounds":  # a fixed number of rounds: decided after the last one
            top = max(self.scores)
            if not self.match_over and (self.tiebreak or self.rounds_done >= t["rounds"]):
                if self.scores.count(top) == 1:
                    self.match_over, self.winner = True, self.scores.index(top)
                elif t["ties"] == "extra-rounds":
                    self.tiebreak = True
                else:
                    self.match_over, self.winner = True, None
            return
        if not self.match_over and t["check"] == "after-settlement":
            top = max(self.scores)
            single = self.scores.count(top) == 1
            if self.tiebreak:
                if single:
                    self.match_over, self.winner = True, self.scores.index(top)
            elif any(self.reached(s) for s in self.scores):
                if single:
                    self.match_over, self.winner = True, self.scores.index(top)
                elif t["ties"] == "draw":
                    self.match_over, self.winner = True, None
                else:
                    self.tiebreak = True

    # -- steps -------------------------------------------------------------------

    def observe(self, seat, drawn, passed, pass_drawn, offered, points, events):
        unit = self.cfg["scoring"]["unit"]
        lay = self.layout
        return {
            "reject": None, "seat": seat, "drawn": [fmt(t) for t in drawn], "passed": passed,
            "pass_drawn": [[fmt(t) for t in d] for d in pass_drawn],
            "offered": [fmt(t) if tg is None else f"{fmt(t)} on {fmt(tg)} {sd}" for t, tg, sd in offered],
            "points": points, "shown": points // unit, "events": events,
            "layout": {"tiles": [fmt(t) for t in lay.tiles], "connections": [list(c) for c in lay.connections],
                       "spinners": [fmt(t) for t in lay.spinners]},
            "attach_points": [[fmt(t), s, x] for t, s, x in lay.attach_points()],
            "counted": [[fmt(t), s, x] for t, s, x in lay.counted()],
            "count": sum(x for _, _, x in lay.counted()),
            "scores": list(self.scores), "shown_scores": [s // unit for s in self.scores],
            "round": self.result, "match": {"over": self.match_over, "winner": self.winner},
        }

    def sees(self, seat):
        """What `seat` sees now (PROTOCOL.md 2.1): its own tiles, how many the others and the boneyard hold."""
        self.refuse_if_over()
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise ValueError(f"no seat {seat!r} in a game of {self.n}")
        moves = self.moves_for(seat, only=self.must_play) if seat == self.to_move else []
        table = self.observe(seat, [], [], [], moves, 0, [])  # the table as a placement reports it
        hidden = self.cfg.get("claims", "none") != "none"  # points must be claimed: no preview
        return {
            "reject": None, "seat": seat, "hand": [fmt(t) for t in sorted(self.hands[seat])],
            "others": [{"seat": (seat + k) % self.n, "partner": self.side((seat + k) % self.n) == self.side(seat),
                        "tiles": len(self.hands[(seat + k) % self.n])} for k in range(1, self.n)],
            "boneyard": len(self.boneyard),
            **{k: table[k] for k in ("layout", "attach_points", "counted", "count", "scores", "shown_scores")},
            "to_move": self.to_move,
            "moves": table["offered"],
            "move_points": None if hidden else [self.points_if(m) for m in moves],
            "may_call": self.window is not None and seat in self.window[0] and self.window[1] != 0,
        }

    def points_if(self, move):
        """The raw points a placement would earn (3.4), worked on a copy of the layout."""
        t, target, side = move
        lay = copy.deepcopy(self.layout)
        lay.place(t, target, side)
        count = sum(x for _, _, x in lay.counted())
        sc = self.cfg["scoring"]
        return count if sc["in_play"] and count > 0 and count % sc["multiple"] == 0 else 0

    def refuse_if_over(self):
        if self.match_over or self.no_more_rounds:
            raise Refused("round-over")

    def play(self, text, claim=None):
        self.refuse_if_over()
        words = text.split()
        t = parse_tile(words[0])
        target = parse_tile(words[2]) if len(words) > 1 else None
        side = words[3] if len(words) > 1 else None
        s = self.to_move
        lay = self.layout
        if t not in self.hands[s]:
            raise Refused("not-in-hand")
        if (not lay.tiles) != (target is None):
            raise Refused("must-lead")
        if not lay.tiles and self.forced is not None and t != self.forced:
            raise Refused("forced-lead")
        if self.must_play is not None and t != self.must_play:
            raise Refused("must-play-drawn")
        if target is not None:
            if target not in lay.tiles:
                raise Refused("not-on-layout")
            if side not in lay.sides(target):
                raise Refused("no-such-side")
            if side.startswith("branch") and not lay.branch_open(target):
                raise Refused("branch-closed")
            if side in lay.occupied[target]:
                raise Refused("side-occupied")
            if lay.value(target, side) not in t:
                raise Refused("no-match")
        claims = self.cfg.get("claims", "none")
        if claim is not None and claims == "none":
            raise Refused("claims-off")
        if claim is not None and claim < 0:
            raise Refused("negative-claim")
        # the move is legal: apply it
        offered = self.moves_for(s, only=self.must_play)
        drawn, passed, pass_drawn = self.drawing_now, self.passed, self.pass_drawn
        self.drawing_now, self.passed, self.pass_drawn, self.must_play = [], [], [], None
        self.hands[s].remove(t)
        lay.place(t, target, side)
        count = sum(x for _, _, x in lay.counted())
        sc = self.cfg["scoring"]
        points = count if sc["in_play"] and count > 0 and count % sc["multiple"] == 0 else 0
        events: list[dict] = []
        v = lambda: [pips(h) for h in self.hands]  # noqa: E731
        domino = not self.hands[s]
        folded = domino and self.cfg["settlement"]["domino"]["with_last_placement"]
        self.lead_now = target is None  # the round's opening placement
        credit = points
        if claims != "none":  # points must be claimed (3.13): only a claim up to the score is credited
            said = (claim or 0) * sc["unit"]
            credit = said if said <= points else 0
            # "muggins": the first opponent after the placer may call; "any-opponent": every opponent
            opponents = [(s + k) % self.n for k in range(1, self.n) if self.side((s + k) % self.n) != self.side(s)]
            callers = opponents if claims == "any-opponent" else opponents[:1]
            self.window = (callers, points - said if said <= points else said) if claims != "forfeit" else None
        if not folded:
            self.apply(self.side(s), "placement", credit, s, events)
        self.to_move = (s + 1) % self.n
        if self.match_over:
            kind = "domino" if domino else "target"
            self.end_of_round({"kind": kind, "seat": s if domino else None,
                               "side": self.side(s) if domino else None, "hand_pips": v()})
        elif domino:
            self.settle("domino", s, credit if folded else None, events)
            self.end_of_round({"kind": "domino", "seat": s, "side": self.side(s), "hand_pips": v()})
        elif self.advance():
            w = self.block_winner(v())
            self.settle("block", w, None, events)
            self.end_of_round({"kind": "blocked", "seat": w, "side": None if w is None else self.side(w),
                               "hand_pips": v()})
        obs = self.observe(s, drawn, passed, pass_drawn, offered, points, events)
        self.next_round()
        return obs

    def call(self, seat):
        """A call on the last placement (3.13): the caller takes the missed points or the over-claim."""
        self.refuse_if_over()
        claims = self.cfg.get("claims", "none")
        if claims == "none":
            raise Refused("claims-off")
        if claims == "forfeit":
            raise Refused("no-calls")
        if self.window is None:
            raise Refused("late-call")
        callers, take = self.window
        if seat not in callers:
            raise Refused("not-caller")
        if take == 0:
            raise Refused("nothing-to-take")
        self.window = None
        events: list[dict] = []
        self.apply(self.side(seat), "call", take, seat, events)
        if self.match_over:
            self.end_of_round({"kind": "target", "seat": None, "side": None, "hand_pips": [pips(h) for h in self.hands]})
        obs = self.observe(seat, [], [], [], [], 0, events)
        for key in ("drawn", "passed", "pass_drawn", "offered", "points", "shown"):
            del obs[key]
        self.next_round()
        return obs

    def next_round(self):
        """After a round has ended: deal the next one, or note that none follows (3.10)."""
        if self.round_over:
            self.window = None
        if self.round_over and not self.match_over:
            self.prev = (self.result, self.opener)
            self.round_no += 1
            if self.deal_no < len(self.deals):
                self.start_round()
            else:
                self.no_more_rounds = True


def run_case(case: dict) -> dict:
    game = Game(case)
    out = []
    for step in case["steps"]:
        try:
            if "play" in step:
                out.append(game.play(step["play"], step.get("claim")))
            elif "call" in step:
                out.append(game.call(step["call"]))
            elif "observe" in step:
                out.append(game.sees(step["observe"]))
            else:
                game.refuse_if_over()
                raise Refused("must-place")
        except Refused as r:
            out.append({"reject": r.code})
    return {"steps": out}


# The configuration fields this engine reads, each with the values it plays (PROTOCOL.md 1,
# `capabilities.configurations`); "@fields" lists those it plays with any value. The runner
# declines every case whose configuration holds another field or value.
ANY_VALUE = [
    "format", "name", "title", "source", "based_on", "players.counts", "hand_size", "reserve", "draw_limit",
    "scoring.in_play", "scoring.multiple", "target.raw", "target.raw_by_count", "target.entry", "target.rounds",
    "score_floor", "settlement.domino.with_last_placement",
    *[f"settlement.{end}.terms.{k}" for end in ("domino", "block") for k in ("per_tile", "divisor")],
]
TERM = {"kind": ["hands", "differences", "tiles", "net"], "hands": ["opponents", "partner", "own", "everyone"],
        "pooling": ["pooled", "each"], "rounding": ["round5", "none"], "to": ["winner", "owner"],
        "sign": ["credit", "debit"]}
VALUES: dict[str, list] = {
    "tiles": [6], "players.partnerships": [4], "claims": ["none", "muggins", "any-opponent", "forfeit"], "drawing": ["until-playable", "none"],
    "opener.first_round": ["lottery", "highest-double", "seat-0", "double-six", "rotating-double"],
    "opener.after_domino": ["dominoer", "lottery", "highest-double", "next-seat", "seat-0", "double-six",
                            "rotating-double"],
    "opener.after_block": ["lottery", "highest-double", "next-seat", "block-winner", "seat-0", "double-six",
                           "rotating-double"],
    "opener.lead": ["any", "forced"],
    "opener.no_double": ["heaviest-tile", "draw", "heaviest-hand", "next-seat", "redeal"],
    "doubles.branching": ["every", "first", "none"], "doubles.branch_sides": ["after-line", "at-once"],
    "doubles.terminal_count": ["both-halves", "one-half"],
    "scoring.unit": [1, 5],
    "target.mode": ["exact", "at-least", "rounds"], "target.check": ["every-event", "after-settlement"],
    "target.overshoot": ["discard", "bounce", "none"], "target.ties": ["extra-rounds", "draw", "impossible"],
    "target.lead_cannot_win": [True],
    "settlement.domino.events": ["one", "per-term", "per-hand"],
    "settlement.block.events": ["one", "per-term", "per-hand"],
    "settlement.block.winner": ["lightest-hand", "none", "fewest-tiles", "lightest-side"],
    "settlement.block.tie_break": ["fewest-tiles", "none", "lightest-hand"],
    "settlement.block.partners_tie": ["side-wins", "no-winner"],
    **{f"settlement.{end}.terms.{k}": v for end in ("domino", "block") for k, v in TERM.items()},
}


def main(argv: list[str]) -> int:
    capabilities: dict = {"features": TAGS, "observe": True, "configurations": {"@fields": ANY_VALUE, **VALUES}}
    if "--without-no-drawing" in argv:
        capabilities["features"] = [t for t in TAGS if t != "no-drawing"]
        capabilities["configurations"]["drawing"] = ["until-playable"]
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        if req.get("cmd") == "start":
            answer = {"version": 1, "implementation": {"name": "fresh", "version": "1", "language": "python"},
                      "capabilities": capabilities}
        elif req.get("cmd") == "run":
            try:
                answer = {"seq": req["seq"], "result": run_case(req["case"])}
            except Exception as exc:  # noqa: BLE001 - an engine failure is that case's error
                answer = {"seq": req["seq"], "errored": {"message": f"{type(exc).__name__}: {exc}"}}
        else:
            return 0
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
