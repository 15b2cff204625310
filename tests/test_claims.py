"""The muggins rule (family.md 2.3): statements, the engine's claims and calls, bots, play."""
from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from typing import Any

import pexpect
import pytest
from click.testing import CliRunner
from ruleset_text import compiled

from rulelang import compile_text
from rulelang.cli import main
from rulelang.config.defaults import without_defaults
from rulelang.interpreter import IllegalMove, Match, Move, Round, as_config, play_match, random_player, replay
from rulelang.interpreter.claims import set_miss_rate
from rulelang.language.explain import explain_text
from rulelang.language.formatter import format_text

BASE = 'ruleset house "House"\nsource "s"\nbased on muggins\n'
MUGGINS = BASE + "points must be claimed; missed points go to the next opponent\n"
FORFEIT = BASE + "points must be claimed; missed points are lost\n"


# a short deal: seat 0 leads [5|5] (10 raw, 2 shown); seat 1 may join [0|5] on it (10 again)
HANDS = [["[5|5]", "[0|1]", "[3|6]"], ["[0|5]", "[4|4]", "[2|3]"]]


def cfg(text: str = MUGGINS):
    return as_config(compile_text(text))


def rnd(text: str = MUGGINS, hands=HANDS, scores=None, record=True) -> Round:
    return Round(cfg(text), 2, hands, [], opener=0, scores=scores, record=record)


# -- the language ------------------------------------------------------------------------------

def test_the_statements_compile_to_claims_and_are_omitted_by_default():
    assert compile_text(MUGGINS)["claims"] == "muggins"
    assert compile_text(FORFEIT)["claims"] == "forfeit"
    plain = compile_text(BASE)
    assert "claims" not in plain
    # written just before the settlement, as `round_end` is
    keys = list(compile_text(MUGGINS))
    assert keys.index("claims") == keys.index("settlement") - 1
    # a configuration that says "none" states the same rules as one that omits it
    assert without_defaults({**plain, "claims": "none"}) == plain


@pytest.mark.parametrize("text", [MUGGINS, FORFEIT])
def test_fmt_round_trips_and_explain_says_it(tmp_path, text):
    path = tmp_path / "house.rules"
    path.write_text(text)
    res = CliRunner().invoke(main, ["fmt", str(path)])
    assert res.exit_code == 0, res.output
    formatted = path.read_text()
    assert text.splitlines()[-1] in formatted.splitlines()
    assert compile_text(formatted) == compile_text(text)
    assert CliRunner().invoke(main, ["fmt", "--check", str(path)]).exit_code == 0
    res = CliRunner().invoke(main, ["explain", str(path)])
    assert res.exit_code == 0
    assert "claims with the move" in res.output
    assert ("Points not claimed are lost" in res.output) == (text == FORFEIT)


def test_diff_names_the_rule(tmp_path):
    a, b = tmp_path / "a.rules", tmp_path / "b.rules"
    a.write_text(MUGGINS)
    b.write_text(FORFEIT)
    res = CliRunner().invoke(main, ["diff", str(a), str(b)])
    assert "The muggins rule" in res.output and "differ in 1 rule" in res.output


def test_claims_need_placements_that_score(tmp_path):
    path = tmp_path / "bad.rules"
    path.write_text(BASE + "placements score nothing\npoints must be claimed; missed points are lost\n")
    res = CliRunner().invoke(main, ["check", str(path)])
    assert res.exit_code == 1
    assert "points must be claimed, but placements score nothing" in res.output
    with pytest.raises(Exception) as exc:
        as_config({**compile_text(BASE.replace("muggins", "allfives-draw")), "claims": "muggins"})
    assert getattr(exc.value, "code", "") == "claims-need-scoring"


def test_a_misspelt_statement_is_a_syntax_error(tmp_path):
    path = tmp_path / "bad.rules"
    path.write_text(BASE + "points must be claimed, missed points are lost\n")
    res = CliRunner().invoke(main, ["check", str(path)])
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert "a semicolon" in res.output


def test_the_bundled_house_variant():
    res = CliRunner().invoke(main, ["compile", "muggins-claims"])
    assert res.exit_code == 0
    assert json.loads(res.output)["claims"] == "muggins"
    assert "muggins-claims" in CliRunner().invoke(main, ["list"]).output


