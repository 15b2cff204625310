"""rulelang render and the layout geometry: valid SVG, every tile once, never an overlap."""
from __future__ import annotations

import copy
import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cli_run import run
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulelang.cli import main
from rulelang.tools.configs import load_config_dict
from rulelang.tools.geometry import (
    LayoutTree,
    check_no_overlap,
    place_layout,
    random_layout,
    rects_overlap,
)
from rulelang.tools.svg import render_svg, round_svg, svg_tile_rects

SVG_NS = "{http://www.w3.org/2000/svg}"
VARIANTS = ("exact61", "pagat", "allfives")


def _engine():
    from rulelang import interpreter

    return interpreter


def _config(name: str, **doubles):
    data = copy.deepcopy(load_config_dict(name))
    data["doubles"].update(doubles)
    if doubles:
        data["name"] = f"{name}-variant"
    return _engine().Config.from_dict(data)


CONFIGS = {name: _config(name) for name in VARIANTS}
# the most branching a layout can have: every double a spinner, branches open at once
CONFIGS["every-at-once"] = _config("pagat", branching="every", branch_sides="at-once")


def random_round(cfg, players: int, seed: int, stop: int | None):
    """A round of random play, stopped after `stop` placements (None: to its end)."""
    eng = _engine()
    rng = random.Random(seed)
    rnd = eng.Round.deal(cfg, players, rng)
    k = 0
    while not rnd.over and (stop is None or k < stop):
        legal = rnd.legal_moves()
        rnd.play(legal[rng.randrange(len(legal))])
        k += 1
    return rnd


def assert_clean_svg(svg: str, tiles) -> None:
    root = ET.fromstring(svg)  # valid XML
    assert root.tag == SVG_NS + "svg"
    rects = svg_tile_rects(svg)
    labels = [label for label, _ in rects]
    expected = sorted(f"[{a}|{b}]" for a, b in tiles)
    assert sorted(labels) == expected  # every tile exactly once
    assert len(set(labels)) == len(labels)
    for i in range(len(rects)):
        for j in range(i + 1, len(rects)):
            assert not rects_overlap(rects[i][1], rects[j][1]), (rects[i], rects[j])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(sorted(CONFIGS)),
       players=st.sampled_from([2, 3, 4]), stop=st.one_of(st.none(), st.integers(1, 28)))
def test_random_play_layouts_never_overlap(seed, variant, players, stop):
    rnd = random_round(CONFIGS[variant], players, seed, stop)
    svg = round_svg(rnd, title=f"{variant} {seed}")
    assert_clean_svg(svg, rnd.layout.tiles)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), branching=st.sampled_from(["every", "first", "none"]),
       at_once=st.booleans())
def test_full_set_random_layouts_place_without_overlap(seed, branching, at_once):
    tiles, conns, spinners = random_layout(random.Random(seed), branching, at_once)
    tree = LayoutTree.from_connections(tiles, conns, spinners)
    placement = place_layout(tree)
    assert sorted(placement) == sorted(tiles)
    assert check_no_overlap(placement) == []
    assert_clean_svg(render_svg(tree), tiles)


def test_fallback_layout_never_overlaps():
    from rulelang.tools.geometry import _fallback

    for seed in range(200):
        tiles, conns, spinners = random_layout(random.Random(seed), "every", True)
        placement = _fallback(LayoutTree.from_connections(tiles, conns, spinners))
        assert sorted(placement) == sorted(tiles)
        assert check_no_overlap(placement) == []


def test_search_exhaustion_uses_fallback(monkeypatch):
    from rulelang.tools import geometry

    tiles, conns, spinners = random_layout(random.Random(3), "every", True)
    monkeypatch.setattr(geometry, "_search", lambda *a, **k: None)
    placement = geometry.place_layout(LayoutTree.from_connections(tiles, conns, spinners))
    assert placement.method == "fallback"
    assert_clean_svg(render_svg(LayoutTree.from_connections(tiles, conns, spinners), placement=placement), tiles)


DIAGRAM_TILES = [(1, 4), (1, 1), (4, 4), (3, 4), (1, 2), (1, 5), (5, 5), (0, 5), (1, 3)]
DIAGRAM_CONNS = [((1, 4), "low", (1, 1), "line-a"), ((1, 4), "high", (4, 4), "line-a"),
                 ((4, 4), "line-b", (3, 4), "high"), ((1, 1), "line-b", (1, 2), "low"),
                 ((1, 1), "branch-a", (1, 5), "low"), ((1, 5), "high", (5, 5), "line-a"),
                 ((5, 5), "line-b", (0, 5), "high"), ((1, 1), "branch-b", (1, 3), "low")]
