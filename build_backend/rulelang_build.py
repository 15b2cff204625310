"""The build backend: setuptools, asking for mypy only when the engine is to be compiled.

setup.py compiles the engine's hot modules with mypyc, which comes with mypy;
with `RULELANG_PURE_PYTHON=1` nothing is compiled, so pip need not fetch mypy
(an install that works offline, or where mypy has no wheel). Everything else is
setuptools' own backend (pyproject.toml: `backend-path`).
"""
from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the hooks this module does not change)

# the mypy whose mypyc compiles the engine: the one the test and dev extras pin
MYPYC = "mypy==2.4.1"


def _compiler_requires() -> list[str]:
    return [] if os.environ.get("RULELANG_PURE_PYTHON") else [MYPYC]


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _setuptools.get_requires_for_build_wheel(config_settings) + _compiler_requires()


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _setuptools.get_requires_for_build_editable(config_settings) + _compiler_requires()
