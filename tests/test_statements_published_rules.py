"""Statements for the last rules of the published texts that the language could not state (docs/design/family.md,
"The last rules of the published texts, as stated"): each compiles, round-trips through `fmt`, is explained, refuses a value that cannot apply, and is obeyed
by the engine beyond its conformance cases (conformance/cases/*/: tagged with its feature tag)."""
from __future__ import annotations

import rulelang
from rulelang.interpreter import Match
from rulelang.language.explain import diff_configs, explain_text
from rulelang.language.formatter import format_text

HEAD = 'ruleset h "H"\nsource "a test"\nbased on allfives\n'
REDEAL = HEAD + "the tiles are dealt again when a hand holds 4 or more doubles\n"


def cfg(text: str) -> dict:
    return rulelang.compile_text(text, "h.rules")


def codes(text: str) -> list[str]:
    return [e.code for e in rulelang.check_text(text, "h.rules")]


# -- `the tiles are dealt again when a hand holds N or more doubles` ------------------------------

def test_redeal_doubles_compiles_round_trips_and_is_omitted_when_not_written():
    assert cfg(REDEAL)["redeal_doubles"] == 4
    assert "redeal_doubles" not in rulelang.compile_bundled("allfives")
    assert "the tiles are dealt again when a hand holds 4 or more doubles" in format_text(REDEAL)
    assert cfg(format_text(REDEAL)) == cfg(REDEAL)
    assert cfg(REDEAL.replace("4 or more doubles", "5 or more double"))["redeal_doubles"] == 5


def test_redeal_doubles_is_explained_and_diffed():
    assert "one hand holds 4 or more doubles is thrown in" in explain_text(cfg(REDEAL))
    diff = {what: (a, b) for what, a, b in diff_configs(rulelang.compile_bundled("allfives"), cfg(REDEAL))}
    assert "4 or more doubles" in diff["the deal thrown in for a hand of doubles"][1]


def test_redeal_doubles_that_cannot_apply_is_an_error():
    assert codes(REDEAL.replace("4 or more", "1 or more")) == ["bad-number"]
    never = rulelang.check_text(REDEAL.replace("4 or more", "8 or more"), "h.rules")
    assert [e.code for e in never] == ["redeal-doubles-cannot-apply"]
    assert "no hand can hold 8 doubles" in never[0].message and never[0].hint == "write a number from 2 to 7"
    # a hand of 7 tiles of the double-six set can hold 7 doubles; the double-nine set has 10
    assert codes(REDEAL.replace("4 or more", "7 or more")) == []
    # 2 hands of 12 of the 28 tiles hold at least 3 of the 7 doubles: every deal would be thrown in
    always = HEAD + "hand 12 tiles with 2 players, 6 with 3, 5 with 4\n" + REDEAL.removeprefix(HEAD).replace("4 or", "2 or")
    assert codes(always) == ["redeal-doubles-cannot-apply"]
    assert codes(always.replace("2 or more", "3 or more")) == []


def _doubles(hand: list[str]) -> int:
    return sum(1 for t in hand if t[1] == t[3])


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


# -- `opener ...: the lowest double` ----------------------------------------------------------------

LOWEST = HEAD + ("opener of the first round: the lowest double\nopener after a domino: the lowest double\n"
                 "opener after a block: the lowest double\n")


def test_lowest_double_compiles_round_trips_and_is_explained():
    c = cfg(LOWEST)
    assert c["opener"]["first_round"] == c["opener"]["after_domino"] == c["opener"]["after_block"] == "lowest-double"
    assert cfg(format_text(LOWEST)) == c
    assert "opener of the first round: the lowest double" in format_text(LOWEST)
    text = explain_text(c)
    assert "The first round is opened by the holder of the lowest double ([0|0], else [1|1]" in text
    assert "A round opened by the highest or the lowest double must lead that double" in text
    assert "the highest or the lowest" not in explain_text(rulelang.compile_bundled("allfives"))


def test_a_forced_lead_without_a_double_opener_names_the_lowest_double():
    errors = rulelang.check_text(HEAD + "opener of the first round: lottery\nopener after a domino: the dominoer\n"
                                 "opener after a block: lottery\n", "h.rules")
    assert [e.code for e in errors] == ["forced-lead-unused"]
    assert "the rotating double or the lowest double" in errors[0].message


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


# -- `a placement scores only from N points up` ------------------------------------------------------

NO_FIVES = HEAD + "a placement scores only from 10 points up\n"


def test_placement_minimum_compiles_round_trips_and_is_explained():
    assert cfg(NO_FIVES)["scoring"]["minimum"] == 10
    assert "minimum" not in rulelang.compile_bundled("allfives")["scoring"]
    assert cfg(format_text(NO_FIVES)) == cfg(NO_FIVES)
    assert "a placement scores only from 10 points up" in format_text(NO_FIVES)
    assert "scores only when it earns at least 10 points" in explain_text(cfg(NO_FIVES))
    # in shown points where points are shown (muggins: 5 raw to 1 shown), and back
    shown = 'ruleset h "H"\nsource "a test"\nbased on muggins\na placement scores only from 2 points up\n'
    assert cfg(shown)["scoring"]["minimum"] == 10
    assert "a placement scores only from 2 points up" in format_text(shown)
    assert cfg(shown.replace("2 points", "10 raw points")) == cfg(shown)


