"""Hostile inputs for rulelang, and one in-process run of each: the pieces shared by the fuzz script and the suite.

Three kinds of input, each made from a `random.Random` so that a run is
reproducible from its seed:

- ruleset texts: the bundled rulesets mutated (lines dropped, doubled, swapped,
  words replaced, numbers made huge or backwards, bytes flipped, `based on`
  pointed at special files) and texts generated from the grammar itself;
- case files: the suite's own case files with values replaced, keys dropped
  and nesting deepened, linted and, when still valid, run on the built-in engine;
- protocol answers: the built-in engine's true answers to cases, mutated, fed
  to the runner as if an engine had written them;
- hostile files: bundled rulesets as raw bytes with NUL bytes (in `based on`
  paths and names too), invalid UTF-8, confusable and invisible characters, a
  BOM and lone CRs, read from a file as `rulelang check FILE` reads it.

`run_one(kind, rng)` returns an Outcome: "ok", or "internal" with the exception
class and the innermost project frame where it was raised (the crash class).
A bad input is expected to be reported (an error, a failing case): only an
exception escaping rulelang's own handling counts.
"""
from __future__ import annotations

import copy
import json
import os
import random
import re
import tempfile
import traceback
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted((ROOT / "rulesets").glob("*.rules"))
CASE_FILES = sorted((ROOT / "conformance" / "cases").glob("*/*.json"))
LANGUAGE_FILES = ("rulelang/language/parser.py", "rulelang/language/compiler.py", "rulelang/language/ast.py", "rulelang/base/errors.py",
                  "rulelang/language/formatter.py", "rulelang/language/explain.py", "rulelang/language/statements.py")
KINDS = ("mutated", "grammar", "case", "answer", "hostile")


@dataclass
class Outcome:
    status: str  # ok / internal
    crash_class: str = ""  # "ExceptionType at file:function"
    owner: str = ""  # "language" (parser/compiler: H1) or "runner/cli" (this branch)
    detail: str = ""


# ---------------------------------------------------------------------------
# Ruleset texts

SPECIAL_TARGETS = ['"/dev/zero"', '"/dev/null"', '"/dev/stdin"', '"/etc/passwd"', '"."', '"/"', '""',
                   '"../../../../etc/hostname"', "exact61", "itself", '"missing.rules"']
NUMBERS = ["0", "1", "2", "4", "5", "-1", "+5", "10000000", "99999999999999999999", "1" + "0" * 40,
           "007", "3.5", "1e9", "٣"]


@cache
def _bundled_texts() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in RULESETS]


@cache
def _keywords() -> list[str]:
    from rulelang.language.parser import grammar

    words = [t.pattern.value for t in grammar().terminals if type(t.pattern).__name__ == "PatternStr"]
    return sorted(set(words))


