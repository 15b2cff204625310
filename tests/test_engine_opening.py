"""The engine opens a round as its rules say: who leads, the deals thrown in, the double that must be led."""
from __future__ import annotations

import random

import pytest
from ruleset_text import NO_DOUBLE, opening_text

import rulelang
from rulelang.interpreter import Config, IllegalMove, Match, Round, play_match, random_player, replay
from rulelang.interpreter.deal import round_double
from rulelang.interpreter.errors import ConfigError
from rulelang.interpreter.tiles import INDEX

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


def test_a_seeded_match_deals_from_its_generator_what_deal_tiles_deals_thrown_in_deals_included():
    from rulelang.interpreter.deal import deal_tiles
    from rulelang.interpreter.tiles import TILES, format_tile

    config = Config.from_dict(cfg(REDEAL))
    thrown = 0
    for seed in range(40):
        first = Match(config, 2, seed=seed, record=True).transcript()["rounds"][0]
        rng = random.Random(seed)
        for deal in [*first.get("thrown_in", []), first["deal"]]:
            hands, bone = deal_tiles(config, 2, rng)
            assert deal["hands"] == [[format_tile(TILES[t]) for t in sorted(h)] for h in hands]
            assert deal["boneyard"] == [format_tile(TILES[t]) for t in bone]
        thrown += len(first.get("thrown_in", []))
    assert thrown


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




NO_DOUBLES_2 = [["[0|1]", "[1|4]"], ["[2|5]", "[0|6]"]]  # two hands without a double




def config(no_double: str | None = None, opener: str | None = None, base: str = "allfives") -> Config:
    return Config.from_dict(rulelang.compile_text(opening_text(no_double, opener, base), "h.rules"))


def first_lead(rnd: Round) -> tuple[int, list[str]]:
    return rnd.seat_to_move, [str(m) for m in rnd.legal_moves()]


FIVE = 'ruleset h "H"\nsource "a test"\nbased on muggins\nplayers 2 to 5\n'


INDEX_TILE = {i: t for t, i in INDEX.items()}


RULE = {"the double six": "double-six", "the rotating double": "rotating-double"}


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


def test_five_players_with_five_tiles_each_fit_a_double_six_set():
    ok = FIVE + "hand 7 tiles with 2 players, 5 with 3, 5 with 4, 5 with 5\n"
    assert rulelang.check_text(ok, "h.rules") == []
    cfg = Config.from_dict(rulelang.compile_text(ok, "h.rules"))
    m = play_match(cfg, 5, seed=7, record=True)
    assert m.over and len(m.scores) == 5
    assert replay(m.transcript()).scores == m.scores
    dealt = Round.deal(cfg, 5, random.Random(1))
    assert dealt.observation(0)["drawable"] == 3  # 28 - 5 x 5


def test_the_engine_refuses_a_configuration_whose_deal_does_not_fit():
    compiled = rulelang.compile_text(FIVE + "hand 5 tiles\n", "h.rules")
    compiled["hand_size"]["5"] = 6
    with pytest.raises(ConfigError, match="5 x 6 = 30 tiles") as e:
        Config.from_dict(compiled)
    assert e.value.code == "too-many-tiles"


@pytest.mark.parametrize("value", sorted(NO_DOUBLE))
@pytest.mark.parametrize("opener", ["the highest double", "the double six", "the rotating double"])
def test_every_opening_leads_a_held_tile_and_draws_from_the_front_of_the_boneyard(value, opener):
    base = opening_text(value, opener) + "hand 3 tiles\nreserve 4 tiles\n"  # small hands: nobody holding it is common
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


def test_a_given_opener_under_the_highest_double_leads_its_own_deciding_tile_as_before():
    hands = [["[5|5]", "[4|6]"], ["[6|6]", "[1|2]"]]
    for value in sorted(NO_DOUBLE):
        assert first_lead(Round(config(value), 2, hands, [], opener=0)) == (0, ["[5|5]"]), value


AFTER = HEAD + "opener after a domino: the seat after the dominoer\nopener leads any tile\n"


def test_the_round_after_a_domino_is_opened_by_the_seat_after_the_dominoer():
    for players in (2, 3):
        seen = 0
        for seed in range(30):
            match = Match(cfg(AFTER), players, seed=seed, record=True)
            while not match.over and len(match.rounds) < 6:
                match.round.run(lambda view, moves: moves[0])
                match.finish_round()
            for before, after in zip(match.round_log, match.round_log[1:] + ([match.round] if not match.over else [])):
                if before.result.kind == "domino":
                    assert after.opener == (before.result.seat + 1) % players
                    seen += 1
        assert seen > 10


