"""What a seat sees, checked by meaning (PROTOCOL.md 2.1): a hidden tile in any notation, under any key, fails.

The runner works out what the seat may know from the case (the hand it states, the
table of its moves), never from the answer, so a tile added to the answer's own
`layout.tiles` or `hand` is caught in a case that does not state that key, and a tile
written `[b|a]`, `[a | b]`, `a|b`, `[a,b]`, as a list of two numbers or as a domino
character is read as the tile it names.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rulelang.conformance import builtin, cases, runner
from rulelang.conformance.compare import compare
from rulelang.conformance.hidden import named_tiles, tables
from rulelang.conformance.protocol import InProcessEngine

LINT = cases.lint()
OBSERVATION = cases.select(LINT.cases, tags=["observation"])
LEAK = "no tile outside the seat's hand and the layout"


def _hidden(case: dict[str, Any], step: int) -> list[str]:
    """The tiles the observing seat may not know at STEP: dealt, not in its hand, not on the case's table."""
    table = tables(case)[step]
    hand = case["steps"][step]["expect"]["hand"]
    setup = case["setup"]
    return [t for t in [t for h in setup["hands"] for t in h] + list(setup["boneyard"])
            if t not in hand and t not in table]


Change = Callable[[dict[str, Any], list[str]], bool]  # (view, hidden tiles) -> True when it leaked one


def _failed(change: Change) -> tuple[dict[str, Any], set[str]]:
    """The cases a built-in engine whose views are changed by CHANGE (a deliberately leaky engine) fails, with
    their differences, and the cases where it leaked."""
    by_id = {c.id: c.data for c in OBSERVATION}
    leaked: set[str] = set()

    def run_case(request: dict[str, Any]) -> dict[str, Any]:
        result = builtin.run_case(request)
        for k, (step, answer) in enumerate(zip(request["steps"], result["steps"], strict=True)):
            if "observe" in step and answer.get("reject") is None and change(answer, _hidden(by_id[request["id"]], k)):
                leaked.add(request["id"])
        return result

    engine = InProcessEngine(run_case, builtin.implementation(), builtin.capabilities())
    result = runner.run(engine, OBSERVATION, expected_failures={})
    return {r.case.id: r.difference for r in result.results if r.outcome == "fail"}, leaked


def _halves(tile: str) -> tuple[int, int]:
    a, b = tile.strip("[]").split("|")
    return int(a), int(b)


NOTATIONS: dict[str, Callable[[str], Any]] = {
    "canonical": lambda t: t,
    "high-half-first": lambda t: f"[{_halves(t)[1]}|{_halves(t)[0]}]",
    "spaced": lambda t: f"[{_halves(t)[0]} | {_halves(t)[1]}]",
    "bare": lambda t: f"seat 1 holds {_halves(t)[0]}|{_halves(t)[1]}",
    "comma-text": lambda t: f"[{_halves(t)[0]},{_halves(t)[1]}]",
    "pair": lambda t: list(_halves(t)),
    "list-of-pairs": lambda t: [list(_halves(t))],
    "domino-horizontal": lambda t: chr(0x1F031 + 7 * _halves(t)[0] + _halves(t)[1]),
    "domino-vertical": lambda t: chr(0x1F063 + 7 * _halves(t)[1] + _halves(t)[0]),
}


@pytest.mark.parametrize("notation", sorted(NOTATIONS))
def test_a_hidden_tile_in_any_notation_fails_every_view(notation):
    write = NOTATIONS[notation]

    def leak(view: dict[str, Any], hidden: list[str]) -> bool:
        if notation.startswith("domino"):  # the characters name the double-six set's tiles only
            hidden = [t for t in hidden if max(_halves(t)) <= 6]
        if hidden:
            view["x-debug"] = {"next": write(hidden[0])}
        return bool(hidden)

    failed, leaked = _failed(leak)
    assert leaked and set(failed) == leaked
    assert all(d.expected == LEAK and ".x-debug" in d.path for d in failed.values())


