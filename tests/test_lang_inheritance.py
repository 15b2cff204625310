"""`based on` inherits statements, not a compiled configuration."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_run import run
from click.testing import CliRunner
from ruleset_text import HEAD, child_errors, compile_errors, header, refused

import rulelang
import rulelang.language.compiler
from rulelang.cli import main
from rulelang.language.analysis import analyse as analyse_for_tools
from rulelang.language.compiler import analyse, compile_ruleset
from rulelang.language.parser import parse

BASE = ('ruleset base "Base"\nsource "s"\nbased on allfives\nplayers 2 or 3\nhand 5 tiles\n')


def test_the_issue_repro_compiles(tmp_path):
    (tmp_path / "base.rules").write_text(BASE)
    child = 'ruleset child "Child"\nsource "s"\nbased on "base.rules"\nplayers 2 to 4\n'
    config = rulelang.compile_text(child, str(tmp_path / "child.rules"))
    assert config["players"]["counts"] == [2, 3, 4]
    assert config["hand_size"] == {"2": 5, "3": 5, "4": 5}
    assert config["based_on"] == "base.rules"


def test_an_inherited_statement_error_points_at_the_based_on_line_and_names_the_base_line(tmp_path):
    (tmp_path / "base.rules").write_text(BASE.replace("hand 5 tiles", "hand 5 tiles with 2 players, 6 with 3"))
    child = 'ruleset child "Child"\nsource "s"\nbased on "base.rules"\nplayers 2 to 4\n'
    errors = rulelang.check_text(child, str(tmp_path / "child.rules"))
    assert [(e.code, e.filename, e.line) for e in errors] == [("per-count", str(tmp_path / "child.rules"), 3)]
    assert errors[0].message == "the hand size for 4 players is not given (inherited from `base.rules`)"
    assert errors[0].source_line == 'based on "base.rules"'
    assert errors[0].hint is not None and errors[0].hint.startswith(
        f"`base.rules` states `hand 5 tiles with 2 players, 6 with 3` ({tmp_path / 'base.rules'}:5); ")


def test_a_chain_inherits_from_every_level(tmp_path):
    (tmp_path / "a.rules").write_text('ruleset a "A"\nsource "s"\nbased on allfives\ntarget at least 100 points\n')
    (tmp_path / "b.rules").write_text('ruleset b "B"\nsource "s"\nbased on "a.rules"\nno drawing\n')
    config = rulelang.compile_text('ruleset c "C"\nsource "s"\nbased on "b.rules"\n', str(tmp_path / "c.rules"))
    assert (config["target"]["raw"], config["drawing"], config["name"]) == (100, "none", "c")


def test_ruleset_compile_does_not_parse_again(monkeypatch):
    from rulelang.language.bundled import bundled_text

    expected = rulelang.compile_bundled("exact61")
    ruleset, errors = parse(bundled_text("exact61"), "exact61.rules")
    assert ruleset is not None and not errors

    def no_parse(*args, **kwargs):
        raise AssertionError("parsed again")

    monkeypatch.setattr("rulelang.language.parser.parse", no_parse)
    monkeypatch.setattr("rulelang.language.compiler.parse", no_parse)
    monkeypatch.setattr("rulelang.language.parser.parse_tree", no_parse)
    assert compile_ruleset(ruleset) == expected


@pytest.mark.parametrize("line", ["players 2 to 4", "players 2 or 4", "players 4"])
def test_fmt_accepts_players_without_a_partnership_clause(tmp_path, line):


    path = tmp_path / "h.rules"
    path.write_text('based on allfives\nruleset h "H"\nsource "s"\n' + line + "\n")
    result = CliRunner().invoke(main, ["fmt", str(path)])
    assert result.exit_code == 0, result.output
    assert line + ", no partnerships" in path.read_text()
    assert rulelang.compile_file(path)["players"]["partnerships"] == []


def test_name_and_source_are_never_inherited():
    errors = rulelang.check_text('based on allfives\nsource "s"\n', "h.rules")
    assert [(e.code, e.message) for e in errors] == [("missing-statement",
                                                      "missing statement: the ruleset's name and title")]


def _based_on(tmp_path: Path, ref: str) -> rulelang.RulesetError:
    (tmp_path / "sub").mkdir(exist_ok=True)
    (tmp_path / "bad.rules").write_text(HEAD.format(base="muggins") + "hand 9 tiles\ntarget at least 0 points\n",
                                        encoding="utf-8")
    (tmp_path / "binary.rules").write_bytes(b"\xff\xfe")
    result = analyse(f'ruleset t "t"\nsource "s"\nbased on "{ref}"\n', str(tmp_path / "t.rules"))
    assert result.config is None
    return result.errors[0]


def _errors_at(text: str, filename: str) -> list[rulelang.RulesetError]:
    result = analyse(text, filename)
    assert result.errors
    return result.errors


def test_a_base_that_cannot_be_read_says_why(tmp_path):
    where = f"the path is relative to this file's folder ({tmp_path})"
    cases = {"sub": "`sub` is a folder, not a ruleset file",
             "nope.rules": "there is no ruleset file `nope.rules`",
             "binary.rules": "cannot read the ruleset file `binary.rules`: not UTF-8 text",
             "/dev/null": "cannot read the ruleset file `/dev/null`: not a regular file (a device, pipe or socket)"}
    for ref, message in cases.items():
        if ref.startswith("/dev") and not Path(ref).exists():
            continue
        e = _based_on(tmp_path, ref)
        assert (e.code, e.line, e.message, e.hint) == ("unknown-base", 3, message, where), ref


def test_a_base_with_errors_names_its_first_error(tmp_path):
    e = _based_on(tmp_path, "bad.rules")
    assert (e.code, e.message) == ("base-invalid", "the base ruleset `bad.rules` has errors")
    assert e.hint == (f"first: {tmp_path / 'bad.rules'}:4:1: "
                      "4 hands of 9 tiles need 4 x 9 = 36 tiles, but a double-six set has 28")


def test_a_file_based_on_itself_is_a_cycle_of_one_step(tmp_path):
    path = tmp_path / "s.rules"
    path.write_text('ruleset s "s"\nsource "s"\nbased on "s.rules"\n', encoding="utf-8")
    (e,) = _errors_at(path.read_text(encoding="utf-8"), str(path))
    assert (e.code, e.message) == ("base-cycle", "a cycle of `based on`: `s.rules` -> `s.rules`")


def test_a_bundled_ruleset_based_on_its_own_name_is_a_cycle():
    (e,) = _errors_at('ruleset pagat "x"\nsource "s"\nbased on pagat\n', "rulesets/pagat.rules")
    assert (e.code, e.message) == ("base-cycle", "a cycle of `based on`: `pagat.rules` -> `pagat`")


ROOT = Path(__file__).resolve().parent.parent


DEEP = ROOT / "tests" / "data" / "rulesets" / "bad" / "deep"


def test_a_cycle_through_the_text_itself_names_it_first_and_last(tmp_path):
    (tmp_path / "a.rules").write_text(header("a", '"b.rules"'), encoding="utf-8")
    (tmp_path / "b.rules").write_text(header("b", '"a.rules"'), encoding="utf-8")
    [(code, message, hint)] = compile_errors((tmp_path / "a.rules").read_text(encoding="utf-8"), str(tmp_path / "a.rules"))
    assert code == "base-cycle"
    assert message == "a cycle of `based on`: `a.rules` -> `b.rules` -> `a.rules`"
    assert hint == "remove one `based on` of the cycle"


def test_a_cycle_further_down_the_chain_names_only_the_rulesets_in_it(tmp_path):
    # a -> b -> c -> b: `a` is not part of the cycle, and the cycle is found when `c` names `b` again
    (tmp_path / "a.rules").write_text(header("a", '"b.rules"'), encoding="utf-8")
    (tmp_path / "b.rules").write_text(header("b", '"c.rules"'), encoding="utf-8")
    (tmp_path / "c.rules").write_text(header("c", '"b.rules"'), encoding="utf-8")
    [(code, message, _)] = compile_errors((tmp_path / "a.rules").read_text(encoding="utf-8"), str(tmp_path / "a.rules"))
    assert (code, message) == ("base-cycle", "a cycle of `based on`: `b.rules` -> `c.rules` -> `b.rules`")


@pytest.mark.skipif(os.name == "nt", reason="a Windows file name cannot hold `<`")
def test_a_text_without_a_file_is_not_the_file_of_that_name_in_the_current_folder(tmp_path, monkeypatch):
    # a text given as `<string>` based on x.rules, based on a file that happens to be named `<string>`:
    # the cycle is x.rules -> the file `<string>` -> x.rules, and the text itself is not in it
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.rules").write_text(header("x", '"<string>"'), encoding="utf-8")
    (tmp_path / "<string>").write_text(header("s", '"x.rules"'), encoding="utf-8")
    [(code, message, _)] = compile_errors(header("t", '"x.rules"'), "<string>")
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
    base.write_text("# a base whose base is gone\n" + header("b", '"gone.rules"'), encoding="utf-8")
    [(code, message, hint)] = compile_errors(header("t", '"b.rules"'), str(tmp_path / "t.rules"))
    assert (code, message) == ("base-invalid", "the base ruleset `b.rules` has errors")
    assert hint == f"first: {base}:4:1: there is no ruleset file `gone.rules`"


def test_the_configuration_of_a_child_names_its_base():
    assert rulelang.compile_bundled("muggins-claims")["based_on"] == "muggins"
    assert rulelang.compile_bundled("allfives")["based_on"] is None
    config = analyse(header("t", "allfives-pagat") + "target at least 200 points\n", "t.rules").config
    assert config is not None and config["based_on"] == "allfives-pagat"


def test_an_inherited_rule_on_the_last_line_of_a_base_without_a_final_newline_is_quoted(tmp_path):
    (tmp_path / "b.rules").write_text(header("b", "allfives") + "on domino:\n  credit opponents' hands separately, "
                                      "rounded to 5, to the winner\n  bonus 3 points to the winner", encoding="utf-8")
    [(code, message, hint)] = compile_errors(header("t", '"b.rules"') + "5 raw points make 1 shown point\n",
                                      str(tmp_path / "t.rules"))
    assert code == "unit-mismatch"
    assert message == "a bonus of 3 raw points is not a whole number of shown points (inherited from `b.rules`)"
    assert hint == (f"`b.rules` states `bonus 3 points to the winner` ({tmp_path / 'b.rules'}:6); restate it here to "
                    "replace it: with 5 raw points to 1 shown point, use a multiple of 5")


def test_the_authoring_tools_analyse_a_child_whose_base_cannot_be_read(tmp_path):
    analysis = analyse_for_tools(header("t", '"gone.rules"'), str(tmp_path / "t.rules"))
    assert [(e.code, e.message) for e in analysis.errors] == [("unknown-base", "there is no ruleset file `gone.rules`")]
    assert analysis.config is None and analysis.inherited == set() and analysis.base_label == "gone.rules"


def _file_errors(tmp_path: Path, base: str, extra: str = "") -> list[tuple[str, int | None, str, str | None]]:
    """(code, line, message, hint) of each error of tmp_path/t.rules, based on `base` (a quoted path)."""
    result = analyse(HEAD.format(base=base) + extra, str(tmp_path / "t.rules"))
    assert result.config is None and result.errors
    return [(e.code, e.line, e.message, e.hint) for e in result.errors]


def test_an_inherited_rule_on_the_first_line_of_its_base_is_quoted(tmp_path):
    (tmp_path / "b.rules").write_text('hand 10 tiles\nruleset b "b"\nsource "s"\nbased on allfives\n'
                                      "tiles double-nine\n", encoding="utf-8")
    errors = _file_errors(tmp_path, '"b.rules"', "tiles double-six\n")
    assert [code for code, _, _, _ in errors] == ["too-many-tiles", "too-many-tiles"]
    hint = errors[0][3]
    assert hint is not None and hint.startswith(f"`b.rules` states `hand 10 tiles` ({tmp_path / 'b.rules'}:1); ")


def test_a_base_open_in_the_editor_with_a_line_too_long_is_invalid(tmp_path):
    base = str(tmp_path / "o.rules")
    text = "# " + "x" * 600 + '\nruleset o "o"\nsource "s"\nbased on allfives\n'
    analysis = analyse_for_tools(HEAD.format(base='"o.rules"'), str(tmp_path / "t.rules"), {base: text})
    assert [(e.code, e.line, e.message, e.hint) for e in analysis.errors] == [
        ("base-invalid", 3, "the base ruleset `o.rules` has errors", f"first: {base}:1:1: a syntax error "
                                                                     "(`line-too-long`)")]


def test_a_base_path_with_a_nul_byte_is_refused_with_the_byte_shown(tmp_path):
    assert _file_errors(tmp_path, '"a\0b.rules"') == [
        ("unknown-base", 3, "the path `a\\0b.rules` holds a NUL byte", "a file name cannot contain a NUL byte")]


def test_an_unknown_bundled_base_like_no_name_lists_the_bundled_ones():
    [(code, line, _, message, hint)] = child_errors("zzzzqqqq", "")
    assert (code, line, message) == ("unknown-base", 3, "there is no bundled ruleset `zzzzqqqq`")
    assert hint == f"bundled rulesets: {', '.join(rulelang.bundled_names())}; or give a file path in quotes"


def test_a_base_path_of_a_text_without_a_file_is_relative_to_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = analyse(HEAD.format(base='"nope.rules"'), "<stdin>")
    assert [(e.code, e.line, e.message, e.hint) for e in result.errors] == [
        ("unknown-base", 3, "there is no ruleset file `nope.rules`",
         f"the path is relative to this file's folder ({tmp_path})")]


def test_a_child_must_still_name_itself():
    (e,) = refused('source "s"\nbased on allfives\n')
    assert (e.code, e.message, e.hint) == ("missing-statement", "missing statement: the ruleset's name and title",
                                           'add a line such as `ruleset my-fives "My Fives"`')


@pytest.mark.parametrize("content, needle", [(b"\xff\xfe\x00bin", "not UTF-8"), (None, "is a folder")])
def test_based_on_an_unreadable_file_is_an_error_not_a_crash(tmp_path, content, needle):
    base = tmp_path / "base.rules"
    if content is None:
        base.mkdir()
    else:
        base.write_bytes(content)
    house = tmp_path / "house.rules"
    house.write_text('ruleset house "House"\nsource "s"\nbased on "base.rules"\n')
    res = run("check", str(house))
    assert res.exit_code == 1 and needle in res.output
