"""`rulelang lsp`'s views, by a client session over stdio: outline, folding, semantic tokens, inlay hints.

The texts hold astral characters (`🂡`, two UTF-16 units), so every position is
checked in the units the server announces (UTF-16).
"""
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
MUGGINS = (ROOT / "rulesets" / "muggins.rules").read_text(encoding="utf-8")
FULL = MUGGINS.replace('ruleset muggins "Muggins"', 'ruleset muggins "🂡 Muggins 🂡"')
CHILD = ('# A club variant of Muggins.\n'
         'ruleset club "🂡🂡 club"\n'
         'source "our club 🂡"\n'
         'based on muggins\n'
         '\n'
         'target at least 40 points with 2 players, 30 with 3 or 4\n'
         '2 shown points to get in\n')
BASE = 'ruleset base "Base"\nsource "a base of our own"\nbased on muggins\n\nhand 6 tiles\nreserve 2 tiles\n'
GRANDCHILD = 'ruleset grandchild "🂡"\nsource "s"\nbased on "base.rules"\n\nno score floor\n'
BROKEN = 'ruleset club "🂡 club"\nsource "s"\nbased on muggins\n\nhand 5 tils\nno reserve\n\non block:\n  as one event\n'


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def at(text: str, row: int, needle: str, after: bool = False) -> lsp.Position:
    """The UTF-16 position of `needle` on a row of `text` (its end with `after`)."""
    line = text.split("\n")[row]
    column = line.index(needle) + (len(needle) if after else 0)
    return lsp.Position(row, utf16(line[:column]))


def row_of(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.split("\n")) if line.startswith(start))


async def _session(tmp_path: Path) -> dict:
    client = LanguageClient("rulelang-test", "1")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    await client.start_io(sys.executable, "-m", "rulelang", "lsp", cwd=str(ROOT), env=env)
    out: dict = {}

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
        """Diagnostics are tests/test_lsp.py's subject."""

    def ask(coroutine):
        return asyncio.wait_for(coroutine, 60)

    try:
        init = await ask(client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=tmp_path.as_uri())))
        out["capabilities"] = init.capabilities
        client.initialized(lsp.InitializedParams())
        docs = {}
        (tmp_path / "base.rules").write_text(BASE, encoding="utf-8")
        for name, text in (("full", FULL), ("child", CHILD), ("broken", BROKEN), ("grandchild", GRANDCHILD)):
            uri = (tmp_path / f"{name}.rules").as_uri()
            client.text_document_did_open(lsp.DidOpenTextDocumentParams(
                lsp.TextDocumentItem(uri=uri, language_id="rulelang", version=1, text=text)))
            docs[name] = lsp.TextDocumentIdentifier(uri=uri)
        for name, doc in docs.items():
            out[f"symbols/{name}"] = await ask(client.text_document_document_symbol_async(
                lsp.DocumentSymbolParams(doc)))
            out[f"folding/{name}"] = await ask(client.text_document_folding_range_async(lsp.FoldingRangeParams(doc)))
            out[f"tokens/{name}"] = await ask(client.text_document_semantic_tokens_full_async(
                lsp.SemanticTokensParams(doc)))
            out[f"hints/{name}"] = await ask(client.text_document_inlay_hint_async(lsp.InlayHintParams(
                doc, lsp.Range(lsp.Position(0, 0), lsp.Position(10_000, 0)))))
        out["hints/child/first-lines"] = await ask(client.text_document_inlay_hint_async(lsp.InlayHintParams(
            docs["child"], lsp.Range(lsp.Position(1, 0), lsp.Position(3, 5)))))
        unopened = lsp.TextDocumentIdentifier(uri=(ROOT / "rulesets" / "muggins.rules").as_uri())
        out["symbols/unopened"] = await ask(client.text_document_document_symbol_async(
            lsp.DocumentSymbolParams(unopened)))
        await ask(client.shutdown_async(None))
        client.exit(None)
    finally:
        await client.stop()
    return out


@pytest.fixture(scope="module")
def session(tmp_path_factory) -> dict:
    return asyncio.run(_session(tmp_path_factory.mktemp("lsp-views")))


def test_server_announces_the_views(session):
    caps = session["capabilities"]
    assert caps.position_encoding in (None, lsp.PositionEncodingKind.Utf16)
    assert caps.document_symbol_provider and caps.folding_range_provider and caps.inlay_hint_provider
    assert caps.semantic_tokens_provider.full
    legend = caps.semantic_tokens_provider.legend
    assert list(legend.token_types) == ["comment", "string", "keyword", "number", "namespace"]
    assert list(legend.token_modifiers) == ["defaultLibrary"]


# -- document symbols -----------------------------------------------------------------------------------

