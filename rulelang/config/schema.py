"""The JSON Schema of the configuration, generated from the declared fields, and validation against it.

`generate()` builds the schema from rulelang/config/fields.py; the committed
file `rulelang/schema/config.schema.json` is its output (`python -m
rulelang.generate` writes it, a test fails when it is stale). Validation
reads the committed file, so it never needs the declarations' types.
"""
from __future__ import annotations

import json
import types
from functools import cache
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from rulelang.config.declared import Declared, declared, fields_of
from rulelang.config.spec import Schema

__all__ = ["SCHEMA_ID", "SCHEMA_FILE", "generate", "schema_text", "config_schema", "schema_problems"]

SCHEMA_ID = "urn:rulelang:schema:config:1"
SCHEMA_FILE = "schema/config.schema.json"  # in the package `rulelang`
HEAD = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": SCHEMA_ID,
    "title": "rulelang engine configuration",
    "description": "A compiled ruleset: every parameter an All Fives / Five-Up engine needs, fully resolved (no "
                   "inheritance, no defaults left implicit). Semantics: docs/config.md. Generated from "
                   "rulelang/config/fields.py by `python -m rulelang.generate`: do not edit.",
}
_JSON_TYPES = {bool: "boolean", int: "integer", str: "string"}


def type_schema(tp: Any, optional: bool = False) -> dict[str, Any]:
    """The JSON Schema of a value of the Python type `tp` (an absent optional field is never null)."""
    extras: dict[str, Any] = {}
    if get_origin(tp) is Annotated:
        tp, *meta = get_args(tp)
        for m in meta:
            if isinstance(m, Schema):
                extras.update(m.keywords)
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        node = type_schema(args[0])
        if len(args) < len(get_args(tp)) and not optional:
            node["type"] = [node["type"], "null"]
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


def _value_schema(d: Declared) -> dict[str, Any]:
    return dict(d.spec.schema) if d.spec.schema is not None else type_schema(d.hint, not d.spec.required)


def _object(fields: list[tuple[tuple[str, ...], Declared]], where: str,
            constraints: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The object holding `fields` (paths relative to it), with nested objects for longer paths."""
    properties: dict[str, Any] = {}
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
    node: dict[str, Any] = {"type": "object", "additionalProperties": False,
                            "required": [name for name in properties if name in required]}
    node.update(constraints.get(where, {}))
    node["properties"] = properties
    return node


def generate() -> dict[str, Any]:
    """The configuration's JSON Schema, from the declarations."""
    from rulelang.config.fields import CONSTRAINTS, TERMS

    fields = [(d.spec.path, d) for d in declared()]
    body = _object(fields, "", CONSTRAINTS)
    terms = [_object([(d.spec.path, d) for d in fields_of(cls)], "", {}) for cls in TERMS]
    return {**HEAD, **body, "$defs": {"term": {"oneOf": terms}}}


def dump(schema: dict[str, Any]) -> str:
    """The committed file's text."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


@cache
def schema_text() -> str:
    """The committed schema file's text."""
    from importlib import resources  # imported only here: it costs start-up time

    return resources.files("rulelang").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def config_schema() -> dict[str, Any]:
    """The JSON Schema of the compiled configuration (a fresh copy)."""
    schema: dict[str, Any] = json.loads(schema_text())
    return schema


@cache
def _validator() -> Any:
    import jsonschema  # imported only when a configuration is validated: it costs start-up time

    schema = json.loads(schema_text())
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


def schema_problems(config: Any) -> list[tuple[str, str]]:
    """Schema violations of a configuration as (JSON pointer, message), sorted by path."""
    out = []
    for err in sorted(_validator().iter_errors(config), key=lambda e: list(e.absolute_path)):
        out.append(("/" + "/".join(str(p) for p in err.absolute_path), err.message))
    return out
