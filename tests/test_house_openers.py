"""Openers by a double, and more than four players on a double-six set.

- `opener ...: the double six` / `...: the rotating double`: a set opening double, its holder leading it;
- `if nobody holds the opening double: ...`: the heaviest tile (the default), opening draws, the heaviest
  hand, the next seat, or a new deal;
- `players 2 to 5` on a double-six set where the hands fit (players x hand size + reserve <= 28).

Each is also a conformance case (conformance/cases/allfives/openers.json, muggins/openers.json,
muggins/players.json); these tests prove the language side, the engine beyond the cases, transcripts,
seeded matches and the errors.
"""
from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

import rulelang
from rulelang.cli import main
from rulelang.interpreter import Config, IllegalMove, Match, Round, play_match, random_player, replay
from rulelang.interpreter.deal import round_double
from rulelang.interpreter.errors import ConfigError
from rulelang.interpreter.tiles import INDEX
from rulelang.language.explain import explain_text
from rulelang.language.formatter import format_text

HEAD = 'ruleset h "H"\nsource "a test"\nbased on allfives\n'
NO_DOUBLE = {
    "heaviest-tile": "the heaviest tile leads",
    "draw": "each player in turn draws until a double turns up",
    "heaviest-hand": "the heaviest hand leads",
    "next-seat": "the lead passes to the next seat",
    "redeal": "the tiles are dealt again",
}
NO_DOUBLES_2 = [["[0|1]", "[1|4]"], ["[2|5]", "[0|6]"]]  # two hands without a double


def text(no_double: str | None = None, opener: str | None = None, base: str = "allfives") -> str:
    out = HEAD.replace("allfives", base)
    if opener:
        out += "".join(f"opener {when}: {opener}\n" for when in ("of the first round", "after a domino",
                                                                  "after a block"))
    if no_double:
        out += f"if nobody holds the opening double: {NO_DOUBLE[no_double]}\n"
    return out


def config(no_double: str | None = None, opener: str | None = None, base: str = "allfives") -> Config:
    return Config.from_dict(rulelang.compile_text(text(no_double, opener, base), "h.rules"))


def first_lead(rnd: Round) -> tuple[int, list[str]]:
    return rnd.seat_to_move, [str(m) for m in rnd.legal_moves()]


# -- the language ------------------------------------------------------------------------------

@pytest.mark.parametrize("value", sorted(NO_DOUBLE))
def test_no_double_compiles_formats_and_round_trips(value):
    compiled = rulelang.compile_text(text(value), "h.rules")
    if value == "heaviest-tile":
        assert "no_double" not in compiled["opener"]  # the default is omitted: configurations stay as they were
    else:
        assert compiled["opener"]["no_double"] == value
    formatted = format_text(text(value))
    assert rulelang.compile_text(formatted, "h.rules") == compiled
    assert format_text(formatted) == formatted


def test_the_default_leaves_every_bundled_configuration_unchanged():
    for name in rulelang.bundled_names():
        assert "no_double" not in rulelang.compile_bundled(name)["opener"], name


@pytest.mark.parametrize("opener,value", [("the double six", "double-six"), ("the rotating double", "rotating-double")])
def test_set_openers_compile_in_every_opener_statement(opener, value):
    compiled = rulelang.compile_text(text(opener=opener), "h.rules")
    assert [compiled["opener"][k] for k in ("first_round", "after_domino", "after_block")] == [value] * 3
    assert f"opener after a block: {opener}" in format_text(text(opener=opener))


def test_explain_says_who_leads():
    said = explain_text(rulelang.compile_text(text("draw"), "h.rules"))
    assert "If nobody holds the double that opens any round, from seat 0, each player in turn draws" in said
    said = explain_text(rulelang.compile_text(text("next-seat", "the rotating double"), "h.rules"))
    assert "[6|6] in the match's first round, [5|5] in the second" in said
    assert "the seat after the previous round's opener (seat 0 in the match's first round)" in said
    # without a round opened by a double, the statement changes nothing, and explain says so
    said = explain_text(rulelang.compile_text(text("redeal", base="muggins"), "h.rules"))
    assert "No round is opened by a double" in said


