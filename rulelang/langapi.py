"""The language functions the authoring tools use, in one place.

The language internals (parser, compiler, formatter, explain) are being
reshaped; the command line's stdin and `--json` paths, the language server and
the highlighting test reach them only through this module, so a rename there
is a one-line fix here.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Analysis", "analyse", "not_a_ruleset_error", "canonical", "keywords", "statement_examples", "statement_lines",
           "statement_at", "statement_words", "sentence_for", "sentence_of", "base_config", "explain_sections",
           "explain_text", "diff_configs", "section_at", "based_on_path", "canonical_lines", "statement_of_line",
           "code_of", "insertion_line", "next_words", "keyword_of", "set_names", "section_examples"]


@dataclass(slots=True)
class Analysis:
    """What the tools need of a checked text: its errors, configuration and statements."""

    errors: list[Any]
    config: dict[str, Any] | None
    statements: list[Any]  # each has .key and .span (line, column, end_line, end_column)
    inherited: set[str]
    base_label: str | None
    warnings: list[Any] = field(default_factory=list)  # a valid text that may not mean what it says
    ruleset: Any = None  # the parsed text (what parses of it, when some lines do not), or None
    filename: str = "<string>"
    in_force: tuple[Any, ...] = ()  # every statement in force once compiled: its own, then the inherited ones
    open_texts: dict[str, str] = field(default_factory=dict)  # the editor's texts it was checked with
    text: str = ""
    read_by_lines: bool = False  # whether a text the parser gave up on was read line by line (_readable)


def analyse(text: str, filename: str, open_texts: Mapping[str, str] | None = None) -> Analysis:
    """Every error of a text, as `rulelang check` reports them, and its configuration when valid.

    OPEN_TEXTS (path -> text) are files open in an editor: a `based on "PATH"` reads them instead of the disk.
    """
    from rulelang.language.compiler import OPEN_TEXTS
    from rulelang.language.compiler import analyse as _analyse

    other = not_a_ruleset_error(text, filename)
    if other is not None:  # udev, polkit or Snort rules: one error, not a syntax error per line
        return Analysis([other], None, [], set(), None, filename=filename)
    token = OPEN_TEXTS.set(dict(open_texts or {}))
    try:
        result = _analyse(text, filename)
    finally:
        OPEN_TEXTS.reset(token)
    ruleset = result.ruleset
    statements = list(ruleset.statements) if ruleset is not None else []
    inherited = {key for key, st in result.origins.items() if st is None} if result.base_label else set()
    return Analysis(list(result.errors), result.config, statements, inherited, result.base_label,
                    list(result.warnings), ruleset, filename, tuple(result.statements), dict(open_texts or {}), text)


def not_a_ruleset_error(text: str, filename: str) -> Any | None:
    """The `not-a-ruleset` error of a text that is plainly another format (rulelang/base/foreign.py), else None."""
    from rulelang.base.errors import RulesetFileError
    from rulelang.base.foreign import foreign_format

    kind = foreign_format(text)
    if kind is None:
        return None
    return RulesetFileError("not-a-ruleset", f"not a rulelang ruleset (it reads as {kind})", filename=filename,
                            hint="rulelang checks only rulesets; folder walks, the pre-commit hooks and the "
                                 "language server skip such a file")


def _readable(analysis: Analysis) -> Any | None:
    """The parsed text; for a text the parser gave up on, what parses of it line by line (read once, when a
    tool asks: `check` never needs it)."""
    if analysis.ruleset is None and analysis.text and not analysis.read_by_lines:
        analysis.read_by_lines = True
        analysis.ruleset = _lines_that_parse(analysis.text, analysis.filename)
        if analysis.ruleset is not None:
            analysis.statements = list(analysis.ruleset.statements)
            analysis.base_label = analysis.ruleset.based_on
    return analysis.ruleset


def _lines_that_parse(text: str, filename: str) -> Any | None:
    """A text the parser gives up on, read block by block: each statement line (a section header with its
    indented lines) parsed alone, so that what parses of it is known even then."""
    from rulelang.language.ast import Ruleset
    from rulelang.language.parser import parse

    lines = text.split("\n")
    statements: list[Any] = []
    sections: list[tuple[str, Any]] = []
    start = 0
    while start < len(lines):
        end = start + 1
        if lines[start].strip().startswith("on "):
            while end < len(lines) and (lines[end][:1] in (" ", "\t") or not lines[end].strip()):
                end += 1
        if lines[start].strip() and not lines[start].strip().startswith("#"):
            blank = "\n" * start  # keeps the line numbers of the whole text
            ruleset, _errors = parse(blank + "\n".join(lines[start:end]) + "\n", filename)
            if ruleset is not None:
                statements.extend(ruleset.statements)
                sections.extend(ruleset.sections)
        start = end
    if not statements:
        return None
    return Ruleset(filename, text, tuple(statements), tuple(sections))


def canonical(text: str, filename: str, sort: bool = False) -> tuple[str | None, list[Any]]:
    """(the formatted text, []) or (None, the errors that stop `fmt`), as `rulelang fmt` decides: the
    author's order of statements, or with `sort` the canonical order (`fmt --sort`).

    The canonical text is parsed again and must state the same rules; if it
    does not (a bug), the answer is (None, []).
    """
    from rulelang.language.ast import ORDER
    from rulelang.language.formatter import duplicate_errors, format_ruleset
    from rulelang.language.parser import parse

    def ordered(statements: Any) -> list[Any]:
        return sorted(statements, key=lambda s: (ORDER.get(s.key, 99), repr(s.value)))

    ruleset, errors = parse(text, filename)
    if ruleset is not None and not errors:
        errors = duplicate_errors(ruleset)
    if errors or ruleset is None:
        return None, list(errors)
    new = format_ruleset(ruleset, sort)
    again, _ = parse(new, filename)
    if again is None or ordered(again.statements) != ordered(ruleset.statements):  # pragma: no cover
        return None, []
    return new, []


def keywords() -> list[str]:
    """Every keyword of the grammar."""
    from rulelang.language.parser import keywords as _keywords

    return list(_keywords())


def statement_examples() -> list[tuple[str, str]]:
    """(what it states, an example line) for every statement, in canonical order."""
    from rulelang.language.ast import STATEMENTS

    return [(info.words, info.example) for info in STATEMENTS]


def statement_lines(statement: Any) -> list[int]:
    """The 1-based lines a statement is written on: its own line, and each term line of a section's terms.

    A statement's span runs to the start of the next statement (it takes in the
    end of its line, and any blank or comment lines after it), so its lines are
    where its words are, never what its span reaches.
    """
    lines = [statement.span.line]
    if isinstance(statement.value, tuple):
        lines += [item.span.line for item in statement.value
                  if getattr(item, "span", None) is not None and item.span.line > 0]
    return sorted(set(lines))


def statement_at(analysis: Analysis, line: int) -> Any | None:
    """The statement written on a 1-based line, or None (a blank line, a comment, a section header)."""
    _readable(analysis)
    for st in analysis.statements:
        if line in statement_lines(st):
            return st
    return None


def section_at(analysis: Analysis, line: int) -> str | None:
    """The section (`domino`, `block`) whose header is on a 1-based line, or None."""
    ruleset = _readable(analysis)
    for name, span in (ruleset.sections if ruleset is not None else ()):
        if span.line == line:
            return str(name)
    return None


def sentence_of(analysis: Analysis, statement: Any) -> str | None:
    """What one statement of the text means, as `rulelang explain` says it, even while the text has errors.

    A valid text is explained from its configuration. Otherwise the statements
    without an error of their own are compiled alone (with a base, what they do
    not state is inherited), and failing that resolved alone: a sentence that
    needs a rule the text does not state yet is None.
    """
    from rulelang.language.statements import INFO

    config = analysis.config if analysis.config is not None else _lenient_config(analysis)
    if config is None:
        return None
    entry = INFO[statement.key]
    try:
        value = statement.value if analysis.config is None else entry.from_config(config)
        sentence = entry.explain(value, config)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return None
    return str(sentence) if sentence else None


def statement_words(statement: Any) -> str:
    """What a statement states and how `fmt` writes it: `The hand size: hand 6 tiles` (when it cannot be
    explained yet: the text does not state a rule its sentence depends on)."""
    from rulelang.language.formatter import statement_lines as canonical_texts
    from rulelang.language.statements import INFO

    words = INFO[statement.key].words
    return f"{words[:1].upper()}{words[1:]}: `{'; '.join(canonical_texts(statement.key, statement.value))}`."


def _lenient_config(analysis: Analysis) -> dict[str, Any] | None:
    """A configuration of the statements that have no error (see sentence_of), or None."""
    from dataclasses import replace

    from rulelang.language.compiler import analyse_ruleset, resolve

    ruleset = _readable(analysis)
    if ruleset is None:
        return None
    bad = {e.line for e in analysis.errors if e.line is not None and e.filename == analysis.filename}
    seen: set[str] = set()
    good = []
    for st in ruleset.statements:
        if st.misplaced or st.key in seen or bad.intersection(statement_lines(st)):
            continue
        seen.add(st.key)
        good.append(st)
    sections = tuple(s for s in ruleset.sections if s[1].line not in bad)
    try:
        compiled = analyse_ruleset(replace(ruleset, statements=tuple(good), sections=sections))
        if compiled.config is not None:
            return compiled.config
        return resolve(good, ruleset.based_on)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return None


def base_config(analysis: Analysis) -> dict[str, Any] | None:
    """The configuration of the ruleset a text is `based on` (a bundled one or a file), or None."""
    from rulelang.language.bundled import bundled_names

    ruleset = _readable(analysis)
    based = ruleset.get("based_on") if ruleset is not None else None
    if based is None:
        return None
    kind, ref = based.value
    if kind == "name":
        if ref not in bundled_names():
            return None
        from rulelang.language.api import compile_bundled

        return compile_bundled(ref)
    from rulelang.base.errors import RulesetError
    from rulelang.base.limits import read_ruleset_file

    path = based_on_path(analysis)
    if path is None:
        return None
    try:
        text = analysis.open_texts[path] if path in analysis.open_texts else read_ruleset_file(path)
    except (RulesetError, ValueError, OSError):
        return None
    config: dict[str, Any] | None = analyse(text, path, analysis.open_texts).config
    return config


def sentence_for(config: dict[str, Any], key: str) -> str | None:
    """The `explain` sentence of one statement of a configuration."""
    for _heading, sentences in explain_sections(config):
        for s in sentences:
            if s.key == key:
                return str(s.text)
    return None


def explain_sections(config: dict[str, Any], inherited: set[str] | None = None) -> list[tuple[str, list[Any]]]:
    """(heading, sentences) of `rulelang explain`; each sentence has .key, .text, .inherited."""
    from rulelang.language.explain import explain_config

    return list(explain_config(config, inherited or set()))


def explain_text(config: dict[str, Any], inherited: set[str] | None = None) -> str:
    """The plain-text explanation, as `rulelang explain` prints it when piped."""
    from rulelang.language.explain import explain_text as _explain_text

    return str(_explain_text(config, inherited or set()))


def diff_configs(a: dict[str, Any], b: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(what, how A says it, how B says it) for every rule on which two configurations differ."""
    from rulelang.language.explain import diff_configs as _diff

    return list(_diff(a, b))


