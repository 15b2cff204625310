"""`rulelang lsp`: a language server over stdio, so an editor checks a ruleset as it is typed.

Laid out as pygls' example servers are: one feature per decorated function.
Diagnostics are exactly `rulelang check`'s errors and warnings (same codes,
positions and hints), each carrying the quick fixes its hint proposes
(lsp_actions); formatting and range formatting are `rulelang fmt`'s; hover is
the `explain` sentence of the statement on the line (and, in a `based on`
file, the base's rule it replaces), even while the text has errors;
completion offers what the grammar accepts after the words on the line
(lsp_complete); go to definition on a `based on` line opens the base ruleset.
An open file that others are `based on` is read as the editor has it, and
they are diagnosed again when it changes (once per burst of changes). Every position is in the units the
client agreed (UTF-16 by default), through pygls' position codec; a request
about a document the editor has not opened is answered with nothing, never by
reading the file.
"""
from __future__ import annotations

import asyncio
import logging
import os
import re
import sys
from importlib import resources
from pathlib import Path
from typing import IO, Any
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.workspace import TextDocument

from rulelang._version import __version__
from rulelang.base.errors import RulesetError
from rulelang.language.analysis import Analysis, analyse
from rulelang.language.bundled import bundled_filename, bundled_names
from rulelang.language.explain import sentence_for, statement_words
from rulelang.language.formatter import canonical, canonical_lines
from rulelang.lsp import actions as lsp_actions
from rulelang.lsp import complete as lsp_complete
from rulelang.lsp import views as lsp_views

__all__ = ["server", "serve", "diagnostics_of", "filename_of"]

MAX_FRAME = 8 * 1024 * 1024  # bytes of one message: a ruleset text is at most 1 MiB, its JSON a few times that
MAX_HEADER_LINE = 1024  # bytes of one header line (`Content-Length: N`)
BROKEN_FRAME = 64 * 1024 * 1024  # a Content-Length above this is no message: the stream is out of step
EXIT_BROKEN = 2  # exit status when the input stream is broken (the client then starts a new server)
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


class BrokenStream(Exception):
    """The input is out of step with its frames: no later message can be trusted to start where it seems to."""


class BoundedInput:
    """Standard input as pygls reads it, with bounded header lines and frames.

    pygls reads a whole frame of the size its `Content-Length` says: a frame
    larger than MAX_FRAME is read through and dropped in small pieces instead
    (the server stays in step with the stream and goes on), with an error logged.
    A `Content-Length` above BROKEN_FRAME is no message at all: reading it
    through would take every later message as part of it (the server alive but
    deaf), so it raises BrokenStream and the server exits (`serve`), which
    tells the editor to start a new one.
    """

    def __init__(self, stream: IO[bytes]):
        self._stream = stream

    def readline(self) -> bytes:
        return self._stream.readline(MAX_HEADER_LINE)

    def read(self, size: int) -> bytes:
        if size <= MAX_FRAME:
            return self._stream.read(size)
        if size > BROKEN_FRAME:
            raise BrokenStream(f"a message of {size:,} bytes (at most {MAX_FRAME:,}; over {BROKEN_FRAME:,} "
                               "the input is out of step)")
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


# ---------------------------------------------------------------------------
# Open documents, their analyses, and positions in the client's units
# ---------------------------------------------------------------------------

_analyses: dict[str, tuple[str, Analysis]] = {}  # uri -> (the text analysed, its analysis)


def _document(ls: LanguageServer, uri: str) -> TextDocument | None:
    """An open document, or None: a request about a file the editor has not opened is not read from disk."""
    documents: dict[str, TextDocument] = ls.workspace.text_documents
    return documents.get(uri) or documents.get(unquote(uri))


def _analysis(document: TextDocument) -> Analysis:
    """The analysis of a document's text, kept until the text (or a file it is based on) changes."""
    text = document.source
    kept = _analyses.get(document.uri)
    if kept is None or kept[0] != text:
        kept = (text, analyse(text, filename_of(document.uri), _open_texts(server)))
        _analyses[document.uri] = kept
    return kept[1]


