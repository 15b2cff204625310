"""`rulelang lsp` code actions: the quick fix each hint proposes, and restating an inherited rule (a client session).

Each test opens a text, asks for the code actions of its diagnostics (which
carry their fixes in `data`), applies the one a user would pick, and checks
the text the server then diagnoses.
"""
from __future__ import annotations

import pytest

pytest.importorskip("pygls")

from lsp_session import Session, apply_edits, whole_line  # noqa: E402
from lsprotocol import types as lsp  # noqa: E402

HEADER = 'ruleset club "Club"\nsource "ours"\n'


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    root = tmp_path_factory.mktemp("lsp")
    s = Session(root)
    s.version = 1
    yield s
    s.close()


def _fix(session, name, text, title, code=None):
    """Open TEXT, take the quick fix TITLE of its (first CODE) diagnostic; (new text, its diagnostics)."""
    path = session.root / name
    diagnostics = list(session.open(path, text).diagnostics)
    chosen = [d for d in diagnostics if code is None or d.code == code][:1]
    assert chosen, diagnostics
    actions = session.code_actions(path, chosen[0].range, chosen)
    by_title = {a.title: a for a in actions}
    assert title in by_title, sorted(by_title)
    action = by_title[title]
    assert action.kind == lsp.CodeActionKind.QuickFix and list(action.diagnostics) == chosen
    new = apply_edits(text, action.edit.changes[path.as_uri()])
    session.version += 1
    return new, list(session.change(path, new, session.version).diagnostics)


def test_the_did_you_mean_word(session):
    new, after = _fix(session, "typo.rules", HEADER + "based on allfives\nhand 6 tils\n", "Replace with `tiles`")
    assert new.endswith("hand 6 tiles\n") and after == []


def test_the_did_you_mean_bundled_name(session):
    new, after = _fix(session, "name.rules", HEADER + "based on allfivs  # ours\n", "Replace with `allfives`")
    assert "based on allfives  # ours\n" in new and after == []


def test_the_missing_quotes_of_a_path(session):
    (session.root / "base.rules").write_text(HEADER.replace("club", "base") + "based on allfives\n", encoding="utf-8")
    new, after = _fix(session, "path.rules", HEADER + "based on base.rules\n", 'Quote the path: `based on "base.rules"`')
    assert new == HEADER + 'based on "base.rules"\n' and after == []


def test_start_from_a_bundled_variant(session):
    new, after = _fix(session, "bare.rules", HEADER + "target at least 100 points\n",
                      "Start from the bundled variant `muggins`", code="missing-statement")
    assert new == HEADER + "based on muggins\ntarget at least 100 points\n" and after == []


def test_restating_an_inherited_amount_a_new_unit_would_change(session):
    text = HEADER + "based on muggins\npoints are shown raw\n"
    new, after = _fix(session, "unit.rules", text, "Write `target at least 305 points`", code="inherited-amount-unit")
    assert new == text + "target at least 305 points\n"
    assert [d.code for d in after] == []


def test_an_inherited_rule_that_fails_is_restated_or_rewritten(session):
    text = "based on allfives\n" + HEADER + "opener of the first round: lottery\n" \
        "opener after a domino: the dominoer\nopener after a block: lottery\n"
    restated, after = _fix(session, "lead.rules", text, "Restate the inherited rule here: "
                           "`opener leads the deciding tile`", code="forced-lead-unused")
    assert restated == text + "opener leads the deciding tile\n"
    assert [d.code for d in after] == ["forced-lead-unused"]  # the base's rule, now here to be edited
    assert after[0].range.start.line == 6
    rewritten, after = _fix(session, "lead2.rules", text, "Write `opener leads any tile`")
    assert rewritten == text + "opener leads any tile\n" and after == []


def test_a_suggested_line_replaces_the_texts_own_statement(session):
    text = HEADER + "based on allfives\ntarget exactly 61 points\nno overshoot rule  # as the base\n"
    new, after = _fix(session, "exact.rules", text, "Write `overshoot bounces back`", code="exact-needs-overshoot")
    assert new == HEADER + "based on allfives\ntarget exactly 61 points\novershoot bounces back  # as the base\n"
    assert after == []


def test_restate_an_inherited_rule_from_the_based_on_line(session):
    path = session.root / "club.rules"
    text = HEADER + "based on allfives\nhand 5 tiles\n"
    assert list(session.open(path, text).diagnostics) == []
    actions = {a.title: a for a in session.code_actions(path, whole_line(2))}
    assert "Restate the inherited rule here: `target at least 150 points`" in actions
    assert "Restate the inherited rule here: `hand 5 tiles`" not in actions  # stated here already
    assert session.code_actions(path, whole_line(3)) == []  # only on the `based on` line
    for title, expected in (("`target at least 150 points`", text + "target at least 150 points\n"),
                            ("`winner: the lightest hand, ties broken by fewest tiles`",
                             text + "\non block:\n  winner: the lightest hand, ties broken by fewest tiles\n")):
        action = actions["Restate the inherited rule here: " + title]
        assert action.kind == lsp.CodeActionKind.RefactorRewrite
        new = apply_edits(text, action.edit.changes[path.as_uri()])
        assert new == expected
        session.version += 1
        assert list(session.change(path, new, session.version).diagnostics) == []
        hover = session.hover(path, len(new.rstrip("\n").split("\n")) - 1, 3).contents.value
        assert hover.endswith("The same as allfives's rule.")
