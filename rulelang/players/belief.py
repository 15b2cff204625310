"""Determinizations: a full deal consistent with everything one seat has seen, replayed to the present.

The seat knows its hand, every placement, its own draws, how many tiles each
other seat drew and when, and the tiles that fitted the layout each time a
seat drew or passed (so that seat held none of them then). A sample gives each
hidden tile a *slot*: an opening-hand slot, or the position of a draw in the
boneyard; a tile in a slot held from time `a` on must not fit at any moment
from `a` on when its holder could not place. The sampled deal is then replayed
through the engine; a sample the engine does not follow is rejected.
"""
from __future__ import annotations

import random
from typing import Any

from rulelang.interpreter import Config, IllegalMove, Move, Round
from rulelang.players.tiles import ALL_TILES

Tile = tuple[int, int]


class Slot:
    """A place a hidden tile may sit: a seat's opening hand (`draw` None) or one boneyard draw."""

    __slots__ = ("seat", "time", "draw", "tile", "fixed")

    def __init__(self, seat: int, time: int, draw: int | None, tile: Tile | None = None):
        self.seat = seat
        self.time = time  # step at which the holder got the tile (0: the deal)
        self.draw = draw  # position in the boneyard's draw order, None for the opening hand
        self.tile = tile
        self.fixed = tile is not None


class Knowledge:
    """What one seat's history says, worked out once per decision."""

    def __init__(self, obs: dict[str, Any]):
        hist = obs["history"]
        self.me: int = obs["seat"]
        self.players: int = obs["players"]
        self.head = hist
        # the match's first opener ("ties at the top: the side that started the match wins"; None elsewhere)
        self.first: int | None = obs.get("first_opener")
        n = self.players
        move_parse = Move.parse
        self.moves: list[tuple[int, Move]] = []  # (seat, Move) in order
        self.events: list[list[tuple[int, frozenset[Tile]]]] = [[] for _ in range(n)]  # per seat: (time, fits)
        self.placed: list[list[tuple[int, Tile]]] = [[] for _ in range(n)]  # per seat: (time, tile)
        self.slots: list[Slot] = []
        self.draw_count = 0
        open_draw: dict[int, Slot] = {}  # seat -> the last slot of its draw not yet followed by its placement
        for t, st in enumerate(hist["steps"], start=1):
            s = st["seat"]
            if "move" in st:
                mv = move_parse(st["move"])
                self.moves.append((s, mv))
                last = open_draw.pop(s, None)
                if last is not None and not last.fixed:
                    last.tile, last.fixed = mv.tile, True  # the drawn tile that alone could be placed
                else:
                    self.placed[s].append((t, mv.tile))
                continue
            self.events[s].append((t, frozenset(map(tuple, st["fits"]))))
            drew = st["drew"]
            tiles = [tuple(x) for x in drew] if isinstance(drew, list) else [None] * drew
            made = []
            for tile in tiles:
                made.append(Slot(s, t, self.draw_count, tile))
                self.draw_count += 1
            self.slots.extend(made)
            if st.get("voluntary"):
                # a draw move: replayed as a move; the seat could place, so nothing is learnt
                self.moves.append((s, move_parse("draw")))
                continue
            if made and not st["passed"]:
                open_draw[s] = made[-1]
        for s in range(n):
            if s != self.me:
                self.slots.extend(Slot(s, 0, None) for _ in range(hist["hands"][s]))
        hand = [tuple(t) for t in obs["hand"]]
        seen = set(hand) | {tuple(t) for t in obs["layout"]}
        self.hand = hand
        self.unseen = [t for t in ALL_TILES if t not in seen]
        self.hand_counts = list(obs["hand_counts"])
        self.boneyard = obs["boneyard"]

    def forbidden(self, seat: int, start: int, end: int | None) -> frozenset[Tile]:
        """The tiles `seat` cannot have held from step `start` to `end` (exclusive; None: until now)."""
        out: set[Tile] = set()
        for t, fits in self.events[seat]:
            if t >= start and (end is None or t < end):
                out |= fits
        return frozenset(out)


