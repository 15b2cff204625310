"""`rulelang lsp`: a language server over stdio, so an editor checks a ruleset as it is typed.

Laid out as pygls' example servers are: one feature per decorated function.
Diagnostics are exactly `rulelang check`'s errors (same codes, positions and
hints); formatting is `rulelang fmt`; hover is the `explain` sentence of the
statement under the cursor (and, in a `based on` file, the base's rule it
replaces); completion offers statement starts, keywords and bundled names; go
to definition on a `based on` line opens the base ruleset.
"""
from __future__ import annotations

import logging
import os
import re
import sys
from typing import IO, Any
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from rulelang import langapi
from rulelang._version import __version__
from rulelang.bundled import bundled_filename, bundled_names

__all__ = ["server", "serve", "diagnostics_of", "filename_of"]

MAX_FRAME = 8 * 1024 * 1024  # bytes of one message: a ruleset text is at most 1 MiB, its JSON a few times that
MAX_HEADER_LINE = 1024  # bytes of one header line (`Content-Length: N`)
SKIPPED = b'{"jsonrpc": "2.0", "method": "$/rulelang/skipped"}'  # stands for a refused frame: a notification
logger = logging.getLogger(__name__)


class _Protocol(LanguageServerProtocol):
    """pygls' protocol, answering a request whose params do not fit its method (a negative position, say)
    with a JSON-RPC error instead of only logging it, so that the client does not wait for ever."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if "jsonrpc" in data and "method" in data and isinstance(data.get("id"), (int, str)):
                self._send_response(data["id"], None, exc.to_response_error())
            raise


class BoundedInput:
    """Standard input as pygls reads it, with bounded header lines and frames.

    pygls reads a whole frame of the size its `Content-Length` says: a frame
    larger than MAX_FRAME is read through and dropped in small pieces instead
    (the server stays in step with the stream and goes on), with an error logged.
    """

    def __init__(self, stream: IO[bytes]):
        self._stream = stream

    def readline(self) -> bytes:
        return self._stream.readline(MAX_HEADER_LINE)

    def read(self, size: int) -> bytes:
        if size <= MAX_FRAME:
            return self._stream.read(size)
        logger.error("refused a message of %s bytes (at most %s): skipped", f"{size:,}", f"{MAX_FRAME:,}")
        left = size
        while left > 0:
            chunk = self._stream.read(min(left, 1 << 20))
            if not chunk:
                return b""  # the input ended inside the frame: the end of the session, as at any end of input
            left -= len(chunk)
        return SKIPPED


server = LanguageServer("rulelang", __version__, protocol_cls=_Protocol)


@server.feature("$/rulelang/skipped")
def skipped(ls: LanguageServer, params: Any) -> None:
    """Nothing to do: a refused frame was skipped (and logged)."""


def filename_of(uri: str) -> str:
    """The path a message names for a document: its file path, or the URI of an unsaved buffer."""
    parsed = urlparse(uri)
    if parsed.scheme == "file":
        return unquote(parsed.path)
    return uri


def _range(error: Any) -> lsp.Range:
    """An error's span in LSP terms (0-based; `check` counts from 1 and its end is exclusive)."""
    if error.line is None:
        return lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
    line = error.line - 1
    start = max((error.column or 1) - 1, 0)
    end = (error.end_column - 1) if error.end_column else start + 1
    return lsp.Range(lsp.Position(line, start), lsp.Position(line, max(end, start + 1)))


def diagnostics_of(text: str, filename: str) -> list[lsp.Diagnostic]:
    """`rulelang check`'s errors of a text as diagnostics: code, position, message and hint."""
    out = []
    for error in langapi.analyse(text, filename).errors:
        message = error.message + (f"\nhint: {error.hint}" if error.hint else "")
        out.append(lsp.Diagnostic(range=_range(error), message=message, severity=lsp.DiagnosticSeverity.Error,
                                  code=error.code, source="rulelang"))
    return out


