"""`rulelang simulate`: many bot matches, a statistics table, raw results and SVG plots."""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import click

from rulelang.commands.complete import bundled_or_file
from rulelang.commands.progress import chosen_mode, progress_option
from rulelang.tools.configs import ToolError, ToolUsageError, load_engine_config, player_count

if TYPE_CHECKING:
    from rulelang.base.jsontypes import ConfigJSON
    from rulelang.interpreter import Config
    from rulelang.tools.documents import SimMatch
    from rulelang.tools.simulation import Journal, StreamJournal, Summary


def _run(spec_label: str, data: ConfigJSON, players: int, bots: list[str], seed: int, matches: int, jobs: int,
         progress: str, miss_rate: float = 0.0,
         journal: Journal | StreamJournal | None = None) -> list[SimMatch]:
    """The results of the matches, with progress on standard error as PROGRESS (`bar`, `lines`, `none`) says."""
    from rulelang.commands.progress import reporter
    from rulelang.tools.simulation import run_matches

    with reporter(progress, "matches") as rep:
        rep.start(spec_label, matches)
        results: list[SimMatch] = run_matches(data, players, bots, seed, matches, jobs, progress=rep.advance,
                                                    miss_rate=miss_rate, journal=journal)
        return results


@click.command("simulate")
@click.argument("variant", metavar="VARIANT|FILE", shell_complete=bundled_or_file)
@click.option("--matches", "-n", type=click.IntRange(min=1), required=True, help="Number of matches to play.")
@click.option("--players", "-p", type=int, default=None, help="Players per match (default 2).")
@click.option("--bots", default="greedy", show_default=True,
              help="Bot per seat, comma-separated (random, greedy); one name for every seat.")
@click.option("--seed", type=int, default=0, show_default=True, help="Base seed; match i uses a seed derived from it and i.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes (results do not depend on it).")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, allow_dash=True), default=None, metavar="FILE",
              help="Write raw per-match results: JSON lines, or CSV if FILE ends in .csv (- for standard output).")
@click.option("--out", "out_alias", type=click.Path(dir_okay=False, allow_dash=True), default=None, hidden=True)
@click.option("--resume", is_flag=True,
              help="Go on with the interrupted run in -o FILE (JSON lines): matches already there are not played again.")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON instead of a table.")
@click.option("--vs", "other", default=None, metavar="OTHER", shell_complete=bundled_or_file,
              help="Compare with a second variant (same seeds, bots and players).")
