"""The ruleset files a command line names: a folder stands for every `*.rules` file below it.

As ruff and black walk a folder, `check` and `fmt` do: every `*.rules` file in
it and its sub-folders, sorted, skipping hidden folders (`.git`, `.venv`) and
the folders of installed or built code (a virtual environment, `node_modules`),
whose files are not the user's to check or rewrite.
"""
from __future__ import annotations

import os

SKIPPED = frozenset({"venv", "node_modules", "site-packages", "__pypackages__", "__pycache__",
                     "_build", "buck-out", "build", "dist"})


def skipped(folder: str, name: str) -> bool:
    """Whether a walk does not enter the sub-folder `name` of `folder`."""
    return (name.startswith(".") or name in SKIPPED
            or os.path.isfile(os.path.join(folder, name, "pyvenv.cfg")))  # a virtual environment by any name


def rules_below(folder: str) -> list[str]:
    """Every `*.rules` file below `folder`, sorted, as paths starting with `folder` (`.` left out)."""
    found = []
    for here, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not skipped(here, d)]
        found += [os.path.normpath(os.path.join(here, f)) for f in files if f.endswith(".rules")
                  and os.path.isfile(os.path.join(here, f))]
    return sorted(found)


def expand(specs: list[str]) -> list[str]:
    """The specs with each folder replaced by its ruleset files; a folder without any is kept, to be reported."""
    out: list[str] = []
    for spec in specs:
        inside = rules_below(spec) if spec != "-" and os.path.isdir(spec) else []
        out += inside or [spec]
    return out


def _format_of(path: str) -> str | None:
    """The other format the file at PATH plainly is (rulelang/base/foreign.py), from its first lines; None if unreadable."""
    from rulelang.base.foreign import foreign_format

    try:
        with open(path, "rb") as f:
            head = f.read(4096).decode("utf-8", errors="replace")
    except OSError:
        return None  # the command reports the unreadable file as it does any other
    return foreign_format(head)


def rulesets_of(specs: list[str], skip_named: bool = False) -> tuple[list[str], list[tuple[str, str]]]:
    """`expand`, leaving out the `.rules` files that are plainly another format (udev, polkit, Snort rules).

    Returns the specs to work on and the (path, format) of those left out: every such file found in a folder,
    and, with SKIP_NAMED (the pre-commit hooks), the files named too. A file named without it stays, so that
    the command says once what it is.
    """
    keep: list[str] = []
    skipped: list[tuple[str, str]] = []
    for spec in specs:
        walked = spec != "-" and os.path.isdir(spec)
        for path in expand([spec]):
            kind = _format_of(path) if (walked or skip_named) and os.path.isfile(path) else None
            if kind is None:
                keep.append(path)
            else:
                skipped.append((path, kind))
    return keep, skipped
