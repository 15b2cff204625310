#!/usr/bin/env node
// An example engine for the conformance suite, in JavaScript (Node.js 18 or later, no dependencies).
//
// The port of toy_engine.py (its rules, without the --break and --misbehave flags), to
// show that conformance/PROTOCOL.md is language-agnostic. It shares no code with
// rulelang: it reads the compiled configuration (docs/config.md) and plays the rules
// listed in SUPPORTED below. It declares that table at `start`, so the runner skips
// ("declines") every case whose configuration uses a field or a value outside it: a
// rule added to rulelang after this file was written is declined, never failed, until
// someone implements it here and adds its field to the table.
//
//     node toy_engine.mjs [--features a,b]

import readline from "node:readline";

const SIDE_ORDER = ["branch-a", "branch-b", "high", "line-a", "line-b", "low"];

// -- what this engine plays (declared at `start`, PROTOCOL.md 1) ---------------------------
// Every configuration field this engine reads is named here: in ANY_VALUE when it plays
// every value of the field, in VALUES with the values it plays. The runner skips a case
// whose configuration holds any other field or value, with the reason in the report.

const ANY_VALUE = [
  "format", "name", "title", "source", "based_on", "players.counts", "hand_size", "reserve", "draw_limit",
  "scoring.in_play", "scoring.multiple", "scoring.divisors", "scoring.unit", "scoring.knock_bonus",
  "target.raw", "target.raw_by_count", "target.entry", "target.rounds", "target.tie_rounds", "score_floor",
  "settlement.domino.with_last_placement", "settlement.domino.bonus",
  "settlement.domino.terms.rounding", "settlement.block.terms.rounding", // "none" or "roundN", any N
];
const TERMS = { // a settlement term (docs/config.md), the same for a domino and a block
  kind: ["hands", "differences", "heaviest"], hands: ["opponents", "partner", "own", "everyone"],
  pooling: ["pooled", "each"], to: ["winner", "owner"], sign: ["credit", "debit"],
};
const VALUES = {
  tiles: [6], // the double-six set only
  "players.partnerships": [4],
  drawing: ["until-playable", "none"],
  draw_while_able: [true],
  "opener.first_round": ["lottery", "highest-double", "seat-0"],
  "opener.after_domino": ["dominoer", "lottery", "highest-double", "next-seat", "seat-0"],
  "opener.after_block": ["lottery", "highest-double", "next-seat", "block-winner", "seat-0"],
  "opener.lead": ["any", "forced"],
  "doubles.branching": ["every", "first", "none"],
  "doubles.branch_sides": ["after-line", "at-once"],
  "doubles.terminal_count": ["both-halves"], // not "one-half": declined
  "doubles.spinner_orientation": ["crosswise", "endwise", "choice"],
  "doubles.spinner_count": ["terminal", "uncovered-sides"],
  "doubles.branch_length": ["unlimited", "one-tile"],
  "scoring.formula": ["value", "per-multiple", "face-value"],
  "scoring.hand_doubles": ["both-halves", "one-half"],
  "target.mode": ["exact", "at-least", "rounds"],
  "target.check": ["every-event", "after-settlement"],
  "target.overshoot": ["discard", "bounce", "none"],
  "target.ties": ["extra-rounds", "draw", "impossible"],
  "target.lead_cannot_win": [true],
  round_end: ["player-out", "side-out"],
  claims: ["none", "muggins", "forfeit"],
  "settlement.domino.winner": ["dominoer", "lightest-side"],
  "settlement.domino.events": ["one", "per-hand"], // not "per-term": declined
  "settlement.block.events": ["one", "per-hand"],
  "settlement.block.winner": ["lightest-hand", "none", "fewest-tiles", "lightest-side"],
  "settlement.block.tie_break": ["fewest-tiles", "none", "lightest-hand", "lightest-tile"],
  "settlement.block.partners_tie": ["side-wins", "no-winner"],
};
for (const end of ["domino", "block"]) {
  for (const [key, values] of Object.entries(TERMS)) VALUES[`settlement.${end}.terms.${key}`] = values;
}
const SUPPORTED = { "@fields": ANY_VALUE, ...VALUES }; // the `configurations` capability
const STEPS = ["play", "claim", "draw", "pass", "call", "observe"]; // the keys of a step it knows; a case with another is skipped

class Illegal extends Error {
  constructor(code) {
    super(code);
    this.name = "Illegal";
    this.code = code;
  }
}

// A tile is the number 10 * low + high: numeric order is the (low, high) order.
function tile(text) {
  const a = Number.parseInt(text[1], 10);
  const b = Number.parseInt(text[3], 10);
  if (Number.isNaN(a) || Number.isNaN(b)) throw new Error(`not a tile: ${JSON.stringify(text)}`);
  return Math.min(a, b) * 10 + Math.max(a, b);
}
const lo = (t) => Math.floor(t / 10);
const hi = (t) => t % 10;
const isDouble = (t) => lo(t) === hi(t);
const has = (t, v) => lo(t) === v || hi(t) === v;
const fmt = (t) => `[${lo(t)}|${hi(t)}]`;
// A term's rounding: "none", or "roundN", the nearest multiple of N (remainder r up when 2r >= N).
function roundTo(x, rounding) {
  if (rounding === "none") return x;
  const n = Number.parseInt(rounding.slice("round".length), 10);
  return Math.floor((x + Math.floor(n / 2)) / n) * n;
}

