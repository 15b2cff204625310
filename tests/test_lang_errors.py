"""Error classes: exact messages, codes and positions; the caret by display width. The rendering of every kind of
error is pinned once, by the golden `.err` files of tests/data/rulesets/bad/ (test_lang_examples.py)."""
from __future__ import annotations

import re

import pytest
from ruleset_text import HEAD as BASED_ON_HEAD
from ruleset_text import refused

import rulelang
from rulelang import RulesetCheckError, RulesetError, RulesetErrors, RulesetFileError, RulesetSyntaxError
from rulelang.base.errors import CODES
from rulelang.language.bundled import bundled_text
from rulelang.language.parser import TERMINAL_WORDS, describe_terminal, grammar
from rulelang.language.statements import TABLE

HEAD = 'based on exact61\nruleset house "House rules"\nsource "test"\n'


def test_syntax_error_misspelt_keyword_gives_its_code_position_message_and_hint():
    with pytest.raises(RulesetSyntaxError) as info:
        rulelang.compile_text(HEAD + "players 2 to 4, partnership with 4\n", "house.rules")
    e = info.value
    assert (e.code, e.line, e.column) == ("unexpected-word", 4, 17)
    assert (e.end_column, e.message, e.hint) == (28, 'unexpected word `partnership`', 'did you mean `partnerships`?')
    assert e.errors == [e]


def test_syntax_error_names_the_expected_words():
    with pytest.raises(RulesetSyntaxError) as info:
        rulelang.loads(HEAD + "target at least 61\n", "house.rules")
    e = info.value
    assert (e.code, e.line, e.column) == ("incomplete-statement", 4, 19)
    assert (e.end_column, e.message, e.hint) == (20, 'the statement ends too early', 'expected `points`, `raw` or `shown`')


def test_unexpected_character_gives_its_code_position_message_and_hint():
    with pytest.raises(RulesetSyntaxError) as info:
        rulelang.compile_text(HEAD + "hand 5 tiles!\n", "h.rules")
    e = info.value
    assert (e.code, e.line, e.column) == ("unexpected-character", 4, 13)
    assert (e.end_column, e.message, e.hint) == (14, 'unexpected character `!`', 'expected `with` or the end of the line')


def test_unexpected_token_gives_its_code_position_message_and_hint():
    with pytest.raises(RulesetSyntaxError) as info:
        rulelang.compile_text(HEAD + "hand 5 5\n", "h.rules")
    e = info.value
    assert (e.code, e.line, e.column) == ("unexpected-token", 4, 8)
    assert (e.end_column, e.message, e.hint) == (9, 'unexpected number `5`', 'expected `tiles`')


def test_misspelt_statement_start_suggests_keyword():
    with pytest.raises(RulesetSyntaxError) as info:
        rulelang.compile_text(HEAD + "playrs 2 to 4\n", "h.rules")
    assert info.value.code == "unexpected-word"
    assert info.value.hint == "did you mean `players`?"
    assert (info.value.line, info.value.column, info.value.end_column) == (4, 1, 7)


def test_check_error_gives_its_code_position_message_and_hint():
    with pytest.raises(RulesetCheckError) as info:
        rulelang.compile_text(HEAD + "no overshoot rule\n", "house.rules")
    e = info.value
    assert (e.code, e.line, e.column) == ("exact-needs-overshoot", 4, 1)
    assert (e.end_column, e.message) == (18, "an exact target needs an overshoot rule")
    assert e.hint == "write `overshoot discards the event` or `overshoot bounces back`"


def test_check_error_on_inherited_rule_points_at_the_based_on_line_and_names_the_base_rule():
    text = 'based on allfives\nruleset house "H"\nsource "s"\ncheck the target after settlement\n'
    with pytest.raises(RulesetCheckError) as info:
        rulelang.compile_text(text, "h.rules")
    e = info.value
    assert (e.code, e.filename, e.line, e.column) == ("ties-contradict-check", "h.rules", 1, 1)
    assert e.source_line == "based on allfives"
    assert e.hint is not None and e.hint.startswith("`allfives` states `ties at the top: impossible`; restate it here")
    assert "rulesets/allfives.rules" not in e.hint  # a file inside the installed package, not the author's
    assert e.message == ("when the target is checked after settlement, two sides can tie at the top "
                         "(inherited from `allfives`)")


