"""rulelang: a declarative rules language for the All Fives / Five-Up domino family.

    >>> import rulelang
    >>> config = rulelang.compile_bundled("allfives")
    >>> config["target"]["raw"]
    150

Errors are `RulesetError`s with a stable `code`, `line` and `column`; when a
text has several, the one raised is a `RulesetErrors` whose `errors` lists them
all (`check_text` returns the list without raising).
"""
from __future__ import annotations

import os
from functools import cache
from typing import TYPE_CHECKING, Any

from rulelang._version import __version__
from rulelang.bundled import bundled_filename, bundled_names, bundled_text
from rulelang.errors import (
    RulesetCheckError,
    RulesetError,
    RulesetErrors,
    RulesetFileError,
    RulesetSyntaxError,
    raise_errors,
)
from rulelang.limits import read_ruleset_file, read_text_file

if TYPE_CHECKING:
    from rulelang.ast import Ruleset

# Names served on first use (PEP 562), so that `import rulelang` (and so
# `rulelang --help`) does not load the parser, the compiler and jsonschema.
_LAZY = {
    "Ruleset": "rulelang.ast",
    "config_schema": "rulelang.compiler",
    "validate_config": "rulelang.compiler",
    "config_to_text": "rulelang.formatter",
    "format_text": "rulelang.formatter",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'rulelang' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def _analyse(text: str, filename: str) -> Any:
    from rulelang.compiler import analyse

    return analyse(text, filename)


__all__ = [
    "__version__",
    "Ruleset",
    "RulesetError",
    "RulesetSyntaxError",
    "RulesetCheckError",
    "RulesetFileError",
    "RulesetErrors",
    "loads",
    "load",
    "check_text",
    "compile_text",
    "compile_file",
    "compile_bundled",
    "bundled_names",
    "load_config",
    "load_config_dict",
    "config_schema",
    "validate_config",
    "config_to_text",
    "format_text",
]


def _read(path: str | os.PathLike[str], ruleset: bool = True) -> str:
    name = os.fspath(path)
    try:
        return read_ruleset_file(name) if ruleset else read_text_file(name)
    except RulesetFileError as exc:
        if exc.code == "file-not-found":
            exc.hint = _bundled_hint()
        raise


def _bundled_hint() -> str:
    return "bundled rulesets: " + ", ".join(bundled_names())


def check_text(text: str, filename: str = "<string>") -> list[RulesetError]:
    """Every error of a ruleset text (syntax, then checks), without raising; [] when valid."""
    return list(_analyse(text, filename).errors)


def loads(text: str, filename: str = "<string>") -> Ruleset:
    """Parse and check a ruleset text (raises RulesetError if it has any error)."""
    result = _analyse(text, filename)
    raise_errors(result.errors)
    assert result.ruleset is not None
    ruleset: Ruleset = result.ruleset
    return ruleset


def load(path: str | os.PathLike[str]) -> Ruleset:
    """Parse and check a ruleset file."""
    return loads(_read(path), os.fspath(path))


def compile_text(text: str, filename: str = "<string>") -> dict[str, Any]:
    """Compile a ruleset text to its configuration dict (raises RulesetError)."""
    result = _analyse(text, filename)
    raise_errors(result.errors)
    assert result.config is not None
    config: dict[str, Any] = result.config
    return config


def compile_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Compile a ruleset file to its configuration dict."""
    return compile_text(_read(path), os.fspath(path))


@cache
def _compiled_bundled(name: str) -> str:
    import json

    return json.dumps(compile_text(bundled_text(name), bundled_filename(name)))


def compile_bundled(name: str) -> dict[str, Any]:
    """The configuration of a bundled ruleset (a fresh dict each call)."""
    if name not in bundled_names():
        raise RulesetFileError("unknown-ruleset", f"there is no bundled ruleset `{name}`",
                               filename=name, hint=_bundled_hint())
    import json

    config: dict[str, Any] = json.loads(_compiled_bundled(name))
    return config


def load_config_dict(spec: str | os.PathLike[str]) -> dict[str, Any]:
    """A configuration dict from a bundled name, a `.rules` file or a compiled `.json` file.

    A `.json` file is validated by the one validator the engine uses too
    (rulelang/config/rules.py: the schema, code `invalid-config`, then the rules,
    each with its own code). Named apart from `interpreter.load_config`, which
    returns the engine's `Config`.
    """
    name = os.fspath(spec)
    if name.endswith(".json"):
        import json

        text = _read(name, ruleset=False)
        from rulelang.readinput import parse_json

        try:
            config = parse_json(text)
        except json.JSONDecodeError as exc:
            raise RulesetFileError("invalid-config", f"not JSON: {exc.msg}", filename=name,
                                   line=exc.lineno, column=exc.colno,
                                   source_line=text.split("\n")[exc.lineno - 1]) from None
        except ValueError as exc:  # nested too deeply to be a configuration
            raise RulesetFileError("invalid-config", f"not a rulelang configuration: {exc}", filename=name) from None
        from rulelang.config.rules import config_problems

        problems = config_problems(config)
        if problems:
            p = problems[0]
            where = p.path.lstrip("/") or "(top)"
            raise RulesetFileError(p.code, f"not a rulelang configuration: {where}: {p.message}",
                                   filename=name, hint="compile a ruleset with `rulelang compile`")
        import copy

        return copy.deepcopy(config)
    if name in bundled_names() and not os.path.exists(name):
        return compile_bundled(name)
    if os.path.exists(name) or name.endswith(".rules") or os.sep in name:
        return compile_file(name)
    raise RulesetFileError("unknown-ruleset", f"no bundled ruleset or file named `{name}`",
                           filename=name, hint=_bundled_hint())


load_config = load_config_dict  # the former name, kept while callers move to `load_config_dict`
