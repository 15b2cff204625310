"""Input files are read bounded: regular files only, limited size and nesting, a message naming the limit."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.base import readinput
from rulelang.base.readinput import InputError, parse_json, read_json, read_text
from rulelang.cli import main

ROOT = Path(__file__).resolve().parent.parent
DEEP = "[" * 100_000 + "]" * 100_000


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.rules"
    os.mkfifo(path)
    return path


def _cli(*args, **kw):
    return CliRunner().invoke(main, list(args), catch_exceptions=False, **kw)


# --- the helper ------------------------------------------------------------------

def test_a_fifo_is_refused_without_blocking(fifo):
    with pytest.raises(InputError, match=r"^a FIFO \(named pipe\), not a regular file$"):
        read_text(fifo)


def test_a_device_is_refused_before_it_is_read():
    with pytest.raises(InputError, match="^a character device, not a regular file$"):
        read_text("/dev/zero")


def test_a_file_over_the_limit_names_the_limit(tmp_path):
    big = tmp_path / "big.rules"
    with open(big, "wb") as fh:
        fh.truncate(readinput.TEXT_LIMIT + 1)  # sparse: costs no disk
    with pytest.raises(InputError) as info:
        read_text(big)
    assert str(info.value) == "1,048,577 bytes, larger than the limit of 1 MiB (1,048,576 bytes)"
    assert info.value.filename == str(big)


def test_a_folder_is_refused_as_a_folder(tmp_path):
    with pytest.raises(IsADirectoryError, match="^a folder, not a regular file$"):
        read_text(tmp_path)


def test_text_that_is_not_utf8_is_named(tmp_path):
    bad = tmp_path / "latin1.rules"
    bad.write_bytes(b"ruleset caf\xe9")
    with pytest.raises(InputError, match=r"^not UTF-8 text \(byte 12 cannot be decoded\)$"):
        read_text(bad)


def test_deep_json_is_a_value_error_not_a_recursion_error(tmp_path):
    for text in (DEEP, "[" * 150 + "]" * 150):
        with pytest.raises(ValueError, match="^JSON nested more than 100 levels deep$"):
            parse_json(text)
    doc = tmp_path / "deep.json"
    doc.write_text(DEEP)
    with pytest.raises(ValueError):
        read_json(doc)
    assert parse_json('{"a": [1, {"b": 2}]}') == {"a": [1, {"b": 2}]}


def test_standard_input_is_read_bounded_where_allowed(monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x" * 11)))
    with pytest.raises(InputError, match="larger than the limit of 10 bytes"):
        read_text("-", limit=10, allow_stdin=True)


# --- the commands ------------------------------------------------------------------

def test_check_reports_a_fifo_and_a_device_and_goes_on(fifo):
    res = subprocess.run([sys.executable, "-m", "rulelang", "check", str(fifo), "/dev/zero", "exact61"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert res.returncode == 1
    assert f"{fifo}: cannot read {fifo}: a FIFO (named pipe), not a regular file" in res.stdout
    assert "/dev/zero: cannot read /dev/zero: a character device, not a regular file" in res.stdout
    assert "exact61 (bundled): ok" in res.stdout


def test_check_goes_on_after_an_internal_error_and_names_the_file(tmp_path, monkeypatch):
    import rulelang

    good, bad = tmp_path / "good.rules", tmp_path / "bad.rules"
    good.write_text(Path(ROOT / "rulesets" / "exact61.rules").read_text())
    bad.write_text("ruleset bad \"Bad\"\n")
    import rulelang.language.analysis

    real = rulelang.language.analysis.analyse  # `check` analyses each file once, through it

    def crashing(text, filename="<string>", open_texts=None):
        if filename.endswith("bad.rules"):
            raise IndexError("list index out of range")
        return real(text, filename, open_texts)

    monkeypatch.setattr(rulelang.language.analysis, "analyse", crashing)
    monkeypatch.delenv("RULELANG_DEBUG", raising=False)
    res = _cli("check", str(bad), str(good))
    assert res.exit_code == 70
    assert f"{bad}: internal error: IndexError: list index out of range" in res.output
    assert f"{good}: ok" in res.output


def test_the_last_guard_names_the_file_being_processed(tmp_path, monkeypatch):
    import rulelang

    spec = tmp_path / "x.rules"
    spec.write_text("ruleset x \"X\"\n")

    def crashing(text, filename="<string>"):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(rulelang, "compile_text", crashing)
    monkeypatch.delenv("RULELANG_DEBUG", raising=False)
    res = _cli("compile", str(spec))
    assert res.exit_code == 70
    assert f"internal error while processing {spec}: RecursionError" in res.output


@pytest.mark.parametrize("command", [["compile"], ["explain"], ["fmt"], ["replay"], ["play", "--seat", "0=greedy"]])
def test_commands_refuse_a_fifo_at_once(command, fifo):
    res = subprocess.run([sys.executable, "-m", "rulelang", *command, str(fifo)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 1, res.stderr
    assert "not a regular file" in res.stdout + res.stderr
    assert "internal error" not in res.stderr


def test_a_compiled_configuration_nested_too_deeply_is_invalid(tmp_path):
    doc = tmp_path / "deep.json"
    doc.write_text("[" * 20_000 + "]" * 20_000)  # within the size limit: the nesting is what is refused
    res = _cli("check", str(doc))
    assert res.exit_code == 1
    assert "nested more than 100 levels deep" in res.output
    doc.write_text(DEEP)  # over the size limit: refused before it is parsed
    res = _cli("check", str(doc))
    assert res.exit_code == 1 and "longer than" in res.output


def test_a_transcript_nested_too_deeply_is_a_message(tmp_path):
    doc = tmp_path / "deep.json"
    doc.write_text(DEEP)
    res = subprocess.run([sys.executable, "-m", "rulelang", "replay", str(doc)], cwd=ROOT,
                         capture_output=True, text=True)
    assert res.returncode == 1
    assert "nested more than 100 levels deep" in res.stderr


def test_a_baseline_that_is_a_fifo_is_refused(fifo):
    res = _cli("conform", "--id", "pagat-diagram-22", "--baseline", str(fifo))
    assert res.exit_code == 2
    assert "not a regular file" in res.output


def test_a_deeply_nested_case_file_is_a_lint_error_of_that_file(tmp_path):
    from rulelang.conformance import cases

    (tmp_path / "pagat").mkdir()
    (tmp_path / "pagat" / "deep.json").write_text(DEEP)
    report = cases.lint(tmp_path)
    assert report.errors == ["pagat/deep.json: not JSON: JSON nested more than 100 levels deep"]


# --- the engine adapter and the conform options ----------------------------------------

def test_the_adapter_takes_a_configuration_only_as_a_json_object():
    requests = [{"cmd": "start", "version": 1},
                {"cmd": "run", "seq": 0, "case": {"id": "fd", "config": 1, "players": 2, "setup": {}, "steps": []}},
                {"cmd": "run", "seq": 1, "case": {"id": "path", "config": "/dev/zero", "players": 2, "setup": {}, "steps": []}},
                {"cmd": "stop"}]
    text = "\n".join(json.dumps(r) for r in requests) + "\n" + DEEP + "\n"
    res = subprocess.run([sys.executable, "-m", "rulelang", "engine-adapter"], cwd=ROOT, input=text,
                         capture_output=True, text=True, timeout=60)
    answers = [json.loads(line) for line in res.stdout.splitlines()]
    assert [a.get("seq") for a in answers] == [None, 0, 1]  # stdout stayed open after `config: 1`
    for a in answers[1:]:
        assert a["errored"]["message"].startswith("ValueError: `config` must be a compiled configuration")


def test_the_adapter_answers_a_deeply_nested_request_as_an_error():
    text = DEEP + "\n" + json.dumps({"cmd": "stop"}) + "\n"
    res = subprocess.run([sys.executable, "-m", "rulelang", "engine-adapter"], cwd=ROOT, input=text,
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 0
    assert json.loads(res.stdout) == {"errored": {"message": "bad request: not JSON: JSON nested more than 100 levels deep"}}


def test_conform_deadline_errors_the_cases_left():
    res = _cli("conform", "--variant", "pagat", "--deadline", "0.000001")
    assert res.exit_code == 1


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_conform_deadline_must_be_a_positive_number(value):
    res = _cli("conform", "--deadline", value)
    assert res.exit_code == 2


def test_a_case_naming_an_impossible_ruleset_is_that_case_s_error(tmp_path):
    from rulelang.conformance import builtin, cases, runner
    from rulelang.conformance.protocol import InProcessEngine

    doc = json.loads((ROOT / "conformance" / "cases" / "muggins" / "illegal.json").read_text())
    doc["ruleset"] = "muggins" + "9" * 300  # once an OSError (file name too long) that crashed the run
    doc["cases"] = doc["cases"][:1]
    (tmp_path / "muggins").mkdir()
    (tmp_path / "muggins" / "illegal.json").write_text(json.dumps(doc))
    report = cases.lint(tmp_path)
    assert report.ok, report.errors
    engine = InProcessEngine(builtin.run_case, builtin.implementation(), builtin.capabilities())
    result = runner.run(engine, report.cases, expected_failures={})
    assert [(r.outcome, r.error["kind"]) for r in result.results] == [("error", "ruleset")]
