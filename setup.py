"""Build: the engine's hot modules compiled to C with mypyc where a C compiler is at hand.

Everything else is in pyproject.toml. The compiled modules are the same source
files, type-checked and translated by mypyc (rulelang/interpreter/*.py stay the
pure Python reference, and a machine without a compiler installs them as they
are: each extension is optional). `pip install . --config-settings=pure-python=true` or
`RULELANG_PURE_PYTHON=1 pip install .` skips the compilation (the build backend,
build_backend/rulelang_build.py, then sets RULELANG_PURE_PYTHON for this file and
does not ask pip for mypy); `rulelang --version` tells which engine is installed.
"""
from __future__ import annotations

import os
import sys

from setuptools import setup

# The modules a round spends its time in (the public path, the fast path, settlement, matches).
# Not compiled: tiles (Move is a frozen dataclass users construct and extend), config, errors, players
# (users subclass them and set attributes), transcript (not on a hot path).
COMPILED = ["claims", "deal", "hooks", "house", "layout", "legality", "match", "points", "records", "round", "rules", "scoring",
            "settlement"]


def compiled_modules() -> list:
    """mypyc's extensions for COMPILED, or none (pure Python) when asked or when mypyc is missing."""
    if os.environ.get("RULELANG_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("rulelang: mypyc not available, installing the pure Python engine", file=sys.stderr)
        return []
    paths = [f"rulelang/interpreter/{m}.py" for m in COMPILED]
    # group_name: mypyc's shared library is `rulelang.interpreter.compiled__mypyc`, inside the package
    # (no top-level name besides `rulelang` is installed)
    extensions = mypycify(paths, opt_level="3", group_name="rulelang.interpreter.compiled")
    for ext in extensions:
        ext.optional = True  # no working compiler: setuptools warns and the .py files serve
    return extensions


setup(ext_modules=compiled_modules())
