"""The house rules of family.md sections 3 and 4: language, checks and engine.

Each rule is also a conformance case (conformance/cases/muggins/house-statements.json); these
tests prove the language side (parse, fmt, explain, diff, checks) and the engine's behaviour
beyond the cases.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import rulelang
from rulelang.interpreter import Round
from rulelang.interpreter.config import ConfigError, as_config
from rulelang.interpreter.match import play_match
from rulelang.language.explain import diff_configs, explain_text
from rulelang.language.formatter import format_text

HEAD = 'ruleset h "H"\nsource "a test"\nbased on muggins\n'


def compiled(body: str) -> dict:
    return rulelang.compile_text(HEAD + body, "h.rules")


def codes(body: str) -> list[str]:
    return [e.code for e in rulelang.check_text(HEAD + body, "h.rules")]


# -- 1. on domino: winner: the lightest side (family.md 3.9) ------------------------------------

TEAM_SIDE = "players 2 to 4, partnerships with 4\non domino:\n  winner: the lightest side\n"


def test_domino_lightest_side_compiles_and_is_omitted_at_its_default():
    assert compiled(TEAM_SIDE)["settlement"]["domino"]["winner"] == "lightest-side"
    assert "winner" not in compiled("on domino:\n  winner: the dominoer\n")["settlement"]["domino"]
    assert "winner" not in rulelang.compile_bundled("muggins")["settlement"]["domino"]
    text = format_text(HEAD + "on domino:\n    winner:   the lightest side\n")
    assert "on domino:\n  winner: the lightest side\n" in text


def test_domino_lightest_side_explain_and_diff():
    cfg = compiled(TEAM_SIDE)
    assert "lower pip total wins" in explain_text(cfg)
    changes = diff_configs(rulelang.compile_bundled("muggins"), cfg)
    assert any(words == "the winner of a domino" for words, *_ in changes), changes


def test_other_winner_lines_under_domino_are_misplaced_and_the_dominoer_under_block_too():
    assert codes("on domino:\n  winner: the lightest hand, ties not broken\n") == ["misplaced-line"]
    assert codes("on block:\n  winner: the dominoer\n") == ["misplaced-line"]


def test_the_last_placement_cannot_join_a_settlement_another_side_may_win():
    errors = rulelang.check_text('ruleset h "H"\nsource "s"\nbased on exact61\non domino:\n'
                                 "  winner: the lightest side\n", "h.rules")
    assert [e.code for e in errors] == ["last-placement-needs-dominoer"]
    bad = rulelang.compile_bundled("exact61")
    bad["settlement"]["domino"]["winner"] = "lightest-side"
    with pytest.raises(ConfigError):  # the engine refuses it as the language does (schema)
        as_config(bad)


def _team_round(body: str = TEAM_SIDE) -> Round:
    return Round(compiled(body), 4, [[(1, 3), (3, 6)], [(2, 2)], [(6, 6)], [(0, 0)]], [], 0)


def test_team_totals_decide_a_domino_the_openspiel_example():
    rnd = _team_round()
    rnd.play("[1|3]")
    rnd.play("[3|6] on [1|3] high")
    # team 0+2 holds 0 + 12, team 1+3 holds 4 + 0: team 1+3 wins, seat 1 first clockwise from the dominoer
    assert [(e.side, e.kind, e.raw, e.seat) for e in rnd.events] == [(1, "domino", 10, 1)]
    assert (rnd.result.kind, rnd.result.seat, rnd.result.side) == ("domino", 0, 0)  # the round names the dominoer
    # the default: the dominoer's side collects 4 + 0 -> round5(4) = 5
    plain = _team_round("players 2 to 4, partnerships with 4\n")
    plain.play("[1|3]")
    plain.play("[3|6] on [1|3] high")
    assert [(e.side, e.raw, e.seat) for e in plain.events] == [(0, 5, 0)]


def test_the_dominoers_side_wins_when_lighter_and_the_winner_is_the_dominoer():
    rnd = Round(compiled(TEAM_SIDE), 4, [[(1, 3), (3, 6)], [(2, 2)], [(0, 1), (5, 5)], [(4, 4)]], [], 0)
    rnd.play("[1|3]")
    assert rnd.seat_to_move == 2  # [0|1] fits the 1 end
    rnd.play("[0|1] on [1|3] low")
    rnd.play("[3|6] on [1|3] high")
    # team 0+2 holds 0 + 10, team 1+3 holds 4 + 8 = 12: the dominoer wins, round5(4) + round5(8) = 5 + 10
    assert [(e.side, e.raw, e.seat) for e in rnd.events] == [(0, 15, 0)]


def test_equal_hands_after_a_domino_name_no_winner_and_pay_no_bonus():
    body = "on domino:\n  winner: the lightest side\n  bonus 5 points to the winner\n"
    rnd = Round(compiled(body), 2, [[(1, 3), (3, 6)], [(0, 0)]], [], 0)
    rnd.play("[1|3]")
    rnd.play("[3|6] on [1|3] high")
    assert rnd.events == [] and rnd.scores == [0, 0] and rnd.result.kind == "domino"
    plain = Round(compiled("on domino:\n  bonus 5 points to the winner\n"), 2, [[(1, 3), (3, 6)], [(0, 0)]], [], 0)
    plain.play("[1|3]")
    plain.play("[3|6] on [1|3] high")
    assert [(e.side, e.raw) for e in plain.events] == [(0, 5)]


def test_a_whole_match_with_the_domino_lightest_side_plays_to_the_end():
    cfg = compiled(TEAM_SIDE)
    for seed in range(5):
        assert play_match(cfg, 4, seed).over


# -- 2. rules outside the language -----------------------------------------------------------------

def first_error(line: str):
    errors = rulelang.check_text(HEAD + line + "\n", "h.rules")
    assert errors, line
    return errors[0]


# Every rule of family.md has a statement (drawing while able to place and the heaviest hand only
# were the last), so KNOWN is empty; the mechanism is proved with a rule of our own making.
_MADE_UP = ("the boneyard is shuffled ... again", "reshuffling the boneyard", "nowhere (a test)", "draw until playable")


@pytest.fixture
def made_up_known(monkeypatch):
    from rulelang.language import outside

    known = outside._k((_MADE_UP[0],), *_MADE_UP[1:])
    monkeypatch.setattr(outside, "KNOWN", (known,))
    return known


def test_a_known_rule_of_the_family_is_outside_the_language(made_up_known):
    line = "  the boneyard is shuffled once again"
    e = first_error(line)
    assert e.code == "outside-language" and "outside the language" in e.message and _MADE_UP[1] in e.message
    assert "nowhere (a test)" in e.hint and "the closest statement is `" in e.hint and "rulelang help language" in e.hint
    assert e.column == 3  # the whole line


def test_the_rules_that_were_outside_now_parse():
    from rulelang.language.outside import KNOWN

    # no rule of family.md is left outside: the known rules are misplays, play on the clock and the rules of
    # published texts the language does not state yet (tests/test_outside_words.py)
    assert not any(k.search("a player may draw while able to place") for k in KNOWN)
    assert compiled("a player may draw while able to place\n")["draw_while_able"] is True
    assert compiled("on block:\n  credit the heaviest opponent's hand only, rounded to 5, to the winner\n")[
        "settlement"]["block"]["terms"] == [{"kind": "heaviest", "rounding": "round5", "to": "winner", "sign": "credit"}]


def test_every_known_rule_names_a_closest_statement_that_parses_and_is_documented(made_up_known):
    from rulelang.language.outside import KNOWN, where
    from rulelang.language.parser import parse

    docs = (Path(__file__).parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^#+ (.*)$", docs, re.M))
    for known in KNOWN:
        section = "on block:\n  " if known.closest.startswith(("winner", "credit")) else ""
        ruleset, errors = parse(HEAD + section + known.closest + "\n", "h.rules")
        assert not errors and ruleset is not None, known.closest
        assert not known.search(known.closest), known.closest  # the closest is not itself outside
        assert where(known.closest) in headings, where(known.closest)


def test_every_statement_points_at_a_heading_of_the_language_page():
    from rulelang.language.outside import where
    from rulelang.language.statements import TABLE

    docs = (Path(__file__).parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^#+ (.*)$", docs, re.M))
    for entry in TABLE:
        for example in entry.examples:
            assert where(example) in headings, (entry.key, example)


@pytest.mark.parametrize("line, code, closest", [
    ("hand 5 tiles each", "unexpected-token", "hand 5 tiles"),
    ("players 2 to 4, partnerships with 4 across the table", "unexpected-word", "players 2 to 4, partnerships with 4"),
    ("target at least 61 shown points, checked at the end of a round", "unexpected-token",
     "target at least 61 shown points"),
    ("opener after a domino: the winner", "unexpected-token", "opener after a domino: the dominoer"),
    ("on block:\n  winner: the lightest hand, ties broken by the lightest single tile", "unexpected-token",
     "winner: the lightest hand, ties broken by lightest tile"),
])
def test_a_line_that_goes_on_past_a_statement_names_the_closest(line, code, closest):
    e = first_error(line)
    assert e.code == code
    assert "the statement is complete before it" in e.message or "no statement of the language" in e.message
    assert f"the closest statement is `{closest}`" in e.hint and "expected the end of the line" not in e.hint


@pytest.mark.parametrize("line, hint", [
    ("players 2 to 4, partnership with 4", "did you mean `partnerships`?"),
    ("hand five tiles", "expected a number"),
    ("opener after a domino the dominoer", "expected a colon"),
])
def test_slips_of_the_pen_keep_their_plain_hints(line, hint):
    e = first_error(line)
    assert e.hint == hint and "outside" not in e.message


# -- 3. the knock bonus (family.md 3.8, Sadman) ----------------------------------------------------

F3 = 'ruleset h "H"\nsource "a test"\nbased on fives-and-threes\n'
KNOCK = "the next player to place scores 1 point per knock\n"


def test_knock_bonus_compiles_round_trips_and_is_omitted_when_not_written():
    cfg = rulelang.compile_text(F3 + KNOCK, "h.rules")
    assert cfg["scoring"]["knock_bonus"] == 1
    assert "knock_bonus" not in rulelang.compile_bundled("fives-and-threes")["scoring"]
    assert "the next player to place scores 1 point per knock" in format_text(F3 + "the next  player to place "
                                                                                   "scores 1 point per knock\n")
    assert "for each knock" in explain_text(cfg)
    assert [e.code for e in rulelang.check_text(F3 + "the next player to place scores 0 points per knock\n",
                                                "h.rules")] == ["bad-number"]
    # muggins shows raw points in fives: a knock of 1 raw point is not a whole shown point
    assert codes("the next player to place scores 1 point per knock\n") == ["unit-mismatch"]
    assert compiled("the next player to place scores 5 points per knock\n")["scoring"]["knock_bonus"] == 5


def _knock_round(body: str, scores=None) -> Round:
    cfg = rulelang.compile_text(F3 + body, "h.rules")
    return Round(cfg, 3, [[(1, 3), (3, 4), (4, 6)], [(0, 0)], [(5, 5)]], [], 0, scores=scores)


def test_each_knock_since_the_last_placement_scores_for_the_next_placer():
    rnd = _knock_round(KNOCK)
    rnd.play("[1|3]")
    turn = rnd.play("[3|4] on [1|3] high")  # 5: 1 point, and 2 knocks: 2
    assert turn.points == 1 and [(e.kind, e.raw) for e in turn.events] == [("placement", 3)]
    plain = _knock_round("")
    plain.play("[1|3]")
    assert [(e.kind, e.raw) for e in plain.play("[3|4] on [1|3] high").events] == [("placement", 1)]


def test_the_knock_bonus_and_the_placement_are_one_event_under_an_exact_target():
    rnd = _knock_round(KNOCK, scores=[59, 0, 0])  # 59 + 1 + 2 = 62 passes 61: discarded whole
    rnd.play("[1|3]")
    turn = rnd.play("[3|4] on [1|3] high")
    assert [(e.raw, e.accepted, e.score_after) for e in turn.events] == [(3, False, 59)]


# -- 4. an unrounded block by differences (family.md 3.8, puzzle-place.net Muggins) ------------------

DIFF = "credit each hand the differences to heavier opponents' hands, not rounded\n  one event per hand\n"


def test_unrounded_differences_are_stated_with_raw_points_and_refused_with_fives():
    cfg = compiled("points are shown raw\ntarget at least 100 points\non block:\n  " + DIFF)
    assert cfg["settlement"]["block"]["terms"] == [
        {"kind": "differences", "rounding": "none", "to": "owner", "sign": "credit"}]
    assert "not rounded" in explain_text(cfg)
    assert codes("on block:\n  " + DIFF) == ["unit-mismatch"]  # muggins shows fives: say `rounded to 5`
    rnd = Round(cfg, 3, [[(1, 2), (6, 6)], [(4, 4), (3, 5)], [(5, 6)]], [], 0)
    rnd.play("[1|2]")
    assert rnd.result.kind == "blocked"
    assert [(e.side, e.raw) for e in rnd.events] == [(2, 6), (0, 4)]  # 1 + 5 and 4, not 5 and 5


# -- 5. one half of a double left in hand (family.md reading 20) ------------------------------------

HALF = "a double left in hand counts one half\n"


def test_hand_doubles_compiles_and_is_omitted_at_its_default():
    assert compiled(HALF)["scoring"]["hand_doubles"] == "one-half"
    assert "hand_doubles" not in compiled("a double left in hand counts both halves\n")["scoring"]
    assert "[4|4] counts 4" in explain_text(compiled(HALF))
    # once stated by the language, the phrase is no longer reported as outside it
    assert first_error("a double left in hand counts one halve").code != "outside-language"


def test_one_half_changes_the_amounts_and_who_is_lightest():
    rnd = Round(compiled(HALF), 2, [[(1, 3), (3, 6)], [(4, 4), (0, 2)]], [], 0)
    rnd.play("[1|3]")
    rnd.play("[3|6] on [1|3] high")
    assert [(e.side, e.raw) for e in rnd.events] == [(0, 5)]  # 4 + 2 = 6 -> 5 (both halves: 10)
    assert rnd.result.to_dict()["hand_pips"] == [0, 10]  # the result still shows the pips
    # a block: [4|4] (counts 4) against [2|3] (5): the double's holder is lightest only with one half
    for body, winner in (("", 1), (HALF, 0)):
        blocked = Round(compiled(body), 2, [[(0, 1), (4, 4)], [(2, 3)]], [], 0)
        blocked.play("[0|1]")  # nobody holds a 0 or a 1 and the boneyard is empty: blocked
        assert blocked.result.kind == "blocked" and blocked.result.seat == winner, body


# -- 6. a fixed number of extra rounds on a tie (family.md reading 18, dominorules) --------------------

PAGAT = 'ruleset h "H"\nsource "a test"\nbased on pagat\n'
TIE3 = "a tie at the top plays 2 extra rounds with 2 players, 3 with 3, 4 with 4\n"


def test_tie_rounds_compile_per_count_and_need_extra_rounds():
    cfg = rulelang.compile_text(PAGAT + TIE3, "h.rules")
    assert cfg["target"]["tie_rounds"] == {"2": 2, "3": 3, "4": 4}
    same = rulelang.compile_text(PAGAT + "a tie at the top plays 3 extra rounds\n", "h.rules")
    assert same["target"]["tie_rounds"] == {"2": 3, "3": 3, "4": 3}
    assert "a tie at the top plays 3 extra rounds" in format_text(PAGAT + "a tie at the top  plays 3 extra rounds\n")
    assert "fixed number of extra rounds" in explain_text(cfg)
    assert "tie_rounds" not in rulelang.compile_bundled("pagat")["target"]
    errors = rulelang.check_text(PAGAT + "a tie at the top plays 2 extra rounds with 2 players, 3 with 3\n", "h.rules")
    assert [e.code for e in errors] == ["per-count"]
    assert codes("a tie at the top plays 2 extra rounds\n") == ["tie-rounds-need-extra-rounds"]  # muggins: impossible


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


# -- 8. a block's tie broken by the lightest single tile (family.md reading 21, brogames) -----------

def test_lightest_tile_breaks_a_tie_of_lightest_hands():
    line = "on block:\n  winner: the lightest hand, ties broken by lightest tile\n"
    cfg = compiled(line)
    assert (cfg["settlement"]["block"]["winner"], cfg["settlement"]["block"]["tie_break"]) == (
        "lightest-hand", "lightest-tile")
    assert "lightest single tile" in explain_text(cfg)
    hands = [[(6, 6), (0, 4), (1, 1)], [(0, 1), (2, 3)]]  # 6 each; lightest tiles [1|1] (2) and [0|1] (1)
    for body, winner in (("", None), (line, 1)):
        rnd = Round(compiled(body), 2, hands, [], 0)
        rnd.play("[6|6]")
        assert rnd.result.kind == "blocked" and rnd.result.seat == winner, body
    # still tied on the lightest tile ([0|3] and [1|2] both count 3): no winner
    rnd = Round(cfg, 2, [[(6, 6), (0, 3), (2, 5)], [(1, 2), (3, 4)]], [], 0)
    rnd.play("[6|6]")
    assert rnd.result.kind == "blocked" and rnd.result.seat is None
