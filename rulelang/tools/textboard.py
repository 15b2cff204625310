"""Text views for the terminal: the layout as an indented tree, hands, events, scores.

The tree starts at the opening tile; every joined tile is a child line naming
the side it hangs on (``line-b``, ``branch-a``, ``high`` ...). Free sides are
shown as leaves: ``● 3`` a counted contribution, ``○ 4`` a legal attach point
that counts nothing. A ``*`` marks a branching double, ``●8`` after a double its
terminal count.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from rulelang.interpreter import Event, Layout
from rulelang.tools.geometry import SIDES_ORDER, Connection, LayoutTree, Tile, as_tile
from rulelang.tools.tally import tally_compact, tally_lines

COUNTED = "●"
ATTACH = "○"


def fmt_tile(t: Sequence[int]) -> str:
    return f"[{t[0]}|{t[1]}]"


def fmt_shown(x: float) -> str:
    if isinstance(x, float) and x.is_integer():
        x = int(x)
    return str(x)


def layout_lines(tiles: Sequence[Sequence[int]], connections: Iterable[Connection],
                 spinners: Iterable[Tile] = (), counted: Iterable[tuple[Tile, str, int]] = (),
                 attach_points: Iterable[tuple[Tile, str, int]] = (), endwise: Iterable[Tile] = ()) -> list[str]:
    """The layout as an indented tree of text lines."""
    pairs = [as_tile(t) for t in tiles]
    if not pairs:
        return ["(empty layout: the opener leads)"]
    tree = LayoutTree.from_connections(pairs, list(connections), spinners, endwise)
    counted_map: dict[tuple[Tile, str], int] = {}
    double_count: dict[Tile, int] = {}
    for t, end, v in counted:
        if end == "double":
            double_count[as_tile(t)] = v
        else:
            counted_map[(as_tile(t), end)] = v
    free_by_tile: dict[Tile, list[tuple[str, int]]] = {}
    for t, side, v in attach_points:
        free_by_tile.setdefault(as_tile(t), []).append((side, v))
    # counted ends that are not attach points (should not happen, but show them)
    for (t, end), v in counted_map.items():
        if (end, v) not in free_by_tile.get(t, []):
            free_by_tile.setdefault(t, []).append((end, v))

    def label(t: Tile) -> str:
        s = fmt_tile(t)
        if t in tree.spinners:
            s += "*"
        if t in tree.endwise:
            s += " endwise"  # the sniff laid in the line
        if t in double_count:
            s += f" {COUNTED}{double_count[t]}"
        return s

    lines = [label(tree.root)]

    def walk(t: Tile, prefix: str) -> None:
        entries: list[tuple[str, str, Tile | None]] = []
        for ps, child, _cs in tree.children.get(t, []):
            entries.append((ps, label(child), child))
        for side, v in free_by_tile.get(t, []):
            mark = COUNTED if (t, side) in counted_map else ATTACH
            entries.append((side, f"{mark} {v}", None))
        entries.sort(key=lambda e: SIDES_ORDER.index(e[0]) if e[0] in SIDES_ORDER else 99)
        for k, (side, text, sub) in enumerate(entries):
            last = k == len(entries) - 1
            lines.append(f"{prefix}{'└─' if last else '├─'} {side}: {text}")
            if sub is not None:
                walk(sub, prefix + ("   " if last else "│  "))

    walk(tree.root, "")
    return lines


def layout_lines_of(layout: Layout) -> list[str]:
    """Tree lines for an engine ``Layout``."""
    ew = getattr(layout, "endwise_spinner", None)
    return layout_lines(layout.tiles, layout.connections(), layout.spinners(),
                        layout.counted(), layout.attach_points(), () if ew is None else (ew,))


def counted_line(counted: Sequence[tuple[Tile, str, int]], total: int | None = None) -> str:
    if not counted:
        return "Counted ends: none (0)"
    terms = " + ".join(f"{v}" for _t, _e, v in counted)
    where = ", ".join(f"{fmt_tile(t)} {e}" for t, e, _v in counted)
    s = sum(v for _t, _e, v in counted) if total is None else total
    return f"Counted ends: {terms} = {s}   ({where})"


def tiles_count(n: int) -> str:
    """`1 tile`, `2 tiles`: a number of tiles as a sentence says it."""
    return f"{n} tile" if n == 1 else f"{n} tiles"


def hand_line(hand: Sequence[Tile]) -> str:
    return " ".join(fmt_tile(t) for t in hand) or "(empty)"


def side_name(side: int, partnerships: bool) -> str:
    return f"team {side} (seats {side} + {side + 2})" if partnerships else f"seat {side}"


def score_lines(raw: Sequence[int], unit: int, names: Sequence[str], tally: bool = False) -> list[str]:
    out = []
    width = max(len(n) for n in names) if names else 0
    for name, r in zip(names, raw):
        shown = r / unit if unit != 1 else r
        shown_s = fmt_shown(shown)
        if unit != 1:
            text = f"  {name:<{width}}  {shown_s:>5} shown  ({r} raw)"
        else:
            text = f"  {name:<{width}}  {shown_s:>5}"
        out.append(text)
        if tally:
            s = int(shown) if float(shown).is_integer() else int(shown)
            for ln in tally_lines(s):
                if ln.strip():
                    out.append(" " * (width + 6) + ln)
    return out


def event_line(event: Event, unit: int, names: Sequence[str]) -> str:
    who = names[event.side] if 0 <= event.side < len(names) else f"side {event.side}"
    raw = event.raw
    shown = fmt_shown(raw / unit) if unit != 1 else str(raw)
    sign = "+" if raw >= 0 else ""
    if unit != 1:
        pts = f"{sign}{shown} shown ({sign}{raw} raw)"
        after = f"{fmt_shown(event.score_after / unit)} shown"
    else:
        pts = f"{sign}{raw}"
        after = f"{event.score_after}"
    status = "accepted" if event.accepted else "DISCARDED (would overshoot the target)"
    return f"  event: {event.kind} {pts} for {who}: {status}; score now {after}"


__all__ = [
    "layout_lines", "layout_lines_of", "counted_line", "hand_line", "score_lines",
    "event_line", "side_name", "tally_compact", "fmt_tile", "fmt_shown",
]
