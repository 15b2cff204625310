"""The typed configuration the compiler resolves statements into, and its JSON at the boundary.

The record is `Fields` (rulelang/config/fields.py), the declaration the
engine's `Config` is built on: statements set its attributes
(`dataclasses.replace`) and read them back typed. JSON appears only here:
`record_json` writes a record as `rulelang-config/1` (an optional field only
when it holds no default and means something, each key where the compiler has
always written it), and `read_record` (rulelang/config/reading.py) reads one.
"""
from __future__ import annotations

from functools import cache
from typing import Any

from rulelang.config.declared import Declared, declared
from rulelang.config.defaults import empty_config
from rulelang.config.fields import Fields
from rulelang.config.reading import read_record, thaw
from rulelang.language.statements import ORDER

__all__ = ["Fields", "empty_record", "read_record", "record_json"]


@cache
def empty_record() -> Fields:
    """The record before any statement is resolved: required fields hold their `empty` value, the others their
    default."""
    return read_record(empty_config())


@cache
def _layout() -> tuple[Declared, ...]:
    """The fields in the order they are written: the required ones as declared, then the optional ones in the
    canonical order of their statements (each at the end of its object, or before its `before` sibling)."""
    fields = declared()
    optional = sorted((d for d in fields if not d.spec.required),
                      key=lambda d: (ORDER[d.spec.statement] if d.spec.statement else -1, fields.index(d)))
    return tuple(d for d in fields if d.spec.required) + tuple(optional)


def record_json(record: Fields) -> dict[str, Any]:
    """The configuration a record states, as the compiler writes it (a fresh dict)."""
    full: dict[str, Any] = {}  # every field, defaults included: what an optional field's default depends on
    values = {d.attr: thaw(getattr(record, d.attr)) for d in declared()}
    for d in declared():
        node = full
        for name in d.spec.path[:-1]:
            node = node.setdefault(name, {})
        node[d.spec.path[-1]] = values[d.attr]
    out: dict[str, Any] = {}
    for d in _layout():
        spec, value = d.spec, values[d.attr]
        if not spec.required and ((spec.used_when is not None and not spec.used_when(full))
                                  or value == spec.default_for(full)):
            continue
        node = out
        for name in spec.path[:-1]:
            node = node.setdefault(name, {})
        if spec.before is not None and spec.before in node:
            items = list(node.items())
            at = list(node).index(spec.before)
            node.clear()
            node.update(items[:at] + [(spec.path[-1], value)] + items[at:])
        else:
            node[spec.path[-1]] = value
    return out
