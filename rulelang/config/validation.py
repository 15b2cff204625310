"""Validation against the committed JSON Schema of the configuration (rulelang/schema/config.schema.json).

Reads the file, never the declarations: checking a configuration needs no
type of rulelang/config/fields.py. `json` and `jsonschema` are imported when
used, as they cost start-up time.
"""
from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

__all__ = ["SCHEMA_FILE", "schema_text", "config_schema", "schema_problems"]

SCHEMA_FILE = "schema/config.schema.json"  # in the package `rulelang`


@cache
def schema_text() -> str:
    """The committed schema file's text."""
    from importlib import resources  # imported only here: it costs start-up time

    return resources.files("rulelang").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def config_schema() -> dict[str, object]:
    """The JSON Schema of the compiled configuration (a fresh copy)."""
    import json

    schema: dict[str, object] = json.loads(schema_text())
    return schema


@cache
def _validator() -> Validator:
    import json

    import jsonschema

    schema = json.loads(schema_text())
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


def schema_problems(config: object) -> list[tuple[str, str]]:
    """Schema violations of a configuration as (JSON pointer, message), sorted by path."""
    out = []
    for err in sorted(_validator().iter_errors(config), key=lambda e: list(e.absolute_path)):
        out.append(("/" + "/".join(str(p) for p in err.absolute_path), err.message))
    return out
