"""Text -> `Ruleset`: the grammar (ruleset.lark), one transformer, syntax errors.

Syntax errors are collected, not just the first: after an error the offending
line is blanked (and, for a section header, the section's indented lines) and
the text is parsed again, so one run reports every broken line.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING, Any

from rulelang import fastparser
from rulelang.ast import Ruleset, Span, Statement
from rulelang.errors import RulesetError, RulesetFileError, RulesetSyntaxError
from rulelang.fastparser import Token
from rulelang.limits import MAX_DIGITS, MAX_NUMBER, text_error
from rulelang.statements import PHRASES, Phrase, Words, for_rule

# lark is imported only when a text is parsed by lark: a text with an error (lark's
# exceptions say what is wrong), or any text when the generated tables are stale
# (rulelang/fastparser.py); a valid text is parsed without it.
if TYPE_CHECKING:
    from lark import Lark, Tree
    from lark import Token as LarkToken
    from lark.exceptions import UnexpectedInput

__all__ = ["grammar", "parse", "TERMINAL_WORDS", "describe_terminal", "keywords"]

GRAMMAR_FILE = "ruleset.lark"
MAX_SYNTAX_ERRORS = 20
PARSE_BUDGET = 300_000
SETTLEMENT_WORDS = ("credit", "debit", "winner", "as", "one", "nobody", "bonus")


# A keyword, a name or a number ends at a word boundary: `floors` is not `floor` + `s`,
# `5tiles` is not `5` + `tiles`. The grammar file spells keywords as plain strings (easy
# to read); they are turned into patterns with that boundary when the grammar is loaded.
_BOUNDARY = r"(?![a-z0-9'\-])"
_KEYWORD_LINE = re.compile(r'^([A-Z][A-Z_]*): "([a-z\']+)"$', re.M)


@cache
def _grammar_source() -> tuple[str, dict[str, str]]:
    """The grammar text with bounded keywords, and terminal name -> keyword."""
    from importlib import resources

    text = (resources.files("rulelang") / GRAMMAR_FILE).read_text(encoding="utf-8")
    keywords = {m.group(1): m.group(2) for m in _KEYWORD_LINE.finditer(text)}
    text = _KEYWORD_LINE.sub(lambda m: f"{m.group(1)}: /{re.escape(m.group(2))}{_BOUNDARY}/", text)
    text = text.replace("NUMBER: /[0-9]+/", f"NUMBER: /[0-9]+{_BOUNDARY}/")
    text = text.replace("SIGNED_NUMBER: /[-+]?[0-9]+/", f"SIGNED_NUMBER: /[-+]?[0-9]+{_BOUNDARY}/")
    return text, keywords


@cache
def grammar() -> Lark:
    """The LALR parser, built once per process (and cached on disk, rulelang/parser_cache.py)."""
    from rulelang.parser_cache import cached_lark

    text, _ = _grammar_source()
    return cached_lark(text, **grammar_options())


def grammar_options() -> dict[str, Any]:
    """lark's options for the grammar (the generated tables, rulelang/parser_generate.py, use the same)."""
    return {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": False}


# Plain words for the terminals that are not a single keyword. Keywords
# (terminals whose pattern is a plain word) are shown as `word`.
TERMINAL_WORDS: dict[str, str] = {
    "NAME": "a name like `allfives`",
    "STRING": 'a quoted text like "Five Up"',
    "NUMBER": "a number",
    "SIGNED_NUMBER": "a number",
    "COMMA": "a comma",
    "COLON": "a colon",
    "SEMICOLON": "a semicolon",
    "_NL": "the end of the line",
    "$END": "the end of the file",
    "COMMENT": "a comment",
    "WS": "a space",
    "SEAT_ZERO": "`seat 0`",  # family tier B: a fixed opening seat
}


def _keyword_terminals() -> dict[str, str]:
    """Terminal name -> keyword text, for every keyword terminal of the grammar."""
    return _grammar_source()[1]


@cache
def _statement_starts() -> frozenset[str]:
    """The terminals that can start a statement (what the parser accepts at the start of a text)."""
    interactive: Any = grammar().parse_interactive("")  # lark leaves `accepts` untyped
    return frozenset(interactive.accepts()) - {"_NL", "$END"}


@cache
def _keyword_set() -> frozenset[str]:
    return frozenset(_keyword_terminals().values())


def keywords() -> list[str]:
    """Every keyword of the language."""
    return sorted(_keyword_terminals().values())


def describe_terminal(name: str) -> str:
    """Plain words for a terminal name: `players`, a number, the end of the line..."""
    if name in TERMINAL_WORDS:
        return TERMINAL_WORDS[name]
    kw = _keyword_terminals().get(name)
    if kw is not None:
        return f"`{kw}`"
    return "something else"  # never a raw terminal name


def _describe_expected(names: Iterable[str]) -> str:
    words = sorted({describe_terminal(n) for n in names}, key=lambda w: (not w.startswith("`"), w))
    if not words:
        return "something else"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'\-]*")


def _word_at(line_text: str, col0: int) -> tuple[int, str]:
    """The word containing 0-based column `col0` (start column, word), or ('', col0)."""
    start = col0
    while start > 0 and (line_text[start - 1].isalnum() or line_text[start - 1] in "'-"):
        start -= 1
    m = _WORD.match(line_text, start)
    if m and m.end() > col0:
        return start, m.group(0)
    return col0, ""


def _suggest(word: str, expected: Iterable[str]) -> str | None:
    """`did you mean ...` for a misspelt keyword among the expected terminals."""
    kws = [_keyword_terminals()[n] for n in expected if n in _keyword_terminals()]
    import difflib

    match = difflib.get_close_matches(word.lower(), kws, n=1, cutoff=0.6)
    return match[0] if match else None


def _syntax_error(exc: UnexpectedInput, text: str, lines: list[str], filename: str) -> RulesetSyntaxError:
    """Turn a lark exception into a RulesetSyntaxError in plain words."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    from rulelang.outside import closest, known_outside, pointer  # only for an error: it costs start-up time

    line = getattr(exc, "line", None) or 1
    column = getattr(exc, "column", None) or 1
    if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
        line = len(lines)
        column = len(lines[-1]) + 1 if lines else 1
    if line < 1 or line > len(lines):
        line = max(1, min(line, len(lines)))
    src = lines[line - 1] if lines else ""
    expected: set[str] = set(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())
    expected.discard("COMMENT")
    expected.discard("WS")
    hint_expected = f"expected {_describe_expected(expected)}"
    at_start = _statement_starts() <= expected
    if at_start:
        hint_expected = ("expected the start of a statement, such as `players ...`, `hand ...`, `target ...` "
                         "or `on block:` (see docs/language.md)")

    def outside_section(word: str) -> str | None:
        if word in SETTLEMENT_WORDS and at_start and "CREDIT" not in expected:
            return f"a `{word}` line belongs under `on domino:` or `on block:`"
        return None

    def err(code: str, message: str, col: int, end: int, hint: str) -> RulesetSyntaxError:
        return RulesetSyntaxError(code, message, filename=filename, line=line, column=col,
                                  end_column=end, source_line=src, hint=hint)

    # issue 9: a rule the language cannot state. A known rule of the family: said so, with the closest
    # statement. A line that starts like a statement and goes on otherwise: the closest statement too.
    indent = len(src) - len(src.lstrip())
    known = known_outside(src)
    if known is not None:
        return err("outside-language", f"this rule is outside the language: {known.rule}", indent + 1,
                   len(src.rstrip()) + 1, f"{known.source} describes it; {pointer(known.closest)}")
    values = {"NUMBER", "SIGNED_NUMBER", "STRING", "NAME"}

    def goes_on(start: int, message: str) -> tuple[str, str] | None:
        """Message and hint for a line that starts like a statement but goes on in a way none does."""
        if start <= indent or at_start:
            return None
        if "_NL" in expected:
            return (f"{message}: the statement is complete before it, and the language cannot state what "
                    "follows", pointer(closest(src)))
        if expected & values or expected <= {"COMMA", "COLON"}:
            return None  # a value or punctuation was expected: a slip of the pen, not another rule
        return f"{message}: no statement of the language goes on like this", f"{hint_expected}; {pointer(closest(src))}"

    def word_error(start: int, word: str) -> RulesetSyntaxError:
        # the code follows from the grammar: a keyword of the language out of place, or a word it does
        # not know; similarity only suggests the nearest expected keyword in the hint
        code = "unexpected-token" if word in _keyword_set() else "unexpected-word"
        guess = _suggest(word, expected)
        message = f"unexpected word `{word}`"
        if guess and guess != word or outside_section(word):
            hint = outside_section(word) or f"did you mean `{guess}`?"
        else:
            message, hint = goes_on(start, message) or (message, hint_expected)
        return err(code, message, start + 1, start + 1 + len(word), hint)

    if isinstance(exc, UnexpectedCharacters):
        start, word = _word_at(src, column - 1)
        if word:
            return word_error(start, word)
        run = re.match(r"[0-9][A-Za-z0-9'\-]*[A-Za-z][A-Za-z0-9'\-]*", src[column - 1:])
        if run:  # a number run into a word, like `5tiles`
            return err("unexpected-word", f"unexpected word `{run.group(0)}`", column, column + run.end(),
                       "put a space between a number and a word")
        char = src[column - 1] if column - 1 < len(src) else ""
        shown = f"`{char}`" if char.strip() else "character"
        return err("unexpected-character", f"unexpected character {shown}", column, column + 1, hint_expected)

    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type in ("_NL", "$END"):
            where = len(src.rstrip()) + 1 if tok.type == "$END" else column
            return err("incomplete-statement", "the statement ends too early", where, where + 1, hint_expected)
        start, word = (column - 1, str(tok))
        if tok.type in _keyword_terminals() or tok.type == "NAME":
            wstart, whole = _word_at(src, column - 1)
            if whole:
                start, word = wstart, whole
            return word_error(start, word)
        what = {"NUMBER": "number", "SIGNED_NUMBER": "number", "STRING": "text"}.get(tok.type, "")
        shown = f"{what} `{tok}`".strip() if what else f"`{tok}`"
        message, hint = (goes_on(column - 1, f"unexpected {shown}") if "_NL" in expected else None) or (
            f"unexpected {shown}", hint_expected)
        return err("unexpected-token", message, column, column + len(str(tok)), hint)

    if isinstance(exc, UnexpectedEOF):  # pragma: no cover - the LALR parser reports $END as a token
        return err("incomplete-statement", "the file ends too early", column, column + 1, hint_expected)
    return err("unexpected-token", "the text cannot be read here", column, column + 1, hint_expected)  # pragma: no cover


def _blank(lines: list[str], index: int) -> None:
    """Blank line `index` (0-based); for a section header, its indented lines too."""
    header = lines[index].strip().startswith("on ")
    lines[index] = ""
    if header:
        j = index + 1
        while j < len(lines) and (lines[j][:1] in (" ", "\t") or not lines[j].strip()):
            lines[j] = ""
            j += 1


def _number_errors(tree: Tree[LarkToken], lines: list[str], filename: str) -> list[RulesetError]:
    """Numbers out of range, checked at the token: before any value is built from them."""
    from lark import Token as LarkToken

    out: list[RulesetError] = []
    for tok in tree.scan_values(lambda v: isinstance(v, LarkToken) and v.type in ("NUMBER", "SIGNED_NUMBER")):
        digits = tok.lstrip("+-").lstrip("0")
        if len(digits) <= MAX_DIGITS and int(digits or "0") <= MAX_NUMBER:
            continue
        shown = f"`{tok}`" if len(tok) <= 12 else f"of {len(digits):,} digits"
        line = tok.line or 1
        out.append(RulesetSyntaxError(
            "number-too-large", f"the number {shown} is too large: numbers in a ruleset are at most {MAX_NUMBER:,}",
            filename=filename, line=line, column=tok.column, end_column=(tok.end_column or 1),
            source_line=lines[line - 1] if line <= len(lines) else "", hint="write a smaller number"))
    return out


def parse_tree(text: str, filename: str = "<string>") -> tuple[Tree[LarkToken] | None, list[RulesetError]]:
    """Parse with lark, blanking broken lines to go on; returns the tree of what is left and the errors."""
    from lark.exceptions import UnexpectedInput

    limit = text_error(text, filename)
    if limit is not None:
        return None, [limit]
    if text.startswith("\ufeff"):  # a byte-order mark left by some editors
        text = " " + text[1:]
    original = text.split("\n")
    work = list(original)
    errors: list[RulesetError] = []
    seen: set[int] = set()
    budget = PARSE_BUDGET  # characters parsed in all: each error costs one more parse of the text
    while True:
        candidate = "\n".join(work)
        if not candidate.endswith("\n"):
            candidate += "\n"
        if errors and budget < len(candidate):
            line = errors[-1].line or 1
            return None, errors + [RulesetFileError(
                "too-many-errors", f"and maybe more syntax errors after line {line} (not looked for)",
                filename=filename, hint="only the first syntax errors of a long text are looked for")]
        budget -= len(candidate)
        try:
            tree = grammar().parse(candidate)
        except UnexpectedInput as exc:
            error = _syntax_error(exc, candidate, original, filename)
            index = (error.line or 1) - 1
            if index in seen or len(errors) >= MAX_SYNTAX_ERRORS:
                return None, errors or [error]
            errors.append(error)
            seen.add(index)
            if index >= len(work) or not work[index].strip():
                return None, errors
            _blank(work, index)
            continue
        too_large = _number_errors(tree, original, filename)
        if not too_large:
            return tree, errors
        for number_error in too_large:
            index = (number_error.line or 1) - 1
            if index not in seen:
                errors.append(number_error)
                seen.add(index)
                _blank(work, index)
        if len(errors) >= MAX_SYNTAX_ERRORS:
            return None, errors


# ---------------------------------------------------------------------------
# Tree -> statements, driven by the statement table
# ---------------------------------------------------------------------------

def _span(meta: Any) -> Span:
    return Span(meta.line, meta.column, meta.end_line, meta.end_column)


SECTIONS = {"domino_section": "domino", "block_section": "block"}


class _Line:
    """A settlement line before its section says which statement it is."""

    def __init__(self, rule: str, phrase: Phrase) -> None:
        self.rule, self.phrase = rule, phrase


class _Section:
    def __init__(self, name: str, span: Span, lines: list[_Line]) -> None:
        self.name, self.span, self.lines = name, span, lines


def _read_node(data: Any, children: list[Any], meta: Any) -> Any:
    """What one node of the parse tree reads to: each grammar rule is read by its statement table entry."""
    rule = str(data)
    span = _span(meta) if not meta.empty else None
    phrase = Phrase(children, span)
    if rule in PHRASES:
        return PHRASES[rule](phrase)
    if rule in SECTIONS:
        c = [x for x in children if isinstance(x, Token)]
        header = Span(c[0].line or 1, c[0].column or 1, c[2].end_line or 1, c[2].end_column or 1)
        return _Section(SECTIONS[rule], header, [x for x in children if isinstance(x, _Line)])
    if rule == "start":
        return children
    entry, _ = for_rule(rule)
    if entry is not None:
        return Statement(entry.key, entry.read(phrase), phrase.span)
    if for_rule(rule, "domino")[0] is not None:
        return _Line(rule, phrase)
    return Words(phrase.text)


def _from_lark(tree: Tree[LarkToken]) -> Any:
    """The statements of a tree lark parsed: its tokens become rulelang's own (rulelang/fastparser.py)."""
    from lark import Token as LarkToken
    from lark import Transformer

    class ToStatements(Transformer[LarkToken, Any]):
        """The one transformer: `_read_node` for every node."""

        def __default__(self, data: Any, children: list[Any], meta: Any) -> Any:
            return _read_node(data, children, meta)

        def __default_token__(self, token: LarkToken) -> Token:
            return Token(token.type, str(token), token.line or 1, token.column or 1, token.end_line or 1,
                         token.end_column or 1, token.start_pos or 0, token.end_pos or 0)

    return ToStatements().transform(tree)


def _fast_items(text: str) -> Any:
    """The statements of a valid text, parsed without lark (rulelang/fastparser.py); None: lark parses it."""
    if text.startswith("\ufeff"):  # as parse_tree does
        text = " " + text[1:]
    if not text.endswith("\n"):
        text += "\n"
    tree = fastparser.parse(text)
    if tree is None:
        return None
    stack: list[Any] = [tree]
    while stack:  # a number out of range: lark's path reports it
        node = stack.pop()
        for c in node.children:
            if isinstance(c, fastparser.Node):
                stack.append(c)
            elif c.type in ("NUMBER", "SIGNED_NUMBER"):
                digits = c.lstrip("+-").lstrip("0")
                if len(digits) > MAX_DIGITS or int(digits or "0") > MAX_NUMBER:
                    return None
    return fastparser.transform(tree, _read_node)


def build(items: list[Any], filename: str, text: str) -> Ruleset:
    """Sections become their statements; consecutive term lines are one statement (the section's terms)."""
    statements: list[Statement] = []
    sections: list[tuple[str, Span]] = []
    for item in items:
        if isinstance(item, Statement):
            statements.append(item)
            continue
        sections.append((item.name, item.span))
        pending: Statement | None = None
        for line in item.lines:
            entry, misplaced = for_rule(line.rule, item.name)
            assert entry is not None
            st = Statement(entry.key, entry.read(line.phrase), line.phrase.span, item.name, misplaced)
            if entry.meta.get("merge") and st.value:
                if pending is not None and pending.key == st.key:
                    pending = Statement(st.key, pending.value + st.value, pending.span, item.name)
                    continue
                if pending is not None:
                    statements.append(pending)
                pending = st
                continue
            if pending is not None:
                statements.append(pending)
                pending = None
            statements.append(st)
        if pending is not None:
            statements.append(pending)
    return Ruleset(filename=filename, text=text, statements=tuple(statements), sections=tuple(sections))


def parse(text: str, filename: str = "<string>") -> tuple[Ruleset | None, list[RulesetError]]:
    """Parse a ruleset text; returns what could be parsed and every syntax error."""
    if text_error(text, filename) is None:
        items = _fast_items(text)
        if items is not None:
            return build(items, filename, text), []
    tree, errors = parse_tree(text, filename)
    if tree is None:
        return None, errors
    return build(_from_lark(tree), filename, text), errors
