"""Rulesets to compiled configurations: the runner sends engines the compiled JSON."""
from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

# Until (or unless) the language API is installed, the compiled configurations of
# the bundled variants kept beside the tests serve (a development checkout only).
_FALLBACK = Path(__file__).resolve().parent.parent / "tests" / "data" / "configs"


class RulesetError(Exception):
    """A ruleset the runner could not compile."""


_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")  # a bundled ruleset's name; anything else names no file


@cache
def _bundled(name: str) -> str:
    if not _NAME.fullmatch(name):
        raise RulesetError(f"no bundled ruleset {name[:80]!r}")
    try:
        import rulelang

        load = getattr(rulelang, "load_config", None)
        if load is not None:
            return json.dumps(load(name))
    except Exception as exc:  # the language reports its own errors; the runner names the ruleset
        fallback = _FALLBACK / f"{name}.json"
        if not fallback.exists():
            raise RulesetError(f"ruleset {name!r}: {type(exc).__name__}: {exc}") from exc
    fallback = _FALLBACK / f"{name}.json"
    if fallback.exists():
        return fallback.read_text(encoding="utf-8")
    raise RulesetError(f"no bundled ruleset {name!r} (rulelang.load_config is not available)")


def compiled(ruleset: Any) -> dict[str, Any]:
    """The compiled configuration of a bundled name or an inline {"text": ...} ruleset."""
    if isinstance(ruleset, str):
        return json.loads(_bundled(ruleset))
    try:
        import rulelang

        return rulelang.compile_text(ruleset["text"], ruleset.get("filename", "<case>"))
    except Exception as exc:
        raise RulesetError(f"inline ruleset: {type(exc).__name__}: {exc}") from exc