def test_outline_is_the_sections_in_order(session):
    symbols = session["symbols/full"]
    assert [s.name for s in symbols] == ["header", "deal", "opening", "doubles", "scoring", "on domino", "on block"]
    assert symbols[1].detail == "Players and the deal"
    assert all(s.kind == lsp.SymbolKind.Namespace for s in symbols)
    deal = [c.name for c in symbols[1].children]
    assert deal == ["players 2 to 4, no partnerships", "hand 7 tiles with 2 players, 5 with 3, 5 with 4",
                    "no reserve", "draw until playable"]
    assert symbols[1].children[1].detail == "the hand size"


def test_every_section_has_an_outline_name():
    from rulelang.language.statements import GROUPS
    from rulelang.lsp.views import SECTION_NAMES

    assert sorted(GROUPS) == list(range(len(SECTION_NAMES)))


def test_outline_ranges_cover_their_lines_in_utf16(session):
    header = session["symbols/full"][0]
    row = row_of(FULL, "ruleset muggins")
    title = header.children[0]
    assert title.range.start == lsp.Position(row, 0)
    assert title.range.end == at(FULL, row, '"🂡 Muggins 🂡"', after=True)  # code points would say 2 less
    assert title.selection_range.end == title.range.end
    # a section's range runs from its first statement to the end of its last one, comments after it left out
    doubles = session["symbols/full"][3]
    assert doubles.range.start.line == row_of(FULL, "no double branches")
    assert doubles.range.end.line == row_of(FULL, "a terminal double counts both halves")


def test_settlement_sections_start_at_their_header(session):
    on_domino, on_block = session["symbols/full"][5:]
    assert on_domino.range.start == lsp.Position(row_of(FULL, "on domino:"), 0)
    assert on_block.range.start.line == row_of(FULL, "on block:")
    assert on_block.range.end.line == len(FULL.rstrip("\n").split("\n")) - 1
    assert [c.name for c in on_block.children][0] == "winner: the lightest hand, ties not broken"
    assert on_domino.children[0].range.start.character == 2  # indented lines keep their column


def test_outline_of_a_text_with_errors_and_an_unopened_file(session):
    names = [s.name for s in session["symbols/broken"]]
    assert names == ["header", "deal", "on block"]  # the statements that read, around the unread `tils` line
    assert [c.name for c in session["symbols/broken"][1].children] == ["no reserve"]
    assert session["symbols/unopened"] is None  # a file the client did not open is not read from disk


# -- folding ----------------------------------------------------------------------------------------------

def test_folding_per_section_and_comment_block(session):
    ranges = {(r.start_line, r.end_line, r.kind) for r in session["folding/full"]}
    region, comment = lsp.FoldingRangeKind.Region, lsp.FoldingRangeKind.Comment
    assert (row_of(FULL, "players"), row_of(FULL, "draw until"), region) in ranges
    last = len(FULL.rstrip("\n").split("\n")) - 1
    assert (row_of(FULL, "on block:"), last, region) in ranges
    assert (0, 4, comment) in ranges  # the five comment lines at the top
    starts = [r.start_line for r in session["folding/full"]]
    assert starts == sorted(starts)
    # a one-line section or comment does not fold
    assert all(r.end_line > r.start_line for r in session["folding/full"])
    assert not any(r.kind == comment for r in session["folding/child"])


# -- semantic tokens ----------------------------------------------------------------------------------------

def _decode(data: list[int], legend_types: list[str], text: str) -> list[tuple[int, str, str, int]]:
    """(row, token text, type, modifiers) of each token, its text cut from the line in UTF-16 units."""
    out, row, start = [], 0, 0
    lines = text.split("\n")
    for i in range(0, len(data), 5):
        d_row, d_start, length, token_type, modifiers = data[i:i + 5]
        row += d_row
        start = start + d_start if d_row == 0 else d_start
        units = lines[row].encode("utf-16-le")
        out.append((row, units[2 * start:2 * (start + length)].decode("utf-16-le"), legend_types[token_type],
                    modifiers))
    return out


def test_semantic_tokens_in_utf16(session):
    types = session["capabilities"].semantic_tokens_provider.legend.token_types
    tokens = _decode(session["tokens/child"].data, types, CHILD)
    assert tokens[0] == (0, "# A club variant of Muggins.", "comment", 0)
    assert tokens[1:4] == [(1, "ruleset", "keyword", 0), (1, "club", "namespace", 0),
                           (1, '"🂡🂡 club"', "string", 0)]
    assert (2, '"our club 🂡"', "string", 0) in tokens
    assert (3, "muggins", "namespace", 1) in tokens  # a bundled variant: defaultLibrary
    assert [t[1:3] for t in tokens if t[0] == 5][:4] == [("target", "keyword"), ("at", "keyword"),
                                                          ("least", "keyword"), ("40", "number")]
    assert "," not in {t[1] for t in tokens}  # punctuation has no semantic type: left to the theme


