"""The generated block of `Fields`: the fields statement entries declare beside their phrases (`FieldDecl`).

`python -m rulelang.generate` rewrites the lines between `BEGIN` and `END` in
rulelang/config/fields.py from the statement table, one `declare(...)` line a
field, so a new statement's field is written once, in its entry, and is still
a typed attribute of `Fields` (and of the engine's `Config`) that mypy checks.
The other fields of `Fields` stay hand-declared above the block.
"""
from __future__ import annotations

import json
from collections.abc import Iterable

from rulelang.config.spec import FieldDecl

__all__ = ["BEGIN", "END", "declare_line", "block", "rewrite"]

BEGIN = "    # BEGIN fields declared by statement entries (python -m rulelang.generate writes them; edit the entry)\n"
END = "    # END fields declared by statement entries\n"
WIDTH = 120


def _literal(value: object) -> str:
    """A JSON default as Python source with fields.py's double quotes."""
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else repr(value)


def declare_line(statement: str, decl: FieldDecl) -> str:
    """The `declare(...)` line of one field, as fields.py spells a hand-declared one."""
    args = [json.dumps(decl.path), json.dumps(decl.doc, ensure_ascii=False), json.dumps(statement)]
    if not decl.required:
        args.append(f"default={_literal(decl.default)}")
    if decl.before is not None:
        args.append(f"before={json.dumps(decl.before)}")
    head = f"    {decl.attr or statement}: {decl.type} = declare("
    one = head + ", ".join(args) + ")\n"
    two = head + "\n        " + ", ".join(args) + ")\n"
    if len(one) <= WIDTH + 1:
        return one
    if max(len(line) for line in two.splitlines()) <= WIDTH:
        return two
    return head + "\n" + "".join(f"        {a},\n" for a in args[:-1]) + f"        {args[-1]})\n"


def block(entries: Iterable[tuple[str, FieldDecl]]) -> str:
    """The generated lines for (statement key, field) pairs, in the statement table's order."""
    return "".join(declare_line(key, decl) for key, decl in entries)


def rewrite(text: str, lines: str) -> str:
    """fields.py with its block replaced by `lines` (its markers must be there once each)."""
    head, begin, rest = text.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise ValueError("rulelang/config/fields.py has lost its generated block's markers:\n" + BEGIN + END)
    return head + BEGIN + lines + END + tail
