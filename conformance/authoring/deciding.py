"""Search deciding cases for the pairs `rulelang cases coverage` lists as uncovered, and write them to the suite.

    python conformance/authoring/deciding.py [--field FIELD ...] [--tries N] [--dry-run]
    python conformance/authoring/deciding.py --pair 'drawing: "until-playable" vs "until-found"' --tries 60 --bases 1

(`--pair KEY`: that pair even when a case decides it, for a shorter case beside the others.)

For each uncovered pair (F, a, b) (conformance/deciding.py) it searches seeded
matches under F = a that the twin F = b observes otherwise, shrinks the first
one found (conform --shrink's shrinker), checks it with an independent engine
that plays the configuration (the test engine, else the toy engine), and adds
to `against` every other value of F whose twin fails the case too. A case no
independent engine agrees with is not written; one no independent engine can
play is written with `source.where` saying it needs hand review. The cases go to
conformance/cases/deciding/<field>.json (the folder `deciding`, a variant of
its own: each case carries its own inline ruleset), and are reviewed like any
case before they are committed.
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path
from typing import Any

from rulelang.conformance import deciding, deciding_search
from rulelang.conformance.builtin import run_case
from rulelang.conformance.cases import CASES_DIR, lint, step_words
from rulelang.conformance.compare import compare
from rulelang.conformance.generate import config_tags, expectation_tags

PLAYER_TAGS = {2: "two-players", 3: "three-players", 4: "four-players"}
ID_MAX = 80


def _request(data: dict[str, Any]) -> dict[str, Any]:
    """What an engine is sent of a case DATA (its configuration aside)."""
    return {**{k: data[k] for k in ("players", "setup")},
            **({"next_rounds": data["next_rounds"]} if data.get("next_rounds") else {}),
            "steps": [{k: s[k] for k in ("play", "claim", "draw", "pass", "call", "observe") if k in s}
                      for s in data["steps"]]}


def _fails_under(data: dict[str, Any], config: dict[str, Any]) -> bool:
    try:
        result = run_case({"config": config, **_request(data)})
    except Exception:  # noqa: BLE001 - a twin that cannot play it differs
        return True
    return compare(data, result) is not None


def _tags(config: dict[str, Any], data: dict[str, Any]) -> list[str]:
    tags = set(config_tags(config)) | {"inline-ruleset", "partial-deal"}
    tags.add(PLAYER_TAGS.get(data["players"], "more-players"))
    if data["players"] in config["players"]["partnerships"]:
        tags.add("partnerships")
    if data.get("next_rounds"):
        tags.add("multi-round")
    tags |= expectation_tags(data["steps"][-1].get("expect", {}))
    return sorted(tags)


def describe(field: str, value: Any, against: list[Any], steps: list[dict[str, Any]]) -> str:
    """A deciding case's description: what its last step shows under VALUE, which the others do not."""
    last = steps[-1]
    where = "the first step" if len(steps) == 1 else f"step {len(steps)}"
    if "reject" in last:
        what = f"is refused ({last['reject']})"
    elif last.get("expect"):
        what = f"gives the {', '.join(last['expect'])} expected"
    else:
        what = "is accepted"
    others = " or ".join(json.dumps(v) for v in against)
    return f"with {field} {json.dumps(value)}, {where} ({step_words(last)}) {what}; with {others} it is not so"


def _case(found: deciding_search.Found, against: list[Any], taken: set[str]) -> dict[str, Any]:
    p, data = found.pair, found.data
    cid = f"decide-{deciding_search.slug(p.field)}-{deciding_search.slug(p.a)}-vs-{deciding_search.slug(p.b)}"[:ID_MAX]
    cid = base = cid.rstrip("-")
    k = 2
    while cid in taken:  # the next free number (`-3` after `-2`, not `-2-3`)
        cid = f"{base[:ID_MAX - 4]}-{k}"
        k += 1
    taken.add(cid)
    others = " or ".join(json.dumps(v) for v in against)
    text = describe(p.field, p.a, against, data["steps"])
    how = (f"conformance/authoring/deciding.py: a seeded match (seed {found.seed}) from the ruleset {found.base} with "
           f"{p.field} {json.dumps(p.a)}, replayed under the twin with {others} until a step differed, shrunk by the "
           "shrinker of rulelang conform --shrink; ")
    how += (f"checked by {found.checked_by}, which passes it" if found.checked_by else
            "no independent engine plays this configuration: the expected values need hand review")
    return {"id": cid, "description": text, "source": {"text": "generated", "where": how},
            "tags": _tags(found.config, data),
            "ruleset": {"text": deciding_search.text_of(found.config)},
            "decides": {"field": p.field, "value": p.a, "against": against},
            **{k: data[k] for k in ("players", "setup", "next_rounds", "steps") if k in data}}


