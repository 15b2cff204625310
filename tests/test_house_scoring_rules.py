"""Scoring rules of the published texts: settlement per tile, in another unit, as a net; calling muggins; misplays.

Each statement compiles to its field (and existing configurations stay without
it), `fmt` gives it back, `explain` says it, the engine plays it as the
conformance cases of `muggins/house-scoring.json` and
`muggins/house-claims.json` work it out, and a bad value gives its
error. Penalties for misplays are outside the language (an `outside-language`
error naming the rule).
"""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulelang
from rulelang import compile_text
from rulelang.cli import main
from rulelang.interpreter import IllegalMove, Round, as_config, play_match, random_player, replay
from rulelang.interpreter.claims import set_miss_rate
from rulelang.interpreter.settlement import settle
from rulelang.interpreter.tiles import parse_tile
from rulelang.language.formatter import format_text

TEXTS = Path(__file__).parent / "data" / "rulesets" / "house" / "texts"
HEAD = 'ruleset house "House"\nsource "s"\nbased on muggins\n'
RAW = HEAD + "points are shown raw\ntarget at least 305 points\n"
runner = CliRunner()


def compiled(body: str, head: str = HEAD) -> dict:
    return compile_text(head + body)


def block(line: str, head: str = HEAD) -> str:
    return head + f"on block:\n  winner: the lightest hand, ties not broken\n  {line}\n  as one event\n"


def masks(*hands: list[str]) -> list[int]:
    from rulelang.interpreter.tiles import TILES
    index = {t: i for i, t in enumerate(TILES)}
    return [sum(1 << index[parse_tile(t)] for t in h) for h in hands]


# -- the statements: compile, fmt, explain ------------------------------------------------------

TERMS = [
    ("credit opponents' hands pooled, 5 points per tile, to the winner",
     {"kind": "tiles", "hands": "opponents", "pooling": "pooled", "per_tile": 5, "to": "winner", "sign": "credit"},
     "Each tile left in the opponents' hands counts 5 points, whatever its pips; the total is credited to the "
     "winner's side."),
    ("debit own hand separately, 1 point per tile, from the winner",
     {"kind": "tiles", "hands": "own", "pooling": "each", "per_tile": 1, "to": "winner", "sign": "debit"},
     "Each tile left in the winner's own hand counts 1 point, whatever its pips; each hand's amount is deducted "
     "from the winner's side."),
    ("credit opponents' hands separately, rounded to 5 and divided by 5, to the winner",
     {"kind": "hands", "hands": "opponents", "pooling": "each", "rounding": "round5", "divisor": 5, "to": "winner",
      "sign": "credit"},
     "each hand rounded separately to the nearest 5 and then divided by 5"),
    ("credit the heaviest opponent's hand only, rounded to 5 and divided by 5, to the winner",
     {"kind": "heaviest", "rounding": "round5", "divisor": 5, "to": "winner", "sign": "credit"},
     "rounded to the nearest 5 and then divided by 5"),
    ("credit opponents' hands minus own hand, rounded to 5, to the winner",
     {"kind": "net", "rounding": "round5", "to": "winner", "sign": "credit"},
     "minus the winner's own remaining pips, the net rounded once to the nearest 5"),
]


@pytest.mark.parametrize(("line", "term", "said"), TERMS, ids=[t[1]["kind"] for t in TERMS])
def test_a_term_compiles_formats_and_explains(line, term, said, tmp_path):
    text = block(line, RAW if "divided" in line or "1 point" in line else HEAD)
    config = compile_text(text)
    assert config["settlement"]["block"]["terms"] == [term]
    assert rulelang.validate_config(config) == []
    assert format_text(text) == format_text(format_text(text))
    assert line in format_text(text)
    path = tmp_path / "t.rules"
    path.write_text(text, encoding="utf-8")
    res = runner.invoke(main, ["explain", str(path)])
    assert res.exit_code == 0 and said in res.output, res.output


def test_existing_configurations_have_no_new_field():
    for name in rulelang.bundled_names():
        config = rulelang.compile_bundled(name)
        for end in ("domino", "block"):
            for term in config["settlement"][end]["terms"]:
                assert "divisor" not in term and term["kind"] in ("hands", "differences", "heaviest"), name
        assert config.get("claims", "none") in ("none", "muggins", "forfeit"), name


