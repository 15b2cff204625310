"""The public functions of the language: parse, check and compile rulesets, load configurations.

`rulelang/__init__.py` serves these names on first use, so that importing the
package (and so the engine, `rulelang.interpreter`) loads none of the language.
"""
from __future__ import annotations

import copy
import os
from functools import cache
from typing import cast

from rulelang.base.errors import RulesetError, RulesetFileError, raise_errors
from rulelang.base.jsontypes import ConfigJSON
from rulelang.base.limits import read_ruleset_file, read_text_file
from rulelang.base.readinput import parse_json
from rulelang.config.rules import config_problems
from rulelang.language.ast import Ruleset
from rulelang.language.bundled import bundled_filename, bundled_names, bundled_text
from rulelang.language.compiler import analyse

__all__ = ["check_text", "loads", "load", "compile_text", "compile_file", "compile_bundled", "load_config_dict"]


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
    return list(analyse(text, filename).errors)


def loads(text: str, filename: str = "<string>") -> Ruleset:
    """Parse and check a ruleset text (raises RulesetError if it has any error)."""
    result = analyse(text, filename)
    raise_errors(result.errors)
    assert result.ruleset is not None
    ruleset: Ruleset = result.ruleset
    return ruleset


def load(path: str | os.PathLike[str]) -> Ruleset:
    """Parse and check a ruleset file."""
    return loads(_read(path), os.fspath(path))


def compile_text(text: str, filename: str = "<string>") -> ConfigJSON:
    """Compile a ruleset text to its configuration dict (raises RulesetError)."""
    result = analyse(text, filename)
    raise_errors(result.errors)
    assert result.config is not None
    config: ConfigJSON = result.config
    return config


def compile_file(path: str | os.PathLike[str]) -> ConfigJSON:
    """Compile a ruleset file to its configuration dict."""
    return compile_text(_read(path), os.fspath(path))


@cache
def _compiled_bundled(name: str) -> str:
    import json  # only here and for a .json file: `rulelang check FILE.rules` never loads it

    return json.dumps(compile_text(bundled_text(name), bundled_filename(name)))


def compile_bundled(name: str) -> ConfigJSON:
    """The configuration of a bundled ruleset (a fresh dict each call)."""
    if name not in bundled_names():
        raise RulesetFileError("unknown-ruleset", f"there is no bundled ruleset `{name}`",
                               filename=name, hint=_bundled_hint())
    import json

    config: ConfigJSON = json.loads(_compiled_bundled(name))
    return config


def load_config_dict(spec: str | os.PathLike[str]) -> ConfigJSON:
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
        try:
            config = parse_json(text)
        except json.JSONDecodeError as exc:
            raise RulesetFileError("invalid-config", f"not JSON: {exc.msg}", filename=name,
                                   line=exc.lineno, column=exc.colno,
                                   source_line=text.split("\n")[exc.lineno - 1]) from None
        except ValueError as exc:  # nested too deeply to be a configuration
            raise RulesetFileError("invalid-config", f"not a rulelang configuration: {exc}", filename=name) from None
        problems = config_problems(config)
        if problems:
            p = problems[0]
            where = p.path.lstrip("/") or "(top)"
            raise RulesetFileError(p.code, f"not a rulelang configuration: {where}: {p.message}",
                                   filename=name, hint="compile a ruleset with `rulelang compile`")
        return cast(ConfigJSON, copy.deepcopy(config))  # an object: config_problems said so
    if name in bundled_names() and not os.path.exists(name):
        return compile_bundled(name)
    if os.path.exists(name) or name.endswith(".rules") or os.sep in name:
        return compile_file(name)
    raise RulesetFileError("unknown-ruleset", f"no bundled ruleset or file named `{name}`",
                           filename=name, hint=_bundled_hint())

