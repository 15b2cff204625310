"""How a Ctrl-C (SIGINT) ends any `rulelang` command: one line on standard error and exit status 130
(128 + SIGINT, as shells expect of an interrupted command), never a traceback.

`rulelang/launch.py` (the console script and `python -m rulelang`) and the command group
(`rulelang/cli.py`) report through here, so the line is the same however early the Ctrl-C comes.
"""
from __future__ import annotations

import sys

TYPE_CHECKING = False  # not typing's: this runs before the Ctrl-C guard, where every import widens the gap
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["EXIT_STATUS", "MESSAGE", "during_interrupt", "forget", "redeliver_lost", "report"]

EXIT_STATUS = 130
MESSAGE = "rulelang: interrupted"


def report() -> None:
    """Write the line (after a newline that closes the terminal's `^C` echo); quietly nothing without a stderr."""
    try:
        if sys.stderr is not None:
            sys.stderr.write(f"\n{MESSAGE}\n")
            sys.stderr.flush()
    except (OSError, ValueError):  # stderr closed or gone: the exit status still says it
        pass


def forget() -> None:
    """Tell CPython that a KeyboardInterrupt was handled, so that `python -m rulelang` exits with our status.

    CPython notes a KeyboardInterrupt that escapes an `exec` or `eval` of source text (dataclasses and
    namedtuple build their methods so while modules are imported) in a process-wide flag that catching
    the exception does not clear; at the end of `python -m`, that flag makes the interpreter kill itself
    with SIGINT (status -2) after printing nothing. Running any source text resets the flag.
    """
    exec("")  # resets the flag described above; runs nothing


def during_interrupt(exc: BaseException) -> bool:
    """Whether `exc` was raised while a KeyboardInterrupt was on its way (its cause or context, at any depth):
    a Ctrl-C that lands inside a lock's wait, an import or a cleanup can come out as another error
    ("release unlocked lock"), which is the Ctrl-C's doing, not a bug or a bad input."""
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        if isinstance(link, KeyboardInterrupt):
            return True
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return False


def redeliver_lost(unraisable: sys.UnraisableHookArgs,
                   previous: Callable[[sys.UnraisableHookArgs], object] = sys.__unraisablehook__) -> None:
    """`sys.unraisablehook`: a Ctrl-C that landed in a finaliser or a weakref callback, where Python prints the
    KeyboardInterrupt and drops it, is delivered again to the main thread instead of being lost.

    It is delivered a moment later from another thread: delivered from here, it would be raised in this
    hook, where Python drops it again."""
    if not isinstance(unraisable.exc_value, KeyboardInterrupt):
        previous(unraisable)
        return
    import _thread
    import threading

    later = threading.Timer(0.05, _thread.interrupt_main)  # does nothing where SIGINT is not Python's
    later.daemon = True
    try:
        later.start()
    except RuntimeError:  # the interpreter is shutting down: the command has ended anyway
        pass
