"""Rules outside the language are named as such, with the statement nearest to them, and every reference an
installed user sees is `rulelang help TOPIC`, never a repository path."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

import rulelang
from rulelang.base.errors import RulesetSyntaxError
from rulelang.language.outside import KNOWN, known_outside
from rulelang.language.statements import TABLE

ROOT = Path(__file__).resolve().parent.parent
HEAD = 'ruleset h "H"\nsource "a test"\nbased on allfives\n'


def _error(line: str) -> RulesetSyntaxError:
    [e] = rulelang.check_text(HEAD + line + "\n", "h.rules")
    assert isinstance(e, RulesetSyntaxError)
    return e


# (a phrasing from the issue or a published text, the rule the message names, the closest statement)
OUTSIDE = [
    ("a player who plays out of turn loses his turn", "playing out of turn", "opener after a domino: the next seat"),
    ("playing out of turn costs 10 points", "playing out of turn", "opener after a domino: the next seat"),
    ("a wrong count costs 10 points", "a wrong count",
     "points must be claimed; missed points are lost only when an opponent calls"),
    ("a player who miscounts his score loses 10 points", "a wrong count",
     "points must be claimed; missed points are lost only when an opponent calls"),
    ("an exposed tile costs 10 points", "an exposed tile",
     "if nobody holds the opening double: the tiles are dealt again"),
    ("a player who exposes a tile pays 10 points", "an exposed tile",
     "if nobody holds the opening double: the tiles are dealt again"),
    ("a misdeal is dealt again", "a misdeal", "if nobody holds the opening double: the tiles are dealt again"),
    ("drawing while able to play costs 30 points", "penalties for misplays", "a player may draw while able to place"),
    ("a wrong number of tiles costs 100 points", "penalties for misplays", "a player may draw while able to place"),
    ("7 minutes, the highest score wins", "on the clock", "the match lasts 3 rounds"),
    ("the match is played against the clock", "on the clock", "the match lasts 3 rounds"),
    # a rule of published texts the language does not state yet
    ("a tie at the top goes to the side that started the match", "started the match",
     "ties at the top: the side that opened the round wins"),
]


@pytest.mark.parametrize("line, rule, closest", OUTSIDE)
def test_a_rule_outside_the_language_is_named_with_its_closest_statement(line, rule, closest):
    e = _error(line)
    assert e.code == "outside-language", (e.message, e.hint)
    assert "outside the language" in e.message and rule in e.message
    assert f"the closest statement is `{closest}`" in e.hint
    assert "`rulelang help language`" in e.hint and "docs/" not in e.hint


@pytest.mark.parametrize("line, closest", [
    ("opener leads the highest double", "opener leads the deciding tile"),  # the statement under way
    ("no score tiles", "no score floor"),
    # rules of published texts the language now states: a line near one names it
    ("a hand with 4 doubles is dealt again", "the tiles are dealt again when a hand holds 5 or more doubles"),
    ("no fives: 5 never counts, 10 and up do", "a placement scores only from 10 points up"),
    ("the lead passes to the next seat, who must lead his own highest double",
     "if nobody holds the opening double: the lead passes to the next seat, who must lead its highest double"),
])
def test_a_near_miss_names_the_statement_it_starts(line, closest):
    e = _error(line)
    assert f"the closest statement is `{closest}`" in e.hint, e.hint


def test_no_statement_of_the_language_is_taken_for_a_rule_outside_it():
    for entry in TABLE:
        for example in entry.examples:
            assert known_outside(example) is None, example
    for path in sorted((ROOT / "rulesets").glob("*.rules")) + sorted((ROOT / "tests/data/rulesets/house").glob("*.rules")):
        for line in path.read_text(encoding="utf-8").split("\n"):
            assert line.lstrip().startswith("#") or known_outside(line) is None, (path.name, line)


def test_every_known_rule_has_a_closest_statement_that_parses():
    from rulelang.language.parser import parse

    for known in KNOWN:
        ruleset, errors = parse(HEAD + known.closest + "\n", "h.rules")
        assert ruleset is not None and not errors, known.closest


# -- references an installed user sees -------------------------------------------------------------

def _messages() -> list[str]:
    """Every string constant of the package's code that is not a docstring (messages, hints, help texts)."""
    out = []
    for path in sorted((ROOT / "rulelang").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        out += [f"{path.name}: {node.value}" for node in ast.walk(tree)
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]
    return out


def test_no_message_names_a_repository_path():
    # the generators write docs/ in the repository (a developer's tool): their paths are not messages
    allowed = ("generate.py", "docs.py")
    leaks = [m for m in _messages() if ("docs/" in m or "conformance/PROTOCOL.md" in m) and not m.startswith(allowed)]
    assert leaks == []


def test_no_schema_or_pinned_error_names_a_repository_path():
    for path in sorted((ROOT / "rulelang" / "schema").glob("*.json")):
        assert "docs/" not in json.loads(path.read_text(encoding="utf-8")).get("description", ""), path.name
    for path in sorted((ROOT / "tests/data/rulesets/bad").glob("*.err")):
        assert "docs/" not in path.read_text(encoding="utf-8"), path.name


def test_no_command_help_names_a_repository_path():
    import click
    from click.testing import CliRunner

    from rulelang.cli import main

    names = main.list_commands(click.Context(main))
    assert names
    for name in [None, *names]:
        result = CliRunner().invoke(main, [name, "--help"] if name else ["--help"])
        assert result.exit_code == 0 and "docs/" not in result.output, name
