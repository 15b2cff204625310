"""A skill ladder as independent matches: which rungs, how each link's matches are seated and seeded, and
when the ladder stops.

The rungs go from `random` and `greedy` up through a search player at doubling
strength. Each *link* plays a rung against the one below it: match `i` is
deal `i // sides` (the same deals in every link), and the upper rung takes
side `i % sides` (every side of a deal in turn, seats swapped; with
partnerships, both seats of that team), the lower rung the others. A match
depends only on the study's seed, the link and `i`, so the results are the
same serially, with `--jobs`, on Dask and after `--resume`; with `--vs` both
rulesets play the same deals and players. Links are played bottom up; the
ladder stops after the first link whose upper rung no longer beats the one
below (half the matches or fewer, head to head) in every ruleset, or at the
top rung.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import nullcontext

from rulelang.tools import study
from rulelang.tools.configs import ToolError
from rulelang.tools.documents import LadderMatch, Study
from rulelang.tools.ratings import head_to_head

# the weakest search rung a ladder starts from: 10 times the playouts a decision of the rungs before
# (pimc:4, ismcts:25), so the first search rung beats greedy on every bundled source variant (bench/README.md)
FLOOR = {"pimc": 40, "ismcts": 250}
# the top rung: two search rungs (pimc:40, pimc:80) keep `balance allfives --ladder --jobs 2` near a minute
# on two cores with the compiled engine; each further doubling would cost as much as all the links below it
DEFAULT_TOP = "pimc:80"
SEARCH_CHUNK = 4  # matches per task when a search player plays (seconds each)
QUICK_CHUNK = 40  # matches per task of random against greedy (milliseconds each)

Row = LadderMatch
Rows = dict[tuple[str, str, int], Row]


def default_rungs(top: str) -> list[str]:
    """random, greedy, then `top`'s search family at halving strengths down to its floor (`pimc:320`: 40, 80, 160, 320)."""
    name, _, arg = top.strip().partition(":")
    if name not in FLOOR or not arg.isdigit() or int(arg) < 1:
        raise ToolError(f"--top {top!r}: give a search player with a count, e.g. pimc:80 or ismcts:500")
    strengths: list[int] = []
    n = int(arg)
    while n >= FLOOR[name] or not strengths:
        strengths.append(n)
        n //= 2
    return ["random", "greedy"] + [f"{name}:{s}" for s in reversed(strengths)]


def parse_rungs(text: str) -> list[str]:
    """A comma-separated ladder, weakest first; each name checked by the player registry."""
    rungs = [r.strip() for r in text.split(",") if r.strip()]
    if len(rungs) < 2:
        raise ToolError("--rungs: give at least two players, weakest first (e.g. random,greedy,pimc:40)")
    if len(set(rungs)) != len(rungs):
        raise ToolError("--rungs: a player appears twice")
    return rungs


def link_name(lower: str, upper: str) -> str:
    return f"{upper} vs {lower}"


def links(rungs: Sequence[str]) -> list[tuple[str, str]]:
    """(lower, upper) for each pair of neighbouring rungs, bottom up."""
    return [(rungs[i], rungs[i + 1]) for i in range(len(rungs) - 1)]


def seat_specs(sides_of: Sequence[int], index: int, lower: str, upper: str) -> tuple[list[str], int]:
    """The player of each seat in match `index` of a link, and the side the upper rung holds."""
    focus = index % (max(sides_of) + 1)
    return [upper if side == focus else lower for side in sides_of], focus


def deal_of(index: int, sides: int) -> int:
    return index // sides


def play_one(params: Study, key: str, part: str, index: int) -> Row:
    """Match `index` of link `part` for ruleset `key`: who won, from which side the upper rung played."""
    from rulelang.players.arena import play_match
    from rulelang.tools.playernames import make_player

    cfg = study.config_of(params["variants"][key])
    sides_of = list(cfg.sides_of(params["players"]))
    upper, _, lower = part.partition(" vs ")
    specs, focus = seat_specs(sides_of, index, lower, upper)
    seed = params["seed"]
    seats = [make_player(spec, cfg, study.derive("player", seed, "ladder", part, index, s)) for s, spec in enumerate(specs)]
    rec = play_match(cfg, params["players"], study.derive("match", seed, "ladder", deal_of(index, max(sides_of) + 1)), seats)
    return {"key": key, "part": part, "index": index, "focus": focus, "winner": rec["winner"],
            "finished": rec["finished"], "rounds": rec["rounds"], "scores": rec["scores"]}


def play_chunk(params: Study, key: str, part: str, indices: list[int]) -> list[Row]:
    """A chunk of one link's matches (the unit of work a worker gets)."""
    return [play_one(params, key, part, i) for i in indices]


def plan_link(params: Study, lower: str, upper: str, done: Iterable[tuple[str, str, int]]) -> list[study.Task]:
    """The chunks of a link still to play in every ruleset."""
    have = set(done)
    part = link_name(lower, upper)
    size = QUICK_CHUNK if {lower, upper} <= {"random", "greedy"} else SEARCH_CHUNK
    tasks: list[study.Task] = []
    for key in sorted(params["variants"]):
        todo = [i for i in range(params["link_matches"]) if (key, part, i) not in have]
        tasks += [(params, key, part, todo[a:a + size]) for a in range(0, len(todo), size)]
    return tasks


def upper_score(row: Row, sides: int) -> float:
    """The upper rung's result: 1 won, 0 lost, `1 / sides` drawn or unfinished."""
    if row["winner"] is None:
        return 1 / sides
    return 1.0 if row["winner"] == row["focus"] else 0.0


def link_rows(rows: Rows, key: str, part: str, matches: int) -> list[Row]:
    return [rows[(key, part, i)] for i in range(matches) if (key, part, i) in rows]


def keeps_climbing(params: Study, rows: Rows, part: str, sides: int) -> bool:
    """Whether the upper rung beat the lower (more than half head to head) in some ruleset."""
    for key in params["variants"]:
        got = link_rows(rows, key, part, params["link_matches"])
        share = sum(upper_score(r, sides) for r in got) / len(got)
        if head_to_head(share, sides) > 0.5:
            return True
    return False


def climb(params: Study, sides: int, kept: Iterable[Row] = (), jobs: int = 1, dask: object = None,
          on_rows: Callable[[list[Row]], None] | None = None,
          on_link: Callable[[str, int], None] | None = None) -> Rows:
    """Play the ladder bottom up (reusing `kept` matches); every match played, by (ruleset, link, index)."""
    rows: Rows = {(r["key"], r["part"], r["index"]): r for r in kept}

    def got(chunk: list[Row]) -> None:
        for r in chunk:
            rows[(r["key"], r["part"], r["index"])] = r
        if on_rows:
            on_rows(chunk)

    backend = study.dask_client(dask, jobs) if dask is not None else nullcontext()
    with backend as where:
        for lower, upper in links(params["rungs"]):
            tasks = plan_link(params, lower, upper, rows)
            if on_link:
                on_link(link_name(lower, upper), sum(len(t[3]) for t in tasks))
            study.run_chunks(tasks, play_chunk, jobs, where, got)
            if not keeps_climbing(params, rows, link_name(lower, upper), sides):
                break
    return rows


def played_links(params: Study, rows: Rows) -> list[tuple[str, str]]:
    """The links every ruleset played in full, bottom up (the ladder's stop or cap ends them)."""
    out = []
    for lower, upper in links(params["rungs"]):
        part = link_name(lower, upper)
        if not all(len(link_rows(rows, k, part, params["link_matches"])) == params["link_matches"] for k in params["variants"]):
            break
        out.append((lower, upper))
    return out
