"""Worker processes that do not outlive their parent.

A worker of `simulate --jobs N` killed with its parent (SIGKILL, the OOM killer)
would otherwise sleep forever on a pipe nobody writes. On Linux the kernel
sends the worker a signal when its parent dies (prctl PR_SET_PDEATHSIG); where
that is not available a daemon thread watches the parent's pid instead.
"""
from __future__ import annotations

import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor
    from multiprocessing.process import BaseProcess
    from types import FrameType

__all__ = ["die_with_parent", "prepare", "run_in_workers"]

PR_SET_PDEATHSIG = 1


_PRCTL: list[Callable[..., int] | None] = []  # [prctl] once looked up: a forked child must not call dlopen/dlsym (the loader's lock)


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


T = TypeVar("T")
R = TypeVar("R")


def run_in_workers(fn: Callable[[T], R], tasks: Iterable[T], jobs: int, sink: Callable[[R], None]) -> None:
    """Run `fn(task)` for every task in `jobs` worker processes, giving each result to `sink` as it comes.

    The workers ignore SIGINT (Ctrl-C reaches the parent, which stops them: no traceback per worker and
    no wait for the tasks still queued) and die with the parent however it ends (even SIGKILL).

    While the pool runs, a Ctrl-C only sets a flag (`_SigintFlag`): a KeyboardInterrupt raised inside the
    pool's own locks (`as_completed`, `Future.result`) once left a future's lock held and the pool's thread
    waiting on it for ever, so `shutdown` and Python's exit hung. The results come through a queue read
    with a short timeout, the flag is looked at between reads, and a Ctrl-C stops the workers at once
    (`_stop_at_once`) and is then raised here, outside the pool.
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor  # only with --jobs N: it starts slowly

    prepare()
    before = set(multiprocessing.active_children())
    with _SigintFlag() as interrupted:
        # Ctrl-C is also held back while the workers are forked: a worker that took it before its
        # initializer ignores SIGINT would run the parent's handler. The workers inherit the blocked
        # mask and unblock it once SIGINT is ignored; the flag takes a Ctrl-C that came meanwhile.
        held = _block_sigint()
        try:
            pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start, initargs=(os.getpid(),))
        except BaseException:
            _unblock_sigint(held)
            raise
        try:
            try:
                done: queue.SimpleQueue[Future[R]] = queue.SimpleQueue()
                futures = [pool.submit(fn, t) for t in tasks]
                for fut in futures:
                    fut.add_done_callback(done.put)  # called by the pool's thread as each finishes
            finally:
                _unblock_sigint(held)
            for _ in futures:
                sink(_next_done(done, interrupted).result())
            pool.shutdown()
        except BaseException as exc:
            _stop_at_once(pool, before, 130 if isinstance(exc, KeyboardInterrupt) else 1)
            raise
        interrupted.check()  # a Ctrl-C while the finished pool shut down


POLL = 0.05  # seconds between looks at the Ctrl-C flag while waiting for a result


def _next_done(done: queue.SimpleQueue[Future[R]], interrupted: _SigintFlag) -> Future[R]:
    """The next finished future; KeyboardInterrupt as soon as a Ctrl-C has come."""
    while True:
        interrupted.check()
        try:
            return done.get(timeout=POLL)
        except queue.Empty:
            continue


class _SigintFlag:
    """While active (on the main thread), SIGINT sets a flag instead of raising KeyboardInterrupt.

    `check` raises the KeyboardInterrupt where the caller chooses; on leaving, the handler before is
    put back (a Ctrl-C after that is raised as usual). Off the main thread, or where SIGINT is ignored
    or handled by someone else, nothing changes and `check` never raises.
    """

    def __init__(self) -> None:
        self.event = threading.Event()
        self.previous: Callable[[int, FrameType | None], object] | None = None
        self.active = False

    def __enter__(self) -> _SigintFlag:
        if threading.current_thread() is threading.main_thread():
            current = signal.getsignal(signal.SIGINT)
            if current is signal.default_int_handler:
                self.previous = signal.default_int_handler  # `current`
                signal.signal(signal.SIGINT, self._handle)
                self.active = True
        return self

    def _handle(self, _signum: int, _frame: FrameType | None) -> None:
        self.event.set()  # only this: nothing may raise inside the pool's locks

    def check(self) -> None:
        if self.event.is_set():
            raise KeyboardInterrupt

    def __exit__(self, *_exc: object) -> None:
        if self.active and self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)


def _stop_at_once(pool: ProcessPoolExecutor, before: set[BaseProcess], status: int) -> None:
    """Stop the pool's workers without waiting for their tasks, and its thread with them.

    A worker stopped while it sends a result leaves half a message in the result pipe; the pool's thread
    would wait for the rest forever, and Python waits for that thread at exit (a run that never ends).
    Once the workers are gone, closing this process's copy of the pipe's writing end ends that wait (the
    pool takes it as a broken pool and winds up), so the pool is shut down and its thread joined here:
    none is left for Python's exit to join while it closes its pipes (an EBADF traceback). Every wait
    is bounded: a worker that ignores SIGTERM is killed, and a pool thread that still does not end
    cannot keep the process alive (`_exit_if_stuck`).
    """
    workers = _started_since(before)
    for proc in workers:
        proc.terminate()
    deadline = time.monotonic() + STOP_GRACE
    for proc in workers:
        proc.join(max(0.0, deadline - time.monotonic()))
    for proc in workers:
        if proc.is_alive():
            proc.kill()
            proc.join(STOP_GRACE)
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)  # the executor has no public handle
    if writer is not None:
        writer.close()
    thread = getattr(pool, "_executor_manager_thread", None)  # shutdown forgets it
    pool.shutdown(wait=False, cancel_futures=True)
    if thread is not None:
        thread.join(STOP_GRACE)
        _exit_if_stuck(thread, status)


STOP_GRACE = 0.5  # seconds given to the workers, then to the pool's thread, to end once told


def _exit_if_stuck(thread: threading.Thread, status: int, after: float = 1.0) -> None:
    """If the pool's thread is still alive, end the process with `status` `after` seconds from now.

    Python's exit joins that thread (it is not a daemon): were it stuck, the command would never end.
    A daemon timer ends the process instead, once the command has had `after` seconds to report and
    exit by itself; it does nothing if the thread ends meanwhile.
    """
    if not thread.is_alive():
        return

    def end() -> None:  # pragma: no cover - only when the pool's thread is stuck
        if thread.is_alive():
            os._exit(status)

    timer = threading.Timer(after, end)
    timer.daemon = True
    timer.start()


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
