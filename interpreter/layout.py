"""The layout as players see it: a read-only view built on demand from a round's internal state."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .tiles import HI, HIGH, IS_DOUBLE, LEAD_KEY, LO, LOW, SIDES, TILES, format_tile, mask_tiles

if TYPE_CHECKING:
    from .round import Round


class Layout:
    """A read-only view of a round's layout (built on demand; the round keeps the state)."""

    def __init__(self, rnd: Round):
        self._r = rnd

    @property
    def tiles(self) -> list:
        """Tiles in placement order."""
        return [TILES[c >> 8] for c in self._r._placed]

    def connections(self) -> list:
        """(parent_tile, parent_side, child_tile, child_side) in placement order."""
        out = []
        for c in self._r._placed:
            key = c & 0xFF
            if key != LEAD_KEY:
                ti, t = c >> 8, key >> 3
                # the child joins with line-a (a double) or with its half equal to the side's value
                value = HI[t] if (key & 7) == HIGH else LO[t]
                own = "line-a" if IS_DOUBLE[ti] else ("low" if LO[ti] == value else "high")
                out.append((TILES[t], SIDES[key & 7], TILES[ti], own))
        return out

    def spinners(self) -> list:
        """The branching doubles on the layout, sorted."""
        return mask_tiles(self._r._spin)

    def attach_points(self) -> list:
        """Free sides `(tile, side, value)` sorted by tile then side."""
        return [(TILES[k >> 3], SIDES[k & 7], v) for k, v in sorted(self._r._free.items())]

    def counted(self) -> list:
        """Counted ends `(tile, end, value)` sorted by tile then end ("double" for a terminal double)."""
        r = self._r
        free = r._free
        dv = r._rules.dv
        out = []
        for ti in sorted(c >> 8 for c in r._placed):
            if IS_DOUBLE[ti]:
                # rules.md 1.2: a double counts while one of its in-line sides is free
                if r._inline[ti] > 0:
                    out.append((TILES[ti], "double", dv[ti]))
            else:
                # "high" sorts before "low"
                if ti << 3 | HIGH in free:
                    out.append((TILES[ti], "high", HI[ti]))
                if ti << 3 | LOW in free:
                    out.append((TILES[ti], "low", LO[ti]))
        return out

    def count(self) -> int:
        """The counted sum."""
        return self._r._count

    def __len__(self):
        return len(self._r._placed)

    def to_dict(self) -> dict:
        """JSON-ready form."""
        return {
            "tiles": [format_tile(t) for t in self.tiles],
            "connections": [[format_tile(a), s, format_tile(b), t] for a, s, b, t in self.connections()],
            "spinners": [format_tile(t) for t in self.spinners()],
            "attach_points": [[format_tile(t), s, v] for t, s, v in self.attach_points()],
            "counted": [[format_tile(t), e, v] for t, e, v in self.counted()],
            "count": self.count(),
        }
