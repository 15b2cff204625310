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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, TypeVar, cast

from rulelang.base.jsontypes import ConfigJSON
from rulelang.base.outfiles import write_atomic
from rulelang.base.procs import run_in_workers
from rulelang.interpreter import Config
from rulelang.players.arena import play_match
from rulelang.tools import resume
from rulelang.tools.configs import ToolError
from rulelang.tools.documents import Parts, Study, StudyMatch
from rulelang.tools.playernames import make_player

FORMAT = "rulelang-balance/1"
PARTS = ("field", "luck", "skill-random", "skill-greedy")
if TYPE_CHECKING:
    from distributed import Client

Task = tuple[Study, str, str, list[int]]
"""A chunk of matches: (the study, variant key, part, match indices)."""
R = TypeVar("R", bound=Mapping[str, object])  # a match line (a study's, or a ladder's)
_Handler = Callable[[int, FrameType | None], object] | int | signal.Handlers | None

CHUNK = {"field": 40, "luck": 40, "skill-random": 4, "skill-greedy": 4}  # matches per task


def derive(*parts: object) -> int:
    """A 60-bit seed from any parts (sha256: the same on every machine and Python)."""
    return int(hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:15], 16)


def part_size(params: Study, part: str) -> int:
    size: int = params["matches"] if part in ("field", "luck") else params["skill_matches"]
    return size


def seat_specs(params: Study, part: str, index: int) -> tuple[list[str], int | None]:
    """The player of each seat, and the seat of the stronger player (None in the field)."""
    n = params["players"]
    if part == "field":
        return [params["field"]] * n, None
    better, worse = {"luck": ("greedy", "random"), "skill-random": (params["strong"], "random"),
                     "skill-greedy": (params["strong"], "greedy")}[part]
    focus = index % n
    return [better if s == focus else worse for s in range(n)], focus


_CONFIGS: dict[str, Config] = {}


def config_of(data: ConfigJSON) -> Config:
    """The validated Config of a configuration dict, made once per process (workers receive dicts)."""
    key = json.dumps(data, sort_keys=True)
    cfg = _CONFIGS.get(key)
    if cfg is None:
        cfg = _CONFIGS[key] = Config.from_dict(data)
    return cfg


def play_one(params: Study, key: str, part: str, index: int) -> StudyMatch:
    """Match `index` of `part` for variant `key` ('a', or 'b' with --vs): a JSON-ready record."""
    cfg = config_of(params["variants"][key])
    seed = params["seed"]
    specs, focus = seat_specs(params, part, index)
    seats = [make_player(spec, cfg, derive("player", seed, part, index, s)) for s, spec in enumerate(specs)]
    rec = play_match(cfg, params["players"], derive("match", seed, part, index), seats,
                     race=(part == "field" and index == 0))
    for r in rec["round_details"]:
        del r["start"], r["end"]
    return cast(StudyMatch, {"key": key, "part": part, "index": index, "focus": focus, **rec})


def run_task(task: Task) -> list[StudyMatch]:
    """One chunk of matches (the unit of work a worker gets)."""
    return _run_parts(*task)


def _run_parts(params: Study, key: str, part: str, indices: list[int]) -> list[StudyMatch]:
    return [play_one(params, key, part, i) for i in indices]


def plan(params: Study, done: set[tuple[str, str, int]]) -> list[Task]:
    """The chunks still to play, skipping the matches in `done`."""
    tasks: list[Task] = []
    for key in sorted(params["variants"]):
        for part in PARTS:
            todo = [i for i in range(part_size(params, part)) if (key, part, i) not in done]
            size = CHUNK[part]
            tasks += [(params, key, part, todo[a:a + size]) for a in range(0, len(todo), size)]
    return tasks


# --------------------------------------------------------------------------- backends

def execute(tasks: Sequence[Task], jobs: int = 1, dask: object = None,
            on_result: Callable[[list[StudyMatch]], None] | None = None) -> None:
    """Play the balance study's chunks serially, in `jobs` processes, or on Dask (`dask`: "local", an address,
    or a Client)."""
    run_chunks(tasks, _run_parts, jobs, dask, on_result)


