"""The bundled rulesets: `*.rules` files of the `rulesets` package, found with importlib.resources."""
from __future__ import annotations

import os
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.abc import Traversable

__all__ = ["bundled_names", "bundled_text", "bundled_filename", "package_root", "package_folder"]

SUFFIX = ".rules"


@cache
def package_folder() -> str | None:
    """The `rulesets` package's folder when it is installed as files (None: a zip), found without pathlib."""
    from rulelang import rulesets  # a package of data files: its __init__ is a docstring

    origin = getattr(rulesets, "__file__", None)
    folder = os.path.dirname(origin) if origin else None
    return folder if folder and os.path.isdir(folder) else None


@cache
def package_root() -> Traversable:
    """The `rulesets` package's folder: a plain Path when installed as files (cheap),
    else an importlib.resources Traversable (a zip), imported only then."""
    folder = package_folder()
    if folder is not None:
        from pathlib import Path

        return Path(folder)
    from importlib import resources  # pragma: no cover - a zipped install

    return resources.files("rulelang.rulesets")  # pragma: no cover


@cache
def _files() -> dict[str, str | Traversable]:
    """Name -> its file: a path (installed as files: read without pathlib, which `check` need not import)
    or a Traversable (a zip)."""
    folder = package_folder()
    if folder is not None:
        return {entry[: -len(SUFFIX)]: os.path.join(folder, entry) for entry in os.listdir(folder)
                if entry.endswith(SUFFIX) and os.path.isfile(os.path.join(folder, entry))}
    root = package_root()  # pragma: no cover - a zipped install
    return {  # pragma: no cover
        entry.name[: -len(SUFFIX)]: entry
        for entry in root.iterdir()
        if entry.name.endswith(SUFFIX) and entry.is_file()
    }


def bundled_names() -> list[str]:
    """Names of the bundled rulesets, sorted."""
    return sorted(_files())


def bundled_text(name: str) -> str:
    """The text of a bundled ruleset (KeyError if there is none of that name)."""
    entry = _files()[name]
    if isinstance(entry, str):
        with open(entry, encoding="utf-8") as fh:
            return fh.read()
    return entry.read_text(encoding="utf-8")  # pragma: no cover - a zipped install


def bundled_filename(name: str) -> str:
    """How a bundled ruleset is named in messages: `rulesets/NAME.rules`."""
    return f"rulesets/{name}{SUFFIX}"
