"""The language functions the authoring tools use, in one place.

The language internals (parser, compiler, formatter, explain) are being
reshaped; the command line's stdin and `--json` paths, the language server and
the highlighting test reach them only through this module, so a rename there
is a one-line fix here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Analysis", "analyse", "canonical", "keywords", "statement_examples",
           "statement_at", "sentence_for", "explain_sections", "explain_text", "diff_configs"]


@dataclass(slots=True)
class Analysis:
    """What the tools need of a checked text: its errors, configuration and statements."""

    errors: list[Any]
    config: dict[str, Any] | None
    statements: list[Any]  # each has .key and .span (line, column, end_line, end_column)
    inherited: set[str]
    base_label: str | None
    warnings: list[Any] = field(default_factory=list)  # a valid text that may not mean what it says


def analyse(text: str, filename: str) -> Analysis:
    """Every error of a text, as `rulelang check` reports them, and its configuration when valid."""
    from rulelang.compiler import analyse as _analyse

    result = _analyse(text, filename)
    statements = list(result.ruleset.statements) if result.ruleset is not None else []
    inherited = {key for key, st in result.origins.items() if st is None} if result.base_label else set()
    return Analysis(list(result.errors), result.config, statements, inherited, result.base_label,
                    list(result.warnings))


def canonical(text: str, filename: str) -> tuple[str | None, list[Any]]:
    """(the canonical text, []) or (None, the errors that stop `fmt`), as `rulelang fmt` decides.

    The canonical text is parsed again and must state the same rules; if it
    does not (a bug), the answer is (None, []).
    """
    from rulelang.ast import ORDER
    from rulelang.formatter import duplicate_errors, format_ruleset
    from rulelang.parser import parse

    def ordered(statements: Any) -> list[Any]:
        return sorted(statements, key=lambda s: (ORDER.get(s.key, 99), repr(s.value)))

    ruleset, errors = parse(text, filename)
    if ruleset is not None and not errors:
        errors = duplicate_errors(ruleset)
    if errors or ruleset is None:
        return None, list(errors)
    new = format_ruleset(ruleset)
    again, _ = parse(new, filename)
    if again is None or ordered(again.statements) != ordered(ruleset.statements):  # pragma: no cover
        return None, []
    return new, []


def keywords() -> list[str]:
    """Every keyword of the grammar."""
    from rulelang.parser import keywords as _keywords

    return list(_keywords())


def statement_examples() -> list[tuple[str, str]]:
    """(what it states, an example line) for every statement, in canonical order."""
    from rulelang.ast import STATEMENTS

    return [(info.words, info.example) for info in STATEMENTS]


def statement_at(analysis: Analysis, line: int) -> Any | None:
    """The statement whose text covers a 1-based line, or None."""
    for st in analysis.statements:
        span = st.span
        if span.line <= line <= max(span.end_line, span.line):
            return st
    return None


def sentence_for(config: dict[str, Any], key: str) -> str | None:
    """The `explain` sentence of one statement of a configuration."""
    for _heading, sentences in explain_sections(config):
        for s in sentences:
            if s.key == key:
                return str(s.text)
    return None


def explain_sections(config: dict[str, Any], inherited: set[str] | None = None) -> list[tuple[str, list[Any]]]:
    """(heading, sentences) of `rulelang explain`; each sentence has .key, .text, .inherited."""
    from rulelang.explain import explain_config

    return list(explain_config(config, inherited or set()))


def explain_text(config: dict[str, Any], inherited: set[str] | None = None) -> str:
    """The plain-text explanation, as `rulelang explain` prints it when piped."""
    from rulelang.explain import explain_text as _explain_text

    return str(_explain_text(config, inherited or set()))


def diff_configs(a: dict[str, Any], b: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(what, how A says it, how B says it) for every rule on which two configurations differ."""
    from rulelang.explain import diff_configs as _diff

    return list(_diff(a, b))


# -- the editor's views of a text: the language server's outline, folding and inlay hints ----------

@dataclass(frozen=True, slots=True)
class StatementView:
    """One statement as an editor shows it: what it is, its section and where it is written (1-based)."""

    key: str
    words: str  # what it is called: "the hand size"
    group: int  # its section (`section_titles()`)
    line: int
    column: int
    end_line: int  # its span runs to the next statement (end exclusive)
    end_column: int
    filename: str | None  # the file that writes it (an inherited rule's base)


@dataclass(slots=True)
class Views:
    """A text's statements and settlement headers, and the rules it inherits (once it compiles)."""

    statements: list[StatementView]  # written here, in text order
    headers: list[tuple[int, int]]  # (group, 1-based line) of each `on domino:` / `on block:`
    inherited: list[StatementView]  # in force but written in a base (empty unless the text compiles)
    config: dict[str, Any] | None
    base_label: str | None


def section_titles() -> dict[int, str]:
    """Each section's heading (`explain`'s), by group number, in canonical order."""
    from rulelang.statements import GROUPS

    return dict(GROUPS)


def views(text: str, filename: str) -> Views:
    """What an editor's outline, folding ranges and inlay hints show of a text (with or without errors)."""
    from rulelang.compiler import analyse as _analyse
    from rulelang.statements import INFO, TABLE

    def view(st: Any) -> StatementView:
        info = INFO[st.key]
        s = st.span
        return StatementView(st.key, info.words, info.group, s.line, s.column, s.end_line, s.end_column,
                             st.filename)

    result = _analyse(text, filename)
    ruleset = result.ruleset
    own = [view(st) for st in ruleset.statements] if ruleset is not None else []
    group_of = {st.section: st.group for st in TABLE if st.section}
    headers = [(group_of[name], span.line) for name, span in ruleset.sections] if ruleset is not None else []
    inherited = []
    if result.config is not None and result.base_label:
        inherited = [view(st) for st in result.statements if result.origins.get(st.key) is None]
    return Views(own, headers, inherited, result.config, result.base_label)