# -- moves carry claims -------------------------------------------------------------------------

def test_move_notation_with_a_claim():
    m = Move.parse("[1|5] on [1|1] high claim 10")
    assert m.claim == 10 and str(m) == "[1|5] on [1|1] high claim 10"
    assert m == Move.parse("[1|5] on [1|1] high")  # the same placement; the claim is what is said with it
    assert Move.parse("[4|5] claim 0").claim == 0 and Move.parse("[4|5]").claim is None
    assert str(Move.parse("[4|5] claim 0")) == "[4|5] claim 0"
    with pytest.raises(ValueError):
        Move((4, 5), claim="2")  # type: ignore[arg-type]


# -- the engine ------------------------------------------------------------------------------------

def test_example_5_missed_points_go_to_the_caller():
    r = rnd()
    turn = r.play("[5|5] claim 0")
    assert turn.points == 10 and turn.events == [] and r.scores == [0, 0]
    assert r.observation(1)["call"] == {"placer": 0, "caller": 1, "amount": 10}
    assert r.observation(0)["call"] == {"placer": 0, "caller": 1, "amount": None}  # only the caller sees it
    ev = r.call()
    assert [(e.side, e.kind, e.raw, e.score_after, e.seat) for e in ev] == [(1, "call", 10, 10, 1)]
    assert r.scores == [0, 10] and r.shown_scores == [0, 2]
    with pytest.raises(IllegalMove) as exc:
        r.call(1)
    assert exc.value.code == "late-call"  # called already


def test_example_5_over_claim_is_a_penalty_for_the_caller():
    r = rnd()
    r.play("[5|5] claim 3")  # 15 raw claimed for a count of 10
    assert r.scores == [0, 0]
    assert r.call(1)[0].raw == 15 and r.scores == [0, 15]


def test_exact_partial_and_missing_claims():
    r = rnd()
    turn = r.play("[5|5] claim 2")  # exactly the score: credited
    assert [(e.kind, e.raw) for e in turn.events] == [("placement", 10)]
    with pytest.raises(IllegalMove) as exc:
        r.call(1)
    assert exc.value.code == "nothing-to-take"
    turn = r.play("[0|5] on [5|5] line-a claim 1")  # 5 of 10 claimed
    assert [(e.kind, e.raw) for e in turn.events] == [("placement", 5)]
    assert r.call(0)[0].raw == 5 and r.scores == [15, 5]
    r2 = rnd()
    assert r2.play("[5|5]").events == [] and r2.call()[0].raw == 10  # no claim: claims 0


def test_refusals_leave_the_state_unchanged():
    r = Round(cfg(), 3, [["[5|5]", "[1|1]"], ["[0|5]", "[0|1]"], ["[0|2]", "[2|4]"]], [], opener=0)
    codes = []
    for action in (lambda: r.call(1), lambda: r.play(Move((5, 5), claim=-1))):
        with pytest.raises(IllegalMove) as exc:
            action()
        codes.append(exc.value.code)
    assert codes == ["late-call", "negative-claim"] and r.placements == 0
    r.play("[5|5] claim 0")
    for seat in (0, 2):
        with pytest.raises(IllegalMove) as exc:
            r.call(seat)
        assert exc.value.code == "not-caller"
    r.play("[0|5] on [5|5] line-a claim 2")  # closes the chance to call on seat 0's placement
    with pytest.raises(IllegalMove) as exc:
        r.call(1)
    assert exc.value.code == "not-caller"
    assert r.scores == [0, 10, 0]


def test_claims_off_and_forfeit():
    plain = Round(cfg(BASE), 2, HANDS, [], opener=0)
    with pytest.raises(IllegalMove) as exc:
        plain.play("[5|5] claim 2")
    assert exc.value.code == "claims-off"
    plain.play("[5|5]")
    assert plain.scores == [10, 0]
    with pytest.raises(IllegalMove) as exc:
        plain.call(1)
    assert exc.value.code == "claims-off"
    assert "call" not in plain.observation(1)  # observations without the rule are as before
    lost = rnd(FORFEIT)
    lost.play("[5|5] claim 1")
    assert lost.scores == [5, 0]
    with pytest.raises(IllegalMove) as exc:
        lost.call(1)
    assert exc.value.code == "no-calls"


