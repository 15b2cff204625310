"""Determinized search: sample hidden tiles consistently with the history, try each move with greedy roll-outs.

Perfect-information Monte Carlo: every candidate move is scored on the same
sampled deals (common random numbers), and the best average wins.
Strength: `determinizations` per move (or `seconds` per move, which is not
reproducible). Deterministic for a seed.
"""
from __future__ import annotations

import random
import time
from typing import Any

from rulelang.players.belief import Knowledge, sample_round
from rulelang.players.rollout import rollout_bots, scale_of, value
from rulelang.tools.engine import get


class DeterminizedSearch:
    """A player `(observation, legal) -> Move` that needs `observation["history"]` (see arena)."""

    wants_history = True

    def __init__(self, config, seed: Any = 0, determinizations: int = 12, seconds: float | None = None):
        self.config = get("Config").from_dict(config) if isinstance(config, dict) else config
        self.rng = random.Random(seed)
        self.determinizations = max(1, determinizations)
        self.seconds = seconds
        self.scale = scale_of(self.config)
        self.failed = 0  # searches that found no consistent sample (the greedy choice instead)
        self.decisions = self.searched = 0  # calls, and calls with a choice to search
        self.busy = 0.0  # CPU seconds spent searching

    def __call__(self, obs: dict[str, Any], legal: list) -> Any:
        self.decisions += 1
        if len(legal) == 1:
            return legal[0]
        clock = time.process_time()
        try:
            return self._search(obs, legal)
        finally:
            self.searched += 1
            self.busy += time.process_time() - clock

    def _search(self, obs: dict[str, Any], legal: list) -> Any:
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
                r.play(mv)
                if not r.over:
                    r.run(bots)
                totals[i] += value(r, start, nsides, self.scale)[side]
            done += 1
            if deadline is None:
                if done >= self.determinizations:
                    break
            elif time.perf_counter() >= deadline:
                break
        if not done:
            self.failed += 1
            pts = obs["points"]
            best = max(pts)
            return legal[pts.index(best)]
        best_total = max(totals)
        return legal[totals.index(best_total)]

    def __repr__(self) -> str:
        return f"pimc:{self.determinizations}"
