#!/usr/bin/env python3
"""An example engine for the conformance suite: plain Python, standard library only.

It speaks conformance/PROTOCOL.md on stdin/stdout and shares no code with
rulelang's own engine. It reads the compiled configuration (docs/config.md)
and plays the rules listed in SUPPORTED below; it declares that table at
`start`, so the runner skips ("declines") every case whose configuration uses
a field or a value outside it. A rule added to rulelang after this file was
written is therefore declined, never failed, until someone implements it here
and adds its field to the table.

Besides teaching, it is the suite's second opinion: the `--break` flags give it
one rule wrong each, to show the suite catches it; the `--misbehave` flags make
it a bad protocol citizen, to test the runner.

    toy_engine.py [--features TAG,...] [--break NAME]... [--misbehave MODE[:CASE-ID[,CASE-ID...]]]...

breakages: internal-double-counts, branch-early, round-2-up, pool-partners,
           target-before-settlement, no-overshoot-discard
misbehaviours: hang, crash, garbage, huge, wrongseq, version, orphan (hang after
           starting a grandchild that would outlive a careless runner), escape (hang
           after starting a daemon that left the engine's session with setsid and a
           double fork), nested (a deeply nested JSON answer), deep (an answer that
           parses but nests 500 deep), exit-escape (start the daemon, then answer)
"""
from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import time

BREAKS: set[str] = set()
MISBEHAVE: dict[str, str | None] = {}

SIDE_ORDER = ["branch-a", "branch-b", "high", "line-a", "line-b", "low"]


# -- what this engine plays (declared at `start`, PROTOCOL.md 1) --------------------------------------
# Every configuration field this engine reads is named here: in ANY_VALUE when it plays
# every value of the field, in VALUES with the values it plays. The runner skips a case
# whose configuration holds any other field or value, with the reason in the report.

ANY_VALUE = [
    "format", "name", "title", "source", "based_on", "players.counts", "hand_size", "reserve", "draw_limit",
    "scoring.in_play", "scoring.multiple", "scoring.divisors", "scoring.unit", "scoring.knock_bonus",
    "target.raw", "target.raw_by_count", "target.entry", "target.rounds", "target.tie_rounds", "score_floor",
    "settlement.domino.with_last_placement", "settlement.domino.bonus",
    "settlement.domino.terms.rounding", "settlement.block.terms.rounding",  # "none" or "roundN", any N
]
TERMS = {  # a settlement term (docs/config.md), the same for a domino and a block
    "kind": ["hands", "differences", "heaviest"], "hands": ["opponents", "partner", "own", "everyone"],
    "pooling": ["pooled", "each"], "to": ["winner", "owner"], "sign": ["credit", "debit"],
}
VALUES = {
    "tiles": [6],  # the double-six set only
    "players.partnerships": [4],
    "drawing": ["until-playable", "none"],
    "draw_while_able": [True],
    "opener.first_round": ["lottery", "highest-double", "seat-0"],
    "opener.after_domino": ["dominoer", "lottery", "highest-double", "next-seat", "seat-0"],
    "opener.after_block": ["lottery", "highest-double", "next-seat", "block-winner", "seat-0"],
    "opener.lead": ["any", "forced"],
    "doubles.branching": ["every", "first", "none"],
    "doubles.branch_sides": ["after-line", "at-once"],
    "doubles.terminal_count": ["both-halves"],  # not "one-half": declined
    "doubles.spinner_orientation": ["crosswise", "endwise", "choice"],
    "doubles.spinner_count": ["terminal", "uncovered-sides"],
    "doubles.branch_length": ["unlimited", "one-tile"],
    "scoring.formula": ["value", "per-multiple", "face-value"],
    "scoring.hand_doubles": ["both-halves", "one-half"],
    "target.mode": ["exact", "at-least", "rounds"],
    "target.check": ["every-event", "after-settlement"],
    "target.overshoot": ["discard", "bounce", "none"],
    "target.ties": ["extra-rounds", "draw", "impossible"],
    "target.lead_cannot_win": [True],
    "round_end": ["player-out", "side-out"],
    "claims": ["none", "muggins", "forfeit"],
    "settlement.domino.winner": ["dominoer", "lightest-side"],
    "settlement.domino.events": ["one", "per-hand"],  # not "per-term": declined
    "settlement.block.events": ["one", "per-hand"],
    "settlement.block.winner": ["lightest-hand", "none", "fewest-tiles", "lightest-side"],
    "settlement.block.tie_break": ["fewest-tiles", "none", "lightest-hand", "lightest-tile"],
    "settlement.block.partners_tie": ["side-wins", "no-winner"],
    **{f"settlement.{end}.terms.{key}": values for end in ("domino", "block") for key, values in TERMS.items()},
}
SUPPORTED = {"@fields": ANY_VALUE, **VALUES}  # the `configurations` capability
STEPS = ["play", "claim", "draw", "pass", "call", "observe"]  # the keys of a step it knows; a case with another is skipped