def test_a_misspelled_value_is_a_syntax_error_and_the_opener_value_is_checked():
    errors = rulelang.check_text(HEAD + "if nobody holds the opening double: the dealer leads\n", "h.rules")
    assert errors and errors[0].layer == "syntax"
    errors = rulelang.check_text(HEAD + "opener of the first round: the double seven\n", "h.rules")
    assert errors and errors[0].layer == "syntax"
    # a forced lead is used by the set doubles too (the fallback to the heaviest tile), so it is no error
    ok = 'ruleset h "H"\nsource "a test"\nbased on muggins\nopener of the first round: the double six\n' \
         "opener leads the deciding tile\n"
    assert rulelang.check_text(ok, "h.rules") == []


def test_cli_check_and_explain_take_the_statement(tmp_path):
    runner = CliRunner()
    path = tmp_path / "h.rules"
    path.write_text(text("heaviest-hand", "the double six"), encoding="utf-8")
    res = runner.invoke(main, ["check", str(path)])
    assert res.exit_code == 0 and "ok" in res.output
    res = runner.invoke(main, ["explain", str(path)])
    assert res.exit_code == 0 and "the holder of the heaviest hand leads, any tile" in res.output


# -- the engine --------------------------------------------------------------------------------

def test_the_heaviest_tile_stays_the_default():
    rnd = Round(config(), 2, NO_DOUBLES_2, ["[3|3]"])
    assert first_lead(rnd) == (1, ["[2|5]"])  # the heaviest tile (7 pips), which allfives must lead
    assert rnd.opening_draws == [] and "opening_draws" not in rnd.deal_dict()


def test_opening_draws_go_round_from_seat_0_and_stay_in_the_hands():
    rnd = Round(config("draw"), 2, NO_DOUBLES_2, ["[2|3]", "[5|6]", "[4|4]", "[0|0]"])
    assert rnd.opening_draws == [(0, (2, 3)), (1, (5, 6)), (0, (4, 4))]
    assert first_lead(rnd) == (0, ["[4|4]"])  # its drawer leads the double
    assert rnd.deal_dict()["hands"] == [["[0|1]", "[1|4]"], ["[0|6]", "[2|5]"]]  # as dealt
    assert rnd.deal_dict()["opening_draws"] == [[0, "[2|3]"], [1, "[5|6]"], [0, "[4|4]"]]
    assert rnd.observation(0)["drawable"] == 1  # the next draw is the tile after the opening draws, [0|0]
    assert rnd.observation(0)["hand"] == [(0, 1), (1, 4), (2, 3), (4, 4)]  # the drawn tiles stay in the hands
    assert rnd.observation(1)["hand"] == [(0, 6), (2, 5), (5, 6)]


def test_opening_draws_that_run_out_fall_back_to_the_heaviest_tile():
    rnd = Round(config("draw"), 2, NO_DOUBLES_2, ["[2|3]", "[1|2]"])
    assert rnd.opening_draws == [(0, (2, 3)), (1, (1, 2))]
    assert first_lead(rnd) == (1, ["[2|5]"])


def test_the_heaviest_hand_leads_any_tile():
    hands = [["[5|6]", "[0|1]"], ["[4|5]", "[3|4]"], ["[0|2]", "[1|3]"]]
    rnd = Round(config("heaviest-hand"), 3, hands, [])
    assert first_lead(rnd) == (1, ["[3|4]", "[4|5]"])
    # equal hands: the heavier deciding tile
    rnd = Round(config("heaviest-hand"), 2, [["[0|6]", "[1|1]"], ["[2|3]", "[1|2]"]], [])
    assert rnd.seat_to_move == 0  # a double is held: the highest double opens as before


def test_the_lead_passes_to_the_seat_after_the_previous_opener():
    cfg = config("next-seat")
    assert first_lead(Round(cfg, 2, NO_DOUBLES_2, []))[0] == 0  # the match's first round: seat 0
    assert Round(cfg, 3, [["[0|1]"], ["[1|4]"], ["[2|5]"]], [], previous=1).seat_to_move == 2
    assert Round(cfg, 3, [["[0|1]"], ["[1|4]"], ["[2|5]"]], [], previous=2).seat_to_move == 0


