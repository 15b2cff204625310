"""A language client session with `rulelang lsp` over stdio, driven from plain (synchronous) tests.

pygls' LanguageClient runs in an event loop of its own thread; each call here
waits for its answer with a time bound, so one server serves a whole test
module and a test reads like a user's steps: open, wait for diagnostics, hover.
"""
from __future__ import annotations

import asyncio
import os
import sys
import threading
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parents[1]
BOUND = 60.0  # seconds to wait for one answer


class Session:
    """`rulelang lsp` in a subprocess, with a client that records every publication of diagnostics."""

    def __init__(self, root: Path, capabilities: lsp.ClientCapabilities | None = None) -> None:
        self.root = root  # the workspace folder the tests write their files in
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.published: dict[str, list[lsp.PublishDiagnosticsParams]] = {}
        self.registrations: list[lsp.Registration] = []
        self.inlay_refreshes = 0  # workspace/inlayHint/refresh requests the server sent
        self.changed = threading.Condition()
        self.client: LanguageClient = self._run(self._start(root, capabilities or lsp.ClientCapabilities()))

    def _run(self, coroutine: Any, timeout: float = BOUND) -> Any:
        return asyncio.run_coroutine_threadsafe(asyncio.wait_for(coroutine, timeout), self.loop).result(timeout + 5)

    async def _start(self, root: Path, capabilities: lsp.ClientCapabilities) -> LanguageClient:
        client = LanguageClient("rulelang-test", "1")

        @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
            with self.changed:
                self.published.setdefault(params.uri, []).append(params)
                self.changed.notify_all()

        @client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
        def on_register(params: lsp.RegistrationParams) -> None:
            with self.changed:
                self.registrations.extend(params.registrations)
                self.changed.notify_all()

        @client.feature(lsp.WORKSPACE_INLAY_HINT_REFRESH)
        def on_inlay_refresh(params: None) -> None:
            with self.changed:
                self.inlay_refreshes += 1
                self.changed.notify_all()

        env = dict(os.environ, PYTHONPATH=str(ROOT))
        await client.start_io(sys.executable, "-m", "rulelang", "lsp", cwd=str(ROOT), env=env)
        self.init = await client.initialize_async(lsp.InitializeParams(capabilities=capabilities,
                                                                       root_uri=root.as_uri()))
        client.initialized(lsp.InitializedParams())
        return client

    def notify(self, method: str, params: Any) -> None:
        """Send a notification (from the client's own thread, as pygls requires)."""
        async def send() -> None:
            self.client.protocol.notify(method, params)
        self._run(send())

    def request(self, method: str, params: Any) -> Any:
        """Send a request and wait for its answer."""
        async def send() -> Any:
            return await self.client.protocol.send_request_async(method, params)
        return self._run(send())

    def count(self, uri: str) -> int:
        with self.changed:
            return len(self.published.get(uri, []))

    def diagnostics(self, uri: str, after: int = 0) -> lsp.PublishDiagnosticsParams:
        """The first publication for URI after the first AFTER ones (waiting for it)."""
        with self.changed:
            ok = self.changed.wait_for(lambda: len(self.published.get(uri, [])) > after, BOUND)
            assert ok, f"no diagnostics published for {uri}"
            return self.published[uri][after]

    # -- the user's steps ---------------------------------------------------------------------------------

    def open(self, path: Path, text: str) -> lsp.PublishDiagnosticsParams:
        """Open a document and return its first diagnostics."""
        uri = path.as_uri()
        before = self.count(uri)
        self.notify(lsp.TEXT_DOCUMENT_DID_OPEN, lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="rulelang", version=1, text=text)))
        return self.diagnostics(uri, before)

    def change(self, path: Path, text: str, version: int) -> lsp.PublishDiagnosticsParams:
        uri = path.as_uri()
        before = self.count(uri)
        self.notify(lsp.TEXT_DOCUMENT_DID_CHANGE, lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)]))
        return self.diagnostics(uri, before)

    def hover(self, path: Path, line: int, character: int = 0) -> lsp.Hover | None:
        return self.request(lsp.TEXT_DOCUMENT_HOVER, lsp.HoverParams(
            lsp.TextDocumentIdentifier(uri=path.as_uri()), lsp.Position(line, character)))

    def complete(self, path: Path, line: int, character: int) -> list[lsp.CompletionItem]:
        answer = self.request(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionParams(
            lsp.TextDocumentIdentifier(uri=path.as_uri()), lsp.Position(line, character)))
        return list(answer.items) if answer is not None else []

    def code_actions(self, path: Path, rng: lsp.Range,
                     diagnostics: list[lsp.Diagnostic] | None = None) -> list[lsp.CodeAction]:
        answer = self.request(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri=path.as_uri()), rng, lsp.CodeActionContext(diagnostics=diagnostics or [])))
        return list(answer or [])

    def hover_texts(self, path: Path, rows: int, character: int) -> list[str | None]:
        """The hover text at `character` of each of the first `rows` lines (None where there is none)."""
        answers = [self.hover(path, row, character) for row in range(rows)]
        return [a.contents.value if a is not None else None for a in answers]  # type: ignore[union-attr]

    def close(self) -> None:
        async def stop() -> None:
            await self.client.shutdown_async(None)
            self.client.exit(None)
            await self.client.stop()
        try:
            self._run(stop())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(BOUND)


def apply_edits(text: str, edits: list[lsp.TextEdit]) -> str:
    """TEXT with EDITS made (ranges in UTF-16 code units, as the server was asked for), last first."""
    lines = text.split("\n")

    def offset(position: lsp.Position) -> int:
        if position.line >= len(lines):
            return len(text)
        line = lines[position.line]
        units, col = 0, 0
        while col < len(line) and units < position.character:
            units += 2 if ord(line[col]) > 0xFFFF else 1
            col += 1
        return sum(len(x) + 1 for x in lines[:position.line]) + col

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


def whole_line(line: int) -> lsp.Range:
    return lsp.Range(lsp.Position(line, 0), lsp.Position(line, 0))

