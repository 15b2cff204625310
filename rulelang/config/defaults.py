"""What the declarations say about absent and empty fields: the compiler's skeleton and `without_defaults`."""
from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from rulelang.config.declared import declared

__all__ = ["empty_config", "without_defaults"]


@cache
def _skeleton() -> dict[str, object]:
    out: dict[str, object] = {}
    for d in declared():
        if d.spec.required:
            node = out
            for name in d.spec.path[:-1]:
                child = node.setdefault(name, {})
                assert isinstance(child, dict)  # the declared paths only nest objects
                node = child
            node[d.spec.path[-1]] = d.spec.empty
    return out


def _fresh(value: object) -> object:
    """A deep copy of plain JSON data (dicts, lists, scalars)."""
    if isinstance(value, dict):
        return {k: _fresh(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_fresh(v) for v in value]
    return value


def _fresh_config(config: Mapping[str, object]) -> dict[str, object]:
    """A deep copy of a configuration document."""
    return {k: _fresh(v) for k, v in config.items()}


def empty_config() -> dict[str, object]:
    """The configuration before any statement is resolved: every required field holding its `empty` value (a fresh copy)."""
    return _fresh_config(_skeleton())


def without_defaults(config: Mapping[str, object]) -> dict[str, object]:
    """A copy of a configuration without the optional fields that hold their default, or mean nothing.

    The compiler never writes them; a configuration written by hand may: both state the same rules.
    """
    out = _fresh_config(config)
    for d in declared():
        spec = d.spec
        if spec.required:
            continue
        node: object = out
        for name in spec.path[:-1]:
            node = node.get(name) if isinstance(node, dict) else None
        if not isinstance(node, dict) or spec.path[-1] not in node:
            continue
        unused = spec.used_when is not None and not spec.used_when(config)
        if unused or node[spec.path[-1]] == spec.default_for(config):
            del node[spec.path[-1]]
    return out
