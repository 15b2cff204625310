"""The statements of opening a round and of doubles (rulelang/language/statements/play.py): how they are written back,
explained and checked."""
from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner
from ruleset_text import NO_DOUBLE, compiled, one_problem, opening_text, refused

import rulelang
from rulelang.cli import main
from rulelang.language.explain import explain_text
from rulelang.language.formatter import config_to_text, format_text


def _explained(config: dict) -> list[str]:
    return explain_text(config).splitlines()


def test_one_tile_spinner_branches_are_explained():
    config = compiled("allfives", "each branch of the spinner takes one tile\n")
    assert ("- Each branch side of the spinner takes one tile only: that tile's free end counts for the rest of the "
            "round, but nothing may join it.") in _explained(config)


@pytest.mark.parametrize("branching, said", [("every double branches", "every"), ("no double branches", "no")])
def test_a_sniff_rule_says_which_doubles_branch_here(branching, said):
    code, message, _ = one_problem(f"{branching}\nthe spinner counts each uncovered side\n")
    assert code == "sniff-needs-first-double"
    assert message.endswith(f"the only one that branches; here {said} double branches")


def _explained_from(config: dict[str, Any], start: str) -> str:
    [line] = [line for line in explain_text(config).splitlines() if line.startswith("- " + start)]
    return line[2:]


def test_an_opening_placement_that_cannot_win_is_explained():
    config = compiled("allfives", "the opening placement cannot win\n")
    assert _explained_from(config, "The opening placement") == (
        "The opening placement of a round cannot win: its event is discarded if it would reach the target.")


def _sentences(config: dict) -> list[str]:
    """The sentences of `rulelang explain` (without the title, source and headings)."""
    return [line[2:] for line in explain_text(config).splitlines() if line.startswith("- ")]


def test_who_leads_without_the_opening_double_is_explained_even_where_no_round_is_opened_by_a_double():
    # allfives-pagat opens by lottery and by the dominoer: a stated redeal changes nothing, and explain says so
    stated = compiled("allfives-pagat", "if nobody holds the opening double: the tiles are dealt again\n")
    assert "(No round is opened by a double, so nobody holding one changes nothing.)" in _sentences(stated)
    # the default (the heaviest tile) is not explained at all there
    assert not [s for s in _sentences(compiled("allfives-pagat", "")) if "opened by a double" in s]


def test_a_spinner_always_laid_endwise_is_explained_so():
    config = compiled("sniff", "the spinner is always laid endwise\n")
    assert ("- The spinner is always laid endwise: it lies in the line like a non-double and counts its half for "
            "each free in-line side; its branches open after the line.") in _explained(config)


def test_a_missing_opener_after_a_domino_suggests_the_dominoer():
    text = config_to_text({**rulelang.compile_bundled("allfives"), "based_on": None})
    without = "\n".join(line for line in text.splitlines() if not line.startswith("opener after a domino"))
    (e,) = refused(without + "\n")
    assert (e.code, e.message, e.hint) == ("missing-statement", "missing statement: the opener after a domino",
                                           "add a line such as `opener after a domino: the dominoer`")


PUBLISHED_HEAD = 'ruleset h "H"\nsource "a test"\nbased on allfives\n'


def published_cfg(text: str) -> dict:
    return rulelang.compile_text(text, "h.rules")


LOWEST = PUBLISHED_HEAD + ("opener of the first round: the lowest double\nopener after a domino: the lowest double\n"
                 "opener after a block: the lowest double\n")


NEXT_SEAT_DOUBLE = PUBLISHED_HEAD + ("opener of the first round: the double six\nopener after a domino: the double six\n"
                           "opener after a block: the double six\n"
                           "if nobody holds the opening double: the lead passes to the next seat, who must lead its highest double\n")


def test_lowest_double_compiles_round_trips_and_is_explained():
    c = published_cfg(LOWEST)
    assert c["opener"]["first_round"] == c["opener"]["after_domino"] == c["opener"]["after_block"] == "lowest-double"
    assert published_cfg(format_text(LOWEST)) == c
    assert "opener of the first round: the lowest double" in format_text(LOWEST)
    text = explain_text(c)
    assert "The first round is opened by the holder of the lowest double ([0|0], else [1|1]" in text
    assert "A round opened by the highest or the lowest double must lead that double" in text
    assert "the highest or the lowest" not in explain_text(rulelang.compile_bundled("allfives"))


