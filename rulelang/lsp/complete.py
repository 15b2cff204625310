"""What the language server offers to complete: what may follow the words already on the line.

The grammar decides: the line up to the cursor (after its section's header,
for an indented line under `on domino:` or `on block:`) is fed to lark's
interactive parser, and the terminals it accepts next become the offers (a
keyword as itself; a name after `based on` as the bundled names, after
`tiles` as the set names; a text after `based on` as the ruleset files
beside the one edited). At the start of a line the offers are whole
statements, the statement table's examples (those of the section the line is
in). Each offer replaces the word being typed.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from rulelang.config.vocabulary import SET_NAMES
from rulelang.language.bundled import bundled_names
from rulelang.language.grammar import accepted_after, keyword_terminals
from rulelang.language.statements import TABLE

__all__ = ["Offer", "offers"]

_PARTIAL = re.compile(r"[A-Za-z0-9'\-]*$")
_PATH_BEGUN = re.compile(r'\s*based\s+on\s+"[^"]*$')  # `based on "clu`: a path being typed
MAX_FILES = 200  # ruleset files offered at most after `based on "`


@dataclass(frozen=True, slots=True)
class Offer:
    """One completion: its text, what kind of thing it is, a note, and the column (code points) it starts at."""

    label: str
    kind: str  # "statement", "keyword", "ruleset", "file", "value"
    detail: str
    start: int


def _section_of(lines: list[str], row: int) -> str | None:
    """The header line of the section an indented line is in, or None."""
    if row >= len(lines) or lines[row][:1] not in (" ", "\t"):
        return None
    for above in range(row - 1, -1, -1):
        text = lines[above]
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        if text[:1] in (" ", "\t"):
            continue
        return text.split("#")[0].strip() if text.strip().startswith("on ") else None
    return None


def _files(folder: str | None, here: str | None) -> list[str]:
    """The `*.rules` files of a folder (not the file being edited), sorted: the paths a `based on` may quote."""
    if folder is None:
        return []
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    found = [n for n in names if n.endswith(".rules") and not n.startswith(".") and n != here]
    return [f'"{name}"' for name in found[:MAX_FILES]]


def _agreeing(keywords: list[str], words: list[str]) -> list[str]:
    """A word the grammar takes singular or plural (a phrase's `point[s]`): the form the number before it needs."""
    both = {w for w in keywords if w + "s" in keywords}
    one = words[-1:] == ["1"]
    return [w for w in keywords if not (w in both and not one or w[:-1] in both and one)]


def _set_names() -> list[str]:
    """The names of the tile sets (`tiles double-nine`), by their size."""
    return [SET_NAMES[n] for n in sorted(SET_NAMES)]


def offers(lines: list[str], row: int, column: int, filename: str | None = None) -> list[Offer]:
    """The completions at a 0-based line and column (code points) of a text given as lines; FILENAME (the
    text's file, if it has one) lets a `based on "` offer the ruleset files beside it."""
    before = lines[row][:column] if row < len(lines) else ""
    folder, here = (os.path.split(filename) if filename else (None, None))
    if _PATH_BEGUN.match(before):
        return [Offer(path, "file", "ruleset file", before.rindex('"')) for path in _files(folder, here)]
    partial = _PARTIAL.search(before)
    start = partial.start() if partial else column
    done = before[:start]
    header = _section_of(lines, row)
    if not done.strip():
        section = header[len("on "):-1] if header and header.endswith(":") else None
        return [Offer(info.example, "statement", info.words, start) for info in TABLE if info.section == section]
    accepted = accepted_after((header + "\n" if header else "") + done)
    if not accepted:
        return []
    out: list[Offer] = []
    words = done.split()
    keyword_of = keyword_terminals()  # a terminal's keyword; a value (a number, a name, a text) has none
    keywords = _agreeing(sorted(keyword_of[t] for t in accepted if t in keyword_of), words)
    out += [Offer(word, "keyword", "keyword", start) for word in keywords]
    for terminal in sorted(accepted):
        if terminal == "NAME" and words[-2:] == ["based", "on"]:
            out += [Offer(name, "ruleset", "bundled ruleset", start) for name in bundled_names()]
        elif terminal == "STRING" and words[-2:] == ["based", "on"]:
            out += [Offer(path, "file", "ruleset file", start) for path in _files(folder, here)]
        elif terminal == "NAME" and words[-1:] == ["tiles"]:
            out += [Offer(name, "value", "tile set", start) for name in _set_names()]
    return out
