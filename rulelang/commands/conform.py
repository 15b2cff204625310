"""`rulelang conform` (run the conformance suite) and `rulelang engine-adapter` (the built-in engine over the protocol)."""
from __future__ import annotations

import contextlib
import math
import shlex
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from rulelang.commands.progress import chosen_mode, reporter

if TYPE_CHECKING:
    from rich.console import Console

    from rulelang.conformance.cases import Case, LintReport
    from rulelang.conformance.protocol import InProcessEngine, SubprocessEngine
    from rulelang.conformance.runner import CaseResult, RunResult


def _read_json(path: str, what: str) -> object:
    """A JSON document given by an option, or a one-line error and exit 2."""
    from rulelang.base.readinput import read_json

    try:
        return read_json(path)  # a regular file, bounded in size and nesting
    except (OSError, ValueError) as exc:
        raise click.BadParameter(f"cannot read {path}: {exc}", param_hint=what) from None


def _expected_failures(path: str) -> dict[str, str]:
    doc = _read_json(path, "--expected-failures")
    entries = doc.get("expected_failures") if isinstance(doc, dict) else None
    if not isinstance(entries, list) or not all(
            isinstance(e, dict) and isinstance(e.get("id"), str) and isinstance(e.get("reason"), str) for e in entries):
        raise click.BadParameter(
            f"{path} is not an expected-failures file: write "
            '{"expected_failures": [{"id": "CASE_ID", "reason": "why"}, ...]}', param_hint="--expected-failures")
    return {e["id"]: e["reason"] for e in entries}


def _baseline(path: str) -> dict[str, object]:
    doc = _read_json(path, "--baseline")
    cases = doc.get("cases") if isinstance(doc, dict) else None
    if not isinstance(doc, dict) or not isinstance(cases, list) or not all(
            isinstance(c, dict) and isinstance(c.get("id"), str) and isinstance(c.get("outcome"), str) for c in cases):
        raise click.BadParameter(f"{path} is not a conformance report (written by --report)", param_hint="--baseline")
    return doc


@click.command("conform")
@click.option("--cases", "case_dirs", multiple=True, metavar="DIR",
              type=click.Path(exists=True, file_okay=False),
              help="Run the cases of this folder instead of the shipped suite (repeatable): DIR/VARIANT/TOPIC.json or "
                   "DIR/TOPIC.json; expected failures are also looked up in DIR/expected-failures/.")
@click.option("--variant", "variants", multiple=True, metavar="V", help="Only cases of this variant (repeatable).")
@click.option("--tag", "tags", multiple=True, metavar="T", help="Only cases having this feature tag (repeatable: all of them).")
@click.option("--id", "ids", multiple=True, metavar="ID", help="Only this case (repeatable).")
@click.option("--engine", "engine_cmd", metavar="CMD",
              help="Run an external engine speaking the engine protocol (`rulelang help protocol`; default: the built-in engine, in-process); "
                   "example-python and example-js run the example engines shipped with rulelang.")
@click.option("--example-engines", is_flag=True,
              help="List the example engines shipped with rulelang (names for --engine, files to read or copy) and stop.")
@click.option("--report", "report_path", type=click.Path(dir_okay=False), help="Write the JSON report here.")
@click.option("--junit", "junit_path", type=click.Path(dir_okay=False), help="Write JUnit XML here.")
@click.option("--baseline", "baseline_path", type=click.Path(exists=True, dir_okay=False),
              help="A previous JSON report: print only the cases whose outcome changed.")
@click.option("--timeout", type=click.FloatRange(min=0, max=86400, min_open=True), default=10.0, show_default=True,
              help="Seconds per case (an in-process engine is interrupted by a timer on the main thread).")
@click.option("--start-timeout", type=click.FloatRange(min=0, max=86400, min_open=True), default=20.0, show_default=True,
              help="Seconds an external engine may take to answer `start`.")
@click.option("--deadline", type=click.FloatRange(min=0, max=864000, min_open=True), default=None,
              help="Seconds for the whole run, linting the case files included: cases not run by then are errors "
                   "(default: no limit).")
