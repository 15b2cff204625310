"""Where a ruleset comes from: a file path, a bundled name or `-` (standard input), for the commands."""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import rulelang
from rulelang.base.errors import RulesetFileError, raise_errors
from rulelang.base.readinput import read_text
from rulelang.language.bundled import bundled_filename, bundled_names, bundled_text

if TYPE_CHECKING:
    from rulelang.base.jsontypes import ConfigJSON

__all__ = ["STDIN_NAME", "read_stdin", "source", "config_and_inherited"]

STDIN_NAME = "<stdin>"


def read_stdin() -> str:
    """Standard input as text (`check -`, `fmt -`: an editor's unsaved buffer)."""
    data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesetFileError("cannot-read", f"cannot read standard input: {exc}", filename=STDIN_NAME) from None


def source(spec: str, stdin_name: str | None = None) -> tuple[str, str]:
    """(text, filename) of a ruleset given as a path, a bundled name or `-` (standard input)."""
    if spec == "-":
        return read_stdin(), stdin_name or STDIN_NAME
    if os.path.exists(spec) or spec.endswith(".rules") or os.sep in spec:
        if os.path.isdir(spec):
            raise RulesetFileError("cannot-read", f"{spec} is a folder, not a ruleset file", filename=spec)
        try:
            return read_text(spec), spec
        except FileNotFoundError:
            raise RulesetFileError("file-not-found", f"no such file: {spec}", filename=spec) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise RulesetFileError("cannot-read", f"cannot read {spec}: {exc}", filename=spec) from None
    if spec in bundled_names():
        return bundled_text(spec), bundled_filename(spec)
    raise RulesetFileError("file-not-found", f"no such file or bundled ruleset: {spec}", filename=spec,
                           hint="bundled rulesets: " + ", ".join(bundled_names()))


def config_and_inherited(spec: str) -> tuple[ConfigJSON, set[str]]:
    """The configuration of SPEC (a path, a bundled name or a compiled .json) and the statement keys it
    inherits from its base (raises RulesetError)."""
    if spec.endswith(".json"):
        return rulelang.load_config_dict(spec), set()
    # here, not at the top: `rulelang list` imports this module and parses no ruleset (bench/bench_startup.py)
    from rulelang.language.analysis import analyse

    text, filename = source(spec)
    analysis = analyse(text, filename)
    raise_errors(list(analysis.errors))
    assert analysis.config is not None
    return analysis.config, set(analysis.inherited)