def test_a_deal_nobody_holds_a_double_in_is_dealt_again_by_the_match():
    cfg = config("redeal")
    with pytest.raises(ValueError, match="dealt again"):
        Round(cfg, 2, NO_DOUBLES_2, [])
    deals = [{"hands": NO_DOUBLES_2, "boneyard": []},
             {"hands": [["[1|2]", "[3|4]"], ["[5|5]", "[0|6]"]], "boneyard": []}]
    m = Match(cfg, 2, seed=1, record=True, deal=deals)
    assert m.deal_index == 1 and first_lead(m.round) == (1, ["[5|5]"])
    thrown = m.transcript()["rounds"][0]["thrown_in"]
    assert thrown == [{"hands": [["[0|1]", "[1|4]"], ["[0|6]", "[2|5]"]], "boneyard": []}]


def test_seeded_redeals_draw_from_the_same_generator_and_replay():
    cfg = config("redeal", "the double six")
    thrown = 0
    for seed in range(12):
        m = play_match(cfg, 2, seed=seed, record=True)
        again = play_match(cfg, 2, seed=seed, record=True)
        assert again.transcript() == m.transcript()  # deterministic from the seed
        t = m.transcript()
        for r in t["rounds"]:
            thrown += len(r.get("thrown_in", []))
            assert any("[6|6]" in h for h in r["deal"]["hands"])  # every round played has [6|6] dealt
        assert replay(t).scores == m.scores
    assert thrown  # two hands of 7 miss [6|6] half the time


def test_the_double_six_is_led_even_when_any_tile_may_be():
    cfg = config(opener="the double six", base="muggins")  # muggins: opener leads any tile
    rnd = Round(cfg, 2, [["[5|5]", "[4|6]"], ["[6|6]", "[1|2]"]], ["[0|0]"])
    assert first_lead(rnd) == (1, ["[6|6]"])
    with pytest.raises(IllegalMove) as e:
        rnd.play("[1|2]")
    assert e.value.code == "forced-lead"


def test_the_rotating_double_counts_the_rounds_of_the_match():
    cfg = config(opener="the rotating double")
    assert [round_double(cfg, "rotating-double", k) for k in (0, 1, 6, 7)] == [
        INDEX[(6, 6)], INDEX[(5, 5)], INDEX[(0, 0)], INDEX[(6, 6)]]
    deals = [{"hands": [["[6|6]"], ["[5|5]", "[1|2]"]], "boneyard": []},
             {"hands": [["[6|6]", "[1|5]"], ["[5|5]", "[2|3]"]], "boneyard": []}]
    m = Match(cfg, 2, seed=0, record=True, deal=deals)
    m.play("[6|6]")  # round 1: [6|6]; a domino
    assert first_lead(m.round) == (1, ["[5|5]"])  # round 2: [5|5], though seat 0 holds [6|6]
    assert m.round.deal_dict()["round"] == 1


def test_a_given_opener_keeps_the_rule_tile_only_when_it_holds_it():
    cfg = config(opener="the double six", base="muggins")
    hands = [["[5|5]", "[4|6]"], ["[6|6]", "[1|2]"]]
    assert first_lead(Round(cfg, 2, hands, [], opener=1)) == (1, ["[6|6]"])
    assert first_lead(Round(cfg, 2, hands, [], opener=0)) == (0, ["[4|6]", "[5|5]"])


@pytest.mark.parametrize("value", sorted(NO_DOUBLE))
@pytest.mark.parametrize("opener", ["the highest double", "the double six", "the rotating double"])
def test_seeded_matches_play_to_the_end_and_replay(value, opener):
    cfg = config(value, opener)
    for seed in (1, 2):
        m = Match(cfg, 3, seed=seed, record=True)
        m.run([random_player(seed * 10 + s) for s in range(3)], max_rounds=300)
        assert m.over
        again = replay(m.transcript())
        assert again.scores == m.scores and again.winner == m.winner
        for rnd in m.round_log[:3]:
            single = replay(rnd.transcript())  # a round alone replays too (its draws, its double)
            assert single.result.to_dict() == rnd.result.to_dict()


def test_existing_seeded_matches_are_unchanged_by_the_default():
    base = Config.from_dict(rulelang.compile_bundled("allfives"))
    stated = config("heaviest-tile")
    for seed in (3, 4):
        a = play_match(base, 3, seed=seed, record=True).transcript()
        b = play_match(stated, 3, seed=seed, record=True).transcript()
        assert a["rounds"] == b["rounds"]


# -- more players on a double-six set -------------------------------------------------------------

FIVE = 'ruleset h "H"\nsource "a test"\nbased on muggins\nplayers 2 to 5\n'


