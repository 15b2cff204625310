"""Ctrl-C at any moment of a command ends with one line, "rulelang: interrupted", and exit status 130.

Each test raises the interrupt at one point where it once came out otherwise: while the command line is
imported (a traceback), inside an `exec` of source text during an import (`python -m` then died by SIGINT
after the message), while the group's options are read ("Aborted!", 1), as another error it caused, in a
finaliser (dropped), and in a worker pool stopped while a worker sends a result (the exit hung).
"""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

import rulelang
from rulelang import launch
from rulelang.base import interrupt
from rulelang.cli import main

LINE = "\nrulelang: interrupted\n"


class _InterruptOn:
    """A finder that raises KeyboardInterrupt when `name` is imported, as a Ctrl-C during that import would."""

    def __init__(self, name: str) -> None:
        self.name = name

    def find_spec(self, fullname, path=None, target=None):
        if fullname == self.name:
            raise KeyboardInterrupt
        return None


def test_ctrl_c_while_the_command_line_is_imported(monkeypatch, capsys):
    monkeypatch.delitem(sys.modules, "rulelang.cli")
    monkeypatch.setattr(sys, "meta_path", [_InterruptOn("rulelang.cli"), *sys.meta_path])
    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)
    with pytest.raises(SystemExit) as stop:
        launch.main(prog_name="rulelang")
    assert stop.value.code == 130
    assert capsys.readouterr().err == LINE


class _InterruptAsErrorOn(_InterruptOn):
    """As a Ctrl-C inside a class body during an import comes out: a RuntimeError caused by it."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname == self.name:
            try:
                raise KeyboardInterrupt
            except KeyboardInterrupt as ki:
                raise RuntimeError("Error calling __set_name__ on 'cached_property' instance") from ki
        return None


def test_ctrl_c_turned_into_another_error_while_the_command_line_is_imported(monkeypatch, capsys):
    """Seen by bench/interrupts.py: click imports uuid, whose import of platform was cut inside a class body."""
    monkeypatch.delitem(sys.modules, "rulelang.cli")
    monkeypatch.setattr(sys, "meta_path", [_InterruptAsErrorOn("rulelang.cli"), *sys.meta_path])
    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)
    with pytest.raises(SystemExit) as stop:
        launch.main(prog_name="rulelang")
    assert stop.value.code == 130
    assert capsys.readouterr().err == LINE


def test_ctrl_c_while_the_group_options_are_read(monkeypatch):
    from rulelang.interpreter import build

    def interrupted() -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(build, "engine_build", interrupted)
    res = CliRunner().invoke(main, ["--version"])
    assert res.exit_code == 130 and res.output == LINE


def _loading(exc: BaseException):
    def load(_spec):
        raise exc

    return load


def test_ctrl_c_while_a_variant_loads(monkeypatch):
    monkeypatch.setattr(rulelang, "load_config_dict", _loading(KeyboardInterrupt()))
    res = CliRunner().invoke(main, ["simulate", "pagat", "-n", "1"])
    assert res.exit_code == 130 and res.output == LINE


def test_an_error_raised_by_a_ctrl_c_ends_as_the_ctrl_c(monkeypatch):
    def load(_spec):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise RuntimeError("release unlocked lock") from None  # as a lock's wait cut short does

    monkeypatch.setattr(rulelang, "load_config_dict", load)
    res = CliRunner().invoke(main, ["simulate", "pagat", "-n", "1"])
    assert res.exit_code == 130 and res.output == LINE


def test_a_missing_dependency_says_the_installation_is_broken(monkeypatch):
    monkeypatch.setattr(rulelang, "load_config_dict", _loading(ModuleNotFoundError("No module named 'lark'")))
    res = CliRunner().invoke(main, ["simulate", "pagat", "-n", "1"])
    assert res.exit_code == 1
    assert "installation of rulelang is broken: No module named 'lark'" in res.output
    assert "cannot load variant" not in res.output


def test_during_interrupt_follows_causes_and_contexts():
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as ki:
            raise ValueError("cleanup failed") from ki
    except ValueError as exc:
        outer = exc
    assert interrupt.during_interrupt(outer)
    assert not interrupt.during_interrupt(ValueError("plain"))


def test_a_ctrl_c_dropped_in_a_finaliser_is_delivered_again():
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        others: list[object] = []
        interrupt.redeliver_lost(SimpleNamespace(exc_value=ValueError("other")), others.append)
        assert len(others) == 1  # anything else goes to the hook before
        with pytest.raises(KeyboardInterrupt):
            interrupt.redeliver_lost(SimpleNamespace(exc_value=KeyboardInterrupt()), others.append)
            for _ in range(200):
                time.sleep(0.01)
        assert len(others) == 1
    finally:
        signal.signal(signal.SIGINT, previous)


# --------------------------------------------------------------------------- whole processes

INJECT = """
import os, runpy, signal, sys

