"""The engine side and the runner side of the conformance protocol (PROTOCOL.md).

JSON lines over stdin/stdout. The runner sends `start`, then `run` requests with
a sequence number, then `stop`; the engine answers `start` with its protocol
version, implementation and capabilities, and every `run` with exactly one of
`result`, `skipped` or `errored`.
"""
from __future__ import annotations

import json
import os
import queue
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from rulelang.base.readinput import parse_json

from . import reaper

PROTOCOL_VERSION = 1
MAX_LINE = 8 * 1024 * 1024  # bytes: a longer answer line is an error ("oversized")
START_TIMEOUT = 20.0


class EngineFailure(Exception):
    """The engine did not answer as the protocol says; `restart` tells the runner to start it anew."""

    def __init__(self, kind: str, message: str, context: dict[str, Any] | None = None, restart: bool = True):
        super().__init__(message)
        self.kind = kind  # timeout / crash / malformed / oversized / protocol / version
        self.message = message
        self.context = context or {}
        self.restart = restart


# ---------------------------------------------------------------------------
# Engine side: `rulelang engine-adapter` and any Python engine


def serve(run_case: Callable[[dict[str, Any]], dict[str, Any]], implementation: dict[str, Any],
          capabilities: dict[str, Any], stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Answer protocol requests from `stdin` until `stop` or end of input."""
    stdin = sys.stdin if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout

    def send(obj: dict[str, Any]) -> None:
        out.write(json.dumps(obj, separators=(",", ":")) + "\n")
        out.flush()

    started = False
    for line in stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = parse_json(line)  # nested too deeply is refused as not JSON, never a RecursionError
        except ValueError as exc:
            send({"errored": {"message": f"bad request: not JSON: {exc}"}})
            continue
        if not isinstance(req, dict) or not isinstance(req.get("cmd"), str):
            send({"errored": {"message": "bad request: a request is a JSON object with a `cmd` text"}})
            continue
        cmd = req["cmd"]
        if cmd == "start":
            started = True
            send({"version": PROTOCOL_VERSION, "implementation": implementation, "capabilities": capabilities})
        elif cmd == "stop":
            return 0
        elif cmd == "run":
            seq = req.get("seq")
            if not started:
                send({"seq": seq, "errored": {"message": "run before start"}})
                continue
            case = req.get("case")
            if not isinstance(case, dict):
                send({"seq": seq, "errored": {"message": "bad request: `case` must be a JSON object"}})
                continue
            try:
                send({"seq": seq, "result": run_case(case)})
            except Exception as exc:  # noqa: BLE001 - every engine error is that case's error
                send({"seq": seq, "errored": {"message": f"{type(exc).__name__}: {exc}",
                                              "context": {"case": case.get("id")}}})
        else:
            send({"errored": {"message": f"unknown command {cmd!r}"}})
    return 0


# ---------------------------------------------------------------------------
# Runner side


class CaseTimeout(Exception):
    """Raised inside an in-process engine that has run past the case's timeout."""


class _Deadline:
    """A per-case timeout for an engine running in this process.

    A real-time interval timer (SIGALRM) interrupts a Python loop that runs too
    long. It needs the main thread of a POSIX process; elsewhere the case simply
    has no timeout.
    """

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.armed = (hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
                      and 0 < seconds < float("inf"))

    def _expire(self, signum: int, frame: Any) -> None:
        raise CaseTimeout(f"the case ran longer than {self.seconds:g} s")

    def __enter__(self) -> _Deadline:
        if self.armed:
            self._previous = signal.signal(signal.SIGALRM, self._expire)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)


class InProcessEngine:
    """An engine called directly (the built-in one, or a test's wrapper): no process; a timer bounds each case."""

    def __init__(self, run_case: Callable[[dict[str, Any]], dict[str, Any]], implementation: dict[str, Any],
                 capabilities: dict[str, Any]):
        self._run = run_case
        self.implementation = implementation
        self.capabilities = capabilities
        self.restarts = 0

    def start(self) -> None:
        pass

    def run(self, seq: int, case: dict[str, Any], timeout: float) -> dict[str, Any]:
        try:
            with _Deadline(timeout):
                return {"seq": seq, "result": self._run(case)}
        except CaseTimeout as exc:
            return {"seq": seq, "errored": {"message": f"timeout: {exc}", "kind": "timeout"}}
        except Exception as exc:  # noqa: BLE001
            return {"seq": seq, "errored": {"message": f"{type(exc).__name__}: {exc}"}}

    def stop(self) -> None:
        pass


