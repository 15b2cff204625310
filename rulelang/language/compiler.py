"""`Ruleset` -> the compiled configuration dict (docs/config.md), with every check.

Steps: (1) check each statement alone (its table entry's `check`) and that
none is given twice; (2) read the chain of bases (`based on`) iteratively and
take the base's statements that the text does not restate, or require every
statement; (3) resolve the statements into the typed record of the configuration
(`Fields`, rulelang/config/fields.py), a pure function of the statements
(each entry's `resolve`, in canonical order; an absent optional field holds
its declared default); (4) run the configuration rules over the record
(rulelang/config/rules.py), the same the engine runs; the record's JSON
(rulelang/language/statements/record.py) is the compiled configuration;
and the tests validate every compiled configuration against the shipped JSON
schema (not done here: it would cost jsonschema's import at every start).
Every error found is collected; the caller raises them together.
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from rulelang.base.errors import RulesetCheckError, RulesetError, raise_errors
from rulelang.base.limits import MAX_BASE_DEPTH, cap_errors, read_ruleset_file, text_error
from rulelang.config.fields import Fields
from rulelang.config.reading import with_field
from rulelang.config.rules import Problem, rule_problems
from rulelang.config.validation import config_schema, schema_problems
from rulelang.config.vocabulary import FORMAT, TILES_IN_SET
from rulelang.language.ast import Ruleset, Span, Statement
from rulelang.language.bundled import bundled_filename, bundled_names, bundled_text
from rulelang.language.parser import parse
from rulelang.language.statements import INFO, ORDER, TABLE, StatementDef
from rulelang.language.statements.record import empty_record, read_record, record_json
from rulelang.language.statements.table import field_of
from rulelang.language.unapplied_warnings import cannot_apply_warnings
from rulelang.language.unit_warnings import inherited_amount_warnings

__all__ = ["OPEN_TEXTS", "Compiled", "Fields", "analyse", "analyse_ruleset", "compile_ruleset", "config_schema",
           "validate_config", "resolve", "FORMAT", "TILES_IN_SET"]

# Path -> text of the base files open in an editor, read instead of the disk (the language server sets them,
# so that a text based on a file is checked against that file as it is being edited).
OPEN_TEXTS: ContextVar[Mapping[str, str]] = ContextVar("OPEN_TEXTS", default=MappingProxyType({}))


def validate_config(config: object) -> list[str]:
    """Schema violations of a configuration, as `path: message` strings (empty when valid)."""
    return [f"{path.lstrip('/') or '(top)'}: {message}" for path, message in schema_problems(config)]


@dataclass(slots=True)
class Compiled:
    """The outcome of compiling one text: the configuration (None on errors), as its JSON and as its typed record,
    and where each rule came from."""

    ruleset: Ruleset | None
    config: dict[str, Any] | None  # the compiled configuration's JSON (what `rulelang compile` writes)
    errors: list[RulesetError]
    # statement key -> the Statement that set it, or None when inherited from the base
    origins: dict[str, Statement | None] = field(default_factory=dict)
    base_label: str | None = None
    statements: tuple[Statement, ...] = ()  # every statement in force: its own, then the inherited ones
    warnings: list[RulesetError] = field(default_factory=list)  # the config compiles, but may mislead
    record: Fields | None = None  # the configuration's typed record (None on errors)


class _Checker:
    """Collects check errors for one ruleset, pointing into the file that wrote each statement."""

    def __init__(self, ruleset: Ruleset, texts: dict[str, str] | None = None) -> None:
        self.ruleset = ruleset
        self.texts = dict(texts or {})
        self.texts[ruleset.filename] = ruleset.text
        self._lines: dict[str, list[str]] = {}
        self.errors: list[RulesetError] = []
        self.bad_keys: set[str] = set()  # statements with an error of their own: later checks skip them

    def lines(self, filename: str) -> list[str]:
        if filename not in self._lines:
            self._lines[filename] = self.texts.get(filename, "").split("\n")
        return self._lines[filename]

    def error(self, code: str, message: str, span: Span | None, hint: str | None = None,
              filename: str | None = None) -> None:
        if span is None:
            span = Span(1, 1, 1, 2)
        filename = filename or self.ruleset.filename
        lines = self.lines(filename)
        src = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
        end = span.end_column if span.end_line == span.line else len(src.rstrip()) + 1
        self.errors.append(RulesetCheckError(
            code, message, filename=filename, line=span.line, column=span.column,
            end_column=end, source_line=src, hint=hint))


def _header_span(ruleset: Ruleset) -> Span | None:
    st = ruleset.get("ruleset")
    return st.span if st else None


# ---------------------------------------------------------------------------
# (1) each statement alone
# ---------------------------------------------------------------------------

MISPLACED = {
    "domino_bonus": ("a block has nobody who goes out: the bonus is for a domino",  # `bonus N points to the winner`
                     "move this line under `on domino:`"),
}
# a section whose own lines include one of these needs no term line (`bonus 1 point ...`)
TERMS_OPTIONAL_WITH = {"domino": ("domino_bonus",)}


def check_statements(ck: _Checker) -> None:
    """Every statement alone, and none given twice."""
    first: dict[str, Statement] = {}
    for st in ck.ruleset.statements:
        if st.misplaced:
            message, hint = MISPLACED.get(st.key, ("this line does not belong here", None))
            ck.error("misplaced-line", message, st.span, hint)
            continue
        before = len(ck.errors)
        for issue in INFO[st.key].check(st.value):
            ck.error(issue.code, issue.message, issue.span or st.span, issue.hint)
        if len(ck.errors) > before:
            ck.bad_keys.add(st.key)
        if st.key in first:
            ck.bad_keys.add(st.key)
            prev = first[st.key]
            ck.error("duplicate-statement", f"{INFO[st.key].words} is given twice (first on line {prev.span.line})",
                     st.span, "a ruleset states each rule once: remove one of them")
        else:
            first[st.key] = st
    seen_sections: dict[str, Span] = {}
    for name, span in ck.ruleset.sections:
        if name in seen_sections:
            ck.error("duplicate-statement",
                     f"the section `on {name}:` is given twice (first on line {seen_sections[name].line})",
                     span, f"put every line of `on {name}:` under one header")
            ck.bad_keys.update(st.key for st in ck.ruleset.statements if st.section == name)
        seen_sections.setdefault(name, span)


def _first_of(section: str) -> StatementDef:
    """The first statement of a section (its terms), whose example a hint shows."""
    return next(e for e in TABLE if e.section == section and e.meta.get("merge"))


def check_missing(ck: _Checker, based: bool = False) -> None:
    """Every required statement must be there; with a base, those that are never inherited.

    All that is missing makes one error at the header: a file without `based on` may
    miss most of the language, and one message naming them all reads better than twenty.
    """
    present = set(ck.ruleset.keys())
    sections = {name for name, _ in ck.ruleset.sections}
    missing: list[tuple[str, str, str]] = []  # (what is missing, the one-line message, the line to add)
    reported_sections: set[str] = set()
    for info in TABLE:
        if info.key in present or not info.required or (based and info.inherited):
            continue
        if info.meta.get("merge") and present.intersection(TERMS_OPTIONAL_WITH.get(info.section or "", ())):
            continue
        if info.section and info.section not in sections:
            if info.section in reported_sections:
                continue
            reported_sections.add(info.section)
            missing.append((f"the section `on {info.section}:`", f"missing section `on {info.section}:`",
                            f"a section such as `on {info.section}:` followed by lines like "
                            f"`{_first_of(info.section).example}` and `as one event`"))
            continue
        where_words = f" in `on {info.section}:`" if info.section else ""
        missing.append((f"{info.words}{where_words}", f"missing statement{where_words}: {info.words}",
                        f"a line such as `{info.example}`"))
    if not missing:
        return
    where = _header_span(ck.ruleset)
    if len(missing) == 1:
        ck.error("missing-statement", missing[0][1], where, f"add {missing[0][2]}")
        return
    lines = "; ".join(add for _, _, add in missing)
    if based:
        start = f"add {lines}"
    else:
        start = START_FROM_A_VARIANT
        if len(missing) <= MISSING_SPELLED_OUT:
            start += f"; or add {lines}"
    ck.error("missing-statement", f"missing {len(missing)} statements: " + "; ".join(w for w, _, _ in missing),
             where, start)


MISSING_SPELLED_OUT = 4  # up to this many missing statements, the hint shows a line for each
START_FROM_A_VARIANT = ("start from a bundled variant with `based on` and its name (such as `based on muggins`; "
                        "`rulelang list` names them), or `rulelang new`")


# ---------------------------------------------------------------------------
# (2) the chain of bases, read iteratively
# ---------------------------------------------------------------------------

@dataclass(slots=True)
class _Fault:
    """Why a ruleset's `based on` fails: reported at that ruleset's `based on` line."""

    code: str
    message: str
    hint: str | None


def _read_base(ruleset: Ruleset, st: Statement) -> tuple[str, str, str] | _Fault:
    """(text, filename, identity) of the base a `based on` names, or why it cannot be read."""
    kind, ref = st.value
    if kind == "name":
        if ref not in bundled_names():
            import difflib

            close = difflib.get_close_matches(ref, bundled_names(), n=1)
            hint = f"did you mean `{close[0]}`?" if close else \
                f"bundled rulesets: {', '.join(bundled_names())}; or give a file path in quotes"
            return _Fault("unknown-base", f"there is no bundled ruleset `{ref}`", hint)
        try:
            return bundled_text(ref), bundled_filename(ref), "bundled:" + ref
        except OSError as exc:  # pragma: no cover - a broken installation
            return _Fault("unknown-base", f"cannot read the bundled ruleset `{ref}`: {exc}", None)
    if "\0" in ref:  # no file name holds one: the operating system refuses such a path outright
        shown = ref.replace("\0", "\\0")
        return _Fault("unknown-base", f"the path `{shown}` holds a NUL byte", "a file name cannot contain a NUL byte")
    here = ruleset.filename
    base_dir = os.path.dirname(here) if not here.startswith("<") else os.getcwd()
    path = os.path.normpath(os.path.join(base_dir, ref))
    where = f"the path is relative to this file's folder ({base_dir or '.'})"
    try:
        text = OPEN_TEXTS.get()[path] if path in OPEN_TEXTS.get() else read_ruleset_file(path)
    except RulesetError as exc:
        if exc.code == "file-not-found":
            return _Fault("unknown-base", f"there is no ruleset file `{ref}`", where)
        if "folder" in exc.message:
            return _Fault("unknown-base", f"`{ref}` is a folder, not a ruleset file", where)
        reason = exc.message.split(": ", 1)[-1] if exc.code == "cannot-read" else exc.message
        if "regular file" in exc.message:
            reason = "not a regular file (a device, pipe or socket)"
        return _Fault("unknown-base", f"cannot read the ruleset file `{ref}`: {reason}", where)
    return text, path, "file:" + os.path.abspath(path)


def _identity(ruleset: Ruleset) -> str:
    if ruleset.filename.startswith("rulesets/") and ruleset.filename.endswith(".rules"):
        return "bundled:" + ruleset.filename[len("rulesets/"):-len(".rules")]
    return "file:" + os.path.abspath(ruleset.filename) if not ruleset.filename.startswith("<") else ruleset.filename


def _base_fault(ref: str, result: Compiled) -> _Fault:
    """How a child reports a base that has errors: never echoing the base's text."""
    first = result.errors[0]
    if first.code in ("base-cycle", "base-too-deep"):
        return _Fault(first.code, first.message, first.hint)
    if first.layer in ("syntax", "file"):
        return _Fault("base-invalid", f"the base ruleset `{ref}` has errors",
                      f"first: {first.location}: a syntax error (`{first.code}`)")
    return _Fault("base-invalid", f"the base ruleset `{ref}` has errors", f"first: {first.location}: {first.message}")


