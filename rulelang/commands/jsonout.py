"""The `--json` shapes of the language commands (documented in docs/tools.md, "Machine-readable output").

Each shape is built here, from the same values the text output prints, so that
a tool reading JSON sees exactly what a person reads. Every document opens with
its `format` ("rulelang-check/1", ...: the shape's name and major version, as the
compiled configuration and the conformance report do), and the shape's JSON
Schema ships in `rulelang/schema/KIND.schema.json`.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, TypedDict

import click

if TYPE_CHECKING:
    from rulelang.base.errors import RulesetError

__all__ = ["error_record", "file_record", "emit", "versioned", "schema_file", "KINDS"]

KINDS = ("check", "list", "explain", "diff", "simulate", "identify")  # the commands whose --json shape has a schema
VERSION = 1  # the major version of every shape: raised when a field changes meaning or goes away


def versioned(kind: str, document: Mapping[str, object]) -> dict[str, object]:
    """`document` with its format first: `{"format": "rulelang-KIND/1", ...}`."""
    return {"format": f"rulelang-{kind}/{VERSION}", **document}


def schema_file(kind: str) -> str:
    """The shape's schema, a file of the package `rulelang` (read with importlib.resources)."""
    return f"schema/{kind}.schema.json"


class Position(TypedDict):
    line: int
    column: int | None


class ErrorRecord(TypedDict):
    """One error of `check --json` (rulelang/schema/check.schema.json)."""

    code: str
    file: str | None
    line: int | None
    column: int | None
    end: Position | None
    message: str
    hint: str | None


class FileRecord(TypedDict):
    """One checked file of `check --json`."""

    file: str | None
    kind: str
    ok: bool
    errors: list[ErrorRecord]


def error_record(error: RulesetError) -> ErrorRecord:
    """One error as JSON: code, file, line, column, end, message, hint (positions 1-based; end exclusive)."""
    end: Position | None = None
    if error.line is not None and error.end_column is not None:
        end = {"line": error.line, "column": error.end_column}
    return {
        "code": error.code,
        "file": error.filename,
        "line": error.line,
        "column": error.column if error.line is None or error.column else 1,
        "end": end,
        "message": error.message,
        "hint": error.hint,
    }


def file_record(filename: str | None, errors: Sequence[RulesetError], kind: str = "ruleset") -> FileRecord:
    """One checked file: its name, whether it is valid, and its errors."""
    return {"file": filename, "kind": kind, "ok": not errors, "errors": [error_record(e) for e in errors]}


def emit(document: object) -> None:
    """Print a JSON document on standard output (one document, indented, newline-terminated)."""
    click.echo(json.dumps(document, indent=2, ensure_ascii=False))
