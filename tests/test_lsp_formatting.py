"""`rulelang lsp`: range formatting, and diagnosing again the files based on one that changed (a client session)."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsp_session import Session, apply_edits  # noqa: E402
from lsprotocol import types as lsp  # noqa: E402

TEXT = """ruleset   club "Club"
source  "\U0001F0A1\U0001F0A1 ours"   # cards
based on allfives
target at  least 100 points
hand 6 tils
no   reserve
on   domino :
    credit opponents' hands separately,  rounded to 5, to the winner
  as   one event
"""


def _format(session, path, first, last, end_character=0):
    return session.request(lsp.TEXT_DOCUMENT_RANGE_FORMATTING, lsp.DocumentRangeFormattingParams(
        lsp.TextDocumentIdentifier(uri=path.as_uri()),
        lsp.Range(lsp.Position(first, 0), lsp.Position(last, end_character)),
        lsp.FormattingOptions(tab_size=2, insert_spaces=True))) or []


def test_the_server_announces_range_formatting(session):
    assert session.init.capabilities.document_range_formatting_provider


def test_only_the_lines_of_the_range_are_formatted_in_place(session):
    path = session.root / "club.rules"
    assert [d.code for d in session.open(path, TEXT).diagnostics] == ["unexpected-word"]
    edits = _format(session, path, 1, 4)  # lines 1 to 3: the range ends at the start of line 4
    assert sorted(e.range.start.line for e in edits) == [1, 3]
    new = apply_edits(TEXT, edits)
    lines = new.split("\n")
    assert lines[0] == "ruleset   club \"Club\"" and lines[5] == "no   reserve"  # outside the range
    assert lines[1] == 'source "\U0001F0A1\U0001F0A1 ours"  # cards' and lines[3] == "target at least 100 points"
    source_edit = next(e for e in edits if e.range.start.line == 1)
    assert source_edit.range.end.character == len(TEXT.split("\n")[1]) + 2  # two UTF-16 units per card


def test_a_line_that_does_not_parse_is_left_alone_and_a_section_is_indented(session):
    path = session.root / "club.rules"
    new = apply_edits(TEXT, _format(session, path, 0, 8, 20))
    assert new.split("\n")[4] == "hand 6 tils"
    assert new.split("\n")[6:9] == ["on domino:", "  credit opponents' hands separately, rounded to 5, to the winner",
                                    "  as one event"]


def test_files_based_on_a_changed_file_are_diagnosed_again(session):
    base = session.root / "base.rules"
    good = 'ruleset base "Base"\nsource "s"\nbased on allfives\ntarget at least 200 points\n'
    base.write_text(good, encoding="utf-8")
    child = session.root / "child.rules"
    grandchild = session.root / "grandchild.rules"
    assert list(session.open(child, 'ruleset child "C"\nsource "s"\nbased on "base.rules"\n').diagnostics) == []
    assert list(session.open(grandchild, 'ruleset g "G"\nsource "s"\nbased on "child.rules"\n').diagnostics) == []

    seen = session.count(child.as_uri()), session.count(grandchild.as_uri())
    session.open(base, good.replace("200 points", "200 pints"))  # opened and edited, not saved
    assert [d.code for d in session.diagnostics(child.as_uri(), seen[0]).diagnostics] == ["base-invalid"]
    assert [d.code for d in session.diagnostics(grandchild.as_uri(), seen[1]).diagnostics] == ["base-invalid"]

    seen = session.count(child.as_uri())
    session.change(base, good, 2)
    assert list(session.diagnostics(child.as_uri(), seen).diagnostics) == []

    seen = session.count(child.as_uri())
    session.notify(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(base.as_uri())))
    assert list(session.diagnostics(child.as_uri(), seen).diagnostics) == []

    seen = session.count(child.as_uri())
    base.write_text(good.replace("200 points", "200 pints"), encoding="utf-8")  # on disk, while the editor has it
    session.notify(lsp.TEXT_DOCUMENT_DID_CLOSE, lsp.DidCloseTextDocumentParams(
        lsp.TextDocumentIdentifier(base.as_uri())))  # closed: the disk's text counts again
    assert [d.code for d in session.diagnostics(child.as_uri(), seen).diagnostics] == ["base-invalid"]

    seen = session.count(child.as_uri())
    base.write_text(good, encoding="utf-8")  # another program fixes it
    session.notify(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES, lsp.DidChangeWatchedFilesParams(
        [lsp.FileEvent(uri=base.as_uri(), type=lsp.FileChangeType.Changed)]))
    assert list(session.diagnostics(child.as_uri(), seen).diagnostics) == []


def test_a_client_that_watches_files_is_asked_to_watch_the_rules_files(tmp_path):
    caps = lsp.ClientCapabilities(workspace=lsp.WorkspaceClientCapabilities(
        did_change_watched_files=lsp.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)))
    s = Session(tmp_path, caps)
    try:
        with s.changed:
            assert s.changed.wait_for(lambda: s.registrations, 60)
        [registration] = s.registrations
        assert registration.method == lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES
        assert [w["globPattern"] for w in registration.register_options["watchers"]] == ["**/*.rules"]
    finally:
        s.close()


def test_a_client_that_can_refresh_inlay_hints_is_asked_to_after_an_edit(tmp_path):
    """A file's inlay hints show what it inherits, so an edit of its base must refresh them."""
    caps = lsp.ClientCapabilities(workspace=lsp.WorkspaceClientCapabilities(
        inlay_hint=lsp.InlayHintWorkspaceClientCapabilities(refresh_support=True)))
    s = Session(tmp_path, caps)
    try:
        s.open(tmp_path / "base.rules", 'ruleset base "Base"\nsource "s"\nbased on allfives\n')
        with s.changed:
            assert s.changed.wait_for(lambda: s.inlay_refreshes >= 1, 60)
    finally:
        s.close()


