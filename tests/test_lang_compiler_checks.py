"""What the compiler's checks tell an author beyond one statement: missing statements, texts the parser gives up
on, a compiled `.json` configuration checked by the engine's validator."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from ruleset_text import HEAD, compile_errors, compiled, header, refused

import rulelang
import rulelang.language.compiler
from rulelang.config.rules import config_problems
from rulelang.language.compiler import analyse, compile_ruleset, validate_config
from rulelang.language.parser import parse

ROOT = Path(__file__).resolve().parent.parent


def test_a_misplaced_line_does_not_stop_the_checks_of_the_lines_after_it():
    text = header("t", "allfives") + ("on block:\n  bonus 10 points to the winner\n"
                                        "target at least 150 points\ntarget at least 200 points\n")
    assert [(c, m) for c, m, _ in compile_errors(text)] == [
        ("misplaced-line", "a block has nobody who goes out: the bonus is for a domino"),
        ("duplicate-statement", "the target is given twice (first on line 6)")]


def test_a_broken_line_is_reported_alone_not_also_as_a_missing_statement():
    text = (ROOT / "rulesets" / "allfives.rules").read_text(encoding="utf-8").replace("no reserve", "no reserve at all")
    assert [c for c, _, _ in compile_errors(text)] == ["unexpected-token"]


def test_a_text_the_parser_gives_up_on_has_errors_and_no_ruleset():
    result = analyse("x\n" * 30, "t.rules")
    assert result.ruleset is None and result.config is None
    assert result.errors[0].code == "unexpected-word" and result.errors[0].line == 1


def test_a_parsed_ruleset_without_its_text_still_gets_its_errors():
    # a tool may compile a parsed ruleset whose text it did not keep: the error has no source line to show
    ruleset, _ = parse(header("t", "allfives") + "target at least 150 points\ntarget at least 200 points\n", "t.rules")
    assert ruleset is not None
    with pytest.raises(rulelang.RulesetError) as err:
        compile_ruleset(replace(ruleset, text=""))
    assert [(e.code, e.line, e.source_line) for e in err.value.errors] == [("duplicate-statement", 5, "")]


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


def test_a_configuration_file_breaking_a_rule_is_refused_with_the_rule(tmp_path):
    import json as _json

    config = rulelang.compile_bundled("muggins")
    config["hand_size"] = {"2": 9, "3": 9, "4": 9}
    path = tmp_path / "big.json"
    path.write_text(_json.dumps(config), encoding="utf-8")
    with pytest.raises(rulelang.RulesetError) as err:
        rulelang.load_config(str(path))
    assert err.value.code == "too-many-tiles"
    assert err.value.message.startswith("not a rulelang configuration: ")
    assert "3 hands of 9 tiles need 3 x 9 = 27 tiles" not in err.value.message  # 27 tiles fit in 28
    assert "4 hands of 9 tiles need 4 x 9 = 36 tiles, but a double-six set has 28" in err.value.message


def test_compiling_a_parsed_ruleset_gives_its_configuration_or_raises():
    from rulelang.language.compiler import compile_ruleset
    from rulelang.language.parser import parse

    ruleset, errors = parse(HEAD.format(base="pagat") + "hand 6 tiles\n", "t.rules")
    assert errors == [] and ruleset is not None
    assert compile_ruleset(ruleset) == compiled("pagat", "hand 6 tiles\n")
    bad, _ = parse(HEAD.format(base="pagat") + "hand 9 tiles\n", "t.rules")
    assert bad is not None
    with pytest.raises(rulelang.RulesetError):
        compile_ruleset(bad)


def _allfives_without(lines: list[str]) -> list[tuple[str, str, str | None]]:
    text = (ROOT / "rulesets" / "allfives.rules").read_text(encoding="utf-8")
    kept = "\n".join(line for line in text.splitlines() if line.strip() not in lines) + "\n"
    result = analyse(kept, "t.rules")
    return [(e.code, e.message, e.hint) for e in result.errors]


def test_a_compiled_configuration_whose_raw_target_is_not_its_smallest_counts_is_refused(tmp_path):
    config = compiled("allfives", "target at least 100 points with 2 players, 150 with 3 or 4\n")
    assert config["target"]["raw"] == 100 and config["target"]["raw_by_count"] == {"2": 100, "3": 150, "4": 150}
    config["target"]["raw"] = 150
    path = tmp_path / "c.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    with pytest.raises(rulelang.RulesetError) as err:
        rulelang.load_config_dict(str(path))
    assert [(e.code, e.message) for e in err.value.errors] == [
        ("per-count", "not a rulelang configuration: target/raw: the target's raw value is not the one for the "
                      "smallest player count")]


def test_four_missing_statements_spell_out_a_line_for_each_and_five_do_not():
    four = ["draw until playable", "opener leads the deciding tile", "no overshoot rule", "no score floor"]
    start = rulelang.language.compiler.START_FROM_A_VARIANT
    assert _allfives_without(four) == [(
        "missing-statement", "missing 4 statements: the drawing rule; what the opener leads; the overshoot rule; "
                             "the score floor",
        f"{start}; or add a line such as `draw until playable`; a line such as `opener leads any tile`; "
        "a line such as `no overshoot rule`; a line such as `no score floor`")]
    assert _allfives_without([*four, "a terminal double counts both halves"]) == [(
        "missing-statement", "missing 5 statements: the drawing rule; what the opener leads; what a terminal double "
                             "counts; the overshoot rule; the score floor", start)]


def test_a_schema_fault_points_at_no_statement():
    config = rulelang.compile_bundled("allfives")
    del config["target"]
    [problem] = config_problems(config)
    assert (problem.code, problem.at, problem.path) == ("invalid-config", (), "/")


def test_a_child_missing_several_statements_is_told_to_add_them_not_to_start_from_a_variant():
    assert [(e.code, e.line, e.column, e.message, e.hint) for e in refused("based on allfives\n")] == [(
        "missing-statement", 1, 1, "missing 2 statements: the ruleset's name and title; the source of the rules",
        'add a line such as `ruleset my-fives "My Fives"`; a line such as `source "where these rules come from"`')]
