"""The playground's game API with the family's newer variants: the sniff's orientation choice, larger sets
(double-nine with six players, double-twelve), and the issue-9 house rules in the event log.

Expected counts are worked from the rule texts (family.md 2.4 examples 3-5 for the sniff); the log lines
are the ones `rulelang play` prints (rulelang/tools/session.py).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

import rulelang
from rulelang.interpreter import replay
from rulelang.playground import create_app  # noqa: E402
from rulelang.tools.svg import svg_tile_rects  # noqa: E402

DATA = Path(__file__).parent / "data" / "playground"


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(str(tmp_path)), base_url="http://127.0.0.1", raise_server_exceptions=False)


def _new(client, **body) -> dict:
    res = client.post("/api/games", json=body)
    assert res.status_code == 201, res.text
    return res.json()


def _move(client, game: dict, move: str) -> dict:
    res = client.post(f"/api/games/{game['id']}/move", json={"move": move})
    assert res.status_code == 200, res.text
    return res.json()


def _rect(svg: str, tile: str) -> tuple[float, float, float, float]:
    return dict(svg_tile_rects(svg))[tile]


def _along(rect: tuple[float, float, float, float]) -> bool:
    """Whether a tile's rectangle lies horizontally (the line of a layout starts horizontal)."""
    x0, y0, x1, y1 = rect
    return (x1 - x0) > (y1 - y0)


def _pips(tile: str) -> tuple[int, int]:
    a, b = re.fullmatch(r"\[(\d+)\|(\d+)\]", tile).groups()  # type: ignore[union-attr]
    return int(a), int(b)


# ---------------------------------------------------------------------------
# the sniff: the holder lays the first double crosswise or endwise
# ---------------------------------------------------------------------------

def test_every_legal_move_says_whether_it_is_endwise(client):
    game = _new(client, variant="allfives", players=2, bots=["greedy"], seed=1)
    assert game["legal"] and all(m["endwise"] is False for m in game["legal"])


def test_the_sniff_on_the_layout_is_two_moves_at_one_point(client):
    # seed 9: greedy leads [0|5]; the human holds [5|5], which fits only on the 5 ([0|5] high)
    game = _new(client, variant="sniff", players=2, bots=["greedy"], seed=9)
    assert [t for t, _r in svg_tile_rects(game["svg"])] == ["[0|5]"]
    cross, end = game["legal"]
    assert (cross["move"], cross["endwise"]) == ("[5|5] on [0|5] high", False)
    assert (end["move"], end["endwise"]) == ("[5|5] on [0|5] high endwise", True)
    assert {(m["tile"], m["target"], m["side"]) for m in game["legal"]} == {("[5|5]", "[0|5]", "high")}
    # family.md 2.4 example 3: crosswise both halves count (0 + 5 + 5 = 10); endwise only its free end (0 + 5)
    assert (cross["points"], end["points"]) == (10, 5)
    # the page's click target: the point of the layout both moves name
    assert re.search(r'<g class="marker \w+" data-tile="\[0\|5\]" data-side="high"', game["svg"])

    played = _move(client, game, end["move"])
    assert any(line.startswith("seat 0 (you) plays [5|5] on [0|5] high endwise: ends 0 + 5 = 5, +1 shown")
               for line in played["log"])
    # drawn in line: the endwise [5|5] lies the way the [0|5] lies
    assert _along(_rect(played["svg"], "[5|5]")) == _along(_rect(played["svg"], "[0|5]"))
    # the replay, of the game and of its downloaded transcript, draws it the same way
    view = client.get(f"/api/games/{game['id']}/replay", params={"turn": 2}).json()
    transcript = client.get(f"/api/games/{game['id']}/transcript").json()
    assert client.post("/api/replay", json={"transcript": transcript, "turn": 2}).json() == view
    assert view["caption"].startswith("turn 2 of ") and "plays [5|5] on [0|5] high endwise" in view["caption"]
    assert _along(_rect(view["svg"], "[5|5]")) == _along(_rect(view["svg"], "[0|5]"))


