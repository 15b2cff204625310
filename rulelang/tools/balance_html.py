"""The HTML report of `rulelang balance --html`: the figures and three plots as inline SVG (no network)."""
from __future__ import annotations

from html import escape
from typing import Any

from rulelang.interpreter import Config
from rulelang.tools import balance_report as br
from rulelang.tools.plots import COLOURS, histogram, histograms, line_chart
from rulelang.tools.stats import format_p

_STYLE = ("body{font-family:sans-serif;max-width:1000px;margin:2em auto;color:#222}"
          "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
          "td:first-child,th:first-child{text-align:left}.sig{font-weight:bold;color:#b00}figure{display:inline-block;margin:0}")


def _inline(svg: str) -> str:
    return "\n".join(line for line in svg.splitlines() if not line.startswith("<?xml"))


Interval = tuple[float, float, float]  # a value and its 95% interval, in 0..1


def advantage_svg(bars: list[tuple[str, list[Interval]]], title: str, even: float | None,
                  variants: list[str] | None = None) -> str:
    """Horizontal bars with 95% whiskers, one per variant for each label, and a dashed line at the even share.

    With two variants their bars of a label sit together, each in its colour, named by a legend.
    """
    per = max((len(values) for _, values in bars), default=1)
    w, bar_h = 640, 16
    row = 10 + bar_h * per
    legend = 18 if variants and len(variants) > 1 else 0
    top = 40 + legend
    h = top + row * len(bars) + 30
    x0, x1 = 230, w - 30

    def sx(v: float) -> float:
        return x0 + max(0.0, min(1.0, v)) * (x1 - x0)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
           'font-family="sans-serif" font-size="11">', f'<rect width="{w}" height="{h}" fill="#fff"/>',
           f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">{escape(title)}</text>']
    if legend:
        for k, name in enumerate(variants or []):
            kx = x0 + 180 * k
            out.append(f'<rect x="{kx}" y="{top - 22}" width="12" height="10" fill="{COLOURS[k % len(COLOURS)]}"/>')
            out.append(f'<text x="{kx + 16}" y="{top - 13}">{escape(name)}</text>')
    for k in range(0, 11, 2):
        x = sx(k / 10)
        out.append(f'<line x1="{x:.1f}" y1="{top - 6}" x2="{x:.1f}" y2="{h - 24}" stroke="#eee"/>')
        out.append(f'<text x="{x:.1f}" y="{h - 10}" text-anchor="middle">{10 * k}%</text>')
    if even is not None:
        out.append(f'<line class="even" x1="{sx(even):.1f}" y1="{top - 6}" x2="{sx(even):.1f}" y2="{h - 24}" '
                   'stroke="#999" stroke-dasharray="5 3"/>')
    for i, (label, values) in enumerate(bars):
        y = top + row * i
        out.append(f'<text x="{x0 - 6}" y="{y + 4 + row / 2:.1f}" text-anchor="end">{escape(label)}</text>')
        for k, (v, lo, hi) in enumerate(values):
            yb = y + 5 + bar_h * k
            colour = COLOURS[k % len(COLOURS)] if per > 1 else "#1b4f9c"
            out.append(f'<rect class="bar" x="{x0}" y="{yb}" width="{sx(v) - x0:.1f}" height="{bar_h - 4}" fill="{colour}"/>')
            if lo == lo:
                whisker = "#222" if per > 1 else "#d1495b"
                out.append(f'<line class="ci" x1="{sx(lo):.1f}" y1="{yb + 6}" x2="{sx(hi):.1f}" y2="{yb + 6}" '
                           f'stroke="{whisker}" stroke-width="2"/>')
    out.append("</svg>")
    return "\n".join(out)


def fmt_difference(kind: str, d: float) -> str:
    """A signed difference: percentage points for rates, the figure's own unit for means."""
    if d != d:
        return "-"
    if kind in ("rate", "ratio"):
        return f"{round(100 * d, 1) or 0.0:+.1f} pts"  # `or 0.0`: a tiny negative difference is shown as +0.0
    return f"{round(d, 2) or 0.0:+.2f}"


