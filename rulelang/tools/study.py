"""A balance study as independent matches: what to play, how each match is seeded, and where it runs.

A study plays four *parts* per variant: `field` (the field bot in every seat),
`luck` (greedy against random), `skill-random` and `skill-greedy` (the strong
player against each). Match `i` of a part is dealt from
`derive(seed, part, i)` and its players are seeded from the same parts, so a
match depends on nothing else: the results are the same serially, with
`--jobs`, on a Dask cluster, and after `--resume`. With `--vs`, both variants
play the same seeds (paired).
"""
from __future__ import annotations

import hashlib
import json
import logging
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from rulelang.base.outfiles import write_atomic
from rulelang.base.procs import run_in_workers
from rulelang.interpreter import Config
from rulelang.players.arena import play_match
from rulelang.tools import resume
from rulelang.tools.configs import ToolError
from rulelang.tools.playernames import make_player

FORMAT = "rulelang-balance/1"
PARTS = ("field", "luck", "skill-random", "skill-greedy")
CHUNK = {"field": 40, "luck": 40, "skill-random": 4, "skill-greedy": 4}  # matches per task


def derive(*parts: Any) -> int:
    """A 60-bit seed from any parts (sha256: the same on every machine and Python)."""
    return int(hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:15], 16)


def part_size(params: dict[str, Any], part: str) -> int:
    size: int = params["matches"] if part in ("field", "luck") else params["skill_matches"]
    return size


def seat_specs(params: dict[str, Any], part: str, index: int) -> tuple[list[str], int | None]:
    """The player of each seat, and the seat of the stronger player (None in the field)."""
    n = params["players"]
    if part == "field":
        return [params["field"]] * n, None
    better, worse = {"luck": ("greedy", "random"), "skill-random": (params["strong"], "random"),
                     "skill-greedy": (params["strong"], "greedy")}[part]
    focus = index % n
    return [better if s == focus else worse for s in range(n)], focus


_CONFIGS: dict[str, Config] = {}


def config_of(data: dict[str, Any]) -> Config:
    """The validated Config of a configuration dict, made once per process (workers receive dicts)."""
    key = json.dumps(data, sort_keys=True)
    cfg = _CONFIGS.get(key)
    if cfg is None:
        cfg = _CONFIGS[key] = Config.from_dict(data)
    return cfg


def play_one(params: dict[str, Any], key: str, part: str, index: int) -> dict[str, Any]:
    """Match `index` of `part` for variant `key` ('a', or 'b' with --vs): a JSON-ready record."""
    cfg = config_of(params["variants"][key])
    seed = params["seed"]
    specs, focus = seat_specs(params, part, index)
    seats = [make_player(spec, cfg, derive("player", seed, part, index, s)) for s, spec in enumerate(specs)]
    rec = play_match(cfg, params["players"], derive("match", seed, part, index), seats,
                     race=(part == "field" and index == 0))
    for r in rec["round_details"]:
        del r["start"], r["end"]
    return {"key": key, "part": part, "index": index, "focus": focus, **rec}


def run_task(task: tuple[dict[str, Any], str, str, list[int]]) -> list[dict[str, Any]]:
    """One chunk of matches (the unit of work a worker gets)."""
    return _run_parts(*task)


def _run_parts(params: dict[str, Any], key: str, part: str, indices: list[int]) -> list[dict[str, Any]]:
    return [play_one(params, key, part, i) for i in indices]


def plan(params: dict[str, Any], done: set[tuple[str, str, int]]) -> list[tuple[dict[str, Any], str, str, list[int]]]:
    """The chunks still to play, skipping the matches in `done`."""
    tasks = []
    for key in sorted(params["variants"]):
        for part in PARTS:
            todo = [i for i in range(part_size(params, part)) if (key, part, i) not in done]
            size = CHUNK[part]
            tasks += [(params, key, part, todo[a:a + size]) for a in range(0, len(todo), size)]
    return tasks


# --------------------------------------------------------------------------- backends

def execute(tasks: Sequence[Any], jobs: int = 1, dask: Any = None,
            on_result: Callable[[list[dict[str, Any]]], None] | None = None,
            run: Callable[..., list[dict[str, Any]]] | None = None) -> None:
    """Run the chunks serially, in `jobs` processes, or on Dask (`dask`: "local", an address, or a Client).

    A chunk is `(params, key, part, indices)`; `run(*chunk)` plays it (default: the balance study's matches).
    `run` must be a module-level function (it goes to other processes by name)."""
    sink = on_result or (lambda _rows: None)
    runner = run or _run_parts
    if dask is not None:
        with dask_client(dask, jobs) as client:
            _dask(tasks, client, sink, runner)
    elif jobs <= 1 or len(tasks) <= 1:
        for t in tasks:
            sink(runner(*t))
    else:
        from functools import partial

        run_in_workers(partial(_run_with, runner), tasks, jobs, sink)


def _run_with(run: Callable[..., list[dict[str, Any]]], task: tuple[Any, ...]) -> list[dict[str, Any]]:
    return run(*task)


