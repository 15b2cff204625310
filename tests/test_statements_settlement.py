"""The settlement sections (rulelang/language/statements/settlement.py, `on domino:` and `on block:`): their terms written
back, explained and checked, bonuses and winners included."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from ruleset_text import HEAD, child_errors, compiled, header, one_problem, refused

import rulelang
from rulelang import compile_text
from rulelang.cli import main
from rulelang.config.rules import mentions_winner
from rulelang.interpreter import Round
from rulelang.interpreter.config import ConfigError, as_config
from rulelang.language.ast import Term
from rulelang.language.compiler import analyse
from rulelang.language.explain import diff_configs, explain_text, term_sentence
from rulelang.language.formatter import config_to_text, format_text
from rulelang.language.parser import parse


def _sentences(config: dict) -> list[str]:
    """The sentences of `rulelang explain` (without the title, source and headings)."""
    return [line[2:] for line in explain_text(config).splitlines() if line.startswith("- ")]


def _domino(line: str) -> dict:
    return compiled("allfives", f"on domino:\n  {line}\n  as one event\n")


def test_the_heaviest_hand_term_is_explained_as_one_hand():
    config = _domino("credit the heaviest opponent's hand only, rounded to 5, to the winner")
    assert ("The heaviest single opponent's hand (rounded to the nearest 5) is credited to the winner's side; the "
            "other hands give nothing.") in _sentences(config)


@pytest.mark.parametrize("line, sentence", [
    ("credit opponents' hands pooled, 1 point per tile, to the winner",
     "Each tile left in the opponents' hands counts 1 point, whatever its pips; the total is credited to the "
     "winner's side."),
    ("credit opponents' hands separately, 2 points per tile, to the winner",
     "Each tile left in the opponents' hands counts 2 points, whatever its pips; each hand's amount is credited to "
     "the winner's side."),
], ids=["one_point_is_singular", "two_points_are_plural"])
def test_a_points_per_tile_term_says_point_or_points(line, sentence):
    assert sentence in _sentences(_domino(line))


def test_hands_may_be_divided_by_2_when_2_divides_their_rounding():
    config = _domino("credit opponents' hands pooled, rounded to 10 and divided by 2, to the winner")
    assert config["settlement"]["domino"]["terms"] == [
        {"kind": "hands", "hands": "opponents", "pooling": "pooled", "rounding": "round10", "divisor": 2,
         "to": "winner", "sign": "credit"}]
    assert ("The opponents' remaining pips, added together and rounded once to the nearest 10 and then divided by 2, "
            "are credited to the winner's side.") in _sentences(config)


POOLED_TO_OWNER = ("pooled-to-owner", 5, 3, "a pooled amount has no single owner",
                   "write `separately` to score each hand for its owner, or `the winner`")


def test_a_pooled_amount_to_each_owner_is_refused_at_its_term():
    assert child_errors("allfives", "on domino:\n  credit opponents' hands pooled, rounded to 5, to each owner\n"
                               "  as one event\n") == [POOLED_TO_OWNER]


def test_a_pooled_amount_to_each_owner_is_refused_beside_another_fault_of_the_same_terms():
    # the terms statement has a fault of its own (a rounding to 1): it is not compiled, yet both are reported
    assert child_errors("allfives", "on domino:\n  credit opponents' hands pooled, rounded to 5, to each owner\n"
                               "  credit opponents' hands separately, rounded to 1, to the winner\n"
                               "  as one event\n") == [
        POOLED_TO_OWNER,
        ("bad-rounding", 6, 3, "hands cannot be rounded to 1",
         "write `rounded to N` with N at least 2 (such as `rounded to 5`) or `not rounded`")]


def test_a_term_built_with_the_defaults_is_rounded_to_5():
    # Term's defaults agree: rounded to 5 (rounding_number 5), as the configuration and explain say it
    term = Term("hands", "opponents", "separately", to="winner")
    assert term.rounds_to == 5
    assert term.to_dict() == {"kind": "hands", "hands": "opponents", "pooling": "separately", "rounding": "round5",
                              "to": "winner", "sign": "credit"}
    assert term_sentence(term) == ("The opponents' remaining pips, each hand rounded separately to the nearest 5, "
                                   "are credited to the winner's side.")


def _stated(config: dict) -> list[str]:
    """The lines `config_to_text` writes for a configuration (what fmt and diff show)."""
    return config_to_text({**config, "based_on": None}).splitlines()


def _explained(config: dict) -> list[str]:
    return explain_text(config).splitlines()


def _muggins_without_block() -> str:
    from rulelang.language.bundled import bundled_text
    return bundled_text("muggins").split("on block:")[0]


def test_a_block_without_a_winner_refuses_a_term_that_takes_from_opponents():
    (e,) = refused(HEAD.format(base="muggins")
                   + "on block:\n  winner: none\n  debit opponents' hands separately, rounded to 5, from each owner\n")
    assert (e.code, e.line) == ("terms-need-winner", 6)
    assert e.message == "a block without a winner gives nothing to this term"


def test_a_missing_section_is_named_with_a_line_it_could_hold():
    (e,) = refused(_muggins_without_block())
    assert (e.code, e.message) == ("missing-statement", "missing section `on block:`")
    assert e.hint == ("add a section such as `on block:` followed by lines like "
                      "`credit opponents' hands separately, rounded to 5, to the winner` and `as one event`")


def test_a_domino_section_of_a_bonus_alone_needs_its_events_line_and_the_rest_is_still_checked():
    import re
    text = re.sub(r"on domino:\n(  .*\n)+", "on domino:\n  bonus 1 point to the winner\n", _muggins_without_block())
    (e,) = refused(text)
    assert e.message == ("missing 2 statements: how a domino's settlement makes events in `on domino:`; "
                         "the section `on block:`")


def test_a_missing_domino_section_is_named_with_a_settlement_line_it_could_hold():
    import re

    from rulelang.language.bundled import bundled_text
    text = re.sub(r"on domino:\n(  .*\n)+", "", bundled_text("muggins"))
    (e,) = refused(text)
    assert (e.code, e.message) == ("missing-statement", "missing section `on domino:`")
    assert e.hint == ("add a section such as `on domino:` followed by lines like "
                      "`credit opponents' hands separately, rounded to 5, to the winner` and `as one event`")


def test_a_partner_term_without_partnerships_is_pointed_at_on_its_own_line():
    (e,) = refused(HEAD.format(base="muggins") + "on domino:\n"
                   "  credit opponents' hands separately, rounded to 5, to the winner\n"
                   "  debit partner's hand pooled, rounded to 5, from the winner\n  as one event\n")
    assert (e.code, e.line, e.column) == ("partner-needs-partnerships", 6, 3)
    assert (e.message, e.hint) == ("there is no partner without partnerships",
                                   "remove this line or play `partnerships with 4`")


def test_a_bonus_says_point_or_points():
    one = compiled("fives-and-threes", "on domino:\n  bonus 1 point to the winner\n")
    assert "  bonus 1 point to the winner" in _stated(one)
    assert any("scores a bonus of 1 point," in s for s in _explained(one))
    two = compiled("fives-and-threes", "on domino:\n  bonus 2 points to the winner\n")
    assert "  bonus 2 points to the winner" in _stated(two)
    assert any("scores a bonus of 2 points," in s for s in _explained(two))


def test_points_per_tile_must_be_a_multiple_of_the_shown_unit():
    assert one_problem("on domino:\n  credit opponents' hands pooled, 3 points per tile, to the winner\n"
                    "  as one event\n") == (
        "unit-mismatch", "3 points per tile can give raw scores that are not multiples of 5",
        "with 5 raw points to 1 shown point, count a multiple of 5 per tile")
    assert analyse(header("t", "muggins") + "on domino:\n  credit opponents' hands pooled, 5 points per tile, "
                   "to the winner\n  as one event\n", "t.rules").errors == []


def test_a_divided_settlement_needs_raw_play_points():
    assert one_problem("on domino:\n  credit opponents' hands separately, rounded to 5 and divided by 5, to the winner\n"
                    "  as one event\n") == (
        "unit-mismatch", "a hand rounded to 5 and divided by 5 can give raw scores that are not multiples of 5",
        "a settlement in another unit than play needs play to score raw: write `points are shown raw`")


def test_a_bonus_of_several_raw_points_is_plural():
    assert one_problem("on domino:\n  credit opponents' hands separately, rounded to 5, to the winner\n"
                    "  bonus 2 points to the winner\n")[1] == \
        "a bonus of 2 raw points is not a whole number of shown points"
    assert one_problem("on domino:\n  credit opponents' hands separately, rounded to 5, to the winner\n"
                    "  bonus 1 point to the winner\n")[1] == \
        "a bonus of 1 raw point is not a whole number of shown points"


def test_a_block_without_a_winner_cannot_pay_everyones_hands_to_the_winner():
    assert one_problem("on block:\n  winner: none\n  credit everyone's hands separately, rounded to 5, to the winner\n"
                    "  as one event\n")[:2] == (
        "terms-need-winner", "a block without a winner gives nothing to this term")


def _explained_from(config: dict[str, Any], start: str) -> str:
    [line] = [line for line in explain_text(config).splitlines() if line.startswith("- " + start)]
    return line[2:]


def test_a_bonus_with_partnerships_but_a_round_ending_when_one_player_goes_out_names_that_player():
    config = compiled("allfives", "players 4, partnerships with 4\nhand 5 tiles\non domino:\n"
                                  "  credit opponents' hands separately, rounded to 5, to the winner\n"
                                  "  bonus 10 points to the winner\n  as one event\n")
    assert _explained_from(config, "The player who goes out") == (
        "The player who goes out scores a bonus of 10 points, in the same event as the settlement.")


@pytest.mark.parametrize("line, needs_winner", [
    ("credit the heaviest opponent's hand only, rounded to 5, to the winner", True),
    ("credit opponents' hands minus own hand, rounded to 5, to the winner", True),
    ("credit opponents' hands separately, rounded to 5, to the winner", True),
    ("credit opponents' hands pooled, 5 points per tile, to the winner", True),
    ("debit everyone's hands separately, rounded to 5, from each owner", False),
    ("credit each hand the differences to heavier opponents' hands, rounded to 5", False),
])
def test_a_term_says_whether_it_needs_a_winner_as_the_configuration_rule_does(line, needs_winner):
    config = compiled("allfives", f"on domino:\n  {line}\n  as one event\n")
    [term] = config["settlement"]["domino"]["terms"]
    assert mentions_winner(term) is needs_winner
    assert Term.from_dict(term).mentions_winner() is needs_winner


def _stated_lines(config: dict) -> list[str]:
    """The lines `config_to_text` writes for a configuration (what `rulelang new --base` and diff show)."""
    return [line.strip() for line in config_to_text({**config, "based_on": None}).splitlines()]


def _bonus(amount: int) -> dict:
    return compiled("muggins", f"on domino:\n  bonus {amount} points to the winner\n"
                                "  credit opponents' hands pooled, rounded to 5, to the winner\n  as one event\n")


def test_one_point_per_tile_is_singular_and_more_are_plural():
    one = compiled("allfives", "on domino:\n  credit opponents' hands pooled, 1 point per tile, to the winner\n"
                                "  as one event\n")
    assert "credit opponents' hands pooled, 1 point per tile, to the winner" in _stated_lines(one)
    five = compiled("allfives", "on domino:\n  credit opponents' hands pooled, 5 points per tile, to the winner\n"
                                 "  as one event\n")
    assert "credit opponents' hands pooled, 5 points per tile, to the winner" in _stated_lines(five)


def test_a_tile_left_in_hand_cannot_count_0_points():
    (e,) = refused(HEAD.format(base="allfives") + "on domino:\n  credit opponents' hands pooled, 0 points per "
                   "tile, to the winner\n  as one event\n")
    assert (e.code, e.message, e.hint) == ("bad-number", "a tile left in hand cannot count 0 points",
                                           "write `1 point per tile` or more, or leave the line out")


def test_a_settlement_term_prints_the_same_wherever_it_is_written():
    """A statement's value is its meaning, not its place: fmt orders and compares statements by value."""
    text = (Path(rulelang.__file__).parent / "rulesets" / "muggins.rules").read_text(encoding="utf-8")
    first, _ = parse(text, "muggins.rules")
    moved, _ = parse("\n\n" + text, "muggins.rules")
    assert first is not None and moved is not None

    def terms(ruleset):
        return [repr(s.value) for s in ruleset.statements if s.key.endswith("_terms")]
    assert terms(first) and terms(first) == terms(moved)