// Raw points of a placement whose counted sum is `count`, by `scoring.formula` (default "value").
function placementPoints(scoring, count) {
  if (!scoring.in_play || count <= 0) return 0;
  const formula = scoring.formula ?? "value";
  if (formula === "value") return count % scoring.multiple === 0 ? count : 0;
  const hits = (scoring.divisors ?? [scoring.multiple]).filter((d) => count % d === 0);
  if (formula === "per-multiple") return hits.reduce((acc, d) => acc + count / d, 0); // a point per multiple
  if (formula === "face-value") return count * hits.length; // the count itself, once per divisor
  throw new Error(`unknown scoring formula ${JSON.stringify(formula)}`);
}
const pips = (h) => {
  let s = 0;
  for (const t of h) s += lo(t) + hi(t);
  return s;
};
const byNumber = (a, b) => a - b;
const sortedTiles = (it) => [...it].sort(byNumber);
const shownOf = (raw, unit) => raw / unit; // an integer whenever unit divides raw, as in Python
const sideIndex = (s) => SIDE_ORDER.indexOf(s);

// Lexicographic comparison of arrays of numbers.
function cmpArr(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length - b.length;
}

class Game {
  // A match from explicit deals; `place()` applies one requested placement.
  constructor(cfg, players, deals) {
    // a target that depends on the player count
    const byCount = cfg.target.raw_by_count || {};
    const raw = byCount[String(players)] ?? cfg.target.raw;
    cfg = { ...cfg, target: { ...cfg.target, raw } };
    this.cfg = cfg;
    this.n = players;
    this.partners = cfg.players.partnerships.includes(players);
    this.sideOf = [];
    for (let s = 0; s < players; s++) this.sideOf.push(this.partners ? s % 2 : s);
    this.deals = [...deals];
    const given = deals[0].scores;
    this.scores = given && given.length ? [...given] : new Array(this.partners ? 2 : players).fill(0);
    this.tiebreak = false;
    this.matchOver = false;
    this.winner = null;
    this.opening = cfg.opener.first_round;
    this.newRound(this.deals.shift());
  }

  // -- rounds ------------------------------------------------------------------

  newRound(deal, prevSeat = null) {
    this.hands = deal.hands.map((h) => new Set(h.map(tile)));
    this.bone = deal.boneyard.map(tile);
    this.nodes = new Map(); // tile -> {own, occ: Map side -> child, spin, parent}
    this.order = [];
    this.firstDoubleDone = false;
    this.result = null;
    this.only = null;
    this.window = null; // claims: [placer, caller, what a call takes] after a placement
    this.pendingDrawn = [];
    this.pendingPassed = [];
    this.pendingPassDrawn = [];
    let opener = deal.opener ?? null;
    if (opener === null && this.opening === "seat-0") opener = 0; // a fixed opening seat
    if (opener === null && (this.opening === "dominoer" || this.opening === "block-winner")) {
      opener = prevSeat; // whoever dominoed / won the block (a block without winner: the case gives the seat)
    } else if (opener === null && this.opening === "next-seat") {
      opener = (this.opener + 1) % this.n; // the seat after the previous round's opener
    }
    this.forced = null;
    if (this.opening === "highest-double") {
      const ranks = this.hands.map((h) => {
        let best = null;
        for (const t of h) {
          const a = lo(t);
          const b = hi(t);
          const key = a === b ? [1, a, 0, a, b] : [0, a + b, b, a, b];
          if (best === null || cmpArr(key, best.key) > 0) best = { key, tile: t };
        }
        if (best === null) throw new Error("max() arg is an empty sequence");
        return best;
      });
      if (opener === null) {
        opener = 0;
        for (let s = 1; s < this.n; s++) {
          if (cmpArr(ranks[s].key.slice(0, 3), ranks[opener].key.slice(0, 3)) > 0) opener = s;
        }
      }
      if (this.cfg.opener.lead === "forced") this.forced = ranks[opener].tile;
    }
    this.opener = opener;
    this.seat = opener;
  }

  roundOver() {
    return this.result !== null || this.matchOver;
  }

  // -- the layout ----------------------------------------------------------------

  sidesOf(t) {
    if (!isDouble(t)) return ["low", "high"];
    return this.nodes.get(t).spin ? ["line-a", "line-b", "branch-a", "branch-b"] : ["line-a", "line-b"];
  }

  branchesOpen(t) {
    const node = this.nodes.get(t);
    if (this.cfg.doubles.branch_sides === "at-once") return true;
    return node.occ.has("line-a") && node.occ.has("line-b");
  }

