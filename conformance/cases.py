"""Loading, linting and selecting the case files.

The suite lints itself before every run: each file validates against
`schema/case.schema.json`, ids are unique across the suite (and never reused by
a `replaces`), tags are listed in `features.json`, tiles are written low half
first, a deal never holds a tile twice, and descriptions state behaviour.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from rulelang.readinput import read_json


def step_words(step: dict[str, Any]) -> str:
    """A case step in words, for reports: its move (with its claim), `draw`, `pass` or `call by seat N`."""
    if "play" in step:
        return str(step["play"]) + (f" claim {step['claim']}" if "claim" in step else "")
    if "call" in step:
        return f"call by seat {step['call']}"
    return "draw" if "draw" in step else "pass"

HERE = Path(__file__).resolve().parent
CASES_DIR = HERE / "cases"
SCHEMA_PATH = HERE / "schema" / "case.schema.json"
FEATURES_PATH = HERE / "features.json"
EXPECTED_FAILURES_DIR = HERE / "expected-failures"

TILE_RE = re.compile(r"\[(\d{1,2})\|(\d{1,2})\]")  # larger sets: two-digit halves ([10|12])
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

    @property
    def tags(self) -> list[str]:
        return list(self.data["tags"])

    @property
    def description(self) -> str:
        return str(self.data["description"])


@dataclass
class LintReport:
    errors: list[str] = field(default_factory=list)
    cases: list[Case] = field(default_factory=list)

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


def lint(root: Path = CASES_DIR, files: list[Path] | None = None) -> LintReport:
    """Validate every case file (of `root`, or the `files` given); return the cases and every problem found."""
    import jsonschema

    rep = LintReport()
    validator = jsonschema.Draft202012Validator(schema())
    tags = known_tags()
    ids: dict[str, Path] = {}
    replaced: dict[str, str] = {}
    files = case_files(root) if files is None else files
    if not files:
        rep.errors.append(f"no case files under {root}")
    for path in files:
        rel = f"{path.parent.name}/{path.name}"
        try:
            doc = read_json(path)  # a regular file, bounded in size and nesting: a bad file is that file's error
        except (OSError, ValueError) as exc:
            rep.errors.append(f"{rel}: not JSON: {exc}")
            continue
        problems = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for err in problems:
            loc = "/".join(str(p) for p in err.absolute_path)
            rep.errors.append(f"{rel}: /{loc}: {err.message}")
        if problems:
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
            for t in c["tags"]:
                if t not in tags:
                    rep.errors.append(f"{where}: unknown tag {t!r} (not in features.json)")
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
            if WISHFUL.search(c["description"]):
                rep.errors.append(f"{where}: the description should state the behaviour, not a wish or a test")
            _lint_deal(f"{where}: setup", c["setup"], c["players"], rep.errors)
            for k, d in enumerate(c.get("next_rounds", [])):
                _lint_deal(f"{where}: next_rounds[{k}]", d, c["players"], rep.errors)
            rep.cases.append(Case(c["id"], path.parent.name, path.stem, path, c, c.get("ruleset", doc["ruleset"])))
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
    doc = read_json(path)
    return {e["id"]: e["reason"] for e in doc.get("expected_failures", [])}
