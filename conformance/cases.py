"""Loading, linting and selecting the case files.

The suite lints itself before every run: each file validates against
`schema/case.schema.json`, ids are unique across the suite (and never reused by
a `replaces`), tags are listed in `features.json`, tiles are written low half
first, a deal never holds a tile twice, and descriptions state behaviour.
"""
from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, cast

from rulelang.base.readinput import read_json


def step_words(step: dict[str, Any]) -> str:
    """A case step in words, for reports: its move (with its claim), `draw`, `pass` or `call by seat N`."""
    if "play" in step:
        return str(step["play"]) + (f" claim {step['claim']}" if "claim" in step else "")
    if "call" in step:
        return f"call by seat {step['call']}"
    if "observe" in step:
        return f"what seat {step['observe']} sees"
    return "draw" if "draw" in step else "pass"

HERE = Path(__file__).resolve().parent
CASES_DIR = HERE / "cases"
SCHEMA_PATH = HERE / "schema" / "case.schema.json"
FEATURES_PATH = HERE / "features.json"
EXPECTED_FAILURES_DIR = HERE / "expected-failures"

TILE_RE = re.compile(r"\[(\d{1,2})\|(\d{1,2})\]")  # larger sets: two-digit halves ([10|12])
MAX_FILE_STEPS = 10_000  # steps of all the cases of one file together (the schema bounds each case's and the cases)
# "should count" describes a wish; a case states what happens ("counts")
WISHFUL = re.compile(r"\b(should|must be tested|tests? that|checks? that)\b", re.I)


@dataclass
class Case:
    """One case, with where it came from."""

    id: str
    variant: str  # the directory under cases/
    topic: str  # the file name without .json
    file: Path
    data: dict[str, Any]
    ruleset: Any  # bundled name or {"text": ...}
    file_clauses: tuple[str, ...] = ()  # the clauses every case of its file tests

    @property
    def tags(self) -> list[str]:
        return list(self.data["tags"])

    @property
    def clauses(self) -> list[str]:
        """The clauses of conformance/clauses.json the case tests: its file's, then its own."""
        return list(dict.fromkeys([*self.file_clauses, *self.data.get("clauses", [])]))

    @property
    def description(self) -> str:
        return str(self.data["description"])


@dataclass
class LintReport:
    errors: list[str] = field(default_factory=list)
    cases: list[Case] = field(default_factory=list)
    unfinished: bool = False  # the run's deadline passed before every file was linted

    @property
    def ok(self) -> bool:
        return not self.errors


@cache
def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return loaded


@cache
def features() -> dict[str, str]:
    return dict(json.loads(FEATURES_PATH.read_text(encoding="utf-8"))["tags"])


@cache
def size_limits() -> tuple[int, int, int]:
    """(cases per file, steps per case, next rounds per case): the schema's own bounds, read from it."""
    sch = schema()
    case = sch["$defs"]["case"]["properties"]
    return sch["properties"]["cases"]["maxItems"], case["steps"]["maxItems"], case["next_rounds"]["maxItems"]


def oversized(doc: Any) -> str | None:
    """Why a case file is too large to lint, by counting alone (before jsonschema, whose cost grows with
    the size), naming the limit; None when within the bounds or not shaped like a case file at all."""
    max_cases, max_steps, max_rounds = size_limits()
    cases = doc.get("cases") if isinstance(doc, dict) else None
    if not isinstance(cases, list):
        return None
    if len(cases) > max_cases:
        return f"/cases: {len(cases):,} cases, more than the limit of {max_cases} per file"
    total = 0
    for k, case in enumerate(cases):
        if not isinstance(case, dict):
            continue
        steps, rounds = case.get("steps"), case.get("next_rounds")
        if isinstance(steps, list):
            if len(steps) > max_steps:
                return f"/cases/{k}/steps: {len(steps):,} steps, more than the limit of {max_steps} per case"
            total += len(steps)
        if isinstance(rounds, list) and len(rounds) > max_rounds:
            return f"/cases/{k}/next_rounds: {len(rounds):,} rounds, more than the limit of {max_rounds} per case"
    if total > MAX_FILE_STEPS:
        return f"/cases: {total:,} steps in all, more than the limit of {MAX_FILE_STEPS:,} per file"
    return None


def known_tags() -> set[str]:
    return set(features())


