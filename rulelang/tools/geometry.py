"""Collision-free placement of a layout tree on a grid.

The layout is a tree of tiles (root = the opening tile). Units: a tile is 2 x 4
grid units (a half-tile is a 2 x 2 square). A non-double lies along its line; a
double is placed crosswise (its long axis across the line) and its branch sides
leave from its two short edges, perpendicular to the line. A spinner laid
endwise (the sniff) lies along its line like a non-double, and
its branch sides leave from the middles of its long edges.

Each tile is placed from an *entry* (the midpoint of the parent's edge it
touches, plus the outward direction). A non-double may go straight on or turn
left / right (a corner: its first half sits in line, the tile then runs across);
a double always goes straight. A depth-first search over these choices, with
backtracking and grid occupancy, finds a placement where no two tile
rectangles share a cell. If the search exceeds its budget, a fallback places the
subtrees further apart with drawn connectors (still without overlap).
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import cast

from rulelang.interpreter import Layout

Tile = tuple[int, int]
Point = tuple[int, int]
Dir = tuple[int, int]
Step = tuple[Tile | None, str | None, Tile, str | None]
Connection = tuple[Tile, str, Tile, str]  # (parent, parent's side, child, child's side)  # (parent, parent's side, tile, tile's side)

RIGHT: Dir = (1, 0)
DOWN: Dir = (0, 1)
LEFT: Dir = (-1, 0)
UP: Dir = (0, -1)

SIDES_ORDER = ("branch-a", "branch-b", "high", "line-a", "line-b", "low")


def left_of(d: Dir) -> Dir:
    """Turn left on screen (y grows downwards)."""
    return (d[1], -d[0])


def right_of(d: Dir) -> Dir:
    return (-d[1], d[0])


def _add(p: Point, d: Dir, k: int = 1) -> Point:
    return (p[0] + d[0] * k, p[1] + d[1] * k)


def as_tile(t: Sequence[int]) -> Tile:
    """A tile written as any pair (a JSON list, a tuple) as the tuple the layout code keys on."""
    a, b = t
    return (a, b)


def is_double(tile: Tile) -> bool:
    return tile[0] == tile[1]


@dataclass
class Placed:
    """A tile on the drawing: its rectangle (x0, y0, x1, y1), how it lies, and
    where each of its sides is (edge midpoint + outward direction)."""

    tile: Tile
    rect: tuple[int, int, int, int]
    direction: Dir  # direction of the line through the tile
    # the value drawn in the half nearest the entry, then the far half
    halves: tuple[int, int]
    # for each half: the centre of its 2x2 square
    half_centres: tuple[tuple[float, float], tuple[float, float]]
    sides: dict[str, tuple[Point, Dir]] = field(default_factory=dict)
    parent: Tile | None = None
    parent_side: str | None = None
    child_side: str | None = None
    turned: str = "straight"
    connector: tuple[Point, Point] | None = None  # fallback layouts only
    endwise: bool = False  # a spinner laid in the line (the sniff)

    @property
    def crosswise(self) -> bool:
        return is_double(self.tile) and not self.endwise

    def cells(self) -> Iterable[Point]:
        x0, y0, x1, y1 = self.rect
        for x in range(x0, x1):
            for y in range(y0, y1):
                yield (x, y)


def _rect_from(p: Point, d: Dir, along: int, half_width: int) -> tuple[int, int, int, int]:
    q = _add(p, d, along)
    perp = right_of(d)
    xs = [p[0], q[0], p[0] + perp[0] * half_width, p[0] - perp[0] * half_width]
    ys = [p[1], q[1], p[1] + perp[1] * half_width, p[1] - perp[1] * half_width]
    return (min(xs), min(ys), max(xs), max(ys))


def place_root(tile: Tile, endwise: bool = False) -> Placed:
    a, b = tile
    if endwise:  # the sniff laid endwise: along the line, branches from the middles of its long edges
        pl = Placed(tile, (-2, -1, 2, 1), RIGHT, (a, b), ((-1.0, 0.0), (1.0, 0.0)), endwise=True)
        pl.sides = {"line-a": ((-2, 0), LEFT), "line-b": ((2, 0), RIGHT),
                    "branch-a": ((0, -1), UP), "branch-b": ((0, 1), DOWN)}
        return pl
    if is_double(tile):
        pl = Placed(tile, (-1, -2, 1, 2), RIGHT, (a, b), ((0.0, -1.0), (0.0, 1.0)))
        pl.sides = {
            "line-a": ((-1, 0), LEFT),
            "line-b": ((1, 0), RIGHT),
            "branch-a": ((0, -2), UP),
            "branch-b": ((0, 2), DOWN),
        }
        return pl
    pl = Placed(tile, (-2, -1, 2, 1), RIGHT, (a, b), ((-1.0, 0.0), (1.0, 0.0)))
    pl.sides = {"low": ((-2, 0), LEFT), "high": ((2, 0), RIGHT)}
    return pl


def place_child(tile: Tile, child_side: str, entry: Point, d: Dir, turn: str, endwise: bool = False) -> Placed:
    """Place ``tile`` joined by its ``child_side`` at an exit ``entry`` facing ``d`` (`endwise`: the sniff in line)."""
    if endwise:
        if turn != "straight":
            raise ValueError("doubles do not turn")
        p = entry
        mid = _add(p, d, 2)
        l, r = left_of(d), right_of(d)
        c1 = (p[0] + d[0] * 1.0, p[1] + d[1] * 1.0)
        c2 = (p[0] + d[0] * 3.0, p[1] + d[1] * 3.0)
        pl = Placed(tile, _rect_from(p, d, 4, 1), d, (tile[0], tile[1]), (c1, c2), endwise=True)
        pl.sides = {"line-a": (p, (-d[0], -d[1])), "line-b": (_add(p, d, 4), d),
                    "branch-a": (_add(mid, l, 1), l), "branch-b": (_add(mid, r, 1), r)}
        return pl
    if is_double(tile):
        if turn != "straight":
            raise ValueError("doubles do not turn")
        p = entry
        rect = _rect_from(p, d, 2, 2)
        mid = _add(p, d, 1)
        l, r = left_of(d), right_of(d)
        c1 = (mid[0] + l[0] * 1.0, mid[1] + l[1] * 1.0)
        c2 = (mid[0] + r[0] * 1.0, mid[1] + r[1] * 1.0)
        pl = Placed(tile, rect, d, (tile[0], tile[1]), (c1, c2))
        pl.sides = {
            "line-a": (p, (-d[0], -d[1])),
            "line-b": (_add(p, d, 2), d),
            "branch-a": (_add(mid, l, 2), l),
            "branch-b": (_add(mid, r, 2), r),
        }
        return pl
    if turn == "straight":
        nd, p = d, entry
    else:
        nd = left_of(d) if turn == "left" else right_of(d)
        p = (entry[0] + d[0] - nd[0], entry[1] + d[1] - nd[1])
    rect = _rect_from(p, nd, 4, 1)
    near_value = tile[0] if child_side == "low" else tile[1]
    far_value = tile[1] if child_side == "low" else tile[0]
    far_side = "high" if child_side == "low" else "low"
    c1 = (p[0] + nd[0] * 1.0, p[1] + nd[1] * 1.0)
    c2 = (p[0] + nd[0] * 3.0, p[1] + nd[1] * 3.0)
    pl = Placed(tile, rect, nd, (near_value, far_value), (c1, c2), turned=turn)
    # the joined end faces the parent: when turned it faces back along d
    pl.sides = {child_side: (entry, (-d[0], -d[1])), far_side: (_add(p, nd, 4), nd)}
    return pl


@dataclass
class LayoutTree:
    """An abstract layout: the root tile, the connections and the branching doubles."""

    root: Tile
    children: dict[Tile, list[tuple[str, Tile, str]]]  # parent -> [(parent_side, child, child_side)]
    spinners: frozenset[Tile] = frozenset()
    endwise: frozenset[Tile] = frozenset()  # the sniff laid endwise

    @classmethod
    def from_connections(cls, tiles: Sequence[Tile], connections: Iterable[Connection],
                         spinners: Iterable[Tile] = (), endwise: Iterable[Tile] = ()) -> LayoutTree:
        tiles = [cast(Tile, tuple(t)) for t in tiles]
        if not tiles:
            raise ValueError("empty layout")
        children: dict[Tile, list[tuple[str, Tile, str]]] = {t: [] for t in tiles}
        has_parent = set()
        for parent, pside, child, cside in connections:
            parent, child = cast(Tile, tuple(parent)), cast(Tile, tuple(child))
            children.setdefault(parent, []).append((pside, child, cside))
            children.setdefault(child, [])
            has_parent.add(child)
        roots = [t for t in children if t not in has_parent]
        if len(roots) != 1:
            raise ValueError(f"a layout has exactly one opening tile, found {roots}")
        for kids in children.values():
            kids.sort(key=lambda k: SIDES_ORDER.index(k[0]) if k[0] in SIDES_ORDER else 99)
        return cls(roots[0], children, frozenset(cast(Tile, tuple(s)) for s in spinners),
                   frozenset(cast(Tile, tuple(s)) for s in endwise))

    @classmethod
    def from_layout(cls, layout: Layout) -> LayoutTree:
        """From an engine ``Layout`` (tiles, connections(), spinners(), endwise_spinner)."""
        ew = getattr(layout, "endwise_spinner", None)
        return cls.from_connections(list(layout.tiles), layout.connections(), layout.spinners(),
                                    () if ew is None else (ew,))

    def order(self) -> list[Step]:
        """Depth-first order of (parent, parent_side, tile, child_side)."""
        out: list[Step] = [(None, None, self.root, None)]
        stack = [(self.root, kid) for kid in reversed(self.children[self.root])]
        while stack:
            parent, (pside, child, cside) = stack.pop()
            out.append((parent, pside, child, cside))
            for kid in reversed(self.children.get(child, [])):
                stack.append((child, kid))
        return out

    def __len__(self) -> int:
        return len(self.children)


class Placement(dict[Tile, Placed]):
    """tile -> Placed, plus how the placement was found."""

    method: str = "search"
    nodes: int = 0
    attempts: int = 1

    def bounds(self) -> tuple[int, int, int, int]:
        xs0 = min(p.rect[0] for p in self.values())
        ys0 = min(p.rect[1] for p in self.values())
        xs1 = max(p.rect[2] for p in self.values())
        ys1 = max(p.rect[3] for p in self.values())
        return (xs0, ys0, xs1, ys1)


def rects_overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Interiors intersect (touching edges do not count)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


TURN_PREFERENCE = ("straight", "left", "right")


def place_layout(tree: LayoutTree, budget: int = 600, restarts: int = 40,
                 marker_sides: Iterable[tuple[Tile, str]] | None = None) -> Placement:
    """Place every tile of ``tree`` without overlap.

    A backtracking search with a small node budget, restarted with shuffled
    preferences (deterministically seeded) when it runs out; if every restart
    fails, the banded fallback (which cannot fail) is used.
    """
    total = 0
    for attempt in range(restarts):
        rng = random.Random(attempt) if attempt else None
        result = _search(tree, budget, rng, marker_sides)
        if result is not None:
            result.nodes += total
            result.attempts = attempt + 1
            return result
        total += budget
    result = _fallback(tree)
    result.nodes = total
    return result


def _crowding(pl: Placed, occupied: dict[Point, Tile], radius: int = 4) -> int:
    """Occupied cells in the square ahead of the tile's free exits (less is better)."""
    total = 0
    for side, (pt, d) in pl.sides.items():
        if side == pl.child_side:
            continue
        cx, cy = pt[0] + d[0] * radius, pt[1] + d[1] * radius
        for x in range(cx - radius, cx + radius):
            for y in range(cy - radius, cy + radius):
                if (x, y) in occupied:
                    total += 1
    return total


