"""The HTML report of `rulelang balance --html`: the figures and three plots as inline SVG (no network)."""
from __future__ import annotations

import functools
import math
from html import escape
from importlib import resources

from rulelang.interpreter import Config
from rulelang.tools import balance_report as br
from rulelang.tools.documents import BalanceReport, Figure, LadderReport, Parts
from rulelang.tools.plots import COLOURS, histogram, histograms, line_chart
from rulelang.tools.stats import format_p


@functools.lru_cache(maxsize=1)
def _style() -> str:
    """The reports' style sheet (report.css), inlined: a report is one file that needs no network."""
    return resources.files("rulelang.tools").joinpath("report.css").read_text(encoding="utf-8")


def _page(title: str, body: list[str]) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(title)}</title><style>{_style()}</style></head><body>\n" + "\n".join(body)
            + "\n</body></html>\n")


def _wrapped(rows: list[str]) -> str:
    """A table in a box of its own that scrolls sideways on a narrow screen (the page does not)."""
    return "<div class=\"table-wrap\"><table>" + "\n".join(rows) + "</table></div>"


def _findings(sentences: list[str], heading: str = "What this study found") -> str:
    items = "".join(f"<li>{escape(s)}</li>" for s in sentences)
    return f"<section class=\"findings\"><h2>{escape(heading)}</h2><ul>{items}</ul></section>"


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


def _table(rep: BalanceReport, names: dict[str, str]) -> str:
    keys = sorted(names)
    cols = [names[k] for k in keys]
    comp = {r["metric"]: r for r in rep.get("comparison", {}).get("rows", [])}
    head = "<tr><th>figure</th>" + "".join(f"<th>{escape(c)} (95% interval)</th>" for c in cols)
    if comp:
        head += (f"<th>difference ({escape(cols[1])} − {escape(cols[0])})</th><th>test</th><th>p</th>"
                 "<th>significance (Holm)</th>")
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
    return _wrapped(rows)


def html_report(rep: BalanceReport, parts: Parts, names: dict[str, str], cfg: Config) -> str:
    """A self-contained HTML page."""
    from rulelang.tools.balance_findings import findings

    title = " vs ".join(names[k] for k in sorted(names)) + ": balance"
    study = rep["study"]
    sides = max(cfg.sides_of(study["players"])) + 1
    body = [f"<h1>{escape(title)}</h1>", _findings(findings(rep, names, sides)),
            f"<p>{study['players']} players, seed {study['seed']}; {study['matches']} field matches "
            f"({escape(study['field'])} in every seat) and greedy vs random; {study['skill_matches']} matches of the strong "
            f"player ({escape(study['strong'])}) vs random and vs greedy. Each figure is a per-match statistic with a 95% "
            "interval (Wilson for rates over matches, t for means, cluster-robust for rates over rounds).</p>",
            _table(rep, names)]
    if "comparison" in rep:
        body.append("<p>Paired on seeds: McNemar's exact test for yes/no figures, paired t on per-match values; "
                    f"significant: p below {rep['comparison']['alpha']:g} after Holm's correction.</p>")
    body += _plots(rep, parts, names, cfg)
    return _page(title, body)


# --------------------------------------------------------------------------- the skill ladder

_SERIES = ("#1b4f9c", "#d1495b")


