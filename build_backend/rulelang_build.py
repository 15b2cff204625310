"""The build backend: setuptools, told whether to compile the engine.

setup.py compiles the engine's hot modules with mypyc, which comes with mypy.
A build asked for the pure Python engine compiles nothing, so pip need not fetch
mypy either (an install that takes seconds, works offline, or where mypy has no
wheel). Two ways to ask, both read here:

- the build's config setting `pure-python` (PEP 517 `config_settings`), which
  any front end passes: `pip install . -C pure-python=true`,
  `pip wheel . -C pure-python=true` (the `py3-none-any` wheel); the pre-commit
  hooks (.pre-commit-hooks.yaml) pass it, since `check` and `fmt` never run the
  engine;
- the environment variable `RULELANG_PURE_PYTHON=1`.

Everything else is setuptools' own backend (pyproject.toml: `backend-path`).
"""
from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the hooks this module does not change)

# the mypy whose mypyc compiles the engine: the one requirements-dev.txt pins for the lint tests
MYPYC = "mypy==2.4.1"
SETTING = "pure-python"  # the config setting that asks for the pure Python engine
ENV = "RULELANG_PURE_PYTHON"  # the environment variable setup.py reads
YES = {"1", "true", "yes", "on"}

ConfigSettings = dict[str, Any] | None


def wants_pure(config_settings: ConfigSettings = None) -> bool:
    """True when this build is to install the pure Python engine (by config setting or environment)."""
    value = (config_settings or {}).get(SETTING)
    return bool(os.environ.get(ENV)) or (isinstance(value, str) and value.strip().lower() in YES)


def _compiler_requires(config_settings: ConfigSettings = None) -> list[str]:
    return [] if wants_pure(config_settings) else [MYPYC]


def _for_setuptools(config_settings: ConfigSettings) -> ConfigSettings:
    """The settings without this backend's own key (setuptools reads the rest)."""
    if not config_settings:
        return config_settings
    return {k: v for k, v in config_settings.items() if k != SETTING}


@contextlib.contextmanager
def _engine_choice(config_settings: ConfigSettings) -> Iterator[None]:
    """setup.py, which setuptools runs in this process, sees the choice as the environment variable."""
    if not wants_pure(config_settings) or os.environ.get(ENV):
        yield
        return
    os.environ[ENV] = "1"
    try:
        yield
    finally:
        del os.environ[ENV]


def get_requires_for_build_wheel(config_settings: ConfigSettings = None) -> list[str]:
    with _engine_choice(config_settings):
        return _setuptools.get_requires_for_build_wheel(_for_setuptools(config_settings)) + _compiler_requires(config_settings)


def get_requires_for_build_editable(config_settings: ConfigSettings = None) -> list[str]:
    with _engine_choice(config_settings):
        return _setuptools.get_requires_for_build_editable(_for_setuptools(config_settings)) + _compiler_requires(config_settings)


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: ConfigSettings = None) -> str:
    with _engine_choice(config_settings):
        return _setuptools.prepare_metadata_for_build_wheel(metadata_directory, _for_setuptools(config_settings))


def prepare_metadata_for_build_editable(metadata_directory: str, config_settings: ConfigSettings = None) -> str:
    with _engine_choice(config_settings):
        return _setuptools.prepare_metadata_for_build_editable(metadata_directory, _for_setuptools(config_settings))


def build_wheel(wheel_directory: str, config_settings: ConfigSettings = None, metadata_directory: str | None = None) -> str:
    with _engine_choice(config_settings):
        return _setuptools.build_wheel(wheel_directory, _for_setuptools(config_settings), metadata_directory)


def build_editable(wheel_directory: str, config_settings: ConfigSettings = None, metadata_directory: str | None = None) -> str:
    with _engine_choice(config_settings):
        return _setuptools.build_editable(wheel_directory, _for_setuptools(config_settings), metadata_directory)