@pytest.mark.parametrize(("text", "code", "words"), [
    (block("credit opponents' hands pooled, rounded to 5 and divided by 2, to the winner", RAW), "bad-division",
     "cannot be divided by 2"),
    (block("credit opponents' hands pooled, rounded to 5 and divided by 1, to the winner", RAW), "bad-division",
     "divided by 1"),
    (block("credit opponents' hands pooled, 0 points per tile, to the winner"), "bad-number", "0 points"),
    (block("credit opponents' hands pooled, 3 points per tile, to the winner"), "unit-mismatch", "per tile"),
    (block("credit opponents' hands pooled, rounded to 5 and divided by 5, to the winner"), "unit-mismatch",
     "shown raw"),
    (block("credit opponents' hands pooled, 5 points per tile, to each owner"), "pooled-to-owner", "no single owner"),
])
def test_bad_values_give_their_errors(text, code, words):
    errors = rulelang.check_text(text, "t.rules")
    assert [e.code for e in errors] == [code], [e.render() for e in errors]
    assert words in errors[0].message + (errors[0].hint or "")


# -- the engine: settlement ------------------------------------------------------------------------

def test_per_tile_counts_tiles_not_pips():
    spec = compiled("on domino:\n  credit opponents' hands separately, 5 points per tile, to the winner\n"
                    "  one event per hand\n")["settlement"]["domino"]
    hands = masks([], ["[6|6]", "[5|5]"], ["[0|0]"])
    assert settle(spec, hands, [0, 1, 2], 0, 0) == [(0, 5, 2), (0, 10, 1)]  # lightest hand first: 0 pips, 22 pips


def test_divided_and_net_amounts():
    divided = compiled("on domino:\n  credit opponents' hands pooled, rounded to 5 and divided by 5, to the winner\n"
                       "  as one event\n", RAW)["settlement"]["domino"]
    assert settle(divided, masks([], ["[6|6]", "[5|6]", "[0|4]"]), [0, 1], 0, 0) == [(0, 5, 0)]  # 27 -> 25 -> 5
    net = compiled(block("credit opponents' hands minus own hand, rounded to 5, to the winner")[len(HEAD):])
    spec = net["settlement"]["block"]
    three = masks(["[1|2]"], ["[2|4]", "[0|3]"], ["[3|5]", "[1|4]"])  # 3, 9 and 13 pips
    assert settle(spec, three, [0, 1, 2], 0, 0) == [(0, 20, 0)]  # 22 - 3 = 19, rounded once: 20 (not 20 - 5)
    # a net of 0 or less gives nothing; so does a round without a winner
    assert settle(spec, masks(["[6|6]"], ["[1|2]"], ["[0|1]"]), [0, 1, 2], 0, 0) == []
    assert settle(spec, three, [0, 1, 2], 0, None) == []


# -- the engine: calling muggins ------------------------------------------------------------------

ANY = HEAD + "points must be claimed; missed points go to any opponent who calls\n"
LOST = HEAD + "points must be claimed; missed points are lost only when an opponent calls\n"
THREE = [["[5|5]", "[1|1]"], ["[0|5]", "[0|1]"], ["[0|2]", "[2|4]"]]


def rnd(text: str, hands=THREE, scores=None, opener: int = 0) -> Round:
    return Round(as_config(compile_text(text)), len(hands), hands, [], opener=opener, scores=scores, record=True)


def test_the_statements_compile_fmt_and_explain(tmp_path):
    for text, value, said in [(ANY, "any-opponent", "any opponent may call muggins: his side takes"),
                              (LOST, "lost-if-called", "Without a call they stay with the player")]:
        assert compile_text(text)["claims"] == value
        assert format_text(text) == format_text(format_text(text))
        path = tmp_path / "t.rules"
        path.write_text(text, encoding="utf-8")
        res = runner.invoke(main, ["explain", str(path)])
        assert res.exit_code == 0 and said in res.output, res.output


def test_any_opponent_may_call_and_the_first_call_takes_it():
    r = rnd(ANY)
    r.play("[5|5] claim 0")
    assert r.observation(2)["call"] == {"placer": 0, "caller": 1, "amount": 10, "callers": [1, 2]}
    assert r.observation(0)["call"]["amount"] is None  # the placer does not see what a call takes
    with pytest.raises(IllegalMove) as exc:
        r.call(0)
    assert exc.value.code == "not-caller"
    assert [(e.side, e.kind, e.raw, e.seat) for e in r.call(2)] == [(2, "call", 10, 2)]
    with pytest.raises(IllegalMove) as exc:
        r.call(1)
    assert exc.value.code == "late-call"
    r = rnd(ANY)
    r.play("[5|5] claim 0")
    assert r.call()[0].seat == 1  # without a seat: the first opponent in turn order after the placer


