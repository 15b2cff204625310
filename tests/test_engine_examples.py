"""The worked examples of the source texts, played through the engine.

The eleven diagram positions of seeds/002_… are in tests/data/engine/diagrams_002.json
(extracted from the text; a test re-extracts them when the seed is at hand).
Each position is rebuilt by placing its tiles, in the diagram's order, from an
explicit deal, and checked tile by tile: connections, branching doubles, legal
attach points, counted contributions, sum, raw and shown points.
"""
from __future__ import annotations

import json
import pathlib
import re

import pytest

from rulelang.interpreter import Move, Round, format_tile, load_config, round5, rules_of

HERE = pathlib.Path(__file__).parent
CONFIGS = HERE / "data" / "configs"
DIAGRAMS = json.loads((HERE / "data" / "engine" / "diagrams_002.json").read_text(encoding="utf-8"))
POSITIONS = DIAGRAMS["positions"]
SEED_002 = HERE.parent.parent / "shared" / "seeds" / "002_3366514e5877c9ef.txt"

ALL_TILES = [(a, b) for a in range(7) for b in range(a, 7)]


def cfg(name):
    return load_config(CONFIGS / f"{name}.json")


def build(config, moves, players=2, extra=None, opener=0, scores=None, record=True, opening="lottery"):
    """A round in which the seats, in turn from `opener`, make `moves` (canonical notation).

    Each seat is dealt the tiles it plays plus one spare tile, so no hand runs out;
    the rest of the set is the boneyard."""
    moves = [Move.parse(m) if isinstance(m, str) else m for m in moves]
    hands = [[] for _ in range(players)]
    for i, m in enumerate(moves):
        hands[(opener + i) % players].append(m.tile)
    used = {t for h in hands for t in h}
    spares = [t for t in (extra or [(6, 6), (5, 6), (4, 6), (2, 6)]) if t not in used]
    for seat in range(players):
        hands[seat].append(spares[seat])
    used |= set(spares[:players])
    bone = [t for t in ALL_TILES if t not in used]
    # opening "lottery": the opener is given, so the lead is free even where it is forced
    rnd = Round(config, players, hands, bone, opener, scores=scores, record=record, opening=opening)
    turns = []
    for m in moves:
        assert m in rnd.legal_moves(), (str(m), [str(x) for x in rnd.legal_moves()])
        turns.append(rnd.play(m))
    return rnd, turns


def diagram_moves(pos):
    """The placements that build a diagram position, from its tiles and connections."""
    parent = {c[2]: c for c in pos["connections"]}
    moves = [pos["tiles"][0]]
    for t in pos["tiles"][1:]:
        p_tile, p_side, _, _ = parent[t]
        moves.append(f"{t} on {p_tile} {p_side}")
    return moves


def test_diagram_data_found():
    assert len(POSITIONS) == 11
    assert [p["placed"] for p in POSITIONS] == [
        "[1|2]", "[1|5]", "[0|5]", "[1|3]", "[4|4]", "[3|4]", "[2|2]", "[1|4]", "[1|1]", "[6|6]", "[0|0]"]


@pytest.mark.skipif(not SEED_002.exists(), reason="the seed texts are not at hand")
def test_diagram_data_matches_the_seed_text():
    """The JSON file is exactly what the source text says (re-extracted here)."""
    text = SEED_002.read_text(encoding="utf-8")
    side = {"extremidade de menor valor": "low", "extremidade de maior valor": "high",
            "linha A": "line-a", "linha B": "line-b", "ramo A": "branch-a", "ramo B": "branch-b"}
    T = r"\[\d\|\d\]"
    blocks = re.findall(r"Peça colocada (" + T + r")\n.*?\n(Contribuições contadas: [^\n]*)", text)
    assert len(blocks) == 11
    for (placed, line), pos in zip(blocks, POSITIONS):
        assert placed == pos["placed"]
        assert f"Acréscimo pela colocação: {pos['raw']} pontos brutos" in line
        cx = re.findall(r"(" + T + r") \(([^)]*)\) – (" + T + r") \(([^)]*)\)", line)
        assert [[a, side[b], c, side[e]] for a, b, c, e in cx] == pos["connections"]
        ap = re.search(r"Pontos de encaixe legais para continuação: (.*?)\. Contribuições", line).group(1)
        assert [[a, side[b], int(v)] for a, b, v in re.findall(r"(" + T + r") \(([^,]*), (\d+)\)", ap)] \
            == pos["attach_points"]


@pytest.mark.parametrize("pos", POSITIONS, ids=[f"{i:02d}-{p['placed']}" for i, p in enumerate(POSITIONS)])
def test_diagram_position(pos):
    rnd, turns = build(cfg(DIAGRAMS["config"]), diagram_moves(pos))
    lay = rnd.layout
    fmt = format_tile
    assert [fmt(t) for t in lay.tiles] == pos["tiles"]
    assert [fmt(t) for t in lay.spinners()] == pos["spinners"]
    assert [[fmt(a), s, fmt(b), t] for a, s, b, t in lay.connections()] == pos["connections"]
    assert [[fmt(t), s, v] for t, s, v in lay.attach_points()] == pos["attach_points"]
    assert [[fmt(t), v] for t, _, v in lay.counted()] == pos["counted"]
    assert lay.count() == pos["sum"]
    last = turns[-1]
    assert fmt(last.move.tile) == pos["placed"]
    assert last.count == pos["sum"]
    assert last.points == pos["raw"]
    assert last.points // 5 == pos["shown"]
    # the attach points are exactly where a tile may go: the legal moves of a hand holding every tile
    offered = {(m.target, m.side) for m in _all_placements(rnd)}
    assert offered == {(t, s) for t, s, _ in lay.attach_points()}


