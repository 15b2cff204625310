"""Reports of a run: a rich summary table, failure details, JSON, JUnit XML, and changes since a baseline."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path
from typing import Any

from rulelang.base.outfiles import write_atomic

from .cases import step_words
from .runner import OUTCOMES, CaseResult, RunResult

REPORT_FORMAT = "rulelang-conformance-report/1"


def to_json(run: RunResult) -> dict[str, Any]:
    """The JSON report: engine, counts, and per case its outcome and first difference (expected vs actual)."""
    return {
        "format": REPORT_FORMAT,
        "engine": run.engine,
        "ok": run.ok,
        "summary": run.counts(),
        "restarts": run.restarts,
        "stale_expected_failures": run.stale_expected_failures,
        "cases": [r.to_dict() for r in run.results],
    }


def passed_of(counts: dict[str, int]) -> tuple[int, int]:
    """(passed, judged) of a run's or a group's outcome counts, as the HTML report and the badge show them.

    Judged is every case run but those the engine skipped (features it does not claim); passed is every
    judged case whose answers were right (an unexpected pass is right answers, though it fails the run:
    the expected-failures list is stale). An expected failure is judged and not passed.
    """
    judged = sum(counts.values()) - counts.get("skip", 0)
    return counts.get("pass", 0) + counts.get("xpass", 0), judged


def write_json(run: RunResult, path: str | Path) -> None:
    """Write the JSON report atomically (an existing file is replaced whole or left as it was)."""
    write_atomic(str(path), json.dumps(to_json(run), indent=2, ensure_ascii=False) + "\n")


def _short(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "..."


def failure_text(r: CaseResult) -> str:
    """One failure as text: step, path, expected vs got (or the error), then the clauses of the rules it breaks."""
    return _first_difference(r) + _broken_clauses(r)


def _broken_clauses(r: CaseResult, shown: int = 3) -> str:
    """The first clauses the failing case tests, quoted: an engine author reads "this engine breaks this sentence"."""
    from .clauses import failure_lines

    lines = failure_lines(r.case.clauses)
    more = f"\n    (and {len(lines) - shown} more clauses: rulelang conform --trace)" if len(lines) > shown else ""
    return "".join(f"\n    {line}" for line in lines[:shown]) + more


def _first_difference(r: CaseResult) -> str:
    """The first difference as text: step, path, expected vs got (or the error)."""
    if r.difference is not None:
        d = r.difference
        steps = r.case.data["steps"]
        move = ""
        if d.step < len(steps):
            s = steps[d.step]
            move = step_words(s)
        return (f"step {d.step} ({move}): {d.path}\n    expected {_short(d.expected)}\n    got      {_short(d.got)}")
    if r.error is not None:
        return f"error: {r.error.get('message', r.error)}"
    return r.outcome


def write_junit(run: RunResult, path: str | Path) -> None:
    """JUnit XML: one testsuite per variant/topic, one testcase per case (id as name)."""
    groups: dict[str, list[Any]] = defaultdict(list)
    for r in run.results:
        groups[f"{r.case.variant}.{r.case.topic}"].append(r)
    root = ET.Element("testsuites", name="rulelang-conformance")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for name in sorted(groups):
        rs = groups[name]
        suite = ET.SubElement(root, "testsuite", name=name)
        counts = {"tests": len(rs), "failures": 0, "errors": 0, "skipped": 0}
        for r in rs:
            tc = ET.SubElement(suite, "testcase", name=r.case.id, classname=name, time=f"{r.seconds:.4f}")
            if r.outcome == "fail":
                counts["failures"] += 1
                ET.SubElement(tc, "failure", message=r.case.description[:200]).text = failure_text(r)
            elif r.outcome == "xpass":
                counts["failures"] += 1
                ET.SubElement(tc, "failure", message="unexpected pass").text = (
                    f"listed as an expected failure ({r.xfail_reason}) but passed: remove it from the list")
            elif r.outcome == "error":
                counts["errors"] += 1
                ET.SubElement(tc, "error", message=str((r.error or {}).get("message", "error"))[:200]).text = json.dumps(r.error)
            elif r.outcome in ("skip", "xfail"):
                counts["skipped"] += 1
                reason = r.skip_reason if r.outcome == "skip" else f"expected failure: {r.xfail_reason}"
                ET.SubElement(tc, "skipped", message=str(reason))
        for k, v in counts.items():
            suite.set(k, str(v))
            totals[k] += v
    for k, v in totals.items():
        root.set(k, str(v))
    text = ET.tostring(root, encoding="unicode")
    write_atomic(str(path), "<?xml version='1.0' encoding='utf-8'?>\n" + text)


def baseline_changes(run: RunResult, baseline: dict[str, Any],
                     suite_ids: set[str] | None = None) -> list[tuple[str, str, str]]:
    """(id, old outcome, new outcome) for every case whose outcome changed ('-' for absent).

    With `suite_ids` (every case of the suite), a baseline case that is still in
    the suite but was not selected this time is no change: only the cases run
    and the cases gone from the suite are compared.
    """
    new = {r.case.id: r.outcome for r in run.results}
    old = {c["id"]: c["outcome"] for c in baseline.get("cases", [])
           if suite_ids is None or c["id"] in new or c["id"] not in suite_ids}
    out = []
    for cid in sorted(set(old) | set(new)):
        a, b = old.get(cid, "-"), new.get(cid, "-")
        if a != b:
            out.append((cid, a, b))
    return out


def skip_reasons(run: RunResult) -> list[tuple[str, int]]:
    """(reason, number of cases) for every distinct reason a case was skipped, most frequent first."""
    counts: dict[str, int] = defaultdict(int)
    for r in run.results:
        if r.outcome == "skip":
            counts[r.skip_reason or "skipped"] += 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def print_summary(run: RunResult, console: Any, baseline: dict[str, Any] | None = None, verbose: bool = False,
                  suite_ids: set[str] | None = None) -> None:
    """The rich table by variant and topic, then each failure (or only the changes since a baseline)."""
    from rich import box
    from rich.table import Table

    # plain ASCII when piped (a log, a CI page), rich lines on a terminal
    table = Table(title="conformance", show_lines=False, box=box.HEAVY_HEAD if console.is_terminal else box.ASCII)
    table.add_column("variant")
    table.add_column("topic")
    for o in OUTCOMES:
        table.add_column(o, justify="right")
    rows: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: dict.fromkeys(OUTCOMES, 0))
    for r in run.results:
        rows[(r.case.variant, r.case.topic)][r.outcome] += 1
    style = {"fail": "red", "error": "red", "xpass": "red", "skip": "yellow", "xfail": "yellow", "pass": "green"}
    for (variant, topic), counts in sorted(rows.items()):
        table.add_row(variant, topic, *[(f"[{style[o]}]{counts[o]}[/]" if counts[o] else "0") for o in OUTCOMES])
    total = run.counts()
    table.add_row("[b]total[/]", "", *[f"[b]{total[o]}[/]" for o in OUTCOMES])
    console.print(table)
    impl = run.engine.get("implementation") or {}
    console.print(f"engine: {impl.get('name', '?')} {impl.get('version', '')}  restarts: {run.restarts}", highlight=False)
    start_error = run.engine.get("start_error")
    if start_error:
        console.print(f"the engine did not start: {start_error.get('message')}", style="red", highlight=False,
                      markup=False)
    if baseline is not None:
        changes = baseline_changes(run, baseline, suite_ids)
        if not changes:
            console.print("no change since the baseline")
        for cid, a, b in changes:
            console.print(f"  {cid}: {a} -> {b}", highlight=False, markup=False)
            now = next((x for x in run.results if x.case.id == cid), None)
            if now is not None and now.outcome in ("fail", "error"):
                console.print("    " + failure_text(now), highlight=False, markup=False)
    else:
        for r in run.results:
            if r.outcome in ("fail", "error", "xpass") or (verbose and r.outcome in ("skip", "xfail")):
                head = f"{r.outcome.upper()} {r.case.id} ({r.case.variant}/{r.case.topic})"
                console.print(head, style="red" if r.outcome in ("fail", "error", "xpass") else "yellow",
                              highlight=False, markup=False)
                if r.outcome == "xpass":
                    console.print(f"  listed as an expected failure ({r.xfail_reason}) but passed", highlight=False, markup=False)
                elif r.outcome == "skip":
                    console.print(f"  {r.skip_reason}", highlight=False, markup=False)
                else:
                    console.print("  " + failure_text(r), highlight=False, markup=False)
    for problem in run.engine.get("capability_problems", []):
        console.print(f"capabilities ignored: {problem}", style="yellow", highlight=False, markup=False)
    if not verbose:
        for reason, n in skip_reasons(run):
            console.print(f"skipped {n}: {reason}", style="yellow", highlight=False, markup=False)
    for cid in run.stale_expected_failures:
        console.print(f"STALE expected failure {cid}: no such case", style="red", highlight=False, markup=False)
    console.print("[green]OK[/]" if run.ok else "[red]FAILED[/]")
