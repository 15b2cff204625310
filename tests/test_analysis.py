"""The public analysis of a ruleset text (rulelang/language/analysis.py): one typed result a file, made once.

`rulelang check` (text and `--json`), the language server and the playground
read their errors, warnings and configuration from one `Analysis`; a text the
parser gives up on is read line by line for the tools, the same whatever they
ask first.
"""
from __future__ import annotations

import dataclasses
import json
import typing
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulelang.language.analysis
import rulelang.language.compiler
from rulelang.base.jsontypes import ConfigJSON
from rulelang.cli import main
from rulelang.language.analysis import Analysis, analyse
from rulelang.language.bundled import bundled_text
from rulelang.language.formatter import canonical_lines

FOREIGN = Path(__file__).parent / "data" / "foreign" / "99-udev.rules"
WARNED = 'ruleset t "t"\nsource "s"\nbased on muggins\npoints are shown raw\n'  # valid, with a warning
INVALID = 'ruleset t "t"\nsource "s"\nbased on muggins\nhand 0 tiles\n'
# more syntax errors than the parser looks for: it gives up on the text; lines 1-3 and 25 parse alone
BROKEN = 'ruleset t "t"\nsource "s"\nbased on muggins\n' + "hand 5 tils\n" * 21 + "no reserve\n"


def _any_in(hint: object) -> bool:
    """Whether a type (or any type inside it: `list[Any]`, `X | None`) is `Any`."""
    return hint is typing.Any or any(_any_in(arg) for arg in typing.get_args(hint))


def test_the_analysis_is_frozen_and_no_field_is_typed_any():
    hints = typing.get_type_hints(Analysis)
    assert set(hints) == {f.name for f in dataclasses.fields(Analysis)}
    # the configuration's JSON is typed at the JSON boundary (rulelang.base.jsontypes.ConfigJSON), not by the analysis
    assert hints["config"] == ConfigJSON | None
    assert [name for name, hint in hints.items() if name != "config" and _any_in(hint)] == []
    analysis = analyse(bundled_text("pagat"), "pagat.rules")
    with pytest.raises(dataclasses.FrozenInstanceError):
        analysis.config = None  # type: ignore[misc]


@pytest.fixture
def analyses(monkeypatch):
    """The file name of every text the compiler's pipeline analyses (rulelang.language.compiler.analyse)."""
    seen: list[str] = []
    real = rulelang.language.compiler.analyse

    def counting(text: str, filename: str = "<string>") -> rulelang.language.compiler.Compiled:
        seen.append(filename)
        return real(text, filename)

    monkeypatch.setattr(rulelang.language.compiler, "analyse", counting)
    return seen


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_check_analyses_each_file_once(tmp_path, analyses, as_json):
    files = {"valid": bundled_text("pagat"), "warned": WARNED, "invalid": INVALID, "broken": BROKEN}
    paths = []
    for name, text in files.items():
        path = tmp_path / f"{name}.rules"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    result = CliRunner().invoke(main, ["check", *(["--json"] if as_json else []), *paths])
    assert result.exit_code == 1
    assert analyses == paths  # each file once, in order (the bases are compiled without this entry point)
    if as_json:
        assert [f["ok"] for f in json.loads(result.stdout)["files"]] == [True, True, False, False]


def test_a_text_of_another_format_is_one_error_and_no_statements():
    analysis = analyse(FOREIGN.read_text(encoding="utf-8"), str(FOREIGN))
    assert [e.code for e in analysis.errors] == ["not-a-ruleset"]
    assert analysis.foreign and analysis.ruleset is None and analysis.statements == ()


def test_a_valid_text_has_its_configuration_warnings_and_inherited_rules():
    analysis = analyse(WARNED, "t.rules")
    assert analysis.errors == () and analysis.config is not None
    assert [w.code for w in analysis.warnings] == ["inherited-amount-unit"]
    assert analysis.base_label == "muggins"
    assert "target" in analysis.inherited and "unit" not in analysis.inherited
    written_in_the_base = {st.key for st in analysis.in_force if st.filename != "t.rules"}
    assert written_in_the_base and written_in_the_base <= analysis.inherited


def test_a_text_the_parser_gives_up_on_is_read_line_by_line_whatever_is_asked_first():
    first = analyse(BROKEN, "t.rules")
    assert first.parsed is None and first.config is None
    assert [st.key for st in first.statements] == ["ruleset", "source", "based_on", "reserve"]
    assert first.base_label == "muggins"
    second = analyse(BROKEN, "t.rules")
    reserve = second.statement_at(25)
    assert reserve is not None and reserve.key == "reserve"
    assert second.statements == first.statements and canonical_lines(second.ruleset) == canonical_lines(first.ruleset)