def based_on_path(analysis: Analysis) -> str | None:
    """The file a text's `based on "PATH"` names (normalised, relative to the text's folder), or None."""
    import os

    ruleset = analysis.ruleset
    based = ruleset.get("based_on") if ruleset is not None else None
    if based is None or based.value.kind != "path" or "\0" in based.value.ref:
        return None
    here = analysis.filename
    folder = os.path.dirname(here) if not here.startswith("<") else os.getcwd()
    return os.path.normpath(os.path.join(folder, based.value.ref))


def canonical_lines(analysis: Analysis) -> dict[int, str]:
    """1-based line -> its canonical text (indented in a section, its comment kept), for every line that
    states a rule or opens a section: what `fmt` writes for it, in place (range formatting)."""
    from rulelang.language.formatter import INDENT, _split_comment
    from rulelang.language.formatter import statement_lines as canonical_texts

    ruleset = _readable(analysis)
    lines = ruleset.text.split("\n") if ruleset is not None else []
    out: dict[int, str] = {}

    def put(number: int, text: str) -> None:
        if 0 < number <= len(lines):
            _code, comment = _split_comment(lines[number - 1])
            out[number] = text + (f"  {comment}" if comment else "")

    for st in analysis.statements:
        texts = canonical_texts(st.key, st.value)
        numbers = statement_lines(st)
        if len(numbers) != len(texts):  # one statement on one line, however many lines `fmt` would give it
            numbers, texts = [st.span.line], ["; ".join(texts)] if len(texts) > 1 else texts
            if len(texts) != 1:
                continue
        for number, text in zip(numbers, texts):
            put(number, (INDENT if st.section else "") + text)
    for name, span in (ruleset.sections if ruleset is not None else ()):
        put(span.line, f"on {name}:")
    return out