def _inherit(ck: _Checker, based: Statement) -> tuple[tuple[Statement, ...], dict[str, str]] | None:
    """The statements in force in the base (each with the file that wrote it), or None after an error.

    The chain child -> base -> base's base ... is read in a loop (at most
    MAX_BASE_DEPTH deep); then each base is compiled from the root down, on its
    own statements and those it inherits, so every base is valid by itself.
    """
    chain: list[tuple[Ruleset, list[RulesetError], str]] = []  # (base, its syntax errors, how its child named it)
    seen = {_identity(ck.ruleset)}
    named = [(_identity(ck.ruleset), os.path.basename(ck.ruleset.filename))]  # (identity, name) down the chain
    current, statement = ck.ruleset, based
    fault: _Fault | None = None  # why the deepest ruleset read cannot have its base
    while True:
        if len(chain) >= MAX_BASE_DEPTH:
            fault = _Fault("base-too-deep", f"the chain of `based on` is deeper than {MAX_BASE_DEPTH} rulesets",
                           f"a ruleset may be based on at most {MAX_BASE_DEPTH} rulesets in a row")
            break
        got = _read_base(current, statement)
        if isinstance(got, _Fault):
            fault = got
            break
        text, filename, ident = got
        if ident in seen:
            fault = _cycle_fault(named, ident, statement.value.ref)
            break
        seen.add(ident)
        named.append((ident, statement.value.ref))
        limit = text_error(text, filename)
        base, errors = (None, [limit]) if limit is not None else _parse_base(text, filename)
        chain.append((base or Ruleset(filename, text, ()), [e for e in errors if e is not None],
                      statement.value.ref))
        nxt = base.get("based_on") if base is not None and not errors else None
        if nxt is None:
            break
        current, statement = base, nxt  # type: ignore[assignment]
    texts = {r.filename: r.text for r, _, _ in chain}
    inherited: tuple[Statement, ...] = ()
    for base, errors, ref in reversed(chain):
        if errors:
            result = Compiled(base, None, errors)
        elif fault is not None:
            result = _failed(base, fault, texts)
        else:
            result = analyse_ruleset(base, [], inherited if base.get("based_on") else None, texts)
        if result.config is None:
            fault = _base_fault(ref, result)
        else:
            fault, inherited = None, result.statements
    if fault is not None:
        ck.error(fault.code, fault.message, based.span, fault.hint)
        return None
    return inherited, texts


