"""The engine names the tools use, taken from ``interpreter`` (its public API,
docs/engine-api.md), with a fallback to its submodules while the package
``__init__`` is being written."""
from __future__ import annotations

import importlib

_WHERE = {
    "Match": "match", "play_match": "match", "Round": "round", "Move": "tiles",
    "parse_tile": "tiles", "format_tile": "tiles", "Config": "config",
    "IllegalMove": "errors", "TranscriptMismatch": "errors", "ConfigError": "errors",
    "EngineError": "errors",
    "random_player": "players", "greedy_player": "players", "replay": "transcript",
}


def get(name: str):
    try:
        mod = importlib.import_module("rulelang.interpreter")
        if hasattr(mod, name):
            return getattr(mod, name)
    except ImportError:
        pass
    sub = _WHERE.get(name)
    if sub is None:
        raise ImportError(f"interpreter has no {name}")
    mod = importlib.import_module(f"rulelang.interpreter.{sub}")
    return getattr(mod, name)


def bot_factories() -> dict:
    """Bot name -> factory(seed) -> player callable."""
    out = {"random": get("random_player"), "greedy": get("greedy_player")}
    try:
        players = importlib.import_module("rulelang.interpreter.players")
        for extra in getattr(players, "BOTS", {}) or {}:
            out.setdefault(extra, players.BOTS[extra])
    except ImportError:
        pass
    return out
