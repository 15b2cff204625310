"""Worker processes that do not outlive their parent.

A worker of `simulate --jobs N` killed with its parent (SIGKILL, the OOM killer)
would otherwise sleep forever on a pipe nobody writes. On Linux the kernel
sends the worker a signal when its parent dies (prctl PR_SET_PDEATHSIG); where
that is not available a daemon thread watches the parent's pid instead.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing.process import BaseProcess

__all__ = ["die_with_parent", "prepare", "run_in_workers"]

PR_SET_PDEATHSIG = 1


_PRCTL: list[Any] = []  # [prctl] once looked up: a forked child must not call dlopen/dlsym (the loader's lock)


def prepare() -> None:
    """Look prctl up in this process, before forking workers, so that they only call it."""
    if _PRCTL or not sys.platform.startswith("linux"):
        return
    try:
        import ctypes  # only on Linux, once, in the parent: the workers only call what it found

        _PRCTL.append(ctypes.CDLL(None, use_errno=True).prctl)
    except (OSError, AttributeError):
        _PRCTL.append(None)


def _prctl(option: int, arg: int) -> bool:
    """Call prctl(2); False where there is no prctl (not Linux) or it fails."""
    prepare()
    fn = _PRCTL[0] if _PRCTL else None
    return fn is not None and int(fn(option, arg, 0, 0, 0)) == 0


def die_with_parent(parent_pid: int, sig: int = signal.SIGKILL) -> None:
    """Make this process end when `parent_pid` (its parent at start) ends (call `prepare` in the parent first)."""
    if _prctl(PR_SET_PDEATHSIG, int(sig)):
        if os.getppid() != parent_pid:  # the parent died before the request was made
            os.kill(os.getpid(), sig)
        return
    threading.Thread(target=_watch, args=(parent_pid, sig), daemon=True).start()  # pragma: no cover


def _watch(parent_pid: int, sig: int) -> None:  # pragma: no cover - the fallback off Linux
    while os.getppid() == parent_pid:
        time.sleep(0.5)
    os.kill(os.getpid(), sig)


def run_in_workers(fn: Callable[[Any], Any], tasks: Iterable[Any], jobs: int, sink: Callable[[Any], None]) -> None:
    """Run `fn(task)` for every task in `jobs` worker processes, giving each result to `sink` as it comes.

    The workers ignore SIGINT (Ctrl-C reaches the parent, which stops them: no traceback per worker and
    no wait for the tasks still queued) and die with the parent however it ends (even SIGKILL).
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed  # only with --jobs N: it starts slowly

    prepare()
    # Ctrl-C is held back while the workers are forked: a worker interrupted before its initializer
    # ignores SIGINT would die half-started, and the pool's queues could be left locked (a hang at exit).
    # The forked workers inherit the blocked mask and unblock it once SIGINT is ignored; the parent takes
    # a Ctrl-C that came meanwhile as soon as the tasks are queued.
    before = set(multiprocessing.active_children())
    held = _block_sigint()
    try:
        pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start, initargs=(os.getpid(),))
    except BaseException:
        _unblock_sigint(held)
        raise
    try:
        try:
            futures = [pool.submit(fn, t) for t in tasks]
        finally:
            _unblock_sigint(held)
        for fut in as_completed(futures):
            sink(fut.result())
    except BaseException:
        _stop_at_once(pool, before)
        raise
    pool.shutdown()


def _stop_at_once(pool: ProcessPoolExecutor, before: set[BaseProcess]) -> None:
    """Stop the pool's workers without waiting for their tasks, and its thread with them.

    A worker stopped while it sends a result leaves half a message in the result pipe; the pool's thread
    would wait for the rest forever, and Python waits for that thread at exit (a run that never ends).
    Once the workers are gone, closing this process's copy of the pipe's writing end ends that wait (the
    pool takes it as a broken pool and winds up), so the pool is shut down and its thread joined here:
    none is left for Python's exit to join while it closes its pipes (an EBADF traceback).
    """
    workers = _started_since(before)
    for proc in workers:
        proc.terminate()
    for proc in workers:
        proc.join()
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)  # the executor has no public handle
    if writer is not None:
        writer.close()
    pool.shutdown(wait=True, cancel_futures=True)


def _started_since(before: set[BaseProcess]) -> list[BaseProcess]:
    """The child processes started since `before` was taken: the pool's workers.

    The executor has no public way to stop a worker busy with a task before Python 3.14
    (`terminate_workers`); `multiprocessing.active_children` lists the workers it started,
    as children of this process, and `terminate` ends each (SIGTERM) without waiting for its task.
    """
    import multiprocessing

    return [proc for proc in multiprocessing.active_children() if proc not in before]


def _block_sigint() -> bool:
    """Block SIGINT in this thread (where the platform can); whether it was blocked here."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        return False
    return signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def _unblock_sigint(held: bool) -> None:
    if held:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _worker_start(parent_pid: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _unblock_sigint(hasattr(signal, "pthread_sigmask"))  # inherited blocked from the parent (run_in_workers)
    die_with_parent(parent_pid)
