"""The example engines shipped with the package: `rulelang conform --engine example-python` (or `example-js`).

Both live in `conformance/examples/` and share no code with the built-in
engine (nor with each other): `toy_engine.py`, a plain Python engine, and
`toy_engine.mjs`, its port to JavaScript for Node.js. They are the engines the
suite's own tests run, and a starting point for an engine author
(docs/engine-authors.md): each declares, in its `SUPPORTED` table, the
configuration fields and values it plays, and the runner skips the cases of
every other rule. A name may be followed by the example's own flags, e.g.
`--engine "example-python --break branch-early"`.
"""
from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

EXAMPLES_DIR = Path(__file__).resolve().parent / "examples"


@dataclass(frozen=True)
class Example:
    name: str
    file: str
    runtime: str  # "python" (this interpreter) or "node"
    about: str

    @property
    def path(self) -> Path:
        return EXAMPLES_DIR / self.file


EXAMPLES = {e.name: e for e in (
    Example("example-python", "toy_engine.py", "python",
            "the toy engine in Python (standard library only); --break NAME gives it one rule wrong"),
    Example("example-js", "toy_engine.mjs", "node", "the toy engine in JavaScript (Node.js, no dependencies)"),
)}


class ExampleError(Exception):
    """An example engine that cannot be run here (the message says why and what to do)."""


def resolve(argv: list[str]) -> list[str]:
    """`argv` with an example engine's name replaced by the command that runs it; any other command unchanged."""
    if not argv or argv[0] not in EXAMPLES:
        return argv
    ex = EXAMPLES[argv[0]]
    if not ex.path.is_file():
        raise ExampleError(f"{ex.name}: {ex.path} is missing from this installation (reinstall rulelang)")
    if ex.runtime == "python":
        return [sys.executable, str(ex.path), *argv[1:]]
    node = shutil.which("node")
    if node is None:
        raise ExampleError(f"{ex.name} needs Node.js: no `node` on PATH (install Node.js 18 or later, "
                           "or run --engine example-python)")
    return [node, str(ex.path), *argv[1:]]


def listing() -> str:
    """One line per example engine: its name, what it is and the file to read or copy."""
    return "\n".join(f"{e.name}\t{e.about}\n\t{e.path}" for e in EXAMPLES.values())