def test_a_partner_may_not_call():
    text = ANY.replace("based on muggins\n", "based on muggins\nplayers 2 to 4, partnerships with 4\n")
    hands = [["[5|5]", "[1|1]"], ["[0|5]", "[0|1]"], ["[0|2]", "[2|4]"], ["[3|3]", "[1|3]"]]
    r = rnd(text, hands)
    r.play("[5|5] claim 0")
    assert r.observation(3)["call"]["callers"] == [1, 3]
    with pytest.raises(IllegalMove) as exc:
        r.call(2)
    assert exc.value.code == "not-caller"
    assert r.call(3)[0].side == 1  # seat 3 plays for the side of seats 1 and 3


def test_bots_call_in_turn_order():
    def leads_five_five_claiming_nothing(obs, legal):
        move = next((m for m in legal if str(m).startswith("[5|5]")), legal[0])
        return replace(move, claim=0)

    cfg = as_config(compile_text(ANY))
    for first_calls, caller in ((True, 1), (False, 2)):
        bots = [leads_five_five_claiming_nothing, random_player(2), random_player(3)]
        bots[1].calls = first_calls  # the first opponent in turn order calls, else the next one does
        r = Round(cfg, 3, THREE, [], opener=0, record=True)
        r.run(bots)
        assert r.turns[0].call is not None and r.turns[0].call[0] == caller


def test_lost_if_called_a_call_forfeits_and_no_call_keeps():
    r = rnd(LOST)
    r.play("[5|5] claim 0")
    assert r.call(2) == [] and r.scores == [0, 0, 0]  # forfeited: the caller takes nothing
    turn = r.play("[0|5] on [5|5] line-a claim 1")
    assert [(e.side, e.raw) for e in turn.events] == [(1, 5)]
    turn = r.play("[0|2] on [0|5] low claim 0")  # the chance has closed: seat 1 keeps its missed 5
    assert [(e.side, e.kind, e.raw, e.seat) for e in turn.events] == [(1, "placement", 5, 1)]
    assert r.scores == [0, 10, 0]


def test_lost_if_called_an_over_claim_keeps_the_score_unless_called():
    r = rnd(LOST)
    r.play("[5|5] claim 3")  # 15 claimed for 10: nothing at once
    assert r.scores == [0, 0, 0]
    r.play("[0|5] on [5|5] line-a claim 2")
    assert r.scores == [10, 10, 0]  # seat 0 keeps its score, then seat 1 scores its own


def test_lost_if_called_at_the_round_end_and_at_the_target():
    r = rnd(LOST, [["[0|5]", "[5|5]"], ["[1|1]", "[2|2]"]])
    r.play("[0|5] claim 1")
    r.play("[5|5] on [0|5] high claim 0")  # the last tile: no call can come, the whole 10 stay with the player
    assert r.over and r.scores[0] == 5 + 10 + 5  # 5 claimed, then 5 kept, the placement's 10, the domino's 5
    r = rnd(LOST, scores=[300, 0, 0])
    r.play("[5|5] claim 0")
    turn = r.play("[0|5] on [5|5] line-a claim 2")  # seat 0's kept 10 reach the target before seat 1 scores
    assert r.over and r.winner == 0 and [(e.side, e.raw) for e in turn.events] == [(0, 10)]


@pytest.mark.parametrize("text", [ANY, LOST], ids=["any-opponent", "lost-if-called"])
def test_matches_record_and_replay(text):
    cfg = as_config(compile_text(text))
    bots = [set_miss_rate(random_player(s), 0.5, s) for s in range(3)]
    m = play_match(cfg, 3, 7, bots=bots, record=True, max_rounds=3)
    replay(json.loads(json.dumps(m.transcript())))


# -- the house rulesets of the published texts ------------------------------------------------------

@pytest.mark.parametrize("path", sorted(TEXTS.glob("*.rules")), ids=lambda p: p.stem)
def test_house_ruleset_checks_explains_and_simulates(path):
    for args in (["check", str(path)], ["fmt", "--check", str(path)], ["explain", str(path)],
                 ["simulate", "-n", "3", str(path)]):
        res = runner.invoke(main, args)
        assert res.exit_code == 0, (args, res.output)
    assert "source" in path.read_text(encoding="utf-8")


# -- penalties for misplays: outside the language ---------------------------------------------------

@pytest.mark.parametrize("line", ["drawing while able to play costs 30 points",
                                  "a player who passes when he could play loses 30 points",
                                  "misplays are penalised", "a wrong number of tiles costs 100 points"])
def test_penalties_for_misplays_are_outside_the_language(line):
    errors = rulelang.check_text(HEAD + line + "\n", "t.rules")
    assert [e.code for e in errors] == ["outside-language"]
    assert "penalties for misplays" in errors[0].message
    assert "`a player may draw while able to place`" in errors[0].hint and "rocoh.org" in errors[0].hint
