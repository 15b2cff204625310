"""Text -> `Ruleset`: the grammar (ruleset.lark), one transformer, syntax errors.

Syntax errors are collected, not just the first: after an error the offending
line is blanked (and, for a section header, the section's indented lines) and
the text is parsed again, so one run reports every broken line.
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from functools import cache
from typing import Any

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rulelang.ast import PerCount, Ruleset, Span, Statement, Term
from rulelang.errors import RulesetError, RulesetSyntaxError

__all__ = ["grammar", "parse", "TERMINAL_WORDS", "describe_terminal", "keywords"]

GRAMMAR_FILE = "ruleset.lark"
MAX_SYNTAX_ERRORS = 20
SETTLEMENT_WORDS = ("credit", "debit", "winner", "as", "one", "nobody")


@cache
def grammar() -> Lark:
    """The LALR parser, built once."""
    return Lark.open(GRAMMAR_FILE, rel_to=__file__, parser="lalr", propagate_positions=True,
                     maybe_placeholders=False)


# Plain words for the terminals that are not a single keyword. Keywords
# (terminals whose pattern is a plain word) are shown as `word`.
TERMINAL_WORDS: dict[str, str] = {
    "NAME": "a name like `allfives`",
    "STRING": 'a quoted text like "Five Up"',
    "NUMBER": "a number",
    "SIGNED_NUMBER": "a number",
    "COMMA": "a comma",
    "COLON": "a colon",
    "_NL": "the end of the line",
    "$END": "the end of the file",
    "COMMENT": "a comment",
    "WS": "a space",
}


@cache
def _keyword_terminals() -> dict[str, str]:
    """Terminal name -> keyword text, for every keyword terminal of the grammar."""
    out = {}
    for term in grammar().terminals:
        if term.name not in TERMINAL_WORDS and term.pattern.type == "str":
            out[term.name] = term.pattern.value
    return out


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
    match = difflib.get_close_matches(word.lower(), kws, n=1, cutoff=0.6)
    return match[0] if match else None


def _syntax_error(exc: UnexpectedInput, text: str, lines: list[str], filename: str) -> RulesetSyntaxError:
    """Turn a lark exception into a RulesetSyntaxError in plain words."""
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
    if "PLAYERS" in expected and len(expected) > 8:  # at the start of a statement
        hint_expected = ("expected the start of a statement, such as `players ...`, `hand ...`, `target ...` "
                         "or `on block:` (see docs/language.md)")

    def outside_section(word: str) -> str | None:
        if word in SETTLEMENT_WORDS and "PLAYERS" in expected and "CREDIT" not in expected:
            return f"a `{word}` line belongs under `on domino:` or `on block:`"
        return None

    def err(code: str, message: str, col: int, end: int, hint: str) -> RulesetSyntaxError:
        return RulesetSyntaxError(code, message, filename=filename, line=line, column=col,
                                  end_column=end, source_line=src, hint=hint)

    if isinstance(exc, UnexpectedCharacters):
        start, word = _word_at(src, column - 1)
        if word:
            guess = _suggest(word, expected)
            hint = outside_section(word) or (f"did you mean `{guess}`?" if guess else hint_expected)
            return err("unexpected-word", f"unexpected word `{word}`", start + 1, start + 1 + len(word), hint)
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
            guess = _suggest(word, expected)
            if outside_section(word):
                return err("unexpected-token", f"unexpected word `{word}`", start + 1, start + 1 + len(word),
                           outside_section(word) or "")
            if guess and guess != word:
                return err("unexpected-word", f"unexpected word `{word}`", start + 1, start + 1 + len(word),
                           f"did you mean `{guess}`?")
            return err("unexpected-token", f"unexpected word `{word}`", start + 1, start + 1 + len(word),
                       hint_expected)
        what = {"NUMBER": "number", "SIGNED_NUMBER": "number", "STRING": "text"}.get(tok.type, "")
        shown = f"{what} `{tok}`".strip() if what else f"`{tok}`"
        return err("unexpected-token", f"unexpected {shown}", column, column + len(str(tok)), hint_expected)

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


def parse_tree(text: str, filename: str = "<string>") -> tuple[Tree | None, list[RulesetError]]:
    """Parse, blanking broken lines to go on; returns the tree of what is left and the errors."""
    if text.startswith("\ufeff"):  # a byte-order mark left by some editors
        text = " " + text[1:]
    original = text.split("\n")
    work = list(original)
    errors: list[RulesetError] = []
    seen: set[int] = set()
    while True:
        candidate = "\n".join(work)
        if not candidate.endswith("\n"):
            candidate += "\n"
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
        return tree, errors


# ---------------------------------------------------------------------------
# Tree -> statements
# ---------------------------------------------------------------------------

def _span(meta: Any) -> Span:
    return Span(meta.line, meta.column, meta.end_line, meta.end_column)


def _types(children: list[Any]) -> list[str]:
    return [c.type for c in children if isinstance(c, Token)]


def _numbers(children: list[Any]) -> list[int]:
    return [int(c) for c in children if isinstance(c, Token) and c.type in ("NUMBER", "SIGNED_NUMBER")]


def _header_span(c: list[Any]) -> Span:
    """The span of a section's header line (`on domino:`)."""
    return Span(c[0].line, c[0].column, c[2].end_line, c[2].end_column)