def test_a_forced_lead_without_a_double_opener_names_the_lowest_double():
    errors = rulelang.check_text(PUBLISHED_HEAD + "opener of the first round: lottery\nopener after a domino: the dominoer\n"
                                 "opener after a block: lottery\n", "h.rules")
    assert [e.code for e in errors] == ["forced-lead-unused"]
    assert "the rotating double or the lowest double" in errors[0].message


def test_branching_decided_at_the_lead_compiles_round_trips_and_is_explained():
    for line, value, words in (("only a leading double branches", "lead", "Only a double led"),
                               ("every double but the lead branches", "all-but-lead", "a double led to open the "
                                                                                       "round does not branch")):
        text = PUBLISHED_HEAD + line + "\n"
        assert published_cfg(text)["doubles"]["branching"] == value
        assert published_cfg(format_text(text)) == published_cfg(text) and line in format_text(text)
        assert words in explain_text(published_cfg(text))


def test_a_sniff_rule_names_the_branching_stated():
    errors = rulelang.check_text(PUBLISHED_HEAD + "only a leading double branches\nthe spinner is always laid endwise\n",
                                 "h.rules")
    assert [e.code for e in errors] == ["sniff-needs-first-double"]
    assert "here only a leading double branches" in errors[0].message


def test_next_seat_double_compiles_round_trips_and_is_explained():
    c = published_cfg(NEXT_SEAT_DOUBLE)
    assert c["opener"]["no_double"] == "next-seat-double"
    assert published_cfg(format_text(NEXT_SEAT_DOUBLE)) == c
    assert "must lead its own highest double" in explain_text(c)








@pytest.mark.parametrize("value", sorted(NO_DOUBLE))
def test_no_double_compiles_formats_and_round_trips(value):
    compiled = rulelang.compile_text(opening_text(value), "h.rules")
    if value == "heaviest-tile":
        assert "no_double" not in compiled["opener"]  # the default is omitted: configurations stay as they were
    else:
        assert compiled["opener"]["no_double"] == value
    formatted = format_text(opening_text(value))
    assert rulelang.compile_text(formatted, "h.rules") == compiled
    assert format_text(formatted) == formatted


def test_the_default_leaves_every_bundled_configuration_unchanged():
    for name in rulelang.bundled_names():
        assert "no_double" not in rulelang.compile_bundled(name)["opener"], name


@pytest.mark.parametrize("opener,value", [("the double six", "double-six"), ("the rotating double", "rotating-double")])
def test_set_openers_compile_in_every_opener_statement(opener, value):
    compiled = rulelang.compile_text(opening_text(opener=opener), "h.rules")
    assert [compiled["opener"][k] for k in ("first_round", "after_domino", "after_block")] == [value] * 3
    assert f"opener after a block: {opener}" in format_text(opening_text(opener=opener))


def test_explain_says_who_leads():
    said = explain_text(rulelang.compile_text(opening_text("draw"), "h.rules"))
    assert "If nobody holds the double that opens any round, from seat 0, each player in turn draws" in said
    said = explain_text(rulelang.compile_text(opening_text("next-seat", "the rotating double"), "h.rules"))
    assert "[6|6] in the match's first round, [5|5] in the second" in said
    assert "the seat after the previous round's opener (seat 0 in the match's first round)" in said
    # without a round opened by a double, the statement changes nothing, and explain says so
    said = explain_text(rulelang.compile_text(opening_text("redeal", base="muggins"), "h.rules"))
    assert "No round is opened by a double" in said


def test_a_misspelled_value_is_a_syntax_error_and_the_opener_value_is_checked():
    errors = rulelang.check_text(PUBLISHED_HEAD + "if nobody holds the opening double: the dealer leads\n", "h.rules")
    assert errors and errors[0].layer == "syntax"
    errors = rulelang.check_text(PUBLISHED_HEAD + "opener of the first round: the double seven\n", "h.rules")
    assert errors and errors[0].layer == "syntax"
    # a forced lead is used by the set doubles too (the fallback to the heaviest tile), so it is no error
    ok = 'ruleset h "H"\nsource "a test"\nbased on muggins\nopener of the first round: the double six\n' \
         "opener leads the deciding tile\n"
    assert rulelang.check_text(ok, "h.rules") == []


def test_cli_check_and_explain_take_the_statement(tmp_path):
    runner = CliRunner()
    path = tmp_path / "h.rules"
    path.write_text(opening_text("heaviest-hand", "the double six"), encoding="utf-8")
    res = runner.invoke(main, ["check", str(path)])
    assert res.exit_code == 0 and "ok" in res.output
    res = runner.invoke(main, ["explain", str(path)])
    assert res.exit_code == 0 and "the holder of the heaviest hand leads, any tile" in res.output


