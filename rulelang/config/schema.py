"""The JSON Schema of the configuration, generated from the declared fields (rulelang/config/fields.py).

The committed file `rulelang/schema/config.schema.json` is the output of
`generate()` (`python -m rulelang.generate` writes it, a test fails when it
is stale); validation reads that file (rulelang/config/validation.py).
"""
from __future__ import annotations

import json
import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

from rulelang.config.declared import Declared, typed
from rulelang.config.spec import Schema

__all__ = ["SCHEMA_ID", "generate", "dump", "type_schema"]

SCHEMA_ID = "urn:rulelang:schema:config:1"
HEAD = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": SCHEMA_ID,
    "title": "rulelang engine configuration",
    "description": "A compiled ruleset: every parameter an All Fives / Five-Up engine needs, fully resolved (no "
                   "inheritance, no defaults left implicit). Semantics: `rulelang help config`. Generated from "
                   "rulelang/config/fields.py by `python -m rulelang.generate`: do not edit.",
}
_JSON_TYPES = {bool: "boolean", int: "integer", str: "string"}


def type_schema(tp: Any, optional: bool = False) -> dict[str, object]:
    """The JSON Schema of a value of the Python type `tp` (an absent optional field is never null)."""
    extras: dict[str, object] = {}
    node: dict[str, object]
    if get_origin(tp) is Annotated:
        tp, *meta = get_args(tp)
        for m in meta:
            if isinstance(m, Schema):
                extras.update(m.keywords)
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) > 1:
            node = {"oneOf": [type_schema(a) for a in args]}
        else:
            node = type_schema(args[0])
            if len(args) < len(get_args(tp)) and not optional:
                node["type"] = [node["type"], "null"]
    elif is_typeddict(tp):
        hints = get_type_hints(tp, include_extras=True)
        node = {"type": "object", "additionalProperties": False,
                "required": [k for k in hints if k in tp.__required_keys__],
                "properties": {k: type_schema(h) for k, h in hints.items()}}
    elif origin is Literal:
        values = list(get_args(tp))
        node = {"const": values[0]} if len(values) == 1 else {"enum": values}
    elif origin is tuple:
        node = {"type": "array", "items": type_schema(get_args(tp)[0])}
    elif tp in _JSON_TYPES:
        node = {"type": _JSON_TYPES[tp]}
    else:
        raise TypeError(f"no JSON Schema for {tp!r}: give the field a `schema=`")
    return {**node, **extras}


def _value_schema(d: Declared) -> dict[str, object]:
    return dict(d.spec.schema) if d.spec.schema is not None else type_schema(d.hint, not d.spec.required)


def _object(fields: list[tuple[tuple[str, ...], Declared]], where: str,
            constraints: dict[str, dict[str, object]]) -> dict[str, object]:
    """The object holding `fields` (paths relative to it), with nested objects for longer paths."""
    properties: dict[str, object] = {}
    required: set[str] = set()
    groups: dict[str, list[tuple[tuple[str, ...], Declared]]] = {}
    for path, d in fields:
        if len(path) == 1:
            properties[path[0]] = _value_schema(d)
            if d.spec.required:
                required.add(path[0])
        else:
            if path[0] not in groups:
                groups[path[0]] = []
                properties[path[0]] = None  # keeps the declared order
            groups[path[0]].append((path[1:], d))
    for name, members in groups.items():
        inner = f"{where}.{name}" if where else name
        properties[name] = _object(members, inner, constraints)
        if any(d.spec.required for _, d in members):
            required.add(name)
    node: dict[str, object] = {"type": "object", "additionalProperties": False,
                            "required": [name for name in properties if name in required]}
    node.update(constraints.get(where, {}))
    node["properties"] = properties
    return node


def generate() -> dict[str, object]:
    """The configuration's JSON Schema, from the declarations."""
    from rulelang.config.fields import CONSTRAINTS

    return {**HEAD, **_object([(d.spec.path, d) for d in typed()], "", CONSTRAINTS)}


def dump(schema: dict[str, object]) -> str:
    """The committed file's text."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
