"""Hostile input on the language side: every one a clean error, never a crash or a hang."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rulelang
from rulelang.base.limits import MAX_BASE_DEPTH, MAX_BYTES, MAX_ERRORS, MAX_LINE

ROOT = Path(__file__).resolve().parent.parent
HEAD = 'based on allfives\nruleset house "H"\nsource "s"\n'


def codes(text: str, filename: str = "h.rules") -> list[str]:
    return [e.code for e in rulelang.check_text(text, filename)]


@pytest.mark.parametrize("number", ["10000000", "1" + "0" * 21, "9" * 450])
def test_huge_numbers_are_refused_at_the_token(number):
    errors = rulelang.check_text(HEAD + f"players 2 to {number}\n", "h.rules")
    assert [e.code for e in errors] == ["number-too-large"]
    assert "100,000" in errors[0].message
    assert len(errors[0].render()) < 2 * len(number) + 400


def test_a_power_is_not_a_number():
    assert codes(HEAD + "players 2 to 10^21\n") == ["unexpected-character"]


def test_a_backwards_range_says_so():
    errors = rulelang.check_text(HEAD + "players 4 to 2\n", "h.rules")
    assert [(e.code, e.message) for e in errors] == [("player-count", "`4 to 2` counts backwards")]
    assert errors[0].hint == "write `players 2 to 4`"


def test_a_huge_text_is_refused_early_naming_the_limit():
    for text in ("\n" * (5 * 1024 * 1024), "x" * (10 * 1024 * 1024)):
        errors = rulelang.check_text(text, "big.rules")
        assert [e.code for e in errors] == ["text-too-large"]
        assert f"{MAX_BYTES:,}" in errors[0].message
        assert len(errors[0].render()) < 400


def test_a_long_line_is_refused_naming_the_limit():
    errors = rulelang.check_text(HEAD + "# " + "x" * MAX_LINE + "\n", "h.rules")
    assert [(e.code, e.line) for e in errors] == [("line-too-long", 4)]
    assert f"{MAX_LINE:,}" in errors[0].message
    assert "xxxx" not in errors[0].render()


def test_errors_are_capped_per_file():
    text = HEAD + "no reserve\n" * 300
    errors = rulelang.check_text(text, "h.rules")
    assert len(errors) == MAX_ERRORS + 1
    assert errors[-1].code == "too-many-errors"
    assert errors[-1].message == f"and {300 - 1 - MAX_ERRORS:,} more errors"


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/null"])
def test_based_on_a_device_is_not_read(target):
    errors = rulelang.check_text(f'based on "{target}"\nruleset house "H"\nsource "s"\n', "h.rules")
    assert [e.code for e in errors] == ["unknown-base"]
    assert "not a regular file" in errors[0].message


def test_based_on_a_fifo_does_not_block(tmp_path):
    fifo = tmp_path / "base.rules"
    os.mkfifo(fifo)
    errors = rulelang.check_text('based on "base.rules"\nruleset house "H"\nsource "s"\n', str(tmp_path / "h.rules"))
    assert [e.code for e in errors] == ["unknown-base"]
    assert "not a regular file" in errors[0].message


def test_based_on_a_file_too_large(tmp_path):
    (tmp_path / "base.rules").write_text("# x\n" * (MAX_BYTES // 4 + 10))
    errors = rulelang.check_text('based on "base.rules"\nruleset house "H"\nsource "s"\n', str(tmp_path / "h.rules"))
    assert [e.code for e in errors] == ["unknown-base"]
    assert f"{MAX_BYTES:,}" in errors[0].message


def test_a_base_that_is_not_a_ruleset_is_not_echoed(tmp_path):
    (tmp_path / "shadow").write_text("topsecretuser:$6$hash:19000:0:99999:7:::\nsysuser:*:19000:0:99999:7:::\n")
    errors = rulelang.check_text('based on "shadow"\nruleset house "H"\nsource "s"\n', str(tmp_path / "h.rules"))
    assert [e.code for e in errors] == ["base-invalid"]
    shown = "\n".join(e.render() for e in errors)
    assert "topsecretuser" not in shown and "hash" not in shown and "sysuser" not in shown


def test_a_500_deep_chain_is_refused_without_recursion(tmp_path):
    for i in range(500):
        base = f'based on "b{i + 1}.rules"' if i < 499 else "based on allfives"
        (tmp_path / f"b{i}.rules").write_text(f'ruleset b{i} "B"\nsource "s"\n{base}\n')
    errors = rulelang.check_text('based on "b0.rules"\nruleset house "H"\nsource "s"\n', str(tmp_path / "h.rules"))
    assert [e.code for e in errors] == ["base-too-deep"]
    assert str(MAX_BASE_DEPTH) in errors[0].message


def test_a_cycle_is_reported(tmp_path):
    (tmp_path / "a.rules").write_text('ruleset a "A"\nsource "s"\nbased on "b.rules"\n')
    (tmp_path / "b.rules").write_text('ruleset b "B"\nsource "s"\nbased on "a.rules"\n')
    errors = rulelang.check_text('based on "a.rules"\nruleset house "H"\nsource "s"\n', str(tmp_path / "h.rules"))
    assert [(e.code, e.message) for e in errors] == [
        ("base-cycle", "a cycle of `based on`: `a.rules` -> `b.rules` -> `a.rules`")]


def test_a_cycle_names_every_file_in_it_in_order(tmp_path):
    for name, base in (("a", "b"), ("b", "c"), ("c", "a")):
        (tmp_path / f"{name}.rules").write_text(f'ruleset {name} "X"\nsource "s"\nbased on "{base}.rules"\n')
    errors = rulelang.check_text((tmp_path / "a.rules").read_text(), str(tmp_path / "a.rules"))
    assert [(e.code, e.message) for e in errors] == [
        ("base-cycle", "a cycle of `based on`: `a.rules` -> `b.rules` -> `c.rules` -> `a.rules`")]


def test_a_nul_byte_in_a_base_path_is_a_ruleset_error(tmp_path):
    path = tmp_path / "nul.rules"
    path.write_text('ruleset x "x"\nsource "s"\nbased on "a\0b.rules"\n')
    errors = rulelang.check_text(path.read_text(), str(path))
    assert [(e.code, e.line, e.column) for e in errors] == [("unknown-base", 3, 1)]
    assert "NUL byte" in errors[0].message


def test_reading_a_device_as_a_ruleset_file(tmp_path):
    with pytest.raises(rulelang.RulesetFileError) as info:
        rulelang.compile_file("/dev/zero")
    assert info.value.code == "cannot-read"


def test_syntax_errors_of_a_long_text_are_looked_for_within_a_budget():
    text = HEAD + "no reserve\n" * 5000 + "x\n" * 25
    errors = rulelang.check_text(text, "h.rules")
    assert errors[0].code == "unexpected-word"
    assert errors[-1].code == "too-many-errors" and "not looked for" in errors[-1].message
    assert len(errors) < 20


@pytest.mark.parametrize("command", [["check"], ["compile"], ["explain"], ["check", "-"]])
def test_every_command_reports_a_nul_byte_in_a_base_path_as_a_ruleset_error(command, tmp_path):
    path = tmp_path / "nul.rules"
    path.write_bytes(b'ruleset x "x"\nsource "s"\nbased on "a\0b.rules"\n')
    stdin = path.read_bytes() if command[-1] == "-" else None
    args = command if command[-1] == "-" else [*command, str(path)]
    res = subprocess.run([sys.executable, "-m", "rulelang", *args], cwd=ROOT, input=stdin, capture_output=True,
                         timeout=60)
    out = (res.stdout + res.stderr).decode("utf-8", "replace")
    assert res.returncode == 1, out
    assert ":3:1: " in out and "holds a NUL byte" in out and "internal error" not in out


def test_check_json_reports_every_file_with_a_nul_byte_in_one(tmp_path):
    path = tmp_path / "nul.rules"
    path.write_bytes(b'ruleset x "x"\nsource "s"\nbased on "a\0b.rules"\n')
    res = subprocess.run([sys.executable, "-m", "rulelang", "check", "--json", "rulesets/pagat.rules", str(path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert res.returncode == 1, res.stderr
    files = json.loads(res.stdout)["files"]
    assert [f["ok"] for f in files] == [True, False]
    [error] = files[1]["errors"]
    assert (error["line"], error["column"]) == (3, 1) and "NUL byte" in error["message"]