SOFT_BOX = (22, 14)  # half-width, half-height in units: lines turn beyond it


def _sprawl(pl: Placed) -> int:
    """Penalty for free exits far outside a soft box around the opening tile,
    so that long lines snake back instead of running off in one direction."""
    pen = 0
    for side, ((x, y), _) in pl.sides.items():
        if side == pl.child_side:
            continue
        pen += 6 * (max(0, abs(x) - SOFT_BOX[0]) + max(0, abs(y) - SOFT_BOX[1]))
    return pen


def marker_cells(pt: Point, d: Dir) -> tuple[Point, Point]:
    """The two grid cells just outside a side (edge midpoint ``pt``, outward ``d``)."""
    x, y = pt
    if d == RIGHT:
        return ((x, y - 1), (x, y))
    if d == LEFT:
        return ((x - 1, y - 1), (x - 1, y))
    if d == DOWN:
        return ((x - 1, y), (x, y))
    return ((x - 1, y - 1), (x, y - 1))


MARKER_PENALTY = 40


def _marker_conflicts(cand: Placed, cells: list[Point], occupied: dict[Point, Tile], markers: dict[Point, int],
                      marked: set[tuple[Tile, str]]) -> int:
    """Cells of the candidate over placed markers, and its own markers over placed tiles."""
    n = sum(1 for c in cells if c in markers)
    for side, (pt, d) in cand.sides.items():
        if (cand.tile, side) in marked:
            n += sum(1 for c in marker_cells(pt, d) if c in occupied)
    return n