def test_all_errors_reported_at_once():
    text = HEAD + "hand 5 tils\nopener after a domino the dominoer\nplayers 2 to 4, partnership with 4\n"
    with pytest.raises(RulesetErrors) as info:
        rulelang.compile_text(text, "h.rules")
    e = info.value
    assert isinstance(e, RulesetError)
    assert [(x.code, x.line, x.column) for x in e.errors] == [
        ("unexpected-word", 4, 8), ("unexpected-token", 5, 23), ("unexpected-word", 6, 17)]
    assert (e.code, e.line) == ("unexpected-word", 4)
    assert str(e).count("h.rules:") == 3
    assert rulelang.check_text(text, "h.rules")[1].hint == "expected a colon"


def test_several_check_errors_at_once():
    text = HEAD + "hand 0 tiles\nhand 6 tiles\nopener of the first round: the dominoer\n"
    codes = [(e.code, e.line) for e in rulelang.check_text(text, "h.rules")]
    assert codes == [("bad-number", 4), ("duplicate-statement", 5), ("bad-opener", 6)]


def test_missing_statements_name_them_and_suggest_syntax():
    errors = rulelang.check_text('ruleset x "X"\nsource "s"\nhand 5 tiles\n', "x.rules")
    (only,) = errors  # one error lists everything that is missing
    assert only.code == "missing-statement"
    assert (only.line, only.column) == (1, 1)
    assert only.message.startswith("missing 19 statements: the player counts; ")
    assert only.message.endswith("; the section `on block:`")
    assert only.hint is not None and only.hint.startswith("start from a bundled variant with `based on` and its name")
    assert only.hint.endswith("or `rulelang new`")


def test_one_missing_statement_names_it_and_suggests_its_line():
    text = bundled_text("allfives").replace("no score floor\n", "")
    (only,) = rulelang.check_text(text, "x.rules")
    assert only.code == "missing-statement" and only.message == "missing statement: the score floor"
    assert only.hint == "add a line such as `no score floor`"


def test_a_few_missing_statements_show_a_line_for_each():
    text = bundled_text("allfives").replace("no score floor\n", "").replace("no reserve\n", "")
    (only,) = rulelang.check_text(text, "x.rules")
    assert only.message == "missing 2 statements: the reserve; the score floor"
    assert only.hint is not None and only.hint.endswith("or add a line such as `no reserve`; "
                                                        "a line such as `no score floor`")


def test_empty_text_is_missing_everything():
    errors = rulelang.check_text("", "empty.rules")
    assert len(errors) == 1 and errors[0].code == "missing-statement" and errors[0].line == 1
    head, _, listed = errors[0].message.partition(" statements: ")
    named = listed.split("; ")
    assert head == f"missing {len(named)}" and named[0] == "the ruleset's name and title"
    # every required statement outside a section is named (a section is named once, by its heading)
    assert {info.words for info in TABLE if info.required and not info.section} <= set(named)
    assert str(errors[0]).startswith("empty.rules:1:1: missing ")


def test_file_errors(tmp_path):
    with pytest.raises(RulesetFileError) as info:
        rulelang.compile_file(tmp_path / "nope.rules")
    e = info.value
    assert e.code == "file-not-found" and e.line is None
    assert (e.line, e.column) == (None, None)
    assert str(e) == (f"{tmp_path / 'nope.rules'}: no such file: {tmp_path / 'nope.rules'}\n"
                      f"hint: bundled rulesets: {', '.join(rulelang.bundled_names())}")
    with pytest.raises(RulesetFileError) as info:
        rulelang.compile_file(tmp_path)
    assert info.value.code == "cannot-read"


