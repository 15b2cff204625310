"""The quick fixes of the language server: the edit each hint of `rulelang check` proposes.

A fix is worked out when the diagnostic is published and travels in its
`data` (`{"fixes": [{"title", "edits": [[line, column, end_line, end_column,
text], ...]}]}`, 0-based, columns in code points), so that the code action
request only turns it into the client's units. The hints are the ones the
language writes (a did-you-mean word, a path to quote, a bundled variant to
start from, a line to restate); an error whose hint proposes no edit has no fix.
"""
from __future__ import annotations

import re
from typing import Any, TypedDict

from rulelang.base.errors import RulesetError
from rulelang.language.analysis import Analysis
from rulelang.language.ast import written_lines
from rulelang.language.bundled import bundled_names
from rulelang.language.formatter import split_comment, statement_lines
from rulelang.language.parser import statement_of_line

__all__ = ["Edit", "Fix", "fixes_of", "restatements", "restate_edit"]

Edit = list[Any]  # JSON [line, column, end_line, end_column, new text]: 0-based, code points


class Fix(TypedDict):
    """One quick fix as a diagnostic's `data` carries it (JSON)."""

    title: str
    edits: list[Edit]


_DID_YOU_MEAN = re.compile(r"did you mean `([^`]+)`\?")
_QUOTED_BASE = re.compile(r'`(based on "[^`]*")`')
_WRITE = re.compile(r"\bwrite ((?:`[^`]+`(?:,? or |, )?)+)")  # `write `A`` or `write `A` or `B``
_BACKTICKED = re.compile(r"`([^`]+)`")
_INHERITED_LINE = re.compile(r"`[^`]+` states `([^`]+)`; restate it here")
_BASE_NAME = re.compile(r"(\s*based\s+on\s+)(\S+)")
_START_FROM = "start from a bundled variant"


def fixes_of(error: RulesetError, analysis: Analysis) -> list[Fix]:
    """The quick fixes for one error or warning of the analysed text: a title and its edits each."""
    hint = error.hint or ""
    line = (error.line or 1) - 1
    source = error.source_line or ""
    out: list[Fix] = []
    word = _DID_YOU_MEAN.search(hint)
    if word and error.code == "unknown-base":
        name = _BASE_NAME.match(source)
        if name:
            start = name.end(1)
            out.append(_fix(f"Replace with `{word.group(1)}`", [[line, start, line, name.end(2), word.group(1)]]))
    elif word:
        start = (error.column or 1) - 1
        end = (error.end_column or error.column or 1) - 1
        out.append(_fix(f"Replace with `{word.group(1)}`", [[line, start, line, end, word.group(1)]]))
    quoted = _QUOTED_BASE.search(hint)
    if quoted:
        start = len(source) - len(source.lstrip())
        end = start + len(source[start:].split(" #")[0].rstrip())
        out.append(_fix(f"Quote the path: `{quoted.group(1)}`", [[line, start, line, end, quoted.group(1)]]))
    if hint.startswith(_START_FROM):
        at = _after_header(analysis)
        for variant in bundled_names():
            out.append(_fix(f"Start from the bundled variant `{variant}`", [[at, 0, at, 0, f"based on {variant}\n"]]))
    inherited = _INHERITED_LINE.search(hint)
    if inherited:
        edit = restate_edit(analysis, [inherited.group(1)])
        if edit is not None:
            out.append(_fix(f"Restate the inherited rule here: `{inherited.group(1)}`", [edit]))
    written = _WRITE.search(hint)
    for suggested in _BACKTICKED.findall(written.group(1)) if written else []:
        edit = write_edit(analysis, suggested.split("; "))
        if edit is not None:
            out.append(_fix(f"Write `{suggested}`", [edit]))
    return out


def _fix(title: str, edits: list[Edit]) -> Fix:
    return Fix(title=title, edits=edits)


def _after_header(analysis: Analysis) -> int:
    """The 0-based line after the header (`ruleset`, then `source`), where `based on` goes."""
    lines = [st.span.line for st in analysis.statements if st.key in ("ruleset", "source")]
    return max(lines) if lines else 0


def _key_of(analysis: Analysis, text: str) -> tuple[str, str | None] | None:
    """(key, section) of the statement a line states; a settlement line, which reads the same in both sections,
    is taken for the one whose rule the text inherits, else the first."""
    found = statement_of_line(text)
    if not found:
        return None
    return next((f for f in found if f[0] in analysis.inherited), found[0])


def write_edit(analysis: Analysis, texts: list[str]) -> Edit | None:
    """The edit that writes a statement: in place of the text's own one (on one line), else inserted."""
    found = _key_of(analysis, texts[0])
    if found is None:
        return None
    own = next((st for st in analysis.statements if st.key == found[0] and not st.misplaced), None)
    if own is None:
        return restate_edit(analysis, texts, found)
    lines = written_lines(own)
    if len(lines) != 1 or len(texts) != 1 or analysis.ruleset is None:
        return None
    row = lines[0] - 1
    source = analysis.ruleset.text.split("\n")[row]
    start = len(source) - len(source.lstrip())
    end = start + len(split_comment(source[start:])[0].rstrip())
    return [row, start, row, end, texts[0].strip()]


def restate_edit(analysis: Analysis, texts: list[str],
                 found: tuple[str, str | None] | None = None) -> Edit | None:
    """The edit that writes the lines of one statement where `fmt` would put it (its section too)."""
    found = found or _key_of(analysis, texts[0])
    if found is None:
        return None
    key, section = found
    at, header = analysis.insertion_line(key, section)
    indent = "  " if section else ""
    body = "".join(f"{indent}{text.strip()}\n" for text in texts)
    lines = analysis.ruleset.text.split("\n") if analysis.ruleset is not None else [""]
    if header:
        gap = "\n" if 0 < at <= len(lines) and lines[at - 1].strip() else ""
        body = f"{gap}on {section}:\n{body}"
    if at >= len(lines):  # after the last line, which has no line break
        end = len(lines[-1])
        return [len(lines) - 1, end, len(lines) - 1, end, "\n" + body.rstrip("\n")]
    return [at, 0, at, 0, body]


def restatements(analysis: Analysis) -> list[tuple[str, Edit]]:
    """(the canonical text, the edit) for every rule the text inherits from its base: "restate it here"."""
    out = []
    for st in analysis.in_force:
        if st.key not in analysis.inherited:
            continue
        texts = statement_lines(st.key, st.value)
        edit = restate_edit(analysis, texts, (st.key, st.section))
        if edit is not None:
            out.append(("; ".join(texts), edit))
    return out
