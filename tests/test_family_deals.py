"""The deal of every variant of family.md section 2 (section 5's "hand (2/3/4)" row; 2.5 example 2: All Fives
(Pagat) deals 9 each to 2 players leaving 10 in the boneyard, 7 each to 3 leaving 7, 5 each to 4 leaving 8).

Conformance cases start from explicit deals, so the deal itself is checked here, through the public engine."""
from __future__ import annotations

import pytest

import rulelang
from rulelang.interpreter import Config, Match

HANDS = {  # family.md section 5
    "fives-and-threes": (7, 5, 5),
    "all-threes": (7, 5, 5),
    "muggins": (7, 5, 5),
    "sniff": (7, 6, 5),
    "allfives-pagat": (9, 7, 5),
    "threes-and-fives": (7, 5, 5),
}


@pytest.mark.parametrize("name", HANDS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_deal_of_a_family_variant(name, players):
    size = HANDS[name][players - 2]
    config = Config.from_dict(rulelang.compile_bundled(name))
    for seed in (1, 2):
        rnd = Match(config, players, seed=seed).round
        assert [len(h) for h in rnd.hands] == [size] * players
        assert len(rnd.boneyard) == 28 - players * size
        assert len({t for h in rnd.hands for t in h} | set(rnd.boneyard)) == 28


def test_all_fives_pagat_boneyards_of_example_2():
    config = Config.from_dict(rulelang.compile_bundled("allfives-pagat"))
    assert [len(Match(config, n, seed=0).round.boneyard) for n in (2, 3, 4)] == [10, 7, 8]