@click.option("--expected-failures", "xfail_path", type=click.Path(exists=True, dir_okay=False),
              help="Expected failures file (default: <engine name>.json looked up in expected-failures/ next to each "
                   "--cases folder and in the working directory, else the suite's own).")
@click.option("--list", "list_only", is_flag=True, help="List the selected cases and stop.")
@click.option("--strict", is_flag=True,
              help="Count a skipped case (a feature the engine does not claim) as a failure.")
@click.option("--allow-empty", is_flag=True,
              help="Do not fail a run in which no case passed (e.g. an engine that skips everything).")
@click.option("-v", "--verbose", is_flag=True, help="Also show skipped cases and expected failures.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write a self-contained HTML report here: pass rates by variant and feature, every failure with "
                   "its case id, clauses and first difference.")
@click.option("--badge", "badge_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write an SVG badge here (conformance | PASSED/JUDGED: green, amber from 90%, red below).")
@click.option("--trace", is_flag=True,
              help="List every clause of the three source texts and family.md with the cases that test it, and the "
                   "clauses no case tests, then stop (exit 1 when a clause of a bundled variant is untested).")
@click.option("--json", "trace_json", is_flag=True,
              help="With --trace: print the trace as JSON (format rulelang-conformance-trace/1).")
@click.option("--shrink", "shrink_dir", metavar="DIR", type=click.Path(file_okay=False),
              help="For each failing case, write the smallest case found (fewest moves, fewest tiles) that the engine "
                   "still fails and the built-in engine passes, as DIR/VARIANT/ID-shrunk.json.")
def conform_cmd(case_dirs: tuple[str, ...], variants: tuple[str, ...], tags: tuple[str, ...], ids: tuple[str, ...],
                engine_cmd: str | None, example_engines: bool, report_path: str | None, junit_path: str | None,
                baseline_path: str | None, timeout: float, start_timeout: float, deadline: float | None,
                xfail_path: str | None, list_only: bool, strict: bool, allow_empty: bool, verbose: bool,
                html_path: str | None, badge_path: str | None, trace: bool, trace_json: bool,
                shrink_dir: str | None) -> None:
    """Run the conformance suite against the built-in engine or an external one.

    Exit status: 0 when every selected case passes (expected failures honoured;
    cases the engine skips do not count, unless --strict), 1 when a case fails,
    errors or passes unexpectedly, or (with --strict) is skipped, or when no
    case passed at all (unless --allow-empty), 2 when the suite itself does not
    lint or nothing is selected.
    """
    from rich.console import Console

    from rulelang.commands.console import table_console
    from rulelang.conformance import report, runner
    from rulelang.conformance.folders import expected_failure_dirs

    started = time.monotonic()
    if example_engines:
        from rulelang.conformance.example_engines import listing

        click.echo(listing())
        return
    # everything that can be wrong is said before the run, not after it
    _check_seconds(timeout, start_timeout, deadline)
    argv = _engine_argv(engine_cmd)
    _check_outputs(report_path, junit_path)
    _check_published(html_path, badge_path, report_path, junit_path)
    xfails = _expected_failures(xfail_path) if xfail_path else None
    baseline = _baseline(baseline_path) if baseline_path else None
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    folders = [Path(d) for d in case_dirs]
    ends_at = None if deadline is None else started + deadline  # the deadline covers linting too
    lint = _linted(folders, err, ends_at, deadline)
    selected = _selected(lint, variants, tags, ids, err)
    _check_trace_options(err, trace, trace_json)
    if trace:
        sys.exit(_print_trace(selected, variants, trace_json))
    if list_only:
        _list_cases(selected)
        return
    engine = _engine(argv, start_timeout)
    with _progress(len(selected)) as advance:
        result = runner.run(engine, selected, timeout=timeout, expected_failures=xfails,
                            all_ids=[c.id for c in lint.cases],
                            deadline=None if ends_at is None else max(ends_at - time.monotonic(), 0.001),
                            xfail_dirs=expected_failure_dirs(folders), progress=advance)
    if result.engine.get("start_error"):  # every case errs with the same message: say it once
        _write_all(result, (report_path, junit_path, html_path, badge_path), err)
        err.print(f"the engine did not start: {result.engine['start_error']['message']}", markup=False)
        sys.exit(1)
    console = table_console(soft_wrap=True)
    report.print_summary(result, console, baseline=baseline, verbose=verbose, suite_ids={c.id for c in lint.cases})
    _write_all(result, (report_path, junit_path, html_path, badge_path), err)
    if shrink_dir is not None:
        _shrink_failures(result, engine, Path(shrink_dir), timeout, err, ends_at, deadline)
    sys.exit(_exit_status(result, strict, allow_empty, err))