WHERE = sys.argv[1]


class InterruptOn:
    def find_spec(self, fullname, path=None, target=None):
        if fullname == WHERE:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None


def on_exec(frame, event, arg):  # the first source text run by exec/eval (a dataclass's or namedtuple's methods)
    if event == "call" and frame.f_code.co_filename == "<string>" and frame.f_code.co_name == "<module>":
        sys.setprofile(None)
        os.kill(os.getpid(), signal.SIGINT)


if WHERE == "exec":
    sys.setprofile(on_exec)
else:
    sys.meta_path.insert(0, InterruptOn())
sys.argv = ["rulelang", *sys.argv[2:]]
runpy.run_module("rulelang", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize("where", ["click", "exec"])
def test_python_m_rulelang_interrupted_during_start_up(tmp_path, where):
    """`python -m rulelang` (run through a module, as -m runs it) with SIGINT sent while it starts."""
    (tmp_path / "interrupt_at.py").write_text(INJECT)
    res = subprocess.run([sys.executable, "-m", "interrupt_at", where, "simulate", "pagat", "-n", "1"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert res.returncode == 130, res.stderr
    assert res.stderr.endswith(LINE) and "Traceback" not in res.stderr


def test_a_pool_stopped_while_a_worker_sends_a_result_lets_the_process_end(tmp_path):
    """Workers busy sending large results are stopped at the first one: the run ends, and so does the process
    (the pool's thread, waiting for the rest of a half-sent result, once kept it alive for ever)."""
    script = textwrap.dedent("""
        import threading
        from rulelang.base.procs import run_in_workers

        def big(_task):
            return b"x" * 300_000

        def stop(_result):
            raise SystemExit(3)

        if __name__ == "__main__":
            try:
                run_in_workers(big, range(2000), 2, stop)
            finally:
                assert [t for t in threading.enumerate() if t is not threading.main_thread()] == []
    """)
    (tmp_path / "big_results.py").write_text(script)
    res = subprocess.run([sys.executable, "big_results.py"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 3 and "Traceback" not in res.stderr, res.stderr


def test_the_lost_interrupt_timer_is_a_daemon():
    """The thread that delivers a dropped Ctrl-C again never keeps a finished command alive."""
    before = set(threading.enumerate())
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # interrupt_main then does nothing
    try:
        interrupt.redeliver_lost(SimpleNamespace(exc_value=KeyboardInterrupt()))
        started = [t for t in threading.enumerate() if t not in before]
        assert started and all(t.daemon for t in started)
    finally:
        for t in set(threading.enumerate()) - before:
            t.join(5)
        signal.signal(signal.SIGINT, previous)


def test_the_interrupt_script_finds_every_run_ended_cleanly(tmp_path):
    """bench/interrupts.py (the 1,000-trial measure of bench/README.md) with a few trials of each command:
    every Ctrl-C ends the run with 130, no traceback, nothing left running (its own time limit is lifted
    here: speed is the script's figure, not this test's)."""
    root = Path(__file__).resolve().parent.parent
    report = tmp_path / "trials.json"
    res = subprocess.run([sys.executable, str(root / "bench" / "interrupts.py"), "--trials", "3", "--mix",
                          "--earliest", "0.3", "--latest", "1.0", "--limit", "60", "--hang-after", "120",
                          "--json", str(report)], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    summary = json.loads(report.read_text())["summary"]
    assert summary["trials"] == 3 and summary["hangs"] == 0 and summary["leftovers"] == 0
    assert summary["by_command"] == {"simulate": 1, "balance": 1, "ladder": 1}