def test_placement_minimum_that_cannot_apply_is_an_error():
    assert codes(NO_FIVES.replace("10 points", "1 point")) == ["bad-number"]
    errors = rulelang.check_text(NO_FIVES.replace("10 points", "5 points"), "h.rules")
    assert [e.code for e in errors] == ["placement-minimum-cannot-apply"]
    assert "every placement that scores earns at least 5 raw points" in errors[0].message
    assert codes(NO_FIVES + "placements score nothing\n") == ["placement-minimum-cannot-apply"]
    # one point per multiple (fives and threes): a count of 5 or 3 earns 1, so `from 2 points up` applies
    assert codes('ruleset h "H"\nsource "a test"\nbased on fives-and-threes\na placement scores only from 2 points '
                 'up\n') == []


def test_every_count_below_the_least_scores_nothing_in_the_engine_and_the_playground_sheet():
    from rulelang.interpreter.config import Config
    from rulelang.interpreter.rules import rules_of

    plain, nofives = rules_of(Config.from_dict(cfg(HEAD))), rules_of(Config.from_dict(cfg(NO_FIVES)))
    assert plain.points[5] == 5 and nofives.points[5] == 0
    assert all(n == (p if p >= 10 else 0) for p, n in zip(plain.points, nofives.points))


def test_a_deciding_case_id_keeps_the_hyphen_of_a_word_and_spells_a_sign():
    from rulelang.conformance.deciding_search import slug

    assert slug("seat-0") == "seat-0"  # was seatminus-0
    assert (slug(-1), slug([1, 2]), slug("one-half"), slug([])) == ("minus-1", "1-2", "one-half", "empty")


# -- `ties at the top: the side that opened the round wins` ----------------------------------------

TIE = HEAD + "check the target after settlement\nties at the top: the side that opened the round wins\n"


def test_ties_to_the_round_opener_compile_round_trip_are_explained_and_need_a_tie():
    assert cfg(TIE)["target"]["ties"] == "round-opener"
    assert cfg(format_text(TIE)) == cfg(TIE)
    assert "the side that opened the round wins" in explain_text(cfg(TIE))
    # checked after every event the first side to reach the target wins: no tie can arise
    errors = rulelang.check_text(HEAD + "ties at the top: the side that opened the round wins\n", "h.rules")
    assert [e.code for e in errors] == ["ties-contradict-check"]
    rounds = rulelang.compile_text(TIE + "the match lasts 3 rounds\n", "h.rules")
    assert "the side that opened the last round wins" in explain_text(rounds)


def test_a_tie_goes_to_the_first_tied_side_in_turn_from_the_opener():
    from rulelang.interpreter.config import Config
    from rulelang.interpreter.rules import rules_of

    board = rules_of(Config.from_dict(cfg(TIE))).seating(3).board
    assert board.after_settlement([150, 160, 160], False, (0, 1, 2)) == (True, 1, False)
    assert board.after_settlement([150, 160, 160], False, (2, 0, 1)) == (True, 2, False)
    assert board.after_settlement([160, 150, 160], False, (1, 2, 0)) == (True, 2, False)
    drawn = rules_of(Config.from_dict(cfg(TIE.replace("the side that opened the round wins", "draw")))).seating(3).board
    assert drawn.after_settlement([150, 160, 160], False, ()) == (True, None, False)


# -- `only a leading double branches`, `every double but the lead branches` --------------------------

def test_branching_decided_at_the_lead_compiles_round_trips_and_is_explained():
    for line, value, words in (("only a leading double branches", "lead", "Only a double led"),
                               ("every double but the lead branches", "all-but-lead", "a double led to open the "
                                                                                       "round does not branch")):
        text = HEAD + line + "\n"
        assert cfg(text)["doubles"]["branching"] == value
        assert cfg(format_text(text)) == cfg(text) and line in format_text(text)
        assert words in explain_text(cfg(text))


def test_a_sniff_rule_names_the_branching_stated():
    errors = rulelang.check_text(HEAD + "only a leading double branches\nthe spinner is always laid endwise\n",
                                 "h.rules")
    assert [e.code for e in errors] == ["sniff-needs-first-double"]
    assert "here only a leading double branches" in errors[0].message


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


# -- `if nobody holds the opening double: the lead passes to the next seat, who must lead its highest double` ----------------------

NEXT_SEAT_DOUBLE = HEAD + ("opener of the first round: the double six\nopener after a domino: the double six\n"
                           "opener after a block: the double six\n"
                           "if nobody holds the opening double: the lead passes to the next seat, who must lead its highest double\n")


def test_next_seat_double_compiles_round_trips_and_is_explained():
    c = cfg(NEXT_SEAT_DOUBLE)
    assert c["opener"]["no_double"] == "next-seat-double"
    assert cfg(format_text(NEXT_SEAT_DOUBLE)) == c
    assert "must lead its own highest double" in explain_text(c)


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
