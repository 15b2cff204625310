"""Hand-written SVG plots (no matplotlib): a line chart and a histogram."""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from xml.sax.saxutils import escape

COLOURS = ("#1b4f9c", "#d1495b", "#2e933c", "#f08a00", "#6a4c93", "#444")
W, H = 640, 360
ML, MR, MT, MB = 56, 20, 36, 46
Scale = Callable[[float], float]  # a data coordinate to its pixel


def _nice_ticks(lo: float, hi: float, n: int = 6) -> list[float]:
    if hi <= lo:
        hi = lo + 1
    span = hi - lo
    step = 10 ** math.floor(math.log10(span / n))
    for m in (1, 2, 5, 10):
        if span / (step * m) <= n:
            step *= m
            break
    start = math.floor(lo / step) * step
    ticks = []
    x = start
    while True:
        ticks.append(round(x, 10))
        if x >= hi - 1e-9:
            break
        x += step
    return ticks


def _frame(title: str, xlabel: str, ylabel: str, xt: list[float], yt: list[float],
           sx: Scale, sy: Scale) -> list[str]:
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
        'font-family="sans-serif" font-size="11">',
        f'<rect width="{W}" height="{H}" fill="#fff"/>',
        f'<text x="{W / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">{escape(title)}</text>',
    ]
    for t in yt:
        y = sy(t)
        out.append(f'<line x1="{ML}" y1="{y:.1f}" x2="{W - MR}" y2="{y:.1f}" stroke="#eee"/>')
        out.append(f'<text x="{ML - 6}" y="{y + 4:.1f}" text-anchor="end">{t:g}</text>')
    for t in xt:
        x = sx(t)
        out.append(f'<line x1="{x:.1f}" y1="{H - MB}" x2="{x:.1f}" y2="{H - MB + 4}" stroke="#333"/>')
        out.append(f'<text x="{x:.1f}" y="{H - MB + 16}" text-anchor="middle">{t:g}</text>')
    out.append(f'<line x1="{ML}" y1="{H - MB}" x2="{W - MR}" y2="{H - MB}" stroke="#333"/>')
    out.append(f'<line x1="{ML}" y1="{MT}" x2="{ML}" y2="{H - MB}" stroke="#333"/>')
    out.append(f'<text x="{(ML + W - MR) / 2}" y="{H - 10}" text-anchor="middle">{escape(xlabel)}</text>')
    out.append(f'<text x="14" y="{(MT + H - MB) / 2}" text-anchor="middle" '
               f'transform="rotate(-90 14 {(MT + H - MB) / 2})">{escape(ylabel)}</text>')
    return out


def line_chart(series: Sequence[tuple[str, Sequence[float]]], title: str, xlabel: str, ylabel: str,
               hline: float | None = None) -> str:
    """Lines over x = 0..len-1, one per (label, ys)."""
    n = max((len(ys) for _, ys in series), default=1)
    vals = [y for _, ys in series for y in ys] + ([hline] if hline is not None else [])
    lo, hi = (min(vals), max(vals)) if vals else (0, 1)
    lo = min(lo, 0)
    xt, yt = _nice_ticks(0, max(1, n - 1)), _nice_ticks(lo, hi)
    x0, x1, y0, y1 = 0, max(max(xt), 1), min(yt), max(yt)
    if y1 == y0:
        y1 = y0 + 1

    def sx(x: float) -> float:
        return ML + (x - x0) / (x1 - x0) * (W - ML - MR)

    def sy(y: float) -> float:
        return H - MB - (y - y0) / (y1 - y0) * (H - MT - MB)

    out = _frame(title, xlabel, ylabel, xt, yt, sx, sy)
    if hline is not None:
        out.append(f'<line class="target" x1="{ML}" y1="{sy(hline):.1f}" x2="{W - MR}" y2="{sy(hline):.1f}" '
                   'stroke="#999" stroke-dasharray="5 3"/>')
        out.append(f'<text x="{W - MR - 4}" y="{sy(hline) - 4:.1f}" text-anchor="end" fill="#777">target</text>')
    for k, (label, ys) in enumerate(series):
        c = COLOURS[k % len(COLOURS)]
        pts = " ".join(f"{sx(i):.1f},{sy(y):.1f}" for i, y in enumerate(ys))
        out.append(f'<polyline class="series" fill="none" stroke="{c}" stroke-width="2" points="{pts}"/>')
        out.append(f'<rect x="{ML + 10 + 110 * k}" y="{MT - 6}" width="12" height="4" fill="{c}"/>')
        out.append(f'<text x="{ML + 26 + 110 * k}" y="{MT - 1}">{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def histogram(values: Sequence[float], title: str, xlabel: str, bins: int | None = None) -> str:
    """Histogram of ``values`` (integer values get one bar per value when few)."""
    if not values:
        values = [0]
    lo, hi = min(values), max(values)
    integer = all(float(v).is_integer() for v in values)
    if integer and hi - lo <= 40:
        edges = [lo - 0.5 + i for i in range(int(hi - lo) + 2)]
    else:
        bins = bins or min(30, max(5, int(math.sqrt(len(values)))))
        width = (hi - lo) / bins or 1
        edges = [lo + i * width for i in range(bins + 1)]
    counts = [0] * (len(edges) - 1)
    for v in values:
        i = min(len(counts) - 1, max(0, int((v - edges[0]) / (edges[1] - edges[0]))))
        counts[i] += 1
    xt = _nice_ticks(edges[0], edges[-1])
    xt = [t for t in xt if edges[0] <= t <= edges[-1]]
    yt = _nice_ticks(0, max(counts))

    def sx(x: float) -> float:
        return ML + (x - edges[0]) / (edges[-1] - edges[0]) * (W - ML - MR)

    def sy(y: float) -> float:
        return H - MB - y / max(yt) * (H - MT - MB)

    out = _frame(title, xlabel, "matches" if "match" in xlabel else "count", xt, yt, sx, sy)
    for i, c in enumerate(counts):
        if not c:
            continue
        xa, xb = sx(edges[i]), sx(edges[i + 1])
        out.append(f'<rect class="bar" x="{xa + 0.5:.1f}" y="{sy(c):.1f}" width="{max(1, xb - xa - 1):.1f}" '
                   f'height="{H - MB - sy(c):.1f}" fill="#1b4f9c"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