@click.option("--plots", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Write SVG plots (score race of match 0, distributions) into DIR.")
@click.option("--miss-rate", type=click.FloatRange(min=0, max=1), default=0.0, show_default=True,
              help="Under the muggins rule: how often each bot misses a scoring placement's points (claims 0); "
                   "the next opponent's bot calls.")
@click.option("--alpha", type=click.FloatRange(min=0, max=1, min_open=True, max_open=True), default=0.05,
              show_default=True, help="Significance level for --vs.")
@progress_option
def simulate_cmd(variant: str, matches: int, players: int | None, bots: str, seed: int, jobs: int, out: str | None,
                 out_alias: str | None, as_json: bool, other: str | None, plots: str | None, alpha: float,
                 miss_rate: float, resume: bool, progress_mode: str) -> None:
    """Play MATCHES bot matches of VARIANT and report statistics.

    Win rates per seat (or team) with 95% Wilson intervals, rounds per match,
    turns per round, blocked rounds, discarded events and points per round by
    kind. With --vs OTHER, both variants side by side on the same seeds;
    differences are tested match by match, with McNemar's exact test (rates)
    or a paired t-test (means), and '*' marks a difference significant at
    alpha after Holm's correction.
    """
    from rulelang.tools import simulation as sim

    out = _check_outputs(alpha, out, out_alias, as_json, plots)
    data, cfg = load_engine_config(variant)
    count = player_count(cfg, players)
    try:
        bot_names = sim.parse_bots(bots, count)
    except ToolError as exc:  # a wrong --bots is wrong usage
        raise ToolUsageError(exc.message) from None
    if miss_rate and cfg.claims == "none":
        raise ToolUsageError(f"--miss-rate: in {cfg.name} points are not claimed (the muggins rule is off), "
                             "so nothing can be missed")
    other_data, other_cfg = load_engine_config(other) if other else (None, None)
    if other_cfg is not None and count not in other_cfg.counts:
        raise ToolError(f"{other_cfg.name} is not played by {count} players")
    show = chosen_mode(progress_mode)
    other_miss_rate = miss_rate if other_cfg is not None and other_cfg.claims != "none" else 0.0
    miss_rates = {cfg.name: miss_rate, **({other_cfg.name: other_miss_rate} if other_cfg is not None else {})}
    # each match written to -o FILE as it ends; --resume refuses a file of another study
    journal = sim.open_journal(out, count, bot_names, seed, resume, miss_rates)

    def stream() -> Journal | StreamJournal | None:
        """-o -: each match on standard output as its turn comes, so a reader that leaves (`| head`) stops the run."""
        return sim.StreamJournal(sys.stdout) if out == "-" else journal

    results = _run(cfg.name, data, count, bot_names, seed, matches, jobs, show, miss_rate, stream())
    runs = [(sim.summarize(results, cfg, count), results)]
    if other_cfg is not None:
        assert other_data is not None  # loaded with other_cfg
        other_results = _run(other_cfg.name, other_data, count, bot_names, seed, matches, jobs, show,
                             other_miss_rate, stream())
        runs.append((sim.summarize(other_results, other_cfg, count), other_results))
    if journal is not None:
        journal.close()
    if as_json:
        _emit_json(cfg, runs, matches, count, bot_names, seed, alpha)
    else:
        _print_tables(cfg, other_cfg, runs[0][0], runs[1][0] if len(runs) > 1 else None, alpha,
                      head=(f"{cfg.name} ({cfg.title}): {matches} matches, {count} players, "
                            f"bots {','.join(bot_names)}, seed {seed}"),
                      to_stderr=out == "-")
    if out and out != "-":  # - was written match by match
        _write_results(out, [row for _, rows in runs for row in rows])
    if plots:
        _write_plots(plots, runs)


def _check_outputs(alpha: float, out: str | None, out_alias: str | None, as_json: bool, plots: str | None) -> str | None:
    """The -o file (or -), once the options and the places to write are known to be right."""
    from rulelang.base.outfiles import output_problem

    if alpha != alpha:  # NaN passes FloatRange
        raise click.BadParameter("nan is not a significance level between 0 and 1", param_hint="--alpha")
    if out is not None and out_alias is not None:
        raise click.UsageError("give -o/--output once (--out is its old spelling)")
    out = out if out is not None else out_alias  # --out: the old spelling, kept for scripts
    if out == "-" and as_json:
        raise click.UsageError("--json and -o - both write to standard output: give one a file")
    if out is not None and out != "-" and (problem := output_problem(out)):
        raise ToolError(f"--out {out}: cannot write there: {problem}")
    if plots is not None:
        # the folder is created if need be: its nearest existing ancestor must be a writable folder
        existing = os.path.abspath(plots)
        while not os.path.exists(existing):
            existing = os.path.dirname(existing)
        if not os.path.isdir(existing):
            raise ToolError(f"--plots {plots}: cannot make the folder: {existing} is a file")
        if not os.access(existing, os.W_OK | os.X_OK):
            raise ToolError(f"--plots {plots}: cannot write in {existing}")
    return out


def _emit_json(cfg: Config, runs: list[tuple[Summary, list[SimMatch]]], matches: int, players: int,
               bot_names: list[str], seed: int, alpha: float) -> None:
    """--json: the statistics (and, with --vs, the other variant's and the tests) as one JSON document."""
    from rulelang.commands.jsonout import emit, versioned
    from rulelang.tools.simjson import comparison_record, summary_record

    summary = runs[0][0]
    doc = versioned("simulate", {"variant": cfg.name, "title": cfg.title, "matches": matches, "players": players,
                                 "bots": bot_names, "seed": seed, "summary": summary_record(summary)})
    if len(runs) > 1:
        other_summary = runs[1][0]
        doc["vs"] = summary_record(other_summary)
        doc["alpha"] = alpha
        doc["tests"] = comparison_record(summary, other_summary, alpha)
    emit(doc)


def _write_results(out: str, rows: list[SimMatch]) -> None:
    """-o FILE: the raw per-match results (`-o -` is written as the matches end, by a StreamJournal)."""
    from rulelang.tools import simulation as sim

    try:
        sim.write_results(out, rows)
    except OSError as exc:
        raise ToolError(f"cannot write {out}: {exc.strerror or exc}") from exc
    click.echo(f"raw results: {out} ({len(rows)} matches)", err=True)


def _write_plots(plots: str, runs: list[tuple[Summary, list[SimMatch]]]) -> None:
    from rulelang.tools.simplots import write_plots

    try:
        written = write_plots(plots, runs)
    except OSError as exc:
        raise ToolError(f"cannot write plots to {plots}: {exc.strerror or exc}") from exc
    click.echo(f"plots: {', '.join(written)}", err=True)


def _print_tables(cfg: Config, other_cfg: Config | None, summary: Summary, other_summary: Summary | None, alpha: float, head: str,
                  to_stderr: bool) -> None:
    """The statistics table (plain ASCII when not a terminal); on stderr when stdout carries `-o -`."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    from rulelang.commands.console import pipe_safe
    from rulelang.tools import simulation as sim

    console = pipe_safe(Console(width=max(120, min(160, Console().width)), highlight=False, stderr=to_stderr))
    style = box.HEAVY_HEAD if console.is_terminal else box.ASCII
    if other_summary is not None:
        assert other_cfg is not None  # summarised from it
        console.print(head + f"\nvs {other_cfg.name} ({other_cfg.title}), same seeds")
        table = Table(show_header=True, header_style="bold", box=style)
        table.add_column("metric")
        table.add_column(cfg.name, justify="right")
        table.add_column(other_cfg.name, justify="right")
        table.add_column("test")
        table.add_column("p", justify="right")
        for row in sim.comparison_rows(summary, other_summary, alpha):
            table.add_row(*row)
        console.print(table)
        console.print(f"* significant at {alpha:g} after Holm's correction over every test. Both variants play "
                      "the same seeds, so the tests pair match i with match i: McNemar's exact test for wins, a "
                      "paired t-test on per-match values (a match's rounds are not independent samples). "
                      "Values: rate [95% Wilson CI], mean ± sd.")
    else:
        console.print(head)
        table = Table(show_header=True, header_style="bold", box=style)
        table.add_column("metric")
        table.add_column("value", justify="right")
        table.add_column("detail")
        for summary_row in sim.summary_rows(summary):
            table.add_row(*summary_row)
        console.print(table)