def test_the_whole_text_edit_ends_at_the_end_in_utf16_units(session):
    path = session.root / "cards.rules"
    text = 'ruleset cards "Cards"\nbased on allfives\nsource   "\U0001F0A1\U0001F0A1"'  # no line break at the end
    assert list(session.open(path, text).diagnostics) == []
    [edit] = session.request(lsp.TEXT_DOCUMENT_FORMATTING, lsp.DocumentFormattingParams(
        lsp.TextDocumentIdentifier(uri=path.as_uri()), lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert (edit.range.end.line, edit.range.end.character) == (2, len(text.split("\n")[2]) + 2)
    # as `fmt`: the author's order kept, the spacing and the final line break normalised
    assert apply_edits(text, [edit]) == 'ruleset cards "Cards"\nbased on allfives\nsource "\U0001F0A1\U0001F0A1"\n'


def test_a_burst_of_changes_to_a_base_diagnoses_each_file_based_on_it_once(session):
    """Every change of a base re-analysed every open file based on it (300 files: 2.8 s per keystroke). A burst
    of edits now diagnoses each of them about once, after the burst: counted in publications (one per
    analysis), not in time."""
    base = session.root / "burst-base.rules"
    good = 'ruleset base "Base"\nsource "s"\nbased on allfives\ntarget at least 200 points\n'
    base.write_text(good, encoding="utf-8")
    children = [session.root / f"burst-{i}.rules" for i in range(12)]
    for i, child in enumerate(children):
        assert list(session.open(child, f'ruleset c{i} "C"\nsource "s"\nbased on "burst-base.rules"\n').diagnostics) == []
    seen = {child: session.count(child.as_uri()) for child in children}
    session.open(base, good)
    changes = 20
    for version in range(2, changes + 2):  # as fast as the client sends them: a user typing
        session.notify(lsp.TEXT_DOCUMENT_DID_CHANGE, lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=base.as_uri(), version=version),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(
                text=good.replace("200", str(200 + version)) if version < changes + 1 else
                good.replace("200 points", "200 pints"))]))
    for child in children:  # each ends up diagnosed against the last text
        with session.changed:
            assert session.changed.wait_for(lambda c=child: _last_codes(session, c) == ["base-invalid"], 60)
    diagnosed = [session.count(child.as_uri()) - seen[child] for child in children]
    assert max(diagnosed) <= 3, f"{diagnosed} analyses per file for {changes + 1} changes of its base"


def _last_codes(session, path):
    published = session.published.get(path.as_uri(), [])
    return [d.code for d in published[-1].diagnostics] if published else None


def _out_of_order(text: str) -> str:
    """The text with its one-line statements before the first section reversed, and spaces doubled in them: an
    author's order that is not the canonical one, and spelling `fmt` normalises."""
    lines = text.split("\n")
    first_section = next((i for i, ln in enumerate(lines) if ln.rstrip().endswith(":") and not ln[:1].isspace()),
                         len(lines))
    spots = [i for i, ln in enumerate(lines[:first_section])
             if ln.strip() and not ln.startswith(("#", " ", "ruleset", "source", "based on"))]
    moved = [lines[i].replace(" ", "  ", 1) for i in reversed(spots)]
    for i, ln in zip(spots, moved):
        lines[i] = ln
    return "\n".join(lines)


def _rulesets() -> list[Path]:
    root = Path(__file__).resolve().parent.parent
    return sorted((root / "rulesets").glob("*.rules")) + sorted((root / "tests/data/rulesets/house").glob("*.rules"))


def test_the_server_formats_every_bundled_and_house_ruleset_as_fmt_does(session):
    from click.testing import CliRunner

    from rulelang.cli import main

    checked = 0
    for source in _rulesets():
        text = _out_of_order(source.read_text(encoding="utf-8"))
        path = session.root / source.name
        session.open(path, text)
        edits = session.request(lsp.TEXT_DOCUMENT_FORMATTING, lsp.DocumentFormattingParams(
            lsp.TextDocumentIdentifier(uri=path.as_uri()), lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
        fmt = CliRunner().invoke(main, ["fmt", "--stdin-filename", source.name, "-"], input=text)
        assert fmt.exit_code == 0, (source.name, fmt.output)
        assert apply_edits(text, edits or []) == fmt.stdout, source.name
        checked += 1
    assert checked > 30
