"""What an author reads where no other test looks: the sentences `rulelang explain` and `rulelang diff` give for
house rules and settlement terms (the default side of a diff too), the hint of a deal too large for the largest
set, the per-count checks of reserves and targets, division and hand sizes at their boundaries, the folder a base
path is read from when the text has no file, the hint of a child missing several statements, the statement
values a configuration reads back as, and the public values of the language's Python API."""
from __future__ import annotations

import dataclasses

import pytest
from ruleset_text import HEAD, child_errors, compiled, refused

import rulelang
from rulelang.config.rules import config_problems
from rulelang.language.ast import Term
from rulelang.language.compiler import analyse
from rulelang.language.explain import diff_configs, explain_text, term_sentence
from rulelang.language.formatter import config_statements


def _sentences(config: dict) -> list[str]:
    """The sentences of `rulelang explain` (without the title, source and headings)."""
    return [line[2:] for line in explain_text(config).splitlines() if line.startswith("- ")]


def _domino(line: str) -> dict:
    return compiled("allfives", f"on domino:\n  {line}\n  as one event\n")


# -- explain and diff: house rules, and the default side of a diff ---------------------------------------

def test_a_diff_says_what_the_default_of_each_optional_house_rule_means():
    # the side that does not state a rule is explained by its default: crosswise spinner, a lead that can win,
    # no claims
    plain = compiled("allfives", "")
    house = compiled("allfives", "the spinner is always laid endwise\npoints must be claimed; missed points are lost\n"
                                 "the opening placement cannot win\n")
    assert diff_configs(plain, house) == [
        ("how the spinner is laid", "The spinner is laid crosswise, like every double.",
         "The spinner is always laid endwise: it lies in the line like a non-double and counts its half for each "
         "free in-line side; its branches open after the line."),
        ("no winning score on the lead", "The opening placement of a round can win like any other.",
         "The opening placement of a round cannot win: its event is discarded if it would reach the target."),
        ("the muggins rule", "A placement's points are scored without being claimed.",
         "A placement scores only what its player claims with the move (in points): a claim up to the score is "
         "credited (claiming exactly the score credits it all; no claim claims 0); a claim above the score earns "
         "nothing. Points not claimed are lost.")]


def test_forfeited_claims_are_explained():
    config = compiled("allfives", "points must be claimed; missed points are lost\n")
    assert ("A placement scores only what its player claims with the move (in points): a claim up to the score is "
            "credited (claiming exactly the score credits it all; no claim claims 0); a claim above the score earns "
            "nothing. Points not claimed are lost.") in _sentences(config)


def test_who_leads_without_the_opening_double_is_explained_even_where_no_round_is_opened_by_a_double():
    # allfives-pagat opens by lottery and by the dominoer: a stated redeal changes nothing, and explain says so
    stated = compiled("allfives-pagat", "if nobody holds the opening double: the tiles are dealt again\n")
    assert "(No round is opened by a double, so nobody holding one changes nothing.)" in _sentences(stated)
    # the default (the heaviest tile) is not explained at all there
    assert not [s for s in _sentences(compiled("allfives-pagat", "")) if "opened by a double" in s]


def test_extra_rounds_on_a_tie_are_explained_in_the_order_of_the_player_counts():
    # 9 and 10 players: counts past 9 must not sort as text ("10" before "9")
    config = compiled("allfives", "tiles double-twelve\nplayers 9 to 10\nhand 5 tiles\n"
                                  "check the target after settlement\nties at the top: play extra rounds\n"
                                  "a tie at the top plays 2 extra rounds with 9 players, 3 with 10\n")
    assert ("When the highest score is shared where the match would end, a fixed number of extra rounds is played "
            "(2 with 9 players; 3 with 10 players) without checking the target; after them the single highest score "
            "wins, and a highest score still shared plays as many again.") in _sentences(config)


# -- explain: settlement terms -----------------------------------------------------------------------------

def test_the_heaviest_hand_term_is_explained_as_one_hand():
    config = _domino("credit the heaviest opponent's hand only, rounded to 5, to the winner")
    assert ("The heaviest single opponent's hand (rounded to the nearest 5) is credited to the winner's side; the "
            "other hands give nothing.") in _sentences(config)


@pytest.mark.parametrize("line, sentence", [
    ("credit opponents' hands pooled, 1 point per tile, to the winner",
     "Each tile left in the opponents' hands counts 1 point, whatever its pips; the total is credited to the "
     "winner's side."),
    ("credit opponents' hands separately, 2 points per tile, to the winner",
     "Each tile left in the opponents' hands counts 2 points, whatever its pips; each hand's amount is credited to "
     "the winner's side."),
], ids=["one_point_is_singular", "two_points_are_plural"])
def test_a_points_per_tile_term_says_point_or_points(line, sentence):
    assert sentence in _sentences(_domino(line))


def test_hands_may_be_divided_by_2_when_2_divides_their_rounding():
    config = _domino("credit opponents' hands pooled, rounded to 10 and divided by 2, to the winner")
    assert config["settlement"]["domino"]["terms"] == [
        {"kind": "hands", "hands": "opponents", "pooling": "pooled", "rounding": "round10", "divisor": 2,
         "to": "winner", "sign": "credit"}]
    assert ("The opponents' remaining pips, added together and rounded once to the nearest 10 and then divided by 2, "
            "are credited to the winner's side.") in _sentences(config)


POOLED_TO_OWNER = ("pooled-to-owner", 5, 3, "a pooled amount has no single owner",
                   "write `separately` to score each hand for its owner, or `the winner`")


def test_a_pooled_amount_to_each_owner_is_refused_at_its_term():
    assert child_errors("allfives", "on domino:\n  credit opponents' hands pooled, rounded to 5, to each owner\n"
                               "  as one event\n") == [POOLED_TO_OWNER]


