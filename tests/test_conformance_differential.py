"""Differential check: the built-in engine and the independent toy engine observe the same thing on random matches.

The hand-worked cases pin the rules; this complements them with whole matches
(random and greedy players, shuffled deals, starting scores near the target)
where every observation of every step must agree between two implementations
that share no code. A disagreement is an engine bug in one of them: make it a
hand-worked case.
"""
from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from rulelang.conformance import builtin
from rulelang.conformance.compare import compare
from rulelang.conformance.configs import compiled

TOY_PATH = Path(__file__).parents[1] / "conformance" / "examples" / "toy_engine.py"
_spec = importlib.util.spec_from_file_location("toy_engine", TOY_PATH)
toy = importlib.util.module_from_spec(_spec)
assert _spec.loader is not None
_spec.loader.exec_module(toy)

NEAR = {"exact61": [280, 285, 290, 295], "pagat": [280, 290, 300, 295], "allfives": [120, 130, 125, 140]}


def _play(variant, players, seed, scores):
    """A match played by the built-in engine: its deals and its moves."""
    from rulelang.interpreter import Match, as_config, greedy_player, random_player

    cfg = compiled(variant)
    m = Match(as_config(cfg), players, seed=seed, record=True)
    if scores:
        d = m.round.deal_dict()
        first = {"hands": d["hands"], "boneyard": d["boneyard"], "opener": d["opener"], "scores": scores}
        m = Match(as_config(cfg), players, seed=seed, record=True, deal=[first])
    rng = random.Random(seed)
    bots = [(random_player if rng.random() < 0.5 else greedy_player)(seed * 7 + s) for s in range(players)]
    moves = []
    while not m.over and len(m.rounds) < 6:
        rnd = m.round
        seat = rnd.seat_to_move
        move = bots[seat](rnd.observation(seat), rnd.legal_moves())
        moves.append(str(move))
        m.play(move)
    rounds = list(m.round_log)
    if not m.over and m.round not in rounds:
        rounds.append(m.round)
    deals = [{k: r.deal_dict()[k] for k in ("hands", "boneyard", "opener")} for r in rounds]
    if scores:
        deals[0]["scores"] = scores
    return cfg, deals, moves


@pytest.mark.parametrize("variant", ["exact61", "pagat", "allfives"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_engines_agree_on_random_matches(variant, players):
    for seed in range(8):
        sides = 2 if (players == 4 and variant != "allfives") else players
        scores = NEAR[variant][:sides] if seed % 2 else None
        cfg, deals, moves = _play(variant, players, seed, scores)
        request = {"id": f"{variant}-{players}-{seed}", "config": cfg, "players": players, "setup": deals[0],
                   "next_rounds": deals[1:], "steps": [{"play": m} for m in moves]}
        ours = builtin.run_case(request)
        assert all(o["reject"] is None for o in ours["steps"])
        as_case = {"steps": [{"play": m, "expect": {k: v for k, v in o.items() if k != "reject"}}
                             for m, o in zip(moves, ours["steps"], strict=True)]}
        diff = compare(as_case, toy.run_case(request))
        assert diff is None, f"seed {seed}: {diff}"