def _rank_options(tile: Tile, cside: str, entry: Point, d: Dir, occupied: dict[Point, Tile],
                  rng: random.Random | None = None, markers: dict[Point, int] | None = None,
                  marked: set[tuple[Tile, str]] | None = None, endwise: bool = False) -> list[tuple[Placed, list[Point]]]:
    """Fitting placements of ``tile``, least crowded first, straight on ties."""
    options = ("straight",) if is_double(tile) else TURN_PREFERENCE
    out = []
    for k, turn in enumerate(options):
        cand = place_child(tile, cside, entry, d, turn, endwise)
        cand.child_side = cside
        cells = list(cand.cells())
        if any(c in occupied for c in cells):
            continue
        crowd = _crowding(cand, occupied) + _sprawl(cand)
        if marked:
            assert markers is not None  # passed together with `marked`
            crowd += MARKER_PENALTY * _marker_conflicts(cand, cells, occupied, markers, marked)
        out.append((crowd + (rng.random() * 8 if rng else 0), k, cand, cells))
    out.sort(key=lambda t: (t[0], t[1]))
    return [(cand, cells) for _, _, cand, cells in out]


class _Search:
    """The state of one backtracking search: the tiles placed, the cells they cover, the marker cells."""

    def __init__(self, tree: LayoutTree, rng: random.Random | None, marker_sides: Iterable[tuple[Tile, str]] | None):
        self.tree = tree
        self.rng = rng
        self.placed = Placement()
        self.occupied: dict[Point, Tile] = {}
        self.marked: set[tuple[Tile, str]] = {(as_tile(t), s) for t, s in marker_sides} if marker_sides else set()
        self.markers: dict[Point, int] = {}  # marker cell -> how many markers use it

    def _count_markers(self, pl: Placed, sign: int) -> None:
        for side, (pt, dd) in pl.sides.items():
            if (pl.tile, side) in self.marked:
                for c in marker_cells(pt, dd):
                    k = self.markers.get(c, 0) + sign
                    if k:
                        self.markers[c] = k
                    else:
                        self.markers.pop(c, None)

    def put(self, tile: Tile, pl: Placed, cells: Iterable[Point]) -> None:
        self.placed[tile] = pl
        for c in cells:
            self.occupied[c] = tile
        self._count_markers(pl, 1)

    def take_back(self, tile: Tile) -> None:
        for c in self.placed[tile].cells():
            self.occupied.pop(c, None)
        self._count_markers(self.placed[tile], -1)
        del self.placed[tile]

    def options(self, step: Step) -> list[tuple[Placed, list[Point]]]:
        parent, pside, tile, cside = step
        assert parent is not None and pside is not None and cside is not None  # only the root has none
        entry, d = self.placed[parent].sides[pside]
        return _rank_options(tile, cside, entry, d, self.occupied, self.rng, self.markers, self.marked,
                             tile in self.tree.endwise)

    def run(self, budget: int) -> Placement | None:
        """Place the tiles in the tree's order, backtracking; None when `budget` nodes did not do."""
        tree = self.tree
        order = tree.order()
        root = place_root(tree.root, tree.root in tree.endwise)
        self.put(tree.root, root, root.cells())
        n = len(order)
        nodes = 0
        # choice index per position of the order; iterative backtracking
        choices = [0] * n
        ranked: list[list[tuple[Placed, list[Point]]]] = [[] for _ in range(n)]
        i = 1
        while i < n:
            parent, pside, tile, cside = order[i]
            if choices[i] == 0:
                ranked[i] = self.options(order[i])
                nodes += 1
            ok = choices[i] < len(ranked[i])
            if ok:
                cand, cells = ranked[i][choices[i]]
                choices[i] += 1
                nodes += 1
                cand.parent, cand.parent_side, cand.child_side = parent, pside, cside
                self.put(tile, cand, cells)
            if nodes > budget:
                return None
            if ok:
                i += 1
                continue
            choices[i] = 0
            i -= 1
            if i == 0:
                return None
            self.take_back(order[i][2])
        self.placed.method = "search"
        self.placed.nodes = nodes
        return self.placed