def _assign(k: Knowledge, rng: random.Random) -> tuple[list[Slot], list[Tile]] | None:
    """Fill the hidden slots (other seats' opening hands and unknown draws) and order the undrawn rest.

    None if this try runs out of tiles that fit the constraints."""
    slots = [Slot(s.seat, s.time, s.draw, s.tile) for s in k.slots]
    for s in slots:
        s.fixed = s.tile is not None
    free_by_seat: dict[int, list[Slot]] = {}
    for s in slots:
        if s.tile is None:
            free_by_seat.setdefault(s.seat, []).append(s)
    # 1. tiles other seats placed (not straight from a draw): a slot held before, and not fitting meanwhile
    for seat in range(k.players):
        if seat == k.me:
            continue
        for t, tile in k.placed[seat]:
            ok = [s for s in free_by_seat.get(seat, []) if s.time < t and tile not in k.forbidden(seat, s.time, t)]
            if not ok:
                return None
            pick = ok[int(rng.random() * len(ok))]
            pick.tile = tile
            free_by_seat[seat].remove(pick)
    # 2. the hidden tiles still held or drawn: most constrained slot first
    pool = list(k.unseen)
    rng.shuffle(pool)
    todo = [(s, k.forbidden(s.seat, s.time, None)) for ss in free_by_seat.values() for s in ss]
    todo.sort(key=lambda sf: -len(sf[1]))
    for slot, bad in todo:
        fit = [x for x in pool if x not in bad]
        if not fit:
            return None
        got = fit[int(rng.random() * len(fit))]
        slot.tile = got
        pool.remove(got)
    return slots, pool  # the pool left is the undrawn boneyard, in shuffled order


def sample_round(config: Config, obs: dict[str, Any], rng: random.Random, tries: int = 30,
                 knowledge: Knowledge | None = None, assign_tries: int = 400) -> Round | None:
    """A Round at the present position whose hidden tiles are sampled consistently; None if none was found.

    Up to `tries` replays, and `assign_tries` slot assignments in all (cheap; late in a round the
    constraints are tight and most random assignments fail)."""
    k = knowledge or Knowledge(obs)
    replays = 0
    for _ in range(assign_tries):
        if replays >= tries:
            break
        got = _assign(k, rng)
        if got is None:
            continue
        replays += 1
        slots, rest = got
        hands: list[list[Tile]] = [[] for _ in range(k.players)]
        draws: list[Tile | None] = [None] * k.draw_count
        for s in slots:
            assert s.tile is not None  # _assign fills every slot, and there is a slot for every draw
            if s.draw is None:
                hands[s.seat].append(s.tile)
            else:
                draws[s.draw] = s.tile
        mine_drawn = {s.tile for s in slots if s.seat == k.me and s.draw is not None}
        mine_placed = [mv.tile for seat, mv in k.moves if seat == k.me and not mv.draw]
        hands[k.me] = [t for t in k.hand + mine_placed if t not in mine_drawn]
        rnd = _replay(config, k, hands, [t for t in draws if t is not None] + rest)
        if rnd is not None:
            return rnd
    return None


def _replay(config: Config, k: Knowledge, hands: list[list[Tile]], boneyard: list[Tile]) -> Round | None:
    head = k.head
    try:
        rnd = Round(config, k.players, hands, boneyard, head["opener"], head["scores"],
                    opening="lottery", tiebreak=head["tiebreak"], first=k.first)
        for seat, mv in k.moves:
            if rnd.seat_to_move != seat:
                return None
            rnd.play(mv)
    except (ValueError, IllegalMove):
        return None
    if rnd.over or rnd.seat_to_move != k.me:
        return None
    obs = rnd.observation(k.me)
    if obs["hand_counts"] != k.hand_counts or obs["boneyard"] != k.boneyard:
        return None
    return rnd
