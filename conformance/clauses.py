"""The clause catalogue (`clauses.json`) and the trace of clauses to the cases that test them.

Every clause of the texts the suite is built from is quoted in the catalogue:
each paragraph (or part of one) of the three source texts, in the original
Portuguese, and each item, example and reading of `family.md` and section of
`rules.md`. A case names the clauses it tests (`clauses`, in the case or for a
whole file); `rulelang conform --trace` lists every clause of the traced texts
with its cases, and the clauses no case tests. A clause of a bundled variant
must be tested, unless the catalogue says why it cannot or need not be
(`untested`: a heading, a note, a presentation, or a rule the protocol hands
the engine as input, such as the deal).
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CATALOGUE_PATH = HERE / "clauses.json"
SCHEMA_PATH = HERE / "schema" / "clauses.schema.json"
TRACE_FORMAT = "rulelang-conformance-trace/1"


@cache
def catalogue() -> dict[str, Any]:
    """The catalogue document, validated by its schema (a broken catalogue is the package's bug: it raises)."""
    import jsonschema

    doc: dict[str, Any] = json.loads(CATALOGUE_PATH.read_text(encoding="utf-8"))
    jsonschema.validate(doc, json.loads(SCHEMA_PATH.read_text(encoding="utf-8")),
                        cls=jsonschema.Draft202012Validator)
    return doc


@cache
def by_id() -> dict[str, dict[str, Any]]:
    """Every clause by its id."""
    return {c["id"]: c for c in catalogue()["clauses"]}


def unknown(ids: Iterable[str]) -> list[str]:
    """The ids that name no clause of the catalogue."""
    known = by_id()
    return [i for i in ids if i not in known]


def normalised(text: str) -> str:
    """Whitespace collapsed, as the catalogue quotes."""
    return re.sub(r"\s+", " ", text).strip()


def excerpt(clause: dict[str, Any], limit: int = 160) -> str:
    """The clause's quote, cut at a word when longer than `limit` characters."""
    quote = str(clause["quote"])
    if len(quote) <= limit:
        return quote
    return quote[:limit].rsplit(" ", 1)[0] + " ..."


def where(clause: dict[str, Any]) -> str:
    """Where the clause is, in words: `000, paragraph 14` or `family.md, 4. Readings`."""
    if "paragraph" in clause:
        return f"{clause['source']}, paragraph {clause['paragraph']}"
    return f"{clause['source']}, {clause['section']}"


def failure_lines(clause_ids: Iterable[str]) -> list[str]:
    """The clauses a failing case tests, quoted: the sentence of the rules the engine breaks."""
    known = by_id()
    return [f'breaks {cid} ({where(known[cid])}): "{excerpt(known[cid])}"' for cid in clause_ids if cid in known]


def source_paragraphs(path: Path) -> list[str]:
    """A source text's paragraphs (its non-empty lines, numbered from 1 by the catalogue), whitespace collapsed."""
    return [normalised(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def misquoted(shared: Path) -> list[str]:
    """Clauses whose quote is not in the source file under `shared` (the project's shared folder), as messages.

    A source text's clause must be in its own paragraph; a spec page's anywhere in the page."""
    doc = catalogue()
    problems = []
    texts: dict[str, Any] = {}
    for name, src in doc["sources"].items():
        path = shared / src["file"]
        texts[name] = source_paragraphs(path) if src["file"].startswith("seeds/") else normalised(
            path.read_text(encoding="utf-8"))
    for c in doc["clauses"]:
        text = texts[c["source"]]
        if "paragraph" in c:
            if c["paragraph"] > len(text) or c["quote"] not in text[c["paragraph"] - 1]:
                problems.append(f"{c['id']}: the quote is not in paragraph {c['paragraph']} of {c['source']}")
        elif c["quote"] not in text:
            problems.append(f"{c['id']}: the quote is not in {c['source']}")
    return problems


@dataclass
class TracedClause:
    """One clause of the traced texts and the cases that test it."""

    clause: dict[str, Any]
    cases: list[str]

    @property
    def status(self) -> str:
        """`tested`, `exempt` (the catalogue says why no case tests it) or `untested`."""
        if self.cases:
            return "tested"
        return "exempt" if "untested" in self.clause else "untested"

    def required(self, bundled: set[str]) -> bool:
        """Whether the clause binds a bundled variant (and so must be tested, unless exempt)."""
        return bool(bundled & set(self.clause["variants"]))

    def to_dict(self, bundled: set[str]) -> dict[str, Any]:
        c = self.clause
        d: dict[str, Any] = {"id": c["id"], "source": c["source"], "where": where(c), "quote": c["quote"],
                             "variants": list(c["variants"]), "status": self.status,
                             "required": self.required(bundled), "cases": list(self.cases)}
        if "untested" in c and not self.cases:
            d["untested"] = dict(c["untested"])
        return d


@dataclass
class Trace:
    """The clauses of the traced texts with their cases; `bundled`: the variants whose clauses must be tested."""

    clauses: list[TracedClause]
    bundled: set[str]

    def untested(self, required_only: bool = False) -> list[TracedClause]:
        return [t for t in self.clauses if t.status == "untested" and (not required_only or t.required(self.bundled))]

    def summary(self) -> dict[str, int]:
        counts = {"clauses": len(self.clauses), "tested": 0, "exempt": 0, "untested": 0}
        for t in self.clauses:
            counts[t.status] += 1
        counts["untested_required"] = len(self.untested(required_only=True))
        return counts

    def to_dict(self) -> dict[str, Any]:
        return {"format": TRACE_FORMAT, "catalogue": catalogue()["format"], "summary": self.summary(),
                "bundled": sorted(self.bundled), "clauses": [t.to_dict(self.bundled) for t in self.clauses],
                "untested": [t.clause["id"] for t in self.untested()],
                "untested_required": [t.clause["id"] for t in self.untested(required_only=True)]}


def trace(cases: Iterable[Any], variants: Iterable[str] = ()) -> Trace:
    """The trace of the traced texts' clauses to `cases` (objects with `id` and `clauses`).

    With `variants`, only those bundled variants' clauses must be tested (a partial run); else every bundled one."""
    doc = catalogue()
    tested: dict[str, list[str]] = {}
    for case in cases:
        for cid in case.clauses:
            tested.setdefault(cid, []).append(case.id)
    bundled = set(doc["bundled"]) & set(variants) if variants else set(doc["bundled"])
    traced = set(doc["traced"])
    return Trace([TracedClause(c, tested.get(c["id"], [])) for c in doc["clauses"] if c["source"] in traced], bundled)


def text_lines(tr: Trace) -> list[str]:
    """The trace as text: a summary, each clause with its cases, then the untested clauses."""
    s = tr.summary()
    lines = [f"{s['clauses']} clauses of {', '.join(catalogue()['traced'])}: {s['tested']} tested, "
             f"{s['exempt']} need no case (the catalogue says why), {s['untested']} untested, "
             f"{s['untested_required']} of them of a bundled variant"]
    for t in tr.clauses:
        c = t.clause
        if t.status == "tested":
            lines.append(f"{c['id']}  ({where(c)}) {len(t.cases)} case(s): \"{excerpt(c, 100)}\"")
            lines.append("    " + ", ".join(t.cases))
        elif t.status == "exempt":
            lines.append(f"{c['id']}  ({where(c)}) no case needed, {c['untested']['kind']}: \"{excerpt(c, 100)}\"")
        else:
            lines.append(f"{c['id']}  ({where(c)}) NO CASE: \"{excerpt(c, 100)}\"")
    untested = tr.untested()
    lines.append(f"untested clauses: {len(untested)}" + ("" if untested else " (none)"))
    for t in untested:
        c = t.clause
        mark = "  REQUIRED: a clause of a bundled variant" if t.required(tr.bundled) else ""
        lines.append(f"  {c['id']}  [{', '.join(c['variants']) or 'no bundled variant'}]{mark}")
    return lines
