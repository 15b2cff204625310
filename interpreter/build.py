"""Which engine this installation runs: the modules compiled by mypyc (setup.py) or the Python source.

The two play identically (the test suite runs the source; tests/test_compiled.py
checks an installed compiled engine against it); the compiled one is faster
(README). Tools print this where speed is reported.
"""
from __future__ import annotations

from . import layout, round

# setup.py: COMPILED; a module imported from a file that is not Python source came from the C extension
_COMPILED_MODULES = (round, layout)


def engine_build() -> str:
    """"compiled (mypyc)" when the engine's modules are the compiled extensions, else "pure Python"."""
    if all(not (m.__file__ or "").endswith(".py") for m in _COMPILED_MODULES):
        return "compiled (mypyc)"
    return "pure Python"
