"""Rules outside the language are named as such, with the statement nearest to them, and every reference an
installed user sees is `rulelang help TOPIC`, never a repository path."""
from __future__ import annotations

import ast
import json
import re
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
    # rules of the texts measured in docs/measurements/published-texts-2.md that no statement states
    ("later doubles count one half", "later doubles counting one half", "a terminal double counts one half"),
    # the Leek Domino League's misplays (docs/measurements/published-texts-3b.md, text 9), in its words and others'
    ("If on turnover any player is found to be holding a domino which could previously have been played then that "
     "player must peg back 8 holes", "holding a tile that could have been played", "a player may draw while able to place"),
    ("If on turnover any player is found to be holding a domino which could previously have been played then that "
     "player must peg back 8 holes. If the player has not got at least 8pts, then his opponent pegs 8 holes on.",
     "holding a tile that could have been played", "a player may draw while able to place"),
    ("a player holding a playable tile pegs back 8 holes", "holding a tile that could have been played",
     "a player may draw while able to place"),
    ("a player found holding a domino that could have been played loses 8 points",
     "holding a tile that could have been played", "a player may draw while able to place"),
    ("8 holes back for holding a playable domino", "holding a tile that could have been played",
     "a player may draw while able to place"),
    ("if a player passes while holding a playable tile, his opponent pegs 8 holes on",
     "holding a tile that could have been played", "a player may draw while able to place"),
    ("If a player plays a domino that will not go at the end played, but will go at the other end, he/she will be "
     "allowed to reverse", "a tile played at an end where it does not go", "draw until playable"),
    ("a tile played at the wrong end may be reversed", "a tile played at an end where it does not go",
     "draw until playable"),
    ("a domino played at the wrong end may be turned round", "a tile played at an end where it does not go",
     "draw until playable"),
    ("a domino that does not go at the end played may be moved to the other end",
     "a tile played at an end where it does not go", "draw until playable"),
    ("a tile may be reversed to the other end", "a tile played at an end where it does not go", "draw until playable"),
    # rules of the texts measured in docs/measurements/published-texts-3c.md that no statement states (Akamon's
    # Dominó a Cincos, in English as a rules author would write them): duplicate play, "Tú y tu oponente jugaréis
    # siempre la misma partida contra la misma CPU ... Cada jugador recibe un juego y un tablero idénticos"
    ("you and your opponent always play the same game against the same CPU", "duplicate play", "players 2"),
    ("each player receives an identical hand and board", "duplicate play", "players 2"),
    ("both players play the same deal at separate tables and compare scores", "duplicate play", "players 2"),
    ("duplicate play: the higher score wins", "duplicate play", "players 2"),
    # and "En caso de empate, se dará por ganadora a la persona que haya empezado a jugar antes"
    ("in case of a tie, the person who started playing earlier wins", "started playing earlier in time",
     "ties at the top: the side that started the match wins"),
    ("a tie goes to whoever began to play first", "started playing earlier in time",
     "ties at the top: the side that started the match wins"),
    ("on a tie the player who started sooner wins", "started playing earlier in time",
     "ties at the top: the side that started the match wins"),
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
    # the words begun are a statement's, what follows another's: that other one is meant
    ("a tie at the top goes to the side that started the match", "ties at the top: the side that started the match wins"),
    ("a tie at the top goes to the side that opened first", "ties at the top: the side that opened the round wins"),
    ("a tie at the top is decided by 2 more rounds", "a tie at the top plays 3 extra rounds"),
    # Digitain's and dominorules.com's words for the two play statements
    ("the game is over if the needed bone is not found", "draw until playable, or the round is blocked"),
    ("the next plays must be made on the set double until all four sides are taken",
     "branches open after the line, the spinner filled first"),
    # an app's words for `opener after a domino: the seat after the dominoer`
    ("the enemy opened a new round with any stone", "opener after a domino: the seat after the dominoer"),
    # an open-source game's "play alternates ... even between rounds", after a block
    ("opener after a block: the player after the last to play", "opener after a block: the seat after the last to place"),
    # onlinedomino.nl's "whoever played the round's last tile" leads after a block
    ("opener after a block: the player who played the last tile", "opener after a block: the last to place"),
    # dominorules.com's Merry-Go-Round: "The first player must set a double"
    ("opener leads a double of his choice", "opener leads any double, drawing until one turns up"),
    ("the first player must set a double", "opener leads any double, drawing until one turns up"),
    # Majestic Hotel Harrogate's words for the heaviest tile, Gareth Edwards' for face value once
    ("the player with the highest number of dots on a domino places the first tile",
     "opener of the first round: the heaviest tile"),
    ("the player with the heaviest domino plays first", "opener of the first round: the heaviest tile"),
    ("a multiple of five or three scores its own value", "placements score multiples of 5 or 3 at face value, once"),
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


FAMILY_HEAD = 'ruleset h "H"\nsource "a test"\nbased on muggins\n'


