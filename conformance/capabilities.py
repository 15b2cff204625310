"""Capabilities by configuration: which cases an engine declared it cannot play, and why.

An engine's `start` answer may hold `capabilities.configurations`, a map from a
dotted path into the compiled configuration (`drawing`, `target.overshoot`,
`settlement.domino.terms.kind`; `@players` is the case's player count) to the
values it supports (PROTOCOL.md 1). A case using any other value is skipped
with a reason naming the field, the value and what the engine supports.
"""
from __future__ import annotations

import json
from typing import Any


def values_at(config: Any, path: str) -> list[Any]:
    """Every value at a dotted `path`; a list met on the way applies the rest of the path to each element."""
    nodes = [config]
    for key in path.split("."):
        nxt: list[Any] = []
        for node in nodes:
            for item in node if isinstance(node, list) else [node]:
                if isinstance(item, dict) and key in item:
                    nxt.append(item[key])
        nodes = nxt
    out: list[Any] = []
    for node in nodes:
        out.extend(node if isinstance(node, list) else [node])
    return out


def problems(supported: Any) -> list[str]:
    """What is wrong with a `configurations` capability (empty: it is well formed)."""
    if not isinstance(supported, dict):
        return ["`capabilities.configurations` must be an object {path: [values]}"]
    return [f"`capabilities.configurations[{k!r}]` must be a list of values"
            for k, v in supported.items() if not isinstance(v, list)]


def unsupported(supported: Any, request: dict[str, Any]) -> str | None:
    """The reason to skip `request` (a run request's case) under `supported`, or None when the engine can play it."""
    if problems(supported):
        return None  # a malformed capability declines nothing; the runner reports it at start
    for path, allowed in supported.items():
        found = [request.get("players")] if path == "@players" else values_at(request["config"], path)
        for value in found:
            if value not in allowed:
                return (f"the engine does not support {path} = {json.dumps(value)}"
                        f" (it supports {', '.join(json.dumps(a) for a in allowed) or 'nothing'})")
    return None