class _Line:
    """A settlement line before it is grouped into its section's statements."""

    def __init__(self, key: str, value: Any, span: Span) -> None:
        self.key, self.value, self.span = key, value, span


class _Section:
    def __init__(self, name: str, span: Span, lines: list[_Line]) -> None:
        self.name, self.span, self.lines = name, span, lines


@v_args(meta=True)
class ToStatements(Transformer):
    """The one transformer: each statement rule becomes a `Statement`."""

    def _st(self, key: str, value: Any, meta: Any) -> Statement:
        return Statement(key, value, _span(meta))

    # -- name, attribution, inheritance
    def ruleset_stmt(self, meta, c):
        return self._st("ruleset", (str(c[1]), str(c[2])[1:-1]), meta)

    def source_stmt(self, meta, c):
        return self._st("source", str(c[1])[1:-1], meta)

    def based_stmt(self, meta, c):
        tok = c[2]
        if tok.type == "STRING":
            return self._st("based_on", ("path", str(tok)[1:-1]), meta)
        return self._st("based_on", ("name", str(tok)), meta)

    # -- players and deal
    def count_range(self, meta, c):
        lo, hi = _numbers(c)
        return ("range", lo, hi)

    def count_list(self, meta, c):
        return ("list",) + tuple(_numbers(c))

    def partnered(self, meta, c):
        return ("with", _numbers(c)[0])

    def unpartnered(self, meta, c):
        return ("none",)

    def players_stmt(self, meta, c):
        counts = c[1]
        partner = next((x for x in c[2:] if isinstance(x, tuple)), None)
        return self._st("players", (counts, partner), meta)

    def per_count(self, meta, c):
        nums = _numbers(c)
        if len(nums) == 1:
            return PerCount(uniform=nums[0])
        pairs = tuple(sorted((nums[i + 1], nums[i]) for i in range(0, len(nums), 2)))
        return PerCount(by_count=pairs)

    def hand_stmt(self, meta, c):
        return self._st("hand", c[1], meta)

    def reserve_stmt(self, meta, c):
        return self._st("reserve", c[1], meta)

    def no_reserve(self, meta, c):
        return self._st("reserve", PerCount(uniform=0), meta)

    def drawing_stmt(self, meta, c):
        return self._st("drawing", "none" if c[0].type == "NO" else "until-playable", meta)

    # -- opener
    def opener_value(self, meta, c):
        t = _types(c)
        return {"LOTTERY": "lottery", "HIGHEST": "highest-double", "DOMINOER": "dominoer",
                "NEXT": "next-seat", "BLOCK": "block-winner"}[t[0] if t[0] != "THE" else t[1]]

    def opener_first_stmt(self, meta, c):
        return self._st("opener_first", c[-1], meta)

    def opener_domino_stmt(self, meta, c):
        return self._st("opener_domino", c[-1], meta)

    def opener_block_stmt(self, meta, c):
        return self._st("opener_block", c[-1], meta)

    def lead_stmt(self, meta, c):
        return self._st("lead", "forced" if "DECIDING" in _types(c) else "any", meta)

    # -- doubles
    def branching_stmt(self, meta, c):
        return self._st("branching", {"EVERY": "every", "ONLY": "first", "NO": "none"}[c[0].type], meta)

    def branch_sides_stmt(self, meta, c):
        return self._st("branch_sides", "at-once" if "ONCE" in _types(c) else "after-line", meta)

    def terminal_stmt(self, meta, c):
        return self._st("terminal_count", "both-halves" if "BOTH" in _types(c) else "one-half", meta)

    # -- scoring and target
    def scoring_stmt(self, meta, c):
        nums = _numbers(c)
        return self._st("scoring", (True, nums[0]) if nums else (False, None), meta)

    def unit_stmt(self, meta, c):
        nums = _numbers(c)
        return self._st("unit", (nums[0], nums[1]) if nums else (1, 1), meta)

    def target_measure(self, meta, c):
        t = _types(c)
        return "raw" if "RAW" in t else ("shown" if "SHOWN" in t else "points")

    def target_stmt(self, meta, c):
        mode = "exact" if "EXACTLY" in _types(c) else "at-least"
        return self._st("target", (mode, _numbers(c)[0], c[-1]), meta)

    def check_stmt(self, meta, c):
        return self._st("check", "after-settlement" if "SETTLEMENT" in _types(c) else "every-event", meta)

    def overshoot_stmt(self, meta, c):
        t = _types(c)
        value = "discard" if "DISCARDS" in t else ("bounce" if "BOUNCES" in t else "none")
        return self._st("overshoot", value, meta)

    def ties_stmt(self, meta, c):
        t = _types(c)
        value = "extra-rounds" if "EXTRA" in t else ("draw" if "DRAW" in t else "impossible")
        return self._st("ties", value, meta)

    def floor_stmt(self, meta, c):
        nums = _numbers(c)
        return self._st("floor", nums[0] if nums else None, meta)

    # -- settlement
    def hand_set(self, meta, c):
        return {"OPPONENTS": "opponents", "PARTNERS": "partner", "OWN": "own", "EVERYONES": "everyone"}[c[0].type]

    def pooling(self, meta, c):
        return "pooled" if c[0].type == "POOLED" else "each"

    def rounding(self, meta, c):
        nums = _numbers(c)
        return ("round5", nums[0]) if nums else ("none", 5)

    def receiver(self, meta, c):
        return "winner" if "WINNER" in _types(c) else "owner"

    def hands_term(self, meta, c):
        sign = "credit" if c[0].type == "CREDIT" else "debit"
        hands, pooling, rounding, to = [x for x in c if not isinstance(x, Token)]
        term = Term("hands", hands, pooling, rounding[0], to, sign, _span(meta), rounding[1])
        return _Line("terms", (term,), _span(meta))

    def differences_term(self, meta, c):
        rounding = c[-1]
        term = Term("differences", rounding=rounding[0], span=_span(meta), rounding_number=rounding[1])
        return _Line("terms", (term,), _span(meta))

    def nobody_line(self, meta, c):
        return _Line("terms", (), _span(meta))

    def winner_line(self, meta, c):
        t = _types(c)
        if "NONE" in t:
            value = ("none", "none")
        else:
            value = ("lightest-hand", "none" if "NOT" in t else "fewest-tiles")
        return _Line("winner", value, _span(meta))

    def event_grouping(self, meta, c):
        return "per-term" if c[1].type == "TERM" else "per-hand"

    def last_placement(self, meta, c):
        return True

    def events_line(self, meta, c):
        grouping = next((x for x in c if isinstance(x, str) and not isinstance(x, Token)), "one")
        last = any(x is True for x in c)
        return _Line("events", (grouping, last), _span(meta))

    def domino_section(self, meta, c):
        return _Section("domino", _header_span(c), [x for x in c if isinstance(x, _Line)])

    def block_section(self, meta, c):
        return _Section("block", _header_span(c), [x for x in c if isinstance(x, _Line)])

    def start(self, meta, c):
        return c


