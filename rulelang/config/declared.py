"""The declared fields, read once: each with its attribute name, `Spec` and resolved annotation."""
from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any, NamedTuple, get_type_hints

from rulelang.config.spec import Spec, spec_of

__all__ = ["Declared", "declared", "fields_of", "statement_pointer"]


class Declared(NamedTuple):
    """One declared field."""

    attr: str  # the engine's attribute
    spec: Spec
    hint: Any  # the annotation, with its `Annotated` extras


def fields_of(cls: type[Any]) -> tuple[Declared, ...]:
    """The declared fields of a declaration class, in order (derived attributes left out)."""
    hints = get_type_hints(cls, include_extras=True)
    out = []
    for f in dataclasses.fields(cls):
        spec = spec_of(f)
        if spec is not None:
            out.append(Declared(f.name, spec, hints[f.name]))
    return tuple(out)


@cache
def declared() -> tuple[Declared, ...]:
    """The fields of the configuration (rulelang/config/fields.py), in order."""
    from rulelang.config.fields import Fields

    return fields_of(Fields)


@cache
def statement_pointer(statement: str) -> str:
    """The JSON pointer a fault of `statement` points at: its first declared field."""
    return next(d.spec.pointer for d in declared() if d.spec.statement == statement)