def _cycle_fault(named: list[tuple[str, str]], again: str, ref: str) -> _Fault:
    """A cycle of `based on`, naming every ruleset in it in order, from the first one back to itself."""
    start = next(i for i, (ident, _) in enumerate(named) if ident == again)
    cycle = " -> ".join(f"`{name}`" for _, name in named[start:]) + f" -> `{ref}`"
    return _Fault("base-cycle", f"a cycle of `based on`: {cycle}", "remove one `based on` of the cycle")


@lru_cache(maxsize=64)
def _parse_base(text: str, filename: str) -> tuple[Ruleset | None, list[RulesetError]]:
    """A base is often read many times (every bundled variant is based on allfives): parse it once."""
    return parse(text, filename)


def _failed(ruleset: Ruleset, fault: _Fault, texts: dict[str, str]) -> Compiled:
    """A base whose own `based on` fails."""
    ck = _Checker(ruleset, texts)
    st = ruleset.get("based_on")
    ck.error(fault.code, fault.message, st.span if st else None, fault.hint)
    return Compiled(ruleset, None, ck.errors)


# ---------------------------------------------------------------------------
# (3) resolve: statements -> configuration
# ---------------------------------------------------------------------------

def resolve(statements: Iterable[Statement], based_on: str | None = None, skip: frozenset[str] = frozenset()) -> Fields:
    """The configuration the statements state, as its typed record: each applied once, in canonical order (a pure
    function). An optional field no statement sets holds its declared default (read back from the record's JSON,
    as the engine reads it: a default may depend on another field)."""
    config = replace(empty_record(), based_on=based_on)
    for st in sorted(statements, key=lambda s: ORDER[s.key]):
        if st.key not in skip:
            config = INFO[st.key].resolve(st.value, config)
    return read_record(record_json(config))


