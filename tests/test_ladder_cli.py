"""rulelang balance --ladder: the command, its JSON and schema, the HTML, every backend and --resume alike."""
from __future__ import annotations

import json
import random
from importlib import resources

import jsonschema
import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.tools import ladder
from rulelang.tools.configs import load_engine_config

SMALL = ["--ladder", "--link-matches", "6", "--rungs", "random,greedy,pimc:2"]


def run(*args):
    return CliRunner().invoke(main, ["balance", *args])


def schema():
    return json.loads(resources.files("rulelang").joinpath("schema/ladder.schema.json").read_text())


def params(rungs=("random", "greedy", "pimc:2"), matches=6, players=2, vs=False):
    variants = {"a": load_engine_config("exact61")[0]}
    if vs:
        variants["b"] = load_engine_config("bounce61")[0]
    return {"mode": "ladder", "variants": variants, "players": players, "seed": 5, "link_matches": matches,
            "rungs": list(rungs), "bars": [0.6]}


def test_json_has_a_version_and_follows_its_schema():
    r = run("exact61", *SMALL, "--bar", "0.55", "--json")
    assert r.exit_code == 0, r.output
    rep = json.loads(r.stdout)
    jsonschema.validate(rep, schema())
    assert rep["format"] == "rulelang-ladder" and rep["version"] == 1
    v = rep["variants"]["exact61"]
    assert [c["bar"] for c in v["chain"]] == [0.6, 0.55]
    assert v["links"][0]["lower"] == "random" and v["links"][0]["upper"] == "greedy"
    assert v["ratings"][0] == {**v["ratings"][0], "player": "random", "rating": 0.0}


def test_vs_pairs_the_rulesets_and_says_what_changes():
    r = run("exact61", "--vs", "bounce61", *SMALL, "--json")
    assert r.exit_code == 0, r.output
    rep = json.loads(r.stdout)
    jsonschema.validate(rep, schema())
    figures = [row["figure"] for row in rep["comparison"]["rows"]]
    assert figures[0] == "greedy vs random: share" and "coin share" in figures and "chain length at 60%" in figures
    text = run("exact61", "--vs", "bounce61", *SMALL)
    assert text.exit_code == 0 and ("skill-based" in text.output or "no significant difference" in text.output)


def test_the_same_ruleset_twice_differs_in_nothing():
    rep = json.loads(run("exact61", "--vs", "exact61", *SMALL, "--json").stdout)
    for row in rep["comparison"]["rows"]:
        assert row["difference"] == 0 and row["p"] == 1.0 and not row["significant"]


def test_text_and_html(tmp_path):
    page = tmp_path / "ladder.html"
    r = run("exact61", *SMALL, "--html", str(page))
    assert r.exit_code == 0, r.output
    assert "chain length at 60%" in r.output and "coin share" in r.output and "greedy vs random" in r.output
    html = page.read_text()
    assert html.count("<svg") == 2 and 'class="bar"' in html and 'class="ci"' in html and "pimc:2" in html


def test_bad_ladders_are_refused_clearly():
    for args, words in ((["--rungs", "random,wizard"], "unknown player"), (["--rungs", "random"], "at least two"),
                        (["--top", "greedy"], "--top"), (["--rungs", "random,random"], "twice")):
        r = run("exact61", "--ladder", *args)
        assert r.exit_code != 0 and words in r.output and "Traceback" not in r.output


def test_the_same_matches_serially_and_in_processes():
    p = params()
    serial = ladder.climb(p, 2)
    assert serial == ladder.climb(p, 2, jobs=2)
    assert {k[1] for k in serial} <= {"greedy vs random", "pimc:2 vs greedy"}


def test_the_same_matches_on_a_local_dask_cluster():
    pytest.importorskip("distributed")
    p = params(matches=4)
    assert ladder.climb(p, 2) == ladder.climb(p, 2, jobs=2, dask="local")


