"""Text -> `Ruleset`: the grammar (ruleset.lark), one transformer, syntax errors.

Syntax errors are collected, not just the first: after an error the offending
line is blanked (and, for a section header, the section's indented lines) and
the text is parsed again, so one run reports every broken line.
"""
from __future__ import annotations

from typing import cast

from lark import Token, Transformer, Tree
from lark.exceptions import UnexpectedInput
from lark.tree import Meta

from rulelang.base.errors import RulesetError, RulesetFileError, RulesetSyntaxError
from rulelang.base.limits import MAX_DIGITS, MAX_NUMBER, text_error
from rulelang.language.ast import Ruleset, Span, Statement
from rulelang.language.grammar import grammar, keywords
from rulelang.language.statements import PHRASES, Phrase, Words, for_rule
from rulelang.language.syntax_errors import TERMINAL_WORDS, describe_terminal, syntax_error

__all__ = ["grammar", "parse", "parse_tree", "TERMINAL_WORDS", "describe_terminal", "keywords", "statement_of_line"]

MAX_SYNTAX_ERRORS = 20
PARSE_BUDGET = 300_000


def _blank(lines: list[str], index: int) -> None:
    """Blank line `index` (0-based); for a section header, its indented lines too."""
    header = lines[index].strip().startswith("on ")
    lines[index] = ""
    if header:
        j = index + 1
        while j < len(lines) and (lines[j][:1] in (" ", "\t") or not lines[j].strip()):
            lines[j] = ""
            j += 1


def _number_errors(tree: Tree[Token], lines: list[str], filename: str) -> list[RulesetError]:
    """Numbers out of range, checked at the token: before any value is built from them."""
    out: list[RulesetError] = []
    for tok in tree.scan_values(lambda v: isinstance(v, Token) and v.type in ("NUMBER", "SIGNED_NUMBER")):
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


def parse_tree(text: str, filename: str = "<string>") -> tuple[Tree[Token] | None, list[RulesetError]]:
    """Parse with lark, blanking broken lines to go on; returns the tree of what is left and the errors."""
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
            error = syntax_error(exc, original, filename)
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

def _span(meta: Meta) -> Span:
    return Span(meta.line, meta.column, meta.end_line, meta.end_column)


SECTIONS = {"domino_section": "domino", "block_section": "block"}


class _Line:
    """A settlement line before its section says which statement it is."""

    def __init__(self, rule: str, phrase: Phrase) -> None:
        self.rule, self.phrase = rule, phrase


class _Section:
    def __init__(self, name: str, span: Span, lines: list[_Line]) -> None:
        self.name, self.span, self.lines = name, span, lines


def _read_node(data: str, children: list[object], meta: Meta) -> object:
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


class _ToStatements(Transformer[Token, object]):
    """The one transformer: each grammar rule is read by its statement table entry (`_read_node`)."""

    def __default__(self, data: str, children: list[object], meta: Meta) -> object:
        return _read_node(data, children, meta)


def build(items: list[Statement | _Section], filename: str, text: str) -> Ruleset:
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
    tree, errors = parse_tree(text, filename)
    if tree is None:
        return None, errors
    items = cast("list[Statement | _Section]", _ToStatements().transform(tree))  # `start` reads to its children
    return build(items, filename, text), errors


def statement_of_line(text: str) -> list[tuple[str, str | None]]:
    """(key, section) of the statement one line of text states: a settlement line may read the same in both
    sections (then both, `on domino:` first); [] when it states none."""
    out = []
    for header in ("", "on domino:\n", "on block:\n"):
        ruleset, errors = parse(header + "  " * bool(header) + text.strip() + "\n")
        if ruleset is not None and not errors and len(ruleset.statements) == 1 and not ruleset.statements[0].misplaced:
            st = ruleset.statements[0]
            out.append((st.key, st.section))
            if not header:
                break
    return out