def test_the_round_end_closes_the_call_and_a_call_can_win_the_match():
    r = Round(cfg(), 2, [["[0|5]", "[5|5]"], ["[1|1]", "[2|2]"]], [], opener=0)
    r.play("[0|5] claim 1")
    r.play("[5|5] on [0|5] high claim 0")  # the last tile: a domino; its missed 10 cannot be called
    assert r.over and r.scores == [10, 0]
    with pytest.raises(IllegalMove) as exc:
        r.call(1)
    assert exc.value.code == "late-call"
    r = rnd(scores=[0, 300])
    r.play("[5|5] claim 0")
    r.call(1)
    assert r.over and r.match_over and r.winner == 1 and r.result.kind == "target"


def test_transcripts_record_claims_and_calls_and_replay():
    m = Match(cfg(), 2, seed=5, record=True, deal=[{"hands": HANDS, "boneyard": [], "opener": 0}])
    m.play("[5|5] claim 0")
    m.call(1)
    m.play("[0|5] on [5|5] line-a claim 3")
    m.call(0)
    t = m.transcript()
    turns = t["rounds"][0]["turns"]
    assert turns[0]["move"] == "[5|5] claim 0"
    assert turns[0]["call"] == {"seat": 1, "for": "missed", "events": [
        {"side": 1, "kind": "call", "raw": 10, "shown": 2, "accepted": True, "score_after": 10, "shown_after": 2,
         "seat": 1}]}
    assert turns[1]["call"]["for"] == "penalty" and turns[1]["call"]["events"][0]["raw"] == 15
    assert replay(t).scores == m.scores
    bad = json.loads(json.dumps(t))
    del bad["rounds"][0]["turns"][0]["call"]
    with pytest.raises(Exception) as exc:
        replay(bad)
    assert getattr(exc.value, "code", "") == "transcript-mismatch"


# -- bots ---------------------------------------------------------------------------------------------

def test_bots_claim_everything_so_nobody_calls():
    m = play_match(cfg(), 2, seed=11, record=True)
    turns = [t for r in m.transcript()["rounds"] for t in r["turns"]]
    assert turns and all("call" not in t for t in turns)
    unit = 5
    assert all(Move.parse(t["move"]).claim * unit == t["points"] for t in turns)
    # and the scores are those of plain Muggins played with the same choices
    plain = play_match(cfg(BASE), 2, seed=11)
    assert plain.scores == m.scores


def test_bots_that_miss_are_called():
    bots = [set_miss_rate(random_player(1), 1.0, 7), random_player(2)]
    m = Match(cfg(), 2, seed=5, record=True)
    m.run(bots, max_rounds=1)
    turns = m.transcript()["rounds"][0]["turns"]
    # the round's last placement closes the chance to call, so it is left out
    scoring0 = [t for t in turns[:-1] if t["seat"] == 0 and t["points"]]
    assert len(scoring0) >= 2, "seat 0 scored in this deal"
    assert all(t["move"].endswith("claim 0") and t["call"]["seat"] == 1 for t in scoring0)
    assert all("call" not in t for t in turns if t["seat"] == 1)
    with pytest.raises(ValueError):
        set_miss_rate(random_player(1), 1.5)


