"""The configuration layer (rulelang/config/): one declaration per field, and what is built from it."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

import rulelang
from rulelang.config.declared import declared, statement_pointer
from rulelang.config.defaults import empty_config, without_defaults
from rulelang.config.reading import read_fields
from rulelang.config.rules import config_problems
from rulelang.config.schema import generate
from rulelang.config.validation import config_schema
from rulelang.interpreter.config import Config
from rulelang.language.statements import INFO, TABLE

ROOT = Path(__file__).resolve().parents[1]
LAYER = ROOT / "rulelang" / "config"


def _get(config, path):
    node = config
    for name in path:
        node = node[name]
    return node


def test_the_committed_schema_is_the_generated_one():
    assert config_schema() == generate(), "run `python -m rulelang.generate`"
    assert config_schema()["$id"] == "urn:rulelang:schema:config:1"


def test_the_layer_imports_neither_the_language_nor_the_engine():
    for path in sorted(LAYER.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                assert not name.startswith("rulelang") or name.startswith("rulelang.config"), (path.name, name)


def test_every_field_but_the_format_is_set_by_a_statement_of_the_table():
    unset = [d.spec.dotted for d in declared() if d.spec.statement is None]
    assert unset == ["format"]
    assert {d.spec.statement for d in declared() if d.spec.statement} <= set(INFO)
    assert all(entry.fields for entry in TABLE)  # the table's fields are the declared ones with its key


def test_a_fault_points_at_its_statements_first_field():
    assert statement_pointer("overshoot") == "/target/overshoot"
    assert statement_pointer("hand") == "/hand_size"
    assert statement_pointer("domino_terms") == "/settlement/domino/terms"


def test_the_empty_configuration_holds_every_required_field_and_nothing_else():
    empty = empty_config()
    required = [d.spec.path for d in declared() if d.spec.required]
    for path in required:
        _get(empty, path)
    leaves = []

    def walk(node, path):
        for key, value in node.items():
            if isinstance(value, dict) and value and path + (key,) not in required:
                walk(value, path + (key,))
            else:
                leaves.append(path + (key,))

    walk(empty, ())
    assert sorted(leaves) == sorted(required)
    assert empty_config() is not empty_config() and empty_config() == empty


@pytest.mark.parametrize("name", rulelang.bundled_names())
def test_the_engine_reads_every_field_of_a_bundled_configuration(name):
    data = rulelang.compile_bundled(name)
    config = Config.from_dict(data)
    for d in declared():
        value = getattr(config, d.attr)
        if d.spec.path[-1] not in _get(data, d.spec.path[:-1]):
            continue  # absent: its default (test below)
        raw = _get(data, d.spec.path)
        if isinstance(raw, dict):
            assert dict(value) == {int(k): v for k, v in raw.items()}, d.attr
        elif isinstance(raw, list):
            assert list(value) == (sorted(raw) if d.attr == "counts" else raw), d.attr
        else:
            assert value == raw, d.attr
    assert config.domino == {**data["settlement"]["domino"], "terms": config.domino["terms"]}
    assert config.to_dict() == data and config == Config.from_dict(json.loads(json.dumps(data)))


def test_an_absent_optional_field_reads_as_its_default():
    config = Config.from_dict(rulelang.compile_bundled("allfives"))
    assert (config.tiles, config.draw_limit, config.draw_while_able, config.formula, config.divisors) == \
        (6, None, False, "value", (config.multiple,))
    assert (config.entry, config.rounds, config.lead_cannot_win, dict(config.target_by_count), dict(config.tie_rounds),
            config.knock_bonus, config.hand_doubles, config.round_end, config.claims) == \
        (0, None, False, {}, {}, 0, "both-halves", "player-out", "none")
    assert (config.domino_winner, config.domino_bonus, config.block_partners_tie) == ("dominoer", 0, "side-wins")
    assert config.spinner_orientation == "crosswise" and config.branch_length == "unlimited"


def test_config_is_frozen_and_hashable_by_content():
    data = rulelang.compile_bundled("allfives")
    a, b = Config.from_dict(data), Config.from_dict(data)
    assert a == b and hash(a) == hash(b) and a is not b
    with pytest.raises(AttributeError):
        a.target = 5  # type: ignore[misc]
    assert not hasattr(a, "rules")


def test_without_defaults_drops_what_holds_its_default_and_what_means_nothing():
    data = rulelang.compile_bundled("allfives")
    spelled = json.loads(json.dumps(data))
    spelled["scoring"].update(formula="value", divisors=[3], hand_doubles="both-halves")
    spelled["target"]["entry"] = 0
    spelled["settlement"]["domino"].update(bonus=0, winner="dominoer")
    spelled.update(claims="none", round_end="player-out")
    assert without_defaults(spelled) == data
    divided = json.loads(json.dumps(data))
    divided["scoring"].update(formula="per-multiple", divisors=[data["scoring"]["multiple"]])
    assert "divisors" not in without_defaults(divided)["scoring"]


def test_read_fields_gives_one_value_per_declared_field():
    values = read_fields(rulelang.compile_bundled("pagat"))
    assert list(values) == [d.attr for d in declared()]


def test_the_engine_refuses_what_the_validator_refuses():
    from rulelang.interpreter.errors import ConfigError

    data = rulelang.compile_bundled("allfives")
    data["target"]["overshoot"] = "none"
    data["target"]["mode"] = "exact"
    problem = config_problems(data)[0]
    with pytest.raises(ConfigError) as e:
        Config.from_dict(data)
    assert (e.value.code, e.value.message, e.value.path) == (problem.code, problem.message, problem.path)



def test_the_divisor_formulas_keep_multiple_at_five_whichever_divisor_comes_first():
    # `scoring.multiple` means nothing when the divisors decide what scores: the compiler writes the
    # fixed value, and the validator refuses another (a dead field no case could ever check)
    text = ('ruleset house "House"\nsource "s"\nbased on fives-and-threes\n'
            "placements score multiples of 3 or 5, one point per multiple\n")
    scoring = rulelang.compile_text(text)["scoring"]
    assert (scoring["multiple"], scoring["divisors"], scoring["formula"]) == (5, [3, 5], "per-multiple")
    data = rulelang.compile_bundled("fives-and-threes")
    data["scoring"]["multiple"] = 3
    assert [p.path for p in config_problems(data)] == ["/scoring/multiple"]
    zero = rulelang.check_text(text.replace("of 3 or 5", "of 0 or 5"))
    assert [e.code for e in zero] == ["bad-number"]


def test_every_default_is_a_value_of_its_own_type():
    """A field's default satisfies the type it is declared with (knock_bonus: 0 is not `Positive`)."""
    import jsonschema

    from rulelang.config.declared import typed
    from rulelang.config.schema import _value_schema

    data = rulelang.compile_bundled("allfives")
    for d in typed():
        if d.spec.required or d.spec.schema is not None:
            continue  # an explicit schema may refuse the default: written only when not it (`tiles: 6`)
        default = d.spec.default_for(data)
        if default is None:
            continue  # null: the field absent (`draw_limit`, `rounds`)
        assert jsonschema.Draft202012Validator(_value_schema(d)).is_valid(default), d.attr


