"""The engine's layout: which doubles branch, decided at the lead or for every double."""
from __future__ import annotations

import rulelang

HEAD = 'ruleset h "H"\nsource "a test"\nbased on allfives\n'


def cfg(text: str) -> dict:
    return rulelang.compile_text(text, "h.rules")


def test_in_seeded_matches_only_a_double_led_ever_branches():
    from rulelang.interpreter import Round

    lead_only = cfg(HEAD + "only a leading double branches\nopener leads any tile\n")
    after_lead = cfg(HEAD + "every double but the lead branches\n")
    import random

    seen = {True: 0, False: 0}
    for seed in range(30):
        for config, led_branches in ((lead_only, True), (after_lead, False)):
            rnd = Round.deal(config, 2, random.Random(seed), record=True)
            while not rnd.over:
                rnd.play(rnd.legal_moves()[0])
            lead = rnd.turns[0].to_dict()["move"]
            branched = {t.to_dict()["move"].split(" on ")[1].split(" ")[0] for t in rnd.turns
                        if " branch-" in t.to_dict()["move"]}
            seen[led_branches] += bool(branched)
            if led_branches:
                assert branched <= {lead}
            else:
                assert lead not in branched
    assert seen[True] and seen[False]  # branches were played under both
