"""The language server's views of a ruleset: outline, folding, semantic tokens and inlay hints.

`register(server)` adds the features to `rulelang.lsp.server`'s server (it calls it once
it is built, so this module never imports the server). Each feature reads the
open document's text: the outline and folding follow the ruleset's sections
(the statement table's groups, `explain`'s headings), the semantic tokens are the
TextMate grammar's own patterns (rulelang/highlight), so an editor without that
grammar colours the text the same way, and the inlay hints state what an author
would otherwise work out: a shown amount's raw value, the hand and boneyard per
player count, and what a `based on` file inherits. Every position sent is in the
client's units (UTF-16 unless it chose otherwise), through pygls' position codec.
"""
from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import PositionCodec, TextDocument

from rulelang.base.foreign import foreign_format
from rulelang.base.jsontypes import ConfigJSON
from rulelang.config.vocabulary import SET_TILES
from rulelang.highlight.generate import textmate_grammar
from rulelang.language.analysis import Analysis
from rulelang.language.ast import Statement
from rulelang.language.bundled import bundled_filename, bundled_names
from rulelang.language.explain import sentence_for
from rulelang.language.statements import GROUPS, INFO, TABLE

__all__ = ["register", "line_tokens", "TOKEN_TYPES", "TOKEN_MODIFIERS", "SECTION_NAMES"]

# The outline's name of each section (the statement table's groups, by number); `explain`'s heading is its detail.
SECTION_NAMES = ("header", "deal", "opening", "doubles", "scoring", "on domino", "on block")

# Semantic token types by the TextMate scope they stand for (the first part of the scope that matches).
# Punctuation (`punctuation.separator`) has no semantic type and most themes leave it plain: it is not sent.
SCOPE_TYPES = (("comment", "comment"), ("string", "string"), ("keyword", "keyword"),
               ("constant.numeric", "number"), ("entity.name", "namespace"))
TOKEN_TYPES = [token_type for _scope, token_type in SCOPE_TYPES]
TOKEN_MODIFIERS = ["defaultLibrary"]  # a bundled variant's name (`based on allfives`)
LEGEND = lsp.SemanticTokensLegend(token_types=TOKEN_TYPES, token_modifiers=TOKEN_MODIFIERS)


AnalysisOf = Callable[[TextDocument], Analysis]
_analysis_of: list[AnalysisOf] = []  # the server's analysis of an open document (`register` sets it)


def register(server: LanguageServer, analysis_of: AnalysisOf) -> None:
    """Add the outline, folding, semantic tokens and inlay hints to a server; ANALYSIS_OF gives the analysis of
    an open document that the server keeps (the one its diagnostics and hover read)."""
    _analysis_of[:] = [analysis_of]
    server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(document_symbols)
    server.feature(lsp.TEXT_DOCUMENT_FOLDING_RANGE)(folding_ranges)
    server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)(semantic_tokens)
    server.feature(lsp.TEXT_DOCUMENT_INLAY_HINT, lsp.InlayHintOptions(resolve_provider=False))(inlay_hints)


# -- the open document ------------------------------------------------------------------------------------

@dataclass(slots=True)
class _Doc:
    """An open document's lines (without line ends), its file name and the client's position units."""

    lines: list[str]
    filename: str
    codec: PositionCodec
    document: TextDocument

    def position(self, row: int, column: int) -> lsp.Position:
        """A 0-based row and code-point column in the client's units."""
        line = self.lines[row] if row < len(self.lines) else ""
        return lsp.Position(row, self.codec.client_num_units(line[:column]))

    def line_end(self, row: int) -> lsp.Position:
        """The end of a row's text, trailing blanks left out."""
        return self.position(row, len(self.lines[row].rstrip()))


def _open(ls: LanguageServer, uri: str) -> _Doc | None:
    """The open document of a URI, or None: a file the client has not opened is not read from disk, and one
    that is plainly another format (rulelang/base/foreign.py) is left alone."""
    if unquote(uri) not in ls.workspace.text_documents:
        return None
    document: TextDocument = ls.workspace.get_text_document(uri)
    if foreign_format(document.source) is not None:
        return None  # udev, polkit or Snort rules: no outline, folding, colours or hints of a ruleset
    lines = [line.removesuffix("\r") for line in document.source.split("\n")]
    return _Doc(lines, to_fs_path(uri) or uri, document.position_codec, document)


