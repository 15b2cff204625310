"""A statement entry declares its own field and feature tags; `python -m rulelang.generate` writes them out."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulelang import generate
from rulelang.config.declared import declared
from rulelang.config.spec import FieldDecl
from rulelang.config.stated import BEGIN, END, block, declare_line
from rulelang.language.statements import INFO, TABLE

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(not (ROOT / "pyproject.toml").is_file(), reason="needs the source tree")


def test_a_field_declared_in_its_entry_is_a_typed_field_of_the_configuration():
    knock = INFO["knock_bonus"]
    assert [d.path for d in knock.declares] == ["scoring.knock_bonus"]
    spec = next(d.spec for d in declared() if d.attr == "knock_bonus")
    assert (spec.dotted, spec.statement, spec.default) == ("scoring.knock_bonus", "knock_bonus", 0)
    assert [f.pointer for f in knock.fields] == ["/scoring/knock_bonus"]


def test_every_declared_field_is_in_the_generated_block_and_nowhere_else():
    text = (ROOT / "rulelang" / "config" / "fields.py").read_text(encoding="utf-8")
    generated = text.partition(BEGIN)[2].partition(END)[0]
    for entry in TABLE:
        for decl in entry.declares:
            assert declare_line(entry.key, decl) in generated
            assert text.count(f'"{decl.path}"') == 1, f"{decl.path} declared twice"


def test_a_nested_field_from_an_entry_sits_with_its_siblings():
    paths = [d.spec.dotted for d in declared()]
    assert paths.index("settlement.domino.bonus") < paths.index("settlement.block.winner")
    assert paths.index("scoring.knock_bonus") < paths.index("target.raw")


def test_the_generated_line_carries_type_default_and_before():
    line = block([("x_rule", FieldDecl("scoring.x", "Positive | None", "what x says", default=None, before="unit"))])
    assert line == '    x_rule: Positive | None = declare("scoring.x", "what x says", "x_rule", default=None, before="unit")\n'
    assert 'default="a"' in declare_line("y", FieldDecl("y", "Text", "y", default="a"))


def test_a_stale_field_block_is_reported(monkeypatch):
    fields = generate.FIELDS
    real = fields.read_text(encoding="utf-8")
    edited = real.replace('default=0)\n    # END', 'default=1)\n    # END')
    assert edited != real
    made = generate.statement_fields(lambda p: edited if p == fields else p.read_text(encoding="utf-8"))
    assert made[fields] == real


def test_lost_markers_are_a_clear_error():
    with pytest.raises(ValueError, match="markers"):
        generate.statement_fields(lambda p: "class Fields:\n    pass\n")


def test_a_feature_tag_and_its_line_come_from_its_entry():
    tags = json.loads(generate.FEATURES.read_text(encoding="utf-8"))["tags"]
    for entry in TABLE:
        assert set(entry.features) <= set(entry.tags), entry.key
        for tag, line in entry.features.items():
            assert tags[tag] == line
    owners = [t for s in TABLE for t in s.features]
    assert len(owners) == len(set(owners)), "a tag is introduced by one statement"
    assert INFO["knock_bonus"].tags == ("knock-bonus",)


def test_a_new_tag_from_an_entry_is_added_to_features_json(monkeypatch):
    import dataclasses

    knock = INFO["knock_bonus"]
    extra = dataclasses.replace(knock, features={**knock.features, "new-tag": "what an engine must do"})
    monkeypatch.setattr("rulelang.language.statements.TABLE", tuple(extra if s is knock else s for s in TABLE))
    made = json.loads(generate.feature_tags(lambda p: p.read_text(encoding="utf-8"))[generate.FEATURES])
    assert list(made["tags"])[-1] == "new-tag" and made["tags"]["new-tag"] == "what an engine must do"


def test_lost_markers_exit_2_with_the_message_and_no_traceback(monkeypatch, capsys):
    def broken(read):
        return generate.statement_fields(lambda p: "class Fields:\n    pass\n")

    monkeypatch.setattr(generate, "GENERATORS", (broken,))
    assert generate.main(["--check"]) == 2
    err = capsys.readouterr().err
    assert "lost its generated block's markers" in err and "Traceback" not in err
