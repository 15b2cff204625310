"""The allow-list of mutants no judge can kill: reading it and checking it without running a mutant.

Each entry of `bench/mutation-equivalent.json` has the mutant's `id`, its
`reason` (`equivalent:`, `unobservable:` or `unreachable:` and why), `code`
(the functions the reason rests on, `path::Qualname`, the mutated one first)
and `fingerprint` (a hash of that code's source, `mutants.fingerprint`). A
change of that code changes the fingerprint, which puts the entry up for
review: judge the mutant again, then rewrite the reason and the fingerprint.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mutants import fingerprint

PATH = Path(__file__).resolve().parent / "mutation-equivalent.json"
KINDS = ("equivalent", "unobservable", "unreachable")


class AllowListError(Exception):
    """The allow-list file cannot be read."""


def load(path: Path = PATH) -> list[dict[str, Any]]:
    """The entries, each with id, reason, code and fingerprint."""
    if not path.exists():
        return []
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        entries = doc["equivalent"]
        assert isinstance(entries, list) and all(isinstance(e, dict) and "id" in e and "reason" in e
                                                 for e in entries)
    except (OSError, ValueError, KeyError, AssertionError) as exc:
        raise AllowListError(f"{path}: not an allow-list ({type(exc).__name__}: {exc})") from exc
    return entries


def check(entries: list[dict[str, Any]], mutant_ids: set[str]) -> list[str]:
    """What is wrong with the entries, without running a mutant: a gone mutant, a changed code, a bad reason."""
    problems: list[str] = []
    seen: set[str] = set()
    for e in entries:
        i = e["id"]
        if i in seen:
            problems.append(f"{i}: listed twice")
        seen.add(i)
        if e["reason"].split(":")[0] not in KINDS:
            problems.append(f"{i}: the reason starts with none of {', '.join(KINDS)}")
        if i not in mutant_ids:
            problems.append(f"{i}: names no mutant (its line changed or went): judge the new line")
            continue
        code = e.get("code") or []
        if not code or not code[0] == i.split("::")[0] + "::" + i.split("::")[1]:
            problems.append(f"{i}: `code` must name the mutated function first")
            continue
        try:
            now = fingerprint(code)
        except KeyError as exc:
            problems.append(f"{i}: the code its reason rests on is gone ({exc.args[0]})")
            continue
        if now != e.get("fingerprint"):
            problems.append(f"{i}: the code its reason rests on changed (fingerprint {now}, listed "
                            f"{e.get('fingerprint')}): judge it again and update the entry")
    return problems
