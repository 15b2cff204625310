"""`rulelang cases generate`: a conformance suite for any ruleset, cross-checked by an independent engine."""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from rulelang.commands.complete import bundled_or_file


@click.group("cases")
def cases_cmd() -> None:
    """Conformance cases for your own rulesets."""


@cases_cmd.command("generate")
@click.argument("ruleset", shell_complete=bundled_or_file)
@click.option("-o", "--out", "out_dir", required=True, type=click.Path(file_okay=False),
              help="Folder to write DIR/<name>/generated.json into (run it with `rulelang conform --cases DIR`).")
@click.option("--check-engine", "check_cmd", metavar="CMD",
              help="The independent engine every case is checked against (default: example-python, the toy engine "
                   "shipped with rulelang; example-js is its JavaScript port).")
@click.option("--no-check", is_flag=True, help="Write the drafts without a cross-check (not recommended).")
@click.option("--seeds", type=click.IntRange(1, 1000), default=40, show_default=True,
              help="Seeds tried per player count to find a domino, a block and a scoring event (and, up to 12 of them, "
                   "the deciding positions).")
def generate_cmd(ruleset: str, out_dir: str, check_cmd: str | None, no_check: bool, seeds: int) -> None:
    """Draft cases for RULESET (a bundled name or a .rules file) and keep those an independent engine agrees with.

    Complete rounds (one ending in a domino, one in a block) and a target case
    at each player count, and for each statement RULESET states a targeted
    position where it decides: a step that would be observed otherwise if the
    statement were written another way (its other spellings).

    Exit status: 0 when cases were written, 1 for a ruleset that cannot be
    read or is invalid, when the check engine could not start or disagreed
    with every case (nothing written), 2 for a bad option.
    """
    from rulelang.conformance import generate
    from rulelang.conformance.example_engines import ExampleError, resolve
    from rulelang.conformance.protocol import SubprocessEngine

    argv: list[str] = []
    if not no_check:  # the check engine is settled before any drafting
        try:
            argv = shlex.split(check_cmd or "example-python")
        except ValueError as exc:
            raise click.BadParameter(f"cannot split {check_cmd!r}: {exc}", param_hint="--check-engine") from None
        if not argv:
            raise click.BadParameter("an empty command", param_hint="--check-engine")
        try:
            argv = resolve(argv)
        except ExampleError as exc:
            raise click.BadParameter(str(exc), param_hint="--check-engine") from None
    try:
        suite = generate.draft(ruleset, seeds=seeds)
    except generate.GenerateError as exc:  # an invalid ruleset is a finding (exit 1), as for every command
        click.echo(str(exc), err=True)
        sys.exit(1)
    if not suite.cases:
        click.echo(f"no case could be drafted for {suite.name} within {seeds} seeds", err=True)
        sys.exit(1)
    for note in suite.undecided:  # an alternative that plays the same here, or a position the seeds did not give
        click.echo(f"note: {note}", err=True)
    if not no_check:
        drafted = len(suite.cases)
        try:
            suite = generate.cross_check(suite, SubprocessEngine(argv))
        except generate.CheckEngineError as exc:  # said once, not as a disagreement per case
            click.echo(f"the check engine could not start: {exc}; no case was checked, nothing written", err=True)
            sys.exit(1)
        for cid, why in suite.dropped:
            click.echo(f"dropped {cid}: the check engine disagrees: {why}", err=True)
        click.echo(f"{len(suite.cases)} of {drafted} drafted cases agreed on by the check engine")
        if not suite.cases:
            sys.exit(1)
    path = generate.write(suite, Path(out_dir))
    click.echo(f"wrote {len(suite.cases)} cases to {path}")


@cases_cmd.command("coverage")
@click.option("--json", "as_json", is_flag=True, help="Print rulelang-deciding-coverage/1 JSON instead of a table.")
@click.option("--field", "fields", multiple=True, metavar="FIELD", help="Only these fields (repeatable).")
def coverage_cmd(as_json: bool, fields: tuple[str, ...]) -> None:
    """Every pair of values of every rule, with the suite's cases that tell the two apart.

    The pairs are derived from the configuration's field declarations (each
    pair of a closed set, each number's boundary and neighbour, each count of a
    per-count table, each key of a settlement term); a deciding case carries
    `decides` (conformance/README.md). A pair no case decides is uncovered
    unless conformance/deciding-excused.json says why no position can.

    Exit status: 0 when every pair is decided or excused, 1 when one is
    uncovered, 2 when the suite does not lint or a --field is unknown.
    """
    import json

    from rulelang.conformance import deciding
    from rulelang.conformance.cases import lint

    known = {p.field for p in deciding.pairs()}
    for f in fields:
        if f not in known:
            raise click.BadParameter(f"no field {f!r} has deciding pairs (e.g. {', '.join(sorted(known)[:3])})",
                                     param_hint="--field")
    report = lint()
    if not report.ok:
        for err in report.errors:
            click.echo(err, err=True)
        sys.exit(2)
    cov = deciding.coverage(report.cases)
    if fields:
        cov.rows = [r for r in cov.rows if r[0].field in fields]
    doc = cov.to_dict()
    if as_json:
        click.echo(json.dumps(doc, indent=1))
    else:
        for p, ids, why in cov.rows:
            said = ", ".join(ids) if ids else (f"excused: {why}" if why else "UNCOVERED")
            click.echo(f"{p.key}  {said}")
        s = doc["summary"]
        click.echo(f"{s['pairs']} pairs: {s['decided']} decided, {s['excused']} excused, {s['uncovered']} uncovered")
    sys.exit(1 if cov.uncovered else 0)