# ---------------------------------------------------------------------------
# The whole pipeline
# ---------------------------------------------------------------------------

def analyse(text: str, filename: str = "<string>") -> Compiled:
    """Parse, check and compile a text, collecting every error."""
    ruleset, errors = parse(text, filename)
    if ruleset is None:
        return Compiled(None, None, cap_errors(errors, filename))
    result = analyse_ruleset(ruleset, errors)
    result.errors = cap_errors(result.errors, filename)
    return result


def analyse_ruleset(ruleset: Ruleset, syntax_errors: list[RulesetError] | None = None,
                    inherited: tuple[Statement, ...] | None = None,
                    texts: dict[str, str] | None = None) -> Compiled:
    """Check and compile a parsed ruleset; `inherited` (the base's statements) skips reading the base."""
    errors = list(syntax_errors or [])
    ck = _Checker(ruleset, texts)
    check_statements(ck)
    based = ruleset.get("based_on")
    if not errors:
        check_missing(ck, based is not None)
    base_label: str | None = None
    if based is not None:
        base_label = based.value.ref
        if inherited is None:
            got = _inherit(ck, based)
            if got is not None:
                inherited, ck.texts = got[0], {**got[1], **ck.texts}
    incomplete = errors or any(e.code == "missing-statement" for e in ck.errors) or \
        (based is not None and inherited is None)
    if incomplete:
        return Compiled(ruleset, None, _sorted(errors + ck.errors, ruleset.filename), base_label=base_label)

    # The rules in force: the first of each statement written here, then the base's that are not restated.
    own: dict[str, Statement] = {}
    for st in ruleset.statements:
        if not st.misplaced:
            own.setdefault(st.key, st)
    origins: dict[str, Statement | None] = {info.key: None for info in TABLE}
    origins.update(own)
    in_force = list(own.values())
    for st in inherited or ():
        if st.key not in own and INFO[st.key].inherited:
            in_force.append(st)
    cfg = _drop_counts_not_allowed(resolve(in_force, base_label, frozenset(ck.bad_keys)), own)
    # No schema validation here: the typed resolution and the rules make a valid configuration
    # (tests/test_lang_properties.py and test_lang_shared_validator.py prove it against the schema).
    _check_rules(ck, cfg, {st.key: st for st in in_force}, own, base_label)
    statements = tuple(replace(st, filename=st.filename or ruleset.filename) for st in in_force)
    if ck.errors:
        return Compiled(ruleset, None, _sorted(ck.errors, ruleset.filename), origins, base_label, statements)
    warnings = inherited_amount_warnings(ruleset, cfg, own, inherited or (), base_label)
    warnings += cannot_apply_warnings(ruleset, cfg, own)
    return Compiled(ruleset, record_json(cfg), [], origins, base_label, statements, warnings, cfg)