AFTER = PUBLISHED_HEAD + "opener after a domino: the seat after the dominoer\nopener leads any tile\n"


def test_the_seat_after_the_dominoer_compiles_round_trips_is_explained_and_only_follows_a_domino():
    assert published_cfg(AFTER)["opener"]["after_domino"] == "after-dominoer"
    assert published_cfg(format_text(AFTER)) == published_cfg(AFTER)
    assert "opened by the seat after the player who dominoed" in explain_text(published_cfg(AFTER))
    for field in ("of the first round", "after a block"):
        errors = rulelang.check_text(PUBLISHED_HEAD + f"opener {field}: the seat after the dominoer\n", "h.rules")
        assert [e.code for e in errors] == ["bad-opener"]


LAST = PUBLISHED_HEAD + "opener after a block: the seat after the last to place\nopener leads any tile\n"


def test_the_seat_after_the_last_to_place_compiles_round_trips_is_explained_and_only_follows_a_block():
    assert published_cfg(LAST)["opener"]["after_block"] == "after-last-placer"
    assert published_cfg(format_text(LAST)) == published_cfg(LAST)
    assert "opened by the seat after the last player to place a tile" in explain_text(published_cfg(LAST))
    for field in ("of the first round", "after a domino"):
        errors = rulelang.check_text(PUBLISHED_HEAD + f"opener {field}: the seat after the last to place\n", "h.rules")
        assert [e.code for e in errors] == ["bad-opener"]


SET_DOUBLE = PUBLISHED_HEAD + ("opener of the first round: lottery\nopener after a domino: the next seat\n"
                               "opener after a block: the next seat\nopener leads any double, drawing until one turns up\n")


def test_a_double_of_the_openers_choice_compiles_round_trips_and_is_explained():
    assert published_cfg(SET_DOUBLE)["opener"]["lead"] == "double"
    assert published_cfg(format_text(SET_DOUBLE)) == published_cfg(SET_DOUBLE)
    words = explain_text(published_cfg(SET_DOUBLE))
    assert "The opener leads a double of its choice; holding none, it draws from the boneyard until it draws one" in words
    assert "may lead any tile" not in words


# Majestic Hotel Harrogate's rules: "The player with the highest number of dots on a domino places the first tile"
HEAVIEST = PUBLISHED_HEAD + ("opener of the first round: the heaviest tile\nopener after a domino: the heaviest tile\n"
                             "opener after a block: the heaviest tile\nopener leads the deciding tile\n")


def test_the_heaviest_tile_compiles_round_trips_and_is_explained():
    c = published_cfg(HEAVIEST)
    assert c["opener"]["first_round"] == c["opener"]["after_domino"] == c["opener"]["after_block"] == "heaviest-tile"
    assert published_cfg(format_text(HEAVIEST)) == c
    assert "opener of the first round: the heaviest tile" in format_text(HEAVIEST)
    text = explain_text(c)
    assert ("The first round is opened by the holder of the heaviest tile (most pips, a double ranked like any other "
            "tile; equal pips: the larger high half, so [6|4] before [5|5])") in text
    assert "A round opened by the heaviest tile must lead that tile; other rounds lead any tile." in text
    assert "highest double" not in text
    anyway = explain_text(published_cfg(HEAVIEST.replace("the deciding tile", "any tile")))
    assert "- The opener may lead any tile." in anyway


def test_a_forced_lead_is_used_by_the_heaviest_tile_and_nobody_holding_a_double_never_applies():
    assert rulelang.check_text(HEAVIEST, "h.rules") == []
    from rulelang.language.compiler import analyse

    warnings = analyse(HEAVIEST + "if nobody holds the opening double: the heaviest hand leads\n", "h.rules").warnings
    assert [w.code for w in warnings] == ["cannot-apply"]
LAST_PLACER = PUBLISHED_HEAD + "opener after a block: the last to place\nopener leads any tile\n"


def test_the_last_to_place_compiles_round_trips_is_explained_and_only_follows_a_block():
    # onlinedomino.nl: "In het geval van een Block mag diegene beginnen die in die ronde de laatste steen speelde"
    assert published_cfg(LAST_PLACER)["opener"]["after_block"] == "last-placer"
    assert published_cfg(format_text(LAST_PLACER)) == published_cfg(LAST_PLACER)
    assert ("After a block, the next round is opened by the player who placed the round's last tile"
            in explain_text(published_cfg(LAST_PLACER)))
    for field in ("of the first round", "after a domino"):
        errors = rulelang.check_text(PUBLISHED_HEAD + f"opener {field}: the last to place\n", "h.rules")
        assert [e.code for e in errors] == ["bad-opener"]
