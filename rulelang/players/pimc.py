"""Determinized search: sample hidden tiles consistently with the history, try each move with greedy roll-outs.

Perfect-information Monte Carlo: every candidate move is scored on the same
sampled deals (common random numbers), and the best average wins.
Strength: `determinizations` per move (or `seconds` per move, which is not
reproducible). Deterministic for a seed.
"""
from __future__ import annotations

import time
from typing import Any

from rulelang.base.jsontypes import ConfigJSON
from rulelang.interpreter import Config, Move
from rulelang.interpreter.players import Seed
from rulelang.players.belief import Knowledge, sample_round
from rulelang.players.rollout import rollout_bots, value
from rulelang.players.searchbase import SearchPlayer


class DeterminizedSearch(SearchPlayer):
    """A search player (`SearchPlayer`): needs `observation["history"]` (see arena)."""

    def __init__(self, config: Config | ConfigJSON, seed: Seed = 0, determinizations: int = 12, seconds: float | None = None):
        super().__init__(config, seed, seconds)
        self.determinizations = max(1, determinizations)

    def _search(self, obs: dict[str, Any], legal: list[Move]) -> Move:
        rng = self.rng
        know = Knowledge(obs)
        side = obs["side"]
        nsides = len(obs["scores"])
        totals = [0.0] * len(legal)
        done = 0
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        while True:
            det = sample_round(self.config, obs, rng, knowledge=know)
            if det is None:
                break
            start = det.scores
            bots = rollout_bots(rng, obs["players"])
            for i, mv in enumerate(legal):
                r = det.clone()
                r.play_code(mv.code())  # claims every point under the muggins rule (Round.play_code)
                if not r.over:
                    r.run(bots)
                totals[i] += value(r, start, nsides, self.scale)[side]
            self.playouts += len(legal)
            done += 1
            if deadline is None:
                if done >= self.determinizations:
                    break
            elif time.perf_counter() >= deadline:
                break
        if not done:
            self.failed += 1
            pts: list[int] = obs["points"]
            best = max(pts)
            return legal[pts.index(best)]
        best_total = max(totals)
        return legal[totals.index(best_total)]

    def __repr__(self) -> str:
        return f"pimc:{self.determinizations}"