def test_a_knock_bonus_of_0_is_its_default():
    data = rulelang.compile_bundled("allfives")
    data["scoring"]["knock_bonus"] = 0
    assert config_problems(data) == []
    assert Config.from_dict(data).knock_bonus == 0
    assert rulelang.compile_text(rulelang.config_to_text(data)) == rulelang.compile_bundled("allfives")


def test_a_cross_field_rule_is_declared_once_for_the_schema_and_the_language():
    from rulelang.config.fields import LAST_PLACEMENT_NEEDS_DOMINOER as declared
    from rulelang.config.rules import RULES

    node = config_schema()["properties"]["settlement"]["properties"]["domino"]
    assert {k: node[k] for k in declared.keywords} == declared.keywords
    assert [r.keys for r in RULES if r.code == declared.code] == [declared.statements]
    data = rulelang.compile_bundled("exact61")
    data["settlement"]["domino"] = {"winner": "lightest-side", **data["settlement"]["domino"]}
    assert [p.path for p in config_problems(data)] == ["/settlement/domino/with_last_placement"]
    from rulelang.config.reading import read_record
    from rulelang.config.rules import rule_problems

    assert [(p.code, p.message) for p in rule_problems(read_record(data))] == [(declared.code, declared.message)]


# -- the typed record the compiler resolves into, and its JSON at the boundary ------------------------------

