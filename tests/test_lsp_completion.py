"""`rulelang lsp` completion: what the grammar accepts after the words already on the line."""
from __future__ import annotations

import pytest

pytest.importorskip("pygls")

from lsp_session import Session  # noqa: E402

LINES = [  # the cursor goes at the end of a line (trailing spaces are the point)
    'ruleset club "Club"',
    'source "ours"',
    "based on al",
    "",
    "hand 5 ",
    "opener o",
    "tiles ",
    "no reserve ",
    "on domino:",
    "  ",
    "  credit ",
    'based on "',
    "based on ",
    "",
]
TEXT = "\n".join(LINES)


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    root = tmp_path_factory.mktemp("lsp")
    s = Session(root)
    s.path = root / "club.rules"
    for name in ("base.rules", "club.rules", "other.rules", "notes.txt"):
        (root / name).write_text("", encoding="utf-8")
    s.open(s.path, TEXT)
    yield s
    s.close()


def _labels(session, row, column=None):
    line = TEXT.split("\n")[row]
    return [item.label for item in session.complete(session.path, row, len(line) if column is None else column)]


def test_a_line_start_offers_whole_statements(session):
    labels = _labels(session, 3)
    assert "hand 5 tiles" in labels and "no reserve" in labels and "based on allfives" in labels
    assert "credit" not in labels and "as one event" not in labels  # settlement lines belong in a section


def test_after_words_the_grammar_says_what_may_follow(session):
    assert _labels(session, 4) == ["tiles"]
    assert _labels(session, 7) == []  # a complete statement: only the end of the line may follow
    # the words a settlement term may take after `credit` (a new term may add one: no exact list), never a
    # statement's start
    credit = _labels(session, 10)
    assert {"each", "everyone's", "opponents'", "own", "partner's", "the"} <= set(credit)
    assert credit == sorted(set(credit)) and not {"credit", "hand", "bonus", "tiles"} & set(credit)


def test_the_word_being_typed_is_replaced(session):
    items = session.complete(session.path, 5, 8)
    # the words after `opener` (a new opener statement may add one), never a statement's start
    assert {"after", "leads", "of"} <= {item.label for item in items} and "hand" not in {i.label for i in items}
    edit = items[0].text_edit
    assert (edit.range.start.line, edit.range.start.character, edit.range.end.character) == (5, 7, 8)


def test_bundled_names_after_based_on(session):
    items = session.complete(session.path, 2, 11)
    labels = [item.label for item in items]
    assert "allfives" in labels and "muggins" in labels and "based" not in labels
    assert all(item.text_edit.range.start.character == 9 for item in items)


def test_set_names_after_tiles(session):
    assert _labels(session, 6) == ["double-six", "double-nine", "double-twelve", "double-fifteen", "double-eighteen"]


def test_a_section_line_start_offers_the_section_statements(session):
    labels = _labels(session, 9)
    assert "as one event" in labels and "hand 5 tiles" not in labels


def test_ruleset_files_beside_the_text_after_based_on(session):
    items = session.complete(session.path, 11, len(LINES[11]))
    assert [item.label for item in items] == ['"base.rules"', '"other.rules"']  # not itself, nor notes.txt
    assert items[0].text_edit.range.start.character == 9  # the quote typed is replaced
    labels = _labels(session, 12)
    assert '"base.rules"' in labels and "allfives" in labels