def _publish(ls: LanguageServer, uri: str) -> None:
    document = ls.workspace.get_text_document(uri)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
        uri=uri, version=document.version, diagnostics=diagnostics_of(document.source, filename_of(uri))))


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: LanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: LanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: LanguageServer, params: lsp.DidSaveTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: LanguageServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
    """The whole text replaced by its canonical form; nothing while it has errors (as `fmt`)."""
    document = ls.workspace.get_text_document(params.text_document.uri)
    text = document.source
    new, _errors = langapi.canonical(text, filename_of(document.uri))
    if new is None or new == text:
        return None
    lines = text.split("\n")
    end = lsp.Position(len(lines) - 1, len(lines[-1]))
    return [lsp.TextEdit(range=lsp.Range(lsp.Position(0, 0), end), new_text=new)]


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: LanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
    """What the statement under the cursor means, as `rulelang explain` says it."""
    document = ls.workspace.get_text_document(params.text_document.uri)
    analysis = langapi.analyse(document.source, filename_of(document.uri))
    statement = langapi.statement_at(analysis, params.position.line + 1)
    if statement is None or analysis.config is None:
        return None
    sentence = langapi.sentence_for(analysis.config, statement.key)
    if sentence is None:
        return None
    text = sentence
    base = analysis.base_label
    if base and base in bundled_names():
        import rulelang

        before = langapi.sentence_for(rulelang.compile_bundled(base), statement.key)
        if before and before != sentence:
            text += f"\n\nReplaces {base}'s rule: {before}"
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.PlainText, value=text))


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[" "]))
def completion(ls: LanguageServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    """Statement starts at the start of a line, bundled names after `based on`, keywords elsewhere."""
    document = ls.workspace.get_text_document(params.text_document.uri)
    lines = document.source.split("\n")
    row = params.position.line
    before = lines[row][: params.position.character] if row < len(lines) else ""
    items: list[lsp.CompletionItem] = []
    if re.fullmatch(r"\s*based\s+on\s+\S*", before):
        items = [lsp.CompletionItem(label=name, kind=lsp.CompletionItemKind.Module, detail="bundled ruleset")
                 for name in bundled_names()]
    elif re.fullmatch(r"\s*[\w']*", before):
        items = [lsp.CompletionItem(label=example, kind=lsp.CompletionItemKind.Snippet, detail=words,
                                    insert_text=example)
                 for words, example in langapi.statement_examples()]
    if not items:
        items = [lsp.CompletionItem(label=word, kind=lsp.CompletionItemKind.Keyword)
                 for word in langapi.keywords()]
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: LanguageServer, params: lsp.DefinitionParams) -> lsp.Location | None:
    """On a `based on` line: the base ruleset's file (a bundled one or a path in quotes)."""
    document = ls.workspace.get_text_document(params.text_document.uri)
    lines = document.source.split("\n")
    row = params.position.line
    match = re.match(r'\s*based\s+on\s+(?:"([^"]+)"|(\S+))', lines[row] if row < len(lines) else "")
    if not match:
        return None
    path = _base_path(match.group(1), match.group(2), filename_of(document.uri))
    if path is None or not os.path.isfile(path):
        return None
    from pathlib import Path

    return lsp.Location(uri=Path(path).resolve().as_uri(),
                        range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)))


def _base_path(quoted: str | None, name: str | None, here: str) -> str | None:
    if quoted:
        return os.path.normpath(os.path.join(os.path.dirname(here), quoted))
    if name in bundled_names():
        from importlib import resources

        entry = resources.files("rulelang.rulesets") / os.path.basename(bundled_filename(name))
        return str(entry) if os.path.isfile(str(entry)) else None
    return None


def serve() -> None:
    """Answer an editor on standard input and output until it says exit."""
    if not logging.getLogger().handlers:  # errors (a refused frame) go to standard error, never to the client
        logging.basicConfig(level=logging.ERROR, stream=sys.stderr, format="rulelang lsp: %(message)s")
    server.start_io(stdin=BoundedInput(sys.stdin.buffer))  # type: ignore[arg-type]


def _register_views() -> None:
    """The outline, folding, semantic tokens and inlay hints (rulelang/lsp_views.py), added once the server exists."""
    from rulelang import lsp_views

    lsp_views.register(server)


_register_views()