def _list_cases(selected: list[Case]) -> None:
    """--list: a line per selected case (id, variant/topic, description)."""
    for c in selected:
        click.echo(f"{c.id}\t{c.variant}/{c.topic}\t{c.description}")


def _write_all(result: RunResult, paths: tuple[str | None, str | None, str | None, str | None], err: Console) -> None:
    """The run's files: --report, --junit, --html, --badge (each only when asked for)."""
    report_path, junit_path, html_path, badge_path = paths
    _write_reports(result, report_path, junit_path, err)
    _write_published(result, html_path, badge_path, err)


def _write_each(result: RunResult, writers: tuple[tuple[str | None, Callable[[RunResult, str], None]], ...],
                err: Console) -> None:
    """Each file asked for (its path set), by its writer; exit 1 when one cannot be written."""
    for path, write in writers:
        if path:
            try:
                write(result, path)
            except OSError as exc:
                err.print(f"cannot write {path}: {exc.strerror or exc}", markup=False)
                sys.exit(1)


@contextlib.contextmanager
def _progress(total: int) -> Iterator[Callable[[CaseResult], None] | None]:
    """The runner's progress hook: a bar of cases on standard error at a terminal (gone when the run ends, before
    the table), else a line every 10 s (rulelang/commands/progress.py), none in a quick run, so that piped
    output is what it was without them."""
    how = chosen_mode()
    if how == "none":
        yield None
        return
    with reporter(how, "cases", label="conformance", force_terminal=True) as rep:
        rep.start("conformance", total)
        failed = 0

        def advance(res: CaseResult) -> None:
            nonlocal failed
            failed += res.outcome in ("fail", "error", "xpass")
            rep.advance(1, f"{failed} failed" if failed else "")

        yield advance


def _check_trace_options(err: Console, trace: bool, as_json: bool) -> None:
    """Exit 2 when --json is given without --trace."""
    if as_json and not trace:
        _usage_error(err, "--json goes with --trace (the run's JSON report is --report FILE)")


def _print_trace(selected: list[Case], variants: tuple[str, ...], as_json: bool) -> int:
    """Print the clause trace of the selected cases; 1 when a clause of a bundled variant is untested, else 0.

    The variants whose clauses must be tested are those of --variant, else those of the selected cases (a case
    folder of a club's own variant requires none)."""
    import json

    from rulelang.conformance import clauses

    tr = clauses.trace(selected, variants or sorted({c.variant for c in selected}))
    if as_json:
        click.echo(json.dumps(tr.to_dict(), indent=2, ensure_ascii=False))
    else:
        for line in clauses.text_lines(tr):
            click.echo(line)
    return 1 if tr.untested(required_only=True) else 0


