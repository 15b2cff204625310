"""The compiled configuration as JSON, named once.

`ConfigJSON` is what `rulelang compile` writes, the compiler and the API
return, and `interpreter.Config.from_dict` reads (its shape is
rulelang/schema/config.schema.json). Code that reads a configuration reads
the engine's typed `Config`; this alias only names the document where it is
loaded, handed on (to worker processes, the explainer, the formatter), or
written. The other JSON documents have TypedDicts of their own
(rulelang/tools/documents.py).
"""
from __future__ import annotations

from typing import Any, TypeAlias

ConfigJSON: TypeAlias = dict[str, Any]  # the engine's `Config.from_dict` and the compiler take and give this

__all__ = ["ConfigJSON"]
