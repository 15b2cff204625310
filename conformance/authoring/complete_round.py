"""Draft a `complete` conformance case: one whole round dealt from a seed and played by greedy players.

Why: hand-worked cases pin single rules; a complete round pins how they chain
(draws, passes, counted ends, the settlement, the result). The draft is made by
the built-in engine, so it is only a starting point: a case author reviews
every step by hand (counted ends from the layout, draws against the boneyard
order, the settlement as the rules say) before it joins the suite, and the
independent toy engines must agree with it.

    python conformance/authoring/complete_round.py VARIANT PLAYERS SEED [--id ID] [--desc TEXT] [--miss-rate R]

prints one case as JSON on standard output.

Under the muggins rule (`claims`, family.md 2.3) each placement step carries its claim in the
case's `claim` field (shown points; the play text stays a plain move): the greedy players claim
all their points, or with `--miss-rate R` claim 0 for a scoring placement that often (from a
generator of their own, seeded by SEED), and the next opponent then calls: a `call` step.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import replace
from typing import Any

import rulelang
from rulelang.conformance.drafting import EVENT_KEYS, deal_of, seat_to_move, turn_expectation
from rulelang.interpreter import Match, greedy_player


def draft(variant: str, players: int, seed: int, miss_rate: float = 0.0) -> dict[str, Any]:
    """The case dict (without id/description/source/tags) of round 1 of a seeded match."""
    config = rulelang.compile_bundled(variant)
    claims = config.get("claims", "none") != "none"
    unit = config["scoring"]["unit"]
    match = Match(config, players, seed=seed)
    rnd = match.round
    setup = deal_of(rnd)
    bot = greedy_player(seed)
    misses = random.Random(seed)
    steps: list[dict[str, Any]] = []
    while not match.over and not match.rounds:
        seat = seat_to_move(match)
        move = bot(match.observation(seat), match.legal_moves())
        if not claims:
            turn = match.play(move).to_dict()
            steps.append({"play": turn["move"], "expect": turn_expectation(turn)})
            continue
        pts = match.round.points_of(move)
        claim = 0 if pts and misses.random() < miss_rate else pts // unit
        turn = match.play(replace(move, claim=claim)).to_dict()
        steps.append({"play": str(replace(move, claim=None)), "claim": claim, "expect": turn_expectation(turn)})
        window = None if match.over or match.rounds else match.observation(seat)["call"]
        if window is not None:
            caller = window["caller"]
            if match.observation(caller)["call"]["amount"]:
                events = [e.to_dict() for e in match.call(caller)]
                steps.append({"call": caller, "expect": {
                    "seat": caller, "events": [{k: e[k] for k in EVENT_KEYS} for e in events]}})
    result = match.rounds[0] if match.rounds else None
    last = steps[-1]["expect"]
    last["scores"] = list(result.scores) if result is not None else list(match.scores)
    if result is not None:
        last["round"] = {"kind": result.kind, "seat": result.seat, "side": result.side,
                         "hand_pips": list(result.hand_pips)}
    last["match"] = {"over": match.over, "winner": match.winner}
    return {"players": players, "setup": setup, "steps": steps}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variant")
    ap.add_argument("players", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("--id", default=None)
    ap.add_argument("--desc", default="a complete round from a shuffled deal")
    ap.add_argument("--miss-rate", type=float, default=0.0,
                    help="under the muggins rule: how often a player claims 0 for a scoring placement")
    args = ap.parse_args(argv)
    body = draft(args.variant, args.players, args.seed, args.miss_rate)
    case = {"id": args.id or f"{args.variant}-complete-round-{args.players}p-seed{args.seed}",
            "description": args.desc,
            "source": {"text": "family.md", "where": f"rulesets/{args.variant}.rules; drafted by "
                       f"conformance/authoring/complete_round.py (seed {args.seed}, greedy players), reviewed by hand"},
            "tags": [], **body}
    json.dump(case, sys.stdout, indent=1, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
