"""The public values of the language's Python API: what its modules export and the types of what they return."""
from __future__ import annotations

import dataclasses
from typing import Any

import pytest

import rulelang
import rulelang.compiler
from rulelang.config.rules import config_problems


def test_the_checks_modules_export_their_public_names():
    for module, names in [("rulelang.config.rules", {"Problem", "config_problems", "rule_problems", "mentions_winner"}),
                          ("rulelang.config.validation", {"config_schema", "schema_problems", "schema_text"})]:
        space: dict[str, object] = {}
        exec(f"from {module} import *", space)  # noqa: S102 - what a star import of the module gives
        assert names <= set(space)


def test_the_compilers_configuration_type_is_a_dict_of_names():
    assert rulelang.compiler.Config == dict[str, Any]


def test_a_configuration_problem_is_a_frozen_hashable_value():
    config = rulelang.compile_bundled("allfives")
    config["players"]["partnerships"] = [4]  # partnerships of 4, but 4 players are not allowed
    config["players"]["counts"] = [2, 3]
    first = config_problems(config)[0]
    assert first.code == "partnerships-need-4"
    assert len({first, dataclasses.replace(first)}) == 1  # equal problems are one value
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.message = "changed"  # type: ignore[misc]