def compiled(body: str) -> dict:
    return rulelang.compile_text(FAMILY_HEAD + body, "h.rules")


def first_error(line: str):
    errors = rulelang.check_text(FAMILY_HEAD + line + "\n", "h.rules")
    assert errors, line
    return errors[0]


# Every rule of family.md has a statement (drawing while able to place and the heaviest hand only
# were the last), so KNOWN is empty; the mechanism is proved with a rule of our own making.
_MADE_UP = ("the boneyard is shuffled ... again", "reshuffling the boneyard", "nowhere (a test)", "draw until playable")


@pytest.fixture
def made_up_known(monkeypatch):
    from rulelang.language import outside

    known = outside._k((_MADE_UP[0],), *_MADE_UP[1:])
    monkeypatch.setattr(outside, "KNOWN", (known,))
    return known


def test_a_known_rule_of_the_family_is_outside_the_language(made_up_known):
    line = "  the boneyard is shuffled once again"
    e = first_error(line)
    assert e.code == "outside-language" and "outside the language" in e.message and _MADE_UP[1] in e.message
    assert "nowhere (a test)" in e.hint and "the closest statement is `" in e.hint and "rulelang help language" in e.hint
    assert e.column == 3  # the whole line


def test_the_rules_that_were_outside_now_parse():
    from rulelang.language.outside import KNOWN

    # no rule of family.md is left outside: the known rules are misplays, play on the clock and the rules of
    # published texts the language does not state yet (tests/test_outside_words.py)
    assert not any(k.search("a player may draw while able to place") for k in KNOWN)
    assert compiled("a player may draw while able to place\n")["draw_while_able"] is True
    assert compiled("on block:\n  credit the heaviest opponent's hand only, rounded to 5, to the winner\n")[
        "settlement"]["block"]["terms"] == [{"kind": "heaviest", "rounding": "round5", "to": "winner", "sign": "credit"}]


def test_every_known_rule_names_a_closest_statement_that_parses_and_is_documented(made_up_known):
    from rulelang.language.outside import KNOWN, where
    from rulelang.language.parser import parse

    docs = (Path(__file__).parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^#+ (.*)$", docs, re.M))
    for known in KNOWN:
        section = "on block:\n  " if known.closest.startswith(("winner", "credit")) else ""
        ruleset, errors = parse(FAMILY_HEAD + section + known.closest + "\n", "h.rules")
        assert not errors and ruleset is not None, known.closest
        assert not known.search(known.closest), known.closest  # the closest is not itself outside
        assert where(known.closest) in headings, where(known.closest)


def test_every_statement_points_at_a_heading_of_the_language_page():
    from rulelang.language.outside import where
    from rulelang.language.statements import TABLE

    docs = (Path(__file__).parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^#+ (.*)$", docs, re.M))
    for entry in TABLE:
        for example in entry.examples:
            assert where(example) in headings, (entry.key, example)


@pytest.mark.parametrize("line, code, closest", [
    ("hand 5 tiles each", "unexpected-token", "hand 5 tiles"),
    ("players 2 to 4, partnerships with 4 across the table", "unexpected-word", "players 2 to 4, partnerships with 4"),
    ("target at least 61 shown points, checked at the end of a round", "unexpected-token",
     "target at least 61 shown points"),
    ("opener after a domino: the winner", "unexpected-token", "opener after a domino: the dominoer"),
    ("on block:\n  winner: the lightest hand, ties broken by the lightest single tile", "unexpected-token",
     "winner: the lightest hand, ties broken by lightest tile"),
])
def test_a_line_that_goes_on_past_a_statement_names_the_closest(line, code, closest):
    e = first_error(line)
    assert e.code == code
    assert "the statement is complete before it" in e.message or "no statement of the language" in e.message
    assert f"the closest statement is `{closest}`" in e.hint and "expected the end of the line" not in e.hint


@pytest.mark.parametrize("line, hint", [
    ("players 2 to 4, partnership with 4", "did you mean `partnerships`?"),
    ("hand five tiles", "expected a number"),
    ("opener after a domino the dominoer", "expected a colon"),
])
def test_slips_of_the_pen_keep_their_plain_hints(line, hint):
    e = first_error(line)
    assert e.hint == hint and "outside" not in e.message


SCORING_HEAD = 'ruleset house "House"\nsource "s"\nbased on muggins\n'


@pytest.mark.parametrize("line", ["drawing while able to play costs 30 points",
                                  "a player who passes when he could play loses 30 points",
                                  "misplays are penalised", "a wrong number of tiles costs 100 points"])
def test_penalties_for_misplays_are_outside_the_language(line):
    errors = rulelang.check_text(SCORING_HEAD + line + "\n", "t.rules")
    assert [e.code for e in errors] == ["outside-language"]
    assert "penalties for misplays" in errors[0].message
    assert "`a player may draw while able to place`" in errors[0].hint and "rocoh.org" in errors[0].hint
