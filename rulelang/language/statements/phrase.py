"""A phrase written once, as a template: its grammar, its canonical spelling (`fmt`) and its examples.

`the next player to place scores {N:1,5} point[s] per knock` says it all:

- a word is a keyword (one terminal a word, named after it: `terminal_name`);
  `"seat 0"` is one keyword of several words;
- `word[s]` is the word or its plural, both accepted; `fill` writes the one
  the number before it needs (`1 point`, `5 points`);
- `{N}` is a number (`{N:1,5}`: the numbers of its examples, one example
  each), `{SIGNED}` a number with a sign, `{NAME}` a name, `{TEXT}` a quoted
  text, `{NL}` the end of a line, `{part}` a part of a phrase with a grammar
  rule of its own (`Part`, rulelang/language/statements/table.py);
- `,` `:` `;` are punctuation; `(` `)` `|` `?` `*` `+` group as in lark, and
  `-> name` at the end names the alternative (its reader's name).

rulelang/language/statements/grammar_file.py writes the grammar (ruleset.lark) from
the phrases of the statement table.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import NamedTuple

__all__ = ["Item", "items", "lark", "keywords", "terminal_name", "fill", "examples"]

_TOKEN = re.compile(r"""\s*(?:
    (?P<slot>\{(?P<name>[A-Za-z_]+)(?::(?P<ex>[0-9,]+))?\})
  | "(?P<quoted>[^"]+)"
  | (?P<word>[a-z][a-z'\-]*)(?P<plural>\[s\])?
  | (?P<punct>[,:;])
  | (?P<alias>->\s*[a-z_]+)
  | (?P<op>[()|?*+])
)""", re.X)
PUNCTUATION = {",": "COMMA", ":": "COLON", ";": "SEMICOLON"}
VALUES = {"N": "NUMBER", "SIGNED": "SIGNED_NUMBER", "NAME": "NAME", "TEXT": "STRING", "NL": "_NL"}
_DIGITS = ("ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE")


class Item(NamedTuple):
    """One piece of a template: kind (word, plural, quoted, slot, punct, alias, op), its text, example numbers."""

    kind: str
    text: str
    numbers: tuple[int, ...] = ()


@cache
def items(template: str) -> tuple[Item, ...]:
    """The pieces of a template (a ValueError names what cannot be read)."""
    out: list[Item] = []
    at = 0
    text = template.rstrip()
    while at < len(text):
        m = _TOKEN.match(text, at)
        if m is None or m.end() == at:
            raise ValueError(f"cannot read the phrase template {template!r} at {text[at:]!r}")
        at = m.end()
        if m.group("slot"):
            ex = tuple(int(n) for n in m.group("ex").split(",")) if m.group("ex") else ()
            out.append(Item("slot", m.group("name"), ex))
        elif m.group("quoted"):
            out.append(Item("quoted", m.group("quoted")))
        elif m.group("word"):
            out.append(Item("plural" if m.group("plural") else "word", m.group("word")))
        elif m.group("punct"):
            out.append(Item("punct", m.group("punct")))
        elif m.group("alias"):
            out.append(Item("alias", m.group("alias")[2:].strip()))
        else:
            out.append(Item("op", m.group("op")))
    return tuple(out)


def terminal_name(keyword: str) -> str:
    """The terminal of a keyword, named after it: `knock` KNOCK, `opponent's` OPPONENT_S, `partners'`
    PARTNERS_PL, `seat 0` SEAT_ZERO (lark's own rule for an inline literal, with a name for `'` and digits)."""
    parts = []
    for word in keyword.split():
        if word.isdigit():
            parts.append("_".join(_DIGITS[int(d)] for d in word))
            continue
        name = word.upper().replace("-", "_")
        if name.endswith("'S"):
            name = name[:-2] + "_S"
        elif name.endswith("'"):
            name = name[:-1] + "_PL"
        parts.append(name)
    return "_".join(parts)


def keywords(template: str) -> Iterator[str]:
    """The keywords a template uses (a plural word: both forms)."""
    for item in items(template):
        if item.kind in ("word", "quoted"):
            yield item.text
        elif item.kind == "plural":
            yield item.text
            yield item.text + "s"


def lark(template: str, end: str = "") -> str:
    """The template as a lark expansion (`end`, such as `_NL`, before its alias)."""
    out: list[str] = []
    alias = ""
    for item in items(template):
        if item.kind in ("word", "quoted"):
            out.append(terminal_name(item.text))
        elif item.kind == "plural":
            out.append(f"({terminal_name(item.text)} | {terminal_name(item.text + 's')})")
        elif item.kind == "slot":
            out.append(VALUES.get(item.text, item.text))
        elif item.kind == "punct":
            out.append(PUNCTUATION[item.text])
        elif item.kind == "alias":
            alias = f" -> {item.text}"
        elif item.text in "?*+" and out:
            out[-1] += item.text
        else:
            out.append(item.text)
    text = " ".join(out).replace("( ", "(").replace(" )", ")")
    return (f"{text} {end}" if end else text) + alias


def fill(template: str, *values: int | str) -> str:
    """The canonical words of a template with the values of its slots, in order: a number (`{N}`), a name, a
    text (quoted here) or the words of a part; a plural word agrees with the number before it."""
    out: list[str] = []
    given = list(values)
    last: int | None = None
    for item in items(template):
        if item.kind == "slot" and item.text != "NL":
            if not given:
                raise ValueError(f"{template!r} needs more values than {values}")
            value = given.pop(0)
            if item.text in ("N", "SIGNED"):
                last = int(value)
            text = f'"{value}"' if item.text == "TEXT" else str(value)
            if text.startswith(",") and out:  # a part that starts with its comma: `, partners' ties too`
                out[-1] += text
            else:
                out.append(text)
        elif item.kind == "plural":
            out.append(item.text if last == 1 else item.text + "s")
        elif item.kind in ("word", "quoted"):
            out.append(item.text)
        elif item.kind == "punct":
            out[-1] += item.text
        else:
            raise ValueError(f"{template!r} has a group: write each alternative as a phrase of its own")
    if given:
        raise ValueError(f"{template!r} has fewer values than {values}")
    return " ".join(out)


def examples(template: str) -> tuple[str, ...]:
    """The template's example lines: one for each example number of its slots (the last repeated), or itself."""
    slots = [i.numbers or (2,) for i in items(template) if i.kind == "slot" and i.text in ("N", "SIGNED")]
    count = max((len(s) for s in slots), default=1)
    return tuple(fill(template, *(s[min(k, len(s) - 1)] for s in slots)) for k in range(count))