def test_a_bonus_of_one_unit_is_explained_as_1_shown_point():
    assert ("- The player who goes out scores a bonus of 1 shown point (5 raw), in the same event as the "
            "settlement.") in _explained(_bonus(5))


def test_a_bonus_of_two_units_is_explained_as_2_shown_points():
    assert ("- The player who goes out scores a bonus of 2 shown points (10 raw), in the same event as the "
            "settlement.") in _explained(_bonus(10))


FAMILY_HEAD = 'ruleset h "H"\nsource "a test"\nbased on muggins\n'


def family_compiled(body: str) -> dict:
    return rulelang.compile_text(FAMILY_HEAD + body, "h.rules")


def family_codes(body: str) -> list[str]:
    return [e.code for e in rulelang.check_text(FAMILY_HEAD + body, "h.rules")]


TEAM_SIDE = "players 2 to 4, partnerships with 4\non domino:\n  winner: the lightest side\n"


DIFF = "credit each hand the differences to heavier opponents' hands, not rounded\n  one event per hand\n"


def test_domino_lightest_side_compiles_and_is_omitted_at_its_default():
    assert family_compiled(TEAM_SIDE)["settlement"]["domino"]["winner"] == "lightest-side"
    assert "winner" not in family_compiled("on domino:\n  winner: the dominoer\n")["settlement"]["domino"]
    assert "winner" not in rulelang.compile_bundled("muggins")["settlement"]["domino"]
    text = format_text(FAMILY_HEAD + "on domino:\n    winner:   the lightest side\n")
    assert "on domino:\n  winner: the lightest side\n" in text


