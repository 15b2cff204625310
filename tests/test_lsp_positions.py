"""`rulelang lsp`: positions, hover on every line, and requests the server must answer safely (a client session)."""
from __future__ import annotations

import pytest

pytest.importorskip("pygls")

from lsp_session import Session  # noqa: E402
from lsprotocol import types as lsp  # noqa: E402

HEADER = 'ruleset c "C"\nsource "s"\nbased on allfives\n'
TEXT = HEADER + "target at least 100 points\nhand 6 tiles\n"


def test_hover_explains_the_statement_on_its_own_line(session):
    path = session.root / "club.rules"
    assert list(session.open(path, TEXT).diagnostics) == []
    said = session.hover_texts(path, 6, 1)
    assert said[0].startswith("C (`c`)") and said[1].startswith("Source: s")
    assert said[2].startswith("Based on allfives") and "inherits" in said[2]
    assert said[3].startswith("A side wins by reaching at least 100 points")
    assert said[4].startswith("Each player is dealt 6 tiles")
    assert said[5] is None  # the empty line after the last statement


def test_hover_skips_blank_lines_comments_and_covers_each_term_line(session):
    path = session.root / "spaced.rules"
    text = HEADER + "\n# a comment\ntarget at least 100 points  # ours\n\non domino:\n" \
        "  credit opponents' hands separately, rounded to 5, to the winner\n" \
        "  debit everyone's hands separately, rounded to 5, from each owner\n  as one event\n"
    assert list(session.open(path, text).diagnostics) == []
    said = session.hover_texts(path, 12, 1)
    assert said[3] is None and said[4] is None and said[6] is None
    assert said[5].startswith("A side wins by reaching at least 100")
    assert "opponents' remaining pips" in said[8]
    assert said[9] == said[8]  # the second term line is the same statement: the section's terms
    assert said[10].startswith("The amounts form one scoring event")
    assert said[7] == said[8].split("\n\n")[0] + "\n" + said[10].split("\n\n")[0]  # `on domino:`: its statements


def test_hover_works_while_the_text_has_errors(session):
    path = session.root / "broken.rules"
    text = HEADER + "target at least 100 points\nhand 6 tils\nno reserve\n"
    [error] = session.open(path, text).diagnostics
    assert error.code == "unexpected-word"
    said = session.hover_texts(path, 6, 1)
    assert said[3].startswith("A side wins by reaching at least 100 points")
    assert said[4] is None  # the broken line itself
    assert said[5].startswith("Every undealt tile may be drawn")


def test_hover_where_the_parser_gives_up_reads_the_lines_that_parse(session):
    path = session.root / "given-up.rules"
    broken = "hand 6 tils\n" * 21  # more syntax errors than the parser looks for: it gives up on the text
    text = 'ruleset c "C"\nhand 6 tiles\n' + broken + "target at least 100 points\n"
    assert session.open(path, text).diagnostics
    said = session.hover_texts(path, 24, 1)
    assert said[0].startswith("C (`c`)")
    # a hand size is explained per player count, which the text does not state yet: what it states instead
    assert said[1] == "The hand size: `hand 6 tiles`."
    assert said[2:23] == [None] * 21
    assert said[23] == "The target: `target at least 100 points`."


def test_positions_are_utf16_code_units(session):
    path = session.root / "cards.rules"
    text = 'ruleset club "\U0001F0A1\U0001F0A1 club" oops\n'
    [error] = session.open(path, text).diagnostics
    # two characters outside the Basic Multilingual Plane count two UTF-16 units each: 23 code points, 25 units
    assert (error.range.start.line, error.range.start.character) == (0, 25)
    assert error.range.end.character == 29


def test_a_utf32_client_gets_code_points(tmp_path):
    caps = lsp.ClientCapabilities(general=lsp.GeneralClientCapabilities(
        position_encodings=[lsp.PositionEncodingKind.Utf32]))
    s = Session(tmp_path, caps)
    try:
        assert s.init.capabilities.position_encoding == lsp.PositionEncodingKind.Utf32
        [error] = s.open(tmp_path / "cards.rules", 'ruleset club "\U0001F0A1\U0001F0A1 club" oops\n').diagnostics
        assert error.range.start.character == 23
    finally:
        s.close()


def test_hover_on_an_unopened_file_does_not_read_it(session):
    path = session.root / "on-disk.rules"
    path.write_text(TEXT, encoding="utf-8")
    assert session.hover(path, 3, 1) is None
    assert session.complete(path, 3, 0) == []