def _shrink_failures(result: RunResult, engine: SubprocessEngine | InProcessEngine, folder: Path, timeout: float,
                     err: Console, ends_at: float | None, deadline: float | None) -> None:
    """--shrink DIR: each failing case shrunk and written to DIR (PROTOCOL.md, "Shrinking a failure"), within the
    run's deadline and a bound on the candidates tried across the run."""
    from rulelang.conformance.shrink import Budget, NoAnswer, Stopped, shrink, write

    failing = [r.case for r in result.results if r.outcome == "fail"]
    budget = Budget(ends_at=ends_at)
    why_over = {"deadline": f"the run's deadline of {deadline or 0:g} s passed",
                "candidates": f"the run's bound of {budget.candidates} shrink candidates was reached",
                "timeouts": "the engine gave no answer to 3 candidates in a row"}
    try:
        for n, case in enumerate(failing):
            spent = budget.spent()
            if spent is not None:
                err.print(f"shrink: {why_over[spent]}; {len(failing) - n} failing cases not shrunk", markup=False)
                return
            try:
                shrunk = shrink(case, engine, timeout, budget=budget)
            except NoAnswer as exc:
                err.print(f"shrink {case.id}: the engine gave no result for it ({exc}); not shrunk", markup=False)
                continue
            except Stopped as exc:
                err.print(f"shrink {case.id}: {why_over[exc.reason]}; not shrunk", markup=False)
                continue
            if shrunk is None:
                err.print(f"shrink {case.id}: the engine no longer fails it; nothing written", markup=False)
                continue
            (steps, was_steps), (tiles, was_tiles) = shrunk.steps, shrunk.tiles
            early = f"stopped early: {why_over[shrunk.stopped]}" if shrunk.stopped else None
            if early and (steps, tiles) == (was_steps, was_tiles) and shrunk.data["steps"] == case.data["steps"]:
                err.print(f"shrink {case.id}: {early} before a smaller case was found; nothing written", markup=False)
                continue
            try:
                path = write(shrunk, folder)
            except (OSError, ValueError) as exc:
                err.print(f"shrink {case.id}: cannot write the shrunk case: {exc}", markup=False)
                sys.exit(1)
            so_far = f" ({early}; the smallest case found by then)" if early else ""
            err.print(f"shrunk {case.id}{so_far}: {steps} of {was_steps} steps, {tiles} of {was_tiles} tiles -> {path}",
                      markup=False)
    finally:
        engine.stop()


def _check_seconds(timeout: float, start_timeout: float, deadline: float | None) -> None:
    for opt, seconds in (("--timeout", timeout), ("--start-timeout", start_timeout), ("--deadline", deadline or 1)):
        if not math.isfinite(seconds):
            raise click.BadParameter(f"{seconds} is not a number of seconds", param_hint=opt)


def _engine_argv(engine_cmd: str | None) -> list[str] | None:
    """The external engine's command line (an example engine's name resolved), or None: the built-in engine."""
    if engine_cmd is None:
        return None
    try:
        argv = shlex.split(engine_cmd)
    except ValueError as exc:
        raise click.BadParameter(f"cannot split {engine_cmd!r} into words: {exc}", param_hint="--engine") from None
    if not argv:
        raise click.BadParameter("an empty command (leave --engine out to run the built-in engine)",
                                 param_hint="--engine")
    from rulelang.conformance.example_engines import ExampleError, resolve

    try:
        resolved: list[str] = resolve(argv)
    except ExampleError as exc:
        raise click.BadParameter(str(exc), param_hint="--engine") from None
    return resolved


def _check_outputs(report_path: str | None, junit_path: str | None) -> None:
    """Both report files can be written, and are not the same file."""
    from rulelang.base.outfiles import output_problem, same_file

    for opt, path in (("--report", report_path), ("--junit", junit_path)):
        if path is not None and (problem := output_problem(path)):
            raise click.BadParameter(f"cannot write {path}: {problem}", param_hint=opt)
    if report_path and junit_path and same_file(report_path, junit_path):
        raise click.BadParameter(f"{junit_path} is also the --report file", param_hint="--junit")


def _check_published(html_path: str | None, badge_path: str | None, *others: str | None) -> None:
    """The HTML report and the badge can be written, and neither is another output file of the run."""
    from rulelang.base.outfiles import output_problem, same_file

    for opt, path in (("--html", html_path), ("--badge", badge_path)):
        if path is None:
            continue
        if problem := output_problem(path):
            raise click.BadParameter(f"cannot write {path}: {problem}", param_hint=opt)
        if any(other and same_file(path, other) for other in others):
            raise click.BadParameter(f"{path} is also another output file of the run", param_hint=opt)
    if html_path and badge_path and same_file(html_path, badge_path):
        raise click.BadParameter(f"{badge_path} is also the --html file", param_hint="--badge")


def _write_published(result: RunResult, html_path: str | None, badge_path: str | None, err: Console) -> None:
    """The HTML report and the badge asked for; exit 1 when one cannot be written."""
    from rulelang.conformance.badge import write_badge
    from rulelang.conformance.html_report import write_html

    _write_each(result, ((html_path, write_html), (badge_path, write_badge)), err)