class Illegal(Exception):
    def __init__(self, code):
        super().__init__(code)
        self.code = code


def tile(text):
    a, b = int(text[1]), int(text[3])
    return (min(a, b), max(a, b))


def fmt(t):
    return f"[{t[0]}|{t[1]}]"


def round_to(x, rounding):
    """A term's rounding: "none", or "roundN", the nearest multiple of N (remainder r up when 2r >= N)."""
    if rounding == "none":
        return x
    n = int(rounding[len("round"):])
    if n == 5 and "round-2-up" in BREAKS:
        return (x + 3) // 5 * 5
    return (x + n // 2) // n * n


def placement_points(scoring, count):
    """Raw points of a placement whose counted sum is `count`, by `scoring.formula` (default "value")."""
    if not scoring["in_play"] or count <= 0:
        return 0
    formula = scoring.get("formula", "value")
    if formula == "value":
        return count if count % scoring["multiple"] == 0 else 0
    hits = [d for d in scoring.get("divisors", [scoring["multiple"]]) if count % d == 0]
    if formula == "per-multiple":
        return sum(count // d for d in hits)  # one point per multiple of each divisor
    if formula == "face-value":
        return count * len(hits)  # the count itself, once per divisor
    raise ValueError(f"unknown scoring formula {formula!r}")


def pips(h):
    return sum(a + b for a, b in h)


class Game:
    """A match from explicit deals; `step()` applies one requested step."""

    def __init__(self, cfg, players, deals):
        by_count = cfg["target"].get("raw_by_count", {})  # a target that depends on the player count
        cfg = {**cfg, "target": {**cfg["target"], "raw": by_count.get(str(players), cfg["target"]["raw"])}}
        self.cfg = cfg
        self.n = players
        self.partners = players in cfg["players"]["partnerships"]
        self.side_of = [s % 2 if self.partners else s for s in range(players)]
        self.deals = list(deals)
        self.scores = list(deals[0].get("scores") or [0] * (2 if self.partners else players))
        self.tiebreak = False
        self.match_over = False
        self.winner = None
        self.opening = cfg["opener"]["first_round"]
        self.new_round(self.deals.pop(0))

    # -- rounds ----------------------------------------------------------------

    def new_round(self, deal, prev_seat=None):
        self.hands = [{tile(t) for t in h} for h in deal["hands"]]
        self.bone = [tile(t) for t in deal["boneyard"]]
        self.nodes = {}  # tile -> {"own": side joined by, "occ": {side: child}, "spin": bool}
        self.order = []
        self.first_double_done = False
        self.result = None
        self.only = None
        self.pending_drawn, self.pending_passed, self.pending_pass_drawn = [], [], []
        self.window = None  # claims: (placer, caller, amount a call takes) after a placement
        opener = deal.get("opener")
        if opener is None and self.opening == "seat-0":
            opener = 0  # a fixed opening seat
        if opener is None and self.opening in ("dominoer", "block-winner"):
            opener = prev_seat  # whoever dominoed / won the block (a block without winner: the case gives the seat)
        elif opener is None and self.opening == "next-seat":
            opener = (self.opener + 1) % self.n  # the seat after the previous round's opener
        self.forced = None
        if self.opening == "highest-double":
            ranks = [max(((1, a, 0) if a == b else (0, a + b, b), (a, b)) for a, b in h) for h in self.hands]
            if opener is None:
                opener = max(range(self.n), key=lambda s: ranks[s][0])
            if self.cfg["opener"]["lead"] == "forced":
                self.forced = ranks[opener][1]
        self.opener = opener
        self.seat = opener

    def round_over(self):
        return self.result is not None or self.match_over

    # -- the layout --------------------------------------------------------------

    def is_spinner(self, t):
        return self.nodes[t]["spin"]

    def sides_of(self, t):
        if t[0] != t[1]:
            return ["low", "high"]
        return ["line-a", "line-b"] + (["branch-a", "branch-b"] if self.is_spinner(t) else [])

    def branches_open(self, t):
        node = self.nodes[t]
        if self.cfg["doubles"]["branch_sides"] == "at-once" or "branch-early" in BREAKS:
            return True
        return "line-a" in node["occ"] and "line-b" in node["occ"]

    def value(self, t, side):
        return t[0] if side == "low" or t[0] == t[1] else t[1]

    def free_sides(self):
        """Every free side a tile may join, with its value, sorted (PROTOCOL.md 3.3, 3.1)."""
        out = []
        for t in sorted(self.nodes):
            node = self.nodes[t]
            for side in self.sides_of(t):
                if side in node["occ"] or node.get("dead"):  # the sniff: a one-tile branch is a dead end
                    continue
                if side.startswith("branch") and not self.branches_open(t):
                    continue
                out.append((t, side, self.value(t, side)))
        return sorted(out, key=lambda x: (x[0], SIDE_ORDER.index(x[1])))

    def sniff_orientations(self, t):
        """The orientations a tile may be placed in now: the sniff (the first double) per spinner_orientation."""
        d = self.cfg["doubles"]
        if t[0] != t[1] or d["branching"] != "first" or self.first_double_done:
            return [False]
        return {"crosswise": [False], "endwise": [True], "choice": [False, True]}[
            d.get("spinner_orientation", "crosswise")]

    def counted(self):
        """The counted ends after a placement: free non-double ends, terminal doubles (PROTOCOL.md 3.4)."""
        out = []
        for t in sorted(self.nodes):
            occ = self.nodes[t]["occ"]
            node = self.nodes[t]
            # the sniff: endwise, half per free line side; crosswise with uncovered-sides, half per free branch side
            by = "line" if node.get("endwise") else \
                "branch" if node["spin"] and self.cfg["doubles"].get("spinner_count") == "uncovered-sides" else None
            if by is not None:
                k = sum(1 for side in (by + "-a", by + "-b") if side not in occ)
                if k:
                    out.append((t, "double", k * t[0]))
            elif t[0] == t[1]:
                terminal = "line-a" not in occ or "line-b" not in occ
                if terminal or "internal-double-counts" in BREAKS:
                    out.append((t, "double", 2 * t[0]))
            else:
                for side in ("high", "low"):
                    if side not in occ:
                        out.append((t, side, self.value(t, side)))
        return out

    def legal(self, seat):
        """The moves `seat` may make now, sorted (PROTOCOL.md 3.1); only the drawn tile when it must be placed."""
        hand = self.hands[seat] if self.only is None else {self.only}
        if not self.nodes:
            if self.forced is not None:
                return [(self.forced, None, None, ew) for ew in self.sniff_orientations(self.forced)]
            return [(t, None, None, ew) for t in sorted(hand) for ew in self.sniff_orientations(t)]
        moves = []
        for t in sorted(hand):
            for target, side, v in self.free_sides():
                if v in t:
                    moves.extend((t, target, side, ew) for ew in self.sniff_orientations(t))
        return sorted(moves, key=lambda m: (m[0], m[1], SIDE_ORDER.index(m[2]), m[3]))

    # -- steps ------------------------------------------------------------------

    def check(self, text):
        ew = text.endswith(" endwise")
        if ew or text.endswith(" crosswise"):
            text = text.rsplit(" ", 1)[0]
        t, target, side = self.check_placement(text)
        if ew not in self.sniff_orientations(t):
            raise Illegal("orientation-not-allowed")
        return t, target, side, ew

    def check_placement(self, text):
        """The parsed move, or Illegal with the first reason code that applies (PROTOCOL.md 3.11)."""
        parts = text.split(" on ")
        t = tile(parts[0])
        target, side = (None, None)
        if len(parts) == 2:
            tt, side = parts[1].rsplit(" ", 1)
            target = tile(tt)
        if self.round_over():
            raise Illegal("round-over")
        if t not in self.hands[self.seat]:
            raise Illegal("not-in-hand")
        if not self.nodes:
            if target is not None:
                raise Illegal("must-lead")
            if self.forced is not None and t != self.forced:
                raise Illegal("forced-lead")
            return t, None, None
        if target is None:
            raise Illegal("must-lead")
        if self.only is not None and t != self.only:
            raise Illegal("must-play-drawn")
        if target not in self.nodes:
            raise Illegal("not-on-layout")
        if side not in self.sides_of(target):
            raise Illegal("no-such-side")
        if side in self.nodes[target]["occ"]:
            raise Illegal("side-occupied")
        if self.nodes[target].get("dead"):
            raise Illegal("dead-end")
        if side.startswith("branch") and not self.branches_open(target):
            raise Illegal("branch-closed")
        if self.value(target, side) not in t:
            raise Illegal("no-match")
        return t, target, side

    def drawable(self):
        """How many tiles can still be drawn: the boneyard without its last `reserve` tiles."""
        return max(0, len(self.bone) - self.cfg["reserve"].get(str(self.n), 0))

    def can_draw(self):
        """draw_while_able: a draw is offered after the lead, with no drawn tile to place, while tiles can be drawn."""
        return (bool(self.cfg.get("draw_while_able")) and self.cfg["drawing"] == "until-playable"
                and bool(self.nodes) and self.only is None and self.drawable() > 0)

    def offered(self):
        return [self.move_text(m) for m in self.legal(self.seat)] + (["draw"] if self.can_draw() else [])

    def draw(self):
        """The draw move (draw_while_able): the first tile into the hand; the same seat moves again, any tile."""
        if self.round_over():
            raise Illegal("round-over")
        if not self.cfg.get("draw_while_able") or self.cfg["drawing"] != "until-playable":
            raise Illegal("must-place")
        if not self.nodes:
            raise Illegal("must-lead")
        if self.only is not None:
            raise Illegal("must-play-drawn")
        if not self.can_draw():
            raise Illegal("boneyard-empty")
        offered = self.offered()
        before = [fmt(x) for x in self.pending_drawn]
        x = self.bone.pop(0)
        self.hands[self.seat].add(x)
        self.pending_drawn = self.pending_drawn + [x]
        return {"seat": self.seat, "drawn": before, "passed": list(self.pending_passed),
                "pass_drawn": [list(d) for d in self.pending_pass_drawn], "offered": offered,
                "points": 0, "shown": 0, "events": []}

    def place(self, text, claim=None):
        """Apply a placement step; its observation's move keys (the table keys are added by `observe`)."""
        t, target, side, ew = self.check(text)
        claims = self.cfg.get("claims", "none")
        if claim is not None and claims == "none":
            raise Illegal("claims-off")
        if claim is not None and (not isinstance(claim, int) or isinstance(claim, bool) or claim < 0):
            raise Illegal("negative-claim")
        offered = self.offered()
        seat = self.seat
        drawn, passed, pass_drawn = self.pending_drawn, self.pending_passed, self.pending_pass_drawn
        self.pending_drawn, self.pending_passed, self.pending_pass_drawn = [], [], []
        self.hands[seat].discard(t)
        self.only = None
        pts = self.lay(t, target, side, ew)
        credit = pts
        if claims != "none":  # claims: only the claimed points (shown) count; the next opponent may call
            said = (claim or 0) * self.cfg["scoring"]["unit"]
            credit, take = (said, pts - said) if said <= pts else (0, said)
            caller = next(x % self.n for x in range(seat + 1, seat + self.n) if self.side_of[x % self.n] != self.side_of[seat])
            self.window = (seat, caller, take if claims == "muggins" else 0)
        # knock bonus: so many raw points per pass since the last placement, with this placement's points
        scored = credit + self.cfg["scoring"].get("knock_bonus", 0) * len(passed)
        events = []
        if not self.hands[seat] and not self.partner_plays_on(seat):
            self.domino(seat, scored, events)
        else:
            if scored:
                self.event(self.side_of[seat], "placement", scored, seat, events)
            if not self.match_over:
                self.advance((seat + 1) % self.n, events)
        if self.match_over and self.result is None:
            self.result = {"kind": "target", "seat": None, "side": None, "hand_pips": [pips(h) for h in self.hands]}
        unit = self.cfg["scoring"]["unit"]
        return {"seat": seat, "drawn": [fmt(x) for x in drawn], "passed": passed, "pass_drawn": pass_drawn,
                "offered": offered,
                "points": pts, "shown": pts // unit if pts % unit == 0 else pts / unit, "events": events}

    def lay(self, t, target, side, ew):
        """Put a tile on the layout (PROTOCOL.md 3.3); the raw points its counted ends earn (3.4)."""
        spin = False
        if t[0] == t[1]:
            mode = self.cfg["doubles"]["branching"]
            spin = mode == "every" or (mode == "first" and not self.first_double_done)
            self.first_double_done = True
        if target is None:
            self.nodes[t] = {"own": None, "occ": {}, "spin": spin, "parent": None, "endwise": ew}
        else:
            v = self.value(target, side)
            own = "line-a" if t[0] == t[1] else ("low" if t[0] == v else "high")
            self.nodes[target]["occ"][side] = t
            self.nodes[t] = {"own": own, "occ": {own: target}, "spin": spin, "parent": (target, side), "endwise": ew,
                             "dead": side.startswith("branch")
                             and self.cfg["doubles"].get("branch_length") == "one-tile"}
        self.order.append(t)
        return placement_points(self.cfg["scoring"], sum(v for _, _, v in self.counted()))

    def sees(self, seat):
        """An observe step (PROTOCOL.md 2.1): what `seat` sees. Only its own tiles: of the other hands and the
        boneyard, just how many tiles they hold. Its moves' points are worked out on a copy of the layout."""
        if self.round_over():
            raise Illegal("round-over")
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise ValueError(f"no seat {seat!r} in a game of {self.n}")
        moves = self.legal(seat) if seat == self.seat else []
        claims = self.cfg.get("claims", "none")
        points = []
        for t, target, side, ew in moves:
            table = {"nodes": copy.deepcopy(self.nodes), "order": list(self.order),
                     "first_double_done": self.first_double_done}
            points.append(self.lay(t, target, side, ew))
            self.nodes, self.order, self.first_double_done = table["nodes"], table["order"], table["first_double_done"]
        texts = [self.move_text(m) for m in moves]
        if seat == self.seat and self.can_draw():
            texts, points = texts + ["draw"], points + [0]
        window = self.window
        return {"seat": seat, "hand": [fmt(x) for x in sorted(self.hands[seat])],
                "others": [{"seat": o, "partner": self.side_of[o] == self.side_of[seat], "tiles": len(self.hands[o])}
                           for o in ((seat + k) % self.n for k in range(1, self.n))],
                "boneyard": len(self.bone), "to_move": self.seat, "moves": texts,
                "move_points": None if claims != "none" else points,  # claimed points are not previewed
                "may_call": claims == "muggins" and window is not None and window[1] == seat and bool(window[2])}

    def call(self, seat):
        """claims: `seat` takes what the last placement missed (or its over-claim)."""
        mode = self.cfg.get("claims", "none")
        if self.round_over():
            raise Illegal("round-over")
        if mode == "none":
            raise Illegal("claims-off")
        if mode == "forfeit":
            raise Illegal("no-calls")
        if self.window is None:
            raise Illegal("late-call")
        placer, caller, take = self.window
        if seat != caller:
            raise Illegal("not-caller")
        if not take:
            raise Illegal("nothing-to-take")
        self.window = None
        events = []
        self.event(self.side_of[seat], "call", take, seat, events)
        if self.match_over and self.result is None:
            self.result = {"kind": "target", "seat": None, "side": None, "hand_pips": [pips(h) for h in self.hands]}
        return {"seat": seat, "events": events}

    def partner_plays_on(self, seat):
        """round_end side-out: a seat that goes out while a partner holds tiles does not end the round."""
        if self.cfg.get("round_end", "player-out") != "side-out" or not self.partners:
            return False
        return any(self.hands[s] for s in range(self.n) if self.side_of[s] == self.side_of[seat])

    def move_text(self, m):
        t, target, side, ew = m
        text = fmt(t) if target is None else f"{fmt(t)} on {fmt(target)} {side}"
        return text + " endwise" if ew else text

    def advance(self, s, events):
        """Draw and pass on behalf of seats without a placement until one can place, or block (PROTOCOL.md 3.2)."""
        while True:
            if not self.hands[s]:
                s = (s + 1) % self.n  # an empty seat (side-out) is skipped: it neither plays nor passes
                continue
            if self.legal(s):
                self.seat = s
                return
            drew = []
            limit = self.cfg.get("draw_limit")  # at most K tiles a turn
            while self.drawable() and self.cfg["drawing"] != "none" and (limit is None or len(drew) < limit):
                x = self.bone.pop(0)
                self.hands[s].add(x)
                drew.append(x)
                if any(v in x for _, _, v in self.free_sides()):
                    break
            self.pending_drawn = drew
            if self.legal(s):
                self.seat = s
                self.only = drew[-1] if drew else None
                return
            if not any(self.legal(k) for k in range(self.n)) and not (limit and self.drawable()):
                self.block(events)
                return
            self.pending_passed.append(s)
            self.pending_pass_drawn.append([fmt(x) for x in drew])
            self.pending_drawn = []  # what a passing seat drew is not the placing seat's draw
            s = (s + 1) % self.n

    # -- scoring ----------------------------------------------------------------

    def event(self, side, kind, raw, seat, events):
        """Record one scoring event: entry threshold, overshoot, floor, then the target check (PROTOCOL.md 3.5)."""
        if not raw:
            return
        tgt = self.cfg["target"]
        old = self.scores[side]
        if tgt.get("entry", 0) and old == 0 and raw < tgt["entry"]:  # N to get in: discarded while off the board
            events.append({"side": side, "kind": kind, "raw": raw, "accepted": False, "score_after": 0, "seat": seat})
            return
        new = old + raw
        accepted = True
        if tgt["mode"] == "exact" and new > tgt["raw"] and "no-overshoot-discard" not in BREAKS:
            if tgt["overshoot"] == "bounce":
                new = 2 * tgt["raw"] - new
            else:
                accepted, new = False, old
        if self.cfg.get("score_floor") is not None and new < self.cfg["score_floor"]:
            new = self.cfg["score_floor"]
        lead_hit = new == tgt["raw"] if tgt["mode"] == "exact" else new >= tgt["raw"]
        if tgt.get("lead_cannot_win") and kind == "placement" and len(self.order) == 1 and accepted and lead_hit:
            accepted, new = False, old  # the opening placement cannot win
        self.scores[side] = new
        events.append({"side": side, "kind": kind, "raw": raw, "accepted": accepted, "score_after": new, "seat": seat})
        every = tgt["check"] == "every-event" or "target-before-settlement" in BREAKS
        every = every and tgt["mode"] != "rounds"  # a fixed number of rounds has no target
        reached = new == tgt["raw"] if tgt["mode"] == "exact" else new >= tgt["raw"]
        if accepted and every and reached:
            self.match_over, self.winner = True, side

    def hand_value(self, h):
        """A hand counted at the end of a round: with hand_doubles one-half a double counts one half."""
        if self.cfg["scoring"].get("hand_doubles") == "one-half":
            return sum(a if a == b else a + b for a, b in h)
        return pips(h)

    def clockwise(self, start):
        return [(start + i) % self.n for i in range(self.n)]

    def amounts(self, spec, winner):
        """[(side, amount, seat or None)] of a settlement spec's terms."""
        out = []
        wside = None if winner is None else self.side_of[winner]
        for term in spec["terms"]:
            if term["kind"] == "differences":
                for h in range(self.n):
                    d = sum(self.hand_value(self.hands[o]) - self.hand_value(self.hands[h]) for o in range(self.n)
                            if self.side_of[o] != self.side_of[h] and self.hand_value(self.hands[o]) > self.hand_value(self.hands[h]))
                    out.append((self.side_of[h], round_to(d, term["rounding"]), h))
                continue
            if term["kind"] == "heaviest":  # only the heaviest opponent's hand
                if winner is not None:
                    opp = [s for s in self.clockwise(self.opener) if self.side_of[s] != wside]
                    top = max((self.hand_value(self.hands[s]) for s in opp), default=None)
                    if top is not None:
                        seat = next(s for s in opp if self.hand_value(self.hands[s]) == top)
                        out.append((wside, round_to(top, term["rounding"]), seat))
                continue
            sel = term["hands"]
            if sel != "everyone" and winner is None:
                continue
            seats = [s for s in range(self.n) if sel == "everyone"
                     or (sel == "opponents" and self.side_of[s] != wside)
                     or (sel == "partner" and self.side_of[s] == wside and s != winner)
                     or (sel == "own" and s == winner)]
            sign = -1 if term["sign"] == "debit" else 1
            if term["pooling"] == "pooled":
                if seats:
                    total = sum(self.hand_value(self.hands[s]) for s in seats)
                    out.append((wside if term["to"] == "winner" else None, sign * round_to(total, term["rounding"]), None))
            elif "pool-partners" in BREAKS and term["to"] == "owner":
                for side in sorted({self.side_of[s] for s in seats}):
                    mine = [s for s in seats if self.side_of[s] == side]
                    out.append((side, sign * round_to(sum(self.hand_value(self.hands[s]) for s in mine), term["rounding"]), mine[0]))
            else:
                for s in seats:
                    side = wside if term["to"] == "winner" else self.side_of[s]
                    out.append((side, sign * round_to(self.hand_value(self.hands[s]), term["rounding"]), s))
        return [a for a in out if a[1]]

    def settle(self, spec, kind, winner, fold, events, bonus=0):
        """The settlement's events in the order of PROTOCOL.md 3.6 (`one` per side, else hand by hand)."""
        amounts = self.amounts(spec, winner)
        mode = spec["events"]
        if mode == "one":
            fold += bonus  # the bonus joins the winner side's event (with the last placement, if folded)
            first = self.side_of[winner] if winner is not None else None
            order = []
            start = winner if winner is not None else self.opener
            for s in self.clockwise(start):
                if self.side_of[s] not in order:
                    order.append(self.side_of[s])
            todo = []
            for side in order:
                total = sum(a for sd, a, _ in amounts if sd == side)
                if side == first:
                    total += fold
                todo.append((side, total, winner if side == first else None))
        else:
            pos = {s: i for i, s in enumerate(self.clockwise(self.opener))}
            hand = [a for a in amounts if a[2] is not None]
            hand.sort(key=lambda a: (self.hand_value(self.hands[a[2]]), pos[a[2]]))
            todo = [(sd, a, s) for sd, a, s in hand] + [(sd, a, winner) for sd, a, s in amounts if s is None]
            if bonus and winner is not None:
                todo.insert(0, (self.side_of[winner], bonus, winner))  # the bonus first, as its own event
        for side, raw, seat in todo:
            if self.match_over:
                break
            self.event(side, kind, raw, seat, events)

    def domino(self, seat, pts, events):
        spec = self.cfg["settlement"]["domino"]
        fold = 0
        if spec.get("with_last_placement"):
            fold = pts
        elif pts:
            self.event(self.side_of[seat], "placement", pts, seat, events)
        if not self.match_over:
            self.settle(spec, "domino", self.domino_winner(spec, seat), fold, events, spec.get("bonus", 0))
        self.end("domino", seat)

    def domino_winner(self, spec, seat):
        """The dominoer; with winner lightest-side the lighter side (team totals), none on equal totals."""
        if spec.get("winner", "dominoer") != "lightest-side":
            return seat
        side_pips = {}
        for s, h in enumerate(self.hands):
            side_pips[self.side_of[s]] = side_pips.get(self.side_of[s], 0) + self.hand_value(h)
        lightest = sorted(side_pips.values())
        if len(lightest) > 1 and lightest[0] == lightest[1]:
            return None
        return next(s for s in self.clockwise(seat) if side_pips[self.side_of[s]] == lightest[0])

    def block_winner(self, spec):
        if spec["winner"] == "none":
            return None
        if spec["winner"] in ("fewest-tiles", "lightest-side"):
            return self.house_block_winner(spec["winner"])
        vals = [self.hand_value(h) for h in self.hands]
        tied = [s for s in range(self.n) if vals[s] == min(vals)]
        # partners_tie "no-winner": partners sharing the lightest hand do not win together
        alone = spec.get("partners_tie", "side-wins") == "no-winner"
        shared = (lambda: len(tied) > 1) if alone else (lambda: len({self.side_of[s] for s in tied}) > 1)
        if shared() and spec.get("tie_break") == "fewest-tiles":
            fewest = min(len(self.hands[s]) for s in tied)
            tied = [s for s in tied if len(self.hands[s]) == fewest]
        if shared() and spec.get("tie_break") == "lightest-tile":
            # the hand holding the lightest single tile wins the tie
            def smallest(s):
                return min((a + b for a, b in self.hands[s]), default=0)
            least = min(smallest(s) for s in tied)
            tied = [s for s in tied if smallest(s) == least]
        if shared():
            return None
        return next(s for s in self.clockwise(self.opener) if s in tied)

    def house_block_winner(self, rule):
        """Fewest tiles then fewest pips; or the side with the lowest pip total."""
        if rule == "fewest-tiles":
            key = {s: (len(self.hands[s]), self.hand_value(self.hands[s])) for s in range(self.n)}
            tied = [s for s in range(self.n) if key[s] == min(key.values())]
            if len({self.side_of[s] for s in tied}) > 1:
                return None
            return next(s for s in self.clockwise(self.opener) if s in tied)
        total = {}
        for s in range(self.n):
            total[self.side_of[s]] = total.get(self.side_of[s], 0) + self.hand_value(self.hands[s])
        low = min(total.values())
        if list(total.values()).count(low) > 1:
            return None
        return next(s for s in self.clockwise(self.opener) if total[self.side_of[s]] == low)

    def block(self, events):
        spec = self.cfg["settlement"]["block"]
        winner = self.block_winner(spec)
        self.settle(spec, "block", winner, 0, events)
        self.end("blocked", winner)

    def end(self, kind, seat):
        """The round is over: its result, then the target check after the settlement (PROTOCOL.md 3.7, 3.8)."""
        self.result = {"kind": kind, "seat": seat, "side": None if seat is None else self.side_of[seat],
                       "hand_pips": [pips(h) for h in self.hands]}
        self.last_kind = kind
        tgt = self.cfg["target"]
        self.rounds_done = getattr(self, "rounds_done", 0) + 1
        if getattr(self, "extra_left", 0) and not self.match_over:
            self.extra_left -= 1  # a fixed number of extra rounds after a tie: only the last one decides
            if self.extra_left:
                return
        if tgt["mode"] == "rounds":  # decided after the last round (or a tie-break round)
            if not self.match_over and (self.tiebreak or self.rounds_done >= tgt["rounds"]):
                self.decide_top(tgt)
            return
        if self.match_over or tgt["check"] != "after-settlement" or "target-before-settlement" in BREAKS:
            return
        top = max(self.scores)
        if self.tiebreak or top >= tgt["raw"]:
            if self.scores.count(top) == 1:
                self.match_over, self.winner = True, self.scores.index(top)
            elif tgt["ties"] == "extra-rounds":
                self.tiebreak = True
                self.extra_left = tgt.get("tie_rounds", {}).get(str(self.n), 0)
            elif tgt["ties"] == "draw":
                self.match_over, self.winner = True, None

    def decide_top(self, tgt):
        """The single highest score wins; a shared one plays on (extra rounds) or draws."""
        top = max(self.scores)
        if self.scores.count(top) == 1:
            self.match_over, self.winner = True, self.scores.index(top)
        elif tgt["ties"] == "extra-rounds":
            self.tiebreak = True
            self.extra_left = tgt.get("tie_rounds", {}).get(str(self.n), 0)
        else:
            self.match_over, self.winner = True, None

    def next_round_if_needed(self):
        if self.result is not None and not self.match_over and self.result["kind"] != "target":
            if not self.deals:
                return  # no round follows: every later step is refused round-over (PROTOCOL.md 3.10)
            kind = self.result["kind"]
            self.opening = self.cfg["opener"]["after_domino" if kind == "domino" else "after_block"]
            self.new_round(self.deals.pop(0), self.result["seat"])

    def observe(self, extra):
        """An applied step's observation (PROTOCOL.md 2): `extra` plus the state of the table."""
        unit = self.cfg["scoring"]["unit"]
        obs = {"reject": None}
        obs.update(extra)
        conns = []
        for t in self.order:
            p = self.nodes[t]["parent"]
            if p:
                conns.append([fmt(p[0]), p[1], fmt(t), self.nodes[t]["own"]])
        counted = self.counted()
        obs.update({
            "layout": {"tiles": [fmt(t) for t in self.order], "connections": conns,
                       "spinners": [fmt(t) for t in sorted(self.nodes) if self.nodes[t]["spin"]]},
            "attach_points": [[fmt(t), s, v] for t, s, v in self.free_sides()],
            "counted": [[fmt(t), e, v] for t, e, v in counted],
            "count": sum(v for _, _, v in counted),
            "scores": list(self.scores),
            "shown_scores": [s // unit if s % unit == 0 else s / unit for s in self.scores],
            "round": self.result,
            "match": {"over": self.match_over, "winner": self.winner},
        })
        return obs


def unknown_step_key(case):
    """A key of a requested step this engine does not know (None: it can play every step)."""
    return next((key for step in case["steps"] for key in step if key not in STEPS), None)


def run_case(case):
    g = Game(case["config"], case["players"], [case["setup"]] + list(case.get("next_rounds", [])))
    out = []
    for step in case["steps"]:
        if not g.match_over:
            g.next_round_if_needed()
        try:
            if "play" in step:
                extra = g.place(step["play"], step.get("claim"))
            elif "draw" in step and not g.round_over():
                extra = g.draw()
            elif "call" in step:
                extra = g.call(step["call"])
            elif "observe" in step:
                extra = g.sees(step["observe"])
            else:
                raise Illegal("round-over" if g.round_over() else "must-place")
        except Illegal as exc:
            out.append({"reject": exc.code})
            continue
        out.append(g.observe(extra))
    return {"steps": out}


def misbehave(mode, case_id):
    """True when `mode` is asked for this case (MODE alone: every case)."""
    if mode not in MISBEHAVE:
        return False
    only = MISBEHAVE[mode]
    return only is None or case_id in only.split(",")


DAEMON = """
import os, sys, time
os.setsid()                      # a session of its own: a process-group kill misses it
if os.fork():
    os._exit(0)                  # the middle process exits: the daemon is an orphan
with open(sys.argv[1], "a") as f:
    f.write(f"{os.getpid()}\\n")
os.closerange(0, 3)
time.sleep(600)
"""


def _escape():
    """Start a daemon that escapes the engine's session, and wait until it has written its pid."""
    pidfile = os.environ.get("TOY_ORPHAN_PIDFILE", os.devnull)
    subprocess.run([sys.executable, "-c", DAEMON, pidfile], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    for _ in range(200):
        if pidfile == os.devnull or (os.path.exists(pidfile) and open(pidfile).read().strip()):
            return
        time.sleep(0.01)


FEATURES: list = []  # --features a,b: claim only these feature tags (the runner skips the other cases)


def read_options(argv):
    """--break NAME (a deliberate bug), --misbehave MODE[:CASE] (a protocol fault), --features a,b."""
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--break":
            BREAKS.add(args.pop(0))
        elif a == "--misbehave":
            mode, _, cid = args.pop(0).partition(":")
            MISBEHAVE[mode] = cid or None
        elif a == "--features":
            FEATURES.extend(args.pop(0).split(","))


def main(argv):
    read_options(argv)
    out = sys.stdout
    for line in sys.stdin:
        req = json.loads(line)
        if req["cmd"] == "start":
            version = 99 if "version" in MISBEHAVE else 1
            out.write(json.dumps({"version": version, "implementation": {"name": "toy", "version": "1"},
                                  "capabilities": {**({"features": FEATURES} if FEATURES else {}),
                                                   "observe": True,  # it answers observe steps
                                                   "configurations": SUPPORTED}}) + "\n")
        elif req["cmd"] == "stop":
            return 0
        else:
            seq, case = req["seq"], req["case"]
            cid = case["id"]
            if misbehave("orphan", cid):
                child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
                with open(os.environ.get("TOY_ORPHAN_PIDFILE", os.devnull), "w") as f:
                    f.write(str(child.pid))
                time.sleep(600)
            if misbehave("escape", cid) or misbehave("exit-escape", cid):
                _escape()
                if misbehave("escape", cid):
                    time.sleep(600)
            if misbehave("nested", cid):
                out.write(f'{{"seq": {seq}, "result": {"[" * 200_000 + "]" * 200_000}}}\n')
                out.flush()
                continue
            if misbehave("deep", cid):
                out.write(f'{{"seq": {seq}, "result": {{"steps": {"[" * 500 + "]" * 500}}}}}\n')
                out.flush()
                continue
            if misbehave("hang", cid):
                time.sleep(600)
            if misbehave("crash", cid):
                os._exit(3)
            if misbehave("garbage", cid):
                out.write("this is not json\n")
                out.flush()
                continue
            if misbehave("huge", cid):
                out.write(json.dumps({"seq": seq, "result": {"pad": "x" * (9 * 1024 * 1024)}}) + "\n")
                out.flush()
                continue
            if misbehave("wrongseq", cid):
                seq += 1
            try:
                key = unknown_step_key(case)
                if key is not None:  # a kind of step added to the protocol after this engine: declined
                    answer = {"seq": seq, "skipped": {"reason": f"the engine does not play {json.dumps(key)} steps"}}
                else:
                    answer = {"seq": seq, "result": run_case(case)}
            except Exception as exc:  # noqa: BLE001
                answer = {"seq": seq, "errored": {"message": f"{type(exc).__name__}: {exc}"}}
            out.write(json.dumps(answer) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
