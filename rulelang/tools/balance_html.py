"""The HTML report of `rulelang balance --html`: the figures and three plots as inline SVG (no network)."""
from __future__ import annotations

from html import escape
from typing import Any

from rulelang.interpreter import Config
from rulelang.tools import balance_report as br
from rulelang.tools.plots import histogram, line_chart
from rulelang.tools.stats import format_p

_STYLE = ("body{font-family:sans-serif;max-width:1000px;margin:2em auto;color:#222}"
          "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
          "td:first-child,th:first-child{text-align:left}.sig{font-weight:bold;color:#b00}figure{display:inline-block;margin:0}")


def _inline(svg: str) -> str:
    return "\n".join(line for line in svg.splitlines() if not line.startswith("<?xml"))


def advantage_svg(bars: list[tuple[str, float, float, float]], title: str, even: float | None) -> str:
    """Horizontal bars with 95% whiskers (value, lo, hi in 0..1), and a dashed line at the even share."""
    w, row = 640, 26
    h = 50 + row * len(bars) + 30
    x0, x1 = 230, w - 30

    def sx(v: float) -> float:
        return x0 + max(0.0, min(1.0, v)) * (x1 - x0)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
           'font-family="sans-serif" font-size="11">', f'<rect width="{w}" height="{h}" fill="#fff"/>',
           f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">{escape(title)}</text>']
    for k in range(0, 11, 2):
        x = sx(k / 10)
        out.append(f'<line x1="{x:.1f}" y1="34" x2="{x:.1f}" y2="{h - 24}" stroke="#eee"/>')
        out.append(f'<text x="{x:.1f}" y="{h - 10}" text-anchor="middle">{10 * k}%</text>')
    if even is not None:
        out.append(f'<line class="even" x1="{sx(even):.1f}" y1="34" x2="{sx(even):.1f}" y2="{h - 24}" '
                   'stroke="#999" stroke-dasharray="5 3"/>')
    for i, (label, v, lo, hi) in enumerate(bars):
        y = 40 + row * i
        out.append(f'<text x="{x0 - 6}" y="{y + 14}" text-anchor="end">{escape(label)}</text>')
        out.append(f'<rect class="bar" x="{x0}" y="{y + 4}" width="{sx(v) - x0:.1f}" height="{row - 10}" fill="#1b4f9c"/>')
        if lo == lo:
            out.append(f'<line class="ci" x1="{sx(lo):.1f}" y1="{y + 9}" x2="{sx(hi):.1f}" y2="{y + 9}" stroke="#d1495b" stroke-width="2"/>')
    out.append("</svg>")
    return "\n".join(out)


def _table(rep: dict[str, Any], names: dict[str, str]) -> str:
    keys = sorted(names)
    cols = [names[k] for k in keys]
    comp = {r["metric"]: r for r in rep.get("comparison", {}).get("rows", [])}
    head = "<tr><th>figure</th>" + "".join(f"<th>{escape(c)} (95% interval)</th>" for c in cols)
    head += "<th>test</th><th>p</th><th></th></tr>" if comp else "</tr>"
    rows = [head]
    for metric in rep["variants"][cols[0]]:
        cells = []
        for c in cols:
            f = rep["variants"][c][metric]
            cells.append(f"<td>{br.fmt_value(f['kind'], f['value'])} {br.fmt_interval(f['kind'], *f['ci95'])}</td>")
        extra = ""
        if comp:
            r = comp[metric]
            extra = (f"<td>{escape(r['test'])}</td><td>{format_p(r['p'])}</td>"
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
    unit = cfg.unit
    sides = max(cfg.sides_of(study["players"])) + 1
    who = "team" if sides != study["players"] else "seat"
    for key in sorted(names):
        name = names[key]
        field = parts[key]["field"]
        body.append(f"<h2>{escape(name)}</h2>")
        race = next((r["race"] for r in field if "race" in r), None)
        if race:
            series = [(f"{who} {s}", [row[s] / unit for row in race]) for s in range(sides)]
            body.append("<figure>" + _inline(line_chart(series, f"{name}: score race of field match 0",
                                                        "accepted scoring event", "score (shown)")) + "</figure>")
        body.append("<figure>" + _inline(histogram([r["rounds"] for r in field], f"{name}: match length",
                                                   "rounds per match")) + "</figure>")
        figs = rep["variants"][name]
        bars = [(m, f["value"], *f["ci95"]) for m, f in figs.items() if m.startswith("win rate")]
        bars.append(("first opener's side wins", figs["first opener's side wins the match"]["value"],
                     *figs["first opener's side wins the match"]["ci95"]))
        body.append("<figure>" + advantage_svg(bars, f"{name}: advantage by seat (95% intervals)", 1 / sides) + "</figure>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
