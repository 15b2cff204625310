"""`fmt` keeps the author's order of statements and comments; `fmt --sort` gives the canonical order."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import rulelang
from rulelang.cli import main
from rulelang.language.formatter import format_text

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data" / "fmt"
TEXT_ORDER = (DATA / "text-order.rules").read_text(encoding="utf-8")
RULESETS = sorted((ROOT / "rulesets").glob("*.rules")) + sorted((ROOT / "tests/data/rulesets/house").glob("*.rules"))
assert RULESETS


def test_a_text_in_the_order_of_a_rule_text_keeps_its_order():
    assert format_text(TEXT_ORDER) == TEXT_ORDER


def test_only_spelling_spacing_and_blank_lines_change():
    messy = (DATA / "text-order-spelling.rules").read_text(encoding="utf-8")
    assert format_text(messy) == TEXT_ORDER


def test_sort_gives_the_canonical_order():
    text = format_text(TEXT_ORDER, sort=True)
    assert text.index("hand 6 tiles") < text.index("target at least 100 points") < text.index("on domino:")
    assert text.index("# 3. Six tiles each.\nhand 6 tiles  # whatever the number of players") > 0
    assert rulelang.compile_text(text) == rulelang.compile_text(TEXT_ORDER)


def test_fmt_command_keeps_the_order_and_sorts_on_request(tmp_path):
    path = tmp_path / "sheet.rules"
    path.write_text(TEXT_ORDER, encoding="utf-8")
    assert CliRunner().invoke(main, ["fmt", "--check", str(path)]).exit_code == 0
    assert CliRunner().invoke(main, ["fmt", "--check", "--sort", str(path)]).exit_code == 1
    assert CliRunner().invoke(main, ["fmt", "--sort", str(path)]).exit_code == 0
    assert path.read_text(encoding="utf-8") == format_text(TEXT_ORDER, sort=True)
    result = CliRunner().invoke(main, ["fmt", "--sort", "-"], input=TEXT_ORDER)
    assert result.exit_code == 0 and result.output == format_text(TEXT_ORDER, sort=True)


def _reversed(text: str) -> str:
    """The top-level statements of a comment-free canonical text in reverse order, its sections after them."""
    lines = text.rstrip("\n").split("\n")
    cut = next((i for i, line in enumerate(lines) if line.startswith("on ")), len(lines))
    top = [line for line in lines[:cut] if line.strip()]
    return "\n".join(reversed(top)) + "\n\n" + "\n".join(lines[cut:]) + "\n"


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.name)
def test_bundled_and_house_rulesets_in_both_orders(path):
    """Sorting a text kept in its author's order gives the canonical text; a bundled file (canonical) is also in
    its author's order; shuffled, `--sort` restores the canonical text and the default keeps the shuffle."""
    text = path.read_text(encoding="utf-8")
    assert format_text(format_text(text), sort=True) == format_text(text, sort=True)
    if path.parent.name == "rulesets":
        assert format_text(text) == text == format_text(text, sort=True)
    canonical = rulelang.config_to_text(rulelang.compile_file(path))  # comment-free
    shuffled = _reversed(canonical)
    kept = format_text(shuffled)
    assert kept != canonical and kept.split("\n")[0] == shuffled.split("\n")[0]  # the last line stays first
    assert format_text(kept) == kept
    assert format_text(shuffled, sort=True) == canonical
