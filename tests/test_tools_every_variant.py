"""`play`, `simulate` and `render` work for every bundled variant, at its fewest and most players.

For each: `simulate -n 3` exits 0; a bots-only `play --save` plays the match to its end and `render
--transcript` draws tiles of an early and of the last layout (double-nine tiles at 10 players, the sniff
laid either way); a person at seat 0 who answers the first legal move (and `n` when asked to call
"muggins") plays several turns and quits cleanly.
"""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

import rulelang
from rulelang.cli import main
from rulelang.tools.svg import svg_tile_rects

runner = CliRunner()


def _cases() -> list[tuple[str, int]]:
    out = []
    for name in rulelang.bundled_names():
        counts = rulelang.compile_bundled(name)["players"]["counts"]
        out += [(name, n) for n in sorted({counts[0], counts[-1]})]
    return out


CASES = _cases()


@pytest.mark.parametrize("name, players", CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_simulate_play_and_render(name, players, tmp_path):
    res = runner.invoke(main, ["simulate", "-n", "3", "-p", str(players), name])
    assert res.exit_code == 0, res.output
    saved = tmp_path / "game.json"
    seats = ",".join(f"{s}=greedy" for s in range(players))
    res = runner.invoke(main, ["play", name, "-p", str(players), "--seed", "7", "--seat", seats,
                               "--save", str(saved)], input="")
    assert res.exit_code == 0, res.output
    assert "Match over:" in res.output and "Transcript saved to" in res.output
    for turn in (["--turn", "3"], []):
        svg = tmp_path / "layout.svg"
        res = runner.invoke(main, ["render", "--transcript", str(saved), "-o", str(svg), *turn])
        assert res.exit_code == 0, res.output
        labels = [label for label, _ in svg_tile_rects(svg.read_text(encoding="utf-8"))]
        assert labels and all(re.fullmatch(r"\[\d+\|\d+\]", label) for label in labels), labels
        if turn:
            assert len(labels) == 3


@pytest.mark.parametrize("name, players", CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_a_person_plays_first_legal_moves(name, players):
    # "n" answers a call prompt (and is a bad move, asked again); "1" is the first legal move
    res = runner.invoke(main, ["play", name, "-p", str(players), "--seed", "3"], input="n\n1\n" * 30 + "q\n\n")
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    assert "Game stopped (you quit)" in res.output or "Match over:" in res.output
    assert len(re.findall(r"Turn \d+: seat 0 \(you\) plays", res.output)) >= 3, res.output[-2000:]
