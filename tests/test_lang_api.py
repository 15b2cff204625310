"""The public values of the language's Python API: what its modules export and the types of what they return."""
from __future__ import annotations

import dataclasses

import pytest

import rulelang
import rulelang.language.compiler
from rulelang.config.rules import config_problems


def test_the_checks_modules_export_their_public_names():
    for module, names in [("rulelang.config.rules", {"Problem", "config_problems", "rule_problems", "mentions_winner"}),
                          ("rulelang.config.validation", {"config_schema", "schema_problems", "schema_text"})]:
        space: dict[str, object] = {}
        exec(f"from {module} import *", space)  # noqa: S102 - what a star import of the module gives
        assert names <= set(space)


def test_the_compiler_resolves_into_the_typed_record_and_writes_its_json_at_the_boundary():
    from rulelang.config.fields import Fields
    from rulelang.language.statements.record import record_json

    result = rulelang.language.compiler.analyse(rulelang.bundled_text("exact61"), "exact61.rules")
    assert isinstance(result.record, Fields) and not hasattr(rulelang.language.compiler, "Config")
    assert result.record.knock_bonus == 0 and result.record.divisors == (result.record.multiple,)  # defaults, typed
    assert record_json(result.record) == result.config == rulelang.compile_bundled("exact61")


def test_a_configuration_problem_is_a_frozen_hashable_value():
    config = rulelang.compile_bundled("allfives")
    config["players"]["partnerships"] = [4]  # partnerships of 4, but 4 players are not allowed
    config["players"]["counts"] = [2, 3]
    first = config_problems(config)[0]
    assert first.code == "partnerships-need-4"
    assert len({first, dataclasses.replace(first)}) == 1  # equal problems are one value
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.message = "changed"  # type: ignore[misc]
