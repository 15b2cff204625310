"""`rulelang lsp` hover: the `explain` sentence of the line's statement, and the base's rule it replaces."""
from __future__ import annotations

import pytest

pytest.importorskip("pygls")

CHILD = """# a house variant
ruleset club "Club"
source "ours"
based on allfives

target at least 100 points
no reserve
on block:
  winner: the lightest hand, ties broken by fewest tiles
"""


def test_every_line_of_a_based_on_file(session):
    path = session.root / "club.rules"
    assert list(session.open(path, CHILD).diagnostics) == []
    said = session.hover_texts(path, 10, 3)
    assert said[0] is None and said[4] is None and said[9] is None
    assert said[7] == said[8].split("\n\n")[0]  # `on block:`: the sentences of the section's statements
    assert said[1].startswith("Club (`club`)") and "allfives" not in said[1]
    assert said[2] == "Source: ours."
    assert said[3].startswith("Based on allfives.") and "inherits" in said[3]
    assert said[5].startswith("A side wins by reaching at least 100 points")
    assert said[5].endswith("Replaces allfives's rule: A side wins by reaching at least 150 points.")
    assert said[6] == "Every undealt tile may be drawn: there is no reserve.\n\nThe same as allfives's rule."
    assert said[8].startswith("The lightest hand (fewest pips) wins the block") and said[8].endswith(
        "The same as allfives's rule.")


def test_the_hover_covers_the_statement_line(session):
    path = session.root / "club.rules"
    answer = session.hover(path, 8, 5)
    assert (answer.range.start.line, answer.range.start.character) == (8, 2)
    assert (answer.range.end.line, answer.range.end.character) == (8, len(CHILD.split("\n")[8]))


def test_a_base_file_open_in_the_editor_is_read_as_edited(session):
    base = session.root / "base.rules"
    base.write_text('ruleset base "Base"\nsource "s"\nbased on allfives\ntarget at least 200 points\n',
                    encoding="utf-8")
    child = session.root / "child.rules"
    session.open(child, 'ruleset child "Child"\nsource "s"\nbased on "base.rules"\ntarget at least 100 points\n')
    assert session.hover(child, 3).contents.value.endswith(
        "Replaces base.rules's rule: A side wins by reaching at least 200 points.")
    session.open(base, 'ruleset base "Base"\nsource "s"\nbased on allfives\ntarget at least 250 points\n')
    assert session.hover(child, 3).contents.value.endswith(
        "Replaces base.rules's rule: A side wins by reaching at least 250 points.")  # unsaved, as the editor has it
