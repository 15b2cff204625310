"""What the compiler and the configuration checks show an author for the cases no golden file covers: the
chain of bases (cycles, depth, a base's own faults), the configuration's `based_on`, rule messages, the
engine's validator of a compiled `.json`, and texts the parser gives up on."""
from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

import rulelang
from rulelang import langapi
from rulelang.language.compiler import analyse, compile_ruleset, validate_config
from rulelang.language.parser import parse

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "tests" / "data" / "rulesets" / "bad" / "deep"


def _header(name: str, base: str) -> str:
    return f'ruleset {name} "{name}"\nsource "a test of the compiler"\nbased on {base}\n'


def _errors(text: str, filename: str = "t.rules") -> list[tuple[str, str, str | None]]:
    result = analyse(text, filename)
    assert result.config is None and result.errors
    return [(e.code, e.message, e.hint) for e in result.errors]


def _problem(text: str) -> tuple[str, str, str | None]:
    [found] = _errors(_header("t", "muggins") + text)
    return found


# -- the chain of bases -------------------------------------------------------------------------------------

def test_a_cycle_through_the_text_itself_names_it_first_and_last(tmp_path):
    (tmp_path / "a.rules").write_text(_header("a", '"b.rules"'), encoding="utf-8")
    (tmp_path / "b.rules").write_text(_header("b", '"a.rules"'), encoding="utf-8")
    [(code, message, hint)] = _errors((tmp_path / "a.rules").read_text(encoding="utf-8"), str(tmp_path / "a.rules"))
    assert code == "base-cycle"
    assert message == "a cycle of `based on`: `a.rules` -> `b.rules` -> `a.rules`"
    assert hint == "remove one `based on` of the cycle"


def test_a_cycle_further_down_the_chain_names_only_the_rulesets_in_it(tmp_path):
    # a -> b -> c -> b: `a` is not part of the cycle, and the cycle is found when `c` names `b` again
    (tmp_path / "a.rules").write_text(_header("a", '"b.rules"'), encoding="utf-8")
    (tmp_path / "b.rules").write_text(_header("b", '"c.rules"'), encoding="utf-8")
    (tmp_path / "c.rules").write_text(_header("c", '"b.rules"'), encoding="utf-8")
    [(code, message, _)] = _errors((tmp_path / "a.rules").read_text(encoding="utf-8"), str(tmp_path / "a.rules"))
    assert (code, message) == ("base-cycle", "a cycle of `based on`: `b.rules` -> `c.rules` -> `b.rules`")


@pytest.mark.skipif(os.name == "nt", reason="a Windows file name cannot hold `<`")
def test_a_text_without_a_file_is_not_the_file_of_that_name_in_the_current_folder(tmp_path, monkeypatch):
    # a text given as `<string>` based on x.rules, based on a file that happens to be named `<string>`:
    # the cycle is x.rules -> the file `<string>` -> x.rules, and the text itself is not in it
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.rules").write_text(_header("x", '"<string>"'), encoding="utf-8")
    (tmp_path / "<string>").write_text(_header("s", '"x.rules"'), encoding="utf-8")
    [(code, message, _)] = _errors(_header("t", '"x.rules"'), "<string>")
    assert (code, message) == ("base-cycle", "a cycle of `based on`: `x.rules` -> `<string>` -> `x.rules`")


def test_a_chain_of_exactly_the_most_bases_compiles_and_one_more_is_too_deep():
    # d02 -> d03 -> ... -> d33 -> allfives is 32 bases; d01 adds the 33rd
    assert rulelang.compile_file(str(DEEP / "d02.rules"))["based_on"] == "d03.rules"
    with pytest.raises(rulelang.RulesetError) as err:
        rulelang.compile_file(str(DEEP / "d01.rules"))
    assert [(e.code, e.message, e.line) for e in err.value.errors] == [
        ("base-too-deep", "the chain of `based on` is deeper than 32 rulesets", 3)]