def _drop_counts_not_allowed(cfg: Fields, own: dict[str, Statement]) -> Fields:
    """An inherited size per count keeps only the counts this ruleset allows (its base allowed more)."""
    for entry in TABLE:
        if entry.meta.get("per_count") and entry.key not in own:
            attr = field_of(entry.key).attr
            by_count: Mapping[int, int] = getattr(cfg, attr)
            cfg = with_field(cfg, attr, {n: v for n, v in by_count.items() if n in cfg.counts})
    return cfg


def _check_rules(ck: _Checker, cfg: Fields, in_force: dict[str, Statement], own: dict[str, Statement],
                 base_label: str | None) -> None:
    """The configuration rules, each error pointing at the statement (and the file) that wrote it."""
    for problem in rule_problems(cfg, ck.bad_keys):
        _report(ck, problem, in_force, own, base_label)


def _report(ck: _Checker, p: Problem, in_force: dict[str, Statement], own: dict[str, Statement],
            base_label: str | None) -> None:
    key = next((k for k in p.at if k in own), p.at[0])
    st = in_force.get(key)
    suffix = f" (inherited from `{base_label}`)" if key not in own and base_label else ""
    if st is None:  # pragma: no cover - every statement is in force once nothing is missing
        ck.error(p.code, p.message + suffix, _header_span(ck.ruleset), p.hint)
        return
    based = ck.ruleset.get("based_on")
    if key not in own and based is not None:
        # The base's file may be one the author does not have (a bundled variant inside the installed
        # package): point at this file's `based on` line, and name the base's rule in the hint.
        ck.error(p.code, p.message + suffix, based.span, _inherited_note(ck, st, base_label, p.hint))
        return
    span = st.span
    if p.index is not None and isinstance(st.value, tuple) and p.index < len(st.value):
        span = st.value[p.index].span
    ck.error(p.code, p.message + suffix, span, p.hint)


def _inherited_note(ck: _Checker, st: Statement, base_label: str | None, hint: str | None) -> str:
    """`muggins` states `LINE` (and FILE:N for a file of the author's), then the fix: restate it here."""
    lines = ck.lines(st.filename) if st.filename else []
    text = lines[st.span.line - 1].strip() if 0 < st.span.line <= len(lines) else ""
    bundled = {bundled_filename(name) for name in bundled_names()}  # inside the package: not the author's file
    where = f" ({st.filename}:{st.span.line})" if st.filename and st.filename not in bundled else ""
    note = f"`{base_label}` states `{text}`{where}" if text else f"`{base_label}` states this rule{where}"
    return f"{note}; restate it here to replace it" + (f": {hint}" if hint else "")


def _sorted(errors: list[RulesetError], filename: str) -> list[RulesetError]:
    """By line, the errors of this file first, then those in the files it inherits from."""
    return sorted(errors, key=lambda e: (e.filename != filename, e.line or 0, e.column or 0))


def compile_ruleset(ruleset: Ruleset) -> dict[str, Any]:
    """Compile an already parsed ruleset, without parsing its text again, to its JSON (raises RulesetError)."""
    result = analyse_ruleset(ruleset)
    raise_errors(result.errors)
    assert result.config is not None
    return result.config