def _declared_name(field: str) -> str:
    return field.rsplit(".", 1)[0] if field.rsplit(".", 1)[-1].isdigit() else field


def file_for(field: str) -> Path:
    """The case file of a field's deciding cases: cases/deciding/<declared field>.json (a count or term key kept
    with its table or term: `reserve.7` -> reserve.json, `settlement.block.terms.kind` -> its own file)."""
    name = _declared_name(field)
    return CASES_DIR / "deciding" / f"{name.replace('.', '-').replace('_', '-')}.json"


def _write(cases: list[dict[str, Any]]) -> list[Path]:
    """Add CASES to their fields' files (each case file holds at most 100)."""
    by_file: dict[Path, list[dict[str, Any]]] = {}
    for case in cases:
        by_file.setdefault(file_for(case["decides"]["field"]), []).append(case)
    for path, new in by_file.items():
        doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {
            "description": f"Deciding cases of {_declared_name(new[0]['decides']['field'])}: each case's ruleset (a "
                           "bundled one with the rule set, every statement written out) tells the value of its "
                           "`decides` apart from the values it names (conformance/authoring/deciding.py).",
            "ruleset": "allfives", "clauses": deciding.clauses_for(new[0]["decides"]["field"]), "cases": []}
        doc["cases"] += new
        if len(doc["cases"]) > 100:
            raise SystemExit(f"{path}: more than 100 cases")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return list(by_file)


def recheck() -> int:
    """Every deciding case of the suite again: `against` keeps the values whose twin is valid, seats every round it
    would draw lots for, and fails the case; a case left with none, or one an independent engine that plays it
    disagrees with, is removed (its pairs are searched again by the next run)."""
    report = lint()
    changed: dict[Path, dict[str, Any]] = {}
    for case in report.cases:
        dec = case.data.get("decides")
        if not dec:
            continue
        from rulelang.conformance.configs import compiled

        config = compiled(case.ruleset)
        ends = deciding.round_ends(run_case({"config": config, **_request(case.data)})["steps"])
        keep = []
        for c in dec["against"]:
            made = deciding.twin(config, dec["field"], c)
            if made is not None and not deciding.draws_lots_unseated(made[0], case.data, ends) and _fails_under(case.data, made[0]):
                keep.append(c)
        _, disagree = deciding_search.check(config, case.data)
        doc = changed.setdefault(case.file, json.loads(case.file.read_text(encoding="utf-8")))
        entry = next(c for c in doc["cases"] if c["id"] == case.id)
        if not keep or disagree:
            print(f"removed {case.id}: " + (f"{', '.join(disagree)} disagree" if disagree else "it decides nothing"))
            doc["cases"].remove(entry)
        elif keep != dec["against"]:
            print(f"{case.id}: against {dec['against']} -> {keep}")
            entry["decides"]["against"] = keep
            others = " or ".join(json.dumps(v) for v in keep)
            old = " or ".join(json.dumps(v) for v in dec["against"])
            entry["description"] = entry["description"].replace(old, others)
            entry["source"]["where"] = entry["source"]["where"].replace(old, others)
    for path, doc in changed.items():
        if doc["cases"]:
            path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        else:
            path.unlink()
    return 0


def _key(field: str, a: Any, b: Any) -> str:
    """The pair key of A and B, in the field's order."""
    values = deciding.domains()[field][0]
    i, j = deciding.position(values, a), deciding.position(values, b)
    return deciding.pair_key(field, *((a, b) if (i or 0) < (j or 0) else (b, a)))