def test_the_sniff_laid_crosswise_is_drawn_across(client):
    game = _new(client, variant="sniff", players=2, bots=["greedy"], seed=9)
    played = _move(client, game, "[5|5] on [0|5] high")
    assert _along(_rect(played["svg"], "[5|5]")) != _along(_rect(played["svg"], "[0|5]"))
    assert any(line.startswith("seat 0 (you) plays [5|5] on [0|5] high: ends 0 + 10 = 10, +2 shown")
               for line in played["log"])


def test_a_sniff_lead_offers_both_orientations(client):
    # seed 1: the human leads; each double of the hand may lead crosswise or endwise (reading 22: both count the same)
    game = _new(client, variant="sniff", players=2, bots=["greedy"], seed=1)
    leads = {(m["tile"], m["endwise"]): m for m in game["legal"] if m["target"] is None}
    doubles = sorted({t for t, _e in leads if _pips(t)[0] == _pips(t)[1]})
    assert doubles and all((t, False) in leads and (t, True) in leads for t in doubles)
    assert all(leads[(t, False)]["points"] == leads[(t, True)]["points"] for t in doubles)
    assert not any(e for t, e in leads if t not in doubles)  # only a double may be laid endwise
    played = _move(client, game, leads[(doubles[-1], True)]["move"])
    assert played["log"][0] == "Round 1: seat 0 (you) opens (lottery)"  # how the round opened, first
    assert f"seat 0 (you) plays {doubles[-1]} endwise" in played["log"][1]
    assert _along(_rect(played["svg"], doubles[-1]))  # the endwise lead lies along the line


def test_an_endwise_move_of_another_tile_is_refused_with_the_engine_reason(client):
    game = _new(client, variant="sniff", players=2, bots=["greedy"], seed=9)
    res = client.post(f"/api/games/{game['id']}/move", json={"move": "[5|5] on [0|5] low endwise"})
    assert res.status_code == 400 and "illegal move" in res.json()["error"]


# ---------------------------------------------------------------------------
# larger sets: double-nine with six players, double-twelve
# ---------------------------------------------------------------------------

def test_the_analysis_gives_the_player_counts_the_page_offers(client):
    text = client.get("/api/variants/double-nine-six").json()["text"]
    data = client.post("/api/analyse", json={"text": text}).json()
    assert data["ok"] and data["players"] == list(range(2, 11))
    assert client.post("/api/analyse", json={"text": "nonsense"}).json()["players"] is None


def test_double_nine_with_six_players(client):
    game = _new(client, variant="double-nine-six", players=6, bots=["greedy", "random"] * 2 + ["greedy"], seed=3)
    assert game["seats"] == ["you", "greedy", "random", "greedy", "random", "greedy"]
    assert len(game["scores"]) == 6 and [s["name"] for s in game["scores"]][5] == "seat 5 (greedy)"
    assert len(game["hand"]) == 8  # "8 with 6" players; the human has not moved yet
    seen: set[str] = set()
    for _ in range(200):
        seen.update(game["hand"])
        seen.update(t for t, _r in svg_tile_rects(game["svg"]))
        assert all(max(_pips(t)) <= 9 for t in game["hand"])
        if game["over"] or game["round"] > 1:
            break
        game = _move(client, game, game["legal"][0]["move"])
    assert game["round"] > 1 or game["over"]
    assert any(max(_pips(t)) >= 7 for t in seen)  # tiles of the larger set were held and drawn
    assert any(line.startswith("seat 5 (greedy) plays") for line in game["log"])


def test_double_twelve_two_digit_pips(client):
    game = _new(client, text=(DATA / "double-twelve.rules").read_text(encoding="utf-8"), players=12,
                bots=["greedy"] * 11, seed=4)
    assert len(game["scores"]) == 12 and len(game["hand_counts"]) == 12
    tiles = set(game["hand"]) | {t for t, _r in svg_tile_rects(game["svg"])}
    assert all(re.fullmatch(r"\[\d{1,2}\|\d{1,2}\]", t) and max(_pips(t)) <= 12 for t in tiles)
    assert any(max(_pips(t)) >= 10 for t in game["hand"]), game["hand"]
    # a two-digit tile is written in full in the moves, the board and the log
    move = next(m for m in game["legal"] if max(_pips(m["tile"])) >= 10 or max(_pips(m["target"] or "[0|0]")) >= 10)
    assert re.search(rf'<g class="marker \w+" data-tile="{re.escape(move["target"])}" data-side="{move["side"]}"', game["svg"])
    played = _move(client, game, move["move"])
    assert any(line.startswith(f"seat 0 (you) plays {move['move']}:") for line in played["log"])
    assert move["tile"] in dict(svg_tile_rects(played["svg"]))