def _number(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.6:
        return str(rng.randint(0, 12))
    if r < 0.85:
        return rng.choice(NUMBERS)
    if r < 0.97:
        return str(rng.randint(0, 10 ** rng.randint(2, 30)))
    return "9" * rng.choice([400, 4300, 4301, 5000])  # the integer-conversion limit


def mutate_ruleset(rng: random.Random) -> str:
    """A bundled ruleset with 1 to 4 mutations."""
    text = rng.choice(_bundled_texts())
    for _ in range(rng.randint(1, 4)):
        text = _mutation(rng, text)
    return text


def _mutation(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    op = rng.randrange(14)
    if op == 0:  # drop a line
        del lines[i]
    elif op == 1:  # double a line
        lines.insert(i, lines[i])
    elif op == 2:  # swap two lines
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 3:  # replace a word with a keyword
        words = lines[i].split(" ")
        words[rng.randrange(len(words))] = rng.choice(_keywords())
        lines[i] = " ".join(words)
    elif op == 4:  # replace a number
        numbers = list(re.finditer(r"\d+", text))
        if numbers:
            m = rng.choice(numbers)
            return text[:m.start()] + _number(rng) + text[m.end():]
    elif op == 5:  # players backwards or huge
        a, b = _number(rng), _number(rng)
        lines.insert(i, f"players {a} to {b}" + rng.choice(["", ", partnerships with 4", f" or {_number(rng)}"]))
    elif op == 6:  # based on something odd
        lines.insert(i, f"based on {rng.choice(SPECIAL_TARGETS)}")
    elif op == 7:  # flip a byte
        if text:
            k = rng.randrange(len(text))
            return text[:k] + chr(rng.choice([0, 9, 10, 13, 34, 35, 58, 92, 0xA0, 0x2028, 0xFEFF, rng.randrange(32, 127)])) + text[k + 1:]
    elif op == 8:  # truncate
        return text[:rng.randrange(len(text) + 1)]
    elif op == 9:  # indentation and comments
        lines[i] = rng.choice(["\t", "   ", "# ", ""]) + lines[i] + rng.choice(["", " # x", "\t", " :"])
    elif op == 10:  # many blank lines or a long line (bounded: a fuzz run must not need gigabytes itself)
        lines.insert(i, rng.choice(["\n" * rng.randint(1, 20000), "x" * rng.randint(1, 200000), "# " + "y" * 5000]))
    elif op == 11:  # delete a word
        words = lines[i].split(" ")
        del words[rng.randrange(len(words))]
        lines[i] = " ".join(words)
    elif op == 12:  # a settlement line out of place
        lines.insert(i, rng.choice(["on domino:", "on block:", "  nobody scores", "  as one event per term",
                                    "  winner: none", "  credit own hand pooled, not rounded, to each owner"]))
    else:  # splice two rulesets
        other = rng.choice(_bundled_texts()).split("\n")
        lines = lines[:i] + other[rng.randrange(len(other)):]
    return "\n".join(lines)


def grammar_text(rng: random.Random, statements: int | None = None) -> str:
    """A text generated from the grammar's rules: mostly grammatical, seldom valid."""
    from rulelang.language.parser import grammar

    g = grammar()
    rules: dict[str, list[list[Any]]] = {}
    for r in g.rules:
        rules.setdefault(r.origin.name, []).append(r.expansion)
    patterns = {t.name: t.pattern for t in g.terminals}
    out: list[str] = []
    n = statements if statements is not None else rng.randint(0, 30)
    stmt_alts = rules["statement"]
    for _ in range(n):
        _expand(rng, rules, patterns, rng.choice(stmt_alts), out, 0)
        if out and out[-1] != "\n":
            out.append("\n")
    return " ".join(out).replace(" \n ", "\n").replace(" \n", "\n")


def _expand(rng: random.Random, rules: dict[str, list[list[Any]]], patterns: dict[str, Any], expansion: list[Any],
            out: list[str], depth: int) -> None:
    for sym in expansion:
        if sym.is_term:
            out.append(_terminal(rng, sym.name, patterns[sym.name]))
        else:
            alts = rules[sym.name]
            if depth > 8:  # prefer the shortest alternative deep down, so that generation ends
                alts = [min(alts, key=len)]
            _expand(rng, rules, patterns, rng.choice(alts), out, depth + 1)


def _terminal(rng: random.Random, name: str, pattern: Any) -> str:
    if type(pattern).__name__ == "PatternStr":
        return str(pattern.value)
    if name == "NUMBER":
        return _number(rng) if rng.random() < 0.9 else str(rng.randint(0, 9))
    if name == "SIGNED_NUMBER":
        return rng.choice(["-", "+", ""]) + _number(rng).lstrip("+-")
    if name == "NAME":
        return rng.choice(["exact61", "pagat", "club", "x", "a-b", "allfives", "nosuch", "z9"])
    if name == "STRING":
        return rng.choice(['"x"', '""', '"Club rules"', '"/dev/null"', '"exact61.rules"', '"' + "s" * 300 + '"'])
    if name == "_NL":
        return "\n"
    return ""


# ---------------------------------------------------------------------------
# Hostile files: bytes as an attacker or a careless editor writes them

# letters and marks that look like ASCII or like nothing: Cyrillic and Greek look-alikes, fullwidth forms,
# a ligature, dashes and quotes, zero-width and direction marks, a no-break space, a combining accent
CONFUSABLES = ["\u0430", "\u0435", "\u043e", "\u0440", "\u0441", "\u0455", "\u03bf", "\u0391", "\uff45",
               "\uff10", "\uff02", "\ufb01", "\u2010", "\u2212", "\u201c", "\u201d", "\u200b", "\u200d",
               "\u2060", "\u202e", "\u2066", "\u00a0", "\u3000", "\u0301", "\u2028", "\u0660", "\U0001d7d3"]
LOOK_ALIKE = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "s": "\u0455",
              "i": "\u0456", "0": "\uff10", "5": "\uff15", "-": "\u2010", '"': "\u201c", " ": "\u00a0"}
BAD_UTF8 = [b"\xff", b"\xfe", b"\xc3", b"\x80", b"\xc0\xaf", b"\xe0\x80\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
            b"\xf8\x88\x80\x80\x80", b"\xe2\x82", b"\xef\xbb"]
NUL_TARGETS = ['"a\0b.rules"', '"\0"', '"exact61.rules\0"', '"\0/etc/passwd"', '"../\0../x.rules"', "exact\0", "\0allfives"]


def hostile_bytes(rng: random.Random) -> bytes:
    """A bundled ruleset with 1 to 4 hostile edits, as the bytes of a file."""
    text = rng.choice(_bundled_texts())
    for _ in range(rng.randint(1, 3)):
        text = _hostile_text(rng, text)
    data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.5:  # bytes that are not UTF-8 at all
        k = rng.randrange(len(data) + 1)
        data = data[:k] + rng.choice(BAD_UTF8) + data[k:]
    return data


def _hostile_text(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    op = rng.randrange(7)
    if op == 0:  # based on a path or a name holding a NUL byte
        lines.insert(i, f"based on {rng.choice(NUL_TARGETS)}")
    elif op == 1:  # a NUL byte anywhere
        k = rng.randrange(len(text) + 1)
        return text[:k] + "\0" * rng.randint(1, 3) + text[k:]
    elif op == 2:  # a letter swapped for its look-alike, in a keyword, a name or a number
        spots = [m.start() for m in re.finditer("[aeopcsi05 \"-]", lines[i])]
        if spots:
            k = rng.choice(spots)
            lines[i] = lines[i][:k] + LOOK_ALIKE[lines[i][k]] + lines[i][k + 1:]
    elif op == 3:  # an invisible or confusable character inserted
        k = rng.randrange(len(lines[i]) + 1)
        lines[i] = lines[i][:k] + rng.choice(CONFUSABLES) + lines[i][k:]
    elif op == 4:  # a byte-order mark, at the start or inside
        k = 0 if rng.random() < 0.5 else rng.randrange(len(text) + 1)
        return text[:k] + "\ufeff" + text[k:]
    elif op == 5:  # lone carriage returns
        return text.replace("\n", "\r", rng.randint(1, 5))
    else:  # a lone surrogate (an invalid UTF-8 sequence once written)
        k = rng.randrange(len(text) + 1)
        return text[:k] + rng.choice(["\ud800", "\udfff"]) + text[k:]
    return "\n".join(lines)


def check_ruleset_file(data: bytes) -> None:
    """What `rulelang check FILE` and `compile FILE` do with a file's bytes: read, check, compile, explain, format."""
    from rulelang.base.errors import RulesetError
    from rulelang.base.limits import read_ruleset_file

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "fuzz.rules")
        with open(path, "wb") as fh:
            fh.write(data)
        try:
            text = read_ruleset_file(path)
        except RulesetError:
            return
        check_ruleset(text, path)


# ---------------------------------------------------------------------------
# Case files and protocol answers

@cache
def _case_docs() -> list[tuple[str, str]]:
    return [(p.parent.name, p.read_text(encoding="utf-8")) for p in CASE_FILES]


def _random_value(rng: random.Random, depth: int = 0) -> Any:
    r = rng.randrange(10)
    if r == 0:
        return None
    if r == 1:
        return rng.choice([True, False])
    if r == 2:
        return rng.choice([0, -1, 1, 2, 7, 10 ** 30, 1.5, float(rng.randint(0, 5))])
    if r == 3:
        return rng.choice(["", "[1|2]", "[6|6]", "[9|9]", "[2|1]", "draw", "pass", "x" * 1000, "[0|0] on [0|0] high"])
    if r == 4 and depth < 3:
        return [_random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if r == 5 and depth < 3:
        return {rng.choice(["play", "draw", "pass", "seat", "steps", "id", "x"]): _random_value(rng, depth + 1)}
    if r == 6:
        depth = rng.choice([50, 99, 101, 500, 5000, 200_000])
        return _nest(depth) if depth <= 101 else f"{DEEP_MARK}{depth}"  # (json.dumps itself recurses)
    return rng.randint(-3, 60)


DEEP_MARK = "\u0000deep:"  # a placeholder for nesting too deep for json.dumps itself


def dumps(doc: Any) -> str:
    """json.dumps, with each deep-nesting placeholder written out as that many nested lists."""
    text = json.dumps(doc)
    mark = json.dumps(DEEP_MARK)[:-1]
    return re.sub(re.escape(mark) + r'(\d+)"', lambda m: "[" * int(m.group(1)) + "0" + "]" * int(m.group(1)), text)


def _nest(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for k, v in enumerate(obj):
            out += _paths(v, prefix + (k,))
    return out


def mutate_json(rng: random.Random, doc: Any, mutations: int) -> Any:
    """`doc` with values replaced, keys dropped, lists shortened or nested deeper."""
    doc = copy.deepcopy(doc)
    for _ in range(mutations):
        paths = [p for p in _paths(doc) if p]
        if not paths:
            return _random_value(rng)
        path = rng.choice(paths)
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        op = rng.randrange(4)
        if op == 0:
            parent[key] = _random_value(rng)
        elif op == 1:
            del parent[key]
        elif op == 2:
            parent[key] = [parent[key]]
        else:
            if isinstance(parent[key], list) and parent[key]:
                parent[key] = parent[key][: rng.randrange(len(parent[key]))]
            elif isinstance(parent[key], str):
                s = parent[key]
                parent[key] = s[: rng.randrange(len(s) + 1)] + rng.choice(["", "x", "|", "]", "9"])
    return doc


def mutate_case_file(rng: random.Random) -> tuple[str, str]:
    """(variant, text) of a case file: one case or the whole file, JSON-mutated or byte-mutated."""
    variant, text = rng.choice(_case_docs())
    doc = json.loads(text)
    if rng.random() < 0.7:  # keep it small: one case
        doc["cases"] = [rng.choice(doc["cases"])]
    if rng.random() < 0.85:
        return variant, dumps(mutate_json(rng, doc, rng.randint(1, 3)))
    raw = json.dumps(doc)
    k = rng.randrange(len(raw))
    return variant, raw[:k] + rng.choice(["", "[" * 100_000, "{", "\x00", "]", '"', "9" * 5000]) + raw[k + 1:]


# ---------------------------------------------------------------------------
# Running one input

def classify(exc: BaseException) -> Outcome:
    """The crash class of an exception: its type and the innermost frame in the project."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = "?"
    for f in reversed(frames):
        rel = os.path.relpath(f.filename, ROOT)
        if not rel.startswith("..") and not rel.startswith("tests"):
            where = f"{rel}:{f.name}"
            break
    owner = "language" if where.startswith(LANGUAGE_FILES) else "runner/cli"
    return Outcome("internal", f"{type(exc).__name__} at {where}", owner, f"{type(exc).__name__}: {str(exc)[:200]}")


def check_ruleset(text: str, path: str | None = None) -> None:
    """What `rulelang check` and `compile` do with a text, in-process (in a temporary folder, for `based on`)."""
    if path is not None:
        _check_at(text, path)
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "fuzz.rules")
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as fh:
            fh.write(text)
        _check_at(text, path)


def _check_at(text: str, path: str) -> None:
    import rulelang
    from rulelang.base.errors import RulesetError

    errors = rulelang.check_text(text, path)
    if not errors:
        try:
            config = rulelang.compile_text(text, path)
        except RulesetError:
            return
        from rulelang.language.explain import explain_text

        explain_text(config, set())
        rulelang.format_text(text, path)


def run_case_file(variant: str, text: str) -> None:
    """Lint a case file as `rulelang conform` does, and run its cases on the built-in engine if it lints."""
    from rulelang.conformance import builtin, cases, runner
    from rulelang.conformance.protocol import InProcessEngine

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / variant
        folder.mkdir()
        (folder / "fuzz.json").write_text(text, encoding="utf-8", errors="surrogatepass")
        report = cases.lint(Path(tmp))
        if report.ok and report.cases:
            engine = InProcessEngine(builtin.run_case, builtin.implementation(), builtin.capabilities())
            runner.run(engine, report.cases[:3], timeout=5, expected_failures={})


class _ScriptedEngine:
    """Stands for an engine process: answers each `run` with a given line, through the runner's own parsing."""

    def __init__(self, line: bytes):
        from rulelang.conformance.protocol import SubprocessEngine

        class Scripted(SubprocessEngine):
            def start(self) -> None:
                pass

            def ensure_started(self) -> None:
                pass

            def _send(self, obj: dict[str, Any]) -> None:
                if obj.get("cmd") == "run":
                    self._lines.put(line)
                    self._lines.put(EOFError())  # then the engine "exits": no wait for a timeout

        self.engine = Scripted(["scripted"])
        self.engine.implementation = {"name": "fuzz"}


def run_answer(rng: random.Random) -> None:
    """A true answer of the built-in engine to a case, mutated, given to the runner as an engine's answer line."""
    from rulelang.conformance import runner

    suite = _suite()
    case = rng.choice(suite)
    answer: Any = {"seq": 0, "result": _true_result(case.id)}
    r = rng.random()
    if r < 0.75:
        answer = mutate_json(rng, answer, rng.randint(1, 4))
        line = dumps(answer).encode()
    elif r < 0.9:
        raw = json.dumps(answer)
        k = rng.randrange(len(raw))
        line = (raw[:k] + rng.choice(["", "[" * 100_000, "}", "\x00", "\ud800", "9" * 5000]) + raw[k + 1:]).encode(
            "utf-8", "surrogatepass")
    else:
        line = rng.choice([b"", b"null", b"[]", b"{}", b'{"seq":0}', b'{"seq":0,"result":null}',
                           b'{"seq":0,"skipped":5}', b'{"seq":0,"errored":[1]}', b'{"seq":"0","result":{}}',
                           b"\xff\xfe", b'{"seq":0,"result":{"steps":' + b"[" * 5000 + b"]" * 5000 + b"}}"])
    runner.run(_ScriptedEngine(line + b"\n").engine, [case], timeout=5, expected_failures={})


@cache
def _true_result(case_id: str) -> Any:
    from rulelang.conformance import builtin, runner

    case = next(c for c in _suite() if c.id == case_id)
    return builtin.run_case(runner.request_for(case))


@cache
def _suite() -> list[Any]:
    from rulelang.conformance import cases

    return [c for c in cases.lint().cases if len(c.data["steps"]) <= 12]


def make_input(kind: str, rng: random.Random) -> Any:
    if kind == "mutated":
        return mutate_ruleset(rng)
    if kind == "grammar":
        return grammar_text(rng)
    if kind == "case":
        return mutate_case_file(rng)
    if kind == "hostile":
        return hostile_bytes(rng)
    return rng.random()  # answers are made and run in one go (they need the case)


def run_input(kind: str, value: Any, rng: random.Random) -> Outcome:
    """Run one input in-process; an exception escaping rulelang's handling is an internal error."""
    try:
        if kind in ("mutated", "grammar"):
            check_ruleset(value)
        elif kind == "case":
            run_case_file(*value)
        elif kind == "hostile":
            check_ruleset_file(value)
        else:
            run_answer(random.Random(value))
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - every escape is a finding
        return classify(exc)
    return Outcome("ok")
