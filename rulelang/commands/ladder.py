"""`rulelang balance RULESET --ladder`: plan the ladder, play it where asked (resuming `-o/--output`), then report."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import click

from rulelang.commands.progress import chosen_mode, reporter
from rulelang.tools import ladder, study
from rulelang.tools.configs import ToolError

if TYPE_CHECKING:
    from rulelang.base.jsontypes import ConfigJSON
    from rulelang.interpreter import Config
    from rulelang.tools.documents import LadderMatch, Study


@dataclass(frozen=True)
class LadderOptions:
    """What the command line asks of a ladder (beyond the rulesets and player count)."""

    rungs: str | None
    top: str
    link_matches: int
    bar: float | None
    seed: int
    jobs: int
    dask: str | None
    out: str | None
    resume: bool
    as_json: bool
    html: str | None
    alpha: float
    progress: str = "auto"  # --progress: auto, bar, lines or none


def ladder_params(variants: dict[str, ConfigJSON], players: int, cfg: Config, opts: LadderOptions) -> Study:
    """The study (what the results file's header holds), every player name checked first."""
    from rulelang.tools.playernames import make_player

    rungs = ladder.parse_rungs(opts.rungs) if opts.rungs else ladder.default_rungs(opts.top)
    for spec in rungs:
        make_player(spec, cfg, 0)  # refuses a bad name before any work
    bars = [0.6] + ([opts.bar] if opts.bar is not None and opts.bar != 0.6 else [])
    return {"mode": "ladder", "variants": variants, "players": players, "seed": opts.seed,
            "link_matches": opts.link_matches, "rungs": rungs, "bars": bars}


def run(variants: dict[str, ConfigJSON], names: dict[str, str], cfg: Config, players: int, opts: LadderOptions) -> None:
    """Play (or resume) the ladder and print or write its report."""
    from rulelang.tools import ladder_report

    params = ladder_params(variants, players, cfg, opts)
    kept: list[LadderMatch] = []
    if opts.out and opts.resume:
        kept = cast("list[LadderMatch]", study.read_done(opts.out, params))  # a ladder's lines (its header says so)
    elif opts.out and os.path.exists(opts.out) and os.path.getsize(opts.out) > 0:
        raise ToolError(f"-o/--output {opts.out} exists: add --resume to go on with that study, or remove the file")
    sides_of = list(cfg.sides_of(players))
    sink = study.Sink(opts.out, params, kept) if opts.out else None
    try:
        with reporter(chosen_mode(opts.progress), "matches") as prog:
            def got(chunk: list[LadderMatch]) -> None:
                if sink:
                    sink.write(chunk)
                prog.advance(len(chunk))

            rows = ladder.climb(params, max(sides_of) + 1, kept, opts.jobs, opts.dask, got, prog.start)
    finally:
        if sink:
            sink.close()
    rep = ladder_report.report(params, rows, names, sides_of, opts.alpha)
    if opts.out:
        click.echo(f"results: {opts.out} ({len(kept)} matches reused)" if opts.resume else f"results: {opts.out}", err=True)
    if opts.html:
        from rulelang.base.outfiles import write_atomic
        from rulelang.tools.balance_html import ladder_html

        try:
            write_atomic(opts.html, ladder_html(rep), newline=None)
        except OSError as exc:
            raise ToolError(f"cannot write {opts.html}: {exc.strerror or exc}") from exc
        click.echo(f"report: {opts.html}", err=True)
    if opts.as_json:
        click.echo(json.dumps(rep, indent=1, sort_keys=True))
        return
    from rulelang.commands.console import table_console
    from rulelang.tools.ladder_text import show as show_text

    show_text(rep, table_console())  # ends quietly with exit 141 when the reader leaves (`| head`)
