"""The allow-list of mutants no judge can kill: reading it and checking it without running a mutant.

Each entry of `bench/mutation-equivalent.json` has the mutant's `id`, its
`reason` (`equivalent:`, `unobservable:` or `unreachable:` and why), `code`
(the code the reason rests on, the mutated one first: a function or class
`path::Qualname`, a module-level statement `path::<module>::NAME` or one entry
of a table `path::<module>::NAME[KEY]`, a grammar rule `path.lark::RULE`;
`mutants.source_of` says every form) and `fingerprint` (a hash of that code's
source, `mutants.fingerprint`; never of a whole file, so an unrelated
statement added to the same module changes no entry). A change of that code
changes the fingerprint, which puts the entry up for review: judge the mutant
again, then rewrite the reason and the fingerprint.

    python bench/allowlist.py                      # the entries up for review, and the code that changed
    python bench/allowlist.py --paths interpreter/ # only those naming code under a folder (after a merge, say)

then rerun them (`python bench/mutation.py --verify-allowlist --match ID`) and,
when each still holds, renew their fingerprints (`--update-fingerprints`).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from mutants import REPO, fingerprint, source_of

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


def _line_of(mutant_id: str) -> str:
    """The text of the line a mutant id names (`path::function::LINE::label`)."""
    return mutant_id.split("::", 2)[2].rsplit("::", 1)[0]


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
        mutated = i.split("::")[0] + "::" + i.split("::")[1]
        whole = [c for c in code if c.endswith("::<module>")]
        if whole:
            problems.append(f"{i}: `code` names a whole module ({', '.join(whole)}): name the statement its reason "
                            "rests on (`path::<module>::NAME`, see bench/mutants.py source_of)")
            continue
        at_module = mutated.endswith("::<module>")
        if not code or not (code[0].startswith(mutated + "::") if at_module else code[0] == mutated):
            problems.append(f"{i}: `code` must name the mutated function first"
                            + (" (a module-level line: the statement holding it, `path::<module>::NAME`)"
                               if at_module else ""))
            continue
        try:
            now = fingerprint(code)
        except KeyError as exc:
            problems.append(f"{i}: the code its reason rests on is gone ({exc.args[0]})")
            continue
        if at_module and " ".join(_line_of(i).rstrip(",").split()) not in " ".join(source_of(code[0]).split()):
            problems.append(f"{i}: `code` must name the mutated statement first ({code[0]} does not hold its line)")
            continue
        if now != e.get("fingerprint"):
            problems.append(f"{i}: the code its reason rests on changed (fingerprint {now}, listed "
                            f"{e.get('fingerprint')}): judge it again and update the entry")
    return problems


def written_at(path: Path = PATH) -> str | None:
    """The last commit that changed the allow-list file (its fingerprints were taken then), or None."""
    res = subprocess.run(["git", "log", "-1", "--format=%H", "--", str(path)], capture_output=True, text=True,
                         cwd=REPO)
    return res.stdout.strip() or None


def changed_since(ref: str, rev: str) -> bool | None:
    """Whether the code `ref` names differs from its source at `rev` (None: it cannot be read there)."""
    rel = ref.partition("::")[0]
    res = subprocess.run(["git", "show", f"{rev}:{rel}"], capture_output=True, text=True, cwd=REPO)
    if res.returncode != 0:
        return None
    try:
        before = source_of(ref, res.stdout)
    except (KeyError, SyntaxError):
        return None
    try:
        return source_of(ref) != before
    except KeyError:
        return True


def review(entries: list[dict[str, Any]], mutant_ids: set[str], paths: list[str], since: str | None) -> list[str]:
    """The report of the entries up for review (those naming code under `paths`, when given): each problem, the
    entry's reason and, for a changed code, which of its parts changed since `since`."""
    lines: list[str] = []
    cache: dict[str, bool | None] = {}
    for e in entries:
        code = e.get("code") or []
        if paths and not any(c.startswith(tuple(paths)) for c in [e["id"], *code]):
            continue
        problems = check([e], mutant_ids)
        if not problems:
            continue
        lines += [f"UP FOR REVIEW {p}" for p in problems]
        lines.append(f"    reason: {e['reason']}")
        for c in code:
            if since is not None and c not in cache:
                cache[c] = changed_since(c, since)
            mark = {True: "changed", False: "same", None: "new or unreadable"}[cache[c]] if since else ""
            lines.append(f"    code:   {c}" + (f"  ({mark} since {since[:10]})" if mark else ""))
    return lines


def main(argv: list[str] | None = None) -> int:
    """List the entries up for review (none: exit 0)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--paths", action="append", default=[], metavar="PREFIX",
                    help="only entries whose mutant or code is under PREFIX (repeatable), e.g. interpreter/")
    ap.add_argument("--since", metavar="REV", help="say which code changed since REV (default: the last commit "
                    "that changed the allow-list, when its fingerprints were taken)")
    ap.add_argument("--equivalent", type=Path, default=PATH, help="the allow-list")
    args = ap.parse_args(argv)
    try:
        entries = load(args.equivalent)
    except AllowListError as exc:
        print(f"allowlist: {exc}", file=sys.stderr)
        return 2
    import mutation  # the mutants of every area (bench/mutation.py imports this module)

    ids = mutation.every_mutant_id()
    lines = review(entries, ids, args.paths, args.since or written_at(args.equivalent))
    print("\n".join(lines) if lines else "allow-list: no entry up for review")
    n = sum(1 for line in lines if line.startswith("UP FOR REVIEW"))
    if n:
        print(f"\n{n} entries up for review: rerun them with `python bench/mutation.py --verify-allowlist --match ID` "
              "and, when each still holds, `--update-fingerprints` (then read the reason again)")
    return 1 if n else 0


if __name__ == "__main__":
    sys.exit(main())