  value(t, side) {
    return side === "low" || isDouble(t) ? lo(t) : hi(t);
  }

  // every free side a tile may join, with its value, sorted (PROTOCOL.md 3.3, 3.1)
  freeSides() {
    const out = [];
    for (const t of sortedTiles(this.nodes.keys())) {
      const node = this.nodes.get(t);
      for (const side of this.sidesOf(t)) {
        if (node.occ.has(side) || node.dead) continue; // the sniff: a one-tile branch ends in a dead end
        if (side.startsWith("branch") && !this.branchesOpen(t)) continue;
        out.push([t, side, this.value(t, side)]);
      }
    }
    return out.sort((x, y) => x[0] - y[0] || sideIndex(x[1]) - sideIndex(y[1]));
  }

  // The orientations (false: crosswise, true: endwise) a tile may be placed in now: the sniff, the
  // round's first double, per doubles.spinner_orientation; every other tile crosswise.
  orientations(t) {
    const d = this.cfg.doubles;
    if (!isDouble(t) || d.branching !== "first" || this.firstDoubleDone) return [false];
    const o = d.spinner_orientation ?? "crosswise";
    return o === "choice" ? [false, true] : [o === "endwise"];
  }

  // the counted ends after a placement: free non-double ends, terminal doubles (PROTOCOL.md 3.4)
  counted() {
    const out = [];
    const uncovered = this.cfg.doubles.spinner_count === "uncovered-sides";
    for (const t of sortedTiles(this.nodes.keys())) {
      const node = this.nodes.get(t);
      const occ = node.occ;
      // the sniff: endwise it counts its half per free line side; crosswise, with spinner_count
      // uncovered-sides, its half per branch side nothing covers
      const by = node.endwise ? "line" : node.spin && uncovered ? "branch" : null;
      if (by !== null) {
        const k = [`${by}-a`, `${by}-b`].filter((side) => !occ.has(side)).length;
        if (k > 0) out.push([t, "double", k * lo(t)]);
      } else if (isDouble(t)) {
        if (!occ.has("line-a") || !occ.has("line-b")) out.push([t, "double", 2 * lo(t)]);
      } else {
        for (const side of ["high", "low"]) {
          if (!occ.has(side)) out.push([t, side, this.value(t, side)]);
        }
      }
    }
    return out;
  }

  // the moves `seat` may make now, sorted (PROTOCOL.md 3.1); only the drawn tile when it must be placed
  legal(seat) {
    const hand = this.only === null ? this.hands[seat] : new Set([this.only]);
    if (this.nodes.size === 0) {
      const leads = this.forced !== null ? [this.forced] : sortedTiles(hand);
      return leads.flatMap((t) => this.orientations(t).map((ew) => [t, null, null, ew]));
    }
    const moves = [];
    const free = this.freeSides();
    for (const t of sortedTiles(hand)) {
      for (const [target, side, v] of free) {
        if (has(t, v)) for (const ew of this.orientations(t)) moves.push([t, target, side, ew]);
      }
    }
    return moves.sort((a, b) => a[0] - b[0] || a[1] - b[1] || sideIndex(a[2]) - sideIndex(b[2]) ||
      Number(a[3]) - Number(b[3]));
  }

  // -- steps ---------------------------------------------------------------------

  check(text) {
    const m = / (endwise|crosswise)$/.exec(text);
    const ew = m !== null && m[1] === "endwise";
    const [t, target, side] = this.checkPlacement(m === null ? text : text.slice(0, m.index));
    if (!this.orientations(t).includes(ew)) throw new Illegal("orientation-not-allowed");
    return [t, target, side, ew];
  }

  // the parsed move, or Illegal with the first reason code that applies (PROTOCOL.md 3.11)
  checkPlacement(text) {
    const parts = text.split(" on ");
    const t = tile(parts[0]);
    let target = null;
    let side = null;
    if (parts.length === 2) {
      const cut = parts[1].lastIndexOf(" ");
      if (cut < 0) throw new Error(`not enough values to unpack: ${JSON.stringify(parts[1])}`);
      target = tile(parts[1].slice(0, cut));
      side = parts[1].slice(cut + 1);
    }
    if (this.roundOver()) throw new Illegal("round-over");
    if (!this.hands[this.seat].has(t)) throw new Illegal("not-in-hand");
    if (this.nodes.size === 0) {
      if (target !== null) throw new Illegal("must-lead");
      if (this.forced !== null && t !== this.forced) throw new Illegal("forced-lead");
      return [t, null, null];
    }
    if (target === null) throw new Illegal("must-lead");
    if (this.only !== null && t !== this.only) throw new Illegal("must-play-drawn");
    if (!this.nodes.has(target)) throw new Illegal("not-on-layout");
    if (!this.sidesOf(target).includes(side)) throw new Illegal("no-such-side");
    if (this.nodes.get(target).occ.has(side)) throw new Illegal("side-occupied");
    if (this.nodes.get(target).dead) throw new Illegal("dead-end");
    if (side.startsWith("branch") && !this.branchesOpen(target)) throw new Illegal("branch-closed");
    if (!has(t, this.value(target, side))) throw new Illegal("no-match");
    return [t, target, side];
  }