def _open_texts(ls: LanguageServer) -> dict[str, str]:
    """Path -> text of every open file: a text based on one of them is checked against it as edited."""
    return {os.path.normpath(filename_of(uri)): document.source
            for uri, document in ls.workspace.text_documents.items() if uri.startswith("file:")}


def _lines(document: TextDocument) -> list[str]:
    """The document's lines as the language counts them (split at `\\n`), for the position codec."""
    return document.source.split("\n")


def _to_client(document: TextDocument, line: int, start: int, end_line: int, end: int) -> lsp.Range:
    """A range in code points (0-based) as the client counts (UTF-16 unless another encoding was agreed)."""
    return document.position_codec.range_to_client_units(
        _lines(document), lsp.Range(lsp.Position(line, start), lsp.Position(end_line, end)))


def _from_client(document: TextDocument, position: lsp.Position) -> tuple[int, int]:
    """A client position as (0-based line, column in code points)."""
    at = document.position_codec.position_from_client_units(
        _lines(document), lsp.Position(position.line, position.character))
    return at.line, at.character


def _error_range(document: TextDocument, error: RulesetError) -> lsp.Range:
    """An error's span in LSP terms (0-based; `check` counts from 1 and its end is exclusive)."""
    if error.line is None or error.filename != filename_of(document.uri):
        return _to_client(document, 0, 0, 0, 0)
    line = error.line - 1
    start = max((error.column or 1) - 1, 0)
    end = (error.end_column - 1) if error.end_column else start + 1
    return _to_client(document, line, start, line, max(end, start + 1))


# ---------------------------------------------------------------------------
# Diagnostics, and the files based on the one that changed
# ---------------------------------------------------------------------------

def diagnostics_of(document: TextDocument) -> list[lsp.Diagnostic]:
    """`rulelang check`'s errors and warnings of a document as diagnostics: code, position, message, hint, and
    in `data` the quick fixes the hint proposes."""
    analysis = _analysis(document)
    here = filename_of(document.uri)
    if analysis.errors and analysis.errors[0].code == "not-a-ruleset":
        # udev, polkit or Snort rules that share the extension: said once, as information, and left alone
        return [lsp.Diagnostic(range=_to_client(document, 0, 0, 0, 0), message=analysis.errors[0].message,
                               severity=lsp.DiagnosticSeverity.Information, code="not-a-ruleset", source="rulelang")]
    out = []
    for problems, severity in ((analysis.errors, lsp.DiagnosticSeverity.Error),
                               (analysis.warnings, lsp.DiagnosticSeverity.Warning)):
        for error in problems:
            message = error.message + (f"\nhint: {error.hint}" if error.hint else "")
            if error.line is not None and error.filename != here:
                message = f"{error.location}: {message}"
            fixes = lsp_actions.fixes_of(error, analysis) if error.filename == here else []
            out.append(lsp.Diagnostic(range=_error_range(document, error), message=message, severity=severity,
                                      code=error.code, source="rulelang", data={"fixes": fixes} if fixes else None))
    return out


def _publish(ls: LanguageServer, uri: str) -> None:
    document = _document(ls, uri)
    if document is None:
        return
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
        uri=document.uri, version=document.version, diagnostics=diagnostics_of(document)))


_bases: dict[str, tuple[str, str | None]] = {}  # uri -> (its text, the path its `based on` names)


def _base_of(document: TextDocument) -> str | None:
    """The path a document's `based on` names: its own text says it, so an edit of the base keeps it."""
    kept = _bases.get(document.uri)
    if kept is None or kept[0] != document.source:
        kept = (document.source, _analysis(document).based_on_path())
        _bases[document.uri] = kept
    return kept[1]


def _dependents_of(ls: LanguageServer, paths: set[str]) -> list[str]:
    """The URIs of the open documents `based on` any of PATHS, and of those based on them, in that order
    (each once, even in a cycle of `based on`)."""
    changed = {os.path.normpath(path) for path in paths}
    found: dict[str, str] = {}  # uri -> its path
    while changed:
        following: set[str] = set()
        for uri, document in list(ls.workspace.text_documents.items()):
            if uri not in found and _base_of(document) in changed:
                found[uri] = os.path.normpath(filename_of(uri))
                following.add(found[uri])
        changed = following
    return list(found)