def run_chunks(tasks: Sequence[Task], runner: Callable[[Study, str, str, list[int]], list[R]], jobs: int = 1,
               dask: object = None, on_result: Callable[[list[R]], None] | None = None) -> None:
    """Run the chunks as `execute` does; `runner(*chunk)` plays one (a ladder's links: `ladder.play_chunk`).

    `runner` must be a module-level function (it goes to other processes by name)."""
    sink = on_result or (lambda _rows: None)
    if dask is not None:
        with dask_client(dask, jobs) as client:
            _dask(tasks, client, sink, runner)
    elif jobs <= 1 or len(tasks) <= 1:
        for t in tasks:
            sink(runner(*t))
    else:
        from functools import partial

        run_in_workers(partial(_run_with, runner), tasks, jobs, sink)


def _run_with(run: Callable[[Study, str, str, list[int]], list[R]], task: Task) -> list[R]:
    return run(*task)


@contextmanager
def dask_client(where: object, jobs: int) -> Iterator[Client]:
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


def _sigterm_as_exit() -> _Handler:
    """While a local cluster runs, SIGTERM ends the command as an exception would: the cluster is closed
    cleanly (no worker left to report a lost scheduler). The handler before, or None off the main thread."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None

    def stop(_signum: int, _frame: FrameType | None) -> None:
        raise SystemExit(128 + signal.SIGTERM)

    return signal.signal(signal.SIGTERM, stop)


def _dask(tasks: Sequence[Task], client: Client, sink: Callable[[list[R]], None],
          run: Callable[[Study, str, str, list[int]], list[R]]) -> None:
    from distributed import as_completed

    # the study (rulesets included) goes to every worker once, not with every chunk; in a list, so that
    # it is one piece of data under a fresh key (a dict would be scattered value by value, keyed by its keys)
    shared = client.scatter([tasks[0][0]], broadcast=True, hash=False)[0] if tasks else None
    futures = [client.submit(run, shared, key, part, indices, pure=False) for _p, key, part, indices in tasks]
    for fut in as_completed(futures):
        sink(fut.result())


# --------------------------------------------------------------------------- results as they come

def header(params: Study) -> dict[str, object]:
    return {"format": FORMAT, "study": params}


def read_done(path: str, params: Study) -> list[dict[str, object]]:
    """The matches already in a results file of the same study (a line cut short is dropped): each with its
    key, part and index, as read (the caller knows their shape: a balance study's or a ladder's)."""
    values = resume.json_lines(path, "a balance results file")
    if not values:
        return []
    head = values[0]
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise resume.not_resumable(path, "a balance results file")
    if head.get("study") != json.loads(json.dumps(params)):
        raise resume.another_study(path, "variants, players, seed, bots or match counts")
    rows: dict[tuple[object, object, object], dict[str, object]] = {}
    for r in values[1:]:
        if not isinstance(r, dict):  # indexing it would fail as a missing key does
            raise resume.not_resumable(path, "a balance results file")
        try:
            rows[(r["key"], r["part"], r["index"])] = r
        except (KeyError, TypeError):
            raise resume.not_resumable(path, "a balance results file") from None
    return list(rows.values())


class Sink:
    """Appends each finished chunk to the results file, flushed, so an interruption loses at most a chunk."""

    def __init__(self, path: str, params: Study, kept: Iterable[Mapping[str, object]]):
        text = json.dumps(header(params), sort_keys=True) + "\n"
        text += "".join(json.dumps(r, sort_keys=True) + "\n" for r in kept)
        write_atomic(path, text, newline=None)  # the kept lines only: a cut-short line goes
        self.fh = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()

    def write(self, rows: Sequence[Mapping[str, object]]) -> None:
        self.fh.write("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
        self.fh.flush()

    def close(self) -> None:
        self.fh.close()


def collect(params: Study, rows: Iterable[StudyMatch]) -> Parts:
    """Records by variant key and part, in index order (every match present)."""
    out: Parts = {k: {p: [] for p in PARTS} for k in params["variants"]}
    for r in rows:
        out[r["key"]][r["part"]].append(r)
    for key, parts in out.items():
        for part, rs in parts.items():
            rs.sort(key=lambda r: r["index"])
            if [r["index"] for r in rs] != list(range(part_size(params, part))):
                raise ToolError(f"internal: {key}/{part} is missing matches")
    return out
