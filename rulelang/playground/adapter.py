"""The playground's one door into the language internals.

Every call into the compiler, formatter, explainer and parser goes through
here, so a rename inside the language is a one-line fix in this file. The rest
of the playground sees plain dicts and lists ready for JSON.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import TypedDict

from rulelang import compile_bundled
from rulelang.base.errors import RulesetCheckError, RulesetError
from rulelang.base.jsontypes import ConfigJSON
from rulelang.base.readinput import TooLargeError, read_text
from rulelang.language.analysis import analyse
from rulelang.language.ast import STATEMENTS, Statement
from rulelang.language.bundled import bundled_names, bundled_text
from rulelang.language.explain import diff_configs, explain_config, explain_text
from rulelang.language.formatter import format_text
from rulelang.language.parser import keywords, parse

__all__ = ["Analysis", "analyse_text", "format_ruleset_text", "language_words", "variants", "variant_text",
           "diagnostic", "MAX_BASE_DEPTH"]

MAX_BASE_DEPTH = 8  # `based on` chains longer than this are refused before the compiler reads them
MAX_BASE_BYTES = 256 * 1024  # a base file larger than this is refused before anything reads it
# One language call at a time: requests run in a thread pool, and the parser and
# compiler were written for one caller (a single user never notices the wait).
_LOCK = threading.Lock()


class Diagnostic(TypedDict):
    """An error as the editor shows it."""

    code: str
    message: str
    line: int | None
    column: int | None
    end_column: int | None
    hint: str | None
    rendered: str


class Sentence(TypedDict):
    key: str
    text: str
    inherited: bool


class Section(TypedDict):
    """A heading of the explanation and its sentences."""

    heading: str
    sentences: list[Sentence]


def diagnostic(e: RulesetError, path: str | None = None) -> Diagnostic:
    """One error as the editor shows it: the same code, position, hint and text as `rulelang check`.

    An error in the text at PATH is named by the file's name alone, not its place in the workspace.
    """
    if path is not None and e.filename == path:
        e.filename = os.path.basename(path)
    return {"code": e.code, "message": e.message, "line": e.line, "column": e.column,
            "end_column": e.end_column, "hint": e.hint, "rendered": e.render()}


@dataclass
class Analysis:
    """What the side panels show for one text: diagnostics, or the explanation, diff and inherited rules."""

    diagnostics: list[Diagnostic]
    config: ConfigJSON | None = None
    explain: str = ""
    sections: list[Section] = field(default_factory=list)
    inherited: list[str] = field(default_factory=list)
    base: str | None = None
    diff: list[dict[str, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {"ok": not self.diagnostics, "diagnostics": self.diagnostics, "explain": self.explain,
                "sections": self.sections, "inherited": self.inherited, "base": self.base, "diff": self.diff,
                "name": self.config["name"] if self.config else None,
                "title": self.config["title"] if self.config else None,
                "players": self.config["players"]["counts"] if self.config else None}


def _base_of(text: str, filename: str) -> tuple[tuple[str, str] | None, Statement | None]:
    """The (kind, ref) of a text's `based on`, with its statement, or (None, None)."""
    with _LOCK:
        ruleset, _errors = parse(text, filename)
    st = ruleset.get("based_on") if ruleset is not None else None
    return (tuple(st.value), st) if st is not None else (None, None)