DEPENDENTS_DELAY = 0.25  # seconds without a change before the files based on the changed ones are diagnosed again


class _Dependents:
    """The open files based on a changed one, diagnosed again once per burst of changes, not at every change.

    300 files open on one base were each analysed again at every keystroke in it (2.8 s per edit). A change
    only notes the changed file and (re)starts a short timer; when it runs out, the files based on every
    noted file are diagnosed, one at a time, each step letting newer messages be handled first. A change
    that comes meanwhile cancels that stale work (what is left is done with the next burst). The kept
    analyses of those files are dropped at once (cheap), so that a request about one of them meanwhile (a
    hover, its hints) reads the base as it is now.
    """

    def __init__(self) -> None:
        self.paths: set[str] = set()  # changed since the last run started
        self.running: set[str] = set()  # those the run in progress is for
        self.timer: asyncio.TimerHandle | None = None
        self.task: asyncio.Task[None] | None = None

    def schedule(self, ls: LanguageServer, path: str) -> None:
        self.paths.add(os.path.normpath(path))
        for uri in _dependents_of(ls, {path}):
            _analyses.pop(uri, None)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a handler called directly): at once
            self._run_now(ls)
            return
        if self.task is not None and not self.task.done():
            self.task.cancel()  # stale: its files are diagnosed with this burst
            self.paths |= self.running
        if self.timer is not None:
            self.timer.cancel()
        self.timer = loop.call_later(DEPENDENTS_DELAY, self._start, ls)

    def _start(self, ls: LanguageServer) -> None:
        self.timer = None
        self.running, self.paths = self.paths, set()
        self.task = asyncio.ensure_future(self._run(ls, self.running))

    async def _run(self, ls: LanguageServer, paths: set[str]) -> None:
        for uri in _dependents_of(ls, paths):
            await asyncio.sleep(0)  # a message that came meanwhile first: a change cancels this run
            _publish(ls, uri)
        _refresh_inlay_hints(ls)  # a file's hints show what it inherits

    def _run_now(self, ls: LanguageServer) -> None:
        paths, self.paths = self.paths, set()
        for uri in _dependents_of(ls, paths):
            _publish(ls, uri)


_dependents = _Dependents()


def _changed(ls: LanguageServer, uri: str) -> None:
    _publish(ls, uri)
    _dependents.schedule(ls, filename_of(uri))  # then the inlay hints are refreshed, once per burst


def _refresh_inlay_hints(ls: LanguageServer) -> None:
    """Ask the client to fetch the inlay hints again (where it can): a file's hints show what it inherits, so
    an edit of a base changes the hints of the files based on it."""
    workspace = ls.client_capabilities.workspace
    inlay = workspace.inlay_hint if workspace is not None else None
    if inlay is not None and inlay.refresh_support:
        ls.workspace_inlay_hint_refresh(None)


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: LanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
    _changed(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: LanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
    _changed(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: LanguageServer, params: lsp.DidSaveTextDocumentParams) -> None:
    _changed(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: LanguageServer, params: lsp.DidCloseTextDocumentParams) -> None:
    """A closed document's diagnostics are cleared; the files based on it read it from disk again."""
    _analyses.pop(params.text_document.uri, None)
    _bases.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))
    _dependents.schedule(ls, filename_of(params.text_document.uri))


@server.feature(lsp.INITIALIZED)
def initialized(ls: LanguageServer, params: lsp.InitializedParams) -> None:
    """Ask a client that can watch files to report every change of a `*.rules` file (see below)."""
    capabilities = ls.client_capabilities.workspace
    watched = capabilities.did_change_watched_files if capabilities is not None else None
    if watched is None or not watched.dynamic_registration:
        return
    ls.client_register_capability(lsp.RegistrationParams(registrations=[lsp.Registration(
        id="rulelang-watched-files", method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=lsp.DidChangeWatchedFilesRegistrationOptions(
            watchers=[lsp.FileSystemWatcher(glob_pattern="**/*.rules")]))]))


@server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: LanguageServer, params: lsp.DidChangeWatchedFilesParams) -> None:
    """A ruleset file changed on disk (another program wrote it): diagnose the open files based on it."""
    for change in params.changes:
        _dependents.schedule(ls, filename_of(change.uri))


