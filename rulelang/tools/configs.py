"""Resolve VARIANT|FILE into a compiled configuration (dict) and an engine ``Config``, with the errors
the tools show (a ``ToolError`` exits 1, a ``ToolUsageError`` 2)."""
from __future__ import annotations

from pathlib import Path

import click

import rulelang
from rulelang.base.jsontypes import ConfigJSON
from rulelang.interpreter import Config


class ToolError(click.ClickException):
    """A user-facing error: click prints 'Error: message' and exits 1."""


class ToolUsageError(ToolError):
    """A wrong command line (an unknown bot or seat kind, a player count the variant refuses): exit 2."""

    exit_code = 2


def bundled_names() -> list[str]:
    return rulelang.bundled_names()


def load_config_dict(spec: str) -> ConfigJSON:
    """The compiled configuration for a bundled name, a .rules path or a .json path."""
    path = Path(spec)
    try:
        return rulelang.load_config_dict(spec)
    except FileNotFoundError as exc:
        raise ToolError(f"no such file: {spec}") from exc
    except ImportError as exc:  # a module of rulelang or of a dependency is missing: no variant could load
        raise ToolError(f"the installation of rulelang is broken: {exc} (reinstall it)") from exc
    except Exception as exc:  # the language's own errors carry a readable message
        code = getattr(exc, "code", None)
        if code == "file-not-found" or (path.suffix in (".rules", ".json") and not path.exists()):
            raise ToolError(f"no such file: {spec}") from exc
        if code == "unknown-ruleset":
            known = ", ".join(bundled_names()) or "none"
            raise ToolError(f"unknown variant {spec!r} (bundled: {known}; "
                            "or give a .rules or .json file)") from exc
        raise ToolError(f"cannot load variant {spec!r}: {exc}") from exc


def load_engine_config(spec: str) -> tuple[ConfigJSON, Config]:
    """(config dict, engine Config) for a spec; a schema failure is a ToolError."""
    data = load_config_dict(spec)
    return data, engine_config(data)


def engine_config(data: ConfigJSON) -> Config:
    try:
        return Config.from_dict(data)
    except Exception as exc:
        raise ToolError(f"invalid configuration {data.get('name', '?')!r}: {exc}") from exc


def player_count(cfg: Config, players: int | None) -> int:
    """The player count a tool plays: the one asked for (a usage error if the variant refuses it), else 2 where
    allowed, else the variant's smallest count."""
    counts = list(cfg.counts)
    if players is None:
        return 2 if 2 in counts else counts[0]
    if players not in counts:
        raise ToolUsageError(f"{cfg.name} is played by {', '.join(map(str, counts))} players, not {players}")
    return players
