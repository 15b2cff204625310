"""Every generated file of the checkout is what its generator makes now (`python -m rulelang.generate`)."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulelang import generate

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(not (ROOT / "pyproject.toml").is_file(), reason="needs the source tree")


def test_every_generated_file_is_up_to_date():
    files = generate.expected()
    stale = [str(p.relative_to(ROOT)) for p in generate.stale(files)]
    assert stale == [], f"stale: {', '.join(stale)}; run `python -m rulelang.generate`"


def test_the_generated_files_include_the_schema_the_grammars_and_the_docs():
    names = {str(p.relative_to(ROOT)) for p in generate.expected()}
    assert {"rulelang/schema/config.schema.json", "rulelang/highlight/keywords.json", "docs/config.md",
            "docs/language.md",
            "rulesets/index.json"} <= names
    assert any(n.startswith("editors/") for n in names)


def test_check_reports_a_stale_file_and_writes_nothing(tmp_path, monkeypatch, capsys):
    target = tmp_path / "made.txt"
    target.write_text("old\n", encoding="utf-8")
    monkeypatch.setattr(generate, "GENERATORS", (lambda read: {target: "new\n"},))
    assert generate.main(["--check"]) == 1
    assert "stale:" in capsys.readouterr().out and target.read_text(encoding="utf-8") == "old\n"
    assert generate.main([]) == 0
    assert target.read_text(encoding="utf-8") == "new\n"
    assert generate.main(["--check"]) == 0


def test_a_later_generator_reads_what_an_earlier_one_made(tmp_path, monkeypatch):
    first, copy = tmp_path / "first.md", tmp_path / "copy.md"
    first.write_text("before\n", encoding="utf-8")
    monkeypatch.setattr(generate, "GENERATORS", (lambda read: {first: "after\n"}, lambda read: {copy: read(first)}))
    assert generate.expected()[copy] == "after\n"