# ---------------------------------------------------------------------------
# Formatting
# ---------------------------------------------------------------------------

@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: LanguageServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
    """The whole text replaced by its canonical form; nothing while it has errors (as `fmt`)."""
    document = _document(ls, params.text_document.uri)
    if document is None:
        return None
    text = document.source
    new, _errors = canonical(text, filename_of(document.uri))
    if new is None or new == text:
        return None
    lines = _lines(document)
    end = len(lines) - 1
    return [lsp.TextEdit(range=_to_client(document, 0, 0, end, len(lines[end])), new_text=new)]


@server.feature(lsp.TEXT_DOCUMENT_RANGE_FORMATTING)
def range_formatting(ls: LanguageServer, params: lsp.DocumentRangeFormattingParams) -> list[lsp.TextEdit] | None:
    """Each line of a rule within the range written as `fmt` writes it, in place (no line moves); a line that
    does not parse is left as it is."""
    document = _document(ls, params.text_document.uri)
    if document is None:
        return None
    first, _ = _from_client(document, params.range.start)
    last, last_column = _from_client(document, params.range.end)
    if last > first and last_column == 0:
        last -= 1  # a range that ends at the start of a line does not cover that line
    lines = _lines(document)
    edits = []
    for number, text in sorted(canonical_lines(_analysis(document).ruleset).items()):
        row = number - 1
        if first <= row <= last and row < len(lines) and lines[row].rstrip("\r") != text:
            edits.append(lsp.TextEdit(range=_to_client(document, row, 0, row, len(lines[row].rstrip("\r"))),
                                      new_text=text))
    return edits or None


# ---------------------------------------------------------------------------
# Hover
# ---------------------------------------------------------------------------

@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: LanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
    """What the statement under the cursor means, as `rulelang explain` says it, and, in a `based on` file, the
    base's rule it replaces (or that it states the base's rule again)."""
    document = _document(ls, params.text_document.uri)
    if document is None:
        return None
    row, _ = _from_client(document, params.position)
    analysis = _analysis(document)
    statement = analysis.statement_at(row + 1)
    if statement is None:
        return _section_hover(document, analysis, row)
    sentence = analysis.sentence_of(statement)
    text = sentence or statement_words(statement)
    base = analysis.base_label
    base_config = analysis.base_config() if base and statement.key not in ("ruleset", "source") else None
    if statement.key == "based_on" and analysis.inherited:
        text += f"\n\nThis text inherits {len(analysis.inherited)} rules from {base}."
    elif base_config is not None and statement.key != "based_on":
        before = sentence_for(base_config, statement.key)
        if before and before != sentence:
            text += f"\n\nReplaces {base}'s rule: {before}"
        elif before:
            text += f"\n\nThe same as {base}'s rule."
    line = _lines(document)[row]
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.PlainText, value=text),
                     range=_to_client(document, row, len(line) - len(line.lstrip()), row, len(line.rstrip())))


def _section_hover(document: TextDocument, analysis: Analysis, row: int) -> lsp.Hover | None:
    """On an `on domino:` / `on block:` line: the sentences of the section's statements."""
    section = analysis.section_at(row + 1)
    if section is None:
        return None
    said = [analysis.sentence_of(st) or statement_words(st)
            for st in analysis.statements if st.section == section and not st.misplaced]
    if not said:
        return None
    line = _lines(document)[row]
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.PlainText, value="\n".join(said)),
                     range=_to_client(document, row, len(line) - len(line.lstrip()), row, len(line.rstrip())))


# ---------------------------------------------------------------------------
# Completion
# ---------------------------------------------------------------------------