def case_files(root: Path = CASES_DIR) -> list[Path]:
    return sorted(root.glob("*/*.json"))


def _tiles_in(obj: Any) -> Iterable[str]:
    if isinstance(obj, str):
        yield from (m.group(0) for m in TILE_RE.finditer(obj))
    elif isinstance(obj, list):
        for x in obj:
            yield from _tiles_in(x)
    elif isinstance(obj, dict):
        for x in obj.values():
            yield from _tiles_in(x)


def _set_top(ruleset: Any) -> int:
    """The highest pip of a case's set (larger sets, family.md 3.7); 6 when the ruleset does not compile."""
    from rulelang.conformance.configs import compiled

    try:
        return int(compiled(ruleset).get("tiles", 6))
    except Exception:  # noqa: BLE001 - a ruleset that does not compile is reported elsewhere
        return 6


def _lint_deal(where: str, deal: dict[str, Any], players: int, errors: list[str]) -> None:
    if len(deal["hands"]) != players:
        errors.append(f"{where}: {len(deal['hands'])} hands for {players} players")
    seen: set[str] = set()
    for t in [t for h in deal["hands"] for t in h] + list(deal["boneyard"]):
        if t in seen:
            errors.append(f"{where}: tile {t} dealt twice")
        seen.add(t)
    opener = deal.get("opener")
    if opener is not None and opener >= players:
        errors.append(f"{where}: no seat {opener} among {players} players")


def _lint_views(where: str, steps: list[dict[str, Any]], errors: list[str]) -> None:
    """Every applied `observe` step states the seat's hand: the runner's check of what a seat sees starts
    from the hand the case states (PROTOCOL.md 2.1), never from the engine's answer."""
    for k, step in enumerate(steps):
        if "observe" in step and "reject" not in step and "hand" not in (step.get("expect") or {}):
            errors.append(f"{where}: step {k} observes seat {step['observe']} without stating its hand")


def _lint_clauses(where: str, ids: list[str], errors: list[str]) -> None:
    """Every clause a case names is in the clause catalogue (conformance/clauses.json)."""
    from .clauses import unknown

    for cid in unknown(ids):
        errors.append(f"{where}: unknown clause {cid!r} (not in conformance/clauses.json; "
                      "see `rulelang conform --trace` for the clause ids)")


def _lint_refs(where: str, case: Case, errors: list[str]) -> None:
    """The clauses a case names, and the field and values its `decides` names, exist."""
    _lint_clauses(where, case.clauses, errors)
    if "decides" in case.data:
        _lint_decides(where, case.data["decides"], errors)


def _lint_decides(where: str, decides: dict[str, Any], errors: list[str]) -> None:
    """A deciding case names a field of the deciding pairs and values of that field (conformance/deciding.py)."""
    from .deciding import domains, position

    known = domains().get(decides["field"])
    if known is None:
        errors.append(f"{where}: decides an unknown field {decides['field']!r} (see `rulelang cases coverage`)")
        return
    for v in [decides["value"], *decides["against"]]:
        if position(known[0], v) is None:
            errors.append(f"{where}: {v!r} is not a value of {decides['field']} to decide "
                          f"({', '.join(map(repr, known[0]))})")
    if decides["value"] in decides["against"]:
        errors.append(f"{where}: decides {decides['field']} against its own value {decides['value']!r}")


def _valid_file(path: Path, rel: str, validator: Any, errors: list[str]) -> Any:
    """The document of a case file that is JSON, within the size bounds and valid by the schema; else None
    (its problems added to ERRORS, as REL: ...)."""
    try:
        doc = read_json(path)  # a regular file, bounded in size and nesting: a bad file is that file's error
    except (OSError, ValueError) as exc:
        errors.append(f"{rel}: not JSON: {exc}")
        return None
    too_large = oversized(doc)  # counted first: jsonschema's cost grows with the file
    if too_large is not None:
        errors.append(f"{rel}: {too_large}")
        return None
    problems = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    for err in problems:
        loc = "/".join(str(p) for p in err.absolute_path)
        errors.append(f"{rel}: /{loc}: {err.message}")
    return None if problems else doc