@pytest.mark.parametrize("players", [13, 1])
def test_player_counts_outside_the_bounds_are_refused(client, players):
    res = client.post("/api/games", json={"variant": "double-nine-six", "players": players, "bots": ["greedy"] * (players - 1)})
    assert res.status_code == 400 and "players" in res.json()["error"]


def test_a_count_the_ruleset_does_not_allow_is_refused(client):
    res = client.post("/api/games", json={"variant": "allfives", "players": 6, "bots": ["greedy"] * 5})
    assert res.status_code == 400 and "not 6" in res.json()["error"]


# ---------------------------------------------------------------------------
# the house rules of family.md sections 3 and 4 in the event log, as `rulelang play` prints them
# ---------------------------------------------------------------------------

def _rounds_of(client, text: str, seed: int, rounds: int = 2) -> dict:
    game = _new(client, text=text, players=4, bots=["greedy"] * 3, seed=seed)
    while not game["over"] and game["round"] <= rounds:
        game = _move(client, game, game["legal"][0]["move"])
    return game


def test_side_out_is_announced_and_the_seat_out_plays_no_more(client):
    game = _rounds_of(client, (DATA / "knock-bonus.rules").read_text(encoding="utf-8"), seed=1)
    log = game["log"]
    said = [k for k, line in enumerate(log) if " goes out; " in line]
    assert said
    for k in said:
        seat = int(log[k].split()[1])
        partner = (seat + 2) % 4
        kind = "you" if partner == 0 else "greedy"
        assert log[k] == (f"seat {seat} ({'you' if seat == 0 else 'greedy'}) goes out; seat {partner} ({kind}) plays on"
                          " (the round ends when both partners go out)")
        assert log[k - 1].startswith("event:") or log[k - 1].startswith(f"seat {seat} ")  # right after its placement
        end = next(j for j in range(k, len(log)) if log[j].startswith("Round "))
        assert not any(line.startswith(f"seat {seat} ") for line in log[k + 1:end])  # skipped: no play, no pass


def test_the_knock_bonus_is_in_the_placement_event(client):
    # "the next player to place scores 1 point per knock": the event of the placement after N passes is N more
    game = _rounds_of(client, (DATA / "knock-bonus.rules").read_text(encoding="utf-8"), seed=1)
    log = game["log"]
    checked = 0
    knocks = 0
    for k, line in enumerate(log):
        if line.startswith("Round "):
            knocks = 0
        elif re.fullmatch(r"seat \d \(\w+\) passes", line):
            knocks += 1
        elif " plays " in line:
            m = re.search(r", \+(\d+)$", line)
            points = int(m.group(1)) if m else 0
            event = log[k + 1] if k + 1 < len(log) else ""
            if knocks and event.startswith("event: placement"):
                assert re.match(rf"event: placement \+{points + knocks} for team ", event), (line, event)
                checked += 1
            knocks = 0
    assert checked >= 2


def test_a_domino_won_by_the_lightest_side_is_credited_in_the_log(client):
    # seed 11: seat 2 goes out, yet the opponents hold fewer pips together and take the domino's settlement
    game = _rounds_of(client, (DATA / "domino-lightest-side.rules").read_text(encoding="utf-8"), seed=11, rounds=1)
    log = game["log"]
    k = next(j for j, line in enumerate(log) if re.fullmatch(r"Round 1 over: seat \d \(\w+\) dominoes\.", line))
    dominoer = int(log[k].split()[4])
    event = log[k - 1]
    assert event.startswith("event: domino +")
    team = int(re.search(r" for team (\d) ", event).group(1))  # type: ignore[union-attr]
    hands = game["last_round"]["hands"]
    totals = [sum(sum(_pips(t)) for t in re.findall(r"\[\d+\|\d+\]", hands[s]) + re.findall(r"\[\d+\|\d+\]", hands[s + 2]))
              for s in (0, 1)]
    assert totals[team] < totals[1 - team]  # the side credited is the lighter one
    assert team != dominoer % 2  # here not the dominoer's side


