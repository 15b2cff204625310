"""The generated parser (rulelang/fastparser.py + rulelang/parser_tables.py): lark's tables, lark's trees, never stale.

A valid text is parsed without lark (`rulelang check` starts fast, issue 12);
these tests prove that it reads every text exactly as lark does (the same
tree, positions and tokens; or, when lark raises, no tree, so that lark's path
says what is wrong), and that a grammar changed without regenerating the
tables is parsed by lark.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulelang import fastparser, parser_generate, parser_tables
from rulelang.parser import grammar, parse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "fuzz"))
import fuzzlib  # noqa: E402

REGENERATE = "python -m rulelang.parser_generate"


def test_the_generated_tables_are_those_of_the_grammar():
    """Fails after a change of rulelang/ruleset.lark until the generated module is regenerated."""
    text = (ROOT / "rulelang" / "parser_tables.py").read_text(encoding="utf-8")
    assert parser_tables.GRAMMAR_HASH == fastparser.grammar_hash(), \
        f"rulelang/parser_tables.py was made from another grammar: run `{REGENERATE}`"
    assert text == parser_generate.generate(), f"rulelang/parser_tables.py is stale: run `{REGENERATE}`"


def _lark_shape(tree: Any) -> Any:
    from lark import Token, Tree

    if isinstance(tree, Token):
        return ("token", tree.type, str(tree), tree.line, tree.column, tree.end_line, tree.end_column)
    assert isinstance(tree, Tree)
    meta = None if tree.meta.empty else (tree.meta.line, tree.meta.column, tree.meta.end_line, tree.meta.end_column)
    return (str(tree.data), meta, [_lark_shape(c) for c in tree.children])


def _fast_shape(tree: Any) -> Any:
    if isinstance(tree, fastparser.Token):
        return ("token", tree.type, str(tree), tree.line, tree.column, tree.end_line, tree.end_column)
    assert isinstance(tree, fastparser.Node)
    meta = None if tree.meta.empty else (tree.meta.line, tree.meta.column, tree.meta.end_line, tree.meta.end_column)
    return (tree.data, meta, [_fast_shape(c) for c in tree.children])


def _same_as_lark(text: str) -> bool:
    """The generated parser's tree equals lark's; or both find the text wrong. True when the text is valid."""
    from lark.exceptions import UnexpectedInput

    try:
        expected = _lark_shape(grammar().parse(text))
    except UnexpectedInput:
        expected = None
    got = fastparser.parse(text)
    assert (None if got is None else _fast_shape(got)) == expected, text
    return expected is not None


def _texts() -> list[str]:
    files = sorted(p for p in ROOT.rglob("*.rules") if ".git" not in p.parts)
    return [p.read_text(encoding="utf-8") for p in files]


def test_every_ruleset_file_of_the_repository_reads_as_lark_reads_it():
    texts = _texts()
    assert len(texts) > 20
    valid = sum(_same_as_lark(t if t.endswith("\n") else t + "\n") for t in texts)
    assert valid > 20


@pytest.mark.parametrize("seed", range(4))
def test_generated_and_mutated_texts_read_as_lark_reads_them(seed):
    rng = random.Random(seed)
    valid = 0
    for _ in range(150):
        text = fuzzlib.grammar_text(rng) if rng.random() < 0.5 else fuzzlib.mutate_ruleset(rng)
        text = text.replace("\x00", "")
        valid += _same_as_lark(text if text.endswith("\n") else text + "\n")
    assert valid > 10  # both kinds of text are exercised


@pytest.mark.parametrize("text", [
    "", "\n", "# only a comment\n", "players 2 to 4\r\n", "seat 0\n", "opener of the first round: seat 0\n",
    "players  2\tto 4 # note\n\n\n", "players 2 to 4", "players 2 to 4\n  # indented comment\n",
    "on block:\n  winner: none\n  nobody scores\n", "target exactly 61 points\n\n", "players 2 to 4,\n",
])
def test_edge_texts_read_as_lark_reads_them(text):
    _same_as_lark(text if text.endswith("\n") else text + "\n")


def test_a_valid_text_is_parsed_without_importing_lark():
    code = ("import sys, rulelang; errors = rulelang.check_text(open('rulesets/allfives.rules').read(), 'a.rules');"
            "print(len(errors), 'lark' in sys.modules)")
    env = {k: v for k, v in os.environ.items() if k != "RULELANG_NO_FAST_PARSER"}
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert run.stdout.split() == ["0", "False"], run.stderr


def test_stale_tables_are_never_used(monkeypatch):
    """A grammar changed without regenerating: lark parses every text (slowly), and the results are the same."""
    text = (ROOT / "rulesets" / "allfives.rules").read_text(encoding="utf-8")
    fast, _ = parse(text, "a.rules")
    monkeypatch.setattr(parser_tables, "GRAMMAR_HASH", "0" * 64)
    monkeypatch.setattr(fastparser, "_TABLES", [])
    assert fastparser.tables() is None and fastparser.parse(text) is None
    slow, _ = parse(text, "a.rules")
    assert slow == fast and [s.span for s in slow.statements] == [s.span for s in fast.statements]
    monkeypatch.undo()
    monkeypatch.setattr(fastparser, "_TABLES", [])
    assert fastparser.tables() is not None
    monkeypatch.setattr(fastparser, "_TABLES", [])
    monkeypatch.setenv("RULELANG_NO_FAST_PARSER", "1")  # lark for every text, on demand
    assert fastparser.tables() is None


def test_the_fast_path_and_lark_read_the_same_statements():
    for text in _texts():
        fast, fast_errors = parse(text, "x.rules")
        fastparser._TABLES[:] = [None]  # lark only
        try:
            slow, slow_errors = parse(text, "x.rules")
        finally:
            fastparser._TABLES.clear()
        assert [e.render() for e in fast_errors] == [e.render() for e in slow_errors]
        assert fast == slow
        if fast is not None:
            assert [(s.span, s.section, s.misplaced) for s in fast.statements] == \
                [(s.span, s.section, s.misplaced) for s in slow.statements]
            assert fast.sections == slow.sections


def test_the_regenerator_reports_a_stale_module(tmp_path, monkeypatch):
    out = tmp_path / "parser_tables.py"
    out.write_text("GRAMMAR_HASH = 'old'\n")
    monkeypatch.setattr(parser_generate, "OUTPUT", str(out))
    assert parser_generate.main(["--check"]) == 1
    assert parser_generate.main([]) == 0 and parser_generate.main(["--check"]) == 0