_KINDS = {"statement": lsp.CompletionItemKind.Snippet, "keyword": lsp.CompletionItemKind.Keyword,
          "ruleset": lsp.CompletionItemKind.Module, "file": lsp.CompletionItemKind.File,
          "value": lsp.CompletionItemKind.Value}


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[" "]))
def completion(ls: LanguageServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    """What may follow the words already on the line (lsp_complete): statements at a line's start, the
    keywords the grammar accepts next, bundled names after `based on`."""
    document = _document(ls, params.text_document.uri)
    items: list[lsp.CompletionItem] = []
    if document is not None:
        row, column = _from_client(document, params.position)
        here = filename_of(document.uri)
        for offer in lsp_complete.offers(_lines(document), row, column, here if os.path.isabs(here) else None):
            edit = lsp.TextEdit(range=_to_client(document, row, offer.start, row, column), new_text=offer.label)
            items.append(lsp.CompletionItem(label=offer.label, kind=_KINDS[offer.kind], detail=offer.detail,
                                            text_edit=edit))
    return lsp.CompletionList(is_incomplete=False, items=items)


# ---------------------------------------------------------------------------
# Code actions
# ---------------------------------------------------------------------------

@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(
    code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.RefactorRewrite]))
def code_action(ls: LanguageServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction] | None:
    """The quick fixes the diagnostics carry, and on the `based on` line "restate this inherited rule here"
    for each rule the text inherits."""
    document = _document(ls, params.text_document.uri)
    if document is None:
        return None
    actions = []
    for diagnostic in params.context.diagnostics:
        data = diagnostic.data if isinstance(diagnostic.data, dict) else {}
        for fix in data.get("fixes") or []:
            actions.append(lsp.CodeAction(title=fix["title"], kind=lsp.CodeActionKind.QuickFix,
                                          diagnostics=[diagnostic], edit=_workspace_edit(document, fix["edits"])))
    analysis = _analysis(document)
    first, _ = _from_client(document, params.range.start)
    last, _ = _from_client(document, params.range.end)
    based = analysis.ruleset.get("based_on") if analysis.ruleset is not None else None
    if based is not None and first <= based.span.line - 1 <= last:
        offered = {action.title for action in actions}
        for text, edit in lsp_actions.restatements(analysis):
            if f"Restate the inherited rule here: `{text}`" in offered:
                continue  # a quick fix of a diagnostic says the same
            actions.append(lsp.CodeAction(title=f"Restate the inherited rule here: `{text}`",
                                          kind=lsp.CodeActionKind.RefactorRewrite,
                                          edit=_workspace_edit(document, [edit])))
    return actions or None


def _workspace_edit(document: TextDocument, edits: list[lsp_actions.Edit]) -> lsp.WorkspaceEdit:
    return lsp.WorkspaceEdit(changes={document.uri: [
        lsp.TextEdit(range=_to_client(document, line, start, end_line, end), new_text=text)
        for line, start, end_line, end, text in edits]})


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: LanguageServer, params: lsp.DefinitionParams) -> lsp.Location | None:
    """On a `based on` line: the base ruleset's file (a bundled one or a path in quotes)."""
    document = _document(ls, params.text_document.uri)
    if document is None:
        return None
    row, _ = _from_client(document, params.position)
    lines = _lines(document)
    match = re.match(r'\s*based\s+on\s+(?:"([^"]+)"|(\S+))', lines[row] if row < len(lines) else "")
    if not match:
        return None
    path = _base_path(match.group(1), match.group(2), filename_of(document.uri))
    if path is None or not os.path.isfile(path):
        return None
    return lsp.Location(uri=Path(path).resolve().as_uri(),
                        range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)))


def _base_path(quoted: str | None, name: str | None, here: str) -> str | None:
    if quoted:
        return os.path.normpath(os.path.join(os.path.dirname(here), quoted))
    if name in bundled_names():
        entry = resources.files("rulelang.rulesets") / os.path.basename(bundled_filename(name))
        return str(entry) if os.path.isfile(str(entry)) else None
    return None


def serve() -> None:
    """Answer an editor on standard input and output until it says exit."""
    if not logging.getLogger().handlers:  # errors (a refused frame) go to standard error, never to the client
        logging.basicConfig(level=logging.ERROR, stream=sys.stderr, format="rulelang lsp: %(message)s")
    try:
        server.start_io(stdin=BoundedInput(sys.stdin.buffer))  # type: ignore[arg-type]
    except BrokenStream as exc:
        logger.error("the input stream is broken: %s; exiting so that the editor starts the server again", exc)
        sys.exit(EXIT_BROKEN)


# The outline, folding, semantic tokens and inlay hints (rulelang/lsp/views.py), added once the server exists;
# they read the same analysis of a document as the diagnostics and the hover.
lsp_views.register(server, _analysis)
