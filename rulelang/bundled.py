"""The bundled rulesets: `*.rules` files of the `rulesets` package, found with importlib.resources."""
from __future__ import annotations

from functools import cache

__all__ = ["bundled_names", "bundled_text", "bundled_filename"]

SUFFIX = ".rules"


@cache
def _files() -> dict[str, object]:
    from importlib import resources  # here, not at import: `rulelang --help` does not need it

    root = resources.files("rulesets")
    return {
        entry.name[: -len(SUFFIX)]: entry
        for entry in root.iterdir()
        if entry.name.endswith(SUFFIX) and entry.is_file()
    }


def bundled_names() -> list[str]:
    """Names of the bundled rulesets, sorted."""
    return sorted(_files())


def bundled_text(name: str) -> str:
    """The text of a bundled ruleset (KeyError if there is none of that name)."""
    return _files()[name].read_text(encoding="utf-8")  # type: ignore[attr-defined]


def bundled_filename(name: str) -> str:
    """How a bundled ruleset is named in messages: `rulesets/NAME.rules`."""
    return f"rulesets/{name}{SUFFIX}"
