"""The printable rules sheet: the rules in words, a scoring table and an example position with its
counted ends, as one HTML page with print styles (template: templates/sheet.html)."""
from __future__ import annotations

import random
from functools import cache
from html import escape
from importlib import resources
from string import Template

from rulelang._version import __version__
from rulelang.interpreter import Config, Round, greedy_player
from rulelang.interpreter.points import placement_scoring
from rulelang.playground.adapter import Analysis
from rulelang.tools import textboard as tb
from rulelang.tools.svg import round_svg

EXAMPLE_TILES = 6  # tiles on the layout of the example position


@cache
def _template() -> Template:
    return Template(resources.files("rulelang.playground").joinpath("templates/sheet.html").read_text("utf-8"))


def _example(cfg: Config) -> tuple[str, str]:
    """(SVG, caption) of a position reached by greedy play whose counted ends score, when one is found."""
    score = placement_scoring(cfg)  # the engine's own: per multiple and face value are not "a multiple of N"
    players = cfg.counts[0]
    fallback: Round | None = None
    for seed in range(1, 30):
        rnd = Round.deal(cfg, players, random.Random(seed))
        bot = greedy_player(seed)
        while not rnd.over and len(rnd.layout.tiles) < EXAMPLE_TILES:
            seat = rnd.seat_to_move
            assert seat is not None  # the round goes on
            if len(rnd.hands[seat]) == 1:
                break  # stop before a hand is emptied: the position stays a position in play
            rnd.play(bot(rnd.observation(seat), rnd.legal_moves()))
        count = rnd.layout.count()
        fallback = fallback or rnd
        if len(rnd.layout.tiles) >= EXAMPLE_TILES - 1 and score(count) > 0:
            break
    else:
        assert fallback is not None  # the loop ran
        rnd = fallback
    count = rnd.layout.count()
    terms = " + ".join(str(v) for _t, _e, v in rnd.layout.counted()) or "0"
    if cfg.in_play and score(count) > 0:
        what = f"a placement making this layout would score {_points(score(count), cfg.unit)}"
    elif cfg.in_play:
        what = f"{count} is not a count that scores: a placement making it scores nothing"
    else:
        what = "placements score nothing in this game"
    caption = f"The counted ends: {terms} = {count}; {what}."
    return round_svg(rnd).split("\n", 1)[1], caption


def _points(raw: int, unit: int) -> str:
    if unit == 1:
        return f"{raw} point{'s' if raw != 1 else ''}"
    return f"{tb.fmt_shown(raw / unit)} shown point{'s' if raw != unit else ''} ({raw} raw)"


def _scoring_table(cfg: Config) -> str:
    if not cfg.in_play:
        return "<p>Placements score nothing; points come from the settlement of each round.</p>"
    unit = cfg.unit
    score = placement_scoring(cfg)  # the engine's own, whatever the formula
    head = "<tr><th>counted ends</th><th>points</th>" + ("<th>shown</th>" if unit != 1 else "") + "</tr>"
    rows = []
    for count in (c for c in range(1, 45) if score(c) > 0):
        shown = f"<td>{tb.fmt_shown(score(count) / unit)}</td>" if unit != 1 else ""
        rows.append(f"<tr><td>{count}</td><td>{score(count)}</td>{shown}</tr>")
    what = (f"a multiple of {cfg.multiple}" if cfg.formula == "value"
            else "a multiple of " + " or ".join(str(d) for d in cfg.divisors))
    note = f"<p>Any other count scores nothing (it must be {what}).</p>"
    return f'<table class="scoring">{head}{"".join(rows)}</table>{note}'


def _target(cfg: Config) -> str:
    how = "exactly" if cfg.target_mode == "exact" else "at least"
    return f"The match is won by the first side to reach {how} {_points(cfg.target, cfg.unit)}."


def sheet_html(analysis: Analysis) -> str:
    """The whole sheet for a valid ruleset."""
    assert analysis.config is not None
    cfg = Config.from_dict(analysis.config)
    base = cfg.based_on
    sections = []
    for sec in analysis.sections:
        items = "".join(
            f'<li class="inherited">{escape(s["text"])} (from {escape(base)})</li>' if s["inherited"] and base
            else f"<li>{escape(s['text'])}</li>" for s in sec["sentences"])
        sections.append(f"<section><h2>{escape(sec['heading'])}</h2><ul>{items}</ul></section>")
    svg, caption = _example(cfg)
    return _template().substitute(
        title=escape(cfg.title), name=escape(cfg.name), source=escape(cfg.source),
        based=f"<p>Based on {escape(base)}; rules taken from it are marked.</p>" if base else "",
        sections="\n".join(sections), scoring_table=_scoring_table(cfg), target=escape(_target(cfg)),
        example=svg, example_caption=escape(caption), version=escape(__version__))