def test_semantic_tokens_match_the_highlighting_lexer():
    """Every bundled ruleset: the tokens are the Pygments lexer's (the TextMate grammar's twin) class for class."""
    from pygments.token import Comment, Keyword, Name, Number, String

    from rulelang.highlight.lexer import RulesetLexer
    from rulelang.lsp.views import TOKEN_TYPES, line_tokens

    classes = {Comment: "comment", String: "string", Keyword: "keyword", Number: "number", Name: "namespace"}

    def kind(token_type):
        return next((name for cls, name in classes.items() if token_type in cls), None)

    for path in sorted((ROOT / "rulesets").glob("*.rules")):
        for line in path.read_text(encoding="utf-8").split("\n"):
            ours = [(line[a:b], TOKEN_TYPES[t]) for a, b, t in line_tokens(line)]
            theirs = [(value, kind(t)) for t, value in RulesetLexer().get_tokens(line) if kind(t)]
            assert ours == theirs, (path.name, line)


def test_every_textmate_scope_has_a_token_type_or_is_punctuation():
    from rulelang.highlight.generate import textmate_grammar
    from rulelang.lsp.views import SCOPE_TYPES

    for pattern in textmate_grammar(["a"])["patterns"]:
        name = pattern["name"]
        assert name.startswith("punctuation.") or any(name.startswith(s + ".") for s, _ in SCOPE_TYPES), name


# -- inlay hints ------------------------------------------------------------------------------------------

def _labels(hints) -> dict[tuple[int, int], str]:
    return {(h.position.line, h.position.character): h.label for h in hints}


def test_raw_value_of_a_shown_amount(session):
    labels = _labels(session["hints/full"])
    row = row_of(FULL, "target at least 61 shown points")
    assert labels[(row, len("target at least 61 shown points"))] == "= 305 raw"
    child = _labels(session["hints/child"])
    row = row_of(CHILD, "target")
    assert child[(row, len("target at least 40 points"))] == "= 200 raw"  # the unit 5 comes from muggins
    assert child[(row, len("target at least 40 points with 2 players, 30"))] == "= 150 raw"
    assert child[(row_of(CHILD, "2 shown points"), len("2 shown points"))] == "= 10 raw"
    tooltip = next(h for h in session["hints/full"] if h.label == "= 305 raw").tooltip.value
    assert "61 shown points × 5 raw points" in tooltip


def test_hand_and_boneyard_per_player_count(session):
    row = row_of(FULL, "hand 7 tiles")
    label = _labels(session["hints/full"])[(row, len(FULL.split("\n")[row]))]
    assert label == "with 2/3/4 players: hand 7/5/5, boneyard 14/13/8"
    tooltip = next(h for h in session["hints/full"] if h.label == label).tooltip.value
    assert "- 3 players: 5 tiles each, 13 in the boneyard" in tooltip and "set of 28 tiles" in tooltip


def test_inherited_hand_is_told_on_the_header_in_utf16(session):
    hints = session["hints/child"]
    row = row_of(CHILD, "ruleset club")
    end = at(CHILD, row, '"🂡🂡 club"', after=True)
    assert end.character == len(CHILD.split("\n")[row]) + 2  # two astral characters: two more UTF-16 units
    hint = next(h for h in hints if h.position == end)
    assert hint.label == "with 2/3/4 players: hand 7/5/5, boneyard 14/13/8"
    assert "inherited" in hint.tooltip.value


def test_based_on_line_tells_what_is_inherited_and_from_where(session):
    row = row_of(CHILD, "based on muggins")
    hint = next(h for h in session["hints/child"] if h.position.line == row)
    assert hint.position.character == len("based on muggins")
    assert hint.label == "inherits deal, opening, doubles, scoring, on domino, on block from muggins"
    assert "Each player is dealt 7 tiles with 2 players" in hint.tooltip.value
    assert "(`muggins`)" in hint.tooltip.value and "**Players and the deal**" in hint.tooltip.value


def test_a_chain_of_bases_names_each_rule_s_file(session):
    hints = session["hints/grandchild"]
    based = next(h for h in hints if h.position.line == row_of(GRANDCHILD, "based on"))
    assert based.label.endswith(" from base.rules, muggins")
    assert "(`base.rules`)" in based.tooltip.value and "(`muggins`)" in based.tooltip.value
    header = next(h for h in hints if h.position.line == 0)
    assert header.position.character == utf16('ruleset grandchild "🂡"')
    assert header.label == "with 2/3/4 players: hand 6, boneyard 16/10/4, drawable 14/8/2"
    assert "the last 2 never drawn" in header.tooltip.value


def test_hints_keep_to_the_range_asked_and_need_a_valid_text(session):
    rows = {h.position.line for h in session["hints/child/first-lines"]}
    assert rows == {row_of(CHILD, "ruleset club")}  # the `based on` line's hint is at its end, past (3, 5)
    assert list(session["hints/broken"]) == []
    assert session["tokens/broken"].data  # tokens need no valid text