def test_five_players_with_five_tiles_each_fit_a_double_six_set():
    ok = FIVE + "hand 7 tiles with 2 players, 5 with 3, 5 with 4, 5 with 5\n"
    assert rulelang.check_text(ok, "h.rules") == []
    cfg = Config.from_dict(rulelang.compile_text(ok, "h.rules"))
    m = play_match(cfg, 5, seed=7, record=True)
    assert m.over and len(m.scores) == 5
    assert replay(m.transcript()).scores == m.scores
    dealt = Round.deal(cfg, 5, random.Random(1))
    assert dealt.observation(0)["drawable"] == 3  # 28 - 5 x 5


def test_a_deal_that_does_not_fit_says_the_arithmetic():
    errors = rulelang.check_text(FIVE + "hand 6 tiles\n", "h.rules")
    assert [e.code for e in errors] == ["too-many-tiles"]
    assert errors[0].message == "5 hands of 6 tiles need 5 x 6 = 30 tiles, but a double-six set has 28"
    assert errors[0].hint.startswith("deal at most 5 tiles to each of 5 players (5 x 5 = 25 of 28), "
                                     "or allow at most 4 players with 6 tiles each")
    errors = rulelang.check_text(FIVE + "hand 5 tiles\nreserve 4 tiles\n", "h.rules")
    assert errors[0].message == ("5 hands of 5 tiles and a reserve of 4 need 5 x 5 + 4 = 29 tiles, "
                                 "but a double-six set has 28")
    assert "(5 x 4 + 4 = 24 of 28)" in errors[0].hint


def test_the_engine_refuses_a_configuration_whose_deal_does_not_fit():
    compiled = rulelang.compile_text(FIVE + "hand 5 tiles\n", "h.rules")
    compiled["hand_size"]["5"] = 6
    with pytest.raises(ConfigError, match="5 x 6 = 30 tiles") as e:
        Config.from_dict(compiled)
    assert e.value.code == "too-many-tiles"


@pytest.mark.parametrize("value", sorted(NO_DOUBLE))
@pytest.mark.parametrize("opener", ["the highest double", "the double six", "the rotating double"])
def test_every_opening_leads_a_held_tile_and_draws_from_the_front_of_the_boneyard(value, opener):
    base = text(value, opener) + "hand 3 tiles\nreserve 4 tiles\n"  # small hands: nobody holding it is common
    cfg = Config.from_dict(rulelang.compile_text(base, "h.rules"))
    rng = random.Random(5)
    for _ in range(60):
        n = rng.choice([2, 3, 4])
        tiles = list(range(28))
        rng.shuffle(tiles)
        hands = [tiles[k * 3:(k + 1) * 3] for k in range(n)]
        bone = tiles[n * 3:]
        if value == "redeal":
            match = Match(cfg, n, seed=rng.randrange(99), deal=[{"hands": [[INDEX_TILE[t] for t in h] for h in hands],
                                                                 "boneyard": [INDEX_TILE[t] for t in bone]}])
            rnd = match.round
        else:
            rnd = Round.from_indices(cfg, n, hands, bone, None, None, True, None, None, False,
                                     rng.randrange(7), rng.choice([None, 0, 1]))
        drawn = [t for _, t in rnd.opening_draws]
        if value != "redeal":
            assert drawn == [INDEX_TILE[t] for t in bone[:len(drawn)]]  # from the front, in turn
            assert len(drawn) <= len(bone) - 4  # never from the reserve
        seat, lead = first_lead(rnd)
        hand = [f"[{a}|{b}]" for a, b in rnd.observation(seat)["hand"]]
        assert lead and all(move in hand for move in lead)  # the opener leads tiles it holds
        if opener != "the highest double" and any(round_double(cfg, RULE[opener], rnd.deal_dict().get(
                "round", 0)) == INDEX[(a, b)] for a, b in rnd.observation(seat)["hand"]):
            assert len(lead) == 1  # the set double, when its holder leads, is led alone


INDEX_TILE = {i: t for t, i in INDEX.items()}
RULE = {"the double six": "double-six", "the rotating double": "rotating-double"}


def test_a_given_opener_under_the_highest_double_leads_its_own_deciding_tile_as_before():
    hands = [["[5|5]", "[4|6]"], ["[6|6]", "[1|2]"]]
    for value in sorted(NO_DOUBLE):
        assert first_lead(Round(config(value), 2, hands, [], opener=0)) == (0, ["[5|5]"]), value