def test_a_base_whose_own_base_is_missing_is_reported_at_that_base_line(tmp_path):
    base = tmp_path / "b.rules"
    base.write_text("# a base whose base is gone\n" + _header("b", '"gone.rules"'), encoding="utf-8")
    [(code, message, hint)] = _errors(_header("t", '"b.rules"'), str(tmp_path / "t.rules"))
    assert (code, message) == ("base-invalid", "the base ruleset `b.rules` has errors")
    assert hint == f"first: {base}:4:1: there is no ruleset file `gone.rules`"


def test_the_configuration_of_a_child_names_its_base():
    assert rulelang.compile_bundled("muggins-claims")["based_on"] == "muggins"
    assert rulelang.compile_bundled("allfives")["based_on"] is None
    config = analyse(_header("t", "allfives-pagat") + "target at least 200 points\n", "t.rules").config
    assert config is not None and config["based_on"] == "allfives-pagat"


def test_an_inherited_rule_on_the_last_line_of_a_base_without_a_final_newline_is_quoted(tmp_path):
    (tmp_path / "b.rules").write_text(_header("b", "allfives") + "on domino:\n  credit opponents' hands separately, "
                                      "rounded to 5, to the winner\n  bonus 3 points to the winner", encoding="utf-8")
    [(code, message, hint)] = _errors(_header("t", '"b.rules"') + "5 raw points make 1 shown point\n",
                                      str(tmp_path / "t.rules"))
    assert code == "unit-mismatch"
    assert message == "a bonus of 3 raw points is not a whole number of shown points (inherited from `b.rules`)"
    assert hint == (f"`b.rules` states `bonus 3 points to the winner` ({tmp_path / 'b.rules'}:6); restate it here to "
                    "replace it: with 5 raw points to 1 shown point, use a multiple of 5")


# -- each statement alone, and texts with syntax errors --------------------------------------------------

def test_a_misplaced_line_does_not_stop_the_checks_of_the_lines_after_it():
    text = _header("t", "allfives") + ("on block:\n  bonus 10 points to the winner\n"
                                        "target at least 150 points\ntarget at least 200 points\n")
    assert [(c, m) for c, m, _ in _errors(text)] == [
        ("misplaced-line", "a block has nobody who goes out: the bonus is for a domino"),
        ("duplicate-statement", "the target is given twice (first on line 6)")]


def test_a_broken_line_is_reported_alone_not_also_as_a_missing_statement():
    text = (ROOT / "rulesets" / "allfives.rules").read_text(encoding="utf-8").replace("no reserve", "no reserve at all")
    assert [c for c, _, _ in _errors(text)] == ["unexpected-token"]


def test_a_text_the_parser_gives_up_on_has_errors_and_no_ruleset():
    result = analyse("x\n" * 30, "t.rules")
    assert result.ruleset is None and result.config is None
    assert result.errors[0].code == "unexpected-word" and result.errors[0].line == 1


def test_the_authoring_tools_analyse_a_child_whose_base_cannot_be_read(tmp_path):
    analysis = langapi.analyse(_header("t", '"gone.rules"'), str(tmp_path / "t.rules"))
    assert [(e.code, e.message) for e in analysis.errors] == [("unknown-base", "there is no ruleset file `gone.rules`")]
    assert analysis.config is None and analysis.inherited == set() and analysis.base_label == "gone.rules"


def test_a_parsed_ruleset_without_its_text_still_gets_its_errors():
    # a tool may compile a parsed ruleset whose text it did not keep: the error has no source line to show
    ruleset, _ = parse(_header("t", "allfives") + "target at least 150 points\ntarget at least 200 points\n", "t.rules")
    assert ruleset is not None
    with pytest.raises(rulelang.RulesetError) as err:
        compile_ruleset(replace(ruleset, text=""))
    assert [(e.code, e.line, e.source_line) for e in err.value.errors] == [("duplicate-statement", 5, "")]


# -- configuration rules: messages an author reads ----------------------------------------------------------

