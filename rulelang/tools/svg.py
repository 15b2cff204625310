"""Draw a layout as SVG, in the style of the worked diagrams of the Five Up text:
tiles with pips, doubles crosswise, branching doubles outlined in orange,
counted contributions as filled numbers, legal attach points (not counted) as
hollow points, and a legend.

Every tile is a ``<g class="tile" data-tile="[a|b]">`` holding one
``<rect class="tile-rect">``; markers are ``<g class="marker counted|attach">``.
"""
from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape

from rulelang.interpreter import Layout, Round
from rulelang.tools.geometry import (
    LayoutTree,
    Placed,
    Placement,
    Tile,
    as_tile,
    place_layout,
)

U = 14  # pixels per grid unit (a tile is 2 x 4 units)
MARGIN = 3  # units around the drawing
ORANGE = "#f08a00"
LEGEND_H = 96

# pip offsets in a 2x2-unit half square, in half-units from its centre,
# expressed along (a = the tile's long axis, c = across)
PIPS: dict[int, list[tuple[float, float]]] = {
    0: [],
    1: [(0, 0)],
    2: [(-0.5, -0.5), (0.5, 0.5)],
    3: [(-0.5, -0.5), (0, 0), (0.5, 0.5)],
    4: [(-0.5, -0.5), (-0.5, 0.5), (0.5, -0.5), (0.5, 0.5)],
    5: [(-0.5, -0.5), (-0.5, 0.5), (0, 0), (0.5, -0.5), (0.5, 0.5)],
    6: [(-0.5, -0.5), (0, -0.5), (0.5, -0.5), (-0.5, 0.5), (0, 0.5), (0.5, 0.5)],
}
# -- larger sets (family.md 3.7): halves 7 to 12, as on double-nine and double-twelve tiles
_GRID3 = [(a, c) for a in (-0.5, 0, 0.5) for c in (-0.5, 0, 0.5)]
_GRID4 = [(a, c) for a in (-0.5, 0, 0.5) for c in (-0.6, -0.2, 0.2, 0.6)]
PIPS.update({
    7: PIPS[6] + [(0, 0)],
    8: [p for p in _GRID3 if p != (0, 0)],
    9: _GRID3,
    10: [p for p in _GRID4 if p not in ((0, -0.2), (0, 0.2))],
    11: [p for p in _GRID4 if p != (0, 0.2)],
    12: _GRID4,
})
# the double-fifteen and double-eighteen sets (FIDO's double-eighteen): halves 13 to 18, on grids of 3 x 5 and 3 x 6
_GRID5 = [(a, c) for a in (-0.5, 0, 0.5) for c in (-0.64, -0.32, 0, 0.32, 0.64)]
_GRID6 = [(a, c) for a in (-0.5, 0, 0.5) for c in (-0.65, -0.39, -0.13, 0.13, 0.39, 0.65)]
PIPS.update({
    13: [p for p in _GRID5 if p not in ((0, -0.32), (0, 0.32))],
    14: [p for p in _GRID5 if p != (0, 0)],
    15: _GRID5,
    16: [p for p in _GRID6 if p not in ((0, -0.13), (0, 0.13))],
    17: [p for p in _GRID6 if p != (0, 0.13)],
    18: _GRID6,
})
# -- end larger sets


def fmt_tile(t: Sequence[int]) -> str:
    return f"[{t[0]}|{t[1]}]"


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


class _Canvas:
    def __init__(self, bounds: tuple[int, int, int, int]):
        self.x0, self.y0 = bounds[0] - MARGIN, bounds[1] - MARGIN
        self.parts: list[str] = []

    def px(self, x: float, y: float) -> tuple[float, float]:
        return ((x - self.x0) * U, (y - self.y0) * U)