def _find(p: deciding.Pair, args: argparse.Namespace) -> deciding_search.Found | None:
    """A deciding case for P that every independent engine playing it agrees with (three seeds of the search)."""
    configs = list(itertools.islice(deciding_search.configs_for(p), args.bases))
    wide: list[Any] = []
    if args.widen:  # then bases with one other rule changed (a rule in force only beside another's value)
        bundled = len(list(deciding_search.configs_for(p)))
        wide = list(deciding_search.configs_for(p, widen=args.widen))[bundled:]
    for attempt in range(1, 4):
        try:
            found = deciding_search.search(p, tries=args.tries, seed=attempt, configs=configs)
            if found is None and wide:
                found = deciding_search.search(p, tries=args.widen_tries, seed=attempt, configs=wide)
        except Exception as exc:  # noqa: BLE001 - one pair's failure ends no run
            print(f"  {p.key}: the search failed: {type(exc).__name__}: {exc}", file=sys.stderr)
            return None
        if found is None:
            return None
        by, disagree = deciding_search.check(found.config, found.data)
        if not disagree:
            found.checked_by = by
            return found
        print(f"  {p.key}: {', '.join(disagree)} disagree(s) with the case of seed {found.seed}; searching on",
              file=sys.stderr)
    return None


def _against(found: deciding_search.Found, done: set[str]) -> list[Any]:
    """The pair's other value, and every other value of its field not yet decided whose twin the case fails too."""
    p = found.pair
    ends = deciding.round_ends(run_case({"config": found.config, **_request(found.data)})["steps"])
    against = [p.b]
    for c in deciding.domains()[p.field][0]:
        if c == p.a or c == p.b or _key(p.field, p.a, c) in done:
            continue
        made = deciding.twin(found.config, p.field, c)
        if made is not None and not deciding.draws_lots_unseated(made[0], found.data, ends) and _fails_under(found.data, made[0]):
            against.append(c)
    return against


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--field", action="append", default=[])
    ap.add_argument("--pair", action="append", default=[], metavar="KEY",
                    help='search this pair even if a case decides it (`rulelang cases coverage` spells KEY: '
                         '\'drawing: "until-playable" vs "until-found"\'): a shorter case, added beside the others')
    ap.add_argument("--tries", type=int, default=25, help="seeded matches per base ruleset")
    ap.add_argument("--bases", type=int, default=8, help="base rulesets tried per pair at most")
    ap.add_argument("--widen", type=int, default=0, help="also the first N bases with one other rule changed")
    ap.add_argument("--widen-tries", type=int, default=3, help="seeded matches per widened base")
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--part", default="1/1", help="K/N: only the K-th of N shares of the fields (parallel runs)")
    ap.add_argument("--recheck", action="store_true", help="check the suite's deciding cases again (see recheck)")
    args = ap.parse_args(argv)
    if args.recheck:
        return recheck()
    report = lint()
    if not report.ok:
        print("\n".join(report.errors), file=sys.stderr)
        return 2
    cov = deciding.coverage(report.cases)
    k, n = map(int, args.part.split("/"))
    share = {f for i, f in enumerate(sorted({p.field for p in cov.uncovered})) if i % n == k - 1}
    todo = [p for p in cov.uncovered if (not args.field or p.field in args.field) and p.field in share]
    if args.pair:  # named pairs, decided or not: a new case joins the ones there (their ids and data unchanged)
        by_key = {p.key: p for p in deciding.pairs()}
        unknown = [key for key in args.pair if key not in by_key]
        if unknown:
            print(f"no pair {unknown[0]!r}: `rulelang cases coverage` lists the pairs and their keys", file=sys.stderr)
            return 2
        todo = [by_key[key] for key in args.pair]
    taken = {c.id for c in report.cases}
    done: set[str] = set()
    found_cases: list[dict[str, Any]] = []
    missed = []
    for p in todo:
        if p.key in done:
            continue
        t0 = time.monotonic()
        found = _find(p, args)
        if found is None:
            missed.append(p.key)
            print(f"NOT FOUND {p.key} ({time.monotonic() - t0:.1f}s)", file=sys.stderr)
            continue
        against = _against(found, done)
        done |= {_key(p.field, p.a, c) for c in against}
        case = _case(found, against, taken)
        found_cases.append(case)
        print(f"{case['id']}: {len(found.data['steps'])} steps, against {against}, "
              f"{found.checked_by or 'NEEDS HAND REVIEW'} ({time.monotonic() - t0:.1f}s)", file=sys.stderr)
    if not args.dry_run and found_cases:
        for path in _write(found_cases):
            print(f"wrote {path}")
        rep = lint()
        if not rep.ok:
            print("\n".join(rep.errors), file=sys.stderr)
            return 1
    print(f"{len(todo)} {'' if args.pair else 'uncovered '}pairs searched; {len(missed)} not found: " + "; ".join(missed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
