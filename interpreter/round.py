"""One round: its state (hands, boneyard, scores, turn), the questions it answers, and `play`.

Inside, tiles are indices (interpreter.tiles) and hands are bitmasks; the layout
(interpreter.layout) keeps the free sides and the counted sum; the settlement
(interpreter.settlement) and the scoreboard (interpreter.scoring) are computed from
tables the round reads once (interpreter.rules), and the optional rules of play are
hooks called at fixed points (interpreter.hooks, interpreter.house), each with a
record of the moment, so the round holds its state and the order of a turn, not the
house rules. Under the muggins rule what the players claimed is round state too, kept
by one `Claims` (interpreter.claims) as the layout's is by the `Layout`. A move is an
integer code (interpreter.tiles: `code_tile`, `code_key`, `lead_code`); sorting codes
sorts moves by tile, then target tile, then side.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Final, NoReturn, final

from . import tiles
from .claims import CLAIM_ALL, Claims, bot_claim, claims_of
from .config import Config as Config  # re-exported: interpreter.round.Config stays importable
from .config import as_config
from .deal import BY_TILE, DOUBLE_OPENERS, DOUBLES, deal_masks, deciding_tile, draws_to_a_double, holder_of, mask_of, open_by_double, read_deal, thrown_in
from .deal import deal_tiles as deal_tiles  # re-exported: interpreter.round.deal_tiles stays importable
from .errors import IllegalMove
from .hooks import Drawing, GoneOut, TurnBegun, placed
from .layout import Layout, placement_codes
from .legality import diagnose
from .players import FastPlayer, RandomPlayer
from .points import round5 as round5  # re-exported: interpreter.round.round5 stays importable
from .records import Event, EventRow, Offered, RoundResult, Turn, events_of, shown_points
from .rules import Seating, rules_of
from .settlement import Plan, payments, winner_of_block, winner_of_domino
from .tiles import (
    DRAW_CODE,
    ENDWISE,
    KEY_BITS,
    LEAD_KEY,
    SETS,
    SIDES,  # noqa: F401  (re-exported: interpreter.round.SIDES stays importable)
    TILE_BITS,
    TILE_SHIFT,
    TILES,
    Move,
    Tile,
    format_tile,
    in_tile_order,
    lead_code,
    mask_indices,
    mask_pips,  # noqa: F401  (re-exported: interpreter.round.mask_pips stays importable)
    mask_tiles,
    move_from_code,
)

# The tables the hot loops read, as final names of this module (interpreter.tiles' objects): compiled
# (setup.py), mypyc keeps a final module name in a C static instead of a look-up in the module's dict.
BIT: Final = tiles.BIT
MOVES: Final = tiles.MOVES

Player = Callable[[dict[str, Any], list[Move]], Move]
Bots = Player | Sequence[Player]
# draws and passes since the last placement: [drawn by the mover, passed seats, their draws]
_Pending = list[Any]
_NO_PRE: Final = ((), (), ())
# A round's `tiebreak`: False, True, or an int (a countdown of extra rounds), written to transcripts as
# given. Any, not `bool | int`: compiled (setup.py), an int-typed value turns False into 0.
Tiebreak = Any
_BARE: Final = object()  # as the configuration: a Round with no state yet (from_indices, clone)


@final
class _Fixed:
    """What a round never changes: configuration, seats, opener, the deal (shared by clones), and the
    tables it reads on every move, found once: the points, the scoreboard, the house rules per point."""

    __slots__ = ("config", "rules", "points", "players", "sides", "opener", "opening", "tiebreak", "record",
                 "initial_hands", "bone", "bend", "start_scores", "forced", "partners", "mask", "seats", "board",
                 "draw_until", "on_placement", "on_offered", "on_draws", "on_goes_on", "round_no", "opening_draws",
                 "first", "block_unfound", "draw_pass")

    def __init__(self, cfg: Config, seating: Seating, players: int, opener: int, opening: str, tiebreak: Tiebreak,
                 record: bool, masks: list[int], bone: list[int], scores: Sequence[int], forced: int, first: int | None):
        self.config = cfg
        self.rules = r = seating.rules
        self.points = r.points
        self.players = players
        self.sides = seating.sides
        self.opener = opener
        self.opening = opening
        self.tiebreak = tiebreak
        self.record = record
        self.initial_hands = tuple(masks)
        self.bone = bone
        # reserve ("reserve N tiles" / "no reserve"): the last `reserve` tiles are never drawn
        self.bend = max(0, len(bone) - seating.reserve)
        self.start_scores = tuple(scores)
        self.forced = forced  # the tile a forced lead must be, else -1
        self.partners = seating.partners  # each seat's partners (a hand gone out: HouseRule.goes_on)
        self.seats = seating.seats  # what the settlement asks of the seating (interpreter.settlement.Seats)
        self.board = seating.board  # the target rules of this player count (interpreter.scoring.Scoreboard)
        self.mask = r.layout.mask  # larger sets: the set's masks (placement_codes)
        self.draw_until = cfg.drawing != "none"  # "draw until playable" / "no drawing"
        # "draw until playable, or the round is blocked": a seat whose draws find no tile that plays blocks it
        self.block_unfound = cfg.drawing == "until-found"
        # "draw 1 tile and pass": the drawn tile is not placed in that turn, even if it fits (its house rule
        # draws the one tile)
        self.draw_pass = cfg.drawing == "draw-and-pass"
        on = r.hooks.by_point  # the house rules, per fixed point (interpreter.hooks.POINTS)
        self.on_placement = on["placement"]
        self.on_offered = on["offered"]
        self.on_draws = on["draws"]
        self.on_goes_on = on["goes_on"]
        self.round_no = 0  # the round's number in its match (the rotating double)
        self.opening_draws: tuple[tuple[int, int], ...] = ()  # (seat, tile) drawn to find the opening double
        # the opener of the match's first round ("...: the side that started the match wins"; None: this round's)
        self.first = opener if first is None else first


@final
class Round:
    """A round from an explicit deal; `play(move)` is the only way it changes."""

    __slots__ = (
        "_f", "turns", "over", "result", "match_over", "winner", "_hands", "_bi", "_scores", "_layout",
        "_seat", "_only", "_events", "_pre", "_legal", "_needs_tiebreak", "_settle_events", "_final_drawn",
        "_placer",  # once blocked, the seat that placed the last tile ("opener after a block: the last to place")
        "_claims",  # what was claimed and who may call (interpreter.claims.Claims), or None: points are not claimed
    )

    def __init__(self, config: Any, players: int, hands: Sequence[Sequence[Any]], boneyard: Sequence[Any],
                 opener: int | None = None, scores: Sequence[int] | None = None, record: bool = False,
                 rng: random.Random | None = None, *, opening: str | None = None, tiebreak: Tiebreak = False,
                 round_no: int = 0, previous: int | None = None, first: int | None = None):
        if config is _BARE:
            return  # from_indices and clone set the state themselves (a compiled class is made only here)
        cfg = as_config(config)
        if players not in cfg.counts:
            raise ValueError(f"{cfg.name} is played by {', '.join(map(str, cfg.counts))} players, not {players}")
        # 1. The deal: hands as bitmasks, the boneyard as an ordered list with a draw pointer.
        if len(hands) != players:
            raise ValueError(f"{players} hands expected, got {len(hands)}")
        masks, bone = read_deal(hands, boneyard)
        _check_set(cfg, masks, bone)  # larger sets
        self._setup(cfg, players, masks, bone, opener, scores, record, rng, opening, tiebreak, round_no, previous,
                    first)

    def _setup(self, cfg: Config, players: int, masks: list[int], bone: list[int], opener: int | None,
               scores: Sequence[int] | None, record: bool, rng: random.Random | None, opening: str | None,
               tiebreak: Tiebreak, round_no: int = 0, previous: int | None = None, first: int | None = None) -> None:
        """Initialise from hands as bitmasks and the boneyard as tile indices (`first`: the match's first opener)."""
        seating = rules_of(cfg).seating(players)  # the tables of this player count, found once
        scores = _start_scores(scores, seating.nsides)
        # 1. The opener, and the tile it must lead under `lead: forced`.
        opening = opening or cfg.opener_first
        forced = -1
        drawn: tuple[tuple[int, int], ...] = ()
        if opening in DOUBLE_OPENERS and (opening != "highest-double" or cfg.no_double != "heaviest-tile"):
            masks = list(masks)  # the opening draws join the hands
            opener, forced, drawn = _open_by_double(cfg, opening, masks, bone, max(0, len(bone) - seating.reserve),
                                                    opener, players, round_no, previous)
        elif opener is None:
            if opening in BY_TILE:  # the holder of the highest double (else of the heaviest tile), or of the heaviest tile
                opener = holder_of(masks, BY_TILE[opening])
            elif opening == "seat-0":
                opener = 0  # "...: seat 0"
            elif rng is not None:
                opener = int(rng.random() * players)  # "...: lottery": a uniform seat
            else:
                raise ValueError("no opener given, and no generator for the lottery")
        if not 0 <= opener < players:
            raise ValueError(f"no seat {opener}")
        # opener.lead ("opener leads the deciding tile"): a round opened by the highest double (else `_open_by_double`
        # did), or by the heaviest tile, must lead the tile that decided it; "opener leads any tile": no constraint
        if cfg.lead == "forced" and opening in BY_TILE and (opening == "heaviest-tile" or cfg.no_double == "heaviest-tile"):
            forced = BY_TILE[opening](masks[opener])
        if cfg.lead == "double" and forced < 0 and not drawn:  # "opener leads any double, drawing until one ..."
            masks, drawn = draws_to_a_double(masks, opener, bone, max(0, len(bone) - seating.reserve))
        # 2. What the round never changes (shared by its clones)
        dealt = masks if not drawn else [m & ~_drawn_bits(drawn, s) for s, m in enumerate(masks)]
        self._f = _Fixed(cfg, seating, players, opener, opening, tiebreak, record, dealt, bone, scores, forced, first)
        self._f.round_no = round_no
        self._f.opening_draws = drawn
        self._hands = masks
        self._bi = len(drawn)  # next tile to draw (after the opening draws)
        self._scores = list(scores)
        # 3. The layout.
        self._layout = Layout(seating.rules.layout)
        # 4. Turn state.
        self._seat = opener
        self._only = -1  # the tile just drawn, which alone may be placed
        self._events: list[EventRow] = []
        self._pre: _Pending | None = None
        self._placer = -1  # the last to place before a seat had to draw or pass (Round.last_placer)
        self._legal: list[int] | None = None  # the legal move codes, cached until the state changes
        self.over = False
        self.result: RoundResult | None = None
        self.match_over = False
        self.winner: int | None = None
        self._needs_tiebreak = False
        self._settle_events: Sequence[EventRow] = ()
        self._final_drawn: list[tuple[int, list[tuple[int, int]]]] = []
        self.turns: list[Turn] = []
        # "points must be claimed; ...": what the players claim, and the chance to call (interpreter.claims)
        self._claims = claims_of(cfg, self._f.sides)

    # -- construction helpers --------------------------------------------------

    @classmethod
    def deal(cls, config: Any, players: int, rng: random.Random, scores: Sequence[int] | None = None,
             record: bool = False, opener: int | None = None, opening: str | None = None,
             tiebreak: Tiebreak = False) -> Round:
        """A round from a random deal: Fisher-Yates over the sorted set with `rng.random()` (dealt again from
        the same generator while `...: the tiles are dealt again` throws the deal in)."""
        cfg = as_config(config)
        masks, bone = deal_masks(cfg, players, rng)  # (the hands as bitmasks at once: no index lists)
        rule = opening or cfg.opener_first
        while opener is None and thrown_in(cfg, rule, masks, 0):
            masks, bone = deal_masks(cfg, players, rng)
        obj = cls(_BARE, 0, (), ())
        obj._setup(cfg, players, masks, bone, opener, scores, record, rng, opening, tiebreak)
        return obj

    @classmethod
    def from_indices(cls, cfg: Config, players: int, hands: Sequence[Sequence[int]], bone: list[int],
                     opener: int | None, scores: Sequence[int] | None, record: bool,
                     rng: random.Random | None, opening: str | None, tiebreak: Tiebreak,
                     round_no: int = 0, previous: int | None = None, first: int | None = None) -> Round:
        """A round from hands and boneyard as tile indices, trusted (a deal made by the engine)."""
        return cls.from_masks(cfg, players, [mask_of(h) for h in hands], bone, opener, scores, record, rng, opening,
                              tiebreak, round_no, previous, first)

    @classmethod
    def from_masks(cls, cfg: Config, players: int, masks: list[int], bone: list[int], opener: int | None,
                   scores: Sequence[int] | None, record: bool, rng: random.Random | None, opening: str | None,
                   tiebreak: Tiebreak, round_no: int = 0, previous: int | None = None,
                   first: int | None = None) -> Round:
        """A round from hands as bitmasks of tile indices and the boneyard as tile indices, trusted (a deal made
        by the engine: `Match` deals so)."""
        obj = cls(_BARE, 0, (), ())
        obj._setup(cfg, players, masks, bone, opener, scores, record, rng, opening, tiebreak, round_no, previous, first)
        return obj

    def clone(self) -> Round:
        """An independent copy of the round's state (for players that look ahead)."""
        o = Round(_BARE, 0, (), ())
        o._f = self._f  # the deal, the boneyard, the config and its tables are never changed: shared
        o._hands = self._hands.copy()
        o._bi = self._bi
        o._scores = self._scores.copy()
        o._layout = self._layout.copy()
        o._seat = self._seat
        o._only = self._only
        o._events = self._events.copy()
        pre = self._pre
        o._pre = None if pre is None else [list(x) for x in pre]
        o._placer = self._placer
        o._legal = self._legal  # never changed in place
        o.over = self.over
        o.result = self.result
        o.match_over = self.match_over
        o.winner = self.winner
        o._needs_tiebreak = self._needs_tiebreak
        o._settle_events = self._settle_events
        o._final_drawn = self._final_drawn
        o.turns = self.turns.copy()
        o._claims = None if self._claims is None else self._claims.copy()
        return o

    # -- what the round never changes ------------------------------------------------

    @property
    def config(self) -> Config:
        """The configuration."""
        return self._f.config

    @property
    def players(self) -> int:
        """The number of players."""
        return self._f.players

    @property
    def opener(self) -> int:
        """The seat that leads."""
        return self._f.opener

    @property
    def first_opener(self) -> int:
        """The seat that opened the match's first round (this round's opener when it starts the match)."""
        return self._f.first

    @property
    def opening(self) -> str:
        """The opener rule that chose the opener (lottery, highest-double, dominoer, ...)."""
        return self._f.opening

    @property
    def tiebreak(self) -> Tiebreak:
        """True in the extra rounds of a match tied at the top (an int k > 1: an extra round of a fixed
        number with k - 1 more after it, whose end decides nothing; "a tie at the top plays N extra rounds")."""
        return self._f.tiebreak

    @property
    def record(self) -> bool:
        """True if the round keeps its turns (for transcripts)."""
        return self._f.record

    # -- questions ---------------------------------------------------------------

    @property
    def seat_to_move(self) -> int | None:
        """The seat to move, or None when the round is over."""
        return None if self.over else self._seat

    @property
    def placements(self) -> int:
        """Tiles placed so far."""
        return len(self._layout.placed)

    @property
    def draws(self) -> int:
        """Tiles drawn so far."""
        return self._bi

    @property
    def leading(self) -> bool:
        """True before the opening tile is placed."""
        return not self._layout.placed

    @property
    def layout(self) -> Layout:
        """The layout (read it; only the round changes it)."""
        return self._layout

    @property
    def hands(self) -> list[list[tuple[int, int]]]:
        """Each seat's tiles, sorted."""
        return [mask_tiles(h) for h in self._hands]

    @property
    def hand_masks(self) -> tuple[int, ...]:
        """Each seat's tiles as a bitmask of tile indices (for players and tools that search)."""
        return tuple(self._hands)

    @property
    def boneyard(self) -> list[tuple[int, int]]:
        """The undrawn tiles, front first (the reserve included, at the end)."""
        return [TILES[i] for i in self._f.bone[self._bi:]]

    @property
    def drawable(self) -> int:
        """How many tiles can still be drawn."""
        return max(0, self._f.bend - self._bi)

    @property
    def scores(self) -> list[int]:
        """Raw score per side."""
        return list(self._scores)

    @property
    def shown_scores(self) -> list[int | float]:
        """Shown score per side."""
        u = self._f.config.unit
        return [shown_points(s, u) for s in self._scores]

    @property
    def sides(self) -> list[int]:
        """The side of each seat."""
        return list(self._f.sides)

    @property
    def events(self) -> list[Event]:
        """Every scoring event of the round, in order."""
        return events_of(self._events, self._f.config.unit)

    @property
    def forced_tile(self) -> tuple[int, int] | None:
        """The tile the lead must be (under a forced lead), else None."""
        return TILES[self._f.forced] if self._f.forced >= 0 and not self._layout.placed else None

    @property
    def must_play(self) -> tuple[int, int] | None:
        """The tile just drawn that alone may be placed, else None."""
        return TILES[self._only] if self._only >= 0 and not self.over else None

    @property
    def after_last_placer(self) -> int:
        """Once blocked, the seat after the last to place: the first seat that passed since the last placement,
        else the seat the block was found at ("opener after a block: the seat after the last to place")."""
        pre = self._pre
        return int(pre[1][0]) if pre is not None and pre[1] else self._seat

    @property
    def last_placer(self) -> int:
        """Once blocked, the seat that placed the round's last tile ("opener after a block: the last to place")."""
        return self._placer

    @property
    def drawn_before_move(self) -> list[tuple[int, int]]:
        """Tiles the seat to move drew from the boneyard since the last placement (front first)."""
        if self._pre is None or self.over:
            return []
        return [TILES[t] for t in self._pre[0]]

    @property
    def passed_before_move(self) -> list[int]:
        """Seats that passed since the last placement, in order."""
        if self._pre is None or self.over:
            return []
        return list(self._pre[1])

    @property
    def pass_drawn_before_move(self) -> list[list[tuple[int, int]]]:
        """Per seat that passed since the last placement, the tiles it drew first."""
        if self._pre is None or self.over:
            return []
        return [[TILES[t] for t in d] for d in self._pre[2]]

    def legal_moves(self) -> list[Move]:
        """The legal moves of the seat to move, sorted by tile, target tile, side."""
        get = MOVES.get
        moves = [get(c) or move_from_code(c) for c in self.legal_codes()]
        if self._f.rules.layout.n_tiles > 28 and len(moves) > 1:  # larger sets: index order is not tile order
            moves.sort(key=Move.sort_key)
        return moves

    def legal_codes(self) -> list[int]:
        """The legal moves as sorted move codes (empty when the round is over); do not change the list."""
        codes = self._legal
        if codes is None:
            if self.over:
                codes = []
            elif not self._layout.placed:
                # opener.lead: "opener leads the deciding tile" -> only it; "... any tile" -> the whole hand
                if self._f.forced >= 0:
                    codes = [lead_code(self._f.forced)]
                elif self._f.config.lead == "double" and self._hands[self._seat] & DOUBLES:
                    # "opener leads any double, ...": its doubles only
                    codes = [i << TILE_SHIFT | LEAD_KEY for i in mask_indices(self._hands[self._seat] & DOUBLES)]
                else:
                    # (lead_code, inline: a code per tile of the hand, once a round)
                    codes = [i << TILE_SHIFT | LEAD_KEY for i in mask_indices(self._hands[self._seat])]
            else:
                codes = self._layout.placement_codes(self._hands[self._seat] if self._only < 0 else BIT[self._only])
            if self._layout.orienting:
                codes = self._layout.oriented(codes)  # the sniff's orientations
            if self._f.on_offered:  # the house rules' moves (`a player may draw while able to place`)
                at = TurnBegun(self._seat, self._can_draw())
                for rule in self._f.on_offered:
                    codes = rule.offered(at, codes)
            self._legal = codes
        return codes

    def _can_draw(self) -> bool:
        """Whether the seat to move may take a tile now (`a player may draw while able to place`): after the
        lead, with no drawn tile waiting to be placed, while the drawable boneyard has tiles."""
        return bool(self._layout.placed) and self._only < 0 and self._bi < self._f.bend and not self.over

    def points_of(self, move: Move | str | int) -> int:
        """The raw points a legal move's placement would earn (settlement not included)."""
        if isinstance(move, str):
            move = Move.parse(move)
        code = move.code() if isinstance(move, Move) else move
        if code == DRAW_CODE:
            return 0  # a draw scores nothing
        return self._f.points[self._layout.preview(code)]

    def code_points(self, codes: Sequence[int]) -> list[int]:
        """The raw points of each legal move code (what `points_of` gives, for many at once; a draw 0)."""
        if codes and codes[-1] == DRAW_CODE:  # the draw move, always last
            return self._layout.points_of(codes[:-1], self._f.points) + [0]
        return self._layout.points_of(codes, self._f.points)

    def observation(self, seat: int) -> dict[str, Any]:
        """What `seat` may see: own hand, layout, counted ends, legal moves on its turn, scores."""
        lay = self._layout
        mine = seat == self.seat_to_move
        codes = in_tile_order(self.legal_codes()) if mine else []  # larger sets: index order is not tile order
        return {
            "seat": seat,
            "side": self._f.sides[seat],
            "hand": mask_tiles(self._hands[seat]),
            "layout": lay.tiles,
            "connections": lay.connections(),
            "attach_points": lay.attach_points(),
            "counted": lay.counted(),
            "count": lay.total,
            "legal": [move_from_code(c) for c in codes],
            "points": self.code_points(codes),
            "must_play": self.must_play if mine else None,
            "drawn": self.drawn_before_move if mine else [],
            "scores": self.scores,
            "shown_scores": self.shown_scores,
            "hand_counts": [h.bit_count() for h in self._hands],
            "boneyard": len(self._f.bone) - self._bi,
            "drawable": self.drawable,
            "seat_to_move": self.seat_to_move,
            "opener": self.opener,
            "players": self.players,
            "target": self._f.board.target,
            "unit": self._f.config.unit,
        } | ({} if self._claims is None else self._claims.observe(self.over, seat)) | (  # the muggins rule
            {"first_opener": self._f.first} if self._f.board.from_first else {})  # "...: the side that started the match wins"

    # -- changing it ---------------------------------------------------------------

    def play(self, move: Move | str) -> Turn:
        """Apply a move of the seat to move (a Move or canonical text); return its Turn.

        IllegalMove (state unchanged) if the rules forbid it."""
        if isinstance(move, str):
            move = Move.parse(move)
        code = move.code()
        codes = self._legal
        if codes is None or code not in codes:  # (the usual case, the listed moves, without a call)
            if not self._is_legal(code):
                code = diagnose(self, move)  # raises IllegalMove with the stable code
            codes = self._legal
        claim: int | None = None
        if self._claims is not None:
            claim = self._claims.checked(move.claim)  # the muggins rule: a move's claim, checked
        elif move.claim is not None:
            raise IllegalMove("claims-off", "points are not claimed in this game: give the move without a claim")
        turn = self._do(code, True, codes, claim)
        assert turn is not None
        return turn

    def play_code(self, code: int) -> None:
        """Apply a legal move code (from `legal_codes()`) without building a Turn: for search."""
        if not self._is_legal(code):
            diagnose(self, move_from_code(code))
        self._do(code, self.record, self._legal)

    def _is_legal(self, code: int) -> bool:
        """True if `code` is among `legal_codes()`, found without listing them."""
        codes = self._legal
        if codes is not None:
            return code in codes
        if self.over:
            return False
        ti = code >> TILE_SHIFT  # (code_tile, inline: an endwise code, above TILE_BITS, is looked up below)
        lay = self._layout
        if not lay.placed or lay.orienting or code >= ENDWISE:
            # the lead: its list is short and made once; the sniff's orientations likewise
            return code in self.legal_codes()
        only = self._only
        if (self._hands[self._seat] if only < 0 else BIT[only]) >> ti & 1:
            v = lay.free.get(code & KEY_BITS)  # (code_key, inline)
            return v is not None and self._f.mask[v] >> ti & 1 == 1  # larger sets: the set's masks
        return False

    def draw(self) -> Turn:
        """The draw move where it is offered (`a player may draw while able to place`): its Turn.
        Elsewhere draws are automatic and asking for one is refused (IllegalMove with the stable code)."""
        return self.play(move_from_code(DRAW_CODE))

    def pass_turn(self) -> None:
        """Passes are automatic; asking for one is always refused."""
        self._refuse("a pass")

    def _refuse(self, what: str) -> NoReturn:
        if self.over:
            raise IllegalMove("round-over", "the round is over")
        raise IllegalMove("must-place", f"{what} is not allowed: seat {self._seat} has a placement",
                          self.legal_moves())

    def call(self, seat: int | None = None) -> list[Event]:
        """The muggins rule: `seat` (default: the caller) calls on the last placement; the call's events.

        IllegalMove (state unchanged) if the call is not allowed (interpreter/claims.py)."""
        if self._claims is None:
            raise IllegalMove("claims-off", "points are not claimed in this game: there is nothing to call")
        seat, raw, why = self._claims.take(seat, self.over)  # the checks: interpreter/claims.py
        n = len(self._events)
        # the call is an event of the caller's side now (target, overshoot and entry rules as for any event)
        ended = self._event(self._f.sides[seat], "call", raw, seat)
        events = self._events[n:]
        if self.record and self.turns:
            self.turns[-1].call = (seat, why, list(events))
        if ended:
            self._end("target", None, None)  # "check the target after every event": the call wins the match
        return events_of(events, self._f.config.unit)

    # -- the one place the state changes ---------------------------------------------

    def _do(self, code: int, want: bool, offered: Offered | None, claim: int | None = CLAIM_ALL) -> Turn | None:
        """Place the (legal) move `code`, score it, and settle or move on; the Turn if `want`. The one place a
        placement changes the state (the fast path and `play` both come here; a draw move: `_draw_move`)."""
        if code == DRAW_CODE:
            return self._draw_move(want, offered)
        pre = self._pre
        if pre is not None:
            self._pre = None
        if want:
            if offered is None:
                offered = self._offered()
            n_events = len(self._events)
        self._legal = None
        self._only = -1
        seat = self._seat
        hands = self._hands
        # 1. the tile leaves the hand (code_tile, inline: an endwise code has a bit above the tile's)
        hands[seat] = hands[seat] ^ BIT[code >> TILE_SHIFT & TILE_BITS]  # (not `^=`: compiled, that is a generic call)
        # 2. the tile joins the layout: free sides and the counted sum
        lay = self._layout
        count = lay.place(code)
        # 3. the placement's points, a function of the counted sum, as claimed and as the house rules credit them
        f = self._f
        pts = raw = f.points[count]
        claims = self._claims
        if claims is not None and self._close_calls(claims):
            self._end("target", None, None)  # the last placer's uncalled points won the match first
        else:
            if claims is not None:
                raw = claims.credit(seat, pts, claim)  # only the claimed points (the chance to call opens)
            if f.on_placement:
                at = placed(seat, code, count, pts, 0 if pre is None else len(pre[1]), not hands[seat],
                            None if claims is None else claims.last_claim)
                for rule in f.on_placement:
                    raw = rule.placement(at, raw)
            # 4. domino on the last tile of a hand, or the placement's event (the target after every event
            # may end the match), or the next seat: if it has a placement it is to move, and its list is kept
            if not hands[seat] and not (f.on_goes_on and self._goes_on(seat)):
                self._domino(seat, raw)
            elif raw and self._event(f.sides[seat], "placement", raw, seat):
                self._end("target", None, None)
            else:
                nxt = seat + 1
                if nxt == f.players:
                    nxt = 0
                codes = placement_codes(lay.free, hands[nxt], f.mask)  # larger sets: the set's masks
                if codes:
                    if lay.orienting:
                        codes = lay.oriented(codes)  # the sniff's orientations
                    self._seat = nxt
                    self._legal = None if f.on_offered else codes  # (the house rules' moves join the list)
                else:
                    self._placer = seat  # (read once the round is blocked: Round.last_placer)
                    self._advance(nxt)
        if not want:
            return None
        assert offered is not None
        return self._turn(seat, pre, offered, code, count, pts, n_events)

    def _turn(self, seat: int, pre: _Pending | None, offered: Offered, code: int, count: int, pts: int,
              n_events: int) -> Turn:
        """The Turn of the placement `_do` just made (recorded with `record`): its events are those since
        `n_events`."""
        f = self._f
        lay = self._layout
        events = self._events
        mv = MOVES.get(code) or move_from_code(code)
        if self._claims is not None:
            mv = self._claims.stated(mv)  # the muggins rule: the move with its claim
        turn = Turn(seat, _NO_PRE if pre is None else pre, offered, mv,
                    lay.counted_sides().copy() if lay.dead else lay.free.copy(), f.rules, count, pts,
                    events[n_events:] if len(events) > n_events else (),
                    lay.sniff_entry() if f.rules.layout.sniff else None)  # (the sniff's, where it can be)
        if f.record:
            self.turns.append(turn)
        return turn

    def _close_calls(self, claims: Claims) -> bool:
        """The chance to call on the last placement closes (the next placement, or a block): what its placer keeps
        without a call ("missed points are lost only when an opponent calls") is credited to its side as a
        `placement` event of that seat; True when that ends the match."""
        kept = claims.close()
        return kept is not None and self._event(self._f.sides[kept[0]], "placement", kept[1], kept[0])

    def _offered(self) -> Offered:
        """What was offered before a placement, for its Turn: the legal codes, or where they are not listed
        yet the free sides and the tiles that could go there (the Turn lists the moves only if read)."""
        offered: Offered | None = self._legal
        if offered is None:
            lay = self._layout
            if lay.placed and not lay.orienting and not self._f.on_offered:
                only = self._only
                return lay.free.copy(), self._hands[self._seat] if only < 0 else BIT[only], self._f.mask
            offered = self.legal_codes()  # the lead, the sniff's orientations, the house rules' moves
        return offered

    def _goes_on(self, seat: int) -> bool:
        """Whether the round goes on when `seat` has placed its last tile (HouseRule.goes_on)."""
        at = GoneOut(seat, self._f.partners[seat], tuple(self._hands))
        for rule in self._f.on_goes_on:
            if rule.goes_on(at):
                return True
        return False

    def _draw_move(self, want: bool, offered: Offered | None) -> Turn | None:
        """The draw move (`a player may draw while able to place`): the seat to move takes the first
        drawable tile into its hand and is to move again, with its whole hand (the tile need not be the one
        placed). The drawn tile joins the draws since the last placement (`drawn_before_move`, and the next
        placement's `drawn`); the draw's own Turn shows those before it. It never ends the round."""
        f = self._f
        seat = self._seat
        pre = self._pre
        turn = None
        if want:
            if offered is None:
                offered = self.legal_codes()
            lay = self._layout
            before = _NO_PRE if pre is None else (tuple(pre[0]), tuple(pre[1]), tuple(tuple(d) for d in pre[2]))
            turn = Turn(seat, before, offered, move_from_code(DRAW_CODE), lay.counted_sides().copy(), f.rules,
                        lay.total, 0, [], lay.sniff_entry())
        t = f.bone[self._bi]
        self._bi += 1
        self._hands[seat] |= BIT[t]
        if pre is None:
            self._pre = [[t], [], []]
        else:
            pre[0] = [*pre[0], t]
        self._legal = None
        if turn is not None and f.record:
            self.turns.append(turn)
        return turn

    def _advance(self, s: int) -> None:
        """Find the next seat that can place, drawing and passing as the rules require."""
        hands = self._hands
        ends = self._layout.ends
        n = self.players
        f = self._f
        while True:
            h = hands[s]
            if h & ends:
                self._seat = s
                return
            if not h:
                # a seat that went out while the round goes on (HouseRule.goes_on) neither plays nor passes
                s = (s + 1) % n
                continue
            drawn: list[int] | None = None
            if f.draw_until and self._bi < f.bend:
                # "draw until playable": from the front, one at a time, until a tile fits, or as many as
                # the house rules allow ("no drawing" skips this: the seat passes at once)
                bone, bi = f.bone, self._bi
                room = f.bend - bi
                if f.on_draws:
                    at = Drawing(s, room)
                    for rule in f.on_draws:
                        room = rule.draws(at, room)
                stop = bi + room
                got: list[int] = []  # (typed: compiled, the appends are direct calls)
                while bi < stop:
                    t = bone[bi]
                    bi += 1
                    h |= BIT[t]
                    got.append(t)
                    if BIT[t] & ends:
                        break
                drawn = got
                hands[s] = h
                self._bi = bi
                if h & ends and not f.draw_pass:
                    self._seat = s
                    self._only = drawn[-1]  # only the drawn tile may be placed
                    if self._pre is None:
                        self._pre = [drawn, [], []]
                    else:
                        self._pre[0] = drawn
                    return
            # nothing to place or draw: blocked if no one can place (at once under "..., or the round is blocked"), else pass
            for x in ([] if f.block_unfound else hands):
                if x & ends:
                    break
            else:
                if drawn is None or not f.on_draws or self._bi >= f.bend:
                    self._seat = s
                    self._block(s, drawn)
                    return
                # a house rule cut the drawing short and tiles are left: the seat passes, the next one draws
            if self._pre is None:
                self._pre = [(), [], []]
            self._pre[1].append(s)
            self._pre[2].append(drawn or ())
            s = (s + 1) % n

    # -- scoring and the end of the round ------------------------------------------------

    def _event(self, side: int, kind: str, raw: int, seat: int | None) -> bool:
        """Apply one event per the target rules (interpreter.scoring); True when it ends the match (every-event)."""
        if not raw:
            return False  # events of net raw 0 are not recorded
        new, accepted, ends = self._f.board.apply(kind, side, seat, self._scores[side], raw, self._layout.placed)
        self._scores[side] = new
        self._events.append((side, kind, raw, accepted, new, seat))
        if ends:
            self.match_over = True
            self.winner = side
        return ends

    def _domino(self, seat: int, pts: int) -> None:
        """Settle a domino (settlement.domino), unless the last placement ends the match first."""
        f = self._f
        plan = f.rules.domino_plan  # the spec, read once per configuration
        side = f.sides[seat]
        if self._claims is not None:
            kept = self._claims.close()  # no call comes after the round's last placement: its placer keeps
            if kept is not None:  # what is lost only when called, with the placement
                pts += kept[1]
        if plan.with_last_placement:
            # "as one event with the last placement": the placement folds into the winner side's
            # first settlement event
            self._settle(plan, "domino", seat, pts, plan.bonus, plan.counts(self._hands))
        else:
            # the last placement is an ordinary event; if it ends the match there is no settlement
            if pts and self._event(side, "placement", pts, seat):
                self._end("domino", seat, side)
                return
            pips = plan.counts(self._hands)
            # "winner: the lightest side" (family.md 3.9): the lighter side wins the settlement, or nobody
            winner = winner_of_domino(plan, f.seats, pips, seat)
            self._settle(plan, "domino", winner, 0, plan.bonus, pips)
        self._end("domino", seat, side)

    def _block(self, seat: int, drawn: list[int] | None) -> None:
        """Settle a block (settlement.block)."""
        if drawn:
            self._final_drawn = [(seat, [TILES[t] for t in drawn])]
        f = self._f
        if self._claims is not None and self._close_calls(self._claims):
            self._end("target", None, None)  # the last placer's uncalled points won the match
            return
        plan = f.rules.block_plan  # the spec, read once per configuration
        pips = plan.counts(self._hands)  # counted once, for the winner and the payments
        winner = winner_of_block(plan, f.seats, pips, self._hands, f.opener)
        self._settle(plan, "block", winner, 0, 0, pips)
        self._end("blocked", winner, None if winner is None else f.sides[winner])

    def _settle(self, plan: Plan, kind: str, winner: int | None, fold: int, bonus: int, pips: list[int]) -> None:
        """Apply the settlement's payments as events, in order, until one ends the match."""
        settled: list[EventRow] = []
        self._settle_events = settled
        events = self._events
        for sd, raw, seat in payments(plan, self._f.seats, pips, self._f.opener, winner, fold, bonus, self._hands):
            before = len(events)
            ended = self._event(sd, kind, raw, seat)
            if len(events) > before:
                settled.append(events[-1])
            if ended:
                break  # the match ends mid-settlement; the rest is skipped

    def _end(self, kind: str, seat: int | None, side: int | None) -> None:
        """Close the round: record the result and check the target after settlement."""
        self.over = True
        self._legal = None
        f = self._f
        if not self.match_over and kind != "target" and not f.board.every_event and f.tiebreak <= 1:
            # "check the target after settlement" (not at the end of an extra round of a fixed number
            # that is not the last: `tiebreak` > 1, "a tie at the top plays N extra rounds")
            over, winner, extra = f.board.after_settlement(self._scores, bool(f.tiebreak), _turn_order(f))
            if over:
                self.match_over = True
                self.winner = winner
            self._needs_tiebreak = extra
        # (the hands never change once the round is over, and a clone copies them: shared, not copied)
        self.result = RoundResult(
            kind, seat, side, self.match_over, self.winner if self.match_over else None,
            self._needs_tiebreak, self._hands, self._settle_events, list(self._scores),
            self._final_drawn, f.config.unit)

    # -- playing with players ----------------------------------------------------------

    def run(self, bots: Bots) -> Round:
        """Play to the end of the round with one player callable per seat (or one for all)."""
        seats: Sequence[Player] = [bots] * self.players if callable(bots) else bots
        if self._claims is not None:
            return self._run_claiming(seats, self._claims)  # the muggins rule: bots claim, opponents call
        rec = self.record
        # the fast path for the bundled players: the same rule code, no Move objects or observations
        rands = [b.rng.random if type(b) is RandomPlayer else None for b in seats]
        fast = [b if isinstance(b, FastPlayer) else None for b in seats]
        lay = self._layout
        while not self.over:
            seat = self._seat
            rnd = rands[seat]
            if rnd is not None and lay.placed:
                codes = self._legal
                if codes is None:
                    codes = self.legal_codes()
                n = len(codes)  # (a local: compiled, float times len() is a generic call, times an int native)
                self._do(codes[int(rnd() * n)], rec, None)  # = RandomPlayer.pick
                continue
            bot = fast[seat]
            if bot is not None:
                self._do(bot.pick(self, self.legal_codes()), rec, None)
            else:
                self.play(seats[seat](self.observation(seat), self.legal_moves()))
        return self

    def _run_claiming(self, seats: Sequence[Player], claims: Claims) -> Round:
        """`run` under the muggins rule: bots claim their points (or miss some), callers call when there is
        something to take (a bot with `calls` false never does)."""
        unit = self._f.config.unit
        while not self.over:
            bot = seats[self._seat]
            if isinstance(bot, FastPlayer):
                move = move_from_code(bot.pick(self, self.legal_codes()))
            else:
                move = bot(self.observation(self._seat), self.legal_moves())
            if move.claim is None:
                move = replace(move, claim=bot_claim(bot, self.points_of(move), unit))
            self.play(move)
            if not self.over:
                for caller in claims.to_call():  # the caller (any opponent: in turn order, the first who will)
                    if getattr(seats[caller], "calls", True):
                        self.call(caller)  # an opponent's bot calls when there is something to take
                        break
        return self

    # -- transcripts ----------------------------------------------------------------------

    @property
    def opening_draws(self) -> list[tuple[int, Tile]]:
        """The tiles drawn before the lead to find the opening double (`...: each player in turn draws until a
        double turns up`): (seat, tile) in draw order; empty otherwise."""
        return [(seat, TILES[t]) for seat, t in self._f.opening_draws]

    def deal_dict(self) -> dict[str, Any]:
        """The round's deal as JSON-ready data (the hands as dealt, before any opening draws)."""
        out = {
            "players": self.players,
            "opener": self.opener,
            "opening": self.opening,
            "hands": [[format_tile(TILES[i]) for i in mask_indices(h)] for h in self._f.initial_hands],
            "boneyard": [format_tile(TILES[i]) for i in self._f.bone],
            "scores": list(self._f.start_scores),
            "tiebreak": self.tiebreak,
        }
        if self.opening == "rotating-double":
            out["round"] = self._f.round_no  # which double opens it
        if self._f.board.from_first:
            out["first_opener"] = self._f.first  # "...: the side that started the match wins" reads it
        if self._f.opening_draws:
            out["opening_draws"] = [[seat, format_tile(TILES[t])] for seat, t in self._f.opening_draws]
        return out

    def transcript(self) -> dict[str, Any]:
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


def _start_scores(scores: Sequence[int] | None, nsides: int) -> Sequence[int]:
    """A round's starting scores, one per side (none given: 0 each)."""
    if scores is None:
        scores = [0] * nsides
    elif len(scores) != nsides:
        raise ValueError(f"{nsides} starting scores expected, got {len(scores)}")
    return scores


def _open_by_double(cfg: Config, opening: str, masks: list[int], bone: Sequence[int], bend: int,
                    opener: int | None, players: int, round_no: int,
                    previous: int | None) -> tuple[int, int, tuple[tuple[int, int], ...]]:
    """(opener, forced tile or -1, opening draws) of a round opened by a set or rotating double, or under
    "if nobody holds the opening double: ..." (interpreter.deal.open_by_double); a given opener is kept."""
    op = open_by_double(cfg, opening, masks, bone, bend, round_no, previous)
    if opener is None:
        if op.opener < 0:
            raise ValueError("nobody holds the opening double: the tiles are dealt again (a Match deals "
                             "them; give a deal in which somebody holds it)")
        return op.opener, op.forced, op.drawn
    forced = -1
    if opening == "highest-double" and op.forced >= 0 and not op.drawn and 0 <= opener < players:
        forced = deciding_tile(masks[opener])  # the highest double or heaviest tile: as without the rule
    elif op.forced >= 0 and 0 <= opener < players and masks[opener] & BIT[op.forced]:
        forced = op.forced  # a given opener leads the rule's tile when it holds it
    return opener, forced, op.drawn


def _turn_order(f: _Fixed) -> tuple[int, ...]:
    """The sides in turn from the round's opener, or from the match's first opener (only "ties at the top: the
    side that opened the round wins" and "...: the side that started the match wins" read them)."""
    if not f.board.to_opener:
        return ()
    start = f.first if f.board.from_first else f.opener
    return tuple(f.sides[(start + k) % f.players] for k in range(f.players))


def _drawn_bits(drawn: Sequence[tuple[int, int]], seat: int) -> int:
    """The tiles `seat` drew in the opening draws, as a mask."""
    return mask_of([t for s, t in drawn if s == seat])


# -- larger sets (family.md 3.7) ------------------------------------------------------------

_SET_NAMES = {6: "double-six", 9: "double-nine", 12: "double-twelve", 15: "double-fifteen", 18: "double-eighteen"}


def _check_set(cfg: Config, masks: Sequence[int], bone: Sequence[int]) -> None:
    """An explicit deal may hold only tiles of the configuration's set (ValueError naming the first other)."""
    n = SETS[cfg.tiles]
    if not sum(masks) >> n and (not bone or max(bone) < n):
        return  # every tile is in the set (the usual case, found without listing them)
    for t in [i for m in masks for i in mask_indices(m >> n << n)] + [i for i in bone if i >= n]:
        raise ValueError(f"tile {format_tile(TILES[t])} is not in the {_SET_NAMES[cfg.tiles]} set of {cfg.name}")
# -- end larger sets
