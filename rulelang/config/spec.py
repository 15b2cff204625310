"""How a configuration field is declared: `declare(...)` puts a `Spec` in a dataclass field's metadata.

A field of `rulelang.config.fields.Fields` is the engine's typed attribute
(its annotation) and, through its `Spec`, the place it has in the JSON
configuration, its documentation, the statement that sets it and its
default. The schema, the compiler's empty configuration, the engine's
reading of a configuration and `without_defaults` are all computed from these.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, Final

__all__ = ["Spec", "Schema", "REQUIRED", "declare", "derived", "spec_of"]


class _Required:
    """The default of a field every configuration must write."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Final = _Required()
META = "rulelang-config"


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Schema:
    """JSON Schema keywords a type adds to the ones its Python type gives: `Annotated[int, Schema({"minimum": 1})]`.

    Compared by identity (`Annotated` hashes its extras; a mapping has no hash).
    """

    keywords: Mapping[str, object]


@dataclasses.dataclass(frozen=True, slots=True)
class Spec:
    """Where a field is in the configuration and what it means."""

    path: tuple[str, ...]  # ("target", "overshoot")
    doc: str  # one line: what the field says
    statement: str | None  # the key of the statement that sets it (rulelang/language/statements), if any
    default: object  # the JSON value an absent field stands for (REQUIRED: never absent); may be a function of the config
    empty: object  # the value in the compiler's empty configuration (required fields)
    schema: Mapping[str, Any] | None  # the value's JSON Schema, when the annotation does not give it
    read: Callable[[Any], Any] | None  # JSON value -> the engine's value (None: the annotation's shape decides)
    used_when: Callable[[Mapping[str, object]], bool] | None  # an optional field that means nothing otherwise
    before: str | None = None  # an optional field the compiler writes just before this sibling (else at the end)

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    @property
    def dotted(self) -> str:
        """`target.overshoot`."""
        return ".".join(self.path)

    @property
    def pointer(self) -> str:
        """`/target/overshoot` (a JSON pointer)."""
        return "/" + "/".join(self.path)

    def default_for(self, config: Mapping[str, object]) -> object:
        """The JSON value this absent field stands for in `config`."""
        return self.default(config) if callable(self.default) else self.default


def declare(path: str, doc: str, statement: str | None = None, *, default: object = REQUIRED, empty: object = None,
            schema: Mapping[str, Any] | None = None, read: Callable[[Any], Any] | None = None,
            used_when: Callable[[Mapping[str, object]], bool] | None = None, before: str | None = None) -> Any:
    """A configuration field at dotted `path`; see `Spec` for the rest."""
    spec = Spec(tuple(path.split(".")), doc, statement, default, empty, schema, read, used_when, before)
    return dataclasses.field(metadata={META: spec})


def derived() -> Any:
    """An attribute the engine computes from the fields (not a field of the configuration)."""
    return dataclasses.field(init=False, repr=False, compare=False)


def spec_of(f: dataclasses.Field[object]) -> Spec | None:
    """The Spec of a dataclass field, or None for a derived attribute."""
    got = f.metadata.get(META)
    return got if isinstance(got, Spec) else None
