"""The engine opens a round as its rules say: who leads, the deals thrown in, the double that must be led."""
from __future__ import annotations

import rulelang
from rulelang.interpreter import Match

HEAD = 'ruleset h "H"\nsource "a test"\nbased on allfives\n'


REDEAL = HEAD + "the tiles are dealt again when a hand holds 4 or more doubles\n"


def cfg(text: str) -> dict:
    return rulelang.compile_text(text, "h.rules")


def _doubles(hand: list[str]) -> int:
    return sum(1 for t in hand if t[1] == t[3])


LOWEST = HEAD + ("opener of the first round: the lowest double\nopener after a domino: the lowest double\n"
                 "opener after a block: the lowest double\n")


NEXT_SEAT_DOUBLE = HEAD + ("opener of the first round: the double six\nopener after a domino: the double six\n"
                           "opener after a block: the double six\n"
                           "if nobody holds the opening double: the lead passes to the next seat, who must lead its highest double\n")


def test_a_seeded_match_throws_in_every_deal_with_a_hand_of_n_doubles_and_records_it():
    seen = 0
    for seed in range(40):
        match = Match(cfg(REDEAL), 2, seed=seed, record=True)
        while not match.over:
            match.play(match.legal_moves()[0])
            if len(match.rounds) >= 2:
                break
        for rnd in match.transcript()["rounds"]:
            assert all(_doubles(h) < 4 for h in rnd["deal"]["hands"])
            for thrown in rnd.get("thrown_in", []):
                seen += 1
                assert max(_doubles(h) for h in thrown["hands"]) >= 4
    assert seen  # some deal of these seeds was thrown in


def test_every_round_of_a_seeded_match_is_opened_by_the_lowest_double_held():
    rounds = 0
    for seed in range(15):
        match = Match(cfg(LOWEST), 3, seed=seed, record=True)
        while not match.over and len(match.rounds) < 3:
            match.play(match.legal_moves()[0])
        for rnd in match.transcript()["rounds"]:
            hands = rnd["deal"]["hands"]
            doubles = sorted((t, seat) for seat, h in enumerate(hands) for t in h if t[1] == t[3])
            if not doubles or not rnd["turns"]:
                continue
            rounds += 1
            first = rnd["turns"][0]
            assert (first["seat"], first["move"]) == (doubles[0][1], doubles[0][0]), (seed, rnd["turns"][0])
    assert rounds >= 30


def test_in_seeded_matches_the_next_seat_leads_its_own_highest_double_when_nobody_holds_the_double_six():
    from rulelang.interpreter.deal import deciding_tile
    from rulelang.interpreter.tiles import BIT, tile_index

    seen = 0
    for seed in range(40):
        match = Match(cfg(NEXT_SEAT_DOUBLE), 4, seed=seed, record=True)
        while not match.over and len(match.rounds) < 3:
            match.play(match.legal_moves()[0])
        previous = None
        for rnd in match.transcript()["rounds"]:
            hands = rnd["deal"]["hands"]
            if rnd["turns"] and not any("[6|6]" in h for h in hands):
                seat = 0 if previous is None else (previous + 1) % 4
                mask = sum(BIT[tile_index(t)] for t in hands[seat])
                first = rnd["turns"][0]
                assert first["seat"] == seat and tile_index(first["move"]) == deciding_tile(mask)
                seen += 1
            previous = rnd["turns"][0]["seat"] if rnd["turns"] else previous
    assert seen
