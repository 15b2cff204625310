"""Regenerate every generated file of the checkout: `python -m rulelang.generate [--check]`.

One list, `GENERATORS`: each returns the files it makes and the text each
must have. A later generator sees the texts of the earlier ones (the parser's
tables are built from the grammar as generated first).
`--check` writes nothing and exits 1 when a file is stale;
tests/test_generated.py runs the same check. The first, `statement_fields`,
writes the fields statement entries declare into rulelang/config/fields.py;
when it changes that file, the others are made again by a fresh process
(they read `Fields` as imported).
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
Texts = Mapping[Path, str]
Generator = Callable[[Callable[[Path], str]], dict[Path, str]]


FIELDS = ROOT / "rulelang" / "config" / "fields.py"
FEATURES = ROOT / "conformance" / "features.json"


def statement_fields(read: Callable[[Path], str]) -> dict[Path, str]:
    """The generated block of `Fields` (rulelang/config/fields.py), from the fields statement entries declare."""
    from rulelang.config.stated import block, rewrite
    from rulelang.language.statements import TABLE

    return {FIELDS: rewrite(read(FIELDS), block((s.key, d) for s in TABLE for d in s.declares))}


def feature_tags(read: Callable[[Path], str]) -> dict[Path, str]:
    """conformance/features.json with the lines of the tags statement entries introduce (`features=`); its other
    tags stay as written, a new one is added at the end."""
    from rulelang.language.statements import TABLE

    doc = json.loads(read(FEATURES))
    for s in TABLE:
        doc["tags"].update(s.features)
    return {FEATURES: json.dumps(doc, indent=2, ensure_ascii=False) + "\n"}


def config_schema(read: Callable[[Path], str]) -> dict[Path, str]:
    """The JSON Schema of the configuration, from rulelang/config/fields.py."""
    from rulelang.config.schema import dump, generate

    return {ROOT / "rulelang" / "schema" / "config.schema.json": dump(generate())}


def config_fields(read: Callable[[Path], str]) -> dict[Path, str]:
    """The table of every field in docs/config.md, from rulelang/config/fields.py."""
    from rulelang.config.docs import rewrite
    from rulelang.language.statements import INFO

    path = ROOT / "docs" / "config.md"
    return {path: rewrite(read(path), lambda key: INFO[key].words)}


def grammar_file(read: Callable[[Path], str]) -> dict[Path, str]:
    """The grammar (rulelang/language/ruleset.lark), from the phrases of the statement table."""
    from rulelang.language.statements.grammar_file import GRAMMAR, grammar_text

    return {GRAMMAR: grammar_text()}


def highlighting(read: Callable[[Path], str]) -> dict[Path, str]:
    """The highlight keywords and the editors' TextMate grammars, from the grammar's keywords."""
    from rulelang.highlight.generate import outputs
    from rulelang.language.statements.grammar_file import GRAMMAR, keywords_in

    return outputs(keywords_in(read(GRAMMAR)))


def statement_tables(read: Callable[[Path], str]) -> dict[Path, str]:
    """The statement tables of docs/language.md, from the statement table."""
    from rulelang.language.statements.docs import BEGIN, END, statement_docs

    path = ROOT / "docs" / "language.md"
    head, _, rest = read(path).partition(BEGIN)
    _, _, tail = rest.partition(END)
    return {path: head + statement_docs() + tail}


def engine_api(read: Callable[[Path], str]) -> dict[Path, str]:
    """The fixed points and house rules of docs/engine-api.md, from interpreter/hooks.py and interpreter/house.py."""
    from rulelang.interpreter.hook_docs import rewrite

    path = ROOT / "docs" / "engine-api.md"
    return {path: rewrite(read(path))}


def pypi_readme(read: Callable[[Path], str]) -> dict[Path, str]:
    """README.pypi.md, the package's long description: the README with its relative links and images made
    absolute on the repository (pyproject.toml's `[project.urls] Repository`), which PyPI cannot resolve."""
    import tomllib

    repo = tomllib.loads(read(ROOT / "pyproject.toml"))["project"]["urls"]["Repository"].rstrip("/")

    def absolute(m: re.Match[str]) -> str:
        bang, text, target = m[1], m[2], m[3]
        if re.match(r"[a-z][a-z0-9+.-]*:|#", target):  # a URL (https:, mailto:) or an anchor of the page itself
            return m[0]
        return f"{bang}[{text}]({repo}/{'raw' if bang else 'blob'}/main/{target})"

    text = re.sub(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)", absolute, read(ROOT / "README.md"))
    return {ROOT / "README.pypi.md": text}


def bundled_index(read: Callable[[Path], str]) -> dict[Path, str]:
    """The summary of the bundled rulesets that `rulelang list` reads."""
    from rulelang.language.bundled_index import INDEX_NAME, build

    return {ROOT / "rulesets" / INDEX_NAME: json.dumps(build(), indent=1, ensure_ascii=False) + "\n"}


def parser_tables(read: Callable[[Path], str]) -> dict[Path, str]:
    """The parser's JSON tables, shipped beside the grammar, from the grammar as generated above; rebuilt only
    when the grammar changed (lark numbers the states differently from one build to the next: tables of the same
    grammar are current)."""
    from rulelang.language.grammar import GRAMMAR_FILE, TABLES_FILE, tables_current, tables_text

    path = ROOT / "rulelang" / "language" / TABLES_FILE
    grammar = read(ROOT / "rulelang" / "language" / GRAMMAR_FILE)
    old = read(path) if path.is_file() else ""
    return {path: old if tables_current(old, grammar) else tables_text(grammar)}


GENERATORS: tuple[Generator, ...] = (statement_fields, feature_tags, grammar_file, config_schema, config_fields, highlighting, statement_tables,
                                     engine_api, bundled_index, parser_tables, pypi_readme)


def expected() -> dict[Path, str]:
    """Every generated file and the text it must have."""
    made: dict[Path, str] = {}

    def read(path: Path) -> str:
        return made[path] if path in made else path.read_text(encoding="utf-8")

    for generator in GENERATORS:
        made.update(generator(read))
    return made


def stale(files: Texts) -> list[Path]:
    """The files whose text differs from the expected (or that are missing)."""
    return [path for path, text in files.items() if not path.is_file() or path.read_text(encoding="utf-8") != text]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a generated file is stale")
    opts = parser.parse_args(argv)
    if not (ROOT / "pyproject.toml").is_file():
        print("rulelang.generate: run it in a checkout of rulelang (no pyproject.toml beside the package)",
              file=sys.stderr)
        return 2
    try:
        if not opts.check and GENERATORS[0] is statement_fields:
            fields = statement_fields(lambda p: p.read_text(encoding="utf-8"))
            if stale(fields):  # `Fields` changed: the rest is made from it by a process that imports it anew
                FIELDS.write_text(fields[FIELDS], encoding="utf-8")
                print(f"wrote {FIELDS.relative_to(ROOT)}")
                return subprocess.run([sys.executable, "-m", "rulelang.generate"], cwd=ROOT).returncode
        files = expected()
    except ValueError as err:  # a source a generator cannot read (the markers of a generated block lost)
        print(f"rulelang.generate: {err}", file=sys.stderr)
        return 2
    old = stale(files)
    for path in old:
        where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        if opts.check:
            print(f"stale: {where}")
        else:
            path.write_text(files[path], encoding="utf-8")
            print(f"wrote {where}")
    if not old:
        print(f"{len(files)} generated files, all up to date")
    return 1 if opts.check and old else 0


if __name__ == "__main__":
    sys.exit(main())
