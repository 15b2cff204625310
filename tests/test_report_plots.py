"""The plots of `simulate --plots` and `balance --html`: labels off the lines, two rulesets overlaid, a difference column."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from click.testing import CliRunner

from rulelang.cli import main
from rulelang.tools.plots import MB, ML, MR, H, W, histograms, line_chart

SVG = "{http://www.w3.org/2000/svg}"
SMALL = ["--matches", "4", "--skill-matches", "2", "--strong", "pimc:2"]


def _texts(svg: str) -> list[tuple[float, float, str]]:
    root = ET.fromstring(svg.split("?>", 1)[-1])
    return [(float(t.get("x", 0)), float(t.get("y", 0)), t.text or "") for t in root.iter(f"{SVG}text")]


def _plot_top(svg: str) -> float:
    """The top of the plot area: where the y axis starts."""
    root = ET.fromstring(svg.split("?>", 1)[-1])
    axis = next(line for line in root.iter(f"{SVG}line")
                if line.get("x1") == line.get("x2") == str(ML) and float(line.get("y2")) == H - MB)
    return float(axis.get("y1"))


def test_no_label_is_drawn_inside_the_plot_where_the_lines_run():
    race = [("seat 0", [0, 30, 70, 110, 150]), ("seat 1", [0, 20, 60, 120, 148])]
    svg = line_chart(race, "allfives: score race", "accepted scoring event", "score", hline=150)
    top = _plot_top(svg)
    inside = [(x, y, t) for x, y, t in _texts(svg) if ML < x < W - MR and top < y < H - MB]
    assert inside == []  # the target's name is in the legend, above the plot, not on its dashed line
    assert "target (150)" in [t for _x, _y, t in _texts(svg)]
    assert all(y < top for x, y, t in _texts(svg) if t in ("seat 0", "seat 1", "target (150)"))


def test_a_long_legend_wraps_within_the_width_and_moves_the_plot_down():
    series = [(f"a-long-variant-name: seat {s}", [0, s]) for s in range(6)]
    svg = line_chart(series, "t", "x", "y", hline=1)
    keys = [(x, y, t) for x, y, t in _texts(svg) if t.startswith(("a-long", "target"))]
    assert len({y for _x, y, _t in keys}) > 1  # more than one row
    assert all(x + 6.5 * len(t) <= W for x, _y, t in keys)
    assert all(y < _plot_top(svg) for _x, y, _t in keys)
    one_row = line_chart(series[:1], "t", "x", "y")
    assert _plot_top(svg) > _plot_top(one_row)


def test_overlaid_histograms_share_their_bins_and_name_each_distribution():
    svg = histograms([("exact61", [10, 11, 11, 12]), ("bounce61", [11, 12, 12, 14])], "length", "rounds per match")
    fills = set(re.findall(r'class="bar"[^>]* fill="(#[0-9a-f]+)"', svg))
    assert len(fills) == 2 and {"exact61", "bounce61"} <= {t for _x, _y, t in _texts(svg)}


def test_balance_vs_overlays_both_rulesets_and_shows_their_difference(tmp_path):
    html = tmp_path / "r.html"
    res = CliRunner().invoke(main, ["balance", "exact61", "--vs", "bounce61", *SMALL, "--html", str(html)])
    assert res.exit_code == 0, res.output
    text = html.read_text(encoding="utf-8")
    assert "<th>difference (bounce61 − exact61)</th>" in text
    rows = re.findall(r"<tr><td>[^<]+</td>.*?</tr>", text)
    assert rows and all('class="difference"' in r for r in rows)
    assert re.search(r'class="difference">[+-]\d+\.\d pts<', text)  # rates in percentage points
    svgs = re.findall(r"<svg.*?</svg>", text, flags=re.S)
    race, length, advantage = svgs
    assert race.count('class="series"') == 4 and "stroke-dasharray" in race  # 2 seats x 2 rulesets, one dashed
    for plot in svgs:
        assert "exact61" in plot and "bounce61" in plot
    assert len(set(re.findall(r'class="bar"[^>]* fill="(#[0-9a-f]+)"', advantage))) == 2


def test_balance_of_one_ruleset_has_no_difference_column(tmp_path):
    html = tmp_path / "r.html"
    res = CliRunner().invoke(main, ["balance", "exact61", *SMALL, "--html", str(html)])
    assert res.exit_code == 0, res.output
    text = html.read_text(encoding="utf-8")
    assert "difference" not in text and text.count("<svg") == 3