def _confined(text: str, filename: str, root: str) -> RulesetError | None:
    """An error at the text's `based on` when its chain of base files would read outside the workspace
    ROOT, run deeper than MAX_BASE_DEPTH or read a file too large; else None.

    The compiler follows file bases itself; the playground walks the chain first
    so that no path written in a request reaches outside the workspace.
    """
    top = _base_of(text, filename)[1]
    if top is None:
        return None
    lines = text.split("\n")
    line = lines[top.span.line - 1] if top.span.line - 1 < len(lines) else ""
    end = top.span.end_column if top.span.end_line == top.span.line else len(line.rstrip()) + 1

    top_file = filename

    def refuse(code: str, message: str, hint: str) -> RulesetError:
        return RulesetCheckError(code, message, filename=top_file, line=top.span.line, column=top.span.column,
                                 end_column=end, source_line=line, hint=hint)

    real_root = os.path.realpath(root)
    seen: set[str] = set()
    for _depth in range(MAX_BASE_DEPTH):
        ref, _st = _base_of(text, filename)
        if ref is None or ref[0] == "name" or "\0" in ref[1]:
            return None  # a bundled base reads no file; a path with a NUL byte names none (the compiler says so)
        real = os.path.realpath(os.path.join(os.path.dirname(filename), ref[1]))
        where = "" if not seen else f" (in {os.path.relpath(filename, real_root)})"
        if os.path.isabs(ref[1]) or os.path.commonpath([real_root, real]) != real_root:
            return refuse("outside-workspace", f"the playground reads no file outside its workspace: `{ref[1]}`{where}",
                          "save the base in the workspace folder, or use a bundled name")
        if real in seen:
            return None  # a cycle: the compiler names it
        seen.add(real)
        try:  # a regular file only, opened without blocking: a FIFO or device is refused at once
            text, filename = read_text(real, MAX_BASE_BYTES), real
        except TooLargeError:
            return refuse("base-too-large", f"the base file `{ref[1]}`{where} is too large for the playground",
                          f"a ruleset file has at most {MAX_BASE_BYTES // 1024} KiB here")
        except (OSError, ValueError):
            return None  # the compiler reports the missing or unreadable base itself
    return refuse("base-too-deep", f"the chain of `based on` files is deeper than {MAX_BASE_DEPTH}",
                  "base the ruleset on a bundled variant or a shorter chain")


def _base_config(text: str, filename: str) -> ConfigJSON | None:
    """The compiled configuration of the base a valid text is `based on`."""
    ref, _st = _base_of(text, filename)
    if ref is None:
        return None
    if ref[0] == "name":
        with _LOCK:
            return compile_bundled(ref[1])
    path = os.path.join(os.path.dirname(filename), ref[1])
    try:
        base_text = read_text(path, MAX_BASE_BYTES)
    except (OSError, ValueError):
        return None
    with _LOCK:
        return analyse(base_text, path).config


def analyse_text(text: str, filename: str, root: str) -> Analysis:
    """Check a text as `rulelang check` does; when valid, explain it and compare it with its base.

    The lock is held for language calls only, never while a file of the
    workspace is read here (the compiler's own reads of base files go through
    rulelang.base.readinput: regular files only, opened without blocking).
    """
    outside = _confined(text, filename, root)
    if outside is not None:
        return Analysis([diagnostic(outside, filename)])
    with _LOCK:
        out = _analyse_text(text, filename)
    if out.config is not None and out.base is not None:
        base = _base_config(text, filename)
        if base is not None:
            with _LOCK:
                out.diff = [{"what": what, "base": x, "here": y} for what, x, y in diff_configs(base, out.config)]
    return out


def _analyse_text(text: str, filename: str) -> Analysis:
    result = analyse(text, filename)
    if result.errors or result.config is None:
        return Analysis([diagnostic(e, filename) for e in result.errors])
    config, inherited = result.config, result.inherited
    explained = explain_config(config, inherited)
    sections: list[Section] = [{"heading": heading, "sentences": [{"key": s.key, "text": s.text, "inherited": s.inherited}
                                                    for s in sentences]}
                for heading, sentences in explained]
    out = Analysis([], config, explain_text(config, inherited), sections, base=result.base_label)
    out.inherited = [s.text for _heading, sentences in explained for s in sentences if s.inherited]
    return out


def format_ruleset_text(text: str, filename: str) -> tuple[str | None, list[Diagnostic]]:
    """(canonical text, []) or (None, diagnostics) when the text cannot be formatted."""
    try:
        with _LOCK:
            return format_text(text, filename), []
    except RulesetError as exc:
        return None, [diagnostic(e, filename) for e in exc.errors]


def language_words() -> dict[str, object]:
    """The keywords (for highlighting) and the statement starts (for completion)."""
    with _LOCK:
        words = keywords()
    starts = [{"label": s.example, "detail": s.words, "section": s.section} for s in STATEMENTS]
    starts += [{"label": "on domino:", "detail": "what is settled when a hand is emptied", "section": None},
               {"label": "on block:", "detail": "what is settled when the game blocks", "section": None}]
    return {"keywords": words, "starts": starts}


def variants() -> list[dict[str, str]]:
    """The bundled rulesets: name and title."""
    out = []
    for name in bundled_names():
        try:
            with _LOCK:
                title = compile_bundled(name)["title"]
        except RulesetError:
            title = "(invalid)"
        out.append({"name": name, "title": title})
    return out


def variant_text(name: str) -> str | None:
    """The text of a bundled ruleset, or None."""
    return bundled_text(name) if name in bundled_names() else None
