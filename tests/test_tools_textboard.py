"""Text views of the terminal game: the layout tree, counted ends, scores, seats."""
from __future__ import annotations

import pytest

from rulelang.tools.configs import ToolError
from rulelang.tools.session import _loose_tile, parse_seats
from rulelang.tools.textboard import counted_line, layout_lines, score_lines, tiles_count

TILES = [(1, 4), (1, 1), (4, 4), (3, 4), (1, 2), (1, 5), (5, 5), (0, 5), (1, 3)]
CONNS = [((1, 4), "low", (1, 1), "line-a"), ((1, 4), "high", (4, 4), "line-a"),
         ((4, 4), "line-b", (3, 4), "high"), ((1, 1), "line-b", (1, 2), "low"),
         ((1, 1), "branch-a", (1, 5), "low"), ((1, 5), "high", (5, 5), "line-a"),
         ((5, 5), "line-b", (0, 5), "high"), ((1, 1), "branch-b", (1, 3), "low")]
COUNTED = [((0, 5), "low", 0), ((1, 2), "high", 2), ((1, 3), "high", 3), ((3, 4), "low", 3)]
ATTACH = COUNTED + [((4, 4), "branch-a", 4), ((4, 4), "branch-b", 4),
                    ((5, 5), "branch-a", 5), ((5, 5), "branch-b", 5)]


def test_layout_tree_shows_branches_and_markers():
    lines = layout_lines(TILES, CONNS, [(1, 1), (4, 4), (5, 5)], COUNTED, ATTACH)
    text = "\n".join(lines)
    assert lines[0] == "[1|4]"
    assert "└─ low: [1|1]*" in text
    assert "├─ branch-a: [1|5]" in text and "├─ branch-b: [1|3]" in text
    assert text.count("○ 4") == 2 and text.count("○ 5") == 2
    assert "● 0" in text and "● 2" in text and text.count("● 3") == 2
    # every tile appears exactly once
    for a, b in TILES:
        assert text.count(f"[{a}|{b}]") == 1
    # the branch from [1|1] indents its subtree under it
    i = next(k for k, l in enumerate(lines) if "[5|5]" in l)
    j = next(k for k, l in enumerate(lines) if "[1|5]" in l)
    assert len(lines[i]) - len(lines[i].lstrip("│ ")) > len(lines[j]) - len(lines[j].lstrip("│ "))


def test_terminal_double_and_empty_layout():
    lines = layout_lines([(3, 6), (6, 6)], [((3, 6), "high", (6, 6), "line-a")], [(6, 6)],
                         [((3, 6), "low", 3), ((6, 6), "double", 12)],
                         [((3, 6), "low", 3), ((6, 6), "line-b", 6)])
    assert "[6|6]* ●12" in "\n".join(lines)
    assert layout_lines([], []) == ["(empty layout: the opener leads)"]
    assert counted_line(COUNTED) .startswith("Counted ends: 0 + 2 + 3 + 3 = 8")


def test_scores_shown_and_raw_with_tally():
    lines = score_lines([305, 15], 5, ["seat 0", "seat 1"], tally=True)
    assert "61 shown" in lines[0] and "(305 raw)" in lines[0]
    assert sum(l.count("X") for l in lines) == 6
    raw_only = score_lines([42], 1, ["seat 0"])
    assert "42" in raw_only[0] and "raw" not in raw_only[0] and "shown" not in raw_only[0]


def test_parse_seats():
    assert parse_seats(None, 3) == ["human", "greedy", "greedy"]
    assert parse_seats("0=random,2=human", 3) == ["random", "greedy", "human"]
    for bad in ("0=wizard", "3=human", "0human", "a=human", "0=human,0=greedy"):
        with pytest.raises(ToolError):
            parse_seats(bad, 3)


@pytest.mark.parametrize("text, tile", [("15", (1, 5)), ("[5|1]", (1, 5)), ("1-5", (1, 5)),
                                        ("6 6", (6, 6)), ("17", None), ("x", None)])
def test_loose_tiles(text, tile):
    assert _loose_tile(text) == tile


def test_a_number_of_tiles_is_said_in_the_right_number():
    assert [tiles_count(n) for n in (0, 1, 2)] == ["0 tiles", "1 tile", "2 tiles"]
