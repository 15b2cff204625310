"""Syntax errors decided by the grammar: word boundaries, codes, statement starts, the shipped parser tables."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rulelang

HEAD = 'based on allfives\nruleset h "H"\nsource "s"\n'
ROOT = Path(__file__).resolve().parent.parent


def first(line: str) -> rulelang.RulesetError:
    errors = rulelang.check_text(HEAD + line + "\n", "h.rules")
    assert errors, line
    return errors[0]


def test_a_keyword_ends_at_a_word_boundary():
    e = first("no score floors")
    assert (e.code, e.message, e.hint) == ("unexpected-word", "unexpected word `floors`", "did you mean `floor`?")
    assert (e.column, e.end_column) == (10, 16)


@pytest.mark.parametrize("word", ["flor", "banana", "floorx"])
def test_an_unknown_word_has_one_code_whatever_its_spelling(word):
    assert first(f"no score {word}").code == "unexpected-word"


def test_a_keyword_out_of_place_is_a_token_error():
    e = first("no score tiles")
    assert e.code == "unexpected-token" and e.message.startswith("unexpected word `tiles`")
    assert "the closest statement is `no score floor`" in e.hint  # no statement goes on like this


@pytest.mark.parametrize("line", ["hand 5tiles", "players 2to4"])
def test_a_number_runs_into_a_word(line):
    e = first(line)
    assert e.code == "unexpected-word" and e.hint == "put a space between a number and a word"


def test_the_start_of_a_statement_is_detected_by_the_grammar():
    e = first("banana split")
    assert e.hint.startswith("expected the start of a statement")
    e = first("players banana")
    assert e.hint == "expected a number"


def _old_cache_file(cache_home: Path) -> Path:
    """Where rulelang 0.2 kept lark's pickled parser (`cache=`): a name anyone can predict."""
    import hashlib

    import lark

    from rulelang.language.grammar import grammar_source

    digest = hashlib.sha256(f"{lark.__version__}\n{grammar_source()[0]}".encode()).hexdigest()[:16]
    return cache_home / "rulelang" / f"rulelang-parser-{digest}.lark-cache"


class _Planted:
    """A pickle that makes a folder when it is loaded: proof that a cache file ran code."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (str(self.marker),))


def _check_allfives(env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(env, PYTHONPATH=os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "rulelang", "check", "allfives"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_a_planted_parser_cache_runs_no_code(tmp_path):
    import pickle

    cache = _old_cache_file(tmp_path / "cache")
    cache.parent.mkdir(parents=True)
    cache.parent.chmod(0o777)  # a folder anyone may write, as another user's can be
    marker = tmp_path / "the-pickle-ran"
    cache.write_bytes(b"0" * 64 + b"\n" + pickle.dumps(_Planted(marker)))
    run = _check_allfives(dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache")), tmp_path)
    assert run.returncode == 0, run.stderr
    assert not marker.exists()


def test_the_parser_writes_no_file_and_follows_no_link(tmp_path):
    home, work, victim = tmp_path / "home", tmp_path / "work", tmp_path / "victim.txt"
    home.mkdir()
    work.mkdir()
    victim.write_text("keep me\n")
    link = _old_cache_file(tmp_path / "cache")
    link.parent.mkdir(parents=True)
    link.symlink_to(victim)
    run = _check_allfives(dict(os.environ, HOME=str(home), XDG_CACHE_HOME=str(tmp_path / "cache")), work)
    assert run.returncode == 0, run.stderr
    assert victim.read_text() == "keep me\n"
    no_home = {k: v for k, v in os.environ.items() if k not in ("HOME", "XDG_CACHE_HOME")}
    run = _check_allfives(no_home, work)  # no home folder known: nothing lands in the working folder (`./~/`)
    assert run.returncode == 0, run.stderr
    assert (list(home.iterdir()), list(work.iterdir()), list(link.parent.iterdir())) == ([], [], [link])


def test_the_parser_is_read_from_the_shipped_json_tables():
    import lark

    from rulelang.language import grammar

    raw = (ROOT / "rulelang" / "language" / grammar.TABLES_FILE).read_text(encoding="utf-8")
    text = grammar.grammar_source()[0]
    if json.loads(raw)["lark"] == lark.__version__:  # the lark the tables were built by: they are loaded
        assert grammar.grammar().source_path == "<deserialized>"  # lark's loader of tables, not a build
        assert grammar._current(raw, text) is not None
    assert grammar.tables_current(raw)
    other_lark = raw.replace('"lark":"', '"lark":"0.', 1)
    assert grammar._current(other_lark, text) is None  # another lark never loads them: it builds the parser
    assert grammar.tables_current(other_lark)  # yet `generate --check` passes where a newer lark is installed
    assert not grammar.tables_current(raw.replace('"grammar":"', '"grammar":"0', 1))  # another grammar: stale
    assert not grammar.tables_current("not json")


def test_the_shipped_tables_parse_every_bundled_ruleset_as_a_fresh_build_does():
    from rulelang.language import grammar

    text = grammar.grammar_source()[0]
    shipped, built = grammar._shipped(text), grammar._build(text)
    assert shipped is not None
    files = sorted((ROOT / "rulelang" / "rulesets").glob("*.rules"))
    assert files
    for path in files:
        source = path.read_text(encoding="utf-8")
        a, b = shipped.parse(source), built.parse(source)
        assert a == b, path.name
        assert [(t.meta.line, t.meta.column, t.meta.end_line) for t in a.iter_subtrees()] == \
               [(t.meta.line, t.meta.column, t.meta.end_line) for t in b.iter_subtrees()], path.name
