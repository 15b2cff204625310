"""Search deciding cases for the pairs `rulelang cases coverage` lists as uncovered, and write them to the suite.

    python conformance/authoring/deciding.py [--field FIELD ...] [--tries N] [--dry-run]

For each uncovered pair (F, a, b) (conformance/deciding.py) it searches seeded
matches under F = a that the twin F = b observes otherwise, shrinks the first
one found (conform --shrink's shrinker), checks it with an independent engine
that plays the configuration (the test engine, else the toy engine), and adds
to `against` every other value of F whose twin fails the case too. A case no
independent engine agrees with is not written; one no independent engine can
play is written with `source.where` saying it needs hand review. The cases go to
conformance/cases/<base ruleset>/deciding.json (a new file past 100 cases), and
are reviewed like any case before they are committed.
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
from rulelang.conformance.generate import config_tags

PLAYER_TAGS = {2: "two-players", 3: "three-players", 4: "four-players"}
ID_MAX = 80


def _fails_under(data: dict[str, Any], config: dict[str, Any]) -> bool:
    try:
        result = run_case({"config": config, **{k: data[k] for k in ("players", "setup") },
                           **({"next_rounds": data["next_rounds"]} if data.get("next_rounds") else {}),
                           "steps": [{k: s[k] for k in ("play", "claim", "draw", "pass", "call", "observe") if k in s}
                                     for s in data["steps"]]})
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
    exp = data["steps"][-1].get("expect", {})
    if exp.get("points"):
        tags.add("placement-score")
    if exp.get("drawn") or any(exp.get("pass_drawn") or []):
        tags.add("draw")
    if exp.get("passed"):
        tags.add("pass")
    rnd = exp.get("round")
    if rnd:
        tags.add({"domino": "domino", "blocked": "block", "target": "match-end"}[rnd["kind"]])
    if (exp.get("match") or {}).get("over"):
        tags.add("match-end")
    return sorted(tags)


def _case(found: deciding_search.Found, against: list[Any], taken: set[str]) -> dict[str, Any]:
    p, data = found.pair, found.data
    cid = f"decide-{deciding_search.slug(p.field)}-{deciding_search.slug(p.a)}-vs-{deciding_search.slug(p.b)}"[:ID_MAX]
    cid = cid.rstrip("-")
    k = 2
    while cid in taken:
        cid = f"{cid[:ID_MAX - 4]}-{k}"
        k += 1
    taken.add(cid)
    last = data["steps"][-1]
    keys = ", ".join(last.get("expect", {})) or "acceptance"
    others = " or ".join(json.dumps(v) for v in against)
    text = (f"with {p.field} {json.dumps(p.a)}, after {len(data['steps']) - 1} earlier steps {step_words(last)} "
            f"gives the {keys} the case expects; {p.field} {others} gives another")
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


def _write(by_base: dict[str, list[dict[str, Any]]]) -> list[Path]:
    written = []
    for base, cases in by_base.items():
        folder = CASES_DIR / base
        k = 1
        while cases:
            path = folder / ("deciding.json" if k == 1 else f"deciding-{k}.json")
            doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {
                "description": f"Deciding cases from the ruleset {base} with one rule changed (conformance/authoring/"
                               "deciding.py): each tells the value of its `decides` field apart from the others it names.",
                "ruleset": base, "cases": []}
            room = 100 - len(doc["cases"])
            doc["cases"] += cases[:room]
            cases = cases[room:]
            path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
            written.append(path)
            k += 1
    return written


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--field", action="append", default=[])
    ap.add_argument("--tries", type=int, default=25, help="seeded matches per base ruleset")
    ap.add_argument("--bases", type=int, default=8, help="base rulesets tried per pair at most")
    ap.add_argument("--widen", type=int, default=0, help="also the first N bases with one other rule changed")
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--part", default="1/1", help="K/N: only the K-th of N shares of the fields (parallel runs)")
    args = ap.parse_args(argv)
    report = lint()
    if not report.ok:
        print("\n".join(report.errors), file=sys.stderr)
        return 2
    cov = deciding.coverage(report.cases)
    k, n = map(int, args.part.split("/"))
    names = sorted({p.field for p in cov.uncovered})
    share = {f for i, f in enumerate(names) if i % n == k - 1}
    todo = [p for p in cov.uncovered if (not args.field or p.field in args.field) and p.field in share]
    taken = {c.id for c in report.cases}
    done: set[str] = set()
    by_base: dict[str, list[dict[str, Any]]] = {}
    missed = []
    for p in todo:
        if p.key in done:
            continue
        t0 = time.monotonic()
        configs = list(itertools.islice(deciding_search.configs_for(p), args.bases))
        if args.widen:  # then bases with one other rule changed (a rule in force only beside another's value)
            configs += list(deciding_search.configs_for(p, widen=args.widen))[len(configs):]
        found = None
        for attempt in range(1, 4):
            try:
                found = deciding_search.search(p, tries=args.tries, seed=attempt, configs=configs)
            except Exception as exc:  # noqa: BLE001 - one pair's failure ends no run
                print(f"  {p.key}: the search failed: {type(exc).__name__}: {exc}", file=sys.stderr)
                found = None
            if found is None:
                break
            by, disagree = deciding_search.check(found.config, found.data)
            if disagree:
                print(f"  {p.key}: {', '.join(disagree)} disagree(s) with the case of seed {found.seed}; searching on",
                      file=sys.stderr)
                found = None
                continue
            found.checked_by = by
            break
        if found is None:
            missed.append(p.key)
            print(f"NOT FOUND {p.key} ({time.monotonic() - t0:.1f}s)", file=sys.stderr)
            continue
        values = deciding.domains()[p.field][0]
        against = [p.b]
        for c in values:
            if c == p.a or c == p.b or deciding.pair_key(p.field, *sorted([p.a, c], key=lambda v: deciding.position(values, v) or 0)) in done:
                continue
            made = deciding.twin(found.config, p.field, c)
            if made is not None and _fails_under(found.data, made[0]):
                against.append(c)
        for c in against:
            i, j = deciding.position(values, p.a), deciding.position(values, c)
            done.add(deciding.pair_key(p.field, *((p.a, c) if (i or 0) < (j or 0) else (c, p.a))))
        case = _case(found, against, taken)
        by_base.setdefault(found.base, []).append(case)
        print(f"{case['id']}: {len(found.data['steps'])} steps, against {against}, "
              f"{found.checked_by or 'NEEDS HAND REVIEW'} ({time.monotonic() - t0:.1f}s)", file=sys.stderr)
    if not args.dry_run and by_base:
        for path in _write(by_base):
            print(f"wrote {path}")
        rep = lint()
        if not rep.ok:
            print("\n".join(rep.errors), file=sys.stderr)
            return 1
    print(f"{len(todo)} uncovered pairs searched; {len(missed)} not found: " + "; ".join(missed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
