"""Shared by the searching players: greedy roll-outs to the end of the round, and how a finished one is valued."""
from __future__ import annotations

import random

from rulelang.interpreter import Config, Round, greedy_player
from rulelang.interpreter.players import GreedyPlayer


def rollout_bots(rng: random.Random, players: int) -> list[GreedyPlayer]:
    """Greedy players for the roll-outs, seeded from the searcher's generator (so a seed fixes everything)."""
    return [greedy_player(rng.getrandbits(32)) for _ in range(players)]


def value(rnd: Round, start: list[int], nsides: int, scale: float) -> list[float]:
    """Per side, in [-1, 1]: +1 / -1 for a won / lost match, else the round's point lead over the best other side."""
    if rnd.match_over:
        w = rnd.winner
        return [0.0 if w is None else (1.0 if w == x else -1.0) for x in range(nsides)]
    gain = [a - b for a, b in zip(rnd.scores, start)]
    out = []
    for x in range(nsides):
        other = max(gain[y] for y in range(nsides) if y != x)
        v = (gain[x] - other) / scale
        out.append(max(-0.9, min(0.9, v)))
    return out


def scale_of(config: Config) -> float:
    """Points that count as a large round lead: half the target (raw), at least 10 units."""
    target = config.target if isinstance(config.target, int) else 100
    return max(target / 2, float(10 * config.unit))