  // draw_while_able: a draw is offered after the lead, with no drawn tile to place, while tiles can be drawn
  canDraw() {
    return Boolean(this.cfg.draw_while_able) && this.cfg.drawing === "until-playable"
      && this.order.length > 0 && this.only === null && this.drawable() > 0;
  }

  // how many tiles can still be drawn: the boneyard without its last `reserve` tiles
  drawable() {
    return Math.max(0, this.bone.length - (this.cfg.reserve[String(this.n)] ?? 0));
  }

  offered() {
    const out = this.legal(this.seat).map((m) => this.moveText(m));
    if (this.canDraw()) out.push("draw");
    return out;
  }

  // The draw move (draw_while_able): the first tile into the hand; the same seat moves again, any tile.
  draw() {
    if (this.roundOver()) throw new Illegal("round-over");
    if (!this.cfg.draw_while_able || this.cfg.drawing !== "until-playable") throw new Illegal("must-place");
    if (this.order.length === 0) throw new Illegal("must-lead");
    if (this.only !== null) throw new Illegal("must-play-drawn");
    if (!this.canDraw()) throw new Illegal("boneyard-empty");
    const offered = this.offered();
    const before = this.pendingDrawn.map(fmt);
    const x = this.bone.shift();
    this.hands[this.seat].add(x);
    this.pendingDrawn = [...this.pendingDrawn, x];
    return {
      seat: this.seat, drawn: before, passed: [...this.pendingPassed],
      pass_drawn: this.pendingPassDrawn.map((d) => [...d]), offered, points: 0, shown: 0, events: [],
    };
  }

  // apply a placement step; its observation's move keys (the table keys are added by `observe`)
  place(text, claim) {
    const [t, target, side, ew] = this.check(text);
    const claims = this.cfg.claims || "none";
    if (claim !== undefined && claims === "none") throw new Illegal("claims-off");
    if (claim !== undefined && !(Number.isInteger(claim) && claim >= 0)) throw new Illegal("negative-claim");
    const offered = this.offered();
    const seat = this.seat;
    const drawn = this.pendingDrawn;
    const passed = this.pendingPassed;
    const passDrawn = this.pendingPassDrawn;
    this.pendingDrawn = [];
    this.pendingPassed = [];
    this.pendingPassDrawn = [];
    this.hands[seat].delete(t);
    this.only = null;
    const scoring = this.cfg.scoring;
    const pts = this.lay(t, target, side, ew);
    let credit = pts;
    if (claims !== "none") {
      // claims: the claim is in shown points; more than the score earns nothing and is a penalty
      const said = (claim || 0) * scoring.unit;
      const take = said <= pts ? pts - said : said;
      credit = said <= pts ? said : 0;
      let caller = (seat + 1) % this.n;
      while (this.sideOf[caller] === this.sideOf[seat]) caller = (caller + 1) % this.n;
      this.window = [seat, caller, claims === "muggins" ? take : 0];
    }
    // knock bonus: each knock (pass) since the last placement adds its raw points to this placement's
    const withKnocks = credit + (scoring.knock_bonus ?? 0) * passed.length;
    const events = [];
    if (this.hands[seat].size === 0 && !this.partnerPlaysOn(seat)) {
      this.domino(seat, withKnocks, events);
    } else {
      if (withKnocks) this.event(this.sideOf[seat], "placement", withKnocks, seat, events);
      if (!this.matchOver) this.advance((seat + 1) % this.n, events);
    }
    if (this.matchOver && this.result === null) {
      this.result = { kind: "target", seat: null, side: null, hand_pips: this.hands.map(pips) };
    }
    return {
      seat,
      drawn: drawn.map(fmt),
      passed,
      pass_drawn: passDrawn,
      offered,
      points: pts,
      shown: shownOf(pts, scoring.unit),
      events,
    };
  }

  // put a tile on the layout (PROTOCOL.md 3.3); the raw points its counted ends earn (3.4)
  lay(t, target, side, ew) {
    let spin = false;
    if (isDouble(t)) {
      const mode = this.cfg.doubles.branching;
      spin = mode === "every" || (mode === "first" && !this.firstDoubleDone);
      this.firstDoubleDone = true;
    }
    if (target === null) {
      this.nodes.set(t, { own: null, occ: new Map(), spin, parent: null, endwise: ew });
    } else {
      const v = this.value(target, side);
      const own = isDouble(t) ? "line-a" : lo(t) === v ? "low" : "high";
      this.nodes.get(target).occ.set(side, t);
      const dead = side.startsWith("branch") && this.cfg.doubles.branch_length === "one-tile";
      this.nodes.set(t, { own, occ: new Map([[own, target]]), spin, parent: [target, side], endwise: ew, dead });
    }
    this.order.push(t);
    return placementPoints(this.cfg.scoring, this.counted().reduce((s, x) => s + x[2], 0));
  }