def _search(tree: LayoutTree, budget: int, rng: random.Random | None = None,
            marker_sides: Iterable[tuple[Tile, str]] | None = None) -> Placement | None:
    return _Search(tree, rng, marker_sides).run(budget)


def _fallback(tree: LayoutTree) -> Placement:
    """Guaranteed non-overlapping: every subtree gets its own horizontal band.

    Tiles of one in-line chain stay joined left to right; every other child
    starts a new band below, linked to its parent's side by a drawn connector.
    """
    placed = Placement()
    root = place_root(tree.root, tree.root in tree.endwise)
    # shift the root to the origin band
    placed[tree.root] = root
    band = [0]  # next free band index (each band 6 units high)
    band_h = 6

    def chain(parent: Tile, pside: str, tile: Tile, cside: str, x: int, y: int) -> None:
        entry = (x, y)
        pl = place_child(tile, cside, entry, RIGHT, "straight", tile in tree.endwise)
        pl.parent, pl.parent_side, pl.child_side = parent, pside, cside
        pl.connector = (placed[parent].sides[pside][0], entry)
        pl.turned = "fallback"
        placed[tile] = pl
        kids = tree.children.get(tile, [])
        straight = [k for k in kids if k[0] in ("line-b", "high", "low")]
        others = [k for k in kids if k not in straight]
        if straight:
            ps, child, cs = straight[0]
            ex, _ = pl.sides[ps]
            chain(tile, ps, child, cs, ex[0] + 1, ex[1])
        for ps, child, cs in others:
            band[0] += 1
            chain(tile, ps, child, cs, pl.rect[0] + 1, band[0] * band_h)

    for ps, child, cs in tree.children.get(tree.root, []):
        band[0] += 1
        chain(tree.root, ps, child, cs, root.rect[0], band[0] * band_h)
    placed.method = "fallback"
    return placed


