"""A new scoring unit warns about each inherited amount stated in shown points."""
from __future__ import annotations

from click.testing import CliRunner

import rulelang
from rulelang.cli import main
from rulelang.language.compiler import analyse

HEAD = 'ruleset t "t"\nsource "s"\nbased on {base}\n'


def _warnings(text: str) -> list[rulelang.RulesetError]:
    result = analyse(text, "t.rules")
    assert result.errors == [] and result.config is not None  # the ruleset stays valid
    return result.warnings


def test_a_new_unit_warns_about_the_inherited_target_with_both_raw_values():
    (w,) = _warnings(HEAD.format(base="muggins") + "points are shown raw\n")
    assert w.code == "inherited-amount-unit" and w.line == 4
    assert "305 -> 61" in w.message and "muggins" in w.message
    assert w.hint is not None and "`target at least 305 points`" in w.hint


def test_an_inherited_entry_threshold_warns_too():
    warnings = _warnings(HEAD.format(base="muggins-ten-in") + "points are shown raw\n")
    assert {w.message.split(" (")[0] for w in warnings} == {"the target", "the entry threshold"}
    assert any("10 -> 2" in w.message for w in warnings)


def test_restating_the_amount_or_keeping_the_unit_is_silent():
    assert _warnings(HEAD.format(base="muggins") + "points are shown raw\ntarget at least 305 points\n") == []
    assert _warnings(HEAD.format(base="muggins") + "5 raw points make 1 shown point\n") == []
    assert _warnings(HEAD.format(base="muggins") + "hand 5 tiles\n") == []


def test_no_bundled_ruleset_warns():
    from rulelang.language.bundled import bundled_names, bundled_text

    for name in bundled_names():
        assert analyse(bundled_text(name), f"{name}.rules").warnings == [], name


def test_check_prints_the_warning_and_exits_0(tmp_path):
    path = tmp_path / "t.rules"
    path.write_text(HEAD.format(base="muggins") + "points are shown raw\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0
    assert "warning:" in result.output and "305 -> 61" in result.output