  // an observe step (PROTOCOL.md 2.1): what `seat` sees. Only its own tiles: of the other hands and the
  // boneyard, just how many tiles they hold. Its moves' points are worked out on a copy of the layout.
  sees(seat) {
    if (this.roundOver()) throw new Illegal("round-over");
    if (!Number.isInteger(seat) || seat < 0 || seat >= this.n) throw new Error(`no seat ${seat} in a game of ${this.n}`);
    const moves = seat === this.seat ? this.legal(seat) : [];
    const points = [];
    for (const [t, target, side, ew] of moves) {
      const nodes = new Map([...this.nodes].map(([k, v]) => [k, { ...v, occ: new Map(v.occ) }]));
      const order = [...this.order];
      const first = this.firstDoubleDone;
      points.push(this.lay(t, target, side, ew));
      this.nodes = nodes;
      this.order = order;
      this.firstDoubleDone = first;
    }
    const texts = moves.map((m) => this.moveText(m));
    if (seat === this.seat && this.canDraw()) {
      texts.push("draw");
      points.push(0);
    }
    const claims = this.cfg.claims || "none";
    const others = [];
    for (let k = 1; k < this.n; k++) {
      const o = (seat + k) % this.n;
      others.push({ seat: o, partner: this.sideOf[o] === this.sideOf[seat], tiles: this.hands[o].size });
    }
    const w = this.window;
    return {
      seat, hand: sortedTiles(this.hands[seat]).map(fmt), others, boneyard: this.bone.length,
      to_move: this.seat, moves: texts,
      move_points: claims === "none" ? points : null, // claimed points are not previewed
      may_call: claims === "muggins" && w !== null && w[1] === seat && Boolean(w[2]),
    };
  }

  // round_end side-out: a seat that goes out while a partner holds tiles does not end the round.
  partnerPlaysOn(seat) {
    if ((this.cfg.round_end ?? "player-out") !== "side-out" || !this.partners) return false;
    for (let s = 0; s < this.n; s++) {
      if (this.sideOf[s] === this.sideOf[seat] && this.hands[s].size) return true;
    }
    return false;
  }

  moveText([t, target, side, ew]) {
    const text = target === null ? fmt(t) : `${fmt(t)} on ${fmt(target)} ${side}`;
    return ew ? `${text} endwise` : text;
  }

  // draw and pass on behalf of seats without a placement until one can place, or block (PROTOCOL.md 3.2)
  advance(s, events) {
    for (;;) {
      if (this.hands[s].size === 0) {
        s = (s + 1) % this.n; // an empty seat (side-out) is skipped: it neither plays nor passes
        continue;
      }
      if (this.legal(s).length) {
        this.seat = s;
        return;
      }
      const drew = [];
      const limit = this.cfg.draw_limit ?? null; // at most K tiles a turn
      while (this.drawable() && this.cfg.drawing !== "none" && (limit === null || drew.length < limit)) {
        const x = this.bone.shift();
        this.hands[s].add(x);
        drew.push(x);
        if (this.freeSides().some(([, , v]) => has(x, v))) break;
      }
      this.pendingDrawn = drew;
      if (this.legal(s).length) {
        this.seat = s;
        this.only = drew.length ? drew[drew.length - 1] : null;
        return;
      }
      let anyone = false;
      for (let k = 0; k < this.n; k++) if (this.legal(k).length) anyone = true;
      if (!anyone && !(limit && this.drawable())) {
        this.block(events);
        return;
      }
      this.pendingPassed.push(s);
      this.pendingPassDrawn.push(drew.map(fmt));
      this.pendingDrawn = []; // what a passing seat drew is not the placing seat's draw
      s = (s + 1) % this.n;
    }
  }

  // -- scoring ---------------------------------------------------------------------

  // record one scoring event: entry threshold, overshoot, floor, then the target check (PROTOCOL.md 3.5)
  event(side, kind, raw, seat, events) {
    if (!raw) return;
    const tgt = this.cfg.target;
    const old = this.scores[side];
    if (tgt.entry && old === 0 && raw < tgt.entry) {
      // N to get in: discarded while off the board
      events.push({ side, kind, raw, accepted: false, score_after: 0, seat });
      return;
    }
    let now = old + raw;
    let accepted = true;
    if (tgt.mode === "exact" && now > tgt.raw) {
      if (tgt.overshoot === "bounce") {
        now = 2 * tgt.raw - now;
      } else {
        accepted = false;
        now = old;
      }
    }
    const floor = this.cfg.score_floor;
    if (floor !== undefined && floor !== null && now < floor) now = floor;
    // the opening placement cannot win
    const leadHit = tgt.mode === "exact" ? now === tgt.raw : now >= tgt.raw;
    if (tgt.lead_cannot_win && kind === "placement" && this.order.length === 1 && accepted && leadHit) {
      accepted = false;
      now = old;
    }
    this.scores[side] = now;
    events.push({ side, kind, raw, accepted, score_after: now, seat });
    const every = tgt.check === "every-event" && tgt.mode !== "rounds"; // a fixed number of rounds has no target
    const reached = tgt.mode === "exact" ? now === tgt.raw : now >= tgt.raw;
    if (accepted && every && reached) {
      this.matchOver = true;
      this.winner = side;
    }
  }

