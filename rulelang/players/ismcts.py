"""Single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse, 2012).

One tree over the moves seen from this seat; each iteration samples a deal
consistent with the seat's history, walks the tree choosing among the moves
that deal allows (UCB1 with availability counts), adds one node, and finishes
the round with greedy roll-outs. Strength: `iterations` per move (or
`seconds`); deterministic for a seed.
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

from rulelang.base.jsontypes import ConfigJSON
from rulelang.interpreter import Config, Move, Round
from rulelang.interpreter.players import Seed
from rulelang.players.belief import Knowledge, sample_round
from rulelang.players.rollout import rollout_bots, value
from rulelang.players.searchbase import SearchPlayer


class _Node:
    __slots__ = ("children", "visits", "avail", "total", "side")

    def __init__(self, side: int):
        self.children: dict[tuple[int, Move], _Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.side = side  # the side that chose the move leading here


class InformationSetMCTS(SearchPlayer):
    """A search player (`SearchPlayer`): needs `observation["history"]` (see arena)."""

    def __init__(self, config: Config | ConfigJSON, seed: Seed = 0, iterations: int = 200, seconds: float | None = None,
                 exploration: float = 0.7, pool: int = 16):
        super().__init__(config, seed, seconds)
        self.iterations = max(1, iterations)
        self.c = exploration
        self.pool = max(1, pool)

    def _search(self, obs: dict[str, Any], legal: list[Move]) -> Move:
        rng = self.rng
        know = Knowledge(obs)
        sides = self.config.sides_of(obs["players"])
        nsides = len(obs["scores"])
        root = _Node(-1)
        dets: list[Round] = []
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        it = 0
        while True:
            if len(dets) < self.pool:
                det = sample_round(self.config, obs, rng, knowledge=know)
                if det is None:
                    break
                dets.append(det)
            else:
                det = dets[it % self.pool]
            self._iterate(root, det.clone(), rng, sides, nsides, obs["players"])
            self.playouts += 1
            it += 1
            if deadline is None:
                if it >= self.iterations:
                    break
            elif time.perf_counter() >= deadline:
                break
        seat = obs["seat"]
        if not root.children:
            self.failed += 1
            pts: list[int] = obs["points"]
            return legal[pts.index(max(pts))]
        visits = [(root.children[(seat, mv)].visits if (seat, mv) in root.children else -1) for mv in legal]
        return legal[visits.index(max(visits))]

    def _iterate(self, root: _Node, r: Round, rng: random.Random, sides: Sequence[int], nsides: int,
                 players: int) -> None:
        node = root
        start = r.scores
        path = []
        c = self.c
        while not r.over:
            seat = r.seat_to_move
            assert seat is not None  # the round goes on
            moves = r.legal_moves()
            untried = []
            for mv in moves:
                ch = node.children.get((seat, mv))
                if ch is None:
                    untried.append(mv)
                else:
                    ch.avail += 1
            if untried:
                mv = untried[int(rng.random() * len(untried))]
                child = _Node(sides[seat])
                node.children[(seat, mv)] = child
                r.play_code(mv.code())  # claims every point under the muggins rule (Round.play_code)
                path.append(child)
                break
            best = None
            best_u = -math.inf
            for mv in moves:
                ch = node.children[(seat, mv)]
                u = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if u > best_u:
                    best_u, best = u, mv
            assert best is not None  # `moves` is not empty
            node = node.children[(seat, best)]
            r.play_code(best.code())
            path.append(node)
        if not r.over:
            r.run(rollout_bots(rng, players))
        reward = value(r, start, nsides, self.scale)
        for n in path:
            n.visits += 1
            n.total += reward[n.side]

    def __repr__(self) -> str:
        return f"ismcts:{self.iterations}"
