"""The playground's HTTP API through Starlette's TestClient: every endpoint, with oversized and
malformed requests and attempts to leave the workspace."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from rulelang.cli import main  # noqa: E402
from rulelang.playground import create_app  # noqa: E402
from rulelang.playground.games import GameStore  # noqa: E402
from rulelang.playground.limits import MAX_BODY, MAX_TEXT  # noqa: E402

DATA = Path(__file__).parent / "data" / "playground"


def _text(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "club.rules").write_text(_text("club.rules"), encoding="utf-8")
    return ws


@pytest.fixture
def client(workspace: Path) -> TestClient:
    return TestClient(create_app(str(workspace)), base_url="http://127.0.0.1", raise_server_exceptions=False)


def _cli(*args: str) -> str:
    return CliRunner().invoke(main, list(args), catch_exceptions=False).output


# ---------------------------------------------------------------------------
# the page and the language
# ---------------------------------------------------------------------------

def test_page_and_bundle_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert '<div id="editor">' in page.text and "/static/playground.js" in page.text
    js = client.get("/static/playground.js")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"] and len(js.content) > 10_000
    assert client.get("/static/playground.css").status_code == 200


def test_the_bundle_names_its_third_party_code():
    # playground-src/build.sh bundles the script and writes the notices of what it bundled beside it
    static = Path(__file__).parent.parent / "rulelang" / "playground" / "static"
    assert "@codemirror/view" in (static / "THIRD-PARTY.txt").read_text(encoding="utf-8")


def test_requests_for_another_host_are_refused(client):
    # a DNS-rebinding page names its own host: the playground answers only this machine's names
    assert client.get("/api/words", headers={"host": "evil.example"}).status_code == 400
    assert client.get("/api/words", headers={"host": "localhost:8765"}).status_code == 200


def test_words_give_keywords_and_statement_starts(client):
    data = client.get("/api/words").json()
    assert {"ruleset", "based", "target", "players", "winner"} <= set(data["keywords"])
    labels = [s["label"] for s in data["starts"]]
    assert "based on allfives" in labels and "on domino:" in labels
    assert all(s["detail"] for s in data["starts"])


def test_variants_and_their_texts(client):
    data = client.get("/api/variants").json()
    names = [v["name"] for v in data["variants"]]
    assert names == sorted(names) and {"allfives", "pagat", "exact61"} <= set(names)
    assert set(data["bots"]) >= {"random", "greedy"}
    text = client.get("/api/variants/pagat").json()["text"]
    assert text.startswith("ruleset pagat") or "ruleset pagat" in text
    missing = client.get("/api/variants/nope")
    assert missing.status_code == 404 and "nope" in missing.json()["error"]


def test_analyse_valid_text_explains_as_the_command_does(client):
    text = client.get("/api/variants/exact61").json()["text"]
    data = client.post("/api/analyse", json={"text": text}).json()
    assert data["ok"] and data["diagnostics"] == [] and data["name"] == "exact61"
    assert data["explain"] == _cli("explain", "exact61")
    assert data["base"] is None and data["diff"] == [] and data["inherited"] == []


def test_analyse_reports_what_check_reports(client, workspace, monkeypatch):
    data = client.post("/api/analyse", json={"text": _text("club-typo.rules"), "path": "typo.rules"}).json()
    assert not data["ok"]
    [d] = data["diagnostics"]
    assert (d["code"], d["line"], d["column"], d["end_column"]) == ("unexpected-word", 5, 11, 15)
    assert d["hint"] == "did you mean `least`?"
    (workspace / "typo.rules").write_text(_text("club-typo.rules"), encoding="utf-8")
    monkeypatch.chdir(workspace)
    assert d["rendered"] in _cli("check", "typo.rules")


def test_analyse_based_on_gives_diff_and_inherited(client):
    data = client.post("/api/analyse", json={"text": _text("club.rules")}).json()
    assert data["ok"] and data["base"] == "allfives"
    assert data["diff"] == [{"what": "the target", "base": "A side wins by reaching at least 150 points.",
                             "here": "A side wins by reaching at least 100 points."}]
    assert data["inherited"] and all("100" not in s for s in data["inherited"])
    assert "(from allfives)" in data["explain"]


def test_based_on_a_workspace_file(client):
    data = client.post("/api/analyse", json={"text": _text("based-on-file.rules")}).json()
    assert data["ok"], data["diagnostics"]
    assert data["base"] == "club.rules"
    assert [d["what"] for d in data["diff"]] == ["the target"]


@pytest.mark.parametrize("ref", ["../outside/base.rules", "/etc/hostname", "link/base.rules"])
def test_based_on_outside_the_workspace_is_refused(client, workspace, tmp_path, ref):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "base.rules").write_text(_text("club.rules"), encoding="utf-8")
    os.symlink(outside, workspace / "link")
    text = _text("based-outside.rules").replace("../outside/base.rules", ref)
    [d] = client.post("/api/analyse", json={"text": text}).json()["diagnostics"]
    assert d["code"] == "outside-workspace" and d["line"] == 3 and ref in d["message"]


def _based_on(ref: str) -> str:
    return _text("based-outside.rules").replace("../outside/base.rules", ref)


def test_a_base_of_a_base_outside_is_refused_at_the_text(client, workspace, tmp_path):
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "base.rules").write_text(_text("club.rules"), encoding="utf-8")
    (workspace / "middle.rules").write_text(_based_on("../outside/base.rules"), encoding="utf-8")
    [d] = client.post("/api/analyse", json={"text": _based_on("middle.rules")}).json()["diagnostics"]
    assert (d["code"], d["line"], d["column"]) == ("outside-workspace", 3, 1)
    assert "(in middle.rules)" in d["message"] and d["rendered"].startswith("untitled.rules:3:1: ")


def test_base_chains_bounded_cycles_named(client, workspace):
    from rulelang.playground.adapter import MAX_BASE_BYTES, MAX_BASE_DEPTH

    for k in range(MAX_BASE_DEPTH + 1):
        (workspace / f"b{k}.rules").write_text(_based_on(f"b{k + 1}.rules"), encoding="utf-8")
    [d] = client.post("/api/analyse", json={"text": _based_on("b0.rules")}).json()["diagnostics"]
    assert d["code"] == "base-too-deep" and d["line"] == 3
    (workspace / "x.rules").write_text(_based_on("y.rules"), encoding="utf-8")
    (workspace / "y.rules").write_text(_based_on("x.rules"), encoding="utf-8")
    codes = {d["code"] for d in client.post("/api/analyse", json={"text": _based_on("x.rules")}).json()["diagnostics"]}
    assert codes == {"base-cycle"}
    (workspace / "big.rules").write_text("#" * (MAX_BASE_BYTES + 1), encoding="utf-8")
    [d] = client.post("/api/analyse", json={"text": _based_on("big.rules")}).json()["diagnostics"]
    assert d["code"] == "base-too-large"


def test_format(client):
    data = client.post("/api/format", json={"text": _text("club-unformatted.rules")}).json()
    assert data["changed"]
    again = client.post("/api/format", json={"text": data["text"]}).json()
    assert again == {"text": data["text"], "changed": False}
    bad = client.post("/api/format", json={"text": _text("club-typo.rules")})
    assert bad.status_code == 422
    assert bad.json()["diagnostics"][0]["code"] == "unexpected-word" and "fix the errors" in bad.json()["error"]


# ---------------------------------------------------------------------------
# limits: sizes, malformed requests, and errors as messages
# ---------------------------------------------------------------------------

def test_oversized_body_is_413(client):
    res = client.post("/api/analyse", content=b'{"text": "' + b"x" * (MAX_BODY + 10) + b'"}',
                      headers={"content-type": "application/json"})
    assert res.status_code == 413 and "too large" in res.json()["error"]


def test_oversized_body_without_length_is_413(client):
    def chunks():
        yield b'{"text": "'
        for _ in range(MAX_BODY // 1024 + 2):
            yield b"x" * 1024
        yield b'"}'

    res = client.post("/api/analyse", content=chunks(), headers={"content-type": "application/json"})
    assert res.status_code == 413


def test_oversized_text_is_413(client):
    res = client.post("/api/analyse", json={"text": "#" * (MAX_TEXT + 1)})
    assert res.status_code == 413 and "too long" in res.json()["error"]


@pytest.mark.parametrize("body, ctype, status", [
    (b"{not json", "application/json", 400),
    (b"[1, 2]", "application/json", 400),
    (b'{"text": 5}', "application/json", 400),
    (b'{"nothing": "here"}', "application/json", 400),
    (b"\xff\xfe", "application/json", 400),
    (b'{"text": "x"}', "text/plain", 415),
])
def test_malformed_requests(client, body, ctype, status):
    for url in ("/api/analyse", "/api/format", "/api/games", "/sheet"):
        res = client.post(url, content=body, headers={"content-type": ctype})
        assert res.status_code == status, url
        assert "Traceback" not in res.text and res.text.strip()


def test_unknown_route_and_method(client):
    assert client.get("/api/nothing").json() == {"error": "not found"}
    assert client.get("/api/analyse").status_code == 405


def test_an_unexpected_failure_is_a_message_without_trace(client, monkeypatch):
    from rulelang.playground import adapter

    def boom(*args, **kwargs):
        raise RuntimeError("secret detail")

    monkeypatch.setattr(adapter, "analyse_text", boom)
    res = client.post("/api/analyse", json={"text": "x"})
    assert res.status_code == 500
    assert "internal error" in res.json()["error"] and "secret" not in res.text and "Traceback" not in res.text


# ---------------------------------------------------------------------------
# the workspace
# ---------------------------------------------------------------------------

def test_workspace_save_list_open(client, workspace):
    res = client.put("/api/file", json={"path": "mine.rules", "text": _text("club.rules")})
    assert res.json() == {"path": "mine.rules", "saved": True}
    (workspace / "sub").mkdir()
    assert client.put("/api/file", json={"path": "sub/b.rules", "text": "# b\n"}).status_code == 200
    assert client.get("/api/files").json()["files"] == ["club.rules", "mine.rules", "sub/b.rules"]
    assert client.get("/api/file", params={"path": "mine.rules"}).json()["text"] == _text("club.rules")
    assert client.get("/api/file", params={"path": "gone.rules"}).status_code == 404


@pytest.mark.parametrize("name", [
    "../escape.rules", "sub/../../escape.rules", "/tmp/escape.rules", "..\\escape.rules", ".hidden.rules",
    "notes.txt", "", "a" * 300 + ".rules", "c:/x.rules", "nul\x00.rules", "link/escape.rules",
])
def test_paths_outside_the_workspace_are_refused(client, workspace, tmp_path, name):
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, workspace / "link")
    for res in (client.put("/api/file", json={"path": name, "text": "# x\n"}),
                client.get("/api/file", params={"path": name})):
        assert res.status_code == 400, name
        assert res.json()["error"]
    assert list(outside.iterdir()) == [] and not (tmp_path / "escape.rules").exists()


def test_listing_skips_links_out(client, workspace, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.rules").write_text("# secret\n", encoding="utf-8")
    os.symlink(outside, workspace / "link")
    os.symlink(outside / "secret.rules", workspace / "alias.rules")
    assert client.get("/api/files").json()["files"] == ["club.rules"]
    assert client.get("/api/file", params={"path": "alias.rules"}).status_code == 400


def test_listing_is_bounded_in_depth(client, workspace):
    deep = workspace / "a" / "b" / "c" / "d"
    deep.mkdir(parents=True)
    (workspace / "a" / "b" / "c" / "shallow.rules").write_text("#\n", encoding="utf-8")
    (deep / "deep.rules").write_text("#\n", encoding="utf-8")
    (workspace / "node_modules").mkdir()
    (workspace / "node_modules" / "x.rules").write_text("#\n", encoding="utf-8")
    assert client.get("/api/files").json()["files"] == ["a/b/c/shallow.rules", "club.rules"]
    assert client.get("/api/file", params={"path": "a/b/c/d/deep.rules"}).json()["text"] == "#\n"


def test_saving_needs_a_text_within_bounds(client):
    assert client.put("/api/file", json={"path": "a.rules"}).status_code == 400
    assert client.put("/api/file", json={"path": "a.rules", "text": "#" * (MAX_TEXT + 1)}).status_code == 413
    assert client.put("/api/file", json={"path": "nofolder/a.rules", "text": "#\n"}).status_code == 400


# ---------------------------------------------------------------------------
# games
# ---------------------------------------------------------------------------

def _play_out(client, game: dict, limit: int = 2000) -> dict:
    for _ in range(limit):
        if game["over"]:
            return game
        assert game["your_turn"] and game["legal"]
        res = client.post(f"/api/games/{game['id']}/move", json={"move": game["legal"][0]["move"]})
        assert res.status_code == 200, res.text
        game = res.json()
    raise AssertionError("the match did not end")


def test_a_whole_match_against_bots_and_its_transcript(client, tmp_path):
    res = client.post("/api/games", json={"variant": "allfives", "players": 3, "bots": ["random", "greedy"], "seed": 7})
    assert res.status_code == 201
    game = res.json()
    assert game["seats"] == ["you", "random", "greedy"] and len(game["scores"]) == 3
    assert game["svg"].startswith("<?xml") and game["hand"]
    assert all(m["tile"] in game["hand"] for m in game["legal"])
    game = _play_out(client, game)
    assert game["winner"] and game["legal"] == [] and any("over" in line for line in game["log"])
    res = client.get(f"/api/games/{game['id']}/transcript")
    assert "attachment" in res.headers["content-disposition"]
    from rulelang.interpreter import replay

    match = replay(res.json())
    assert match.over and list(match.scores) == [s["raw"] for s in game["scores"]]
    saved = tmp_path / "game.json"
    saved.write_bytes(res.content)
    assert CliRunner().invoke(main, ["replay", str(saved)]).exit_code == 0
    assert client.post(f"/api/games/{game['id']}/move", json={"move": "[0|0]"}).status_code == 409


def test_replay_a_game_turn_by_turn(client):
    game = client.post("/api/games", json={"variant": "pagat", "players": 2, "bots": ["greedy"], "seed": 5}).json()
    for _ in range(3):
        game = client.post(f"/api/games/{game['id']}/move", json={"move": game["legal"][0]["move"]}).json()
    last = client.get(f"/api/games/{game['id']}/replay").json()
    assert last["turn"] == last["turns"] >= 3 and last["svg"].startswith("<?xml")
    first = client.get(f"/api/games/{game['id']}/replay", params={"turn": 1}).json()
    assert first["turn"] == 1 and first["caption"].startswith(f"turn 1 of {last['turns']} (round 1): seat ")
    assert client.get(f"/api/games/{game['id']}/replay", params={"turn": 0}).json()["caption"] == "before the first turn"
    for bad in ("x", "-1", str(last["turns"] + 1)):
        res = client.get(f"/api/games/{game['id']}/replay", params={"turn": bad})
        assert res.status_code == 400 and res.json()["error"], bad


def test_replay_an_uploaded_transcript(client):
    game = client.post("/api/games", json={"variant": "allfives", "players": 2, "bots": ["random"], "seed": 2}).json()
    game = client.post(f"/api/games/{game['id']}/move", json={"move": game["legal"][0]["move"]}).json()
    transcript = client.get(f"/api/games/{game['id']}/transcript").json()
    view = client.post("/api/replay", json={"transcript": transcript, "turn": 1}).json()
    assert view["turn"] == 1 and "<svg" in view["svg"]
    turns = transcript["rounds"][0]["turns"]
    turns[0]["points"] = turns[0]["points"] + 5  # a transcript that contradicts the rules
    res = client.post("/api/replay", json={"transcript": transcript})
    assert res.status_code == 400 and "contradicts the rules" in res.json()["error"]
    for bad in ({"transcript": [1]}, {"transcript": {"config": 1, "rounds": "x"}}, {"turn": 1},
                {"transcript": transcript, "turn": "one"}):
        res = client.post("/api/replay", json=bad)
        assert res.status_code == 400 and res.json()["error"], bad


def test_uploaded_transcripts_are_bounded(client):
    from rulelang.playground.limits import MAX_TRANSCRIPT

    res = client.post("/api/replay", content=b'{"transcript": "' + b"x" * MAX_TRANSCRIPT + b'"}',
                      headers={"content-type": "application/json"})
    assert res.status_code == 413


def test_a_game_of_the_editor_text(client):
    res = client.post("/api/games", json={"text": _text("club.rules"), "players": 2, "bots": ["greedy"]})
    assert res.status_code == 201 and res.json()["name"] == "club"
    assert "100" in res.json()["target"]


def test_game_state_and_illegal_moves(client):
    game = client.post("/api/games", json={"variant": "pagat", "players": 2, "bots": ["random"], "seed": 3}).json()
    again = client.get(f"/api/games/{game['id']}").json()
    assert again["hand"] == game["hand"] and again["legal"] == game["legal"]
    not_mine = next(t for t in ("[0|0]", "[0|1]", "[0|2]", "[1|1]") if t not in game["hand"])
    res = client.post(f"/api/games/{game['id']}/move", json={"move": not_mine})
    assert res.status_code == 400 and "not-in-hand" in res.json()["error"]
    for bad in ("nonsense", 5, None, "x" * 200):
        res = client.post(f"/api/games/{game['id']}/move", json={"move": bad})
        assert res.status_code == 400 and res.json()["error"]
    assert client.get(f"/api/games/{game['id']}").json()["hand"] == game["hand"]


@pytest.mark.parametrize("body, status", [
    ({"variant": "nope"}, 404),
    ({"variant": "allfives", "players": 5}, 400),
    ({"variant": "allfives", "players": "two"}, 400),
    ({"variant": "allfives", "players": 2, "bots": ["clever"]}, 400),
    ({"variant": "allfives", "players": 3, "bots": ["greedy"]}, 400),
    ({"variant": "allfives", "bots": "greedy"}, 400),
    ({"variant": "allfives", "seed": -1}, 400),
    ({"text": "ruleset x \"X\"\n"}, 422),
])
def test_bad_game_requests(client, body, status):
    res = client.post("/api/games", json=body)
    assert res.status_code == status, res.text
    assert res.json()["error"]


def test_unknown_and_deleted_games(client):
    assert client.get("/api/games/nope").status_code == 404
    assert client.post("/api/games/nope/move", json={"move": "[1|1]"}).status_code == 404
    assert client.get("/api/games/nope/transcript").status_code == 404
    game = client.post("/api/games", json={"variant": "allfives"}).json()
    assert client.delete(f"/api/games/{game['id']}").json() == {"deleted": True}
    assert client.get(f"/api/games/{game['id']}").status_code == 404
    assert client.delete(f"/api/games/{game['id']}").status_code == 404


def test_games_are_bounded_and_expire(client):
    store = client.app.state.games
    store.limit = 2
    ids = [client.post("/api/games", json={"variant": "allfives", "seed": s}).json()["id"] for s in range(3)]
    assert client.get(f"/api/games/{ids[0]}").status_code == 404  # the least recently used made room
    assert client.get(f"/api/games/{ids[2]}").status_code == 200
    store.idle = -1  # every game is now idle too long
    assert client.get(f"/api/games/{ids[2]}").status_code == 404
    assert store.games == {}


def test_store_keeps_recently_used_games():
    store = GameStore(limit=2, idle=3600)

    class Fake:
        def __init__(self) -> None:
            self.used = time.monotonic()

    a, b = store.add(Fake()), store.add(Fake())  # type: ignore[arg-type]
    store.get(a)
    store.add(Fake())  # type: ignore[arg-type]
    assert a in store.games and b not in store.games


# ---------------------------------------------------------------------------
# diagrams and the rules sheet
# ---------------------------------------------------------------------------

def test_cases_listed_and_drawn(client):
    cases = client.get("/api/cases").json()["cases"]
    ids = [c["id"] for c in cases]
    assert len(ids) > 100 and len(ids) == len(set(ids))
    case = next(c for c in cases if c["steps"] >= 2)
    full = client.get(f"/api/cases/{case['id']}/svg")
    assert full.status_code == 200 and full.headers["content-type"].startswith("image/svg+xml")
    assert f"case {case['id']}, after step {case['steps']} of {case['steps']}" in full.text
    first = client.get(f"/api/cases/{case['id']}/svg", params={"step": 0})
    assert "after step 0 of" in first.text


def test_every_case_is_drawn(client):
    for case in client.get("/api/cases").json()["cases"]:
        res = client.get(f"/api/cases/{case['id']}/svg")
        assert res.status_code == 200, (case["id"], res.text)


@pytest.mark.parametrize("case, params, status", [
    ("no-such-case", {}, 404),
    ("..%2F..%2Fetc%2Fpasswd", {}, 404),
    ("pagat-diagram-13", {"step": "x"}, 400),
    ("pagat-diagram-13", {"step": "999"}, 400),
])
def test_bad_case_requests(client, case, params, status):
    ids = {c["id"] for c in client.get("/api/cases").json()["cases"]}
    if status != 404 and case not in ids:
        pytest.skip(f"{case} is not in the suite")
    res = client.get(f"/api/cases/{case}/svg", params=params)
    assert res.status_code == status and res.json()["error"]


def test_sheet_of_a_variant(client):
    res = client.get("/sheet", params={"variant": "exact61"})
    assert res.status_code == 200 and "text/html" in res.headers["content-type"]
    html = res.text
    assert "<title>Exact 61 Five Up: rules sheet</title>" in html and "@media print" in html
    assert '<table class="scoring">' in html and "<svg" in html and "The counted ends:" in html
    assert "exactly 61 shown points" in html


def test_a_sheet_and_a_game_for_every_bundled_variant(client):
    for v in client.get("/api/variants").json()["variants"]:
        res = client.get("/sheet", params={"variant": v["name"]})
        assert res.status_code == 200 and "The counted ends:" in res.text, v["name"]
        game = client.post("/api/games", json={"variant": v["name"], "players": 4, "bots": ["random", "greedy", "random"]})
        assert game.status_code == 201 and len(game.json()["hand_counts"]) == 4, v["name"]


def test_sheet_of_the_editor_text_marks_inherited_rules(client):
    res = client.post("/sheet", json={"text": _text("club.rules")})
    assert res.status_code == 200
    assert "Based on allfives" in res.text and 'class="inherited"' in res.text and "at least 100 points" in res.text


def test_sheet_scores_as_the_engine_does_whatever_the_formula(client):
    """Fives and Threes scores a count per multiple of 5 and of 3: 15 is 3 + 5 = 8 points, 6 is 2."""
    html = client.get("/sheet", params={"variant": "fives-and-threes"}).text
    assert "<tr><td>15</td><td>8</td></tr>" in html and "<tr><td>6</td><td>2</td></tr>" in html
    assert "it must be a multiple of 5 or 3" in html
    face = client.get("/sheet", params={"variant": "threes-and-fives"}).text  # face value: 15 counts twice
    assert "<tr><td>15</td><td>30</td></tr>" in face


def test_sheet_of_a_game_without_scoring_in_play(client):
    res = client.get("/sheet", params={"variant": "allfives-draw"})
    assert res.status_code == 200 and "Placements score nothing" in res.text


def test_sheet_errors(client):
    assert client.get("/sheet", params={"variant": "nope"}).status_code == 404
    res = client.post("/sheet", json={"text": _text("club-typo.rules")})
    assert res.status_code == 422 and "fix them" in res.text and "Traceback" not in res.text


# ---------------------------------------------------------------------------
# the command
# ---------------------------------------------------------------------------

def test_serve_without_the_extra_says_what_to_install(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "uvicorn", None)
    res = CliRunner().invoke(main, ["serve"])
    assert res.exit_code == 1 and "pip install 'rulelang[serve]'" in res.output


def test_serve_needs_an_existing_workspace(tmp_path):
    res = CliRunner().invoke(main, ["serve", "--workspace", str(tmp_path / "missing")])
    assert res.exit_code == 1 and "no such folder" in res.output


def _listening_socket():
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    return s


def test_serve_starts_uvicorn_on_localhost(monkeypatch, tmp_path):
    import uvicorn

    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(kw, app=app))
    with _listening_socket() as s:
        port = s.getsockname()[1]
    res = CliRunner().invoke(main, ["serve", "--port", str(port), "--workspace", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert seen["host"] == "127.0.0.1" and seen["port"] == port
    assert f"http://127.0.0.1:{port}/" in res.output
    assert json.dumps(seen["app"].state.workspace.root.name) == json.dumps(tmp_path.name)


def test_serve_on_a_port_in_use_says_so():
    with _listening_socket() as s:
        port = s.getsockname()[1]
        res = CliRunner().invoke(main, ["serve", "--port", str(port)])
    assert res.exit_code == 1 and f"cannot listen on 127.0.0.1:{port}" in res.output and "--port" in res.output