  clockwise(start) {
    const out = [];
    for (let i = 0; i < this.n; i++) out.push((start + i) % this.n);
    return out;
  }

  // [[side, amount, seat or null]] of a settlement spec's terms.
  amounts(spec, winner) {
    const out = [];
    const wside = winner === null ? null : this.sideOf[winner];
    const hp = this.hands.map((h) => this.handValue(h));
    for (const term of spec.terms) {
      if (term.kind === "differences") {
        for (let h = 0; h < this.n; h++) {
          let d = 0;
          for (let o = 0; o < this.n; o++) {
            if (this.sideOf[o] !== this.sideOf[h] && hp[o] > hp[h]) d += hp[o] - hp[h];
          }
          out.push([this.sideOf[h], roundTo(d, term.rounding), h]);
        }
        continue;
      }
      if (term.kind === "heaviest") { // only the heaviest opponent's hand
        if (winner !== null) {
          let seat = null;
          for (const s of this.clockwise(this.opener)) {
            if (this.sideOf[s] !== wside && (seat === null || hp[s] > hp[seat])) seat = s;
          }
          if (seat !== null) out.push([wside, roundTo(hp[seat], term.rounding), seat]);
        }
        continue;
      }
      const sel = term.hands;
      if (sel !== "everyone" && winner === null) continue;
      const seats = [];
      for (let s = 0; s < this.n; s++) {
        if (sel === "everyone"
          || (sel === "opponents" && this.sideOf[s] !== wside)
          || (sel === "partner" && this.sideOf[s] === wside && s !== winner)
          || (sel === "own" && s === winner)) seats.push(s);
      }
      const sign = term.sign === "debit" ? -1 : 1;
      if (term.pooling === "pooled") {
        if (seats.length) {
          const total = seats.reduce((acc, s) => acc + hp[s], 0);
          out.push([term.to === "winner" ? wside : null, sign * roundTo(total, term.rounding), null]);
        }
      } else {
        for (const s of seats) {
          const side = term.to === "winner" ? wside : this.sideOf[s];
          out.push([side, sign * roundTo(hp[s], term.rounding), s]);
        }
      }
    }
    return out.filter((a) => a[1]);
  }

  // the settlement's events in the order of PROTOCOL.md 3.6 (`one` per side, else hand by hand)
  settle(spec, kind, winner, fold, events, bonus = 0) {
    const amounts = this.amounts(spec, winner);
    let todo;
    if (spec.events === "one") {
      fold += bonus; // the bonus joins the winner side's event (with the last placement, if folded)
      const first = winner !== null ? this.sideOf[winner] : null;
      const order = [];
      const start = winner !== null ? winner : this.opener;
      for (const s of this.clockwise(start)) {
        if (!order.includes(this.sideOf[s])) order.push(this.sideOf[s]);
      }
      todo = [];
      for (const side of order) {
        let total = 0;
        for (const [sd, a] of amounts) if (sd === side) total += a;
        if (side === first) total += fold;
        todo.push([side, total, side === first ? winner : null]);
      }
    } else {
      const pos = new Map(this.clockwise(this.opener).map((s, i) => [s, i]));
      const hand = amounts.filter((a) => a[2] !== null);
      hand.sort((a, b) => this.handValue(this.hands[a[2]]) - this.handValue(this.hands[b[2]]) || pos.get(a[2]) - pos.get(b[2]));
      todo = [...hand.map(([sd, a, s]) => [sd, a, s]),
        ...amounts.filter((a) => a[2] === null).map(([sd, a]) => [sd, a, winner])];
      if (bonus && winner !== null) todo.unshift([this.sideOf[winner], bonus, winner]); // the bonus first, as its own event
    }
    for (const [side, raw, seat] of todo) {
      if (this.matchOver) break;
      this.event(side, kind, raw, seat, events);
    }
  }

  domino(seat, pts, events) {
    const spec = this.cfg.settlement.domino;
    let fold = 0;
    if (spec.with_last_placement) {
      fold = pts;
    } else if (pts) {
      this.event(this.sideOf[seat], "placement", pts, seat, events);
    }
    if (!this.matchOver) this.settle(spec, "domino", this.dominoWinner(spec, seat), fold, events, spec.bonus ?? 0);
    this.end("domino", seat);
  }

  handValue(h) {
    // hand_doubles one-half: a double left in hand counts one half ([4|4] counts 4)
    if (this.cfg.scoring.hand_doubles !== "one-half") return pips(h);
    let v = 0;
    for (const t of h) v += isDouble(t) ? lo(t) : lo(t) + hi(t);
    return v;
  }

