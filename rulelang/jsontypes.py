"""The JSON types at the package's boundary, defined once.

`JSONValue` is any value `json.loads` gives (precise: read it by narrowing).
`ConfigJSON` is the compiled configuration as JSON: what `rulelang compile`
writes and `interpreter.Config.from_dict` reads (its shape is
rulelang/schema/config.schema.json). Code that reads a configuration reads
the engine's typed `Config`; this alias only names the document where it is
loaded, passed to worker processes, or written.
"""
from __future__ import annotations

from typing import Any, TypeAlias

JSONValue: TypeAlias = "dict[str, JSONValue] | list[JSONValue] | str | int | float | bool | None"
ConfigJSON: TypeAlias = dict[str, Any]  # the engine's `Config.from_dict` and the compiler take and give this

__all__ = ["ConfigJSON", "JSONValue"]
