"""Run an engine so that nothing it starts outlives it (Linux): `python reaper.py RUNNER_PID -- ENGINE ARGV...`.

Killing an engine's process group misses a descendant that moved to a session
of its own (`setsid`, a daemon's double fork). This small supervisor makes
itself a child subreaper (prctl PR_SET_CHILD_SUBREAPER): every orphan of the
engine's tree is re-parented to it rather than to init. When the engine exits,
when the runner sends SIGTERM, or when the runner itself dies (a parent-death
signal), it kills and reaps every process left, then exits as the engine did.

The engine inherits standard input, output and error unchanged. Standard
library only, run with `python -I -S`, so that it starts in milliseconds and no
engine setting (PYTHONPATH, a site file) can change it.
"""
from __future__ import annotations

import os
import signal
import sys

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


class _Stop(Exception):
    """The runner asked to stop the engine (SIGTERM), or died."""


def _prctl(option: int, arg: int) -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(option, arg, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def become_subreaper() -> bool:
    """Make this process a child subreaper: orphans of its descendants come back to it, not to init."""
    return _prctl(PR_SET_CHILD_SUBREAPER, 1)


def _stat_fields(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command name (state first), or [] when it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def start_time(pid: int) -> int | None:
    """When process PID started, in clock ticks since boot (/proc/PID/stat), or None."""
    fields = _stat_fields(pid)
    try:
        return int(fields[19])
    except (IndexError, ValueError):
        return None


def children(pid: int | None = None) -> list[int]:
    """The pids of the children of process PID (default: this one), of every thread of it."""
    me = os.getpid() if pid is None else pid
    kids: list[int] = []
    try:
        for task in os.listdir(f"/proc/{me}/task"):
            with open(f"/proc/{me}/task/{task}/children") as fh:
                kids += [int(p) for p in fh.read().split()]
        return kids
    except OSError:
        kids = []
    for name in os.listdir("/proc"):  # no /proc/.../children in this kernel: read every process's parent
        if name.isdigit():
            fields = _stat_fields(int(name))
            if len(fields) > 1 and fields[1] == str(me):
                kids.append(int(name))
    return kids


def _children() -> list[int]:
    """The pids of this process's children (the engine and every orphan of its tree)."""
    return children()


def _kill_all() -> None:
    """SIGKILL every child and reap it, until none is left (orphans re-parented meanwhile included)."""
    for _ in range(100_000):
        for pid in _children():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return
        except InterruptedError:  # pragma: no cover
            continue


def _on_term(signum: int, frame: object) -> None:
    raise _Stop


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        sys.stderr.write("usage: reaper.py RUNNER_PID -- ENGINE [ARG...]\n")
        return 2
    runner = int(argv[0])
    engine_argv = argv[2:]
    signal.signal(signal.SIGTERM, _on_term)
    # SIGTERM waits until the engine's pid is known (the engine starts with it unblocked)
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTERM])
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != runner:  # the runner died before the request took effect
        return 1
    try:
        engine = os.posix_spawnp(engine_argv[0], engine_argv, os.environ, setsigmask=[])
    except OSError as exc:
        sys.stderr.write(f"cannot start {engine_argv[0]!r}: {exc.strerror or exc}\n")
        return 127
    # the engine holds the pipes; this process must not keep them open (the runner waits for their end)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    status = None
    try:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
        while status is None:
            try:
                pid, st = os.waitpid(-1, 0)
            except ChildProcessError:  # pragma: no cover - the engine is always a child until reaped
                break
            if pid == engine:
                status = st
    except _Stop:
        pass
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if status is None:  # still running (not yet reaped: its pid cannot have been reused)
        os.kill(engine, signal.SIGKILL)
    _kill_all()
    if status is None:
        return 128 + signal.SIGKILL
    if os.WIFSIGNALED(status):  # end as the engine did, so the runner reports its signal
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [sig])
        os.kill(os.getpid(), sig)
        return 128 + sig  # pragma: no cover - a signal that does not end a process
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