def _linted(folders: list[Path], err: Console, ends_at: float | None = None,
            deadline: float | None = None) -> LintReport:
    """The cases of the folders (or of the shipped suite), which lint themselves: schema, unique ids, known tags.
    Exit 2 when they do not lint; exit 1 when the run's deadline (`ends_at`) passes while they are linted."""
    from rulelang.conformance import cases as suite
    from rulelang.conformance.folders import lint_folders

    lint = lint_folders(folders, ends_at) if folders else suite.lint(ends_at=ends_at)
    if lint.unfinished:  # no case was run: the run failed, as when its cases are errors by the deadline
        err.print(f"the run's deadline of {deadline:g} s passed while linting the case files; no case was run",
                  markup=False)
        sys.exit(1)
    if not lint.ok:
        for e in lint.errors:
            err.print(f"lint: {e}", markup=False)
        what = "the case folders do" if folders else "the conformance suite does"
        err.print(f"[red]{what} not lint ({len(lint.errors)} problems)[/]")
        sys.exit(2)
    return lint


def _selected(lint: LintReport, variants: tuple[str, ...], tags: tuple[str, ...], ids: tuple[str, ...],
              err: Console) -> list[Case]:
    """The cases the options select; exit 2 on an unknown tag, variant or id, or when none is selected."""
    from rulelang.conformance import cases as suite

    unknown_tags = [t for t in tags if t not in suite.known_tags()]
    if unknown_tags:
        _usage_error(err, f"unknown tag(s): {', '.join(unknown_tags)} (see conformance/features.json)")
    known_variants = sorted({c.variant for c in lint.cases})
    unknown_variants = [v for v in variants if v not in known_variants]
    if unknown_variants:
        _usage_error(err, f"unknown variant(s): {', '.join(unknown_variants)} (the suite has: {', '.join(known_variants)})")
    known_ids = {c.id for c in lint.cases}
    unknown_ids = [i for i in ids if i not in known_ids]
    if unknown_ids:
        replaced = suite.replacements(lint.cases)
        for i in unknown_ids:
            hint = f" (replaced by {replaced[i]})" if i in replaced else ""
            err.print(f"no case with id {i}{hint}", markup=False)
        _usage_error(err, "see `rulelang conform --list` for the case ids")
    selected = suite.select(lint.cases, variants, tags, ids)
    if not selected:
        _usage_error(err, "no case selected: no case has all of the given variant(s), tag(s) and id(s)")
    return selected


def _usage_error(err: Console, message: str) -> NoReturn:
    err.print(message, markup=False)
    sys.exit(2)


def _engine(argv: list[str] | None, start_timeout: float) -> SubprocessEngine | InProcessEngine:
    """The external engine of ARGV, or the built-in engine in this process."""
    from rulelang.conformance.protocol import InProcessEngine, SubprocessEngine

    if argv is not None:
        return SubprocessEngine(argv, start_timeout=start_timeout)
    from rulelang.conformance import builtin

    return InProcessEngine(builtin.run_case, builtin.implementation(), builtin.capabilities())


def _write_reports(result: RunResult, report_path: str | None, junit_path: str | None, err: Console) -> None:
    """The JSON and JUnit reports asked for; exit 1 when one cannot be written."""
    from rulelang.conformance import report

    _write_each(result, ((report_path, report.write_json), (junit_path, report.write_junit)), err)


def _exit_status(result: RunResult, strict: bool, allow_empty: bool, err: Console) -> int:
    """0 when the run passed; 1 (saying why) when a case failed, or was skipped under --strict, or none passed."""
    skipped = result.counts().get("skip", 0)
    if strict and skipped:
        err.print(f"--strict: {skipped} case(s) skipped by the engine count as failures", markup=False)
        return 1
    if not allow_empty and not result.counts().get("pass", 0):
        err.print("no case passed (every selected case was skipped, failed or errored); "
                  "--allow-empty accepts such a run", markup=False)
        return 1
    return 0 if result.ok else 1


@click.command("engine-adapter")
def engine_adapter_cmd() -> None:
    """Serve the built-in engine over the conformance protocol (JSON lines on stdin/stdout)."""
    from rulelang.conformance import builtin
    from rulelang.conformance.protocol import serve

    sys.exit(serve(builtin.run_case, builtin.implementation(), builtin.capabilities()))
