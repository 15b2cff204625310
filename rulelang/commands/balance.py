"""`rulelang balance`: what a ruleset does to the game: seat and opener advantage, skill against luck, length."""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

import click

from rulelang.commands.complete import bundled_or_file
from rulelang.commands.progress import chosen_mode, progress_option
from rulelang.tools.configs import ToolError, load_engine_config, player_count

if TYPE_CHECKING:
    from rulelang.base.jsontypes import ConfigJSON
    from rulelang.interpreter import Config
    from rulelang.tools.documents import BalanceReport, Parts, Study, StudyMatch
    from rulelang.tools.study import Task


def _run(params: Study, jobs: int, dask: str | None, out: str | None, resume: bool,
         show: str) -> tuple[Parts, int]:
    """Play the study's matches not already in OUT (with --resume); the collected parts, and how many were reused."""
    from rulelang.tools import study

    kept: list[StudyMatch] = []
    if out and resume:
        kept = cast("list[StudyMatch]", study.read_done(out, params))  # a balance study's lines (its header says so)
    elif out and os.path.exists(out) and os.path.getsize(out) > 0:
        raise ToolError(f"--out {out} exists: add --resume to go on with that study, or remove the file")
    done = {(r["key"], r["part"], r["index"]) for r in kept}
    tasks = study.plan(params, done)
    rows = list(kept)
    sink = study.Sink(out, params, kept) if out else None

    def got(chunk: list[StudyMatch]) -> None:
        rows.extend(chunk)
        if sink:
            sink.write(chunk)

    total = sum(len(t[3]) for t in tasks)
    try:
        _execute_with_progress(tasks, jobs, dask, got, total, show)
    finally:
        if sink:
            sink.close()
    return study.collect(params, rows), len(kept)


def _execute_with_progress(tasks: Sequence[Task], jobs: int, dask: str | None, got: Callable[[list[StudyMatch]], None],
                           total: int, show: str) -> None:
    """Run the tasks with progress of matches on standard error as SHOW (`bar`, `lines`, `none`) says."""
    from rulelang.commands.progress import reporter
    from rulelang.tools import study

    with reporter(show if total else "none", "matches", label="matches") as rep:
        rep.start("balance", total)

        def advance(chunk: list[StudyMatch]) -> None:
            got(chunk)
            rep.advance(len(chunk))

        study.execute(tasks, jobs, dask, advance)


@click.command("balance")
@click.argument("variant", metavar="RULESET", shell_complete=bundled_or_file)
@click.option("--vs", "other", default=None, metavar="OTHER", shell_complete=bundled_or_file,
              help="Compare with a second ruleset on the same seeds (paired tests).")
@click.option("--players", "-p", type=int, default=None, help="Players per match (default 2).")
@click.option("--matches", "-n", type=click.IntRange(min=2), default=400, show_default=True,
              help="Matches of the field (seat, opener, length figures) and of greedy against random.")
@click.option("--skill-matches", type=click.IntRange(min=2), default=100, show_default=True,
              help="Matches of the strong player against random and against greedy.")
@click.option("--field", default="greedy", show_default=True, help="The player in every seat of the field matches.")
@click.option("--strong", default="strong", show_default=True, help="The strong player: strong, pimc[:N], ismcts[:N] (N: strength, or Ns seconds per move).")
@click.option("--seed", type=int, default=0, show_default=True, help="Base seed; every match's deal and players derive from it.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes (or Dask workers with --dask local).")
@click.option("--dask", default=None, metavar="ADDRESS|local",
              help="Run on a Dask cluster: a scheduler address, or 'local' for a local cluster of --jobs workers.")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False), default=None, metavar="FILE.jsonl",
              help="Write each match as it finishes (JSON lines); with --resume, go on with it.")