def statement_of_line(text: str) -> list[tuple[str, str | None]]:
    """(key, section) of the statement one line of text states: a settlement line may read the same in both
    sections (then both, `on domino:` first); [] when it states none."""
    from rulelang.language.parser import parse

    out = []
    for header in ("", "on domino:\n", "on block:\n"):
        ruleset, errors = parse(header + "  " * bool(header) + text.strip() + "\n")
        if ruleset is not None and not errors and len(ruleset.statements) == 1 and not ruleset.statements[0].misplaced:
            st = ruleset.statements[0]
            out.append((st.key, st.section))
            if not header:
                break
    return out


def code_of(line: str) -> str:
    """A line without its comment (a `#` inside a quoted text is not one)."""
    from rulelang.language.formatter import _split_comment

    return _split_comment(line)[0]


def insertion_line(analysis: Analysis, key: str, section: str | None) -> tuple[int, bool]:
    """Where a statement of KEY goes in the text, in canonical order: (0-based line to insert before, whether
    its section header must be written too)."""
    from rulelang.language.statements import ORDER

    ruleset = _readable(analysis)
    lines = ruleset.text.split("\n") if ruleset is not None else [""]
    mine = [st for st in analysis.statements if st.section == section and not st.misplaced]
    before = [st for st in mine if ORDER[st.key] < ORDER[key]]
    if before:
        return max(max(statement_lines(st)) for st in before), False
    after = [st for st in mine if ORDER[st.key] > ORDER[key]]
    if after:
        return min(min(statement_lines(st)) for st in after) - 1, False
    header = next((span for name, span in (ruleset.sections if ruleset else ()) if name == section), None)
    if section is None or header is not None:
        return (header.line if header is not None else 0), False
    end = len(lines) - 1 if lines and lines[-1] == "" else len(lines)
    return end, True