  dominoWinner(spec, seat) {
    // winner lightest-side: the side with the lower pip total wins the domino (none when totals are equal)
    if ((spec.winner ?? "dominoer") !== "lightest-side") return seat;
    const sums = [];
    this.hands.forEach((h, s) => { sums[this.sideOf[s]] = (sums[this.sideOf[s]] || 0) + this.handValue(h); });
    const sorted = sums.slice().sort((a, b) => a - b);
    if (sorted.length > 1 && sorted[0] === sorted[1]) return null;
    for (let i = 0; i < this.n; i++) {
      const s = (seat + i) % this.n;
      if (sums[this.sideOf[s]] === sorted[0]) return s;
    }
    return null;
  }

  houseBlockWinner(rule) {
    // fewest tiles then fewest pips; or the side with the lowest pip total
    const order = this.clockwise(this.opener);
    if (rule === "fewest-tiles") {
      const key = (s) => this.hands[s].size * 1000 + this.handValue(this.hands[s]);
      const best = Math.min(...order.map(key));
      const tied = order.filter((s) => key(s) === best);
      if (new Set(tied.map((s) => this.sideOf[s])).size > 1) return null;
      return tied[0];
    }
    const total = new Map();
    for (const s of order) total.set(this.sideOf[s], (total.get(this.sideOf[s]) || 0) + this.handValue(this.hands[s]));
    const low = Math.min(...total.values());
    if ([...total.values()].filter((x) => x === low).length > 1) return null;
    return order.find((s) => total.get(this.sideOf[s]) === low);
  }

  blockWinner(spec) {
    if (spec.winner === "none") return null;
    if (spec.winner === "fewest-tiles" || spec.winner === "lightest-side") return this.houseBlockWinner(spec.winner);
    const vals = this.hands.map((h) => this.handValue(h));
    const least = Math.min(...vals);
    let tied = [];
    for (let s = 0; s < this.n; s++) if (vals[s] === least) tied.push(s);
    // partners_tie "no-winner": partners sharing the lightest hand do not win together
    const alone = (spec.partners_tie ?? "side-wins") === "no-winner";
    const shared = () => (alone ? tied.length : new Set(tied.map((s) => this.sideOf[s])).size) > 1;
    if (shared() && spec.tie_break === "fewest-tiles") {
      const fewest = Math.min(...tied.map((s) => this.hands[s].size));
      tied = tied.filter((s) => this.hands[s].size === fewest);
    }
    if (shared() && spec.tie_break === "lightest-tile") {
      // the lightest single tile held breaks the tie
      const smallest = (s) => (this.hands[s].size ? Math.min(...[...this.hands[s]].map((t) => lo(t) + hi(t))) : 0);
      const least = Math.min(...tied.map(smallest));
      tied = tied.filter((s) => smallest(s) === least);
    }
    if (shared()) return null;
    const found = this.clockwise(this.opener).find((s) => tied.includes(s));
    if (found === undefined) throw new Error("StopIteration");
    return found;
  }

  block(events) {
    const spec = this.cfg.settlement.block;
    const winner = this.blockWinner(spec);
    this.settle(spec, "block", winner, 0, events);
    this.end("blocked", winner);
  }

  // the round is over: its result, then the target check after the settlement (PROTOCOL.md 3.7, 3.8)
  end(kind, seat) {
    this.result = {
      kind,
      seat,
      side: seat === null ? null : this.sideOf[seat],
      hand_pips: this.hands.map(pips),
    };
    const tgt = this.cfg.target;
    this.roundsDone = (this.roundsDone || 0) + 1;
    if (this.extraLeft && !this.matchOver) {
      // tie_rounds: of a fixed number of extra rounds, only the last decides
      this.extraLeft -= 1;
      if (this.extraLeft > 0) return;
    }
    if (tgt.mode === "rounds") {
      // decided after the last round (or a tie-break round)
      if (!this.matchOver && (this.tiebreak || this.roundsDone >= tgt.rounds)) this.decideTop(tgt);
      return;
    }
    if (this.matchOver || tgt.check !== "after-settlement") return;
    const top = Math.max(...this.scores);
    if (this.tiebreak || top >= tgt.raw) {
      if (this.scores.filter((x) => x === top).length === 1) {
        this.matchOver = true;
        this.winner = this.scores.indexOf(top);
      } else if (tgt.ties === "extra-rounds") {
        this.tiebreak = true;
        this.extraLeft = (tgt.tie_rounds ?? {})[String(this.n)] ?? 0;
      } else if (tgt.ties === "draw") {
        this.matchOver = true;
        this.winner = null;
      }
    }
  }

  decideTop(tgt) {
    // the single highest score wins; a shared one plays on (extra rounds) or draws
    const top = Math.max(...this.scores);
    if (this.scores.filter((x) => x === top).length === 1) {
      this.matchOver = true;
      this.winner = this.scores.indexOf(top);
    } else if (tgt.ties === "extra-rounds") {
      this.tiebreak = true;
      this.extraLeft = (tgt.tie_rounds ?? {})[String(this.n)] ?? 0;
    } else {
      this.matchOver = true;
      this.winner = null;
    }
  }