@click.option("--out", "out_alias", type=click.Path(dir_okay=False), default=None, hidden=True)
@click.option("--resume", is_flag=True, help="Continue the study in -o/--output: matches already there are not played again.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option("--html", type=click.Path(dir_okay=False), default=None, metavar="FILE", help="Write an HTML report with plots (inline SVG).")
@click.option("--alpha", type=click.FloatRange(min=0, max=1, min_open=True, max_open=True), default=0.05, show_default=True,
              help="Family-wise significance level for --vs (Holm).")
@click.option("--ladder", is_flag=True, help="Play a skill ladder instead: chain length, ratings, the coin share of luck.")
@click.option("--rungs", default=None, metavar="P1,P2,...", help="--ladder: the rungs, weakest first (default random, greedy, then --top halved).")
@click.option("--top", default="pimc:80", show_default=True, help="--ladder: the top rung; the search rungs double up to it.")
@click.option("--link-matches", type=click.IntRange(min=2), default=200, show_default=True, help="--ladder: matches per link.")
@click.option("--bar", type=click.FloatRange(min=0.5, max=1, max_open=True), default=None,
              help="--ladder: a second bar for the chain length besides 60% (e.g. 0.55).")
@progress_option
def balance_cmd(variant: str, other: str | None, players: int | None, matches: int, skill_matches: int, field: str,
                strong: str, seed: int, jobs: int, dask: str | None, out: str | None, out_alias: str | None, resume: bool,
                as_json: bool,
                html: str | None, alpha: float, ladder: bool, rungs: str | None, top: str, link_matches: int,
                bar: float | None, progress_mode: str) -> None:
    """Measure what RULESET does to the game, with an interval on every figure.

    Field matches (--field in every seat) give seat and opener advantage, match
    length and spread, blocked rounds, lead changes and the share of points from
    play; greedy against random and the strong player against random and against
    greedy give the skill gap and how often the weaker player wins. Each figure
    is a per-match statistic (rounds inside a match are not independent). With
    --vs OTHER both rulesets play the same seeds and each difference gets a
    paired test (McNemar for yes/no figures, paired t otherwise, Holm-corrected).
    """
    from rulelang.tools import balance_report as br
    from rulelang.tools.playernames import STRONG, make_player

    out = _check_outputs(alpha, resume, out, out_alias, html)
    data, cfg = load_engine_config(variant)
    count = player_count(cfg, players)
    variants, names = _variants(data, cfg, other, count)
    if ladder:
        from rulelang.commands import ladder as lc

        lc.run(variants, names, cfg, count, lc.LadderOptions(rungs, top, link_matches, bar, seed, jobs, dask, out,
                                                             resume, as_json, html, alpha, progress_mode))
        return
    for spec in (field, strong):
        make_player(spec, cfg, 0)  # refuses a bad name before any work
    params: Study = {"variants": variants, "players": count, "seed": seed, "matches": matches,
              "skill_matches": skill_matches, "field": field, "strong": STRONG if strong == "strong" else strong}
    show = chosen_mode(progress_mode)
    parts, reused = _run(params, jobs, dask, out, resume, show)
    sides_of = list(cfg.sides_of(count))
    rep = br.report(parts, names, sides_of, len(set(sides_of)) != count, alpha)
    rep["study"] = {"players": count, "seed": seed, "matches": matches, "skill_matches": skill_matches, "field": field,
                    "strong": params["strong"], "names": [names[k] for k in sorted(names)]}
    if out:
        click.echo(f"results: {out} ({reused} matches reused)" if resume else f"results: {out}", err=True)
    if html:
        _write_html(html, rep, parts, names, cfg)
    if as_json:
        click.echo(json.dumps(rep, indent=1, sort_keys=True))
        return
    _print(rep, names, params)


def _check_outputs(alpha: float, resume: bool, out: str | None, out_alias: str | None, html: str | None) -> str | None:
    """The -o file, once the options and the places to write are known to be right."""
    from rulelang.base.outfiles import output_problem

    if alpha != alpha:
        raise click.BadParameter("nan is not a significance level between 0 and 1", param_hint="--alpha")
    if out is not None and out_alias is not None:
        raise click.UsageError("give -o/--output once (--out is its old spelling)")
    out = out if out is not None else out_alias  # --out: the old spelling, kept for scripts
    if out == "-":
        raise click.BadParameter("the study is a file (--resume reads it back): give a FILE.jsonl", param_hint="-o/--output")
    if resume and not out:
        raise ToolError("--resume needs -o/--output FILE.jsonl (the study to go on with)")
    for opt, path in (("-o/--output", out), ("--html", html)):
        if path is not None and (problem := output_problem(path)):
            raise ToolError(f"{opt} {path}: cannot write there: {problem}")
    return out


def _variants(data: ConfigJSON, cfg: Config, other: str | None, players: int) -> tuple[dict[str, ConfigJSON], dict[str, str]]:
    """The configurations to play ("a", and "b" for --vs) and their names; refuses rulesets that cannot be compared."""
    variants = {"a": data}
    names = {"a": cfg.name}
    if other:
        odata, ocfg = load_engine_config(other)
        if players not in ocfg.counts:
            raise ToolError(f"{ocfg.name} is not played by {players} players")
        if ocfg.sides_of(players) != cfg.sides_of(players):
            raise ToolError(f"{cfg.name} and {ocfg.name} seat {players} players in different teams: not comparable")
        variants["b"] = odata
        names["b"] = ocfg.name if ocfg.name != cfg.name else ocfg.name + " (2)"
    return variants, names


def _write_html(html: str, rep: BalanceReport, parts: Parts, names: dict[str, str], cfg: Config) -> None:
    from rulelang.base.outfiles import write_atomic
    from rulelang.tools.balance_html import html_report

    try:
        write_atomic(html, html_report(rep, parts, names, cfg), newline=None)
    except OSError as exc:
        raise ToolError(f"cannot write {html}: {exc.strerror or exc}") from exc
    click.echo(f"report: {html}", err=True)


def _print(rep: BalanceReport, names: dict[str, str], params: Study) -> None:
    from rich.table import Table

    from rulelang.commands.console import table_box, table_console
    from rulelang.tools import balance_report as br
    from rulelang.tools.stats import format_p

    console = table_console()
    head = (f"{params['players']} players, seed {params['seed']}: {params['matches']} field matches "
            f"({params['field']} in every seat) and greedy vs random; {params['skill_matches']} matches "
            f"of strong ({params['strong']}) vs random and vs greedy")
    a = names["a"]
    if "comparison" not in rep:
        console.print(f"{a}: " + head)
        t = Table(show_header=True, header_style="bold", box=table_box(console))
        for col, just in (("figure", "left"), ("value", "right"), ("95% interval", "right"), ("matches", "right"), ("note", "left")):
            t.add_column(col, justify=just)  # type: ignore[arg-type]
        ms = br.metrics([0], False)
        notes = {m.name: m.help for m in ms}
        for name, fig in rep["variants"][a].items():
            t.add_row(name, br.fmt_value(fig["kind"], fig["value"]), br.fmt_interval(fig["kind"], *fig["ci95"]),
                      str(fig["n"]), notes.get(name, ""))
        console.print(t)
        sp = rep["length"][a]
        if sp:
            console.print(f"rounds per match: sd {sp['sd']:.2f}, min {sp['min']}, 10% {sp['p10']}, median {sp['median']}, "
                          f"90% {sp['p90']}, max {sp['max']}")
        console.print("Intervals: Wilson for rates over matches, t for means over matches, cluster-robust "
                      "(match = unit) for rates over rounds.")
        return
    b = names["b"]
    console.print(f"{a} vs {b}, same seeds: " + head)
    t = Table(show_header=True, header_style="bold", box=table_box(console))
    for col, just in (("figure", "left"), (a, "right"), (b, "right"), ("difference", "right"), ("test", "left"),
                      ("p", "right"), ("significant", "left")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for row in rep["comparison"]["rows"]:
        fa = rep["variants"][a][row["metric"]]
        fb = rep["variants"][b][row["metric"]]
        kind = fa["kind"]
        diff = row["difference"]
        dtext = "-" if diff != diff else (f"{100 * diff:+.1f} pts" if kind in ("rate", "ratio") else f"{diff:+.2f}")
        t.add_row(row["metric"], br.fmt_value(kind, fa["value"]) + " " + br.fmt_interval(kind, *fa["ci95"]),
                  br.fmt_value(kind, fb["value"]) + " " + br.fmt_interval(kind, *fb["ci95"]), dtext, row["test"],
                  format_p(row["p"]), "yes" if row["significant"] else "no")
    console.print(t)
    alpha = rep["comparison"]["alpha"]
    sig = [r["metric"] for r in rep["comparison"]["rows"] if r["significant"]]
    console.print(f"Paired on seeds: McNemar's exact test for yes/no figures, paired t on per-match values; "
                  f"'significant': p below alpha {alpha:g} after Holm's correction over the {len(rep['comparison']['rows'])} figures.")
    console.print("Significant differences: " + (", ".join(sig) if sig else "none at this sample size."))
