"""Resolve VARIANT|FILE into a compiled configuration (dict) and an engine ``Config``.

``rulelang.load_config(spec)`` (the language's entry point) is used when it
exists; until then, bundled names come from ``tests/data/configs/NAME.json``
and ``.json`` files are read directly.
"""
from __future__ import annotations

import json
from pathlib import Path

import click

FALLBACK_DIR = Path(__file__).resolve().parents[2] / "tests" / "data" / "configs"


class ToolError(click.ClickException):
    """A user-facing error: click prints 'Error: message' and exits 1."""


class ToolUsageError(ToolError):
    """A wrong command line (an unknown bot or seat kind, a player count the variant refuses): exit 2."""

    exit_code = 2


def _language_loader():
    try:
        import rulelang

        return getattr(rulelang, "load_config", None)
    except Exception:  # pragma: no cover - the language is being written concurrently
        return None


def bundled_names() -> list[str]:
    names: set[str] = set()
    try:
        import rulelang

        lister = getattr(rulelang, "bundled_names", None) or getattr(rulelang, "list_bundled", None)
        if lister:
            names.update(lister())
    except Exception:
        pass
    if FALLBACK_DIR.is_dir():
        names.update(p.stem for p in FALLBACK_DIR.glob("*.json"))
    return sorted(names)


def load_config_dict(spec: str) -> dict:
    """The compiled configuration for a bundled name, a .rules path or a .json path."""
    loader = _language_loader()
    path = Path(spec)
    if loader is not None:
        try:
            data = loader(spec)
        except FileNotFoundError as exc:
            raise ToolError(f"no such file: {spec}") from exc
        except Exception as exc:  # the language's own errors carry a readable message
            code = getattr(exc, "code", None)
            if code == "file-not-found" or (path.suffix in (".rules", ".json") and not path.exists()):
                raise ToolError(f"no such file: {spec}") from exc
            if code == "unknown-ruleset":
                known = ", ".join(bundled_names()) or "none"
                raise ToolError(f"unknown variant {spec!r} (bundled: {known}; "
                                "or give a .rules or .json file)") from exc
            raise ToolError(f"cannot load variant {spec!r}: {exc}") from exc
        return _as_dict(data)
    if path.suffix == ".json" or path.exists():
        if not path.exists():
            raise ToolError(f"no such file: {spec}")
        if path.suffix != ".json":
            raise ToolError(f"cannot read {spec}: .rules files need the rules language "
                            "(rulelang.load_config), not available yet; give a .json configuration")
        from rulelang.readinput import read_json

        try:
            return read_json(path)  # a regular file, bounded in size and nesting
        except (OSError, ValueError) as exc:
            raise ToolError(f"cannot read configuration {spec}: {exc}") from exc
    if path.suffix == ".rules":
        raise ToolError(f"no such file: {spec}")
    candidate = FALLBACK_DIR / f"{spec}.json"
    if candidate.exists():
        return json.loads(candidate.read_text(encoding="utf-8"))
    known = ", ".join(bundled_names()) or "none"
    raise ToolError(f"unknown variant {spec!r} (bundled: {known}; or give a .rules or .json file)")


def _as_dict(data) -> dict:
    if isinstance(data, dict):
        return data
    to_dict = getattr(data, "to_dict", None)
    if to_dict:
        return to_dict()
    raise ToolError(f"unexpected configuration object {type(data).__name__}")


def load_engine_config(spec: str):
    """(config dict, engine Config) for a spec; a schema failure is a ToolError."""
    data = load_config_dict(spec)
    return data, engine_config(data)


def engine_config(data: dict):
    from interpreter import Config

    try:
        return Config.from_dict(data)
    except Exception as exc:
        raise ToolError(f"invalid configuration {data.get('name', '?')!r}: {exc}") from exc