@pytest.mark.parametrize("name", rulelang.bundled_names())
def test_a_compiled_configuration_read_into_its_record_is_written_back_byte_for_byte(name):
    from rulelang.language.statements.record import read_record, record_json

    data = rulelang.compile_bundled(name)
    assert json.dumps(record_json(read_record(data)), indent=2) == json.dumps(data, indent=2)


def test_the_compiler_writes_an_optional_field_where_it_always_has():
    from rulelang.language.statements.record import record_json

    result = rulelang.language.compiler.analyse(
        'ruleset order "Order"\nsource "a test"\n'
        "based on allfives\nthe round ends when both partners go out\npoints must be claimed; missed points go "
        "to the next opponent\ntiles double-nine\nplacements score multiples of 5 or 3, one point per multiple\n"
        "points are shown raw\ntarget at least 150 points\n", "order.rules")
    assert result.record is not None and result.errors == []
    written = record_json(result.record)
    assert list(written)[-4:] == ["round_end", "claims", "settlement", "tiles"]  # `before` and then the end
    assert list(written["scoring"])[:4] == ["in_play", "formula", "multiple", "divisors"]


def test_an_optional_field_holds_its_declared_default_in_the_record_and_is_not_written():
    from rulelang.language.statements.record import empty_record, record_json

    record = rulelang.language.compiler.resolve([])
    for d in declared():
        if not d.spec.required and not callable(d.spec.default):
            assert getattr(record, d.attr) == getattr(empty_record(), d.attr) == _read_default(d), d.attr
    written = record_json(record)
    assert "knock_bonus" not in written["scoring"] and "tiles" not in written
    assert record.knock_bonus == 0 and record.tiles == 6 and record.divisors == (record.multiple,)


def _read_default(d):
    default = d.spec.default
    return {} if default == {} else tuple(default) if isinstance(default, list) else default


def test_a_simple_statement_resolves_and_reads_its_declared_field():
    from rulelang.language.statements.record import empty_record

    for key, value in (("redeal_doubles", 5), ("knock_bonus", 3), ("draw_while_able", True), ("claims", "forfeit"),
                       ("overshoot", "bounce"), ("spinner_count", "uncovered-sides")):
        entry = INFO[key]
        record = entry.resolve(value, empty_record())
        assert entry.from_config(record) == value, key
        unstated = entry.from_config(empty_record())  # nothing resolved: no value, or the optional one's default
        assert unstated is None or unstated == entry.meta.get("default"), key


def test_diff_reads_both_configurations_into_records_so_a_written_default_is_no_difference():
    from rulelang.language.explain import diff_configs

    plain = rulelang.compile_bundled("allfives")
    written = json.loads(json.dumps(plain))
    written["doubles"]["spinner_orientation"] = "crosswise"  # the default, written out by hand
    written["scoring"]["knock_bonus"] = 0
    assert diff_configs(plain, written) == []
    written["scoring"]["knock_bonus"] = 5
    assert [what for what, _, _ in diff_configs(plain, written)] == ["the knock bonus"]