def test_a_pooled_amount_to_each_owner_is_refused_beside_another_fault_of_the_same_terms():
    # the terms statement has a fault of its own (a rounding to 1): it is not compiled, yet both are reported
    assert child_errors("allfives", "on domino:\n  credit opponents' hands pooled, rounded to 5, to each owner\n"
                               "  credit opponents' hands separately, rounded to 1, to the winner\n"
                               "  as one event\n") == [
        POOLED_TO_OWNER,
        ("bad-rounding", 6, 3, "hands cannot be rounded to 1",
         "write `rounded to N` with N at least 2 (such as `rounded to 5`) or `not rounded`")]


def test_a_term_built_with_the_defaults_is_rounded_to_5():
    # Term's defaults agree: rounded to 5 (rounding_number 5), as the configuration and explain say it
    term = Term("hands", "opponents", "separately", to="winner")
    assert term.rounds_to == 5
    assert term.to_dict() == {"kind": "hands", "hands": "opponents", "pooling": "separately", "rounding": "round5",
                              "to": "winner", "sign": "credit"}
    assert term_sentence(term) == ("The opponents' remaining pips, each hand rounded separately to the nearest 5, "
                                   "are credited to the winner's side.")


# -- checks at their boundaries ------------------------------------------------------------------------------

def test_a_deal_too_large_for_a_double_twelve_set_offers_no_larger_set():
    # 2 x 50 = 100 of 91: double-twelve is the largest set, so the hint names no other
    assert child_errors("allfives", "tiles double-twelve\nplayers 2\nhand 50 tiles\n") == [(
        "too-many-tiles", 6, 1, "2 hands of 50 tiles need 2 x 50 = 100 tiles, but a double-twelve set has 91",
        "deal at most 45 tiles to each of 2 players (2 x 45 = 90 of 91)")]


def test_a_reserve_per_player_count_must_name_exactly_the_allowed_counts():
    assert child_errors("allfives", "players 2 to 3\nreserve 4 tiles with 2 players, 2 with 3, 1 with 4\n") == [
        ("per-count", 5, 1, "the reserve is given for 4 players, who cannot play", "the ruleset allows 2 or 3 players")]
    assert child_errors("allfives", "reserve 4 tiles with 2 players, 2 with 3\n") == [
        ("per-count", 4, 1, "the reserve for 4 players is not given",
         "add `, N with 4` or give one size for every count")]


def test_a_hand_of_1_tile_is_allowed_and_of_0_tiles_refused():
    assert compiled("allfives", "hand 1 tiles\n")["hand_size"] == {"2": 1, "3": 1, "4": 1}
    assert child_errors("allfives", "hand 0 tiles\n") == [
        ("bad-number", 4, 1, "a hand needs at least 1 tile", "write e.g. `hand 5 tiles`")]


def test_a_target_per_player_count_may_be_1_point_but_not_0():
    config = compiled("allfives", "players 2 to 3\ntarget at least 150 points with 2 players, 1 with 3\n")
    assert config["target"]["raw_by_count"] == {"2": 150, "3": 1}
    assert child_errors("allfives", "players 2 to 3\ntarget at least 150 points with 2 players, 0 with 3\n") == [
        ("bad-number", 5, 1, "the target must be at least 1 point", None)]


def test_a_target_of_0_points_for_the_first_player_count_is_reported_once():
    assert child_errors("allfives", "players 2 to 3\ntarget at least 0 points with 2 players, 150 with 3\n") == [
        ("bad-number", 5, 1, "the target must be at least 1 point", None)]


# -- bases and missing statements -------------------------------------------------------------------------------

def test_a_base_path_of_a_text_without_a_file_is_relative_to_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = analyse(HEAD.format(base='"nope.rules"'), "<stdin>")
    assert [(e.code, e.line, e.message, e.hint) for e in result.errors] == [
        ("unknown-base", 3, "there is no ruleset file `nope.rules`",
         f"the path is relative to this file's folder ({tmp_path})")]


def test_a_child_missing_several_statements_is_told_to_add_them_not_to_start_from_a_variant():
    assert [(e.code, e.line, e.column, e.message, e.hint) for e in refused("based on allfives\n")] == [(
        "missing-statement", 1, 1, "missing 2 statements: the ruleset's name and title; the source of the rules",
        'add a line such as `ruleset my-fives "My Fives"`; a line such as `source "where these rules come from"`')]


# -- the statement values a configuration reads back as; the public API ---------------------------------------

def test_a_stated_house_rule_reads_back_from_the_configuration_as_the_value_its_text_reads():
    text = HEAD.format(base="allfives") + "the opening placement cannot win\n"
    [read] = [st.value for st in rulelang.loads(text).statements if st.key == "lead_cannot_win"]
    assert read is True
    assert dict(config_statements(compiled("allfives", "the opening placement cannot win\n")))["lead_cannot_win"] \
        is True


def test_a_configuration_problem_is_a_frozen_hashable_value():
    config = rulelang.compile_bundled("allfives")
    config["players"]["partnerships"] = [4]  # partnerships of 4, but 4 players are not allowed
    config["players"]["counts"] = [2, 3]
    first = config_problems(config)[0]
    assert first.code == "partnerships-need-4"
    assert len({first, dataclasses.replace(first)}) == 1  # equal problems are one value
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.message = "changed"  # type: ignore[misc]


def test_the_claims_statements_module_exports_its_public_names():
    space: dict[str, object] = {}
    exec("from rulelang.language.statements.claims import *", space)  # noqa: S102 - what a star import of the module gives
    assert {"STATEMENTS", "WORDS"} <= set(space)
