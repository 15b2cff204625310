"""The analysis of one ruleset text: the public result every tool reads (`check`, the language server, the
playground), made by one function, `analyse`.

An `Analysis` is the compiler's outcome (rulelang/language/compiler.py), typed and
frozen: the parsed text, every error and warning with its position, and the
configuration when the text is valid. A tool asks it what it needs (the
statement on a line, what a statement means while the text has errors, the
base's configuration); a text the parser gives up on is then read line by
line, once, on the first such question (`check` never asks one).
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property

from rulelang.base.errors import RulesetError
from rulelang.base.foreign import not_a_ruleset_error
from rulelang.base.jsontypes import ConfigJSON
from rulelang.base.limits import read_ruleset_file
from rulelang.config.fields import Fields
from rulelang.language import compiler
from rulelang.language.api import compile_bundled
from rulelang.language.ast import Ruleset, Span, Statement, written_lines
from rulelang.language.bundled import bundled_names
from rulelang.language.compiler import OPEN_TEXTS, analyse_ruleset, resolve
from rulelang.language.parser import parse
from rulelang.language.statements import INFO, ORDER

__all__ = ["Analysis", "analyse"]

# What a statement's `explain` sentence may raise when the rules it depends on are not stated yet.
_UNEXPLAINED = (KeyError, TypeError, ValueError, AttributeError, IndexError)


@dataclass(frozen=True)
class Analysis:
    """One text, parsed, checked and compiled: its errors, its warnings and, when valid, its configuration."""

    text: str
    filename: str
    errors: tuple[RulesetError, ...]  # syntax, then checks: `rulelang check`'s errors, in its order
    warnings: tuple[RulesetError, ...] = ()  # a valid text that may not mean what it says
    parsed: Ruleset | None = None  # the parser's tree; None when it gave up, or for another format
    config: ConfigJSON | None = None  # None while the text has errors
    in_force: tuple[Statement, ...] = ()  # every statement in force once compiled: its own, then the inherited
    inherited: frozenset[str] = frozenset()  # the keys of the statements in force that its base states
    foreign: bool = False  # plainly another format (udev, polkit or Snort rules: rulelang/base/foreign.py)
    open_texts: Mapping[str, str] = field(default_factory=dict)  # the editor's texts it was checked with
    record: Fields | None = None  # the configuration's typed record, as the compiler resolved it (with `config`)

    @cached_property
    def ruleset(self) -> Ruleset | None:
        """The parsed text; for a text the parser gave up on, what parses of it line by line."""
        if self.parsed is not None or self.foreign or not self.text:
            return self.parsed
        return _lines_that_parse(self.text, self.filename)

    @property
    def statements(self) -> tuple[Statement, ...]:
        """The statements written in the text (what parses of it), in text order."""
        return self.ruleset.statements if self.ruleset is not None else ()

    @property
    def base_label(self) -> str | None:
        """What the text's `based on` names (a bundled name or a path as written), or None."""
        return self.ruleset.based_on if self.ruleset is not None else None

    def statement_at(self, line: int) -> Statement | None:
        """The statement written on a 1-based line, or None (a blank line, a comment, a section header)."""
        return next((st for st in self.statements if line in written_lines(st)), None)

    def section_at(self, line: int) -> str | None:
        """The section (`domino`, `block`) whose header is on a 1-based line, or None."""
        sections = self.ruleset.sections if self.ruleset is not None else ()
        return next((str(name) for name, span in sections if span.line == line), None)

    def sentence_of(self, statement: Statement) -> str | None:
        """What one statement of the text means, as `rulelang explain` says it, even while the text has errors.

        A valid text is explained from its configuration. Otherwise the statements
        without an error of their own are compiled alone (with a base, what they do
        not state is inherited), and failing that resolved alone: a sentence that
        needs a rule the text does not state yet is None.
        """
        config = self.record if self.record is not None else self._lenient_config
        if config is None:
            return None
        entry = INFO[statement.key]
        try:
            value = statement.value if self.config is None else entry.from_config(config)
            sentence = entry.explain(value, config)
        except _UNEXPLAINED:
            return None
        return str(sentence) if sentence else None

    @cached_property
    def _lenient_config(self) -> Fields | None:
        """The typed record of the statements that have no error (see sentence_of), or None."""
        ruleset = self.ruleset
        if ruleset is None:
            return None
        bad = {e.line for e in self.errors if e.line is not None and e.filename == self.filename}
        seen: set[str] = set()
        good = []
        for st in ruleset.statements:
            if st.misplaced or st.key in seen or bad.intersection(written_lines(st)):
                continue
            seen.add(st.key)
            good.append(st)
        sections = tuple(s for s in ruleset.sections if s[1].line not in bad)
        try:
            compiled = analyse_ruleset(replace(ruleset, statements=tuple(good), sections=sections))
            if compiled.record is not None:
                return compiled.record
            return resolve(good, ruleset.based_on)
        except _UNEXPLAINED:
            return None

    def based_on_path(self) -> str | None:
        """The file the text's `based on "PATH"` names (normalised, relative to the text's folder), or None."""
        based = self.ruleset.get("based_on") if self.ruleset is not None else None
        if based is None or based.value.kind != "path" or "\0" in based.value.ref:
            return None
        here = self.filename
        folder = os.path.dirname(here) if not here.startswith("<") else os.getcwd()
        return os.path.normpath(os.path.join(folder, based.value.ref))

    def base_config(self) -> ConfigJSON | None:
        """The configuration of the ruleset the text is `based on` (a bundled one or a file), or None."""
        based = self.ruleset.get("based_on") if self.ruleset is not None else None
        if based is None:
            return None
        kind, ref = based.value
        if kind == "name":
            return compile_bundled(ref) if ref in bundled_names() else None
        path = self.based_on_path()
        if path is None:
            return None
        try:
            text = self.open_texts[path] if path in self.open_texts else read_ruleset_file(path)
        except (RulesetError, ValueError, OSError):
            return None
        return analyse(text, path, self.open_texts).config

    def insertion_line(self, key: str, section: str | None) -> tuple[int, bool]:
        """Where a statement of KEY goes in the text, in canonical order: (0-based line to insert before,
        whether its section header must be written too)."""
        ruleset = self.ruleset
        lines = ruleset.text.split("\n") if ruleset is not None else [""]
        mine = [st for st in self.statements if st.section == section and not st.misplaced]
        before = [st for st in mine if ORDER[st.key] < ORDER[key]]
        if before:
            return max(max(written_lines(st)) for st in before), False
        after = [st for st in mine if ORDER[st.key] > ORDER[key]]
        if after:
            return min(min(written_lines(st)) for st in after) - 1, False
        header = next((span for name, span in (ruleset.sections if ruleset else ()) if name == section), None)
        if section is None or header is not None:
            return (header.line if header is not None else 0), False
        end = len(lines) - 1 if lines and lines[-1] == "" else len(lines)
        return end, True


