"""The `--json` shapes of the language commands (documented in docs/tools.md, "Machine-readable output").

Each shape is built here, from the same values the text output prints, so that
a tool reading JSON sees exactly what a person reads.
"""
from __future__ import annotations

import json
from typing import Any

import click

__all__ = ["error_record", "file_record", "emit"]


def error_record(error: Any) -> dict[str, Any]:
    """One error as JSON: code, file, line, column, end, message, hint (positions 1-based; end exclusive)."""
    end = None
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


def file_record(filename: str, errors: list[Any], kind: str = "ruleset") -> dict[str, Any]:
    """One checked file: its name, whether it is valid, and its errors."""
    return {"file": filename, "kind": kind, "ok": not errors, "errors": [error_record(e) for e in errors]}


def emit(document: Any) -> None:
    """Print a JSON document on standard output (one document, indented, newline-terminated)."""
    click.echo(json.dumps(document, indent=2, ensure_ascii=False))