def _draw_tile(cv: _Canvas, pl: Placed, spinner: bool) -> str:
    x0, y0, x1, y1 = pl.rect
    px0, py0 = cv.px(x0, y0)
    px1, py1 = cv.px(x1, y1)
    inset = 1.0
    out = [f'<g class="tile{" spinner" if spinner else ""}" data-tile="{fmt_tile(pl.tile)}">']
    out.append(
        f'<rect class="tile-rect" x="{_num(px0 + inset)}" y="{_num(py0 + inset)}" '
        f'width="{_num(px1 - px0 - 2 * inset)}" height="{_num(py1 - py0 - 2 * inset)}" '
        f'rx="4" fill="#fffdf6" stroke="#222" stroke-width="1.5"/>'
    )
    if spinner:
        out.append(
            f'<rect class="spinner-outline" x="{_num(px0 + inset + 2.5)}" y="{_num(py0 + inset + 2.5)}" '
            f'width="{_num(px1 - px0 - 2 * inset - 5)}" height="{_num(py1 - py0 - 2 * inset - 5)}" '
            f'rx="3" fill="none" stroke="{ORANGE}" stroke-width="3"/>'
        )
    # divider between the two halves
    (c1x, c1y), (c2x, c2y) = pl.half_centres
    mx, my = (c1x + c2x) / 2, (c1y + c2y) / 2
    horizontal_split = abs(c1x - c2x) < 1e-9  # halves stacked vertically
    if horizontal_split:
        a, b = cv.px(x0 + 0.3, my), cv.px(x1 - 0.3, my)
    else:
        a, b = cv.px(mx, y0 + 0.3), cv.px(mx, y1 - 0.3)
    out.append(f'<line x1="{_num(a[0])}" y1="{_num(a[1])}" x2="{_num(b[0])}" y2="{_num(b[1])}" '
               f'stroke="#222" stroke-width="1"/>')
    for value, (cx, cy) in zip(pl.halves, pl.half_centres):
        for (da, dc) in PIPS[value]:
            # long axis vertical when halves are stacked vertically
            if horizontal_split:
                x, y = cx + dc, cy + da
            else:
                x, y = cx + da, cy + dc
            px, py = cv.px(x, y)
            r = "2.6" if value < 10 else "1.9" if value <= 12 else "1.5"  # larger sets: four or more pips across fit
            out.append(f'<circle class="pip" cx="{_num(px)}" cy="{_num(py)}" r="{r}" fill="#222"/>')
    out.append(f'<title>{fmt_tile(pl.tile)}</title>')
    out.append("</g>")
    return "\n".join(out)


def _marker_pos(pl: Placed, side: str) -> tuple[float, float] | None:
    if side not in pl.sides:
        return None
    (x, y), (dx, dy) = pl.sides[side]
    return (x + dx * 0.9, y + dy * 0.9)


def _double_count_side(pl: Placed, used: set[tuple[Tile, str]]) -> str:
    for s in ("line-b", "line-a", "branch-a", "branch-b"):  # (a crosswise sniff counts its branch sides)
        if (pl.tile, s) not in used and s in pl.sides:
            return s
    return "line-b"


Counted = tuple[Tile, str, int]  # a tile, its counted end ("double" for a counted double) and the value
Attach = tuple[Tile, str, int]  # a tile, a free side and what it would count


def _used_sides(tree: LayoutTree | None) -> set[tuple[Tile, str]]:
    """The (tile, side) pairs where two tiles of the layout join."""
    used: set[tuple[Tile, str]] = set()
    if tree is not None:
        for parent, kids in tree.children.items():
            for ps, child, cs in kids:
                used.add((parent, ps))
                used.add((child, cs))
    return used


def _marker_sides(counted: list[Counted], attach_points: list[Attach], used: set[tuple[Tile, str]]) -> set[tuple[Tile, str]]:
    """The sides the layout must leave room at for a marker (a counted double: both free line sides)."""
    sides = {(t, s) for t, s, _v in attach_points}
    for t, e, _v in counted:
        if e == "double":
            sides.update((t, s) for s in ("line-a", "line-b") if (t, s) not in used)
        else:
            sides.add((t, e))
    return sides


def _connectors(cv: _Canvas, placement: Placement) -> list[str]:
    """The dashed connectors of the fallback layout."""
    lines = []
    for pl in placement.values():
        if pl.connector:
            (ax, ay), (bx, by) = pl.connector
            a, b = cv.px(ax, ay), cv.px(bx, by)
            lines.append(f'<line class="connector" x1="{_num(a[0])}" y1="{_num(a[1])}" x2="{_num(b[0])}" '
                         f'y2="{_num(b[1])}" stroke="#999" stroke-dasharray="3 2"/>')
    return lines


