"""Syntax errors decided by the grammar: word boundaries, codes, statement starts, parser cache."""
from __future__ import annotations

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


def test_the_parser_is_cached_on_disk_and_a_read_only_cache_folder_is_no_error(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    code = "import rulelang; print(rulelang.compile_bundled('allfives')['name'])"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert run.stdout.strip() == "allfives", run.stderr
    assert list((tmp_path / "cache" / "rulelang").glob("rulelang-parser-*.lark-cache"))
    not_a_folder = tmp_path / "a-file"  # no cache folder can be made under it, even as root
    not_a_folder.write_text("")
    env = dict(os.environ, XDG_CACHE_HOME=str(not_a_folder), HOME=str(not_a_folder))
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "allfives" and not run.stderr, run.stderr


def test_a_corrupt_parser_cache_is_rebuilt(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    code = "import rulelang; print(rulelang.compile_bundled('pagat')['name'])"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    (cache,) = (tmp_path / "rulelang").glob("rulelang-parser-*.lark-cache")
    cache.write_bytes(cache.read_bytes()[:100])  # half written
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert (run.returncode, run.stdout.strip(), run.stderr) == (0, "pagat", "")
    assert cache.stat().st_size > 1000
