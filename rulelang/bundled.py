"""The bundled rulesets: `*.rules` files of the `rulesets` package, found with importlib.resources."""
from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.abc import Traversable

__all__ = ["bundled_names", "bundled_text", "bundled_filename", "package_root"]

SUFFIX = ".rules"


@cache
def package_root() -> Traversable:
    """The `rulesets` package's folder: a plain Path when installed as files (cheap),
    else an importlib.resources Traversable (a zip), imported only then."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("rulesets")
    origin = spec.origin if spec is not None else None
    if origin and Path(origin).parent.is_dir():
        return Path(origin).parent
    from importlib import resources  # pragma: no cover - a zipped install

    return resources.files("rulesets")  # pragma: no cover


@cache
def _files() -> dict[str, Traversable]:
    root = package_root()
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
    return _files()[name].read_text(encoding="utf-8")


def bundled_filename(name: str) -> str:
    """How a bundled ruleset is named in messages: `rulesets/NAME.rules`."""
    return f"rulesets/{name}{SUFFIX}"