LAST = HEAD + "opener after a block: the seat after the last to place\nopener leads any tile\n"


def _after_blocks(text: str, seeds: int):
    """(players, the blocked round, the round after it, the seat that placed last in the blocked one) over seeded
    matches of up to 6 rounds of `text`, 2 to 4 players, every seat playing its first legal move."""
    for players in (2, 3, 4):
        for seed in range(seeds):
            match = Match(cfg(text), players, seed=seed, record=True)
            while not match.over and len(match.rounds) < 6:
                match.round.run(lambda view, moves: moves[0])
                match.finish_round()
            for before, after in zip(match.round_log, match.round_log[1:] + ([match.round] if not match.over else [])):
                if before.result.kind == "blocked":
                    yield players, before, after, [t.seat for t in before.turns if str(t.move) != "draw"][-1]


def test_the_round_after_a_block_is_opened_by_the_seat_after_the_last_to_place():
    seen = 0
    for players, _before, after, placer in _after_blocks(LAST, 60):
        assert after.opener == (placer + 1) % players
        seen += 1
    assert seen > 10


def test_a_replay_says_the_round_after_a_block_was_opened_by_the_seat_after_the_last_to_place():
    from rulelang.tools.opening import opening_lines

    config = Config.from_dict(cfg(LAST))
    for seed in range(100):
        match = Match(cfg(LAST), 3, seed=seed, record=True)
        while not match.over and len(match.rounds) < 4:
            match.round.run(lambda view, moves: moves[0])
            match.finish_round()
        rounds = match.transcript()["rounds"]
        after = [k for k in range(1, len(rounds)) if rounds[k - 1]["result"]["kind"] == "blocked"]
        if after:
            deal = rounds[after[0]]["deal"]
            assert deal["opening"] == "after-last-placer"
            assert opening_lines(config, deal, after[0]) == [f"seat {deal['opener']} opens (the seat after the last to "
                                                             "place)"]
            return
    raise AssertionError("no block in 100 matches")


SET = HEAD + ("opener of the first round: lottery\nopener after a domino: the next seat\nopener after a block: the next "
              "seat\nopener leads any double, drawing until one turns up\n")


def test_the_opener_sets_a_double_of_its_choice_drawing_until_it_holds_one():
    drew = chose = 0
    for players in (2, 3, 4):
        for seed in range(40):
            rnd = Round.deal(cfg(SET), players, random.Random(seed))
            deal = rnd.deal_dict()
            seat, lead = first_lead(rnd)
            dealt = [(a, b) for a, b in (tuple(int(x) for x in t.strip("[]").split("|")) for t in deal["hands"][seat])]
            draws = deal.get("opening_draws", [])
            assert all(s == seat for s, _ in draws)  # only the opener draws
            if any(a == b for a, b in dealt):
                assert not draws
                held = sorted(f"[{a}|{b}]" for a, b in dealt if a == b)
                assert sorted(lead) == held  # any double it holds, and only those
                chose += len(held) > 1
            else:
                drew += 1
                last = draws[-1][1]
                assert all(t[1] != t[3] for _, t in draws[:-1])
                if last[1] == last[3]:
                    assert lead == [last]  # drew until a double turned up, and leads it
                else:  # the boneyard ran out first: any tile
                    assert len(draws) == len(deal["boneyard"]) and len(lead) == len(dealt) + len(draws)
    assert drew > 5 and chose > 5


def test_a_lead_that_is_not_a_double_is_refused_while_the_opener_holds_one():
    rnd = Round(cfg(SET), 2, [["[5|5]", "[1|2]"], ["[3|4]", "[0|6]"]], ["[2|3]"], opener=0)
    with pytest.raises(IllegalMove) as e:
        rnd.play("[1|2]")
    assert e.value.code == "forced-lead"
    rnd = Round(cfg(SET), 2, [["[1|2]", "[4|5]"], ["[3|4]", "[0|6]"]], ["[2|3]", "[6|6]", "[1|1]"], opener=0)
    assert first_lead(rnd) == (0, ["[6|6]"])
    assert rnd.deal_dict()["opening_draws"] == [[0, "[2|3]"], [0, "[6|6]"]]
    assert rnd.hands[0] == [(1, 2), (2, 3), (4, 5), (6, 6)]
    rnd = Round(cfg(SET), 2, [["[1|2]"], ["[3|4]"]], ["[2|3]"], opener=0)  # the boneyard out first: any tile
    assert first_lead(rnd) == (0, ["[1|2]", "[2|3]"])


# Majestic Hotel Harrogate's rules: "The player with the highest number of dots on a domino places the first tile"
HEAVIEST = HEAD + ("opener of the first round: the heaviest tile\nopener after a domino: the heaviest tile\n"
                   "opener after a block: the heaviest tile\n")