def _nice_step(raw: float) -> float:
    """1, 2 or 5 times a power of ten, at least `raw` (axis ticks people read at a glance)."""
    power = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def interval_svg(labels: list[str], series: list[tuple[str, list[tuple[float, float, float]]]], title: str,
                 y_label: str, lines: list[tuple[float, str]], fmt: str = "{:.0%}",
                 span: tuple[float, float] | None = None) -> str:
    """Points with 95% whiskers over labelled positions, one colour per series, dashed reference lines (`lines`: y, label)."""
    w, h, left, right, top, bottom = 720, 340, 70, 20, 40, 80
    values = [v for _n, pts in series for p in pts for v in p if v == v] + [y for y, _l in lines]
    lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
    if span is not None:
        lo, hi = min(lo, span[0]), max(hi, span[1])
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    tick = _nice_step((hi - lo) / 5)
    lo, hi = math.floor(lo / tick) * tick, math.ceil(hi / tick) * tick

    def sy(v: float) -> float:
        return top + (hi - v) / (hi - lo) * (h - top - bottom)

    step = (w - left - right) / max(1, len(labels))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
           'font-family="sans-serif" font-size="11">', f'<rect width="{w}" height="{h}" fill="#fff"/>',
           f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">{escape(title)}</text>',
           f'<text x="14" y="{(top + h - bottom) / 2}" transform="rotate(-90 14 {(top + h - bottom) / 2})" '
           f'text-anchor="middle">{escape(y_label)}</text>']
    for k in range(round((hi - lo) / tick) + 1):
        v = lo + k * tick
        out.append(f'<line x1="{left}" y1="{sy(v):.1f}" x2="{w - right}" y2="{sy(v):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{left - 6}" y="{sy(v) + 4:.1f}" text-anchor="end">{escape(fmt.format(v))}</text>')
    for y, label in lines:
        out.append(f'<line class="bar" x1="{left}" y1="{sy(y):.1f}" x2="{w - right}" y2="{sy(y):.1f}" '
                   'stroke="#999" stroke-dasharray="5 3"/>')
        out.append(f'<text x="{w - right - 2}" y="{sy(y) - 3:.1f}" text-anchor="end" fill="#666">{escape(label)}</text>')
    for i, label in enumerate(labels):
        x = left + step * (i + 0.5)
        out.append(f'<text x="{x:.1f}" y="{h - bottom + 16}" text-anchor="middle">{escape(label)}</text>')
    for s, (name, pts) in enumerate(series):
        colour = _SERIES[s % len(_SERIES)]
        shift = (s - (len(series) - 1) / 2) * 10
        for i, (v, a, b) in enumerate(pts):
            x = left + step * (i + 0.5) + shift
            if a == a:
                out.append(f'<line class="ci" x1="{x:.1f}" y1="{sy(a):.1f}" x2="{x:.1f}" y2="{sy(b):.1f}" stroke="{colour}" stroke-width="2"/>')
            out.append(f'<circle class="point" cx="{x:.1f}" cy="{sy(v):.1f}" r="4" fill="{colour}"/>')
        out.append(f'<rect x="{left + 150 * s}" y="{h - 28}" width="10" height="10" fill="{colour}"/>'
                   f'<text x="{left + 150 * s + 14}" y="{h - 19}">{escape(name)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _ladder_tables(rep: LadderReport) -> list[str]:
    from rulelang.tools.ladder_text import pct, pct_interval

    body = []
    for name, v in rep["variants"].items():
        rows = ["<tr><th>link</th><th>head to head (95% interval)</th><th>matches</th><th>draws</th></tr>"]
        rows += [f"<tr><td>{escape(link['upper'])} vs {escape(link['lower'])}</td><td>{pct(link['head_to_head'])} "
                 f"{pct_interval(link['head_to_head_ci95'])}</td><td>{link['matches']}</td><td>{link['draws']}</td></tr>"
                 for link in v["links"]]
        rows += ["<tr><th>player</th><th>rating (95% interval)</th><th>Elo (95% interval)</th><th></th></tr>"]
        rows += [f"<tr><td>{escape(r['player'])}</td><td>{r['rating']:.2f} [{r['ci95'][0]:.2f}, {r['ci95'][1]:.2f}]</td>"
                 f"<td>{r['elo']:.0f} [{r['elo_ci95'][0]:.0f}, {r['elo_ci95'][1]:.0f}]</td><td></td></tr>" for r in v["ratings"]]
        chain = "; ".join(f"chain length at {100 * c['bar']:g}%: {c['length']} ({c['ci95'][0]:.0f} to {c['ci95'][1]:.0f})"
                          for c in v["chain"])
        cs = v["coin_share"]
        body.append(f"<h2>{escape(name)}</h2><p>{escape(chain)}; coin share {pct(cs['value'])} {pct_interval(cs['ci95'])}.</p>"
                    + _wrapped(rows))
    if "comparison" in rep:
        from rulelang.tools.ladder_text import verdict

        rows = ["<tr><th>figure</th><th>a</th><th>b</th><th>difference</th><th>test</th><th>p</th>"
                "<th>significance (Holm)</th></tr>"]
        for r in rep["comparison"]["rows"]:
            rows.append(f"<tr><td>{escape(r['figure'])}</td><td>{r['a']:.3g}</td><td>{r['b']:.3g}</td><td>{r['difference']:+.3g}</td>"
                        f"<td>{escape(r['test'])}</td><td>{format_p(r['p'])}</td>"
                        f"<td class=\"sig\">{'significant' if r['significant'] else ''}</td></tr>")
        body.append(f"<h2>Comparison</h2><p>{escape(verdict(rep))}</p>" + _wrapped(rows))
    return body


def ladder_html(rep: LadderReport) -> str:
    """A self-contained HTML page of a skill ladder: the links' shares against the bars, the ratings, the tables."""
    st = rep["study"]
    title = " vs ".join(st["names"]) + ": skill ladder"
    variants = rep["variants"]
    longest = max(variants.values(), key=lambda v: len(v["ratings"]))
    links = [f"{link['upper']} vs {link['lower']}" for link in longest["links"]]
    shares = [(name, [(link["head_to_head"], link["head_to_head_ci95"][0], link["head_to_head_ci95"][1]) for link in v["links"]])
              for name, v in variants.items()]
    bars = [(b, f"bar {100 * b:g}%") for b in st["bars"]] + [(0.5, "even")]
    players = [r["player"] for r in longest["ratings"]]
    elo = [(name, [(r["elo"], r["elo_ci95"][0], r["elo_ci95"][1]) for r in v["ratings"]]) for name, v in variants.items()]
    from rulelang.tools.ladder_text import summary

    body = [f"<h1>{escape(title)}</h1>", _findings(summary(rep), "What the ladder found"),
            f"<p>{st['players']} players, seed {st['seed']}, {st['link_matches']} matches per link; each rung plays the one "
            "below it on the same deals, from every side in turn. Shares head to head with 95% Wilson intervals; "
            "Bradley-Terry ratings (random = 0) with Wald intervals; chain length and coin share with intervals from "
            f"a bootstrap over deals ({st['bootstrap']} resamples).</p>",
            "<figure>" + interval_svg(links, shares, "win share of the upper rung per link (95% intervals)",
                                      "share head to head", bars, span=(0.4, 1.0)) + "</figure>",
            "<figure>" + interval_svg(players, elo, "ratings (Elo scale, random = 0, 95% intervals)", "Elo",
                                      [(0.0, "random")], "{:.0f}") + "</figure>"]
    body += _ladder_tables(rep)
    return _page(title, body)

def _plots(rep: BalanceReport, parts: Parts, names: dict[str, str], cfg: Config) -> list[str]:
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
        race: list[list[int]] = next((r["race"] for r in parts[key]["field"] if "race" in r), [])
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
        figs = [rep["variants"][n][metric] for n in shown]
        bars.append((label, [(f["value"], f["ci95"][0], f["ci95"][1]) for f in figs]))
    out.append("<figure>" + advantage_svg(bars, f"{title}: advantage by seat (95% intervals)", 1 / sides,
                                          shown if two else None) + "</figure>")
    return out


def _advantage_figures(figures: dict[str, Figure]) -> list[tuple[str, str]]:
    """(label, figure) of the advantage plot: each side's win rate, then the first opener's side's."""
    opener = "first opener's side wins the match"
    return [(m, m) for m in figures if m.startswith("win rate")] + [("first opener's side wins", opener)]