@contextmanager
def dask_client(where: Any, jobs: int) -> Iterator[Any]:
    """A Dask client for `where` ("local": a local cluster of `jobs` workers; an address; or a Client, kept open)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ToolError("--dask needs Dask: pip install 'rulelang[dask]' (dask[distributed])") from None
    if isinstance(where, Client):
        yield where
        return
    cluster = None
    try:
        if where == "local":
            _quiet_after_a_kill()
            cluster = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, dashboard_address=None,
                                   silence_logs=logging.CRITICAL)
            client = Client(cluster)
        else:
            client = Client(where, timeout="10s")
    except (OSError, ValueError, TypeError) as exc:
        raise ToolError(f"--dask {where}: cannot reach the scheduler ({exc}); give an address like "
                        "tcp://host:8786, or 'local'") from None
    previous = _sigterm_as_exit() if cluster is not None else None
    try:
        yield client
    finally:
        distributed_log = logging.getLogger("distributed")
        level = distributed_log.level
        distributed_log.setLevel(logging.CRITICAL + 1)  # a run cut short: the scheduler's reports to the
        try:  # closed client (CommClosedError tracebacks, logged as critical) are no news to the user
            client.close()
            if cluster is not None:
                cluster.close()
        finally:
            distributed_log.setLevel(level)
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)


def _quiet_after_a_kill() -> None:
    """A local cluster whose parent is killed (SIGKILL) says nothing in the user's terminal.

    Its workers would log the lost connection (CommClosedError tracebacks: `silence_logs` in the caller),
    and multiprocessing's resource tracker, which this process starts and which outlives it, would warn
    of "leaked semaphore objects" that it then cleans up itself: the warning is turned off for the tracker
    (it takes this process's -W options when it starts).
    """
    option = "ignore:resource_tracker:UserWarning"
    if option not in sys.warnoptions:
        sys.warnoptions.append(option)


def _sigterm_as_exit() -> Any:
    """While a local cluster runs, SIGTERM ends the command as an exception would: the cluster is closed
    cleanly (no worker left to report a lost scheduler). The handler before, or None off the main thread."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None

    def stop(_signum: int, _frame: Any) -> None:
        raise SystemExit(128 + signal.SIGTERM)

    return signal.signal(signal.SIGTERM, stop)


def _dask(tasks: Sequence[Any], client: Any, sink: Callable[[list[dict[str, Any]]], None],
          run: Callable[..., list[dict[str, Any]]]) -> None:
    from distributed import as_completed

    # the study (rulesets included) goes to every worker once, not with every chunk; in a list, so that
    # it is one piece of data under a fresh key (a dict would be scattered value by value, keyed by its keys)
    shared = client.scatter([tasks[0][0]], broadcast=True, hash=False)[0] if tasks else None
    futures = [client.submit(run, shared, key, part, indices, pure=False) for _p, key, part, indices in tasks]
    for fut in as_completed(futures):
        sink(fut.result())


# --------------------------------------------------------------------------- results as they come

def header(params: dict[str, Any]) -> dict[str, Any]:
    return {"format": FORMAT, "study": params}


def read_done(path: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    """The matches already in a results file of the same study (a line cut short is dropped)."""
    values = resume.json_lines(path, "a balance results file")
    if not values:
        return []
    head = values[0]
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise resume.not_resumable(path, "a balance results file")
    if head.get("study") != json.loads(json.dumps(params)):
        raise resume.another_study(path, "variants, players, seed, bots or match counts")
    rows: dict[tuple[str, str, int], dict[str, Any]] = {}
    for r in values[1:]:
        try:
            rows[(r["key"], r["part"], r["index"])] = r
        except (KeyError, TypeError):
            raise resume.not_resumable(path, "a balance results file") from None
    return list(rows.values())


class Sink:
    """Appends each finished chunk to the results file, flushed, so an interruption loses at most a chunk."""

    def __init__(self, path: str, params: dict[str, Any], kept: Iterable[dict[str, Any]]):
        text = json.dumps(header(params), sort_keys=True) + "\n"
        text += "".join(json.dumps(r, sort_keys=True) + "\n" for r in kept)
        write_atomic(path, text, newline=None)  # the kept lines only: a cut-short line goes
        self.fh = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()

    def write(self, rows: list[dict[str, Any]]) -> None:
        self.fh.write("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
        self.fh.flush()

    def close(self) -> None:
        self.fh.close()


def collect(params: dict[str, Any], rows: Iterable[dict[str, Any]]) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Records by variant key and part, in index order (every match present)."""
    out: dict[str, dict[str, list[dict[str, Any]]]] = {k: {p: [] for p in PARTS} for k in params["variants"]}
    for r in rows:
        out[r["key"]][r["part"]].append(r)
    for key, parts in out.items():
        for part, rs in parts.items():
            rs.sort(key=lambda r: r["index"])
            if [r["index"] for r in rs] != list(range(part_size(params, part))):
                raise ToolError(f"internal: {key}/{part} is missing matches")
    return out
