"""Draft a `complete` conformance case: one whole round dealt from a seed and played by greedy players.

Why: hand-worked cases pin single rules; a complete round pins how they chain
(draws, passes, counted ends, the settlement, the result). The draft is made by
the built-in engine, so it is only a starting point: a case author reviews
every step by hand (counted ends from the layout, draws against the boneyard
order, the settlement as the rules say) before it joins the suite, and the
independent toy engines must agree with it.

    python conformance/authoring/complete_round.py VARIANT PLAYERS SEED [--id ID] [--desc TEXT]

prints one case as JSON on standard output.
"""
from __future__ import annotations

import argparse
import json
import sys

import rulelang
from conformance.drafting import deal_of, seat_to_move, turn_expectation
from interpreter import Match, greedy_player


def draft(variant: str, players: int, seed: int) -> dict:
    """The case dict (without id/description/source/tags) of round 1 of a seeded match."""
    config = rulelang.compile_bundled(variant)
    match = Match(config, players, seed=seed)
    rnd = match.round
    setup = deal_of(rnd)
    bot = greedy_player(seed)
    steps = []
    while not match.over and not match.rounds:
        move = bot(match.observation(seat_to_move(match)), match.legal_moves())
        turn = match.play(move).to_dict()
        steps.append({"play": turn["move"], "expect": turn_expectation(turn)})
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
    args = ap.parse_args(argv)
    body = draft(args.variant, args.players, args.seed)
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