# ---------------------------------------------------------------------------
# the muggins rule (muggins-claims): a claim with the move, the next opponent's call
# ---------------------------------------------------------------------------

def test_a_claim_below_the_score_is_called_by_the_next_opponent(client):
    # seed 1: the human leads; [5|5] counts 10, two shown points (unit 5). Claiming 1 credits 5 raw and
    # leaves 5 raw missed, which the first opponent after the placer (the greedy bot) calls and takes
    game = _new(client, variant="muggins-claims", players=2, bots=["greedy"], seed=1)
    assert game["claims"] == "muggins" and game["call"] is None and ("[5|5]", 10) in [(m["move"], m["points"]) for m in game["legal"]]
    game = client.post(f"/api/games/{game['id']}/move", json={"move": "[5|5]", "claim": 1}).json()
    log = game["log"][1:]  # after how the round opened
    assert log[:5] == [
        "seat 0 (you) plays [5|5] claim 1: ends 10 = 10, +2 shown (10 raw)",
        "seat 0 (you) claims 1 shown: missed 5 raw, 1 shown",
        "event: placement +1 shown (+5 raw) for seat 0 (you): accepted; score now 1 shown",
        "seat 1 (greedy) calls muggins on seat 0 (you)!",
        "event: call +1 shown (+5 raw) for seat 1 (greedy): accepted; score now 1 shown",
    ]
    assert [s["raw"] for s in game["scores"]] == [5, 5]


def test_an_over_claim_is_taken_as_a_penalty(client):
    game = _new(client, variant="muggins-claims", players=2, bots=["greedy"], seed=1)
    game = client.post(f"/api/games/{game['id']}/move", json={"move": "[5|5] claim 3"}).json()  # the claim in the move
    # 3 shown is more than the 2 scored: nothing is credited, and the caller marks the 15 raw claimed (Foster)
    assert game["log"][0] == "Round 1: seat 0 (you) opens (lottery)"
    assert game["log"][2] == "seat 0 (you) claims 3 shown: more than the score (15 raw, 3 shown claimed)"
    assert game["log"][3:5] == ["seat 1 (greedy) calls muggins on seat 0 (you)!",
                                "event: call +3 shown (+15 raw) for seat 1 (greedy): accepted; score now 3 shown"]


def test_the_human_caller_may_call_or_let_it_go(client):
    game = _new(client, variant="muggins-claims", players=2, bots=["greedy"], seed=1)
    game = client.post(f"/api/games/{game['id']}/move", json={"move": "[5|5]", "claim": 2}).json()
    # the bot placed after the human: the human is the first opponent after it, and may call before moving
    assert game["call"] == {"placer": "seat 1 (greedy)"} and game["your_turn"]
    called = client.post(f"/api/games/{game['id']}/call", json={"call": True}).json()
    # bots claim exactly: the call finds nothing to take (as `rulelang play` says it), and the game goes on
    assert called["log"][-1] == "No muggins (nothing-to-take): seat 1 claimed its points exactly: there is nothing to take."
    assert called["call"] is None and called["legal"] == game["legal"]
    again = client.post(f"/api/games/{game['id']}/call", json={"call": True})
    assert again.status_code == 409 and "no placement you may call on" in again.json()["error"]
    moved = client.post(f"/api/games/{game['id']}/move", json={"move": called["legal"][0]["move"]}).json()
    assert moved["call"] == {"placer": "seat 1 (greedy)"}  # the bot placed again
    let_go = client.post(f"/api/games/{game['id']}/call", json={"call": False}).json()
    assert let_go["call"] is None and let_go["your_turn"]