def test_points_per_tile_must_be_a_multiple_of_the_shown_unit():
    assert _problem("on domino:\n  credit opponents' hands pooled, 3 points per tile, to the winner\n"
                    "  as one event\n") == (
        "unit-mismatch", "3 points per tile can give raw scores that are not multiples of 5",
        "with 5 raw points to 1 shown point, count a multiple of 5 per tile")
    assert analyse(_header("t", "muggins") + "on domino:\n  credit opponents' hands pooled, 5 points per tile, "
                   "to the winner\n  as one event\n", "t.rules").errors == []


def test_a_divided_settlement_needs_raw_play_points():
    assert _problem("on domino:\n  credit opponents' hands separately, rounded to 5 and divided by 5, to the winner\n"
                    "  as one event\n") == (
        "unit-mismatch", "a hand rounded to 5 and divided by 5 can give raw scores that are not multiples of 5",
        "a settlement in another unit than play needs play to score raw: write `points are shown raw`")


def test_a_bonus_of_several_raw_points_is_plural():
    assert _problem("on domino:\n  credit opponents' hands separately, rounded to 5, to the winner\n"
                    "  bonus 2 points to the winner\n")[1] == \
        "a bonus of 2 raw points is not a whole number of shown points"
    assert _problem("on domino:\n  credit opponents' hands separately, rounded to 5, to the winner\n"
                    "  bonus 1 point to the winner\n")[1] == \
        "a bonus of 1 raw point is not a whole number of shown points"


def test_a_block_without_a_winner_cannot_pay_everyones_hands_to_the_winner():
    assert _problem("on block:\n  winner: none\n  credit everyone's hands separately, rounded to 5, to the winner\n"
                    "  as one event\n")[:2] == (
        "terms-need-winner", "a block without a winner gives nothing to this term")


@pytest.mark.parametrize("branching, said", [("every double branches", "every"), ("no double branches", "no")])
def test_a_sniff_rule_says_which_doubles_branch_here(branching, said):
    code, message, _ = _problem(f"{branching}\nthe spinner counts each uncovered side\n")
    assert code == "sniff-needs-first-double"
    assert message.endswith(f"the only one that branches; here {said} double branches")


# -- the engine's validator of a compiled configuration (`rulelang.load_config_dict` of a `.json`) ----------

def _load_json(tmp_path: Path, config: object) -> str:
    path = tmp_path / "c.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    with pytest.raises(rulelang.RulesetError) as err:
        rulelang.load_config_dict(str(path))
    [error] = err.value.errors
    return f"{error.code}: {error.message}"


def test_a_rule_fault_of_a_compiled_configuration_names_the_term_it_is_in(tmp_path):
    config = rulelang.compile_bundled("allfives")
    terms = config["settlement"]["domino"]["terms"]
    terms.append({**terms[0], "pooling": "pooled", "to": "owner"})
    assert _load_json(tmp_path, config) == ("pooled-to-owner: not a rulelang configuration: "
                                            "settlement/domino/terms/1: a pooled amount has no single owner")


def test_a_schema_fault_of_a_compiled_configuration_comes_before_its_rules(tmp_path):
    config = rulelang.compile_bundled("allfives")
    del config["target"]
    assert _load_json(tmp_path, config) == \
        "invalid-config: not a rulelang configuration: (top): 'target' is a required property"


def test_validate_config_names_the_path_of_each_fault():
    config = rulelang.compile_bundled("allfives")
    assert validate_config(config) == []
    config["players"]["counts"] = ["x"]
    del config["target"]
    assert validate_config(config) == ["(top): 'target' is a required property",
                                       "players/counts/0: 'x' is not one of [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]"]


def test_the_checks_modules_export_their_public_names():
    for module, names in [("rulelang.config.rules", {"Problem", "config_problems", "rule_problems", "mentions_winner"}),
                          ("rulelang.config.validation", {"config_schema", "schema_problems", "schema_text"})]:
        space: dict[str, object] = {}
        exec(f"from {module} import *", space)  # noqa: S102 - what a star import of the module gives
        assert names <= set(space)