def _all_placements(rnd):
    """Every (target, side) some unplayed tile could take, by brute force over the set."""
    out = []
    on = set(rnd.layout.tiles)
    for t in ALL_TILES:
        if t in on:
            continue
        for tile, side, v in rnd.layout.attach_points():
            if v in t:
                out.append(Move(t, tile, side))
    return out


def test_counted_ends_name_the_end():
    rnd, _ = build(cfg("pagat"), ["[1|4]"])
    assert rnd.layout.counted() == [((1, 4), "high", 4), ((1, 4), "low", 1)]
    rnd, _ = build(cfg("pagat"), ["[1|4]", "[1|1] on [1|4] low"])
    assert rnd.layout.counted() == [((1, 1), "double", 2), ((1, 4), "high", 4)]


# -- the prose examples ----------------------------------------------------------------------


def test_exact61_terminal_six_six_and_an_end_of_three():
    """000: a terminal double counts 12; with another end of 3 the sum is 15, 3 shown."""
    rnd, turns = build(cfg("exact61"), ["[3|6]", "[6|6] on [3|6] high"])
    assert turns[-1].count == 15 and turns[-1].points == 15
    assert turns[-1].events[0].shown == 3
    # once its in-line sides are occupied it no longer adds 12 by itself
    rnd.play("[5|6] on [6|6] line-b")
    assert rnd.layout.count() == 3 + 5
    assert rnd.layout.counted() == [((3, 6), "low", 3), ((5, 6), "low", 5)]


@pytest.mark.parametrize("total,raw,shown", [(20, 20, 4), (15, 15, 3), (12, 0, 0), (17, 0, 0), (0, 0, 0)])
def test_sums_and_points(total, raw, shown):
    """000/002: 20 is 4 shown, 15 is 3 shown; 12 and 17 (and 0) earn nothing."""
    rnd, _ = build(cfg("exact61"), ["[0|0]"])
    assert rules_of(rnd.config).score(total) == raw
    assert raw // 5 == shown


@pytest.mark.parametrize("x,r", [(0, 0), (1, 0), (2, 0), (3, 5), (4, 5), (5, 5), (12, 10), (13, 15), (6, 5), (8, 10)])
def test_round5(x, r):
    assert round5(x) == r


@pytest.mark.parametrize("before,move,after", [
    # 004: "Pontas 5 e 3: você joga 3|0 no 3 ... somam 5"
    (["[3|5]"], "[0|3] on [3|5] low", 5),
    # "Pontas 6 e 1: você joga 1|4 no 1 ... somam 10"
    (["[1|6]"], "[1|4] on [1|6] low", 10),
    # "Pontas 4 e 3: você joga a bucha 3|3 no 3 ... somam 10"
    (["[3|4]"], "[3|3] on [3|4] low", 10),
    # "Pontas 6 e 2: você joga 2|5 no 2 ... somam 11 ... não marca nada"
    (["[2|6]"], "[2|5] on [2|6] low", 0),
])
def test_allfives_end_sums(before, move, after):
    rnd, turns = build(cfg("allfives"), before + [move], extra=[(6, 6), (5, 5), (4, 4), (0, 0)])
    assert turns[-1].points == after
    if after == 0:
        assert turns[-1].count == 11


def test_allfives_five_five_lead_is_worth_ten():
    """004: "um 5|5 abre valendo 10 pontos" (the highest double leads, forced)."""
    c = cfg("allfives")
    hands = [[(5, 5), (0, 1), (0, 2)], [(1, 2), (1, 3), (2, 3)]]
    bone = [t for t in ALL_TILES if t not in hands[0] + hands[1]]
    rnd = Round(c, 2, hands, bone, record=True)
    assert rnd.opener == 0 and rnd.legal_moves() == [Move((5, 5))]
    turn = rnd.play("[5|5]")
    assert turn.points == 10 and rnd.scores == [10, 0]


def test_allfives_spinner_counts_while_in_line_free():
    """rules.md 2.3: a spinner lead with one tile on branch-a counts 2p plus that tile's end."""
    rnd, turns = build(cfg("allfives"), ["[5|5]", "[0|5] on [5|5] branch-a"], extra=[(6, 6), (4, 4)])
    assert turns[-1].count == 10
    assert rnd.layout.counted() == [((0, 5), "low", 0), ((5, 5), "double", 10)]
    # later doubles are not spinners: [0|0] on [0|5] has no branches
    rnd.play("[0|0] on [0|5] low")
    assert rnd.layout.spinners() == [(5, 5)]
    assert rnd.layout.count() == 10 + 0


def test_pagat_partner_hands_are_rounded_separately():
    """002: "Se cada parceiro tiver 3 pontos brutos restantes ... a dupla perde 2 pontos exibidos"."""
    c = cfg("pagat")
    # seat 0 leads [4|6] (10 points) and has no tile left: a domino at once.
    rnd = Round(c, 4, [[(4, 6)], [(0, 3)], [(5, 6)], [(1, 2)]], [], 0, record=True)
    rnd.play("[4|6]")
    assert rnd.over and rnd.result.kind == "domino"
    # team 1 (seats 1 and 3) hold 3 + 3 pips: -5 and -5 raw (2 shown); team 0's partner 11 -> -10
    assert rnd.scores == [10 - 10, -10]
    kinds = [(e.side, e.raw, e.seat) for e in rnd.result.settlement]
    # per-hand, ascending pips, ties clockwise from the opener: seat 1 (3), seat 3 (3), seat 2 (11)
    assert kinds == [(1, -5, 1), (1, -5, 3), (0, -10, 2)]
    assert rnd.shown_scores == [0, -2]