def test_domino_lightest_side_explain_and_diff():
    cfg = family_compiled(TEAM_SIDE)
    assert "lower pip total wins" in explain_text(cfg)
    changes = diff_configs(rulelang.compile_bundled("muggins"), cfg)
    assert any(words == "the winner of a domino" for words, *_ in changes), changes


def test_other_winner_lines_under_domino_are_misplaced_and_the_dominoer_under_block_too():
    assert family_codes("on domino:\n  winner: the lightest hand, ties not broken\n") == ["misplaced-line"]
    assert family_codes("on block:\n  winner: the dominoer\n") == ["misplaced-line"]


def test_the_last_placement_cannot_join_a_settlement_another_side_may_win():
    errors = rulelang.check_text('ruleset h "H"\nsource "s"\nbased on exact61\non domino:\n'
                                 "  winner: the lightest side\n", "h.rules")
    assert [e.code for e in errors] == ["last-placement-needs-dominoer"]
    bad = rulelang.compile_bundled("exact61")
    bad["settlement"]["domino"]["winner"] = "lightest-side"
    with pytest.raises(ConfigError):  # the engine refuses it as the language does (schema)
        as_config(bad)


def test_unrounded_differences_are_stated_with_raw_points_and_refused_with_fives():
    cfg = family_compiled("points are shown raw\ntarget at least 100 points\non block:\n  " + DIFF)
    assert cfg["settlement"]["block"]["terms"] == [
        {"kind": "differences", "rounding": "none", "to": "owner", "sign": "credit"}]
    assert "not rounded" in explain_text(cfg)
    assert family_codes("on block:\n  " + DIFF) == ["unit-mismatch"]  # muggins shows fives: say `rounded to 5`
    rnd = Round(cfg, 3, [[(1, 2), (6, 6)], [(4, 4), (3, 5)], [(5, 6)]], [], 0)
    rnd.play("[1|2]")
    assert rnd.result.kind == "blocked"
    assert [(e.side, e.raw) for e in rnd.events] == [(2, 6), (0, 4)]  # 1 + 5 and 4, not 5 and 5