def test_simulate_with_a_miss_rate():
    res = CliRunner().invoke(main, ["simulate", "muggins-claims", "--matches", "2", "--seed", "1",
                                    "--bots", "random", "--miss-rate", "0.5", "--json"])
    assert res.exit_code == 0, res.output
    plain = CliRunner().invoke(main, ["simulate", "muggins-claims", "--matches", "2", "--seed", "1",
                                      "--bots", "random", "--json"])
    assert json.loads(res.output) != json.loads(plain.output)
    bad = CliRunner().invoke(main, ["simulate", "muggins-claims", "--matches", "1", "--miss-rate", "2"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


def test_search_players_claim_their_points_in_the_arena():
    from rulelang.players.arena import play_match as arena_match
    from rulelang.tools.playernames import make_player

    # search players and the arena claim every point (their look-ahead too): the game is plain Muggins
    c, plain = cfg(), cfg(BASE)
    out = arena_match(c, 2, 4, [make_player("pimc:2", c, 1), random_player(2)], max_rounds=1)
    same = arena_match(plain, 2, 4, [make_player("pimc:2", plain, 1), random_player(2)], max_rounds=1)
    assert out["rounds"] == 1 and sum(out["round_details"][0]["play"]) > 0
    assert out["scores"] == same["scores"]
    out = arena_match(c, 2, 4, [make_player("ismcts:20", c, 1), random_player(2)], max_rounds=1)
    same = arena_match(plain, 2, 4, [make_player("ismcts:20", plain, 1), random_player(2)], max_rounds=1)
    assert out["scores"] == same["scores"]


# -- play ----------------------------------------------------------------------------------------------

ENV = dict(os.environ, NO_COLOR="1", COLUMNS="100", PYTHONUNBUFFERED="1")


def test_play_a_person_claims_and_a_bot_calls(tmp_path):
    save = tmp_path / "game.json"
    child = pexpect.spawn(sys.executable, ["-m", "rulelang", "play", "muggins-claims", "--seed", "3",
                                           "--save", str(save)], env=ENV, encoding="utf-8", timeout=20,
                          dimensions=(50, 120))
    child.expect(r"Your move \[")
    child.sendline("1 claim 0")  # [0|2]: nothing to claim
    child.expect(r"Call muggins\? \[y/N\]")
    child.sendline("y")  # the bot claimed exactly
    child.expect("nothing-to-take")
    child.expect(r"Your move \[")
    child.sendline("2")  # [1|5] on [1|2] low: 5 raw
    child.expect(r"Points you claim \(shown\) \[0\]: ")
    child.sendline("x")
    child.expect("Cannot read 'x'")
    child.sendline("0")
    child.expect("claims 0 shown: missed 5 raw, 1 shown")
    child.expect(r"seat 1 \(greedy\) calls muggins on seat 0 \(you\)!")
    child.expect(r"event: call \+1 shown \(\+5 raw\) for seat 1")
    child.expect(r"Call muggins\? \[y/N\]")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    t = json.loads(save.read_text())
    moves = [x["move"] for x in t["rounds"][0]["turns"]]
    assert moves[:3] == ["[0|2] claim 0", "[1|2] on [0|2] high claim 0", "[1|5] on [1|2] low claim 0"]
    assert t["rounds"][0]["turns"][2]["call"]["seat"] == 1
    res = CliRunner().invoke(main, ["replay", "--check-only", str(save)])
    assert res.exit_code == 0, res.output


def test_claimed_move_objects_from_callables():
    """A player callable may return a move with its own claim; the run honours it."""
    def claim_three(obs, legal):
        return replace(legal[0], claim=3)

    m = Match(cfg(), 2, seed=2, record=True)
    m.run([claim_three, random_player(5)], max_rounds=1)
    turns = m.transcript()["rounds"][0]["turns"]
    assert all(t["move"].endswith("claim 3") for t in turns if t["seat"] == 0)


# -- conformance ----------------------------------------------------------------------------------------

def test_cases_generate_claims_every_point(tmp_path):
    res = CliRunner().invoke(main, ["cases", "generate", "muggins-claims", "-o", str(tmp_path), "--seeds", "3"])
    assert res.exit_code == 0, res.output
    doc = json.loads((tmp_path / "muggins-claims" / "generated.json").read_text())
    steps = [s for c in doc["cases"] for s in c["steps"]]
    assert all("claims" in c["tags"] for c in doc["cases"])
    assert all(s["claim"] * 5 == s["expect"]["points"] for s in steps)
    res = CliRunner().invoke(main, ["conform", "--cases", str(tmp_path)])
    assert res.exit_code == 0, res.output


def test_an_engine_without_the_tag_skips_the_claims_cases():
    from rulelang.conformance import runner
    from rulelang.conformance.cases import lint
    from rulelang.conformance.protocol import SubprocessEngine

    toy = os.path.join(os.path.dirname(__file__), "..", "conformance", "examples", "toy_engine.py")
    cases = [c for c in lint().cases if c.variant == "muggins-claims"]
    assert len(cases) >= 9
    result = runner.run(SubprocessEngine([sys.executable, toy, "--features", "two-players,placement-score"]),
                        cases, timeout=30)
    assert {r.outcome for r in result.results} == {"skip"}
    result = runner.run(SubprocessEngine([sys.executable, toy]), cases, timeout=30)
    assert {r.outcome for r in result.results} == {"pass"}


def test_play_hides_the_points_preview_where_points_must_be_claimed():
    """The preview would claim for the person; `--show-points` brings it back, and a game without claims shows it."""
    moves = "1 claim 0\nn\nq\n\n"
    hidden = CliRunner().invoke(main, ["play", "muggins-claims", "--seed", "3"], input=moves)
    shown = CliRunner().invoke(main, ["play", "muggins-claims", "--seed", "3", "--show-points"], input=moves)
    assert "2) [1|5] on [1|2] low\n" in hidden.output and "+5 raw" not in hidden.output
    assert "2) [1|5] on [1|2] low  +5 raw (1 shown)" in shown.output


def test_play_says_why_it_asks_again_whether_to_call_muggins():
    res = CliRunner().invoke(main, ["play", "muggins-claims", "--seed", "3"], input="1 claim 0\nmaybe\nn\nq\n\n")
    assert "Cannot read 'maybe': answer y to call muggins, n (or Enter) to let it go." in res.output
    assert res.output.count("Call muggins? [y/N]") == 2


def test_an_over_claim_nobody_calls_is_credited_at_its_true_value_when_lost_only_if_called():
    """As docs/language.md says of `... missed points are lost only when an opponent calls`."""
    r = rnd(BASE + "points must be claimed; missed points are lost only when an opponent calls\n")
    r.play("[5|5] claim 3")  # 15 raw claimed for a count of 10: nothing credited yet
    assert r.scores == [0, 0]
    r.play("[0|5] on [5|5] line-a claim 2")  # the chance to call closes: the true 10, not the 15 claimed
    assert r.scores[0] == 10


def _explained(config: dict[str, Any], start: str) -> str:
    [line] = [line for line in explain_text(config).splitlines() if line.startswith("- " + start)]
    return line[2:]


def test_claims_lost_only_when_called_are_explained_as_such():
    config = compiled("allfives", "points must be claimed; missed points are lost only when an opponent calls\n")
    sentence = _explained(config, "A placement scores only what its player claims")
    assert "a claim above the score earns nothing at once." in sentence
    assert ("any opponent may call muggins: the points not claimed (after a claim too high, the whole score) are "
            "then lost, and the caller takes nothing.") in sentence


def _sentences(config: dict) -> list[str]:
    """The sentences of `rulelang explain` (without the title, source and headings)."""
    return [line[2:] for line in explain_text(config).splitlines() if line.startswith("- ")]


def test_forfeited_claims_are_explained():
    config = compiled("allfives", "points must be claimed; missed points are lost\n")
    assert ("A placement scores only what its player claims with the move (in points): a claim up to the score is "
            "credited (claiming exactly the score credits it all; no claim claims 0); a claim above the score earns "
            "nothing. Points not claimed are lost.") in _sentences(config)


def test_the_claims_statements_module_exports_its_public_names():
    space: dict[str, object] = {}
    exec("from rulelang.language.statements.claims import *", space)  # noqa: S102 - what a star import of the module gives
    assert {"STATEMENTS", "WORDS"} <= set(space)


CALL_HEAD = 'ruleset house "House"\nsource "s"\nbased on muggins\n'


runner = CliRunner()


ANY_CALLS = CALL_HEAD + "points must be claimed; missed points go to any opponent who calls\n"


LOST_IF_CALLED = CALL_HEAD + "points must be claimed; missed points are lost only when an opponent calls\n"


THREE_HANDS = [["[5|5]", "[1|1]"], ["[0|5]", "[0|1]"], ["[0|2]", "[2|4]"]]


def call_round(text: str, hands=THREE_HANDS, scores=None, opener: int = 0) -> Round:
    return Round(as_config(compile_text(text)), len(hands), hands, [], opener=opener, scores=scores, record=True)


def test_the_statements_compile_fmt_and_explain(tmp_path):
    for text, value, said in [(ANY_CALLS, "any-opponent", "any opponent may call muggins: his side takes"),
                              (LOST_IF_CALLED, "lost-if-called", "Without a call they stay with the player")]:
        assert compile_text(text)["claims"] == value
        assert format_text(text) == format_text(format_text(text))
        path = tmp_path / "t.rules"
        path.write_text(text, encoding="utf-8")
        res = runner.invoke(main, ["explain", str(path)])
        assert res.exit_code == 0 and said in res.output, res.output


def test_any_opponent_may_call_and_the_first_call_takes_it():
    r = call_round(ANY_CALLS)
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
    r = call_round(ANY_CALLS)
    r.play("[5|5] claim 0")
    assert r.call()[0].seat == 1  # without a seat: the first opponent in turn order after the placer


def test_a_partner_may_not_call():
    text = ANY_CALLS.replace("based on muggins\n", "based on muggins\nplayers 2 to 4, partnerships with 4\n")
    hands = [["[5|5]", "[1|1]"], ["[0|5]", "[0|1]"], ["[0|2]", "[2|4]"], ["[3|3]", "[1|3]"]]
    r = call_round(text, hands)
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

    cfg = as_config(compile_text(ANY_CALLS))
    for first_calls, caller in ((True, 1), (False, 2)):
        bots = [leads_five_five_claiming_nothing, random_player(2), random_player(3)]
        bots[1].calls = first_calls  # the first opponent in turn order calls, else the next one does
        r = Round(cfg, 3, THREE_HANDS, [], opener=0, record=True)
        r.run(bots)
        assert r.turns[0].call is not None and r.turns[0].call[0] == caller


def test_lost_if_called_a_call_forfeits_and_no_call_keeps():
    r = call_round(LOST_IF_CALLED)
    r.play("[5|5] claim 0")
    assert r.call(2) == [] and r.scores == [0, 0, 0]  # forfeited: the caller takes nothing
    turn = r.play("[0|5] on [5|5] line-a claim 1")
    assert [(e.side, e.raw) for e in turn.events] == [(1, 5)]
    turn = r.play("[0|2] on [0|5] low claim 0")  # the chance has closed: seat 1 keeps its missed 5
    assert [(e.side, e.kind, e.raw, e.seat) for e in turn.events] == [(1, "placement", 5, 1)]
    assert r.scores == [0, 10, 0]


def test_lost_if_called_an_over_claim_keeps_the_score_unless_called():
    r = call_round(LOST_IF_CALLED)
    r.play("[5|5] claim 3")  # 15 claimed for 10: nothing at once
    assert r.scores == [0, 0, 0]
    r.play("[0|5] on [5|5] line-a claim 2")
    assert r.scores == [10, 10, 0]  # seat 0 keeps its score, then seat 1 scores its own


def test_lost_if_called_at_the_round_end_and_at_the_target():
    r = call_round(LOST_IF_CALLED, [["[0|5]", "[5|5]"], ["[1|1]", "[2|2]"]])
    r.play("[0|5] claim 1")
    r.play("[5|5] on [0|5] high claim 0")  # the last tile: no call can come, the whole 10 stay with the player
    assert r.over and r.scores[0] == 5 + 10 + 5  # 5 claimed, then 5 kept, the placement's 10, the domino's 5
    r = call_round(LOST_IF_CALLED, scores=[300, 0, 0])
    r.play("[5|5] claim 0")
    turn = r.play("[0|5] on [5|5] line-a claim 2")  # seat 0's kept 10 reach the target before seat 1 scores
    assert r.over and r.winner == 0 and [(e.side, e.raw) for e in turn.events] == [(0, 10)]


@pytest.mark.parametrize("text", [ANY_CALLS, LOST_IF_CALLED], ids=["any-opponent", "lost-if-called"])
def test_matches_record_and_replay(text):
    cfg = as_config(compile_text(text))
    bots = [set_miss_rate(random_player(s), 0.5, s) for s in range(3)]
    m = play_match(cfg, 3, 7, bots=bots, record=True, max_rounds=3)
    replay(json.loads(json.dumps(m.transcript())))
