"""A lark parse error -> a `RulesetSyntaxError` in plain words: where, what was found, what could come instead.

The code of an error follows from the grammar (a keyword out of place, a word
the language does not know, a statement that ends too early); similarity only
suggests the nearest expected keyword in the hint. A line that states a known
rule of the family the language cannot state says so, with the closest
statement (rulelang/language/outside.py).
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rulelang.base.errors import RulesetSyntaxError
from rulelang.language.grammar import keyword_set, keyword_terminals, statement_starts
from rulelang.language.meaning import is_slip
from rulelang.language.outside import closest, known_outside, pointer

__all__ = ["TERMINAL_WORDS", "describe_terminal", "syntax_error"]

SETTLEMENT_WORDS = ("credit", "debit", "winner", "as", "one", "nobody", "bonus")
VALUE_TERMINALS = frozenset({"NUMBER", "SIGNED_NUMBER", "STRING", "NAME"})
START_HINT = ("expected the start of a statement, such as `players ...`, `hand ...`, `target ...` "
              "or `on block:` (`rulelang help language` lists every statement)")

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
    "SEAT_ZERO": "`seat 0`",  # a fixed opening seat
}

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'\-]*")
_BASED_ON = re.compile(r"\s*based\s+on\s+(\S.*)$")
# Curly quotes and other typographic quotation marks (a word processor's), never the language's `"`
TYPOGRAPHIC_QUOTES = frozenset("\u201c\u201d\u201e\u201f\u2018\u2019\u201a\u201b\u00ab\u00bb\u2039\u203a")
_NUMBER_RUN_INTO_WORD = re.compile(r"[0-9][A-Za-z0-9'\-]*[A-Za-z][A-Za-z0-9'\-]*")


def describe_terminal(name: str) -> str:
    """Plain words for a terminal name: `players`, a number, the end of the line..."""
    if name in TERMINAL_WORDS:
        return TERMINAL_WORDS[name]
    kw = keyword_terminals().get(name)
    if kw is not None:
        return f"`{kw}`"
    return "something else"  # never a raw terminal name


def _describe_expected(names: Iterable[str]) -> str:
    said = {describe_terminal(n) for n in names}
    said -= {w for w in said if w.endswith("`") and w[:-1] + "s`" in said}  # `point[s]`: `points` says both
    words = sorted(said, key=lambda w: (not w.startswith("`"), w))
    if not words:
        return "something else"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _word_at(line_text: str, col0: int) -> tuple[int, str]:
    """The word containing 0-based column `col0` (start column, word), or (col0, '')."""
    start = col0
    while start > 0 and (line_text[start - 1].isalnum() or line_text[start - 1] in "'-"):
        start -= 1
    m = _WORD.match(line_text, start)
    if m and m.end() > col0:
        return start, m.group(0)
    return col0, ""


def _suggest(word: str, expected: Iterable[str]) -> str | None:
    """`did you mean ...` for a misspelt keyword among the expected terminals."""
    kws = [keyword_terminals()[n] for n in expected if n in keyword_terminals()]
    matches = difflib.get_close_matches(word.lower(), kws, n=3, cutoff=0.6)
    return next((m for m in matches if is_slip(word, m)), None)


class _Place:
    """Where lark stopped (line, column, the line's text) and what it expected there."""

    def __init__(self, exc: UnexpectedInput, lines: list[str], filename: str) -> None:
        line = getattr(exc, "line", None) or 1
        column = getattr(exc, "column", None) or 1
        if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
            line = len(lines)
            column = len(lines[-1]) + 1 if lines else 1
        self.line = max(1, min(line, len(lines)))
        self.column, self.filename = column, filename
        self.src = lines[self.line - 1] if lines else ""
        self.indent = len(self.src) - len(self.src.lstrip())
        found = getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ()
        self.expected: set[str] = set(found) - {"COMMENT", "WS"}
        self.at_start = statement_starts() <= self.expected
        self.hint_expected = START_HINT if self.at_start else f"expected {_describe_expected(self.expected)}"

    def error(self, code: str, message: str, col: int, end: int, hint: str) -> RulesetSyntaxError:
        return RulesetSyntaxError(code, message, filename=self.filename, line=self.line, column=col,
                                  end_column=end, source_line=self.src, hint=hint)

    def outside_section(self, word: str) -> str | None:
        """The hint for a settlement word written where a statement starts (outside its section)."""
        if word in SETTLEMENT_WORDS and self.at_start and "CREDIT" not in self.expected:
            return f"a `{word}` line belongs under `on domino:` or `on block:`"
        return None

    def goes_on(self, start: int, message: str) -> tuple[str, str] | None:
        """Message and hint for a line that starts like a statement but goes on in a way none does."""
        if start <= self.indent or self.at_start:
            return None
        if "_NL" in self.expected:
            return (f"{message}: the statement is complete before it, and the language cannot state what "
                    "follows", pointer(closest(self.src)))
        if self.expected & VALUE_TERMINALS or self.expected <= {"COMMA", "COLON"}:
            return None  # a value or punctuation was expected: a slip of the pen, not another rule
        return (f"{message}: no statement of the language goes on like this",
                f"{self.hint_expected}; {pointer(closest(self.src, self.src[:start]))}")

    def word_error(self, start: int, word: str) -> RulesetSyntaxError:
        """A word out of place: a keyword of the language, or a word it does not know."""
        code = "unexpected-token" if word in keyword_set() else "unexpected-word"
        guess = _suggest(word, self.expected)
        message = f"unexpected word `{word}`"
        if guess and guess != word or self.outside_section(word):
            hint = self.outside_section(word) or f"did you mean `{guess}`?"
        else:
            message, hint = self.goes_on(start, message) or (message, self.hint_expected)
        return self.error(code, message, start + 1, start + 1 + len(word), hint)


def _characters_error(at: _Place) -> RulesetSyntaxError:
    """No terminal matches at the column: a word, a number run into a word, or a stray character."""
    start, word = _word_at(at.src, at.column - 1)
    if word:
        return at.word_error(start, word)
    run = _NUMBER_RUN_INTO_WORD.match(at.src[at.column - 1:])
    if run:  # like `5tiles`
        return at.error("unexpected-word", f"unexpected word `{run.group(0)}`", at.column, at.column + run.end(),
                        "put a space between a number and a word")
    char = at.src[at.column - 1] if at.column - 1 < len(at.src) else ""
    if char in TYPOGRAPHIC_QUOTES:  # a word processor's quotes, pasted from a rule text
        return at.error("unexpected-character", f"unexpected typographic quote `{char}`", at.column,
                        at.column + 1, 'write texts between straight double quotes `"`, like "Five Up"')
    shown = f"`{char}`" if char.strip() else "character"
    return at.error("unexpected-character", f"unexpected character {shown}", at.column, at.column + 1,
                    _unquoted_path_hint(at) or at.hint_expected)


def _unquoted_path_hint(at: _Place) -> str | None:
    """`based on club.rules`: a name has no `.` or `/`, so a file's path is quoted."""
    found = _BASED_ON.match(at.src)
    if found is None or found.group(1).startswith('"'):
        return None
    path = found.group(1).split(" #")[0].rstrip()
    return f'a bundled name is one word; a file\'s path is quoted: `based on "{path}"`'


def _token_error(at: _Place, tok: Token) -> RulesetSyntaxError:
    """A token the parser does not expect: the end of a line too early, a word, a number or a text."""
    if tok.type in ("_NL", "$END"):
        where = len(at.src.rstrip()) + 1 if tok.type == "$END" else at.column
        return at.error("incomplete-statement", "the statement ends too early", where, where + 1, at.hint_expected)
    if tok.type in keyword_terminals() or tok.type == "NAME":
        start, word = at.column - 1, str(tok)
        wstart, whole = _word_at(at.src, at.column - 1)
        if whole:
            start, word = wstart, whole
        return at.word_error(start, word)
    what = {"NUMBER": "number", "SIGNED_NUMBER": "number", "STRING": "text"}.get(tok.type, "")
    shown = f"{what} `{tok}`".strip() if what else f"`{tok}`"
    message, hint = (at.goes_on(at.column - 1, f"unexpected {shown}") if "_NL" in at.expected else None) or (
        f"unexpected {shown}", at.hint_expected)
    return at.error("unexpected-token", message, at.column, at.column + len(str(tok)), hint)


def syntax_error(exc: UnexpectedInput, lines: list[str], filename: str) -> RulesetSyntaxError:
    """Turn a lark exception into a RulesetSyntaxError in plain words."""
    at = _Place(exc, lines, filename)
    known = known_outside(at.src)
    if known is not None:  # a known rule of the family the language cannot state
        return at.error("outside-language", f"this rule is outside the language: {known.rule}", at.indent + 1,
                        len(at.src.rstrip()) + 1, f"described in {known.source}; {pointer(known.closest)}")
    if isinstance(exc, UnexpectedCharacters):
        return _characters_error(at)
    if isinstance(exc, UnexpectedToken):
        return _token_error(at, exc.token)
    if isinstance(exc, UnexpectedEOF):  # pragma: no cover - the LALR parser reports $END as a token
        return at.error("incomplete-statement", "the file ends too early", at.column, at.column + 1, at.hint_expected)
    return at.error("unexpected-token", "the text cannot be read here", at.column, at.column + 1,  # pragma: no cover
                    at.hint_expected)
