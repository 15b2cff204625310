"""The declared fields, read once: each with its attribute name, `Spec` and (when asked) its annotation."""
from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any, NamedTuple

from rulelang.config.spec import Spec, spec_of

__all__ = ["Declared", "declared", "typed", "fields_of", "statement_pointer"]


class Declared(NamedTuple):
    """One declared field."""

    attr: str  # the engine's attribute
    spec: Spec
    hint: Any  # the annotation, with its `Annotated` extras (None until resolved: `typed`)


def fields_of(cls: type[Any], with_hints: bool = True) -> tuple[Declared, ...]:
    """The declared fields of a declaration class, in order, a field of a nested object beside its siblings
    (derived attributes left out)."""
    from typing import get_type_hints  # evaluates every annotation: only the schema and the engine need them

    hints = get_type_hints(cls, include_extras=True) if with_hints else {}
    out: list[Declared] = []
    for f in dataclasses.fields(cls):
        spec = spec_of(f)
        if spec is not None:
            out.insert(_place(out, spec.path), Declared(f.name, spec, hints.get(f.name)))
    return tuple(out)


def _place(earlier: list[Declared], path: tuple[str, ...]) -> int:
    """Where a field goes: just after the last earlier field of its object when that object is nested (a field
    declared by a statement entry, at the end of `Fields`, joins its siblings in the schema and docs), else last."""
    if len(path) > 1:
        for i in range(len(earlier) - 1, -1, -1):
            if earlier[i].spec.path[:-1] == path[:-1]:
                return i + 1
    return len(earlier)


@cache
def declared() -> tuple[Declared, ...]:
    """The fields of the configuration (rulelang/config/fields.py), in order, without their annotations."""
    from rulelang.config.fields import Fields

    return fields_of(Fields, with_hints=False)


@cache
def typed() -> tuple[Declared, ...]:
    """The fields of the configuration with their annotations resolved."""
    from rulelang.config.fields import Fields

    return fields_of(Fields)


@cache
def statement_pointer(statement: str) -> str:
    """The JSON pointer a fault of `statement` points at: its first declared field."""
    return next(d.spec.pointer for d in declared() if d.spec.statement == statement)
