"""The build backend: setuptools, told whether to compile the engine.

setup.py compiles the engine's hot modules with mypyc, which comes with mypy.
A build asked for the pure Python engine compiles nothing, so pip need not fetch
mypy either (an install that takes seconds, works offline, or where mypy has no
wheel). Two ways to ask, both read here:

- the build's config setting `pure-python` (PEP 517 `config_settings`), which
  any front end passes: `pip install . --config-settings=pure-python=true`, or
  `pip wheel --no-deps -w dist . --config-settings=pure-python=true` for the `py3-none-any`
  wheel; the pre-commit hooks (.pre-commit-hooks.yaml) pass it, since `check`
  and `fmt` never run the engine;
- the environment variable `RULELANG_PURE_PYTHON=1`.

The wheel is built by setuptools (pyproject.toml: `backend-path`). setup.py runs
once per build: asking for the build's needs reads no setup.py (the project has
no `setup_requires`), and there is no separate metadata hook, so the front end
takes the metadata from the wheel it builds (PEP 517's fallback) instead of
running setup.py, and mypyc, once more.
"""
from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

# the mypy whose mypyc compiles the engine: the one requirements-dev.txt pins for the lint tests
MYPYC = "mypy==2.4.1"
# mypyc type-checks what the engine imports under the project's strict settings: lark's own types
# must be there (without them the parser's Transformer subclass is an error under strict)
TYPED_IMPORTS = ["lark>=1.1"]
SETTING = "pure-python"  # the config setting that asks for the pure Python engine
ENV = "RULELANG_PURE_PYTHON"  # the environment variable setup.py reads
YES = {"1", "true", "yes", "on"}

ConfigSettings = dict[str, Any] | None


def wants_pure(config_settings: ConfigSettings = None) -> bool:
    """True when this build is to install the pure Python engine (by config setting or environment)."""
    value = (config_settings or {}).get(SETTING)
    return bool(os.environ.get(ENV)) or (isinstance(value, str) and value.strip().lower() in YES)


def _compiler_requires(config_settings: ConfigSettings = None) -> list[str]:
    return [] if wants_pure(config_settings) else [MYPYC, *TYPED_IMPORTS]


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
    return _compiler_requires(config_settings)


def get_requires_for_build_editable(config_settings: ConfigSettings = None) -> list[str]:
    return _compiler_requires(config_settings)


def get_requires_for_build_sdist(config_settings: ConfigSettings = None) -> list[str]:
    return []


# setuptools is imported by the hooks that build (asking for the needs stays a light call)


def build_wheel(wheel_directory: str, config_settings: ConfigSettings = None, metadata_directory: str | None = None) -> str:
    from setuptools import build_meta

    with _engine_choice(config_settings):
        return build_meta.build_wheel(wheel_directory, _for_setuptools(config_settings), metadata_directory)


def build_editable(wheel_directory: str, config_settings: ConfigSettings = None, metadata_directory: str | None = None) -> str:
    from setuptools import build_meta

    with _engine_choice(config_settings):
        return build_meta.build_editable(wheel_directory, _for_setuptools(config_settings), metadata_directory)


def build_sdist(sdist_directory: str, config_settings: ConfigSettings = None) -> str:
    from setuptools import build_meta

    with _engine_choice({SETTING: "true"}):  # an sdist holds the source alone: nothing to translate for it
        return build_meta.build_sdist(sdist_directory, _for_setuptools(config_settings))
