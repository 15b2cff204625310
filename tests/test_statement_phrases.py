"""A statement's phrase is written once (rulelang/language/statements/phrase.py): the grammar, `fmt` and the examples follow."""
from __future__ import annotations

import re

import pytest

import rulelang
from rulelang.language.grammar import keyword_terminals
from rulelang.language.statements import INFO, PARTS, TABLE
from rulelang.language.statements.grammar_file import FRAME, GRAMMAR, grammar_text
from rulelang.language.statements.phrase import examples, fill, items, lark, terminal_name

KNOCK = "the next player to place scores {N:1,5} point[s] per knock"


def test_a_phrase_is_its_grammar_its_spelling_and_its_examples():
    assert lark(KNOCK, "_NL") == "THE NEXT PLAYER TO PLACE SCORES NUMBER (POINT | POINTS) PER KNOCK _NL"
    assert fill(KNOCK, 1) == "the next player to place scores 1 point per knock"
    assert fill(KNOCK, 2) == "the next player to place scores 2 points per knock"
    assert examples(KNOCK) == (fill(KNOCK, 1), fill(KNOCK, 5))
    assert lark("no reserve -> no_reserve", "_NL") == "NO RESERVE _NL -> no_reserve"
    assert lark("players {player_counts} (, {partnership})?") == "PLAYERS player_counts (COMMA partnership)?"
    assert lark('"seat 0"') == "SEAT_ZERO"
    with pytest.raises(ValueError, match="cannot read"):
        items("scores {N} point[s] per Knock!")
    assert fill('ruleset {NAME} {TEXT}', "my-fives", "My Fives") == 'ruleset my-fives "My Fives"'
    assert fill("winner: none {partners_tie}", ", partners' ties too") == "winner: none, partners' ties too"
    with pytest.raises(ValueError, match="has a group"):
        fill("players {player_counts} (, {partnership})?", "2 to 4")


def test_a_keyword_terminal_is_named_after_its_word():
    assert (terminal_name("opponent's"), terminal_name("partners'"), terminal_name("seat 0")) == \
        ("OPPONENT_S", "PARTNERS_PL", "SEAT_ZERO")
    for name, word in keyword_terminals().items():
        assert name == terminal_name(word)


def test_no_keyword_terminal_is_named_by_hand():
    """The frame holds values and punctuation only; every keyword comes from a phrase."""
    frame = FRAME.read_text(encoding="utf-8")
    assert not re.search(r'^[A-Z][A-Z_]*: "[a-z]', frame, re.M)
    assert GRAMMAR.read_text(encoding="utf-8") == grammar_text(), "run `python -m rulelang.generate`"


def test_every_grammar_rule_comes_from_a_phrase():
    rules = {r for e in TABLE for r in e.phrases} | {p.rule for p in PARTS}
    defined = set(re.findall(r"^\??([a-z_]+):", GRAMMAR.read_text(encoding="utf-8"), re.M))
    assert defined - rules == {"start", "statement", "settle_line", "domino_section", "block_section"}


@pytest.mark.parametrize(("written", "canonical"), [
    ("the next player to place scores 1 points per knock", "the next player to place scores 1 point per knock"),
    ("the next player to place scores 2 point per knock", "the next player to place scores 2 points per knock"),
    ("the match lasts 1 rounds", "the match lasts 1 round"),
    ("a tie at the top plays 1 extra rounds", "a tie at the top plays 1 extra round"),
    ("draw until playable, at most 1 tiles", "draw until playable, at most 1 tile"),
    ("target at least 1 points", "target at least 1 point"),
    ("target exactly 1 shown points", "target exactly 1 shown point"),
    ("1 raw points to get in", "1 raw point to get in"),
    ("hand 1 tiles", "hand 1 tile"),
    ("hand 1 tile", "hand 1 tile"),
    ("reserve 1 tiles", "reserve 1 tile"),
    ("hand 2 tile", "hand 2 tiles"),
])
def test_singular_and_plural_both_parse_and_fmt_writes_the_numbers_own(written, canonical):
    assert rulelang.format_text(written + "\n") == canonical + "\n"


@pytest.mark.parametrize("settled", ["bonus 1 points to the winner", "credit opponents' hands pooled, 1 points per "
                                     "tile, to the winner"])
def test_a_settlement_line_agrees_with_its_number(settled):
    text = f"on domino:\n  {settled}\n"
    assert rulelang.format_text(text) == text.replace("1 points", "1 point")


def test_a_number_statement_is_spelt_from_its_phrase():
    knock = INFO["knock_bonus"]
    assert knock.fmt(1) == ["the next player to place scores 1 point per knock"]
    assert knock.examples == examples(KNOCK)
    assert knock.phrases == {"knock_stmt": (KNOCK,)} and knock.rules == ("knock_stmt",)
    assert INFO["reserve"].rules == ("reserve_stmt", "no_reserve")


def test_explain_says_one_point_in_the_singular():
    from rulelang.language.explain import explain_text

    config = rulelang.compile_text('ruleset h "H"\nsource "s"\nbased on fives-and-threes\n1 point to get in\n'
                                   "the next player to place scores 1 point per knock\n")
    said = explain_text(config)
    assert "worth less than 1 point (negative" in said and "scores 1 point for each knock" in said
    assert not re.search(r"\b1 points", said)


def test_completion_offers_the_form_the_number_needs():
    from rulelang.lsp.complete import offers

    assert [o.label for o in offers(["hand 1 "], 0, 7)] == ["tile"]
    assert [o.label for o in offers(["hand 5 "], 0, 7)] == ["tiles"]


def test_fmt_keeps_a_misplaced_winner_line_as_written():
    """`winner: the dominoer` under `on block:` is an error of its own; fmt once wrote another rule in its place."""
    text = "on block:\n  winner: the dominoer\n"
    assert rulelang.format_text(text) == text
    assert [e.code for e in rulelang.check_text('based on allfives\nruleset x "X"\nsource "s"\n' + text)] == \
        ["misplaced-line"]