def _heaviest(text: str = "opener leads the deciding tile\n") -> Config:
    return Config.from_dict(cfg(HEAVIEST + text))


def test_the_holder_of_the_heaviest_tile_opens_a_double_coming_before_no_heavier_tile():
    # [6|5] (11 pips) before [5|5] (10), which the highest double would put first
    assert first_lead(Round(_heaviest(), 2, [["[5|5]", "[1|2]"], ["[6|5]", "[0|0]"]], [])) == (1, ["[5|6]"])
    assert first_lead(Round(config(), 2, [["[5|5]", "[1|2]"], ["[6|5]", "[0|0]"]], [])) == (0, ["[5|5]"])
    # equal pips: the larger high half ([6|4] before [5|5]); a double heavier than every other tile opens
    assert first_lead(Round(_heaviest(), 2, [["[5|5]", "[1|2]"], ["[6|4]", "[0|0]"]], [])) == (1, ["[4|6]"])
    assert first_lead(Round(_heaviest(), 2, [["[6|6]", "[1|2]"], ["[6|5]", "[0|0]"]], [])) == (0, ["[6|6]"])
    # a larger set: the heaviest of its tiles
    nine = Config.from_dict(cfg(HEAVIEST + "opener leads the deciding tile\ntiles double-nine\n"))
    assert first_lead(Round(nine, 2, [["[9|8]", "[1|2]"], ["[9|9]", "[0|0]"]], [])) == (1, ["[9|9]"])


def test_under_any_tile_the_holder_of_the_heaviest_tile_leads_any_of_its_tiles():
    rnd = Round(_heaviest("opener leads any tile\n"), 2, [["[5|5]", "[1|2]"], ["[6|5]", "[0|0]"]], [])
    assert first_lead(rnd) == (1, ["[0|0]", "[5|6]"])


def test_a_given_opener_under_the_heaviest_tile_leads_its_own_heaviest_tile():
    assert first_lead(Round(_heaviest(), 2, [["[5|5]", "[1|2]"], ["[6|5]", "[0|0]"]], [], opener=0)) == (0, ["[5|5]"])


def test_every_round_of_a_seeded_match_is_opened_by_the_heaviest_tile_held_and_replays():
    from rulelang.interpreter.tiles import tile_index

    def weight(t: str) -> tuple[int, int]:
        a, b = (int(x) for x in t.strip("[]").split("|"))
        return a + b, max(a, b)

    rounds = 0
    for seed in range(12):
        match = Match(_heaviest(), 3, seed=seed, record=True)
        match.run([random_player(seed * 10 + s) for s in range(3)], max_rounds=300)
        for rnd in match.transcript()["rounds"]:
            hands = rnd["deal"]["hands"]
            heaviest = max(((weight(t), t, seat) for seat, h in enumerate(hands) for t in h))
            rounds += 1
            first = rnd["turns"][0]
            assert first["seat"] == heaviest[2] and tile_index(first["move"]) == tile_index(heaviest[1]), (seed, first)
            assert rnd["deal"]["opening"] == "heaviest-tile"
        again = replay(match.transcript())
        assert again.scores == match.scores and again.winner == match.winner
    assert rounds >= 24


def test_a_replay_names_the_heaviest_tile_that_opened_and_a_hidden_hand_keeps_it_hidden():
    from rulelang.tools.opening import opening_lines

    config = _heaviest()
    rnd = Round(config, 2, [["[5|5]", "[1|2]"], ["[6|5]", "[0|0]"]], [], record=True)
    deal = rnd.deal_dict()
    assert deal["opening"] == "heaviest-tile"
    assert opening_lines(config, deal, 0) == ["seat 1 opens: holds the heaviest tile, [5|6]"]
    assert opening_lines(config, deal, 0, reveal=lambda seat: seat == 0) == ["seat 1 opens (the heaviest tile)"]
LAST_PLACER = HEAD + "opener after a block: the last to place\n"


@pytest.mark.parametrize("lead", ["opener leads any tile", "opener leads any double, drawing until one turns up"])
def test_the_round_after_a_block_is_opened_by_the_last_to_place(lead):
    # onlinedomino.nl: "after a block, whoever played the round's last tile leads"
    seen = 0
    for _players, before, after, placer in _after_blocks(LAST_PLACER + lead + "\n", 90):
        assert before.last_placer == placer
        assert after.opener == placer
        if "double" in lead and after.turns:  # the last to place leads a double (drawn if need be)
            assert after.turns[0].seat == placer and after.turns[0].move.tile[0] == after.turns[0].move.tile[1]
        seen += 1
    assert seen > 10
