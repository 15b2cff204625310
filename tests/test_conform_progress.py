"""`rulelang conform` shows a progress bar of cases on standard error at a terminal, and nothing extra when piped."""
from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARGS = [sys.executable, "-m", "rulelang", "conform", "--variant", "pagat"]
BASE_ENV = {k: v for k, v in os.environ.items() if k not in ("RULELANG_NO_PROGRESS", "FORCE_COLOR")}
BASE_ENV.update(NO_COLOR="1", COLUMNS="100")


def _piped(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(ARGS, cwd=ROOT, capture_output=True, text=True, timeout=120, env={**BASE_ENV, **env})


def test_piped_output_is_unchanged_by_the_progress_hook():
    """Piped, the run prints exactly what it prints with the bar switched off: no bar, no control sequence."""
    plain = _piped()
    off = _piped(RULELANG_NO_PROGRESS="1")
    assert plain.returncode == off.returncode == 0, plain.stderr
    assert plain.stdout == off.stdout
    assert plain.stderr == off.stderr == ""
    assert "\x1b" not in plain.stdout


def _read_all(fd: int, proc: subprocess.Popen[str]) -> bytes:
    """Everything written to the pseudo-terminal until the process ends and the terminal is drained."""
    chunks = []
    while True:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                data = os.read(fd, 65536)
            except OSError:  # the writer side closed (Linux reports EIO)
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    return b"".join(chunks)


def test_a_terminal_sees_the_bar_on_standard_error_and_the_table_on_standard_output():
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(ARGS, cwd=ROOT, stdout=subprocess.PIPE, stderr=slave, text=True, env=BASE_ENV)
        os.close(slave)
        slave = -1
        seen = _read_all(master, proc).decode("utf-8", "replace")
        out, _ = proc.communicate(timeout=120)
    finally:
        os.close(master)
        if slave >= 0:
            os.close(slave)
    assert proc.returncode == 0
    listed = subprocess.run([*ARGS, "--list"], cwd=ROOT, capture_output=True, text=True, env=BASE_ENV, check=True)
    count = len(listed.stdout.splitlines())  # the selected cases
    assert "conformance" in seen and f"/{count}" in seen, seen[-500:]  # the bar counts them
    assert "total" in out and str(count) in out  # the table is on standard output, where it was
    assert f"/{count}" not in out
