"""The engine's end of a match: the target, ties at the top and extra rounds."""
from __future__ import annotations

import rulelang
from rulelang.interpreter import Match

PAGAT = 'ruleset h "H"\nsource "a test"\nbased on pagat\n'


TIE3 = "a tie at the top plays 2 extra rounds with 2 players, 3 with 3, 4 with 4\n"


def _tied_match(body: str):
    from rulelang.interpreter.match import Match

    deals = [{"hands": [["[5|5]", "[0|5]"], ["[2|5]", "[1|1]"]], "boneyard": [], "opener": 0, "scores": [300, 310]},
             {"hands": [["[0|0]", "[0|2]"], ["[0|3]", "[6|6]"]], "boneyard": []},
             {"hands": [["[1|2]", "[6|6]", "[5|6]"], ["[2|3]"]], "boneyard": []}]
    m = Match(rulelang.compile_text(PAGAT + body, "h.rules"), 2, deal=deals)
    for move in ("[5|5]", "[2|5] on [5|5] line-a", "[0|5] on [5|5] line-b",  # 310 each: a tie
                 "[0|0]", "[0|3] on [0|0] line-a", "[0|2] on [0|0] line-b"):  # 315 against 300
        m.play(move)
    return m


def test_only_the_last_of_the_fixed_extra_rounds_decides():
    one_at_a_time = _tied_match("")
    assert one_at_a_time.over and one_at_a_time.winner == 0
    fixed = _tied_match(TIE3)
    assert not fixed.over and fixed.scores == [315, 300]
    fixed.play("[1|2]")
    fixed.play("[2|3] on [1|2] high")  # seat 0 pays round5(23) = 25
    assert fixed.over and fixed.winner == 1 and fixed.scores == [290, 300]


PUBLISHED_HEAD = 'ruleset h "H"\nsource "a test"\nbased on allfives\n'


def published_cfg(text: str) -> dict:
    return rulelang.compile_text(text, "h.rules")


TIE = PUBLISHED_HEAD + "check the target after settlement\nties at the top: the side that opened the round wins\n"


def test_a_tie_goes_to_the_first_tied_side_in_turn_from_the_opener():
    from rulelang.interpreter.config import Config
    from rulelang.interpreter.rules import rules_of

    board = rules_of(Config.from_dict(published_cfg(TIE))).seating(3).board
    assert board.after_settlement([150, 160, 160], False, (0, 1, 2)) == (True, 1, False)
    assert board.after_settlement([150, 160, 160], False, (2, 0, 1)) == (True, 2, False)
    assert board.after_settlement([160, 150, 160], False, (1, 2, 0)) == (True, 2, False)
    drawn = rules_of(Config.from_dict(published_cfg(TIE.replace("the side that opened the round wins", "draw")))).seating(3).board
    assert drawn.after_settlement([150, 160, 160], False, ()) == (True, None, False)


STARTED = TIE.replace("the side that opened the round wins", "the side that started the match wins")


def _tied_in_the_second_round(text: str) -> Match:
    """Seat 0 opens round 1 with [1|1] and dominoes on seat 1's [0|0] (nothing scored: 140 all); seat 1 opens
    round 2 with [5|5] (10: 150), seat 0 answers [0|5] (10: 150) and dominoes on seat 1's [0|0]: both sides hold
    150 after the settlement (each round opened by the highest double, as allfives has it)."""
    deals = [{"hands": [["[1|1]"], ["[0|0]"]], "boneyard": [], "opener": 0, "scores": [140, 140]},
             {"hands": [["[0|5]"], ["[5|5]", "[0|0]"]], "boneyard": [], "opener": 1}]
    match = Match(published_cfg(text), 2, deal=deals, record=True)
    for move in ("[1|1]", "[5|5]", "[0|5] on [5|5] line-a"):
        match.play(move)
    return match


def test_a_tie_goes_to_the_side_that_opened_the_first_round_not_the_last():
    started = _tied_in_the_second_round(STARTED)
    assert started.over and started.scores == [150, 150] and started.winner == 0
    assert [r.opener for r in started.round_log] == [0, 1]
    assert _tied_in_the_second_round(TIE).winner == 1  # the round's opener
    assert _tied_in_the_second_round(TIE.replace("the side that opened the round wins", "draw")).winner is None


def test_a_match_to_the_starter_replays_round_by_round_and_whole():
    from rulelang.interpreter.transcript import replay
    from rulelang.tools.transcripts import new_round

    t = _tied_in_the_second_round(STARTED).transcript()
    assert [r["deal"]["first_opener"] for r in t["rounds"]] == [0, 0]
    assert replay(t).winner == 0
    # a round rebuilt alone (`rulelang replay`'s steps) knows who started the match from its deal
    rnd = new_round(replay(t).config, t["rounds"][1]["deal"])
    for turn in t["rounds"][1]["turns"]:
        rnd.play(turn["move"])
    assert rnd.winner == 0
    # other tie rules write no `first_opener`: their transcripts are as before
    assert "first_opener" not in _tied_in_the_second_round(TIE).transcript()["rounds"][1]["deal"]


def test_a_round_s_first_opener_is_the_one_given_else_its_own_opener():
    from rulelang.interpreter import Round
    from rulelang.interpreter.config import Config
    from rulelang.interpreter.tiles import INDEX

    cfg = Config.from_dict(published_cfg(STARTED))
    hands, bone = [["[0|5]"], ["[5|5]", "[0|0]"]], ["[1|2]"]
    as_indices = [[INDEX[(int(t[1]), int(t[3]))] for t in h] for h in hands], [INDEX[(1, 2)]]
    for first, expected in ((None, 1), (0, 0), (1, 1)):  # the highest double, [5|5], opens: seat 1
        by_tiles = Round(cfg, 2, hands, bone, first=first)
        by_indices = Round.from_indices(cfg, 2, *as_indices, None, None, True, None, None, False, first=first)
        assert (by_tiles.opener, by_tiles.first_opener) == (1, expected)
        assert (by_indices.opener, by_indices.first_opener) == (1, expected)
        assert by_indices.deal_dict()["first_opener"] == expected