def test_resume_plays_only_what_is_missing_and_gives_the_same_figures(tmp_path):
    out = tmp_path / "ladder.jsonl"
    whole = run("exact61", *SMALL, "--json")
    first = run("exact61", *SMALL, "--json", "--out", str(out))
    assert first.exit_code == 0 and json.loads(first.stdout) == json.loads(whole.stdout)
    lines = out.read_text().splitlines()
    out.write_text("\n".join(lines[:4]) + "\n" + lines[4][:10])  # interrupted: three matches and a cut line
    again = run("exact61", *SMALL, "--json", "--out", str(out), "--resume")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout) == json.loads(whole.stdout)
    assert "3 matches reused" in again.stderr
    assert run("exact61", *SMALL, "--out", str(out)).exit_code != 0  # exists: needs --resume
    other = run("exact61", *SMALL, "--seed", "9", "--out", str(out), "--resume")
    assert other.exit_code != 0 and "another study" in other.output


def test_partnerships_put_a_rung_on_each_team():
    _data, cfg = load_engine_config("pagat")
    if 4 not in cfg.counts or len(set(cfg.sides_of(4))) != 2:
        pytest.skip("pagat has no partnership game at 4")
    sides_of = list(cfg.sides_of(4))
    specs, focus = ladder.seat_specs(sides_of, 3, "random", "greedy")
    assert [s for s, side in zip(specs, sides_of) if side == focus] == ["greedy", "greedy"]
    rep = json.loads(run("pagat", "-p", "4", "--ladder", "--link-matches", "4", "--rungs", "random,greedy", "--json").stdout)
    assert rep["study"]["partnerships"] and rep["study"]["sides"] == 2


def test_three_sides_report_the_head_to_head_share():
    _data, cfg = load_engine_config("exact61")
    if 3 not in cfg.counts:
        pytest.skip("exact61 is not played by three")
    rep = json.loads(run("exact61", "-p", "3", "--ladder", "--link-matches", "6", "--rungs", "random,greedy", "--json").stdout)
    link = rep["variants"]["exact61"]["links"][0]
    w = link["share"]
    assert rep["study"]["sides"] == 3 and link["head_to_head"] == pytest.approx(2 * w / (1 + w))


def test_a_lottery_through_the_command(monkeypatch):
    """The matches' results replaced by a seeded coin: chain 0-1, coin share near 100%."""
    def coin(params, key, part, index):
        rng = random.Random(f"{part}/{index}")
        return {"key": key, "part": part, "index": index, "focus": index % 2, "winner": rng.randrange(2),
                "finished": True, "rounds": 1, "scores": [0, 0]}

    monkeypatch.setattr(ladder, "play_one", coin)
    r = run("exact61", "--ladder", "--link-matches", "200", "--rungs", "random,greedy,pimc:4,pimc:8", "--json")
    v = json.loads(r.stdout)["variants"]["exact61"]
    assert v["chain"][0]["length"] <= 1 and v["coin_share"]["value"] >= 0.8


def test_the_ladder_benchmark_runs():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    res = subprocess.run([sys.executable, str(root / "bench" / "bench_ladder.py"), "--variants", "exact61", "--link-matches", "2",
                          "--rungs", "random,greedy,pimc:2", "--json"], capture_output=True, text=True, timeout=300, cwd=root)
    assert res.returncode == 0, res.stderr
    rows = json.loads(res.stdout)
    assert rows[0]["link"] == "greedy vs random" and all(r["cpu_per_match"] >= 0 for r in rows)
    assert rows[0]["decisions_per_s"] is None and (len(rows) == 1 or rows[1]["decisions_per_s"] > 0)


def test_jobs_print_the_same_figures():
    one = run("exact61", *SMALL, "--json")
    two = run("exact61", *SMALL, "--json", "--jobs", "2")
    assert one.exit_code == two.exit_code == 0 and json.loads(one.stdout) == json.loads(two.stdout)


def test_the_default_rungs_spend_ten_times_the_playouts_of_the_first_ladders():
    """The first ladders climbed pimc:4, 8, 16, 32; the search rungs now start at 10 times that floor."""
    assert ladder.default_rungs(ladder.DEFAULT_TOP) == ["random", "greedy", "pimc:40", "pimc:80"]
    assert ladder.default_rungs("pimc:320") == ["random", "greedy", "pimc:40", "pimc:80", "pimc:160", "pimc:320"]
    assert ladder.default_rungs("ismcts:1000") == ["random", "greedy", "ismcts:250", "ismcts:500", "ismcts:1000"]
    import click

    balance = main.get_command(click.Context(main), "balance")
    top = next(p for p in balance.params if p.name == "top")
    assert top.default == ladder.DEFAULT_TOP  # the command's default is the ladder's