REAPER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reaper.py")
CONTAINED = sys.platform.startswith("linux")  # where reaper.py can hold an engine's whole process tree
_SUPERVISORS: set[int] = set()  # pids of the live reaper.py processes this runner started
_SUBREAPER: list[bool] = []  # [whether this runner became a child subreaper], once asked


def _become_subreaper() -> bool:
    """Make the runner itself a child subreaper (Linux; elsewhere there is no such thing and this does nothing).

    reaper.py holds an engine's tree only while it lives: an engine that kills
    it (SIGKILL) would leave its own orphans to init. With the runner a
    subreaper, they come back to the runner, which kills and reaps them.
    """
    if not _SUBREAPER:
        _SUBREAPER.append(CONTAINED and reaper.become_subreaper())
    return _SUBREAPER[0]


def _kill_orphans(born: int) -> None:
    """Kill and reap every child of this process that a dead reaper left: started after it (`born`, clock
    ticks since boot), not another engine's live reaper; their own orphans, which come back here in turn, too."""
    for _ in range(10_000):
        orphans = []
        for pid in reaper.children():
            started = reaper.start_time(pid)
            if pid not in _SUPERVISORS and started is not None and started >= born:
                orphans.append(pid)
        if not orphans:
            return
        for pid in orphans:  # a child of this process: its pid cannot be reused before it is reaped here
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for pid in orphans:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass


def _executable(argv0: str, cwd: str | None, env: dict[str, str] | None) -> bool:
    """Whether `argv0` names a program that can be started (as Popen would find it)."""
    if os.sep in argv0:
        path = os.path.join(cwd or ".", argv0)
        return os.path.isfile(path) and os.access(path, os.X_OK)
    return shutil.which(argv0, path=(env if env is not None else os.environ).get("PATH", os.defpath)) is not None


STDERR_KEEP = 64 * 1024  # bytes of an engine's standard error kept (its last ones): the rest is read and dropped


class _StderrTail:
    """The last STDERR_KEEP bytes an engine wrote to its standard error, drained by a thread as they come.

    A chatty engine's output never piles up, in memory or on disk; the thread
    closes the pipe when the engine's whole tree has closed it.
    """

    def __init__(self, stream: IO[bytes], keep: int = STDERR_KEEP):
        self.keep = keep
        self._buf = bytearray()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._drain, args=(stream,), daemon=True)
        self._thread.start()

    def _drain(self, stream: IO[bytes]) -> None:
        try:
            while True:
                chunk = stream.read1(1 << 16)  # type: ignore[attr-defined]
                if not chunk:
                    return
                with self._lock:
                    self._buf += chunk
                    if len(self._buf) > self.keep:
                        del self._buf[:len(self._buf) - self.keep]
        except (OSError, ValueError):
            return
        finally:
            try:
                stream.close()
            except OSError:
                pass

    def size(self) -> int:
        with self._lock:
            return len(self._buf)

    def tail(self, limit: int, settle: float = 0.0) -> str:
        """The last LIMIT bytes as text; with SETTLE, first wait that long at most for the pipe's end."""
        if settle:
            self._thread.join(settle)
        with self._lock:
            return bytes(self._buf[-limit:]).decode("utf-8", "replace")


