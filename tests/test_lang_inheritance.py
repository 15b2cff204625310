"""`based on` inherits statements, not a compiled configuration."""
from __future__ import annotations

import pytest

import rulelang
from rulelang.language.compiler import compile_ruleset
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
    from click.testing import CliRunner

    from rulelang.cli import main

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