DIAGRAM_COUNTED = [((0, 5), "low", 0), ((1, 2), "high", 2), ((1, 3), "high", 3), ((3, 4), "low", 3)]
DIAGRAM_ATTACH = DIAGRAM_COUNTED + [((4, 4), "branch-a", 4), ((4, 4), "branch-b", 4),
                                    ((5, 5), "branch-a", 5), ((5, 5), "branch-b", 5)]


def test_diagram_markers_and_spinner_outline():
    tree = LayoutTree.from_connections(DIAGRAM_TILES, DIAGRAM_CONNS, [(1, 1), (4, 4), (5, 5)])
    svg = render_svg(tree, DIAGRAM_COUNTED, DIAGRAM_ATTACH, title="after [1|3]")
    assert_clean_svg(svg, DIAGRAM_TILES)
    root = ET.fromstring(svg)
    groups = list(root.iter(SVG_NS + "g"))
    counted = [g for g in groups if g.get("class") == "marker counted"]
    hollow = [g for g in groups if g.get("class") == "marker attach"]
    assert sorted(int(g.get("data-value")) for g in counted) == [0, 2, 3, 3]
    assert len(hollow) == 4  # the four open branches count nothing
    spinners = [g.get("data-tile") for g in groups if g.get("class") == "tile spinner"]
    assert sorted(spinners) == ["[1|1]", "[4|4]", "[5|5]"]
    assert "counted ends: 0 + 2 + 3 + 3 = 8" in svg
    assert root.find(f".//{SVG_NS}g[@class='legend']") is not None


def test_terminal_double_counted_once():
    tree = LayoutTree.from_connections([(3, 6), (6, 6)], [((3, 6), "high", (6, 6), "line-a")], [(6, 6)])
    svg = render_svg(tree, [((3, 6), "low", 3), ((6, 6), "double", 12)],
                     [((3, 6), "low", 3), ((6, 6), "line-b", 6)])
    root = ET.fromstring(svg)
    counted = [g for g in root.iter(SVG_NS + "g") if g.get("class") == "marker counted"]
    assert sorted(int(g.get("data-value")) for g in counted) == [3, 12]
    assert not [g for g in root.iter(SVG_NS + "g") if g.get("class") == "marker attach"]


def test_empty_layout_renders():
    svg = render_svg(None, title="nothing yet")
    ET.fromstring(svg)
    assert "(empty layout)" in svg


# ---------------------------------------------------------------------------- the command

def test_render_case_cli(tmp_path):
    out = tmp_path / "case.svg"
    res = CliRunner().invoke(main, ["render", "--case", "pagat-diagram-13", "-o", str(out)])
    if "no conformance case" in res.output:
        pytest.skip("the diagram cases are not there yet")
    assert res.exit_code == 0, res.output
    svg = out.read_text()
    rects = svg_tile_rects(svg)
    assert len(rects) == 9
    assert "counted ends: 0 + 2 + 3 + 3 = 8" in svg


def test_render_case_step_zero_and_bad_step(tmp_path):
    res = CliRunner().invoke(main, ["render", "--case", "pagat-diagram-13", "--step", "0",
                                    "-o", str(tmp_path / "a.svg")])
    if "no conformance case" in res.output:
        pytest.skip("the diagram cases are not there yet")
    assert res.exit_code == 0, res.output
    assert svg_tile_rects((tmp_path / "a.svg").read_text()) == []
    res = CliRunner().invoke(main, ["render", "--case", "pagat-diagram-13", "--step", "99",
                                    "-o", str(tmp_path / "b.svg")])
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert "steps" in res.output


def test_render_case_from_own_file(tmp_path):
    case_file = tmp_path / "one.json"
    case_file.write_text(json.dumps({
        "description": "a small case file for the renderer",
        "ruleset": "allfives",
        "cases": [{
            "id": "render-smoke", "description": "a spinner lead with one branch tile",
            "source": {"text": "rules.md", "where": "2.3"}, "tags": ["layout"], "players": 2,
            "setup": {"hands": [["[5|5]", "[0|1]"], ["[2|5]", "[3|4]"]],
                      "boneyard": ["[0|0]"], "opener": 0},
            "steps": [{"play": "[5|5]"}, {"play": "[2|5] on [5|5] branch-a"}],
        }],
    }))
    out = tmp_path / "o.svg"
    res = CliRunner().invoke(main, ["render", "--case", str(case_file), "-o", str(out)])
    assert res.exit_code == 0, res.output
    svg = out.read_text()
    assert sorted(label for label, _ in svg_tile_rects(svg)) == ["[2|5]", "[5|5]"]


@pytest.mark.parametrize("args, needle", [
    (["render", "-o", "x.svg"], "exactly one of"),
    (["render", "--case", "no-such-case-id", "-o", "x.svg"], "no conformance case"),
    (["render", "--transcript", "missing.json", "-o", "x.svg"], "no such file"),
    (["render", "--case", "missing-dir/none.json", "-o", "x.svg"], "no such file"),
    (["render", "--case", "x", "--turn", "3", "-o", "x.svg"], "--turn goes with --transcript"),
])
def test_render_bad_inputs(tmp_path, monkeypatch, args, needle):
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(main, args)
    assert res.exit_code != 0
    assert needle in res.output
    assert "Traceback" not in res.output