DRAW_HEAD = 'ruleset h "H"\nsource "a test"\nbased on muggins\n'


HEAVIEST_ONLY = DRAW_HEAD + "on block:\n  credit the heaviest opponent's hand only, rounded to 5, to the winner\n"


def test_the_heaviest_term_needs_a_winner_and_a_unit_rounding():
    errors = rulelang.check_text(HEAVIEST_ONLY + "  winner: none\n", "h.rules")
    assert "terms-need-winner" in [e.code for e in errors]
    errors = rulelang.check_text(HEAVIEST_ONLY.replace("rounded to 5", "not rounded"), "h.rules")
    assert "unit-mismatch" in [e.code for e in errors]


SCORING_HEAD = 'ruleset house "House"\nsource "s"\nbased on muggins\n'


RAW_HEAD = SCORING_HEAD + "points are shown raw\ntarget at least 305 points\n"


runner = CliRunner()


def block_text(line: str, head: str = SCORING_HEAD) -> str:
    return head + f"on block:\n  winner: the lightest hand, ties not broken\n  {line}\n  as one event\n"


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
    text = block_text(line, RAW_HEAD if "divided" in line or "1 point" in line else SCORING_HEAD)
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
    (block_text("credit opponents' hands pooled, rounded to 5 and divided by 2, to the winner", RAW_HEAD), "bad-division",
     "cannot be divided by 2"),
    (block_text("credit opponents' hands pooled, rounded to 5 and divided by 1, to the winner", RAW_HEAD), "bad-division",
     "divided by 1"),
    (block_text("credit opponents' hands pooled, 0 points per tile, to the winner"), "bad-number", "0 points"),
    (block_text("credit opponents' hands pooled, 3 points per tile, to the winner"), "unit-mismatch", "per tile"),
    (block_text("credit opponents' hands pooled, rounded to 5 and divided by 5, to the winner"), "unit-mismatch",
     "shown raw"),
    (block_text("credit opponents' hands pooled, 5 points per tile, to each owner"), "pooled-to-owner", "no single owner"),
])
def test_bad_values_give_their_errors(text, code, words):
    errors = rulelang.check_text(text, "t.rules")
    assert [e.code for e in errors] == [code], [e.render() for e in errors]
    assert words in errors[0].message + (errors[0].hint or "")