def next_words(context: str) -> set[str] | None:
    """What the grammar accepts after CONTEXT (a section header line, then the line up to the cursor): the
    terminal names (`HAND`, `NUMBER`, `NAME`, ...), from lark's interactive parser; None where it cannot go on."""
    from lark.exceptions import UnexpectedInput

    from rulelang.language.grammar import grammar

    try:
        interactive: Any = grammar().parse_interactive(context)  # lark leaves the interactive parser untyped
        interactive.exhaust_lexer()
        accepted: set[str] = set(interactive.accepts())
    except UnexpectedInput:
        return None
    return accepted


def keyword_of(terminal: str) -> str | None:
    """The keyword a terminal stands for (`HAND` -> `hand`), or None for a value (a number, a name, a text)."""
    from rulelang.language.grammar import keyword_terminals

    return keyword_terminals().get(terminal)


def set_names() -> list[str]:
    """The names of the tile sets (`tiles double-nine`)."""
    from rulelang.config.vocabulary import SET_NAMES

    return [SET_NAMES[n] for n in sorted(SET_NAMES)]


def section_examples(section: str | None) -> list[tuple[str, str]]:
    """(what it states, an example line) for every statement of a section (None: outside the sections)."""
    from rulelang.language.ast import STATEMENTS

    return [(info.words, info.example) for info in STATEMENTS if info.section == section]


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
    from rulelang.language.statements import GROUPS

    return dict(GROUPS)


def views(text: str, filename: str) -> Views:
    """What an editor's outline, folding ranges and inlay hints show of a text (with or without errors)."""
    from rulelang.language.compiler import analyse as _analyse
    from rulelang.language.statements import INFO, TABLE

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
