"""Rulesets to compiled configurations: the runner sends engines the compiled JSON."""
from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

import rulelang


class RulesetError(Exception):
    """A ruleset the runner could not compile."""


_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")  # a bundled ruleset's name; anything else names no file


@cache
def _bundled(name: str) -> str:
    if not _NAME.fullmatch(name):
        raise RulesetError(f"no bundled ruleset {name[:80]!r}")
    if name not in rulelang.bundled_names():
        raise RulesetError(f"no bundled ruleset {name!r}")
    try:
        return json.dumps(rulelang.compile_bundled(name))
    except Exception as exc:  # the language reports its own errors; the runner names the ruleset
        raise RulesetError(f"ruleset {name!r}: {type(exc).__name__}: {exc}") from exc


def compiled(ruleset: Any) -> dict[str, Any]:
    """The compiled configuration of a bundled name or an inline {"text": ...} ruleset."""
    if isinstance(ruleset, str):
        config: dict[str, Any] = json.loads(_bundled(ruleset))
        return config
    text, filename = ruleset["text"], ruleset.get("filename", "<case>")
    cacheable = isinstance(text, str) and isinstance(filename, str)  # else compiled (and refused) as given
    inline: dict[str, Any] = json.loads(_inline(text, filename) if cacheable else _compile(text, filename))
    return inline


def _compile(text: Any, filename: Any) -> str:
    try:
        return json.dumps(rulelang.compile_text(text, filename))
    except Exception as exc:
        raise RulesetError(f"inline ruleset: {type(exc).__name__}: {exc}") from exc


# An inline ruleset compiled once: a case file's rulesets recur, and the shrinker compiles a case's many times
_inline = cache(_compile)
