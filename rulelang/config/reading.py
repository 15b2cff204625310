"""A valid configuration dict -> the values of the declared fields, as the engine holds them.

Lists become tuples, objects read-only mappings (per-count objects keyed by
int), an absent optional field its declared default; a field's own `read`
(e.g. the sorted player counts) comes first.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import cache
from types import MappingProxyType
from typing import Annotated, Any, get_args, get_origin

from rulelang.config.declared import typed
from rulelang.config.fields import Fields
from rulelang.config.spec import Spec

__all__ = ["freeze", "thaw", "read_fields", "read_record", "with_field"]

Reader = Callable[[Any], Any]


def freeze(value: object) -> object:
    """JSON data made read-only: dicts as mappings, lists as tuples."""
    if isinstance(value, dict):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: object) -> object:
    """A field's value as JSON data (the inverse of `freeze`): tuples as lists, mappings as objects with text keys."""
    if isinstance(value, Mapping):
        return {str(k): thaw(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [thaw(v) for v in value]
    return value


def _by_count(value: Mapping[str, object]) -> Mapping[int, object]:
    return MappingProxyType({int(k): v for k, v in value.items()})


def _shape_reader(hint: object) -> Reader | None:
    """How the annotation's shape reads a JSON value (None: as it is)."""
    if get_origin(hint) is Annotated:
        hint = get_args(hint)[0]
    origin = get_origin(hint)
    if origin is tuple:
        return freeze
    if origin is Mapping:
        return _by_count
    return None


@cache
def _plan() -> tuple[tuple[str, tuple[str, ...], bool, Spec, Reader | None], ...]:
    """Per field: attribute, path, required, the Spec (for its default), reader."""
    return tuple((d.attr, d.spec.path, d.spec.required, d.spec, d.spec.read or _shape_reader(d.hint))
                 for d in typed())


def read_fields(data: Mapping[str, object]) -> dict[str, Any]:
    """The engine's value of every declared field of a valid configuration (attribute -> value)."""
    out: dict[str, Any] = {}
    for attr, path, required, spec, read in _plan():
        node: Any = data
        for name in path[:-1]:
            node = node[name]
        if required or path[-1] in node:
            value = node[path[-1]]
        else:
            value = spec.default_for(data)
        out[attr] = read(value) if read is not None and value is not None else value
    return out


def read_record(data: Mapping[str, object]) -> Fields:
    """A valid configuration dict as the typed record of its fields (an absent optional field: its default)."""
    return Fields(**read_fields(data))


def with_field(record: Fields, attr: str, value: object) -> Fields:
    """The record with the field named `attr` set to `value` (a statement's field, named by its declaration)."""
    changes: dict[str, Any] = {attr: value}
    return replace(record, **changes)
