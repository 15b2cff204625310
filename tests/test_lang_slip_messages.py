"""Messages for the slips an author makes when writing a ruleset from a published rule text."""
from __future__ import annotations

import pytest

import rulelang

HEAD = 'ruleset t "t"\nsource "s"\n'


@pytest.mark.parametrize("path", ["club.rules", "../house/club.rules", "house/club"])
def test_an_unquoted_path_hints_that_a_path_is_quoted(path):
    (e,) = rulelang.check_text(HEAD + f"based on {path}  # the club's rules\n", "t.rules")
    assert e.code == "unexpected-character"
    assert e.hint == f'a bundled name is one word; a file\'s path is quoted: `based on "{path}"`'


@pytest.mark.parametrize("quote", ["\u201c", "\u201d", "\u2018", "\u00ab"])
def test_curly_quotes_are_named_typographic(quote):
    (e,) = rulelang.check_text(f"ruleset t {quote}t{quote}\nsource \"s\"\nbased on muggins\n", "t.rules")
    assert e.code == "unexpected-character"
    assert e.message == f"unexpected typographic quote `{quote}`"
    assert e.hint is not None and 'straight double quotes `"`' in e.hint


def test_a_stray_character_keeps_its_plain_message():
    (e,) = rulelang.check_text(HEAD + "based on muggins\nhand 5 tiles; x\n", "t.rules")
    assert e.message.startswith("unexpected")
    assert "typographic" not in e.message and "quoted" not in (e.hint or "")


def test_list_shows_every_player_counts_target():
    from click.testing import CliRunner

    from rulelang.cli import main

    result = CliRunner().invoke(main, ["list"])
    assert result.exit_code == 0
    rows = {line.split()[0]: line for line in result.output.splitlines() if line.strip()}
    assert rows["hoyle-muggins"].endswith("at least 40 shown with 2, 30 shown with 3 or 4")
    assert rows["muggins"].endswith("at least 61 shown")


def test_explain_says_nothing_irrelevant():
    from click.testing import CliRunner

    from rulelang.cli import main

    muggins = CliRunner().invoke(main, ["explain", "muggins"]).output
    assert "No double branches" in muggins and "Branches would open" not in muggins
    block = CliRunner().invoke(main, ["explain", "allfives-block"]).output
    assert "Nobody draws" in block and "Every undealt tile may be drawn" not in block
    assert "there is no reserve" in CliRunner().invoke(main, ["explain", "allfives"]).output  # drawing: relevant


def test_diff_still_names_a_rule_that_does_not_apply_on_one_side():
    import copy

    from rulelang.language.explain import diff_configs

    a = rulelang.compile_bundled("muggins")
    b = copy.deepcopy(a)
    b["doubles"]["branch_sides"] = "at-once"
    ((_what, x, y),) = diff_configs(a, b)
    assert x.startswith("(does not apply") and y.startswith("(does not apply")
