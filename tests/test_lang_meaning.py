"""A line that does not parse is matched to the statement it means, and a real word is never "corrected"
into a keyword of another meaning (the traps authors met writing published rule texts)."""
from __future__ import annotations

import pytest

import rulelang
from rulelang.base.errors import RulesetSyntaxError
from rulelang.language.meaning import closest_example, is_slip, said

HEAD = 'ruleset h "H"\nsource "a test"\nbased on muggins\n'


def _error(line: str) -> RulesetSyntaxError:
    [e] = rulelang.check_text(HEAD + line + "\n", "h.rules")
    assert isinstance(e, RulesetSyntaxError)
    return e


@pytest.mark.parametrize("line, meant", [
    ("the last 2 tiles are never drawn", "reserve 2 tiles"),
    ("opener after a block: the player to the left", "opener after a block: the next seat"),
    ("draw until playable, even when able to place", "a player may draw while able to place"),
    ("opener after a domino: the winner", "opener after a domino: the dominoer"),
    ("hand 5 tiles each", "hand 5 tiles"),
])
def test_the_closest_statement_is_the_one_that_says_the_same(line, meant):
    e = _error(line)
    assert f"the closest statement is `{meant}`" in e.hint, e.hint


def test_the_player_to_the_left_is_the_next_seat():
    assert closest_example("the player to the left leads next").endswith("the next seat")


def test_a_real_word_is_not_taken_for_a_misspelt_keyword_of_another_meaning():
    e = _error("opener of the first round: the heaviest double")
    assert "did you mean" not in e.hint  # `heaviest` is not a misspelt `highest`
    assert "the closest statement is `opener of the first round: the heaviest tile`" in e.hint
    assert "did you mean" not in _error("play passes to the left").hint  # `play` is not a misspelt `players`


@pytest.mark.parametrize("line, hint", [
    ("tils double-six", "did you mean `tiles`?"),
    ("players 2 to 4, partnership with 4", "did you mean `partnerships`?"),
    ("no score floors", "did you mean `floor`?"),
    ("a player may draw while abel to place", "did you mean `able`?"),
])
def test_slips_of_the_pen_are_still_corrected(line, hint):
    assert _error(line).hint == hint


def test_a_suggestion_never_reverses_a_word_of_the_line():
    assert not is_slip("lowest", "highest") and not is_slip("lightest", "heaviest")
    assert "highest" not in closest_example("the lowest double leads")
    assert is_slip("tils", "tiles") and is_slip("partnership", "partnerships")


def test_rule_texts_words_are_put_in_the_languages_words():
    assert {"next", "seat"} <= said("the player to the left")
    assert {"reserve", "draw"} <= said("the last two tiles are never drawn")
    assert "the" not in said("the bones") and "tile" in said("the bones")
