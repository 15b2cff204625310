"""One round: the state object that answers questions, and `play`, the one place it changes.

Inside, tiles are indices (interpreter.tiles), hands are bitmasks, the free sides
of the layout are a dict `key -> value` with `key = tile << 3 | side`, and the
counted sum is kept up to date on every placement, so the work per move is
proportional to the number of free sides, never to the size of the layout.
A move is coded `tile << 8 | key` (a lead: `tile << 8 | 0xFF`); sorting codes
sorts moves by tile, then target tile, then side.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from .config import Config as Config  # re-exported (was importable from here)
from .config import as_config
from .deal import _deciding, _highest_holder, deal_tiles
from .errors import IllegalMove
from .layout import Layout
from .players import FastPlayer, RandomPlayer
from .records import Event, RoundResult, Turn, _EventRow, _shown
from .rules import round5 as round5  # re-exported: interpreter.round.round5 stays importable
from .rules import rules_for
from .settlement import Settlement
from .tiles import (
    BIT,
    BRANCH_A,
    BRANCH_B,
    HI,
    HIGH,
    INDEX,
    IS_DOUBLE,
    LEAD_KEY,
    LINE_A,
    LINE_B,
    LO,
    LOW,
    MASK,
    PIPS,
    SIDE_CODE,
    SIDES,  # noqa: F401  (re-exported: was importable from here)
    TILES,
    Move,
    as_tile,
    format_tile,
    mask_indices,
    mask_pips,  # noqa: F401  (re-exported: was importable from here)
    mask_tiles,
    move_from_code,
)


class Round(Settlement):
    """A round from an explicit deal; `play(move)` is the only way it changes."""

    __slots__ = (
        "config", "players", "opener", "opening", "tiebreak", "record", "turns", "over", "result",
        "match_over", "winner", "_rules", "_side_of", "_nsides", "_hands", "_initial_hands",
        "_bone", "_bi", "_bend", "_scores", "_start_scores", "_forced", "_mult", "_free", "_ends",
        "_count", "_inline", "_spin", "_spin_next", "_placed", "_seat", "_only", "_events",
        "_needs_tiebreak", "_settle_events", "_final_drawn", "_pre",
    )

    def __init__(self, config, players: int, hands, boneyard, opener=None, scores=None,
                 record: bool = False, rng=None, *, opening: str | None = None,
                 tiebreak: bool = False):
        cfg = as_config(config)
        if players not in cfg.counts:
            raise ValueError(f"{cfg.name} is played by {', '.join(map(str, cfg.counts))} players, not {players}")
        # 1. The deal: hands as bitmasks, the boneyard as an ordered list with a draw pointer.
        if len(hands) != players:
            raise ValueError(f"{players} hands expected, got {len(hands)}")
        seen = 0
        masks = []
        for seat, h in enumerate(hands):
            m = 0
            for t in h:
                b = BIT[_index(t)]
                if seen & b:
                    raise ValueError(f"tile {format_tile(TILES[_index(t)])} dealt twice")
                seen |= b
                m |= b
            if not m:
                raise ValueError(f"seat {seat} has an empty hand")
            masks.append(m)
        bone = []
        for t in boneyard:
            i = _index(t)
            if seen & BIT[i]:
                raise ValueError(f"tile {format_tile(TILES[i])} dealt twice")
            seen |= BIT[i]
            bone.append(i)
        self._setup(cfg, players, masks, bone, opener, scores, record, rng, opening, tiebreak)

    def _setup(self, cfg, players, masks, bone, opener, scores, record, rng, opening, tiebreak):
        """Initialise from hands as bitmasks and the boneyard as tile indices."""
        self.config = cfg
        r = self._rules = rules_for(cfg)
        self.players = players
        side_of = self._side_of = r.sides_of(players)
        self._nsides = nsides = max(side_of) + 1
        self._hands = masks
        self._initial_hands = list(masks)
        self._bone = bone
        self._bi = 0  # next tile to draw
        # reserve ("reserve N tiles" / "no reserve"): the last `reserve` tiles are never drawn
        self._bend = max(0, len(bone) - r.reserve[players])
        if scores is None:
            scores = [0] * nsides
        elif len(scores) != nsides:
            raise ValueError(f"{nsides} starting scores expected, got {len(scores)}")
        self._scores = list(scores)
        self._start_scores = list(scores)
        self.tiebreak = tiebreak
        # 2. The opener, and the tile it must lead under `lead: forced`.
        opening = opening or r.opener_first
        self.opening = opening
        if opener is None:
            if opening == "highest-double":
                opener = _highest_holder(masks)
            elif rng is not None:
                opener = int(rng.random() * players)  # "...: lottery": a uniform seat
            else:
                raise ValueError("no opener given, and no generator for the lottery")
        if not 0 <= opener < players:
            raise ValueError(f"no seat {opener}")
        self.opener = opener
        self._forced = -1
        self._mult = r.multiple if r.in_play else 0
        # opener.lead ("opener leads the deciding tile"): a round opened by the highest double
        # must lead the tile that decided it; "opener leads any tile": no constraint
        if r.forced_lead and opening == "highest-double":
            self._forced = _deciding(masks[opener])
        # 3. The layout.
        self._free: dict[int, int] = {}
        self._ends = 0  # tiles matching some free side
        self._count = 0
        self._inline = [0] * 28  # free in-line sides of each double on the layout
        self._spin = 0  # bitmask of branching doubles on the layout
        # doubles.branching: "every double branches" / "only the first double branches" (the first
        # double of the round, the lead included) / "no double branches"
        self._spin_next = self._rules.branch_every or self._rules.branch_first
        self._placed: list = []  # move codes (tile << 8 | key) in placement order
        # 4. Turn state.
        self._seat = opener
        self._only = -1  # the tile just drawn, which alone may be placed
        self._events: list[_EventRow] = []  # (side, kind, raw, accepted, score_after, seat)
        self.over = False
        self.result: RoundResult | None = None
        self.match_over = False
        self.winner = None
        self._needs_tiebreak = False
        self._settle_events: Sequence[_EventRow] = ()
        self._final_drawn = []
        self.record = record
        self.turns: list = []
        # draws and passes since the last placement: [drawn by the mover, passed seats, their draws]
        self._pre = None

    # -- construction helpers --------------------------------------------------

    @classmethod
    def deal(cls, config, players: int, rng, scores=None, record=False, opener=None,
             opening=None, tiebreak=False) -> Round:
        """A round from a random deal: Fisher-Yates over the sorted set with `rng.random()`."""
        cfg = as_config(config)
        hands, bone = deal_tiles(cfg, players, rng)
        return cls._from_indices(cfg, players, hands, bone, opener, scores, record, rng,
                                 opening, tiebreak)

    @classmethod
    def _from_indices(cls, cfg, players, hands, bone, opener, scores, record, rng, opening, tiebreak):
        obj = cls.__new__(cls)
        masks = []
        for h in hands:
            m = 0
            for i in h:
                m |= BIT[i]
            masks.append(m)
        obj._setup(cfg, players, masks, bone, opener, scores, record, rng, opening, tiebreak)
        return obj

    def clone(self) -> Round:
        """An independent copy of the round's state (for players that look ahead)."""
        other = Round.__new__(Round)
        for name in Round.__slots__:
            setattr(other, name, getattr(self, name))
        # the mutable parts; the deal, the boneyard list and the config are never changed
        other._hands = list(self._hands)
        other._scores = list(self._scores)
        other._free = dict(self._free)
        other._inline = list(self._inline)
        other._placed = list(self._placed)
        other._events = list(self._events)
        other.turns = list(self.turns)
        other._pre = None if self._pre is None else [list(x) for x in self._pre]
        return other

    # -- questions ---------------------------------------------------------------

    @property
    def seat_to_move(self):
        """The seat to move, or None when the round is over."""
        return None if self.over else self._seat

    @property
    def placements(self) -> int:
        """Tiles placed so far."""
        return len(self._placed)

    @property
    def draws(self) -> int:
        """Tiles drawn so far."""
        return self._bi

    @property
    def leading(self) -> bool:
        """True before the opening tile is placed."""
        return not self._placed

    @property
    def layout(self) -> Layout:
        """The layout (a view)."""
        return Layout(self)

    @property
    def hands(self) -> list:
        """Each seat's tiles, sorted."""
        return [mask_tiles(h) for h in self._hands]

    @property
    def boneyard(self) -> list:
        """The undrawn tiles, front first (the reserve included, at the end)."""
        return [TILES[i] for i in self._bone[self._bi:]]

    @property
    def drawable(self) -> int:
        """How many tiles can still be drawn."""
        return max(0, self._bend - self._bi)

    @property
    def scores(self) -> list:
        """Raw score per side."""
        return list(self._scores)

    @property
    def shown_scores(self) -> list:
        """Shown score per side."""
        u = self._rules.unit
        return [_shown(s, u) for s in self._scores]

    @property
    def sides(self) -> list:
        """The side of each seat."""
        return list(self._side_of)

    @property
    def events(self) -> list:
        """Every scoring event of the round, in order."""
        u = self._rules.unit
        return [Event(*e, unit=u) for e in self._events]

    @property
    def forced_tile(self):
        """The tile the lead must be (under a forced lead), else None."""
        return TILES[self._forced] if self._forced >= 0 and not self._placed else None

    @property
    def must_play(self):
        """The tile just drawn that alone may be placed, else None."""
        return TILES[self._only] if self._only >= 0 and not self.over else None

    @property
    def drawn_before_move(self) -> list:
        """Tiles the seat to move drew from the boneyard since the last placement (front first)."""
        if self._pre is None or self.over:
            return []
        return [TILES[t] for t in self._pre[0]]

    def legal_moves(self) -> list:
        """The legal moves of the seat to move, sorted by tile, target tile, side."""
        return [move_from_code(c) for c in self._legal_codes()]

    def _legal_codes(self) -> list:
        """Legal moves as sorted codes (empty when the round is over)."""
        if self.over:
            return []
        if not self._placed:
            # opener.lead: "opener leads the deciding tile" -> only it; "... any tile" -> the whole hand
            if self._forced >= 0:
                return [self._forced << 8 | LEAD_KEY]
            return [i << 8 | LEAD_KEY for i in mask_indices(self._hands[self._seat])]
        return self._placement_codes()

    def _placement_codes(self) -> list:
        """Placements of the seat to move (only the drawn tile, if one was drawn), sorted."""
        h = self._hands[self._seat] if self._only < 0 else BIT[self._only]
        codes: list[int] = []
        app = codes.append
        for key, v in self._free.items():
            m = h & MASK[v]
            if m:
                for c in _SHIFTED[m]:
                    app(c | key)
        if len(codes) > 1:
            codes.sort()
        return codes

    def points_of(self, move) -> int:
        """The raw points a legal move's placement would earn (settlement not included)."""
        code = move.code() if isinstance(move, Move) else move
        return self._points(self._preview(code))

    def _preview(self, code: int) -> int:
        """The counted sum after placing `code`, without placing it."""
        ti = code >> 8
        key = code & 0xFF
        dv = self._rules.dv
        if key == LEAD_KEY:
            return dv[ti] if IS_DOUBLE[ti] else PIPS[ti]
        v = self._free[key]
        t = key >> 3
        c = self._count
        if IS_DOUBLE[t]:
            if (key & 7) >= LINE_A and self._inline[t] == 1:
                c -= dv[t]
        else:
            c -= v
        if IS_DOUBLE[ti]:
            return c + dv[ti]
        return c + (HI[ti] if LO[ti] == v else LO[ti])

    def _points(self, s: int) -> int:
        # "placements score multiples of N": S > 0 and S % N == 0; "placements score nothing": never
        mult = self._mult
        return s if (s > 0 and mult and not s % mult) else 0

    def observation(self, seat: int) -> dict:
        """What `seat` may see: own hand, layout, counted ends, legal moves on its turn, scores."""
        lay = self.layout
        mine = seat == self.seat_to_move
        codes = self._legal_codes() if mine else []
        return {
            "seat": seat,
            "side": self._side_of[seat],
            "hand": mask_tiles(self._hands[seat]),
            "layout": lay.tiles,
            "connections": lay.connections(),
            "attach_points": lay.attach_points(),
            "counted": lay.counted(),
            "count": self._count,
            "legal": [move_from_code(c) for c in codes],
            "points": [self._points(self._preview(c)) for c in codes],
            "must_play": self.must_play if mine else None,
            "drawn": self.drawn_before_move if mine else [],
            "scores": self.scores,
            "shown_scores": self.shown_scores,
            "hand_counts": [h.bit_count() for h in self._hands],
            "boneyard": len(self._bone) - self._bi,
            "drawable": self.drawable,
            "seat_to_move": self.seat_to_move,
            "opener": self.opener,
            "players": self.players,
            "target": self._rules.target,
            "unit": self._rules.unit,
        }

    # -- changing it ---------------------------------------------------------------

    def play(self, move) -> Turn:
        """Apply a move of the seat to move (a Move or canonical text); return its Turn.

        IllegalMove (state unchanged) if the rules forbid it."""
        if isinstance(move, str):
            move = Move.parse(move)
        code = self._check(move)
        return self._do(code, True)

    def draw(self):
        """Draws are automatic; asking for one is always refused."""
        self._refuse("a draw")

    def pass_turn(self):
        """Passes are automatic; asking for one is always refused."""
        self._refuse("a pass")

    def _refuse(self, what):
        if self.over:
            raise IllegalMove("round-over", "the round is over")
        raise IllegalMove("must-place", f"{what} is not allowed: seat {self._seat} has a placement",
                          self.legal_moves())

    def _illegal(self, code, message) -> NoReturn:
        raise IllegalMove(code, message, self.legal_moves())

    def _check(self, move: Move) -> int:
        """Validate a move; return its code or raise IllegalMove with the stable code."""
        if self.over:
            raise IllegalMove("round-over", "the round is over")
        ti = INDEX[move.tile]
        seat = self._seat
        if not self._hands[seat] & BIT[ti]:
            self._illegal("not-in-hand", f"{format_tile(move.tile)} is not in seat {seat}'s hand")
        if not self._placed:
            if move.target is not None:
                self._illegal("must-lead", "the layout is empty: lead a tile, with no target")
            if self._forced >= 0 and ti != self._forced:
                self._illegal("forced-lead", f"the lead must be {format_tile(TILES[self._forced])}")
            return ti << 8 | LEAD_KEY
        if move.target is None or move.side is None:  # (a Move has both or neither)
            self._illegal("must-lead", "the round is led already: name a target tile and side")
        if self._only >= 0 and ti != self._only:
            self._illegal("must-play-drawn", f"the tile just drawn, {format_tile(TILES[self._only])}, must be placed")
        t = INDEX[move.target]
        if not any(c >> 8 == t for c in self._placed):
            self._illegal("not-on-layout", f"{format_tile(move.target)} is not on the layout")
        side = SIDE_CODE[move.side]
        key = t << 3 | side
        if IS_DOUBLE[t]:
            exists = side in (LINE_A, LINE_B) or (side in (BRANCH_A, BRANCH_B) and self._spin & BIT[t])
        else:
            exists = side in (LOW, HIGH)
        if not exists:
            self._illegal("no-such-side", f"{format_tile(move.target)} has no side {move.side}")
        if key not in self._free:
            if side in (BRANCH_A, BRANCH_B) and not self._branch_used(t, side):
                self._illegal("branch-closed", f"the branches of {format_tile(move.target)} are not open yet")
            self._illegal("side-occupied", f"{move.side} of {format_tile(move.target)} is occupied")
        v = self._free[key]
        if not MASK[v] & BIT[ti]:
            self._illegal("no-match", f"{format_tile(move.tile)} has no half {v} for {move.side} of {format_tile(move.target)}")
        return ti << 8 | key

    def _branch_used(self, t, side):
        key = t << 3 | side
        return any(c & 0xFF == key for c in self._placed)

    # -- the one place the state changes ---------------------------------------------

    def _do(self, code: int, want: bool):
        """Place the (legal) move `code`, score it, and settle or move on; the Turn if `want`.

        This is the one place a placement changes the state (the fast path and `play` both
        come here)."""
        pre = self._pre
        if pre is not None:
            self._pre = None
        if want:
            offered = self._legal_codes()
            n_events = len(self._events)
        seat = self._seat
        ti = code >> 8
        key = code & 0xFF
        # 1. the tile leaves the hand
        hands = self._hands
        hands[seat] ^= BIT[ti]
        # 2. the tile joins the layout: free sides and the counted sum (rules.md 1.1, 1.2)
        free = self._free
        if key != LEAD_KEY:
            v = free.pop(key)
            t = key >> 3
            count = self._count
            if IS_DOUBLE[t]:
                if (key & 7) >= LINE_A:
                    inline = self._inline
                    left = inline[t] - 1
                    inline[t] = left
                    if not left:
                        # both in-line sides occupied: the double is internal, counts nothing
                        count -= self._rules.dv[t]
                        # "branches open after the line" (branch_sides after-line): they open now
                        if self._spin & BIT[t] and not self._rules.at_once:
                            free[t << 3 | BRANCH_A] = v
                            free[t << 3 | BRANCH_B] = v
                # a branch side counted nothing, so covering it changes nothing here
            else:
                count -= v  # the covered end no longer counts
            if IS_DOUBLE[ti]:
                # a double joins with line-a; line-b becomes free; terminal: counts 2p (or p)
                free[ti << 3 | LINE_B] = v
                self._inline[ti] = 1
                count += self._rules.dv[ti]
                if self._spin_next:
                    self._spinner(ti, v)
            elif LO[ti] == v:
                free[ti << 3 | HIGH] = e = HI[ti]  # joins with its low half
                count += e
            else:
                free[ti << 3 | LOW] = e = LO[ti]  # joins with its high half
                count += e
        # the opening tile is placed alone, all its sides free
        elif IS_DOUBLE[ti]:
            p = LO[ti]
            free[ti << 3 | LINE_A] = p
            free[ti << 3 | LINE_B] = p
            self._inline[ti] = 2
            count = self._rules.dv[ti]  # an opening double alone counts 2p once
            if self._spin_next:
                self._spinner(ti, p)
        else:
            free[ti << 3 | LOW] = LO[ti]
            free[ti << 3 | HIGH] = HI[ti]
            count = PIPS[ti]  # an opening non-double counts both halves
        self._count = count
        self._placed.append(code)
        ends = 0
        for v in free.values():
            ends |= MASK[v]
        self._ends = ends
        self._only = -1
        # 3. "placements score multiples of N" (mult 0: "placements score nothing")
        mult = self._mult
        pts = count if (count and mult and not count % mult) else 0
        # 4. domino, or the placement's event and the next seat
        if not hands[seat]:
            # the round dominoes on the last tile of a hand
            self._domino(seat, pts)
        else:
            if pts:
                if self._event(self._side_of[seat], "placement", pts, seat):
                    self._end("target", None, None)
            if not self.over:
                nxt = seat + 1
                if nxt == self.players:
                    nxt = 0
                if hands[nxt] & ends:
                    self._seat = nxt  # the next seat can place: the usual case
                else:
                    self._advance(nxt)
        if not want:
            return None
        if pre is None:
            pre = ((), (), ())
        turn = Turn(seat, [TILES[t] for t in pre[0]], list(pre[1]), [move_from_code(c) for c in offered],
                    move_from_code(code), self.layout.counted(), count, pts, self.events[n_events:],
                    [[TILES[t] for t in d] for d in pre[2]])
        if self.record:
            self.turns.append(turn)
        return turn

    def _spinner(self, ti: int, p: int):
        """Make double `ti` a branching double (doubles.branching)."""
        self._spin |= BIT[ti]
        if self._rules.branch_first:
            self._spin_next = False  # "only the first double branches": later doubles do not
        if self._rules.at_once:
            # "branches open at once": free as soon as the spinner is placed
            self._free[ti << 3 | BRANCH_A] = p
            self._free[ti << 3 | BRANCH_B] = p

    def _advance(self, s: int):
        """Find the next seat that can place, drawing and passing as the rules require."""
        hands = self._hands
        ends = self._ends
        n = self.players
        while True:
            h = hands[s]
            if h & ends:
                self._seat = s
                return
            drawn = None
            if self._rules.draw_until and self._bi < self._bend:
                # "draw until playable": from the front, one at a time, until a tile fits
                # ("no drawing" skips this: the seat passes at once)
                bone = self._bone
                bi = self._bi
                bend = self._bend
                drawn = []
                while bi < bend:
                    t = bone[bi]
                    bi += 1
                    h |= BIT[t]
                    drawn.append(t)
                    if BIT[t] & ends:
                        break
                hands[s] = h
                self._bi = bi
                if h & ends:
                    self._seat = s
                    self._only = drawn[-1]  # only the drawn tile may be placed
                    if self._pre is None:
                        self._pre = [drawn, [], []]
                    else:
                        self._pre[0] = drawn
                    return
            # nothing to place and nothing to draw: blocked if no one can place, else pass
            if not any(x & ends for x in hands):
                self._seat = s
                self._block(s, drawn)
                return
            if self._pre is None:
                self._pre = [(), [], []]
            self._pre[1].append(s)
            self._pre[2].append(drawn or ())
            s = (s + 1) % n

    # -- scoring and settlement: inherited from Settlement (interpreter/settlement.py) --

    # -- playing with players ----------------------------------------------------------

    def run(self, bots) -> Round:
        """Play to the end of the round with one player callable per seat (or one for all)."""
        if callable(bots):
            bots = [bots] * self.players
        rec = self.record
        # the fast path for the bundled players: the same rule code, no Move objects or observations
        rands = [b.rng.random if type(b) is RandomPlayer else None for b in bots]
        fast = [isinstance(b, FastPlayer) for b in bots]
        do = self._do
        codes_of = self._placement_codes
        while not self.over:
            seat = self._seat
            rnd = rands[seat]
            if rnd is not None and self._placed:
                codes = codes_of()
                do(codes[int(rnd() * len(codes))], rec)  # = RandomPlayer.pick
            elif fast[seat]:
                do(bots[seat].pick(self, self._legal_codes()), rec)
            else:
                self.play(bots[seat](self.observation(seat), self.legal_moves()))
        return self

    # -- transcripts ----------------------------------------------------------------------

    def deal_dict(self) -> dict:
        """The round's deal as JSON-ready data."""
        return {
            "players": self.players,
            "opener": self.opener,
            "opening": self.opening,
            "hands": [[format_tile(TILES[i]) for i in mask_indices(h)] for h in self._initial_hands],
            "boneyard": [format_tile(TILES[i]) for i in self._bone],
            "scores": list(self._start_scores),
            "tiebreak": self.tiebreak,
        }

    def transcript(self) -> dict:
        """The round as a JSON-ready dict (deal, turns, events, result); needs record=True."""
        if not self.record:
            raise ValueError("transcripts need record=True")
        return {
            "format": "rulelang-transcript/1",
            "config": self.config.to_dict(),
            "deal": self.deal_dict(),
            "turns": [t.to_dict() for t in self.turns],
            "result": self.result.to_dict() if self.result else None,
        }


def _shifted_table() -> dict:
    """mask -> (tile << 8, ...) for every set of tiles sharing a half value (at most 7 x 128 sets)."""
    out = {}
    for v in range(7):
        idx = [i for i in range(28) if MASK[v] >> i & 1]
        for sub in range(1 << len(idx)):
            chosen = [i for j, i in enumerate(idx) if sub >> j & 1]
            out[sum(1 << i for i in chosen)] = tuple(i << 8 for i in chosen)
    return out


_SHIFTED = _shifted_table()


def _index(t) -> int:
    if isinstance(t, int):
        return t
    return INDEX[as_tile(t)]
