"""The engine's end of a match: the target, ties at the top and extra rounds."""
from __future__ import annotations

import rulelang

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
