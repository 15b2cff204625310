"""Capabilities by configuration: which cases an engine declared it cannot play, and why.

An engine's `start` answer may hold `capabilities.configurations`, a map from a
dotted path into the compiled configuration (`drawing`, `target.overshoot`,
`settlement.domino.terms.kind`; `@players` is the case's player count) to the
values it supports (PROTOCOL.md 1). A case using any other value is skipped
with a reason naming the field, the value and what the engine supports.

The key `@fields` closes the list: its values are the fields the engine reads
with any value. With it, a case whose configuration holds a field that is
neither listed there nor a key of the map (nor lies under one) is skipped too,
so an engine written before a rule existed declines that rule's cases instead
of failing them.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

REQUESTS = {"observe": "observe"}  # a step key an engine plays only when its capabilities say so: key -> capability
FIELDS = "@fields"  # the fields an engine reads with any value; present, every other field is declined
PLAYERS = "@players"  # the case's player count


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


def field_paths(config: Any, prefix: str = "") -> Iterator[str]:
    """The dotted path of every field of `config`, parents first; a list of objects contributes its elements' fields."""
    items = config if isinstance(config, list) else [config]
    for item in items:
        if not isinstance(item, dict):
            continue
        for key, value in item.items():
            path = f"{prefix}{key}"
            yield path
            yield from field_paths(value, path + ".")


def unknown_field(known: set[str], config: Any) -> str | None:
    """The first field of `config` that is not `known`: neither listed, nor under a listed field, nor above one."""
    for path in field_paths(config):
        parts = path.split(".")
        if any(".".join(parts[:i]) in known for i in range(1, len(parts) + 1)):
            continue  # listed, or under a listed field (`hand_size` covers `hand_size.2`)
        if any(k.startswith(path + ".") for k in known):
            continue  # an object whose listed fields are checked one by one
        return path
    return None


def problems(supported: Any) -> list[str]:
    """What is wrong with a `configurations` capability (empty: it is well formed)."""
    if not isinstance(supported, dict):
        return ["`capabilities.configurations` must be an object {path: [values]}"]
    out = [f"`capabilities.configurations[{k!r}]` must be a list of values"
           for k, v in supported.items() if not isinstance(v, list)]
    if isinstance(supported.get(FIELDS), list) and not all(isinstance(f, str) for f in supported[FIELDS]):
        out.append(f"`capabilities.configurations[{FIELDS!r}]` must be a list of dotted field paths")
    return out


def unsupported(supported: Any, request: dict[str, Any]) -> str | None:
    """The reason to skip `request` (a run request's case) under `supported`, or None when the engine can play it."""
    if problems(supported):
        return None  # a malformed capability declines nothing; the runner reports it at start
    if FIELDS in supported:
        known = {k for k in supported if not k.startswith("@")} | set(supported[FIELDS])
        field = unknown_field(known, request["config"])
        if field is not None:
            return f"the engine does not support the configuration field {field} (not in its {FIELDS})"
    for path, allowed in supported.items():
        if path == FIELDS:
            continue
        found = [request.get("players")] if path == PLAYERS else values_at(request["config"], path)
        for value in found:
            if value not in allowed:
                return (f"the engine does not support {path} = {json.dumps(value)}"
                        f" (it supports {', '.join(json.dumps(a) for a in allowed) or 'nothing'})")
    return None


def undeclared_request(capabilities: Any, request: dict[str, Any]) -> str | None:
    """The reason to skip `request` when a step asks what the engine did not declare (`"observe": true`,
    PROTOCOL.md 2.1), or None; an engine written before such a request was added is never sent it."""
    for step in request.get("steps", []):
        for key, capability in REQUESTS.items():
            if key in step and not (isinstance(capabilities, dict) and capabilities.get(capability) is True):
                return f"the engine does not support {key} steps (no `\"{capability}\": true` in its capabilities)"
    return None