def _is_blank_or_comment(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _last_row(doc: _Doc, st: StatementView) -> int:
    """The 0-based row of a statement's last line of its own (its span runs over the blanks and comments after it)."""
    end = st.end_line - 1 if st.end_column == 1 and st.end_line > st.line else st.end_line
    row = min(end, len(doc.lines)) - 1
    while row > st.line - 1 and _is_blank_or_comment(doc.lines[row]):
        row -= 1
    return row


# -- the statements an editor shows ----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class StatementView:
    """One statement as an editor shows it: what it is, its section and where it is written (1-based)."""

    key: str
    words: str  # what it is called: "the hand size"
    group: int  # its section (`GROUPS`)
    line: int
    column: int
    end_line: int  # its span runs to the next statement (end exclusive)
    end_column: int
    filename: str | None  # the file that writes it (an inherited rule's base)


@dataclass(frozen=True, slots=True)
class Views:
    """A text's statements and settlement headers, and the rules it inherits (once it compiles)."""

    statements: list[StatementView]  # written here, in text order
    headers: list[tuple[int, int]]  # (group, 1-based line) of each `on domino:` / `on block:`
    inherited: list[StatementView]  # in force but written in a base (empty unless the text compiles)
    config: ConfigJSON | None


def _view(st: Statement) -> StatementView:
    info, s = INFO[st.key], st.span
    return StatementView(st.key, info.words, info.group, s.line, s.column, s.end_line, s.end_column, st.filename)


def _views(doc: _Doc) -> Views:
    """What the outline, folding ranges and inlay hints show of a text (with or without errors): the statements
    the parser read (none when it gave up), and those a valid text inherits."""
    analysis = _analysis_of[0](doc.document)
    parsed = analysis.parsed
    own = [_view(st) for st in parsed.statements] if parsed is not None else []
    group_of = {st.section: st.group for st in TABLE if st.section}
    headers = [(group_of[name], span.line) for name, span in parsed.sections] if parsed is not None else []
    inherited = []
    if analysis.config is not None and analysis.inherited:
        inherited = [_view(st) for st in analysis.in_force if st.key in analysis.inherited]
    return Views(own, headers, inherited, analysis.config)


# -- outline and folding ----------------------------------------------------------------------------------

@dataclass(slots=True)
class _Section:
    """A run of statements of one section, from its `on domino:` / `on block:` header if it has one."""

    group: int
    first_row: int
    last_row: int
    statements: list[StatementView]


def _sections(doc: _Doc, views: Views) -> list[_Section]:
    """The text's sections in text order: each run of consecutive statements of one group."""
    runs: list[_Section] = []
    for st in sorted(views.statements, key=lambda s: (s.line, s.column)):
        if runs and runs[-1].group == st.group:
            runs[-1].statements.append(st)
            runs[-1].last_row = max(runs[-1].last_row, _last_row(doc, st))
        else:
            runs.append(_Section(st.group, st.line - 1, _last_row(doc, st), [st]))
    previous_end = -1
    for run in runs:  # a settlement section starts at its header, if one is between it and the section before
        above = [line - 1 for group, line in views.headers
                 if group == run.group and previous_end < line - 1 < run.first_row]
        run.first_row = max(above, default=run.first_row)
        previous_end = run.last_row
    return runs


def document_symbols(ls: LanguageServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol] | None:
    """The ruleset's sections (header, deal, opening, doubles, scoring, on domino, on block) and their statements."""
    doc = _open(ls, params.text_document.uri)
    if doc is None:
        return None
    views = _views(doc)
    titles = GROUPS  # each section's heading (`explain`'s), by group number
    symbols = []
    for run in _sections(doc, views):
        children = []
        for st in run.statements:
            row, last = st.line - 1, _last_row(doc, st)
            start = doc.position(row, st.column - 1)
            first_line = lsp.Range(start, doc.line_end(row))
            children.append(lsp.DocumentSymbol(
                name=doc.lines[row].strip() or st.words, detail=st.words, kind=lsp.SymbolKind.Property,
                range=lsp.Range(start, doc.line_end(last)), selection_range=first_line))
        head_line = doc.lines[run.first_row]
        head = doc.position(run.first_row, len(head_line) - len(head_line.lstrip()))  # after the indent
        symbols.append(lsp.DocumentSymbol(
            name=SECTION_NAMES[run.group], detail=titles.get(run.group, ""), kind=lsp.SymbolKind.Namespace,
            range=lsp.Range(head, doc.line_end(run.last_row)),
            selection_range=lsp.Range(head, doc.line_end(run.first_row)), children=children))
    return symbols


def folding_ranges(ls: LanguageServer, params: lsp.FoldingRangeParams) -> list[lsp.FoldingRange] | None:
    """One range per section of more than one line, and one per block of two or more comment lines."""
    doc = _open(ls, params.text_document.uri)
    if doc is None:
        return None
    views = _views(doc)
    ranges = [lsp.FoldingRange(start_line=run.first_row, end_line=run.last_row, kind=lsp.FoldingRangeKind.Region)
              for run in _sections(doc, views) if run.last_row > run.first_row]
    ranges += [lsp.FoldingRange(start_line=first, end_line=last, kind=lsp.FoldingRangeKind.Comment)
               for first, last in _comment_blocks(doc.lines) if last > first]
    return sorted(ranges, key=lambda r: (r.start_line, r.end_line))


def _comment_blocks(lines: list[str]) -> Iterator[tuple[int, int]]:
    """(first row, last row) of each run of lines that are comments only."""
    first = None
    for row, line in enumerate(lines + [""]):
        if line.lstrip().startswith("#"):
            first = row if first is None else first
        elif first is not None:
            yield first, row - 1
            first = None


# -- semantic tokens ----------------------------------------------------------------------------------------

@cache
def _token_pattern() -> tuple[re.Pattern[str], tuple[int | None, ...]]:
    """The TextMate grammar's patterns as one alternation, and the token type of each.

    An alternation found with `finditer` takes the leftmost match and, at one
    place, the first pattern that matches: the order a TextMate engine applies
    a grammar's single-line `match` patterns in, so the tokens are its scopes.
    """
    keywords = json.loads(resources.files("rulelang.highlight").joinpath("keywords.json")
                          .read_text(encoding="utf-8"))["keywords"]
    patterns = textmate_grammar(keywords)["patterns"]
    types = tuple(next((i for i, (scope, _t) in enumerate(SCOPE_TYPES) if p["name"].startswith(scope + ".")), None)
                  for p in patterns)
    return re.compile("|".join(f"(?P<p{i}>{p['match']})" for i, p in enumerate(patterns))), types


def semantic_tokens(ls: LanguageServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens | None:
    """The whole document's tokens: keywords, numbers, strings, comments and names (bundled ones marked)."""
    doc = _open(ls, params.text_document.uri)
    if doc is None:
        return None
    bundled = set(bundled_names())
    data: list[int] = []
    last_row = last_start = 0
    for row, line in enumerate(doc.lines):
        for begin, end, token_type in line_tokens(line):
            start = doc.codec.client_num_units(line[:begin])
            length = doc.codec.client_num_units(line[begin:end])
            modifiers = 1 if TOKEN_TYPES[token_type] == "namespace" and line[begin:end] in bundled else 0
            data += [row - last_row, start - last_start if row == last_row else start, length, token_type, modifiers]
            last_row, last_start = row, start
    return lsp.SemanticTokens(data=data)


def line_tokens(line: str) -> Iterator[tuple[int, int, int]]:
    """(start, end, index in TOKEN_TYPES) of each token of one line, in code points."""
    pattern, types = _token_pattern()
    for match in pattern.finditer(line):
        token_type = types[int(str(match.lastgroup)[1:])]
        if token_type is not None:
            yield match.start(), match.end(), token_type


# -- inlay hints --------------------------------------------------------------------------------------------

_SHOWN_AMOUNT = re.compile(r"(?<![\w'-])(\d+)\s+(?:shown\s+)?points(?![\w'-])")  # `61 shown points`, `100 points`
_LATER_AMOUNT = re.compile(r",\s*(\d+)(?=\s+with(?![\w'-]))")  # `, 150 with 3 or 4` of a target per player count


def inlay_hints(ls: LanguageServer, params: lsp.InlayHintParams) -> list[lsp.InlayHint] | None:
    """A shown amount's raw value, the hand and boneyard per player count, and what a `based on` file inherits."""
    doc = _open(ls, params.text_document.uri)
    if doc is None:
        return None
    views = _views(doc)
    if views.config is None:
        return []
    hints = [*_raw_amounts(doc, views), *_deal(doc, views), *_inheritance(doc, views)]
    start, end = params.range.start, params.range.end
    return [h for h in hints
            if (start.line, start.character) <= (h.position.line, h.position.character) <= (end.line, end.character)]


def _hint(position: lsp.Position, label: str, tooltip: str) -> lsp.InlayHint:
    return lsp.InlayHint(position=position, label=label, padding_left=True,
                         tooltip=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=tooltip))


def _raw_amounts(doc: _Doc, views: Views) -> Iterator[lsp.InlayHint]:
    """`= 305 raw` after `61 shown points` (and `points`, which are shown points too) while the unit is above 1."""
    unit = views.config["scoring"]["unit"] if views.config else 1
    if unit <= 1:
        return
    why = f"{{n}} shown points × {unit} raw points per shown point (`{unit} raw points make 1 shown point`)"
    for st in views.statements:
        if st.key not in ("target", "entry"):
            continue
        for row in range(st.line - 1, _last_row(doc, st) + 1):
            text = doc.lines[row].split("#", 1)[0]
            head = _SHOWN_AMOUNT.search(text)
            if head is None:
                continue
            amounts = [(head.group(1), head.end())] + [(m.group(1), m.end()) for m in _LATER_AMOUNT.finditer(text)]
            for number, end in amounts:
                n = int(number)
                yield _hint(doc.position(row, end), f"= {n * unit} raw", why.format(n=n))


def _deal(doc: _Doc, views: Views) -> Iterator[lsp.InlayHint]:
    """The hand and the boneyard per player count: on the hand statement, or on the header when it is inherited.

    The label is short (`with 2/3/4 players: hand 7/5/5, boneyard 14/13/8`); the tooltip says it count by count.
    """
    config = views.config or {}
    tiles = SET_TILES[config.get("tiles", 6)]
    counts = list(config["players"]["counts"])
    hands = [config["hand_size"][str(n)] for n in counts]
    kept = [config["reserve"].get(str(n), 0) for n in counts]
    boneyards = [tiles - n * hand for n, hand in zip(counts, hands)]
    at = next((st for st in views.statements if st.key == "hand"), None)
    where = "" if at is not None else " (the hand size is inherited)"
    at = at or next((st for st in views.statements if st.key == "ruleset"), None)
    if at is None or not counts:
        return

    def each(values: list[int]) -> str:  # one value when every count has it
        return str(values[0]) if len(set(values)) == 1 else "/".join(map(str, values))

    label = f"with {each(counts)} players: hand {each(hands)}, boneyard {each(boneyards)}"
    if any(kept):
        label += f", drawable {each([b - k for b, k in zip(boneyards, kept)])}"
    rows = [f"- {n} players: {hand} tiles each, {b} in the boneyard" + (f", the last {k} never drawn" if k else "")
            for n, hand, b, k in zip(counts, hands, boneyards, kept)]
    yield _hint(doc.line_end(_last_row(doc, at)), label,
                f"Dealt from a set of {tiles} tiles{where}:\n\n" + "\n".join(rows))


def _origin(filename: str | None, here: str) -> str:
    """How a hint names the file an inherited rule is written in: a bundled variant's name, else its path."""
    if not filename:
        return "the base"
    stem = os.path.basename(filename).removesuffix(".rules")
    if stem in bundled_names() and filename == bundled_filename(stem):
        return stem
    directory = os.path.dirname(here) if os.path.isabs(here) else os.getcwd()
    return os.path.relpath(filename, directory) if os.path.isabs(filename) else filename


def _inheritance(doc: _Doc, views: Views) -> Iterator[lsp.InlayHint]:
    """On the `based on` line: the sections it inherits rules in and where they come from, each rule in the tooltip."""
    based = next((st for st in views.statements if st.key == "based_on"), None)
    if based is None or not views.inherited or views.config is None:
        return
    titles = GROUPS  # each section's heading (`explain`'s), by group number
    origins = list(dict.fromkeys(_origin(st.filename, doc.filename) for st in views.inherited))
    groups = sorted({st.group for st in views.inherited})
    label = f"inherits {', '.join(SECTION_NAMES[g] for g in groups)} from {', '.join(origins)}"
    lines = [f"{len(views.inherited)} rules are inherited, not written here:"]
    for g in groups:
        lines += ["", f"**{titles.get(g, SECTION_NAMES[g])}**"]
        for st in (s for s in views.inherited if s.group == g):
            sentence = sentence_for(views.config, st.key) or st.words
            lines.append(f"- {sentence} (`{_origin(st.filename, doc.filename)}`)")
    yield _hint(doc.line_end(_last_row(doc, based)), label, "\n".join(lines))