def test_claims_and_calls_are_refused_clearly(client):
    plain = _new(client, variant="muggins", players=2, bots=["greedy"], seed=1)
    assert plain["claims"] == "none" and plain["call"] is None
    res = client.post(f"/api/games/{plain['id']}/move", json={"move": "[5|5]", "claim": 2})
    assert res.status_code == 400 and "not claimed in this game" in res.json()["error"]
    assert client.post(f"/api/games/{plain['id']}/call", json={"call": True}).status_code == 409
    game = _new(client, variant="muggins-claims", players=2, bots=["greedy"], seed=1)
    for bad in (-1, "2", True, 1.5):
        res = client.post(f"/api/games/{game['id']}/move", json={"move": "[5|5]", "claim": bad})
        assert res.status_code == 400 and "`claim`" in res.json()["error"], bad
    res = client.post(f"/api/games/{game['id']}/move", json={"move": "[5|5] claim 2", "claim": 2})
    assert res.status_code == 400 and "claim once" in res.json()["error"]
    assert client.post(f"/api/games/{game['id']}/call", json={"call": "yes"}).status_code == 400
    assert client.post(f"/api/games/{game['id']}/call", json={"call": True}).status_code == 409  # nobody placed yet


def test_a_whole_muggins_claims_match_replays(client):
    from rulelang.interpreter import replay

    game = _new(client, variant="muggins-claims", players=2, bots=["greedy"], seed=4)
    for k in range(3000):
        if game["over"]:
            break
        if game["call"]:
            game = client.post(f"/api/games/{game['id']}/call", json={"call": k % 2 == 0}).json()
            continue
        m = game["legal"][k % len(game["legal"])]
        game = _move(client, game, m["move"] + f" claim {m['points'] // 5 - k % 2 if m['points'] else 0}")
    assert game["over"]
    assert any("calls muggins" in line for line in game["log"])
    match = replay(client.get(f"/api/games/{game['id']}/transcript").json())
    assert list(match.scores) == [s["raw"] for s in game["scores"]]


def test_under_forfeit_missed_points_are_lost_and_nobody_calls(client):
    text = ('ruleset forfeit "Muggins, missed points lost (test)"\nsource "a test"\nbased on muggins\n'
            "points must be claimed; missed points are lost\n")
    game = _new(client, text=text, players=2, bots=["greedy"], seed=1)
    assert game["claims"] == "forfeit"
    game = client.post(f"/api/games/{game['id']}/move", json={"move": "[5|5]", "claim": 1}).json()
    assert game["log"][1:4] == ["seat 0 (you) plays [5|5] claim 1: ends 10 = 10, +2 shown (10 raw)",
                               "seat 0 (you) claims 1 shown: missed 5 raw, 1 shown",
                               "event: placement +1 shown (+5 raw) for seat 0 (you): accepted; score now 1 shown"]
    assert not any("muggins" in line for line in game["log"]) and game["call"] is None
    assert game["scores"][1]["raw"] == sum(int(m) for m in re.findall(r"for seat 1 \(greedy\).*?\(\+(\d+) raw\)", "\n".join(game["log"])))
    assert client.post(f"/api/games/{game['id']}/call", json={"call": True}).status_code == 409


DRAW_HEAD = 'ruleset h "H"\nsource "a test"\nbased on muggins\n'


DRAW_WHILE_ABLE = DRAW_HEAD + "a player may draw while able to place\n"


def draw_cfg(text: str = DRAW_WHILE_ABLE) -> dict:
    return rulelang.compile_text(text, "h.rules")


def test_the_playground_offers_draw_as_a_button_and_tells_it():
    from rulelang.playground.games import Game

    for seed in range(20):
        game = Game(draw_cfg(), 2, ["greedy"], seed)
        state = game.state("g")
        if state["your_turn"] and state["legal"][-1]["move"] == "draw":
            break
    else:
        pytest.fail("no seed gave the human a draw")
    assert state["legal"][-1]["tile"] is None and state["legal"][-1]["target"] is None
    game.play("draw")
    state = game.state("g")
    assert any("draws a tile instead of placing" in line for line in state["log"])
    replay(game.transcript())  # a match in progress, checked step by step (TranscriptMismatch otherwise)