def lint(root: Path = CASES_DIR, files: list[Path] | None = None, ends_at: float | None = None) -> LintReport:
    """Validate every case file (of `root`, or the `files` given); return the cases and every problem found.

    `ends_at` (a time.monotonic() value) is a run's deadline: a file not begun
    by then is not linted, and the report says so.
    """
    import jsonschema

    rep = LintReport()
    validator = jsonschema.Draft202012Validator(schema())
    tags = known_tags()
    ids: dict[str, Path] = {}
    replaced: dict[str, str] = {}
    files = case_files(root) if files is None else files
    if not files:
        rep.errors.append(f"no case files under {root}")
    for done, path in enumerate(files):
        if ends_at is not None and time.monotonic() >= ends_at:
            rep.errors.append(f"the deadline passed while linting: {done} of {len(files)} case files linted")
            rep.unfinished = True
            break
        rel = f"{path.parent.name}/{path.name}"
        doc = _valid_file(path, rel, validator, rep.errors)
        if doc is None:
            continue
        for c in doc["cases"]:
            where = f"{rel}: {c['id']}"
            if c["id"] in ids:
                rep.errors.append(f"{where}: duplicate id (also in {ids[c['id']].parent.name}/{ids[c['id']].name})")
            ids[c["id"]] = path
            for old in c.get("replaces", []):
                if old in replaced:
                    rep.errors.append(f"{where}: replaces {old}, already replaced by {replaced[old]}")
                replaced[old] = c["id"]
            rep.errors.extend(f"{where}: unknown tag {t!r} (not in features.json)" for t in c["tags"] if t not in tags)
            top = None  # larger sets: the highest pip the case's set allows, read only when a half is above 6
            for t in _tiles_in(c):
                a, b = map(int, TILE_RE.fullmatch(t).groups())  # type: ignore[union-attr]
                if a > b:
                    rep.errors.append(f"{where}: tile {t} is not written low half first")
                if b > 6:
                    top = _set_top(c.get("ruleset", doc["ruleset"])) if top is None else top
                    msg = f"{where}: tile {t} is not in the case's set (halves 0 to {top})"
                    if b > top and msg not in rep.errors:
                        rep.errors.append(msg)
            _lint_views(where, c["steps"], rep.errors)
            if WISHFUL.search(c["description"]):
                rep.errors.append(f"{where}: the description should state the behaviour, not a wish or a test")
            _lint_deal(f"{where}: setup", c["setup"], c["players"], rep.errors)
            for k, d in enumerate(c.get("next_rounds", [])):
                _lint_deal(f"{where}: next_rounds[{k}]", d, c["players"], rep.errors)
            case = Case(c["id"], path.parent.name, path.stem, path, c, c.get("ruleset", doc["ruleset"]),
                        tuple(doc.get("clauses", [])))
            _lint_refs(where, case, rep.errors)
            rep.cases.append(case)
    for old, new in replaced.items():
        if old in ids:
            rep.errors.append(f"{new}: replaces {old}, but {old} is still a case (ids are never reused)")
    return rep


def select(cases: list[Case], variants: Iterable[str] = (), tags: Iterable[str] = (),
           ids: Iterable[str] = ()) -> list[Case]:
    """Cases of any of `variants`, having every tag in `tags`, or listed in `ids` (empty: all)."""
    variants, tags, ids = set(variants), set(tags), set(ids)
    out = []
    for c in cases:
        if variants and c.variant not in variants:
            continue
        if tags and not tags <= set(c.tags):
            continue
        if ids and c.id not in ids:
            continue
        out.append(c)
    return out


def replacements(cases: Iterable[Case]) -> dict[str, str]:
    """{old id: new id} for every id a case `replaces` (ids are never reused)."""
    return {old: c.id for c in cases for old in c.data.get("replaces", [])}


def load_expected_failures(engine: str, directory: Path = EXPECTED_FAILURES_DIR) -> dict[str, str]:
    """{case id: reason} for `engine` (a missing file: no expected failures).

    The name comes from the engine's `start` answer: only a plain file name is
    looked up (no folders, no hidden files), never a path such as `../x`.
    """
    if not isinstance(engine, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._+-]*", engine):
        return {}
    path = directory / f"{engine}.json"
    if not path.exists():
        return {}
    doc = cast("dict[str, list[dict[str, str]]]", read_json(path))  # shaped by expected-failures.schema.json
    return {e["id"]: e["reason"] for e in doc.get("expected_failures", [])}
