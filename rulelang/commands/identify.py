"""`rulelang identify --engine CMD [--like VARIANT]`: the ruleset an engine plays, field by field."""
from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, NoReturn

import click

from rulelang.commands.complete import bundled_or_file
from rulelang.commands.conform import _check_seconds, _engine, _engine_argv

if TYPE_CHECKING:
    from rulelang.conformance.identify import Claim
    from rulelang.conformance.protocol import InProcessEngine, SubprocessEngine


@click.command("identify")
@click.option("--engine", "engine_cmd", required=True, metavar="CMD",
              help="The engine to ask (the engine protocol, `rulelang help protocol`); example-python and example-js run the example engines.")
@click.option("--like", "like", metavar="VARIANT", shell_complete=bundled_or_file,
              help="The variant the engine claims to play (a bundled name, or a .rules file based on one); default: "
                   "the `implementation.variant` of its start answer.")
@click.option("-o", "--out", "out_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the ruleset the engine plays here (atomically).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (format rulelang-identify/1).")
@click.option("--search", type=click.IntRange(0, 10_000), default=0, show_default=True, metavar="TRIES",
              help="For each value no position told from the claimed one, play up to TRIES shaped matches more "
                   "(the search of the deciding cases) to find one.")
@click.option("--timeout", type=click.FloatRange(min=0, max=86400, min_open=True), default=10.0, show_default=True,
              help="Seconds per case.")
@click.option("--start-timeout", type=click.FloatRange(min=0, max=86400, min_open=True), default=20.0,
              show_default=True, help="Seconds the engine may take to answer `start`.")
@click.option("--deadline", type=click.FloatRange(min=0, max=864000, min_open=True), default=None,
              help="Seconds for the whole identification: cases not run by then are errors (default: no limit).")
def identify_cmd(engine_cmd: str, like: str | None, out_path: str | None, as_json: bool, search: int,
                 timeout: float, start_timeout: float, deadline: float | None) -> None:
    """Identify the variant an engine plays: each rule's value, from its answers to positions where it decides.

    Every request carries the claimed variant; for each configuration field,
    the values whose expected transcripts agree with every answer of the
    engine are kept: one value is identified, none is reported with the case
    that shows it. The report ends with the differences in words from the
    claimed variant (as `rulelang diff` says them).

    Exit status: 0 when the engine plays the claimed variant, 1 when it plays
    another (a rule changed, or agreeing with none of the language's values),
    or when it did not start, hung or answered garbage, or FILE cannot be
    written; 2 on wrong usage (an unknown variant, no variant claimed).
    """
    from rulelang.base.outfiles import output_problem

    started = time.monotonic()
    _check_seconds(timeout, start_timeout, deadline)
    argv = _engine_argv(engine_cmd)
    if out_path is not None and (problem := output_problem(out_path)):
        raise click.BadParameter(f"cannot write {out_path}: {problem}", param_hint="-o/--out")
    from rulelang.conformance import identified, identify
    from rulelang.conformance.cases import lint

    engine = _engine(argv, start_timeout)
    claim = _claim(engine, like)
    suite = lint().cases
    ends_at = None if deadline is None else started + deadline
    try:
        found = identify.identify(engine, claim, suite, timeout=timeout, search=search,
                                  deadline=None if ends_at is None else (lambda: ends_at - time.monotonic()))
    except identify.IdentifyError as exc:
        _fail(str(exc))
    text = identified.ruleset_text(found) if found.complete else None
    if as_json:
        from rulelang.commands.jsonout import emit

        emit(identified.to_dict(found, text))
    else:
        for line in identified.report_lines(found):
            click.echo(line)
    if not found.complete:
        _fail("the engine did not answer every case (see above): no ruleset is written")
    if out_path is not None and text is not None:
        from rulelang.base.outfiles import write_atomic

        try:
            write_atomic(out_path, text)
        except OSError as exc:
            _fail(f"cannot write {out_path}: {exc}")
    sys.exit(0 if not identified.differences(found) and not found.none else 1)


def _claim(engine: SubprocessEngine | InProcessEngine, like: str | None) -> Claim:
    """The claimed variant: --like, else what the engine's start answer names (the engine is started once to
    see that it starts, and stopped again)."""
    from rulelang.conformance.identify import IdentifyError, claim_of
    from rulelang.conformance.protocol import EngineFailure

    if like is not None:  # said before the engine starts
        try:
            claim_of(like)
        except IdentifyError as exc:
            raise click.BadParameter(str(exc), param_hint="--like") from None
    try:  # an engine that cannot start is said at once, not after the positions are searched
        engine.start()
    except EngineFailure as exc:
        _fail(f"the engine did not start: {exc}")
    finally:
        engine.stop()
    if like is None:
        like = (engine.implementation or {}).get("variant")
        if not isinstance(like, str):
            raise click.UsageError("the engine's start answer names no variant (implementation.variant): "
                                   "say which it claims to play with --like VARIANT")
        import rulelang

        if like not in rulelang.bundled_names():  # an engine names a bundled variant, never a file to open
            raise click.UsageError(f"the engine claims to play {like[:80]!r}, which is no bundled variant: "
                                   "say which it plays with --like VARIANT (a name or a .rules file)")
    try:
        return claim_of(like)
    except IdentifyError as exc:
        raise click.BadParameter(str(exc), param_hint="--like") from None


def _fail(message: str) -> NoReturn:
    click.echo(f"identify: {message}", err=True)
    sys.exit(1)
