"""Draft a complete-match conformance case: every round dealt from one seed, played by greedy players.

Why: a complete match pins how rounds chain (scores carried over, openers,
the end of the match). "Match seed N" means every round is dealt as
`Match(config, players, seed=N)` deals it: the first round from the
generator, and each later round from the same generator after it. The case
starts from given scores (so the match is short); they do not change the
deals. As for `complete_round.py`, the draft comes from the built-in engine:
a case author reviews every settlement by hand, and the independent engines
must agree with it before it joins the suite.

    python conformance/authoring/complete_match.py VARIANT PLAYERS SEED --scores 260,280,270
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import rulelang
from rulelang.conformance.drafting import deal_of, seat_to_move, turn_expectation
from rulelang.interpreter import Match, greedy_player
from rulelang.interpreter.deal import deal_tiles


def draft(variant: str, players: int, seed: int, scores: list[int], moves: list[str] | None = None) -> dict[str, Any]:
    """The case body (players, setup, next_rounds, steps) of the match dealt from `seed`, from `scores`.

    `moves` (optional) are played first, as given (e.g. the first round of an
    existing case); greedy players play the rest.
    """
    moves = list(moves or [])
    config = rulelang.compile_bundled(variant)
    first = Match(config, players, seed=seed).round  # the first round exactly as the seed deals it
    deal0 = dict(deal_of(first), scores=scores)
    match = Match(config, players, seed=seed, record=True, deal=[deal0])
    # the generator has dealt nothing yet: let it deal the first round (and draw its lottery) as it would have
    deal_tiles(match.config, players, match.rng)
    if match.config.opener_first == "lottery":
        match.rng.random()
    bot = greedy_player(seed)
    deals, steps, current = [], [], None
    while not match.over:
        if match.round is not current:
            current = match.round
            deals.append(deal_of(current))
        rnd = match.round
        move = moves.pop(0) if moves else bot(match.observation(seat_to_move(match)), match.legal_moves())
        done = len(match.rounds)
        turn = match.play(move).to_dict()
        expect = turn_expectation(turn)
        if len(match.rounds) > done or match.over:
            res = rnd.result
            assert res is not None  # the round has just ended
            expect["scores"] = list(rnd.scores)
            expect["round"] = {"kind": res.kind, "seat": res.seat, "side": res.side, "hand_pips": list(res.hand_pips)}
            expect["match"] = {"over": match.over, "winner": match.winner} if match.over else {"over": False}
        steps.append({"play": turn["move"], "expect": expect})
    setup = dict(deals[0], scores=scores)
    return {"players": players, "setup": setup, "next_rounds": deals[1:], "steps": steps}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variant")
    ap.add_argument("players", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("--scores", required=True, help="starting raw scores per side, comma separated")
    ap.add_argument("--moves", default="", help="moves played first, separated by ';' (then greedy players)")
    args = ap.parse_args(argv)
    moves = [m.strip() for m in args.moves.split(";") if m.strip()]
    body = draft(args.variant, args.players, args.seed, [int(x) for x in args.scores.split(",")], moves)
    json.dump(body, sys.stdout, indent=1, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
