"""`rulelang render`: draw a layout as SVG, from a transcript or a conformance case."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

from rulelang.tools.configs import ToolError

if TYPE_CHECKING:
    from rulelang.interpreter import Round


@click.command("render")
@click.option("--transcript", "transcript", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="A saved game (rulelang play --save).")
@click.option("--turn", type=int, default=None, metavar="K",
              help="With --transcript: the layout after turn K (counted over the whole game; default: the last).")
@click.option("--case", "case", default=None, metavar="CASE_ID|FILE",
              help="A conformance case: its id, a case file with one case, or FILE:CASE_ID.")
@click.option("--step", type=int, default=None, metavar="K",
              help="With --case: the layout after the case's first K steps (default: all).")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, allow_dash=True), default=None, metavar="OUT.svg",
              help="Where to write the SVG (- for standard output).  [required]")
@click.option("--out", "out_alias", type=click.Path(dir_okay=False, allow_dash=True), default=None, hidden=True)
def render_cmd(transcript: str | None, turn: int | None, case: str | None, step: int | None, out: str | None,
               out_alias: str | None) -> None:
    """Draw a layout as SVG: tiles with pips, doubles crosswise, branching doubles
    outlined in orange, counted ends as filled numbers, legal attach points as
    hollow points, and a legend."""
    from rulelang.base.outfiles import output_problem, write_atomic
    from rulelang.tools.svg import round_svg

    if out is not None and out_alias is not None:
        raise click.UsageError("give -o/--output once (--out is its old spelling)")
    out = out if out is not None else out_alias  # --out: the old spelling, kept for scripts
    if out is None:
        raise click.UsageError("give -o OUT.svg (or -o - for standard output)")
    if (transcript is None) == (case is None):
        raise click.UsageError("give exactly one of --transcript FILE or --case CASE_ID|FILE")
    if transcript is None and turn is not None:
        raise click.UsageError("--turn goes with --transcript")
    if case is None and step is not None:
        raise click.UsageError("--step goes with --case")
    if out != "-" and (problem := output_problem(out)) is not None:
        raise ToolError(f"cannot write {out}: {problem}")
    if transcript is not None:
        _refuse_input_as_output(out, transcript)
        rnd, title, notes = _transcript_layout(transcript, turn)
    else:
        assert case is not None  # exactly one of them is given (checked above)
        _refuse_input_as_output(out, case.partition(".json:")[0] + ".json" if ".json:" in case else case)
        rnd, title, notes = _case_layout(case, step)
    svg = round_svg(rnd, title=title, notes=notes)
    if out == "-":
        click.echo(svg, nl=not svg.endswith("\n"))
        return
    try:
        write_atomic(out, svg, newline=None)
    except OSError as exc:
        raise ToolError(f"cannot write {out}: {exc.strerror or exc}") from None
    click.echo(f"wrote {out} ({len(rnd.layout)} tiles)")


def _refuse_input_as_output(out: str, source: str) -> None:
    from rulelang.base.outfiles import same_file

    if out != "-" and os.path.exists(source) and same_file(out, source):
        raise click.BadParameter(f"{out} is the input file: writing the SVG there would replace it", param_hint="-o")


def _transcript_layout(transcript: str, turn: int | None) -> tuple[Round, str, list[str]]:
    """The round of a saved game after turn TURN, its title and notes."""
    from rulelang.tools.transcripts import check_transcript, load_transcript, round_at

    t = load_transcript(transcript)
    check_transcript(t)
    rnd, st = round_at(t, turn)
    if st is None:
        title = f"{transcript}: before the first turn"
    else:
        title = f"{transcript}: turn {st.number} (round {st.round_index + 1}): {st.record.get('move')}"
    notes = [f"{rnd.config.title}"]
    if st is not None:
        pts = st.record.get("points", 0)
        notes.append(f"this placement: count {st.record.get('count')}, {pts} raw")
    return rnd, title, notes


def _case_layout(case: str, step: int | None) -> tuple[Round, str, list[str]]:
    """The round of a conformance case after its first STEP steps, its title and notes."""
    from rulelang.tools.cases import case_round_at

    rnd, c, k, info = case_round_at(case, step)
    title = f"case {c['id']}, after step {k} of {len(c['steps'])}"
    notes = [str(c.get("description", ""))[:110]] + info[-1:]
    return rnd, title, notes