def _counted_at(placement: Placement, counted: list[Counted], used: set[tuple[Tile, str]]) -> dict[tuple[Tile, str], int]:
    """(tile, side) -> value of every counted contribution on a placed tile (a double: on a free side)."""
    at: dict[tuple[Tile, str], int] = {}
    for tile, end, value in counted:
        pl = placement.get(tile)
        if pl is None:
            continue
        side = _double_count_side(pl, used) if end == "double" else end
        at[(tile, side)] = value
    return at


def _counted_markers(cv: _Canvas, placement: Placement, counted_at: dict[tuple[Tile, str], int]) -> list[str]:
    """Filled numbers: the counted contributions."""
    lines = []
    for (tile, side), value in counted_at.items():
        pos = _marker_pos(placement[tile], side)
        if pos is None:
            continue
        px, py = cv.px(*pos)
        lines.append(
            f'<g class="marker counted" data-tile="{fmt_tile(tile)}" data-side="{side}" data-value="{value}">'
            f'<circle cx="{_num(px)}" cy="{_num(py)}" r="8.5" fill="#1b4f9c"/>'
            f'<text x="{_num(px)}" y="{_num(py + 4)}" text-anchor="middle" font-size="11" '
            f'font-family="sans-serif" font-weight="bold" fill="#fff">{value}</text></g>'
        )
    return lines


def _attach_markers(cv: _Canvas, placement: Placement, attach_points: list[Attach],
                    counted_at: dict[tuple[Tile, str], int]) -> list[str]:
    """Hollow points: the legal attach points that are not counted."""
    lines = []
    for tile, side, value in attach_points:
        if (tile, side) in counted_at:
            continue
        pl = placement.get(tile)
        if pl is None:
            continue
        pos = _marker_pos(pl, side)
        if pos is None:
            continue
        px, py = cv.px(*pos)
        lines.append(
            f'<g class="marker attach" data-tile="{fmt_tile(tile)}" data-side="{side}" data-value="{value}">'
            f'<circle cx="{_num(px)}" cy="{_num(py)}" r="5" fill="#fff" stroke="#1b4f9c" stroke-width="2"/>'
            f'<title>{fmt_tile(tile)} {side} ({value})</title></g>'
        )
    return lines


def _legend(ly: float, width: float, counted: list[Counted], notes: list[str]) -> list[str]:
    """The legend under the drawing, starting at height `ly`: the markers, the counted sum, the notes."""
    total = sum(v for _, _, v in counted)
    terms = " + ".join(str(v) for _, _, v in counted) or "0"
    legend = [
        '<g class="legend" font-family="sans-serif" font-size="12" fill="#222">',
        f'<line x1="8" y1="{ly - 4}" x2="{width - 8}" y2="{ly - 4}" stroke="#ccc"/>',
        f'<circle cx="20" cy="{ly + 12}" r="8.5" fill="#1b4f9c"/>'
        f'<text x="20" y="{ly + 16}" text-anchor="middle" font-size="11" font-weight="bold" fill="#fff">n</text>',
        f'<text x="34" y="{ly + 16}">counted contribution</text>',
        f'<circle cx="190" cy="{ly + 12}" r="5" fill="#fff" stroke="#1b4f9c" stroke-width="2"/>',
        f'<text x="202" y="{ly + 16}">legal attach point, not counted</text>',
        f'<rect x="12" y="{ly + 28}" width="16" height="24" rx="3" fill="#fffdf6" stroke="{ORANGE}" stroke-width="3"/>',
        f'<text x="34" y="{ly + 44}">branching double (spinner)</text>',
        f'<text x="12" y="{ly + 72}">counted ends: {escape(terms)} = {total}</text>',
    ]
    for k, note in enumerate(notes):
        legend.append(f'<text x="12" y="{ly + 90 + 16 * k}">{escape(note)}</text>')
    legend.append("</g>")
    return legend


def _head(width: float, height: float, title: str | None) -> list[str]:
    """The document's start: the XML declaration, the `<svg>` element, the background and the title."""
    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}" height="{_num(height)}" '
        f'viewBox="0 0 {_num(width)} {_num(height)}">',
        '<rect width="100%" height="100%" fill="#e9f2e9"/>',
    ]
    if title:
        head.append(f'<text x="12" y="20" font-family="sans-serif" font-size="15" font-weight="bold">'
                    f'{escape(title)}</text>')
    return head