def test_render_round_python_api_writes_file(tmp_path):
    from rulelang.tools.svg import render_round

    rnd = random_round(CONFIGS["allfives"], 2, 12345, 9)
    path = tmp_path / "live.svg"
    text = render_round(rnd, str(path), title="live round")
    assert path.read_text() == text
    assert_clean_svg(text, rnd.layout.tiles)
    counted = [g for g in ET.fromstring(text).iter(SVG_NS + "g") if g.get("class") == "marker counted"]
    assert sum(int(g.get("data-value")) for g in counted) == rnd.layout.count()


def test_render_case_file_colon_id_and_rejected_step(tmp_path):
    case_file = tmp_path / "two.json"
    common = {"source": {"text": "rules.md", "where": "1.1"}, "tags": ["layout"], "players": 2,
              "setup": {"hands": [["[1|4]", "[6|6]"], ["[4|4]", "[0|3]"]], "boneyard": ["[0|0]"], "opener": 0}}
    case_file.write_text(json.dumps({
        "description": "two cases in one file", "ruleset": "pagat",
        "cases": [dict(common, id="first-case", description="a lead", steps=[{"play": "[1|4]"}]),
                  dict(common, id="second-case", description="a lead and a rejected move",
                       steps=[{"play": "[1|4]"}, {"play": "[0|3] on [1|4] low", "reject": "no-match"}])],
    }))
    out = tmp_path / "o.svg"
    res = CliRunner().invoke(main, ["render", "--case", str(case_file), "-o", str(out)])
    assert res.exit_code != 0 and "first-case, second-case" in res.output
    res = CliRunner().invoke(main, ["render", "--case", f"{case_file}:second-case", "-o", str(out)])
    assert res.exit_code == 0, res.output
    svg = out.read_text()
    assert [label for label, _ in svg_tile_rects(svg)] == ["[1|4]"]
    assert "rejected (no-match)" in svg


def _one_case_file(tmp_path, **changes) -> Path:
    case = {"id": "qa-case", "description": "a lead and a placement", "players": 2,
            "setup": {"hands": [["[1|4]", "[6|6]"], ["[4|4]", "[0|3]"]], "boneyard": ["[0|0]"], "opener": 0},
            "steps": [{"play": "[1|4]"}, {"play": "[4|4] on [1|4] high"}]}
    case.update(changes)
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"description": "d", "ruleset": "pagat", "cases": [case]}))
    return path


def test_render_refuses_to_write_over_its_input(game):
    before = game.read_text()
    res = run("render", "--transcript", str(game), "-o", str(game))
    assert res.exit_code == 2 and "input file" in res.output
    assert game.read_text() == before


def test_render_checks_the_output_folder_first(game, tmp_path):
    res = run("render", "--transcript", str(game), "-o", str(tmp_path / "no" / "x.svg"))
    assert res.exit_code == 1 and "no such folder" in res.output


@pytest.mark.parametrize("doc", [{"cases": [1]}, {"description": "d", "ruleset": "pagat", "cases": [{"id": "x"}]}])
def test_render_reports_a_case_file_of_the_wrong_shape(tmp_path, doc):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(doc))
    res = run("render", "--case", str(path), "-o", str(tmp_path / "x.svg"))
    assert res.exit_code == 1 and "not a valid conformance case file" in res.output


@pytest.mark.parametrize("changes, needle", [
    ({"steps": [{"play": 5}]}, "step 1"),
    ({"steps": [{"play": "x"}]}, "step 1"),
    ({"steps": [{"play": "[1|4]"}, {"play": None}]}, "step 2"),
    ({"description": {"a": 1}}, "wrote"),
])
def test_render_a_case_with_malformed_steps(tmp_path, changes, needle):
    res = run("render", "--case", str(_one_case_file(tmp_path, **changes)), "-o", str(tmp_path / "x.svg"))
    assert needle in res.output


def test_render_a_case_file_without_cases(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"cases": []}))
    res = run("render", "--case", str(path), "-o", str(tmp_path / "x.svg"))
    assert res.exit_code == 1 and "holds no case" in res.output


def test_render_a_turn_of_a_transcript_without_turns(tmp_path):
    saved = tmp_path / "g.json"
    assert run("play", "exact61", "--seed", "1", input=f"q\n{saved}\n").exit_code == 0
    res = run("render", "--transcript", str(saved), "--turn", "1", "-o", str(tmp_path / "x.svg"))
    assert res.exit_code == 1 and "no turns" in res.output
    assert run("render", "--transcript", str(saved), "--turn", "0", "-o", str(tmp_path / "x.svg")).exit_code == 0