  nextRoundIfNeeded() {
    if (this.result !== null && !this.matchOver && this.result.kind !== "target") {
      if (!this.deals.length) return; // no round follows: every later step is refused round-over (PROTOCOL.md 3.10)
      const kind = this.result.kind;
      this.opening = this.cfg.opener[kind === "domino" ? "after_domino" : "after_block"];
      this.newRound(this.deals.shift(), this.result.seat);
    }
  }

  // an applied step's observation (PROTOCOL.md 2): `extra` plus the state of the table
  observe(extra) {
    const unit = this.cfg.scoring.unit;
    const conns = [];
    for (const t of this.order) {
      const node = this.nodes.get(t);
      if (node.parent) conns.push([fmt(node.parent[0]), node.parent[1], fmt(t), node.own]);
    }
    const counted = this.counted();
    return {
      reject: null,
      ...extra,
      layout: {
        tiles: this.order.map(fmt),
        connections: conns,
        spinners: sortedTiles(this.nodes.keys()).filter((t) => this.nodes.get(t).spin).map(fmt),
      },
      attach_points: this.freeSides().map(([t, s, v]) => [fmt(t), s, v]),
      counted: counted.map(([t, e, v]) => [fmt(t), e, v]),
      count: counted.reduce((acc, x) => acc + x[2], 0),
      scores: [...this.scores],
      shown_scores: this.scores.map((s) => shownOf(s, unit)),
      round: this.result,
      match: { over: this.matchOver, winner: this.winner },
    };
  }
}

function callMuggins(g, seat) {
  // claims: the first opponent after the placer takes what the placement missed
  const claims = g.cfg.claims || "none";
  if (g.roundOver()) throw new Illegal("round-over");
  if (claims === "none") throw new Illegal("claims-off");
  if (claims === "forfeit") throw new Illegal("no-calls");
  if (g.window === null) throw new Illegal("late-call");
  const [, caller, take] = g.window;
  if (seat !== caller) throw new Illegal("not-caller");
  if (!take) throw new Illegal("nothing-to-take");
  g.window = null;
  const events = [];
  g.event(g.sideOf[seat], "call", take, seat, events);
  if (g.matchOver && g.result === null) {
    g.result = { kind: "target", seat: null, side: null, hand_pips: g.hands.map(pips) };
  }
  return { seat, events };
}

// A key of a requested step this engine does not know (null: it can play every step).
function unknownStepKey(c) {
  for (const step of c.steps) {
    for (const key of Object.keys(step)) if (!STEPS.includes(key)) return key;
  }
  return null;
}

function runCase(c) {
  const g = new Game(c.config, c.players, [c.setup, ...(c.next_rounds || [])]);
  const out = [];
  for (const step of c.steps) {
    if (!g.matchOver) g.nextRoundIfNeeded();
    let extra;
    try {
      if ("play" in step) {
        extra = g.place(step.play, step.claim);
      } else if ("draw" in step && !g.roundOver()) {
        extra = g.draw();
      } else if ("call" in step) {
        extra = callMuggins(g, step.call);
      } else if ("observe" in step) {
        extra = g.sees(step.observe);
      } else {
        throw new Illegal(g.roundOver() ? "round-over" : "must-place");
      }
    } catch (exc) {
      if (exc instanceof Illegal) {
        out.push({ reject: exc.code });
        continue;
      }
      throw exc;
    }
    out.push(g.observe(extra));
  }
  return { steps: out };
}

function main(argv) {
  const features = [];
  const args = [...argv];
  while (args.length) {
    const a = args.shift();
    if (a === "--features") features.push(...(args.shift() || "").split(","));
  }
  const write = (obj) => process.stdout.write(`${JSON.stringify(obj)}\n`);
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  rl.on("line", (line) => {
    if (!line.trim()) return;
    const req = JSON.parse(line);
    if (req.cmd === "start") {
      write({
        version: 1,
        implementation: { name: "toy-js", version: "1", language: "javascript" },
        capabilities: { ...(features.length ? { features } : {}), observe: true, configurations: SUPPORTED },
      });
    } else if (req.cmd === "stop") {
      rl.close();
    } else {
      const { seq, case: c } = req;
      let answer;
      try {
        const key = unknownStepKey(c);
        // a kind of step added to the protocol after this engine: declined
        answer = key === null ? { seq, result: runCase(c) }
          : { seq, skipped: { reason: `the engine does not play ${JSON.stringify(key)} steps` } };
      } catch (exc) {
        const name = exc && exc.name ? exc.name : "Error";
        const message = exc && exc.message !== undefined ? exc.message : String(exc);
        answer = { seq, errored: { message: `${name}: ${message}` } };
      }
      write(answer);
    }
  });
  rl.on("close", () => {
    process.exitCode = 0;
  });
}

main(process.argv.slice(2));