def build(items: list[Any], filename: str, text: str) -> Ruleset:
    """Flatten sections into statements keyed `domino_terms`, `block_events`..."""
    statements: list[Statement] = []
    sections: list[tuple[str, Span]] = []
    for item in items:
        if isinstance(item, Statement):
            statements.append(item)
            continue
        sections.append((item.name, item.span))
        pending: _Line | None = None
        for line in item.lines + [None]:
            # consecutive term lines form one statement: the section's list of terms
            if line is not None and line.key == "terms" and pending is not None and pending.value \
                    and line.value:
                pending = _Line("terms", pending.value + line.value, pending.span)
                continue
            if pending is not None:
                statements.append(Statement(f"{item.name}_terms", pending.value, pending.span, item.name))
                pending = None
            if line is None:
                break
            if line.key == "terms" and line.value:
                pending = line
                continue
            statements.append(Statement(f"{item.name}_{line.key}", line.value, line.span, item.name))
    return Ruleset(filename=filename, text=text, statements=tuple(statements), sections=tuple(sections))


def parse(text: str, filename: str = "<string>") -> tuple[Ruleset | None, list[RulesetError]]:
    """Parse a ruleset text; returns what could be parsed and every syntax error."""
    tree, errors = parse_tree(text, filename)
    if tree is None:
        return None, errors
    items = ToStatements().transform(tree)
    return build(items, filename, text), errors
