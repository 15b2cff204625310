"""Writers never replace a device or a FIFO with a regular file: they write to it where it is."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from rulelang.base.outfiles import output_problem, write_atomic

ROOT = Path(__file__).resolve().parent.parent


def _null_device(path: Path) -> None:
    """A character device like /dev/null (major 1, minor 3), made in a test folder."""
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device needs root")


def test_a_character_device_is_written_to_not_replaced(tmp_path):
    dev = tmp_path / "null"
    _null_device(dev)
    write_atomic(str(dev), "anything\n")
    assert stat.S_ISCHR(os.stat(dev).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]  # no temporary file left either


def test_compile_to_a_device_keeps_the_device(tmp_path):
    dev = tmp_path / "null"
    _null_device(dev)
    res = subprocess.run([sys.executable, "-m", "rulelang", "compile", "exact61", "-o", str(dev)],
                         cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert stat.S_ISCHR(os.stat(dev).st_mode)


def test_a_fifo_receives_the_text_and_stays_a_fifo(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    write_atomic(str(fifo), "through the pipe\n")
    reader.join(timeout=10)
    assert got == [b"through the pipe\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_conform_report_to_a_device_keeps_it(tmp_path):
    dev = tmp_path / "null"
    _null_device(dev)
    res = subprocess.run([sys.executable, "-m", "rulelang", "conform", "--id", "pagat-diagram-22",
                          "--report", str(dev), "--junit", str(tmp_path / "j.xml")],
                         cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert stat.S_ISCHR(os.stat(dev).st_mode)


def test_a_device_in_a_folder_one_cannot_write_in_is_still_writable(tmp_path):
    # /dev/null's folder is not writable by a user; the device itself is
    assert output_problem(os.devnull) is None


def test_a_full_device_is_a_message_not_a_crash():
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    res = subprocess.run([sys.executable, "-m", "rulelang", "compile", "exact61", "-o", "/dev/full"],
                         cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 1
    assert res.stderr.strip() == "/dev/full: cannot write: No space left on device"


def test_a_regular_file_is_still_replaced_atomically(tmp_path):
    target = tmp_path / "out.json"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_atomic(str(target), "new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
