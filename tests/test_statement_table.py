"""Walks the statement table and proves every statement is whole.

For every statement: the grammar parses its examples, `fmt` round-trips them,
`explain` says something, the schema has its fields with the values of their
types, docs/language.md documents it and a conformance case is tagged with it.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal, get_origin

import pytest

import rulelang
from rulelang.base.errors import CODES
from rulelang.config.reading import read_record
from rulelang.config.rules import RULES
from rulelang.config.validation import config_schema
from rulelang.config.vocabulary import literal_values
from rulelang.language.parser import grammar, parse
from rulelang.language.statements import INFO, TABLE, docs, for_rule
from rulelang.language.statements.docs import statement_docs

ROOT = Path(__file__).resolve().parent.parent
ENTRIES = [pytest.param(e, id=e.key) for e in TABLE]
HEAD = 'ruleset x "X"\nsource "s"\nbased on allfives\n'


def _case_tags() -> set[str]:
    tags: set[str] = set()
    for path in (ROOT / "conformance" / "cases").glob("*/*.json"):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            tags.update(case.get("tags", []))
    return tags


def _text(entry: Any, line: str) -> str:
    if entry.key in ("ruleset", "source", "based_on"):
        return {"ruleset": 'source "s"\n', "source": 'ruleset x "X"\n', "based_on": 'ruleset x "X"\nsource "s"\n'}[
            entry.key] + line + "\n"
    return HEAD + (f"on {entry.section}:\n  {line}\n" if entry.section else line + "\n")


def _read(entry: Any, line: str) -> Any:
    ruleset, errors = parse(_text(entry, line), "x.rules")
    assert not errors, (line, errors)
    assert ruleset is not None
    found = [st for st in ruleset.statements if st.key == entry.key]
    assert len(found) == 1, (line, ruleset.statements)
    return found[0].value


@pytest.mark.parametrize("entry", ENTRIES)
def test_examples_parse_and_fmt_round_trips(entry):
    assert entry.examples
    for line in entry.examples:
        value = _read(entry, line)
        canonical = entry.fmt(value)
        assert canonical and all(isinstance(x, str) and x for x in canonical)
        for text in canonical:
            assert _read(entry, text) == value, (line, text)
            assert entry.fmt(_read(entry, text)) == canonical


@pytest.mark.parametrize("entry", ENTRIES)
def test_explain_says_something(entry):
    """Each sentence is a sentence, or empty where the rule does not apply (explain leaves it out);
    every statement says something for some bundled ruleset."""
    said = entry.key == "based_on"
    for name in rulelang.bundled_names():
        config = read_record(rulelang.compile_bundled(name))
        value = entry.from_config(config)
        if value is None and entry.key == "based_on":
            continue
        sentence = entry.explain(value, config)
        if not sentence:
            continue
        said = True
        assert sentence.strip() and sentence.lstrip("(")[0].isupper() and sentence.rstrip(")").endswith("."), sentence
    assert said, entry.key


def _schema_at(path: tuple[str, ...]) -> dict[str, Any]:
    node = config_schema()
    defs = node.get("$defs", {})
    for name in path:
        node = node["properties"][name]
        if "$ref" in node:
            node = defs[node["$ref"].rsplit("/", 1)[-1]]
    return node


@pytest.mark.parametrize("entry", ENTRIES)
def test_schema_has_its_fields_with_the_values_of_their_types(entry):
    """A closed set's values are the schema's, and the default a configuration never writes (`tiles`: 6)."""
    assert entry.fields
    for f, d in zip(entry.fields, entry.declared):
        node = _schema_at(f.path)
        if get_origin(f.type) is Literal:
            never_written = {d.spec.default} - set(node["enum"]) if d.spec.schema is not None else set()
            assert set(node["enum"]) | never_written == set(literal_values(f.type)), f.path


def test_every_leaf_of_the_schema_is_set_by_a_statement():
    set_by_table = {f.path for e in TABLE for f in e.fields}
    schema = config_schema()
    leaves: list[tuple[str, ...]] = []

    def walk(node: dict[str, Any], path: tuple[str, ...]) -> None:
        if node.get("type") == "object" and "properties" in node and path[:1] != ("settlement",) or path == ():
            for name, child in node["properties"].items():
                walk(child, path + (name,))
        elif path[:1] == ("settlement",) and len(path) < 3:
            for name, child in node["properties"].items():
                walk(child, path + (name,))
        else:
            leaves.append(path)

    walk(schema, ())
    assert set(leaves) - {("format",)} == set_by_table


def test_docs_list_every_statement():
    docs = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    assert statement_docs() in docs, "docs/language.md is stale: run python -m rulelang.language.statements.docs"
    for entry in TABLE:
        assert entry.docs, entry.key
        for doc in entry.docs:
            assert doc.spelling in docs


@pytest.mark.parametrize("entry", ENTRIES)
def test_a_conformance_case_is_tagged_with_it(entry):
    features = json.loads((ROOT / "conformance" / "features.json").read_text(encoding="utf-8"))["tags"]
    assert set(entry.tags) <= set(features), entry.tags
    assert set(entry.tags) & _case_tags(), entry.key


def test_every_statement_rule_of_the_grammar_is_in_the_table():
    rules = {str(r.origin.name) for r in grammar().rules} | {str(r.alias) for r in grammar().rules if r.alias}
    statement_rules = {r for r in rules if r.endswith("_stmt") or r in ("no_reserve", "hands_term",
                                                                         "differences_term", "nobody_line",
                                                                         "winner_line", "events_line")}
    for rule in statement_rules:
        entry = for_rule(rule)[0] or for_rule(rule, "domino")[0]
        assert entry is not None, rule


def test_keys_are_unique_and_groups_in_order():
    assert len(INFO) == len(TABLE)
    assert [e.group for e in TABLE] == sorted(e.group for e in TABLE)


def test_every_rule_has_a_code_and_known_statements():
    for rule in RULES:
        assert CODES[rule.code][0] == "check"
        assert set(rule.keys) <= set(INFO)


def test_the_docs_tool_rewrites_stale_statement_tables(tmp_path):
    page = tmp_path / "language.md"
    page.write_text(f"# Language\n\n{docs.BEGIN}\nstale\n{docs.END}\n\nafter\n", encoding="utf-8")
    assert docs.rewrite(page) is True
    assert page.read_text(encoding="utf-8") == f"# Language\n\n{docs.statement_docs()}\n\nafter\n"
    assert docs.rewrite(page) is False


@pytest.mark.parametrize("line, least, message, hint", [
    ("the match lasts 0 rounds", "the match lasts 1 round", "the match must last at least 1 round",
     "write `the match lasts 3 rounds`"),
    ("the next player to place scores 0 points per knock", "the next player to place scores 1 point per knock",
     "a knock must score at least 1 point", "write `the next player to place scores 1 point per knock`"),
    ("the tiles are dealt again when a hand holds 1 or more doubles",
     "the tiles are dealt again when a hand holds 2 or more doubles",
     "a deal thrown in for a hand of doubles needs at least 2 doubles in that hand",
     "write `the tiles are dealt again when a hand holds 5 or more doubles`"),
])
def test_a_number_below_its_least_is_a_bad_number_whose_hint_is_the_phrase(line, least, message, hint):
    base = 'ruleset t "t"\nsource "s"\nbased on fives-and-threes\n'  # shown points of 1: a knock of 1 is whole
    errors = rulelang.check_text(base + line + "\n", "t.rules")
    assert [(e.code, e.line, e.message, e.hint) for e in errors] == [("bad-number", 4, message, hint)]
    # the least itself is allowed (a match of rounds then asks for other statements, which is not this check)
    assert "bad-number" not in [e.code for e in rulelang.check_text(base + least + "\n", "t.rules")]
