"""One validator: the engine accepts exactly the configurations the language can state."""
from __future__ import annotations

import copy
from typing import Literal, get_origin

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulelang
from rulelang.config.defaults import without_defaults
from rulelang.config.rules import config_problems
from rulelang.config.vocabulary import literal_values
from rulelang.interpreter import Config
from rulelang.interpreter.errors import ConfigError
from rulelang.language.formatter import config_to_text
from rulelang.language.statements import TABLE


def set_path(config, path, value):
    """Write VALUE at PATH of a configuration's JSON."""
    for name in path[:-1]:
        config = config[name]
    config[path[-1]] = value

ENUM_FIELDS = [(f.path, literal_values(f.type)) for e in TABLE for f in e.fields if get_origin(f.type) is Literal]
TERM = st.fixed_dictionaries({
    "kind": st.just("hands"), "hands": st.sampled_from(["opponents", "partner", "own", "everyone"]),
    "pooling": st.sampled_from(["pooled", "each"]), "rounding": st.sampled_from(["round5", "none"]),
    "to": st.sampled_from(["winner", "owner"]), "sign": st.sampled_from(["credit", "debit"])})


@st.composite
def mutated(draw) -> dict:
    """A bundled configuration with any of its closed-set fields (and terms) changed."""
    config = copy.deepcopy(rulelang.compile_bundled(draw(st.sampled_from(rulelang.bundled_names()))))
    for path, values in draw(st.lists(st.sampled_from(ENUM_FIELDS), max_size=4)):
        set_path(config, path, draw(st.sampled_from(values)))
    if draw(st.booleans()):
        config["settlement"][draw(st.sampled_from(["domino", "block"]))]["terms"] = draw(st.lists(TERM, max_size=2))
    if draw(st.booleans()):
        config["players"]["partnerships"] = []
    return config


def _engine_code(config: dict) -> str | None:
    try:
        Config.from_dict(config)
    except ConfigError as exc:
        return exc.code
    return None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_engine_and_language_accept_the_same_configurations(config):
    problems = config_problems(config)
    assert _engine_code(config) == (problems[0].code if problems else None)
    if problems and problems[0].code == "invalid-config":
        return  # outside the schema: no text states it (a tie broken in a block without winner...)
    text = config_to_text(config)
    errors = rulelang.check_text(text, "m.rules")
    if not problems:
        assert errors == [] and rulelang.compile_text(text, "m.rules") == without_defaults(config)
    else:
        # refused too; one mistake gives one message, so a fault hidden behind another is not repeated
        assert {p.code for p in problems} & {e.code for e in errors}


def test_pooled_to_owner_and_partner_without_partnerships_refused_by_both():
    base = rulelang.compile_bundled("allfives")
    pooled = copy.deepcopy(base)
    pooled["settlement"]["domino"]["terms"][0].update(pooling="pooled", to="owner")
    partner = copy.deepcopy(base)
    partner["settlement"]["domino"]["terms"][0]["hands"] = "partner"
    for config, code in ((pooled, "pooled-to-owner"), (partner, "partner-needs-partnerships")):
        assert _engine_code(config) == code
        assert code in [e.code for e in rulelang.check_text(config_to_text(config), "m.rules")]


def test_a_schema_fault_has_one_code_for_both(tmp_path):
    bad = copy.deepcopy(rulelang.compile_bundled("allfives"))
    bad["drawing"] = "sometimes"
    assert _engine_code(bad) == "invalid-config"
    path = tmp_path / "bad.json"
    import json

    path.write_text(json.dumps(bad))
    try:
        rulelang.load_config(str(path))
    except rulelang.RulesetError as exc:
        assert exc.code == "invalid-config"
    else:  # pragma: no cover
        raise AssertionError("accepted")


def test_the_engine_reports_a_non_object_or_non_json_with_the_schema_code(tmp_path):
    from rulelang.interpreter import load_config

    assert _engine_code([1]) == "invalid-config"  # type: ignore[arg-type]
    path = tmp_path / "x.json"
    path.write_text("{not json")
    try:
        load_config(path)
    except ConfigError as exc:
        assert exc.code == "invalid-config"
    else:  # pragma: no cover
        raise AssertionError("accepted")


def test_rules_no_text_can_state_are_refused_by_both():
    """Found by the generator above: settings that only make sense with another one (partners' ties with a
    lightest-hand block winner, a placement formula when placements score) are refused, not silently kept."""
    side = rulelang.compile_bundled("allfives-pagat")
    side["settlement"]["block"].update(winner="lightest-side", tie_break="none", partners_tie="no-winner")
    quiet = rulelang.compile_bundled("allfives-draw")
    quiet["scoring"]["formula"] = "per-multiple"
    for config in (side, quiet):
        assert [p.code for p in config_problems(config)][:1] == ["invalid-config"]
        assert _engine_code(config) == "invalid-config"