def check_no_overlap(placement: Placement) -> list[tuple[Tile, Tile]]:
    """Pairs of tiles whose rectangles overlap (empty when the drawing is clean)."""
    items = list(placement.values())
    bad = []
    for i in range(len(items)):
        for j in range(i + 1, len(items)):
            if rects_overlap(items[i].rect, items[j].rect):
                bad.append((items[i].tile, items[j].tile))
    return bad


def random_layout(rng: random.Random, branching: str = "every", at_once: bool = True,
                  max_tiles: int = 28) -> tuple[list[Tile], list[Connection], list[Tile]]:
    """A random legal layout of a double-six set (for tests and demos), without the engine.

    Returns (tiles in placement order, connections, spinners).
    """
    pool = [(a, b) for a in range(7) for b in range(a, 7)]
    rng.shuffle(pool)
    first = pool.pop()
    tiles = [first]
    spinners: list[Tile] = []
    if is_double(first) and branching != "none":
        spinners.append(first)
    connections: list[Connection] = []
    occupied: set[tuple[Tile, str]] = set()

    def free_sides() -> list[tuple[Tile, str, int]]:
        out = []
        for t in tiles:
            if is_double(t):
                names = ["line-a", "line-b"]
                if t in spinners:
                    in_line = all((t, s) in occupied for s in ("line-a", "line-b"))
                    if at_once or in_line:
                        names += ["branch-a", "branch-b"]
                vals = dict.fromkeys(names, t[0])
            else:
                vals = {"low": t[0], "high": t[1]}
            for s, v in vals.items():
                if (t, s) not in occupied:
                    out.append((t, s, v))
        return out

    while pool and len(tiles) < max_tiles:
        moves = []
        free = free_sides()
        for cand in pool:
            for (t, s, v) in free:
                if v in cand:
                    moves.append((cand, t, s, v))
        if not moves:
            break
        cand, t, s, v = rng.choice(moves)
        pool.remove(cand)
        occupied.add((t, s))
        if is_double(cand):
            cside = "line-a"
            if branching == "every" or (branching == "first" and not any(is_double(x) for x in tiles)):
                spinners.append(cand)
        else:
            cside = "low" if cand[0] == v else "high"
        occupied.add((cand, cside))
        tiles.append(cand)
        connections.append((t, s, cand, cside))
    return tiles, connections, spinners