def test_a_hidden_tile_added_to_the_layout_fails_where_the_case_does_not_state_the_layout():
    def onto_the_table(view: dict[str, Any], hidden: list[str]) -> bool:
        view["layout"]["tiles"].append(hidden[0])
        return True

    unstated = {c.id for c in OBSERVATION if any("observe" in s and "reject" not in s and "layout" not in s["expect"]
                                                 for s in c.data["steps"])}
    assert unstated, "every view states its layout: the check is not exercised"
    failed, leaked = _failed(onto_the_table)
    assert set(failed) == leaked and unstated <= leaked
    # at the tile added: as a leak, or as a longer layout than the case states at an earlier view
    assert all(".layout.tiles[" in failed[i].path for i in unstated)
    assert any(failed[i].expected == LEAK for i in unstated)


def test_a_hidden_tile_added_to_the_hand_fails():
    def into_the_hand(view: dict[str, Any], hidden: list[str]) -> bool:
        view["hand"] = sorted([*view["hand"], hidden[0]])
        return True

    failed, leaked = _failed(into_the_hand)
    assert leaked and set(failed) == leaked


def test_scores_and_move_points_are_numbers_not_tiles():
    view = {"hand": ["[1|2]"], "scores": [3, 4], "shown_scores": [0, 1], "move_points": [5, 6], "count": 5}
    assert list(named_tiles(view, "$")) == [("$.hand[0]", "[1|2]")]
    assert [t for _, t in named_tiles({"x": {"scores": [3, 4]}}, "$")] == ["[3|4]"]  # elsewhere a pair is a tile


def test_the_notations_read_as_the_tile_they_name():
    view = {"a": "[5|2]", "b": "2 | 5", "c": "\U0001F044", "d": "\U0001F088", "e": [[2, 5]], "f": "[2, 5]",
            "g": "[10|12]", "h": "[19|2] 123|4", "i": "[18|13]"}  # halves up to 18: the double-eighteen set
    assert [t for _, t in named_tiles(view, "$")] == ["[2|5]"] * 6 + ["[10|12]", "[13|18]"]


def test_the_table_is_the_case_moves_of_the_round():
    steps = [{"play": "[3|4]", "expect": {}}, {"play": "[1|2] on [3|4] low", "reject": "no-match"},
             {"play": "[4|6] on [3|4] high", "expect": {"round": {"kind": "domino"}}},
             {"observe": 0, "expect": {"hand": []}}, {"play": "[5|5]", "expect": {}}]
    assert tables({"steps": steps}) == [frozenset(), {"[3|4]"}, {"[3|4]"}, frozenset(), frozenset()]


def test_a_view_of_a_later_round_does_not_know_the_last_rounds_table():
    steps = [{"play": "[3|4]", "expect": {"round": {"kind": "domino"}}}, {"observe": 1, "expect": {"hand": ["[0|0]"]}}]
    view = {"reject": None, "hand": ["[0|0]"], "layout": {"tiles": []}, "x": "[3|4]"}
    diff = compare({"steps": steps}, {"steps": [{"reject": None, "round": {"kind": "domino"}}, view]})
    assert diff is not None and (diff.path, diff.got) == ("$.steps[1].x", "[3|4]")


def test_the_lint_requires_an_applied_view_to_state_the_hand(tmp_path):
    case = dict(OBSERVATION[0].data)
    case["steps"] = [{"observe": 0, "expect": {"count": 0}} if "observe" in s and "reject" not in s else s
                     for s in case["steps"]]
    folder = tmp_path / "cases" / OBSERVATION[0].variant
    folder.mkdir(parents=True)
    import json
    (folder / "views.json").write_text(json.dumps({"description": "a view without its hand",
                                                    "ruleset": OBSERVATION[0].ruleset, "cases": [case]}))
    errors = cases.lint(tmp_path / "cases").errors
    assert any("without stating its hand" in e for e in errors), errors