def _layout_body(cv: _Canvas, tree: LayoutTree | None, placement: Placement, counted: list[Counted],
                 attach_points: list[Attach], used: set[tuple[Tile, str]]) -> list[str]:
    """The drawing: connectors, tiles, then the counted markers over the attach points."""
    spinners = tree.spinners if tree is not None else frozenset()
    body = _connectors(cv, placement)
    body.extend(_draw_tile(cv, pl, pl.tile in spinners) for pl in placement.values())
    counted_at = _counted_at(placement, counted, used)
    return body + _counted_markers(cv, placement, counted_at) + _attach_markers(cv, placement, attach_points, counted_at)


def render_svg(
    tree: LayoutTree | None,
    counted: Iterable[Counted] = (),
    attach_points: Iterable[Attach] = (),
    title: str | None = None,
    notes: Sequence[str] = (),
    placement: Placement | None = None,
) -> str:
    """SVG text for a layout tree with its counted contributions and attach points."""
    counted_list: list[Counted] = [(as_tile(t), e, v) for (t, e, v) in counted]
    attach_list: list[Attach] = [(as_tile(t), s, v) for (t, s, v) in attach_points]
    used = _used_sides(tree)
    if tree is not None and placement is None:
        placement = place_layout(tree, marker_sides=_marker_sides(counted_list, attach_list, used))
    bounds = placement.bounds() if placement else (-4, -2, 4, 2)
    cv = _Canvas(bounds)
    width_u = bounds[2] - bounds[0] + 2 * MARGIN
    height_u = bounds[3] - bounds[1] + 2 * MARGIN
    top = 28 if title else 6
    width = max(width_u * U, 460)
    wrapped = [line for note in notes for line in (textwrap.wrap(note, max(30, int((width - 24) / 6.6))) or [""])]
    height = top + height_u * U + LEGEND_H + 16 * len(wrapped)
    body = _layout_body(cv, tree, placement or Placement(), counted_list, attach_list, used)
    body_g = [f'<g class="layout" transform="translate(0,{top})">'] + body + ["</g>"]
    if not placement:
        body_g.insert(1, '<text x="12" y="30" font-family="sans-serif" font-size="13">(empty layout)</text>')
    legend = _legend(top + height_u * U + 8, width, counted_list, wrapped)
    return "\n".join(_head(width, height, title) + body_g + legend + ["</svg>"]) + "\n"


def layout_svg(layout: Layout, title: str | None = None, notes: Sequence[str] = ()) -> str:
    """SVG of an engine ``Layout`` (tiles, connections(), spinners(), counted(), attach_points())."""
    tiles = list(layout.tiles)
    if not tiles:
        return render_svg(None, title=title, notes=notes)
    tree = LayoutTree.from_layout(layout)
    return render_svg(tree, layout.counted(), layout.attach_points(), title=title, notes=notes)


def round_svg(rnd: Round, title: str | None = None, notes: Sequence[str] = ()) -> str:
    """SVG of a live engine ``Round``'s layout."""
    return layout_svg(rnd.layout, title=title, notes=notes)


def svg_tile_rects(svg_text: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    """(tile label, (x0, y0, x1, y1)) of every tile drawn in ``svg_text`` (for tests)."""
    ns = {"s": "http://www.w3.org/2000/svg"}
    root = ET.fromstring(svg_text)
    out = []
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        if "tile" not in (g.get("class") or "").split():
            continue
        r = g.find("s:rect", ns)
        assert r is not None  # every tile group holds its rect
        x, y = float(r.attrib["x"]), float(r.attrib["y"])
        out.append((g.attrib["data-tile"], (x, y, x + float(r.attrib["width"]), y + float(r.attrib["height"]))))
    return out


def render_round(rnd: Round, path: str | None = None, title: str | None = None, notes: Sequence[str] = ()) -> str:
    """Render a live engine ``Round`` (tests, notebooks); also write it to ``path`` if given."""
    text = round_svg(rnd, title=title, notes=notes)
    if path:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    return text
