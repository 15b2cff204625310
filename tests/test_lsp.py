"""`rulelang lsp`: a real client session over stdio (pygls' LanguageClient talking to a subprocess)."""
from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as lsp  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data" / "lsp"


async def _session(tmp_path: Path) -> dict:
    """Open a broken text, fix it, hover, complete, format, go to the base, shut down."""
    client = LanguageClient("rulelang-test", "1")
    published: asyncio.Queue = asyncio.Queue()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
        published.put_nowait(params)

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    await client.start_io(sys.executable, "-m", "rulelang", "lsp", cwd=str(ROOT), env=env)
    out: dict = {}
    try:
        init = await asyncio.wait_for(client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=tmp_path.as_uri())), 60)
        out["capabilities"] = init.capabilities
        client.initialized(lsp.InitializedParams())

        path = tmp_path / "club.rules"
        uri = path.as_uri()
        broken = (DATA / "broken.rules").read_text(encoding="utf-8")
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="rulelang", version=1, text=broken)))
        out["opened"] = await asyncio.wait_for(published.get(), 60)

        fixed = (DATA / "unformatted.rules").read_text(encoding="utf-8")
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=fixed)]))
        out["changed"] = await asyncio.wait_for(published.get(), 60)
        out["fixed_text"] = fixed

        doc = lsp.TextDocumentIdentifier(uri=uri)
        target_line = next(i for i, line in enumerate(fixed.split("\n")) if line.startswith("target"))
        out["hover"] = await asyncio.wait_for(client.text_document_hover_async(
            lsp.HoverParams(doc, lsp.Position(target_line, 2))), 60)
        blank_line = fixed.split("\n").index("")
        out["completion"] = await asyncio.wait_for(client.text_document_completion_async(
            lsp.CompletionParams(doc, lsp.Position(blank_line, 0))), 60)
        out["formatting"] = await asyncio.wait_for(client.text_document_formatting_async(
            lsp.DocumentFormattingParams(doc, lsp.FormattingOptions(tab_size=2, insert_spaces=True))), 60)
        based_line = next(i for i, line in enumerate(fixed.split("\n")) if line.startswith("based on"))
        out["definition"] = await asyncio.wait_for(client.text_document_definition_async(
            lsp.DefinitionParams(doc, lsp.Position(based_line, 3))), 60)

        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=3),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=broken)]))
        out["broken_again"] = await asyncio.wait_for(published.get(), 60)
        client.text_document_did_save(lsp.DidSaveTextDocumentParams(doc))
        out["saved"] = await asyncio.wait_for(published.get(), 60)

        await asyncio.wait_for(client.shutdown_async(None), 60)
        client.exit(None)
    finally:
        await client.stop()
    return out


@pytest.fixture(scope="module")
def session(tmp_path_factory) -> dict:
    return asyncio.run(_session(tmp_path_factory.mktemp("lsp")))


def test_server_announces_its_features(session):
    caps = session["capabilities"]
    assert caps.hover_provider and caps.document_formatting_provider and caps.definition_provider
    assert caps.completion_provider is not None


def test_diagnostics_are_the_errors_of_check(session, tmp_path):
    from click.testing import CliRunner

    from rulelang.cli import main

    diagnostics = session["opened"].diagnostics
    assert [d.code for d in diagnostics] == ["unexpected-word"]
    d = diagnostics[0]
    # check says 4:8 (1-based, end exclusive); LSP counts from 0
    assert (d.range.start.line, d.range.start.character, d.range.end.character) == (3, 7, 11)
    assert d.message == "unexpected word `tils`\nhint: did you mean `tiles`?"
    assert d.source == "rulelang"
    result = CliRunner().invoke(main, ["check", "--json", str(DATA / "broken.rules")])
    error = __import__("json").loads(result.output)["files"][0]["errors"][0]
    assert (error["code"], error["line"], error["column"], error["end"]["column"]) == ("unexpected-word", 4, 8, 12)


def test_diagnostics_follow_changes_and_saves(session):
    assert [d.code for d in session["broken_again"].diagnostics] == ["unexpected-word"]
    assert session["broken_again"].version == 3
    assert [d.code for d in session["saved"].diagnostics] == ["unexpected-word"]


def test_a_fixed_text_clears_the_diagnostics(session):
    assert list(session["changed"].diagnostics) == []
    assert session["changed"].version == 2


def test_hover_explains_the_statement_and_what_it_replaces(session):
    value = session["hover"].contents.value
    assert "100" in value
    assert "Replaces allfives's rule:" in value and "150" in value


def test_completion_offers_statement_starts(session):
    labels = [item.label for item in session["completion"].items]
    assert "hand 5 tiles" in labels and "no reserve" in labels


def test_formatting_gives_the_canonical_text(session):
    from rulelang.language.formatter import canonical

    edits = session["formatting"]
    assert len(edits) == 1
    assert edits[0].new_text == canonical(session["fixed_text"], "club.rules")[0]
    # as `fmt`: the author's order kept (the file starts with its target), only the spacing normalised
    assert edits[0].new_text.startswith("target at least 100 points\nruleset club")
    assert edits[0].new_text != session["fixed_text"]


def test_definition_opens_the_base_ruleset(session):
    location = session["definition"]
    assert location.uri.endswith("/rulesets/allfives.rules")