def test_every_code_is_documented():
    from pathlib import Path

    text = (Path(__file__).parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    for code in CODES:
        assert f"`{code}`" in text, code


def test_every_terminal_has_plain_words():
    for term in grammar().terminals:
        assert not term.name.startswith("__"), term.name
        words = describe_terminal(term.name)
        assert words != "something else" and term.name not in words, term.name
    for name in ("_NL", "$END"):
        assert describe_terminal(name) in TERMINAL_WORDS.values()


RAW_NAME = re.compile(r"\b(__ANON\w*|_NL|\$END|[A-Z][A-Z_]{2,})\b")


@pytest.mark.parametrize("edit", [
    lambda t: t.replace("players", "players players"),
    lambda t: t.replace("hand 5 tiles", "hand five tiles"),
    lambda t: t.replace("the first round:", "the first round"),
    lambda t: t.replace("on domino:", "on domino"),
    lambda t: t.replace('"', "", 1),
    lambda t: t + "on",
    lambda t: t + "target at",
    lambda t: t.replace("rounded to 5", "rounded to"),
    lambda t: t.replace("\n", " ", 3),
    lambda t: t.replace("ruleset exact61", "ruleset Exact61"),
    lambda t: t.replace("ties at the top", "ties at top"),
    lambda t: t.replace("no score floor", "scores never fall below x"),
])
def test_no_message_shows_a_raw_terminal_name(edit):
    text = edit(bundled_text("exact61"))
    errors = rulelang.check_text(text, "e.rules")
    assert errors
    for e in errors:
        assert not RAW_NAME.search(e.message), e.message
        assert not RAW_NAME.search(e.hint or ""), e.hint


def test_codes_have_layers():
    assert {layer for layer, _ in CODES.values()} == {"file", "syntax", "check", "warning"}
    assert RulesetSyntaxError("x", "m").layer == "syntax"
    assert RulesetCheckError("x", "m").layer == "check"


def test_every_statement_example_parses():
    from rulelang.language.ast import STATEMENTS

    for info in STATEMENTS:
        if info.key in ("ruleset", "source", "based_on"):
            continue
        line = f"on {info.section}:\n  {info.example}\n" if info.section else info.example + "\n"
        errors = rulelang.check_text(HEAD + line, "x.rules")
        assert not [e for e in errors if e.layer == "syntax"], (info.key, errors)


def test_statement_errors_and_cross_checks_are_reported_together():
    text = HEAD + "hand 0 tiles\nno overshoot rule\nplayers 1 to 4, partnerships with 4\n"
    errors = rulelang.check_text(text, "h.rules")
    assert [(e.code, e.line) for e in errors] == [
        ("bad-number", 4), ("exact-needs-overshoot", 5), ("player-count", 6)]


def test_no_cascade_from_a_statement_that_has_its_own_error():
    text = HEAD + "players 2 to 13, partnerships with 4\n"  # no per-count or too-many-tiles noise for 13
    assert [e.code for e in rulelang.check_text(text, "h.rules")] == ["player-count"]
    text = HEAD + "0 raw points make 1 shown point\ntarget exactly 7 raw points\n"
    assert [e.code for e in rulelang.check_text(text, "h.rules")] == ["bad-unit"]


def test_per_count_given_twice():
    errors = rulelang.check_text(HEAD + "hand 5 tiles with 2 players, 6 with 2, 5 with 3, 5 with 4\n", "h.rules")
    assert [(e.code, e.message) for e in errors] == [
        ("per-count", "the hand size for 2 players is given twice")]


def test_the_caret_follows_the_display_width_of_wide_characters():
    """A wide character (CJK, a full-width letter) takes two columns of a terminal: the caret is placed by display
    width, not by the count of characters, so that it sits under the word it means."""
    e = RulesetError("unexpected-word", "unexpected word `lest`", filename="club.rules", line=2, column=18,
                     end_column=22,
                     source_line='source "漢字 club" lest')
    assert str(e).splitlines()[1:] == [
        '    2 | source "漢字 club" lest',
        "      | " + " " * 19 + "^^^^",  # 17 characters before the word, two of them wide
    ]


def test_an_error_without_a_statement_points_at_the_first_character():
    (e,) = refused("players 2 to 4\n")
    assert (e.code, e.line, e.column, e.end_column, e.source_line) == ("missing-statement", 1, 1, 2, "players 2 to 4")


def test_an_error_on_a_statement_of_several_lines_underlines_its_first_line():
    errors = refused(BASED_ON_HEAD.format(base="muggins") + "on block:  \n  winner: none\n  one event per hand\n"
                     "on block:\n  winner: none\n")
    first = errors[0]
    assert (first.code, first.line, first.column, first.end_column) == ("duplicate-statement", 7, 1, 10)
    assert first.source_line == "on block:"
    assert first.message == "the section `on block:` is given twice (first on line 4)"


def test_an_error_on_one_line_underlines_that_statement():
    errors = refused(BASED_ON_HEAD.format(base="pagat") + "players 2 to 4, partnerships with 4  \nplayers 3\n")
    assert [(e.code, e.line, e.column, e.end_column) for e in errors][:1] == [("duplicate-statement", 5, 1, 10)]


def test_an_error_on_the_last_line_shows_that_line():
    (e,) = refused(BASED_ON_HEAD.format(base="pagat") + "hand 5 tiles\nhand 6 tiles")
    assert (e.code, e.line, e.source_line) == ("duplicate-statement", 5, "hand 6 tiles")