class SubprocessEngine:
    """An engine started as a subprocess in its own session, spoken to over JSON lines.

    On Linux the engine runs under `reaper.py`, which kills and reaps every
    process of the engine's tree when the engine ends or is stopped, even one
    that left the engine's session; elsewhere the engine's process group is killed.
    """

    def __init__(self, command: str | list[str], cwd: str | None = None, env: dict[str, str] | None = None,
                 start_timeout: float = START_TIMEOUT):
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.start_timeout = start_timeout  # an engine on a slow runtime may need longer to answer `start`
        self.cwd = cwd
        self.env = env
        self.proc: subprocess.Popen[bytes] | None = None
        self.implementation: dict[str, Any] = {}
        self.capabilities: dict[str, Any] = {}
        self.restarts = 0
        self.start_error: EngineFailure | None = None
        self._lines: queue.Queue[Any] = queue.Queue()
        self._stderr: _StderrTail | None = None
        self._born: int | None = None  # when the engine's reaper started (clock ticks since boot)

    # -- process management --------------------------------------------------

    def _spawn(self) -> None:
        if CONTAINED and not _executable(self.argv[0], self.cwd, self.env):
            raise EngineFailure("spawn", f"cannot start {self.argv[0]!r}: no such program", restart=False)
        argv = [sys.executable, "-I", "-S", REAPER, str(os.getpid()), "--", *self.argv] if CONTAINED else self.argv
        _become_subreaper()
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=self.cwd, env=self.env, start_new_session=True)
        except OSError as exc:
            raise EngineFailure("spawn", f"cannot start {self.argv[0]!r}: {exc}", restart=False) from exc
        assert self.proc.stderr is not None
        self._stderr = _StderrTail(self.proc.stderr)
        if CONTAINED:
            _SUPERVISORS.add(self.proc.pid)
            self._born = reaper.start_time(self.proc.pid)
        self._lines = queue.Queue()
        threading.Thread(target=self._reader, args=(self.proc, self._lines), daemon=True).start()

    @staticmethod
    def _reader(proc: subprocess.Popen[bytes], out: queue.Queue[Any]) -> None:
        assert proc.stdout is not None
        try:
            while True:
                line = proc.stdout.readline(MAX_LINE + 1)
                if not line:
                    out.put(EOFError())
                    return
                if len(line) > MAX_LINE and not line.endswith(b"\n"):
                    out.put(OverflowError(f"an answer line longer than {MAX_LINE} bytes"))
                    return
                out.put(line)
        except (OSError, ValueError) as exc:
            out.put(EOFError(str(exc)))

    def _stderr_tail(self, limit: int = 2000) -> str:
        """The end of what the engine wrote to standard error; once it has exited, all it wrote up to its end."""
        if self._stderr is None:
            return ""
        ended = self.proc is None or self.proc.poll() is not None
        return self._stderr.tail(limit, settle=1.0 if ended else 0.0)

    def kill(self) -> None:
        """Kill the engine's whole process tree and reap it: no orphans, setsid escapes included."""
        proc = self.proc
        self.proc = None
        if proc is None:
            return
        if CONTAINED and proc.poll() is None:
            # the reaper kills the engine and every process left of its tree, then exits; SIGCONT wakes
            # a reaper its engine stopped (SIGSTOP) to hear the SIGTERM
            try:
                proc.send_signal(signal.SIGTERM)
                proc.send_signal(signal.SIGCONT)
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:  # a reaper kept stopped: killed below, its orphans come back here
                pass
        try:  # what is left in the engine's process group (a reaper killed or stopped by its engine, say)
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL does not fail
            pass
        if CONTAINED:
            _SUPERVISORS.discard(proc.pid)
            if _become_subreaper() and self._born is not None and proc.returncode is not None:
                # what the dead reaper held has come back to this process; killed before the pipes are
                # closed, since an orphan holding the engine's output would keep the reader thread waiting
                _kill_orphans(self._born)
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass
        self._stderr = None  # its thread closes the pipe at its end (every holder is dead by now)

    def _send(self, obj: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write((json.dumps(obj, separators=(",", ":")) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise EngineFailure("crash", f"the engine closed its input: {exc}", self._context()) from exc

    def _context(self) -> dict[str, Any]:
        ctx: dict[str, Any] = {}
        if self.proc is not None and self.proc.poll() is not None:
            ctx["exit_code"] = self.proc.returncode
        tail = self._stderr_tail()
        if tail:
            ctx["stderr"] = tail
        return ctx

    def _receive(self, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineFailure("timeout", f"no answer within {timeout:g} s", self._context())
            try:
                item = self._lines.get(timeout=left)
            except queue.Empty:
                continue
            if isinstance(item, EOFError):
                if self.proc is not None:
                    try:
                        self.proc.wait(timeout=2)
                    except subprocess.TimeoutExpired:
                        pass
                raise EngineFailure("crash", "the engine exited or closed its output", self._context())
            if isinstance(item, OverflowError):
                raise EngineFailure("oversized", str(item), self._context())
            text = item.decode("utf-8", "replace").strip()
            if not text:
                continue
            try:
                obj = parse_json(text)  # bounded nesting: a deeply nested answer is that case's error
            except ValueError as exc:
                raise EngineFailure("malformed", f"not a JSON line ({exc}): {_quote(text)}",
                                    {"line": text[:500], **self._context()}) from exc
            if not isinstance(obj, dict):
                raise EngineFailure("malformed", f"an answer must be a JSON object, not {_quote(text)}",
                                    {"line": text[:500]})
            return obj

    # -- protocol -------------------------------------------------------------

    def start(self) -> None:
        """Spawn the engine and do the `start` exchange (raises EngineFailure).

        A failed start is remembered: the engine is not started again, and every
        later case reports the same failure at once (an engine that hangs at
        start would otherwise cost its start timeout per case).
        """
        if self.start_error is not None:
            raise self.start_error
        try:
            self._start()
        except EngineFailure as exc:
            self.kill()
            self.start_error = EngineFailure(exc.kind, f"{exc.message} (at start; the engine is not started again)",
                                             exc.context, restart=False)
            raise self.start_error from None

    def _start(self) -> None:
        self.kill()
        self._spawn()
        self._send({"cmd": "start", "version": PROTOCOL_VERSION})
        hello = self._receive(self.start_timeout)
        version = hello.get("version")
        if version != PROTOCOL_VERSION:
            raise EngineFailure("version", f"the engine speaks protocol version {version!r}, the runner {PROTOCOL_VERSION}",
                                {"start": _clip(hello)})
        implementation, capabilities = hello.get("implementation") or {}, hello.get("capabilities") or {}
        features = capabilities.get("features") if isinstance(capabilities, dict) else None
        if not isinstance(implementation, dict) or not isinstance(capabilities, dict) or not (
                features is None or (isinstance(features, list) and all(isinstance(f, str) for f in features))):
            raise EngineFailure("protocol", "a start answer has `implementation` and `capabilities` objects "
                                "(`capabilities.features` a list of tags)", {"start": _clip(hello)})
        self.implementation = dict(implementation)
        self.capabilities = dict(capabilities)

    def ensure_started(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            if self.proc is not None:
                self.restarts += 1
            self.start()

    def run(self, seq: int, case: dict[str, Any], timeout: float) -> dict[str, Any]:
        """One `run` exchange; any failure becomes an `errored` answer and the engine is restarted next time."""
        try:
            self.ensure_started()
            self._send({"cmd": "run", "seq": seq, "case": case})
            answer = self._receive(timeout)
            if answer.get("seq") != seq:
                raise EngineFailure("protocol", f"answer for seq {answer.get('seq')!r}, expected {seq}",
                                    {"answer": _clip(answer)})
            if sum(k in answer for k in ("result", "skipped", "errored")) != 1:
                raise EngineFailure("protocol", "an answer holds exactly one of result, skipped, errored",
                                    {"answer": _clip(answer)})
            return answer
        except EngineFailure as exc:
            if exc.restart:
                self.kill()
                self.restarts += 1
            return {"seq": seq, "errored": {"message": f"{exc.kind}: {exc.message}", "kind": exc.kind,
                                            "context": exc.context}}

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            try:
                self._send({"cmd": "stop"})
                self.proc.wait(timeout=2)
            except (EngineFailure, subprocess.TimeoutExpired):
                pass
        self.kill()


def _quote(text: str, limit: int = 80) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _clip(obj: Any, limit: int = 1000) -> Any:
    text = json.dumps(obj)
    return obj if len(text) <= limit else text[:limit] + "..."