def _table(rep: dict[str, Any], names: dict[str, str]) -> str:
    keys = sorted(names)
    cols = [names[k] for k in keys]
    comp = {r["metric"]: r for r in rep.get("comparison", {}).get("rows", [])}
    head = "<tr><th>figure</th>" + "".join(f"<th>{escape(c)} (95% interval)</th>" for c in cols)
    if comp:
        head += f"<th>difference ({escape(cols[1])} − {escape(cols[0])})</th><th>test</th><th>p</th><th></th>"
    head += "</tr>"
    rows = [head]
    for metric in rep["variants"][cols[0]]:
        cells = []
        for c in cols:
            f = rep["variants"][c][metric]
            cells.append(f"<td>{br.fmt_value(f['kind'], f['value'])} {br.fmt_interval(f['kind'], *f['ci95'])}</td>")
        extra = ""
        if comp:
            r = comp[metric]
            extra = (f"<td class=\"difference\">{fmt_difference(f['kind'], r['difference'])}</td>"
                     f"<td>{escape(r['test'])}</td><td>{format_p(r['p'])}</td>"
                     f"<td class=\"sig\">{'significant' if r['significant'] else ''}</td>")
        rows.append(f"<tr><td>{escape(metric)}</td>{''.join(cells)}{extra}</tr>")
    return "<table>" + "\n".join(rows) + "</table>"


def html_report(rep: dict[str, Any], parts: dict[str, dict[str, list[dict[str, Any]]]], names: dict[str, str], cfg: Config) -> str:
    """A self-contained HTML page."""
    title = " vs ".join(names[k] for k in sorted(names)) + ": balance"
    study = rep["study"]
    body = [f"<h1>{escape(title)}</h1>",
            f"<p>{study['players']} players, seed {study['seed']}; {study['matches']} field matches "
            f"({escape(study['field'])} in every seat) and greedy vs random; {study['skill_matches']} matches of the strong "
            f"player ({escape(study['strong'])}) vs random and vs greedy. Each figure is a per-match statistic with a 95% "
            "interval (Wilson for rates over matches, t for means, cluster-robust for rates over rounds).</p>",
            _table(rep, names)]
    if "comparison" in rep:
        body.append("<p>Paired on seeds: McNemar's exact test for yes/no figures, paired t on per-match values; "
                    f"significant: p below {rep['comparison']['alpha']:g} after Holm's correction.</p>")
    body += _plots(rep, parts, names, cfg)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def _plots(rep: dict[str, Any], parts: dict[str, dict[str, list[dict[str, Any]]]], names: dict[str, str], cfg: Config) -> list[str]:
    """The score race, the match length and the advantage by seat; two variants are overlaid in each plot."""
    study = rep["study"]
    keys = sorted(names)
    shown = [names[k] for k in keys]
    title = " and ".join(shown)
    sides = max(cfg.sides_of(study["players"])) + 1
    who = "team" if sides != study["players"] else "seat"
    two = len(keys) > 1
    out = [f"<h2>{escape(title)}{' overlaid' if two else ''}</h2>"]
    series: list[tuple[str, list[float]]] = []
    styles: list[tuple[str, str | None]] = []
    for v, key in enumerate(keys):
        race: list[Any] = next((r["race"] for r in parts[key]["field"] if "race" in r), [])
        for s in range(sides if race else 0):
            series.append((f"{names[key]}: {who} {s}" if two else f"{who} {s}", [row[s] / cfg.unit for row in race]))
            styles.append((COLOURS[s % len(COLOURS)], "6 3" if v else None))  # a colour per side, a dash per variant
    if series:
        out.append("<figure>" + _inline(line_chart(series, f"{title}: score race of field match 0",
                                                   "accepted scoring event", "score (shown)", styles=styles)) + "</figure>")
    lengths = [(names[k], [r["rounds"] for r in parts[k]["field"]]) for k in keys]
    length = histograms(lengths, f"{title}: match length", "rounds per match") if two else \
        histogram(lengths[0][1], f"{title}: match length", "rounds per match")
    out.append("<figure>" + _inline(length) + "</figure>")
    bars = []
    for label, metric in _advantage_figures(rep["variants"][shown[0]]):
        bars.append((label, [(rep["variants"][n][metric]["value"], *rep["variants"][n][metric]["ci95"]) for n in shown]))
    out.append("<figure>" + advantage_svg(bars, f"{title}: advantage by seat (95% intervals)", 1 / sides,
                                          shown if two else None) + "</figure>")
    return out


def _advantage_figures(figures: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, figure) of the advantage plot: each side's win rate, then the first opener's side's."""
    opener = "first opener's side wins the match"
    return [(m, m) for m in figures if m.startswith("win rate")] + [("first opener's side wins", opener)]