def analyse(text: str, filename: str = "<string>", open_texts: Mapping[str, str] | None = None) -> Analysis:
    """Every error of a text, as `rulelang check` reports them, and its configuration when valid.

    OPEN_TEXTS (path -> text) are files open in an editor: a `based on "PATH"` reads them instead of the disk.
    """
    texts = dict(open_texts or {})
    other = not_a_ruleset_error(text, filename)
    if other is not None:  # udev, polkit or Snort rules: one error, not a syntax error per line
        return Analysis(text, filename, (other,), foreign=True, open_texts=texts)
    token = OPEN_TEXTS.set(texts)
    try:
        result = compiler.analyse(text, filename)  # looked up here: a test counts the analyses
    finally:
        OPEN_TEXTS.reset(token)
    inherited = frozenset(key for key, st in result.origins.items() if st is None) if result.base_label else frozenset()
    return Analysis(text, filename, tuple(result.errors), tuple(result.warnings), result.ruleset, result.config,
                    result.statements, inherited, open_texts=texts, record=result.record)


def _lines_that_parse(text: str, filename: str) -> Ruleset | None:
    """A text the parser gives up on, read block by block: each statement line (a section header with its
    indented lines) parsed alone, so that what parses of it is known even then."""
    lines = text.split("\n")
    statements: list[Statement] = []
    sections: list[tuple[str, Span]] = []
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
