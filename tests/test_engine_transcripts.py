"""Transcripts: JSON-ready, replayed exactly, and rejected at the first step that contradicts the rules."""
from __future__ import annotations

import copy
import json
import pathlib

import pytest

from rulelang.interpreter import Match, Round, TranscriptMismatch, load_config, play_match, play_round, replay

HERE = pathlib.Path(__file__).parent
CONFIGS = HERE / "data" / "configs"


def cfg(name):
    return load_config(CONFIGS / f"{name}.json")


@pytest.fixture(scope="module")
def match_t():
    m = play_match(cfg("exact61"), 4, 5, record=True)
    assert m.over
    return json.loads(json.dumps(m.transcript()))


@pytest.fixture(scope="module")
def drawing_match_t():
    """A match with draws and passes in it."""
    for seed in range(100):
        m = play_match(cfg("allfives"), 2, seed, record=True)
        t = json.loads(json.dumps(m.transcript()))
        turns = [tu for r in t["rounds"] for tu in r["turns"]]
        if any(tu["drawn"] for tu in turns) and any(tu["passed"] for tu in turns):
            return t
    pytest.fail("no match with draws and passes")


def test_transcript_shape(match_t):
    t = match_t
    assert t["format"] == "rulelang-transcript/1"
    r0 = t["rounds"][0]
    assert set(r0) == {"deal", "turns", "result"}
    assert set(r0["deal"]) == {"players", "opener", "opening", "hands", "boneyard", "scores", "tiebreak"}
    turn = r0["turns"][1]
    assert set(turn) == {"seat", "passed", "pass_drawn", "drawn", "offered", "move", "counted",
                         "count", "points", "events"}
    assert turn["move"] in turn["offered"]
    assert t["result"]["over"] is True


def test_replay_reproduces(match_t, drawing_match_t):
    for t in (match_t, drawing_match_t):
        m = replay(copy.deepcopy(t))
        assert isinstance(m, Match)
        assert m.transcript() == t


def test_round_transcript_replays():
    rnd = play_round(cfg("pagat"), 3, 9, record=True)
    t = json.loads(json.dumps(rnd.transcript()))
    again = replay(t)
    assert isinstance(again, Round) and again.transcript() == t


def _find(t, pred):
    for i, r in enumerate(t["rounds"]):
        for j, turn in enumerate(r["turns"]):
            if pred(turn):
                return i, j
    raise AssertionError("no such turn")


def _step(t, i, j):
    return sum(len(r["turns"]) for r in t["rounds"][:i]) + j


def test_wrong_points_rejected(match_t):
    t = copy.deepcopy(match_t)
    i, j = _find(t, lambda turn: turn["points"] > 0)
    t["rounds"][i]["turns"][j]["points"] += 5
    with pytest.raises(TranscriptMismatch) as e:
        replay(t)
    assert e.value.step == _step(t, i, j)
    assert e.value.path == f"/rounds/{i}/turns/{j}/points"


def test_illegal_move_rejected(match_t):
    t = copy.deepcopy(match_t)
    i, j = 0, 2
    turn = t["rounds"][i]["turns"][j]
    hand_tile = t["rounds"][i]["deal"]["hands"][turn["seat"]][0]
    turn["move"] = f"{hand_tile} on [6|6] branch-b" if hand_tile != "[6|6]" else "[0|0] on [6|6] line-a"
    with pytest.raises(TranscriptMismatch) as e:
        replay(t)
    assert e.value.step == 2 and e.value.path == "/rounds/0/turns/2/move"


def test_wrong_offered_list_rejected(match_t):
    t = copy.deepcopy(match_t)
    t["rounds"][0]["turns"][3]["offered"].append("[6|6] on [6|6] branch-a")
    with pytest.raises(TranscriptMismatch) as e:
        replay(t)
    assert e.value.step == 3 and e.value.path.startswith("/rounds/0/turns/3/offered")


def test_wrong_draws_rejected(drawing_match_t):
    t = copy.deepcopy(drawing_match_t)
    i, j = _find(t, lambda turn: turn["drawn"])
    t["rounds"][i]["turns"][j]["drawn"] = t["rounds"][i]["turns"][j]["drawn"][:-1]
    with pytest.raises(TranscriptMismatch) as e:
        replay(t)
    assert e.value.step == _step(t, i, j)
    assert e.value.path.startswith(f"/rounds/{i}/turns/{j}/drawn")


def test_wrong_settlement_rejected(match_t):
    t = copy.deepcopy(match_t)
    t["rounds"][0]["result"]["scores"][0] += 5
    with pytest.raises(TranscriptMismatch) as e:
        replay(t)
    assert e.value.path == "/rounds/0/result/scores/0"


def test_wrong_opener_rejected():
    m = play_match(cfg("allfives"), 2, 4, record=True)
    t = json.loads(json.dumps(m.transcript()))
    d = t["rounds"][0]["deal"]
    d["opener"] = 1 - d["opener"]
    with pytest.raises(TranscriptMismatch) as e:
        replay(t)
    assert e.value.path == "/rounds/0/deal/opener" and e.value.step == 0


def test_truncated_transcript_rejected(match_t):
    t = copy.deepcopy(match_t)
    t["rounds"][-1]["turns"].pop()
    with pytest.raises(TranscriptMismatch):
        replay(t)


def test_extra_turn_rejected(match_t):
    t = copy.deepcopy(match_t)
    t["rounds"][0]["turns"].append(t["rounds"][0]["turns"][-1])
    with pytest.raises(TranscriptMismatch) as e:
        replay(t)
    n = len(t["rounds"][0]["turns"]) - 1
    assert e.value.path == f"/rounds/0/turns/{n}"


def test_transcripts_need_recording():
    m = play_match(cfg("allfives"), 2, 4)
    with pytest.raises(ValueError):
        m.transcript()


def test_unfinished_match_replays():
    c = cfg("pagat")
    m = Match(c, 3, 8, record=True)
    for _ in range(40):
        m.play(m.legal_moves()[0])
    t = json.loads(json.dumps(m.transcript()))
    assert t["result"]["over"] is False
    again = replay(t)
    assert again.transcript() == t
    assert again.legal_moves() == m.legal_moves()


def test_annotations_are_ignored(match_t):
    t = copy.deepcopy(match_t)
    t["x-play"] = {"seats": ["human", "random"]}
    t["rounds"][0]["deal"]["x-note"] = "dealt by hand"
    t["rounds"][0]["turns"][0]["x-think-ms"] = 12
    replay(t)


def test_malformed_transcripts_are_mismatches(match_t):
    t = copy.deepcopy(match_t)
    del t["rounds"][1]["deal"]["hands"]
    with pytest.raises(TranscriptMismatch):
        replay(t)
    t = copy.deepcopy(match_t)
    del t["rounds"]
    with pytest.raises(TranscriptMismatch) as e:
        replay(t)
    assert e.value.path == "/deal"  # without rounds it reads as a round transcript
    t = copy.deepcopy(match_t)
    t["rounds"][0]["turns"][0]["move"] = "[9|9]"
    with pytest.raises(TranscriptMismatch) as e:
        replay(t)
    assert e.value.path == "/rounds/0/turns/0/move"
