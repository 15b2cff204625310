"""`rulelang conform` (run the conformance suite) and `rulelang engine-adapter` (the built-in engine over the protocol)."""
from __future__ import annotations

import json
import sys

import click


@click.command("conform")
@click.option("--variant", "variants", multiple=True, metavar="V", help="Only cases of this variant (repeatable).")
@click.option("--tag", "tags", multiple=True, metavar="T", help="Only cases having this feature tag (repeatable: all of them).")
@click.option("--id", "ids", multiple=True, metavar="ID", help="Only this case (repeatable).")
@click.option("--engine", "engine_cmd", metavar="CMD",
              help="Run an external engine speaking conformance/PROTOCOL.md (default: the built-in engine, in-process).")
@click.option("--report", "report_path", type=click.Path(dir_okay=False), help="Write the JSON report here.")
@click.option("--junit", "junit_path", type=click.Path(dir_okay=False), help="Write JUnit XML here.")
@click.option("--baseline", "baseline_path", type=click.Path(exists=True, dir_okay=False),
              help="A previous JSON report: print only the cases whose outcome changed.")
@click.option("--timeout", type=float, default=10.0, show_default=True, help="Seconds per case (external engines).")
@click.option("--expected-failures", "xfail_path", type=click.Path(exists=True, dir_okay=False),
              help="Expected failures file (default: conformance/expected-failures/<engine name>.json).")
@click.option("--list", "list_only", is_flag=True, help="List the selected cases and stop.")
@click.option("-v", "--verbose", is_flag=True, help="Also show skipped cases and expected failures.")
def conform_cmd(variants, tags, ids, engine_cmd, report_path, junit_path, baseline_path, timeout, xfail_path,
                list_only, verbose):
    """Run the conformance suite against the built-in engine or an external one.

    Exit status: 0 when every selected case passes (expected failures honoured),
    1 when a case fails, errors or passes unexpectedly, 2 when the suite itself
    does not lint or nothing is selected.
    """
    from rich.console import Console

    from conformance import cases as suite
    from conformance import report, runner
    from conformance.protocol import InProcessEngine, SubprocessEngine

    console = Console(highlight=False)
    err = Console(stderr=True, highlight=False)
    # 1. the suite lints itself: schema, unique ids, known tags
    lint = suite.lint()
    if not lint.ok:
        for e in lint.errors:
            err.print(f"lint: {e}", markup=False)
        err.print(f"[red]the conformance suite does not lint ({len(lint.errors)} problems)[/]")
        sys.exit(2)
    unknown_tags = [t for t in tags if t not in suite.known_tags()]
    if unknown_tags:
        err.print(f"unknown tag(s): {', '.join(unknown_tags)} (see conformance/features.json)", markup=False)
        sys.exit(2)
    selected = suite.select(lint.cases, variants, tags, ids)
    if not selected:
        err.print("no case selected")
        sys.exit(2)
    if list_only:
        for c in selected:
            click.echo(f"{c.id}\t{c.variant}/{c.topic}\t{c.description}")
        return
    xfails = None
    if xfail_path:
        doc = json.loads(open(xfail_path, encoding="utf-8").read())
        xfails = {e["id"]: e["reason"] for e in doc.get("expected_failures", [])}
    # 2. the engine
    engine: SubprocessEngine | InProcessEngine
    if engine_cmd:
        engine = SubprocessEngine(engine_cmd)
    else:
        from conformance import builtin

        engine = InProcessEngine(builtin.run_case, builtin.implementation(), builtin.capabilities())
    # 3. run, compare, report
    result = runner.run(engine, selected, timeout=timeout, expected_failures=xfails,
                        all_ids=[c.id for c in lint.cases])
    baseline = None
    if baseline_path:
        baseline = json.loads(open(baseline_path, encoding="utf-8").read())
    report.print_summary(result, console, baseline=baseline, verbose=verbose)
    if report_path:
        report.write_json(result, report_path)
    if junit_path:
        report.write_junit(result, junit_path)
    sys.exit(0 if result.ok else 1)


@click.command("engine-adapter")
def engine_adapter_cmd():
    """Serve the built-in engine over the conformance protocol (JSON lines on stdin/stdout)."""
    from conformance import builtin
    from conformance.protocol import serve

    sys.exit(serve(builtin.run_case, builtin.implementation(), builtin.capabilities()))
