"""Whether a `.rules` file is plainly another program's rules (udev, polkit, Snort), not a ruleset.

`.rules` is also the extension of udev's device rules, polkit's JavaScript
rules and Snort's (and Suricata's) intrusion rules. A folder walk, the
pre-commit hooks and the language server leave such a file alone instead of
flooding it with syntax errors. The decision is conservative: only the first
meaningful line counts (blank lines and `#` comments, which udev and Snort
share with rulelang, are passed over), and it must match one of the patterns
in `foreign-formats.toml`; anything else, a misspelt ruleset included, is
checked as a ruleset.
"""
from __future__ import annotations

import functools
import re
import tomllib
from importlib import resources

from rulelang.base.errors import RulesetFileError

__all__ = ["foreign_format", "not_a_ruleset", "not_a_ruleset_error"]

LOOK_AT = 20  # meaningful lines are looked for among the first LOOK_AT lines


@functools.lru_cache(maxsize=1)
def _formats() -> tuple[tuple[str, re.Pattern[str]], ...]:
    data = tomllib.loads(resources.files("rulelang.base").joinpath("foreign-formats.toml").read_text(encoding="utf-8"))
    return tuple((f["name"], re.compile(f["first_line"])) for f in data["format"])


def _first_meaningful_line(text: str) -> str | None:
    for line in text.lstrip("\ufeff").splitlines()[:LOOK_AT]:
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return stripped
    return None


def foreign_format(text: str) -> str | None:
    """The name of the format TEXT plainly is ("a udev rules file"), or None when it may be a ruleset."""
    line = _first_meaningful_line(text)
    if line is None:
        return None
    return next((name for name, pattern in _formats() if pattern.match(line)), None)


def not_a_ruleset(filename: str, kind: str) -> str:
    """The one message said of such a file, by the command line and the language server alike."""
    return f"{filename}: not a rulelang ruleset (it reads as {kind}); skipped"


def not_a_ruleset_error(text: str, filename: str) -> RulesetFileError | None:
    """The `not-a-ruleset` error of a text that is plainly another format, else None: `check`'s one error for it."""
    kind = foreign_format(text)
    if kind is None:
        return None
    return RulesetFileError("not-a-ruleset", f"not a rulelang ruleset (it reads as {kind})", filename=filename,
                            hint="rulelang checks only rulesets; folder walks, the pre-commit hooks and the "
                                 "language server skip such a file")
