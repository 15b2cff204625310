"""`replay`, `play` and the playground say how each round opened: the deals thrown in, the fallback used when
nobody holds the opening double and the opening draws, so every tile played has a shown origin."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import rulelang
from rulelang.interpreter import Config, play_match
from rulelang.tools.session import print_replay

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "tests" / "data" / "rulesets" / "house"
RULESETS = [str(p) for p in sorted(HOUSE.glob("*.rules"))] + list(rulelang.bundled_names())
assert len(RULESETS) > 20
TILE = re.compile(r"\[\d+\|\d+\]")


def _config(ruleset: str) -> Config:
    compiled = rulelang.compile_file(ruleset) if ruleset.endswith(".rules") else rulelang.compile_bundled(ruleset)
    return Config.from_dict(compiled)


def _replayed(cfg: Config, players: int, seed: int) -> list[str]:
    m = play_match(cfg, players, seed, record=True)
    lines: list[str] = []
    print_replay(json.loads(json.dumps(m.transcript())), echo=lines.append)
    return lines


def _unexplained(lines: list[str]) -> list[str]:
    """The plays of a tile the output never gave to the seat that plays it (in the same round)."""
    have: dict[int, set[str]] = {}
    bad = []
    for line in lines:
        if line.startswith("=== Round"):
            have = {}
        dealt = re.match(r"\s+seat (\d+) (?:is dealt|draws) (.*)$", line)
        if dealt:
            have.setdefault(int(dealt.group(1)), set()).update(TILE.findall(dealt.group(2)))
        played = re.match(r"Turn \d+: seat (\d+) plays (\[\d+\|\d+\])", line)
        if played and played.group(2) not in have.get(int(played.group(1)), set()):
            bad.append(line)
    return bad


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: Path(r).stem)
def test_every_tile_played_in_a_replay_has_a_shown_origin(ruleset):
    cfg = _config(ruleset)
    players = min(cfg.to_dict()["players"]["counts"])
    for seed in range(3):
        lines = _replayed(cfg, players, seed)
        assert _unexplained(lines) == [], (seed, _unexplained(lines)[:3])


def _seed_with(cfg: Config, found) -> list[str]:
    for seed in range(200):
        lines = _replayed(cfg, 2, seed)
        if any(found(line) for line in lines):
            return lines
    pytest.fail("no such match in 200 seeds")


def test_opening_draws_are_shown_and_the_opener_leads_what_it_drew():
    lines = _seed_with(_config(str(HOUSE / "no-double-draw.rules")), lambda line: "(an opening draw)" in line)
    at = next(i for i, line in enumerate(lines) if "(an opening draw)" in line)
    said = next(line for line in lines[:at] if line.startswith("  nobody holds"))
    assert "`if nobody holds the opening double: each player in turn draws until a double turns up` applies" in said
    opener = next(line for line in lines[at:] if " opens: " in line)
    drawn = TILE.findall(opener)[0]
    assert opener.endswith(f"drew {drawn}, which it leads")
    lead = next(line for line in lines[at:] if line.startswith("Turn "))
    assert f"plays {drawn};" in lead


def test_a_thrown_in_deal_is_shown():
    lines = _seed_with(_config(str(HOUSE / "no-double-redeal.rules")), lambda line: "thrown in" in line)
    at = next(i for i, line in enumerate(lines) if "thrown in" in line)
    assert lines[at] == ("  deal 1 thrown in: nobody holds a double "
                         "(if nobody holds the opening double: the tiles are dealt again)")
    assert lines[at + 1].startswith("    seat 0 was dealt [")


def test_the_fallback_used_is_named():
    lines = _seed_with(_config(str(HOUSE / "no-double-heaviest-hand.rules")),
                       lambda line: line.startswith("  nobody holds"))
    at = next(i for i, line in enumerate(lines) if line.startswith("  nobody holds"))
    assert "`if nobody holds the opening double: the heaviest hand leads` applies" in lines[at]
    assert re.match(r"  seat \d opens: the heaviest hand \(\d+ pips\), any tile$", lines[at + 1])


def test_the_playground_log_says_how_each_round_opened():
    from rulelang.playground.games import Game

    compiled = rulelang.compile_file(HOUSE / "no-double-draw.rules")
    cfg = Config.from_dict(compiled)
    seed = next((seed for seed in range(200)
                 if play_match(cfg, 2, seed, record=True).transcript()["rounds"][0]["deal"].get("opening_draws")),
                None)
    assert seed is not None, "no first round with opening draws in 200 seeds"
    game = Game(compiled, 2, ["greedy"], seed)  # the same deal: the match's generator from the seed
    assert game.log[0].startswith("Round 1: nobody holds a double, so `if nobody holds the opening double: each")
    draws = [line for line in game.log if line.endswith("(an opening draw)")]
    assert draws and all(line.startswith("seat ") for line in draws)
    assert any(" opens: drew [" in line for line in game.log)


def test_the_playground_notes_each_rounds_thrown_in_deals_from_that_round_alone(monkeypatch):
    # the opening note of a round reads that round's deal and the deals thrown in before it, never the whole
    # match's transcript (which grows with every turn played)
    from rulelang.interpreter import Match
    from rulelang.playground.games import Game
    from rulelang.tools.opening import opening_lines, thrown_in_lines

    compiled = rulelang.compile_file(ROOT / "tests" / "data" / "playground" / "three-doubles-redeal.rules")
    cfg = Config.from_dict(compiled)
    whole = Match.transcript
    reads: list[int] = []
    monkeypatch.setattr(Match, "transcript", lambda self: reads.append(1) or whole(self))
    game = Game(compiled, 2, ["greedy"], 1)  # seed 1: deals thrown in before rounds 1 and 4
    while not game.match.over and game.round_no <= 4:
        game.play(game.state("g")["legal"][0]["move"])
    assert reads == []
    monkeypatch.undo()
    rounds = game.match.transcript()["rounds"][:4]
    assert [len(r.get("thrown_in", [])) for r in rounds] == [3, 0, 0, 1]
    assert [game.match.thrown_in(k) for k in range(4)] == [r.get("thrown_in", []) for r in rounds]
    for k, rnd in enumerate(rounds):  # the same words as from the match's transcript
        lines = (thrown_in_lines(cfg, rnd["deal"], k, rnd.get("thrown_in"), game.seat_name, reveal=lambda s: False)
                 + opening_lines(cfg, rnd["deal"], k, game.seat_name, reveal=lambda s: s == 0))
        note = [f"Round {k + 1}: {lines[0].strip()}"] + [line.strip() for line in lines[1:]]
        at = game.log.index(note[0])
        assert game.log[at: at + len(note)] == note


def test_a_deal_thrown_in_for_its_doubles_says_so():
    # `the tiles are dealt again when a hand holds N or more doubles`: the reason given is the hand's doubles,
    # not the no-double fallback, which this ruleset does not state
    lines = _seed_with(_config(str(ROOT / "tests" / "data" / "playground" / "three-doubles-redeal.rules")),
                       lambda line: line.startswith("  deal 1 thrown in"))
    at = next(i for i, line in enumerate(lines) if line.startswith("  deal 1 thrown in"))
    said = re.match(r"  deal 1 thrown in: seat (\d) holds (\d) doubles "
                    r"\(the tiles are dealt again when a hand holds 3 or more doubles\)$", lines[at])
    assert said, lines[at]
    dealt = lines[at + 1 + int(said.group(1))]
    assert dealt.startswith(f"    seat {said.group(1)} was dealt [")
    assert sum(a == b for a, b in re.findall(r"\[(\d+)\|(\d+)\]", dealt)) == int(said.group(2)) >= 3


def test_the_lowest_double_opener_names_the_lowest_double_held():
    cfg = Config.from_dict(rulelang.compile_text(
        'ruleset low "L"\nsource "a test"\nbased on allfives\nopener of the first round: the lowest double\n',
        "low.rules"))
    lines = _replayed(cfg, 2, 0)
    dealt = [TILE.findall(line) for line in lines[:lines.index(next(x for x in lines if x.startswith("Turn ")))]
             if re.match(r"\s+seat \d is dealt", line)]
    lowest = min(int(t[1]) for hand in dealt for t in hand if t[1] == t[3])
    assert f"opens: holds the lowest double, [{lowest}|{lowest}]" in "\n".join(lines)


def test_the_seat_holding_too_many_doubles_is_named_as_the_caller_names_seats():
    from rulelang.tools.opening import thrown_in_lines

    cfg = _config(str(ROOT / "tests" / "data" / "playground" / "three-doubles-redeal.rules"))
    deal = {"opener": 0, "opening": "highest-double", "hands": []}
    thrown = [{"hands": [["[0|1]"], ["[0|0]", "[1|1]", "[2|2]"]]}]
    lines = thrown_in_lines(cfg, deal, 0, thrown, name=lambda s: f"player {s + 1}")
    assert lines[0].startswith("deal 1 thrown in: player 2 holds 3 doubles")
