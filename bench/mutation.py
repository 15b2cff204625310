"""What rule mistakes the suite and the tests catch: mutation testing of the engine and the language.

    python bench/mutation.py --jobs 2                         # the default sample, seeded (about 30 min)
    python bench/mutation.py --all --jobs 2                   # every mutant of every area (hours)
    python bench/mutation.py --sample 400 --seed 1 --jobs 2   # at most 400 mutants of each area, seeded
    python bench/mutation.py --sample engine=800 --sample statements=200 --jobs 2
    python bench/mutation.py --area compiler --list           # which mutants, without running them
    python bench/mutation.py --match interpreter/tiles.py::   # only the mutants whose id holds the text
    python bench/mutation.py --verify-allowlist --jobs 2      # rerun every allow-list entry (or --match them)
    python bench/mutation.py --json out.json                  # the figures and the survivors, for a record
    python bench/allowlist.py                                 # the allow-list entries up for review

Areas: `engine` (every module under `interpreter/` that holds rules), `compiler`
(`rulelang/language/compiler.py`), `checks` (`rulelang/config/rules.py`, `validation.py`)
and `statements` (`rulelang/language/statements/`). Every change cosmic-ray's operators
make (bench/cosmic.py), and every change of the project's operators that none of
cosmic-ray's makes (bench/mutants.py `SPECIFIC`), on every node of every line
gives a mutant; `--source project` takes the project's operators alone. `bench/judge.py` judges each in a fresh process: an engine
mutant by the conformance suite, a language mutant by the compiled
configuration of every ruleset the suite and the tests use (a changed one
is judged by the cases of those rulesets), then, when no case fails, by the
language's own tests. A mutant on a
line that no judge executes (traced once on the unmutated code) survives
without being run. The allow-list `bench/mutation-equivalent.json` names the
mutants no judge can kill, each with its reason, the code the reason rests on
and that code's fingerprint; they are left out of the score:

    score = killed / (mutants judged - listed)
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import allowlist  # noqa: E402 - the bench folder is no package
from cosmic import operators as cosmic_operators  # noqa: E402
from mutants import OPERATORS, REPO, SOURCES, SPECIFIC, Mutant, defaults_of, fingerprint, mutants_of, mutated_source  # noqa: E402

JUDGE = Path(__file__).resolve().parent / "judge.py"
NOT_RULES = ("__init__", "build", "config", "errors", "players", "transcript", "deal")
AREAS = ("engine", "compiler", "checks", "statements")
TRACE_FROM = 50  # mutants to judge from which the unmutated judges are traced first
# the run without --sample, --match or --all: sized to about half an hour with --jobs 2 on the 2-core machine
# (1.4 s of wall time per mutant measured; bench/README.md, Mutation testing)
DEFAULT_SAMPLE = {"engine": 600, "compiler": 200, "checks": 120, "statements": 160}


SOURCE = "cosmic-ray"  # the mutants' source: cosmic-ray's operators and the project's specific ones (--source)


def area_files(skip: tuple[str, ...] = NOT_RULES) -> dict[str, list[Path]]:
    """The modules of each area (the engine's found by walking `interpreter/`)."""
    return {
        "engine": sorted(p for p in (REPO / "interpreter").rglob("*.py") if p.stem not in skip),
        "compiler": [REPO / "rulelang" / "language" / "compiler.py"],
        "checks": [REPO / "rulelang" / "config" / "rules.py", REPO / "rulelang" / "config" / "validation.py"],
        "statements": sorted((REPO / "rulelang" / "language" / "statements").glob("*.py")),
    }


def all_mutants(skip: tuple[str, ...] = NOT_RULES, source: str = SOURCE) -> dict[str, list[Mutant]]:
    """Every mutant of each area, of the given source (bench/mutants.py SOURCES)."""
    files = area_files(skip)
    defaults = defaults_of([p for ps in files.values() for p in ps])
    return {area: [m for p in ps for m in mutants_of(p, defaults, source)] for area, ps in files.items()}


def available_sources() -> tuple[str, ...]:
    """The sources of mutants this environment has (cosmic-ray is in the `dev` extra)."""
    return SOURCES if importlib.util.find_spec("cosmic_ray") is not None else ("project",)


def every_mutant_id(skip: tuple[str, ...] = NOT_RULES) -> set[str]:
    """The ids of every mutant of either source (an allow-list entry may name one of either)."""
    return {m.id for source in available_sources() for ms in all_mutants(skip, source).values() for m in ms}


def area_of(m: Mutant) -> str:
    return "engine" if m.rel.startswith("interpreter/") else (
        "compiler" if m.rel == "rulelang/language/compiler.py" else "statements" if "/statements/" in m.rel else "checks")


# ----------------------------------------------------------------------------- the unmutated runs, once


class Context:
    """What every judge needs, made once per run in a temporary folder: cases, suite, baseline, traces."""

    def __init__(self, folder: Path, files: dict[str, list[Path]], want: set[str], trace: bool = True,
                 probe: bool = True, probe_scope: str = "all"):
        self.folder = folder
        self.cases = folder / "cases.json"
        self.suite = folder / "suite.json"
        self.baseline = folder / "baseline.json"
        # the probe of what the protocol can see (bench/probe.py), for the engine's survivors
        self.probe: Path | None = folder / "probe.json" if probe and "engine" in want else None
        self.probe_killed = False  # the killed mutants against the probe too (--probe-killed: its recall)
        self.executed: dict[str, set[int]] | None = {} if trace else None  # None: judge every mutant
        if not want:
            return
        self._service("cases", str(self.cases))
        if "engine" in want:
            self._suite()
            if self.probe is not None:
                self._service("probe", str(self.cases), str(self.probe), probe_scope)
            if trace:
                extra = [] if self.probe is None else ["--probe", str(self.probe)]
                self._trace("trace-engine", self.suite, [*files["engine"], *extra])
        if want - {"engine"}:
            self._service("baseline", str(self.cases), str(self.baseline))
            if trace:
                self._trace("trace-language", self.cases, [p for a in AREAS[1:] for p in files[a]])

    def _service(self, *args: str) -> None:
        res = subprocess.run([sys.executable, str(JUDGE), *args], capture_output=True, text=True, cwd=REPO)
        if res.returncode != 0:
            raise SystemExit(f"mutation: the unmutated run `{args[0]}` failed:\n{res.stderr[-3000:]}")

    def _suite(self) -> None:
        sys.path.insert(0, str(REPO))
        from rulelang.conformance.cases import Case
        from rulelang.conformance.runner import request_for

        cases = json.loads(self.cases.read_text(encoding="utf-8"))
        for c in cases:
            c["request"] = request_for(Case(c["id"], "", "", REPO, c["data"], c["ruleset"]))
        self.suite.write_text(json.dumps(cases), encoding="utf-8")

    def _trace(self, kind: str, given: Path, files: list[Any]) -> None:
        out = self.folder / f"{kind}.json"
        self._service(kind, str(given), str(out), *map(str, files))
        assert self.executed is not None
        for rel, lines in json.loads(out.read_text(encoding="utf-8")).items():
            self.executed[rel] = set(lines)

    def runs(self, m: Mutant) -> bool:
        """Whether the unmutated judges execute the mutant's statement (without the traces: assumed)."""
        return self.executed is None or m.stmt_line in self.executed.get(m.rel, set())


def _cpu_limit(seconds: float):
    """A child's limit of CPU time (not wall time: a busy machine must not turn slow survivors into kills)."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(seconds), int(seconds) + 5))
    return limit


def judge(m: Mutant, ctx: Context, order: list[str], timeout: float) -> tuple[str, str | None, dict]:
    """('killed', by whom, detail) or ('survived', None, detail) for one mutant, in a fresh process.

    `timeout` is CPU seconds: a mutant that loops past it is killed (`(timeout)`), unless it had
    survived the suite already and only the probe was left (then the probe did not finish: seen).
    A survivor of the engine's has `seen` in its detail: where the probe saw it, or None.

    An engine mutant meets the cases that killed most so far first (`order`), which finds a kill sooner;
    one that survives them is judged again in a fresh process in the suite's own order, with the probe:
    the cases share the engine's module state, and a mutant's mistake can be hidden by what an earlier case
    left there (a table a larger set extends, say), so the order alone must not make a survivor.
    """
    if not ctx.runs(m):
        return "survived", None, {"stage": "not executed"}
    if area_of(m) == "engine" and order:
        first = _judge_once(m, ctx, order, timeout, ctx.probe_killed)
        if first[0] == "killed":
            return first
    return _judge_once(m, ctx, [], timeout, True)


def _judge_once(m: Mutant, ctx: Context, order: list[str], timeout: float,
                probe: bool) -> tuple[str, str | None, dict]:
    """One judge process for `m`: an engine mutant's cases in `order` first, then the rest by id; `probe`: a
    survivor (or, with `--probe-killed`, any engine mutant) is run against the probe too."""
    probe_path = ctx.probe if probe else None
    text = mutated_source(m, ctx_defaults())
    try:
        compile(text, str(m.path), "exec")
    except SyntaxError:  # a change the operator should not have made: no judge can say anything of it
        return "incompetent", None, {"stage": "does not compile"}
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "mutant.py"
        src.write_text(text, encoding="utf-8")
        if area_of(m) == "engine":
            order_file = Path(tmp) / "order.json"
            order_file.write_text(json.dumps(order), encoding="utf-8")
            args = ["engine", str(m.path), str(src), str(ctx.suite), str(order_file),
                    *([str(probe_path)] if probe_path is not None else []),
                    *(["killed-too"] if probe_path is not None and ctx.probe_killed else [])]
        else:
            args = ["language", str(m.path), str(src), str(ctx.cases), str(ctx.baseline)]
        try:
            res = subprocess.run([sys.executable, str(JUDGE), *args], capture_output=True, text=True,
                                 timeout=timeout * 50, cwd=REPO, preexec_fn=_cpu_limit(timeout))
        except subprocess.TimeoutExpired as exc:
            return _stopped(exc.stdout)
        if res.returncode < 0:  # SIGXCPU / SIGKILL: past its CPU time
            return _stopped(res.stdout)
    last = (res.stdout.strip().splitlines() or ["{}"])[-1]
    try:
        detail = json.loads(last)
    except ValueError:
        return "killed", "(crash)", {"stage": "crash"}
    by = detail.get("by")
    if res.returncode != 0:
        return "killed", by or "(crash)", detail
    return ("survived", None, detail) if by is None else ("killed", by, detail)


def _stopped(out: str | bytes | None) -> tuple[str, str | None, dict]:
    """The verdict of a judge stopped past its time: killed, unless the suite's verdict (a survivor) was out."""
    text = out.decode(errors="replace") if isinstance(out, bytes) else (out or "")
    for line in text.strip().splitlines():
        try:
            first = json.loads(line)
        except ValueError:
            continue
        if isinstance(first, dict) and first.get("by") is None and "seen" in first:
            return "survived", None, first
    return "killed", "(timeout)", {"stage": "timeout"}


_DEFAULTS: dict = {}


def ctx_defaults() -> dict:
    """The keyword defaults the kwarg operator was found with (computed once)."""
    if not _DEFAULTS:
        files = area_files()
        _DEFAULTS.update(defaults_of([p for ps in files.values() for p in ps]))
    return _DEFAULTS


# ----------------------------------------------------------------------------- the run


def _samples(specs: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for spec in specs:
        area, _, n = spec.rpartition("=")
        if area and area not in AREAS or not n.isdigit():
            raise SystemExit(f"mutation: --sample takes N or AREA=N (areas: {', '.join(AREAS)}), not {spec!r}")
        for a in ([area] if area else AREAS):
            out[a] = int(n)
    return out


def select(by_area: dict[str, list[Mutant]], args: argparse.Namespace) -> dict[str, list[Mutant]]:
    """The mutants to judge: by area and text, then the seeded sample of each area, then the limit."""
    samples = _samples(args.sample)
    out: dict[str, list[Mutant]] = {}
    for area, ms in by_area.items():
        if args.area and area not in args.area:
            continue
        if args.match:
            ms = [m for m in ms if any(t in m.id for t in args.match)]
        if area in samples and samples[area] < len(ms):
            # in the sample's own random order: a run stopped early has judged a smaller random sample
            ms = random.Random(f"{args.seed}:{area}").sample(ms, samples[area])
        if args.limit is not None:
            ms = ms[: args.limit]
        out[area] = ms
    return out


def _resumed(progress: Path | None) -> dict[str, tuple[str, str | None, dict]]:
    """The verdicts an earlier run of the same selection wrote to its progress file (to resume it)."""
    out: dict[str, tuple[str, str | None, dict]] = {}
    if progress is None or not progress.exists():
        return out
    for line in progress.read_text(encoding="utf-8").splitlines():
        try:
            v = json.loads(line)
        except ValueError:
            continue  # a line cut short when the run was stopped
        if v["verdict"] != "equivalent":  # listed then: the allow-list of this run decides
            out[v["id"]] = (v["verdict"], v["by"], {k: v[k] for k in ("stage", "changed", "seen") if k in v})
    return out


def interleaved(chosen: dict[str, list[Mutant]]) -> list[Mutant]:
    """Every area's mutants in turn, so that a run stopped early has judged a part of each area."""
    lists = [list(ms) for ms in chosen.values()]
    total = sum(map(len, lists))
    out: list[Mutant] = []
    pos = [0.0] * len(lists)
    while len(out) < total:  # the area furthest behind its share goes next
        i = min((k for k in range(len(lists)) if pos[k] < len(lists[k])),
                key=lambda k: pos[k] / len(lists[k]))
        out.append(lists[i][int(pos[i])])
        pos[i] += 1
    return out


def run_all(chosen: list[Mutant], ctx: Context, jobs: int, timeout: float, skip: set[str],
            quiet: bool = False, progress: Path | None = None) -> dict[str, tuple[str, str | None, dict]]:
    """Judge every chosen mutant (those in `skip` count as listed), `jobs` at a time."""
    kills: dict[str, int] = {}
    outcome: dict[str, tuple[str, str | None, dict]] = {}
    lock = threading.Lock()
    done = _resumed(progress)

    def one(m: Mutant) -> None:
        if m.id in done and m.id not in skip:
            with lock:
                outcome[m.id] = done[m.id]
            return
        if m.id in skip:
            verdict: tuple[str, str | None, dict] = ("equivalent", None, {})
        else:
            with lock:
                order = sorted(kills, key=lambda c: -kills[c])
            verdict = judge(m, ctx, order, timeout)
        with lock:
            outcome[m.id] = verdict
            if verdict[1] and not verdict[1].startswith("(") and "::" not in verdict[1]:
                kills[verdict[1]] = kills.get(verdict[1], 0) + 1
            n = len(outcome)
            if progress is not None:
                with progress.open("a", encoding="utf-8") as f:
                    f.write(json.dumps({"id": m.id, "area": area_of(m), "verdict": verdict[0], "by": verdict[1],
                                        **verdict[2]}) + "\n")
        if not quiet and verdict[0] != "equivalent":
            print(f"[{n}/{len(chosen)}] {verdict[0]:<9} {m.rel}:{m.line} {m.label}  {m.source_line[:60]}"
                  f"  {verdict[1] or verdict[2].get('stage', '')}{'  SEEN' if seen(verdict) else ''}", flush=True)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(one, chosen))
    return outcome


def seen(verdict: tuple[str, str | None, dict]) -> str | None:
    """Where the probe saw a survivor (None: not seen, or not probed)."""
    return verdict[2].get("seen") if verdict[0] == "survived" else None


def probe_recall(flat: list[Mutant], outcome: dict[str, tuple[str, str | None, dict]]) -> tuple[int, int] | None:
    """(killed engine mutants the probe sees, killed engine mutants probed), or None when none was probed."""
    probed = [outcome[m.id] for m in flat if outcome[m.id][0] == "killed" and "seen" in outcome[m.id][2]
              and not (outcome[m.id][1] or "").startswith("(")]
    if not probed:
        return None
    return sum(1 for v in probed if v[2]["seen"]), len(probed)


def summary(by_area: dict[str, list[Mutant]], chosen: dict[str, list[Mutant]],
            outcome: dict[str, tuple[str, str | None, dict]], kinds: dict[str, str] | None = None) -> dict[str, dict]:
    """Per area: mutants, judged, killed, survived, equivalent (listed), score; the raw score over every mutant
    that compiles (`raw`: listed ones count as not killed), what was left out and why (`left_out`: the listed
    ones by the kind of their reason, `kinds`, and those that do not compile), the survivors no judge executes;
    for the engine with the probe, the survivors the probe saw and the score over the mutants the protocol can
    see (killed and seen)."""
    rows: dict[str, dict] = {}
    for area, ms in chosen.items():
        verdicts = [outcome[m.id][0] for m in ms]
        killed, equiv = verdicts.count("killed"), verdicts.count("equivalent")
        incompetent = verdicts.count("incompetent")
        judged = len(ms) - equiv - incompetent
        left_out = {k: sum(1 for m in ms if outcome[m.id][0] == "equivalent" and (kinds or {}).get(m.id) == k)
                    for k in allowlist.KINDS}
        rows[area] = {"mutants": len(by_area[area]), "judged": len(ms), "killed": killed,
                      "survived": verdicts.count("survived"), "equivalent": equiv,
                      "score": killed / judged if judged else 1.0,
                      "raw": killed / (len(ms) - incompetent) if len(ms) > incompetent else 1.0,
                      "left_out": {**left_out, "incompetent": incompetent},
                      "not_executed": sum(1 for m in ms if outcome[m.id][0] == "survived"
                                          and outcome[m.id][2].get("stage") == "not executed")}
        probed = [m for m in ms if outcome[m.id][0] == "survived" and "seen" in outcome[m.id][2]]
        if probed or (area == "engine" and any("seen" in outcome[m.id][2] for m in ms)):
            n_seen = sum(1 for m in probed if seen(outcome[m.id]))
            rows[area].update(seen=n_seen, visible_score=killed / (killed + n_seen) if killed + n_seen else 1.0)
    return rows


def verify_allowlist(by_area: dict[str, list[Mutant]], args: argparse.Namespace) -> int:
    """Rerun every entry (with --match, those whose id holds one of the texts): it must name a mutant, match
    its fingerprint, and survive (or not be executed)."""
    every_entry = allowlist.load(args.equivalent)
    entries = [e for e in every_entry if not args.match or any(t in e["id"] for t in args.match)]
    # an entry may name a mutant of either source: the other's mutants are looked up too
    others = [all_mutants(tuple(s for s in args.skip.split(",") if s), x) for x in available_sources()
              if x != args.source]
    index = {m.id: m for area in (*others, by_area) for ms in area.values() for m in ms}
    problems = allowlist.check(entries, set(index))
    listed = [index[e["id"]] for e in entries if e["id"] in index]
    with tempfile.TemporaryDirectory() as tmp:
        ctx = Context(Path(tmp), area_files(), {area_of(m) for m in listed}, probe=not args.no_probe,
                      probe_scope=args.probe_scope)
        outcome = run_all(listed, ctx, args.jobs, args.timeout, set(), quiet=True)
    for e in entries:
        if e["id"] not in outcome:
            continue
        verdict, by, detail = outcome[e["id"]]
        unreachable = e["reason"].startswith("unreachable")
        if verdict == "killed":
            problems.append(f"{e['id']}: listed as {e['reason'].split(':')[0]} but killed by {by}")
        elif unreachable and detail.get("stage") != "not executed":
            problems.append(f"{e['id']}: listed as unreachable but the unmutated suite or probe executes its line")
        elif detail.get("seen"):
            problems.append(f"{e['id']}: listed as {e['reason'].split(':')[0]} but the probe sees it: "
                            f"{detail['seen']}")
    if args.update_fingerprints:
        # the reruns passed for these: take their code's new fingerprint (the reasons are still to be read)
        def about(e: dict) -> list[str]:  # ids hold ": " (annotations): match each problem by its entry's id
            return [p for p in problems if p.startswith(e["id"] + ": ")]
        wrong = {e["id"] for e in entries if any("changed (fingerprint" not in p for p in about(e))}
        renewed = [e for e in entries if e["id"] in outcome and e["id"] not in wrong and e.get("code")
                   and e.get("fingerprint") != _fingerprint_or_none(e["code"])]
        for e in renewed:
            e["fingerprint"] = _fingerprint_or_none(e["code"])
            print(f"renewed: {e['id']} (read its reason again)")
        problems = [p for p in problems if not any(p.startswith(e["id"] + ": ") for e in renewed)]
        doc = json.loads(args.equivalent.read_text(encoding="utf-8"))
        doc["equivalent"] = every_entry  # the renewed entries are changed in place
        args.equivalent.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    for p in problems:
        print(p)
    print(f"allow-list: {len(entries)} entries, {len(listed)} rerun, {len(problems)} wrong")
    return 1 if problems else 0


def serve(by_area: dict[str, list[Mutant]], mutant_id: str) -> int:
    """The mutated built-in engine as a protocol engine (judge.py serve), until its input ends."""
    m = next((m for ms in by_area.values() for m in ms if m.id == mutant_id), None)
    if m is None or area_of(m) != "engine":
        print(f"mutation: --serve takes the id of an engine mutant (see --list), not {mutant_id!r}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "mutant.py"
        src.write_text(mutated_source(m, ctx_defaults()), encoding="utf-8")
        return subprocess.run([sys.executable, str(JUDGE), "serve", str(m.path), str(src)], cwd=REPO).returncode


def _fingerprint_or_none(code: list[str]) -> str | None:
    try:
        return fingerprint(code)
    except KeyError:
        return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", action="append", default=[], metavar="N|AREA=N",
                    help="judge a seeded random sample of at most N mutants of each area (or of one)")
    ap.add_argument("--all", action="store_true",
                    help="judge every mutant (hours); without it, --sample or --match, the default sample: "
                         + ", ".join(f"{a}={n}" for a, n in DEFAULT_SAMPLE.items()))
    ap.add_argument("--seed", type=int, default=1, help="seed of the samples (default 1)")
    ap.add_argument("--area", action="append", choices=AREAS, help="only this area (repeatable)")
    ap.add_argument("--match", action="append", default=[], metavar="TEXT",
                    help="only mutants whose id contains TEXT (repeatable: any of them)")
    ap.add_argument("--limit", type=int, help="judge only the first N mutants of each area (after sampling)")
    ap.add_argument("--jobs", type=int, default=1, help="mutants judged at once (default 1)")
    ap.add_argument("--timeout", type=float, default=40.0,
                    help="CPU seconds per mutant before it counts as killed (default 40; the suite takes about 2)")
    ap.add_argument("--progress", type=Path,
                    help="append each verdict to this file as a JSON line, as it comes; a run given the file "
                         "again resumes (the verdicts in it are kept)")
    ap.add_argument("--skip", default=",".join(NOT_RULES), help="engine module stems that are not rule code")
    ap.add_argument("--equivalent", type=Path, default=allowlist.PATH, help="the allow-list")
    ap.add_argument("--source", choices=SOURCES, default=SOURCE,
                    help="the mutants: cosmic-ray's operators and the project's specific ones (default), or the "
                         "project's operators alone (as the figures before cosmic-ray were measured)")
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--report-only", action="store_true",
                    help="with --progress: report the verdicts the file holds for the selection, judge nothing")
    ap.add_argument("--verify-allowlist", action="store_true", help="rerun every allow-list entry and stop")
    ap.add_argument("--update-fingerprints", action="store_true",
                    help="with --verify-allowlist: renew the fingerprint of each entry whose rerun passed "
                         "(then read the renewed entries' reasons again)")
    ap.add_argument("--json", type=Path, help="write the figures and the survivors here")
    ap.add_argument("--no-probe", action="store_true",
                    help="do not run the engine's survivors against the probe of what the protocol can see "
                         "(bench/probe.py; it costs about 5 s per survivor)")
    ap.add_argument("--probe-scope", choices=("all", "suite"), default="all",
                    help="the probe's rulesets: the suite's, every bundled and house ruleset and the larger sets "
                         "(all, the default), or the suite's alone (quicker)")
    ap.add_argument("--probe-killed", action="store_true",
                    help="run the killed engine mutants against the probe too, and report how many of them it "
                         "sees (the probe's recall: how far its 'not seen' can be trusted)")
    ap.add_argument("--serve", metavar="ID",
                    help="run the built-in engine with this one mutant as a protocol engine on stdin/stdout, "
                         "for `rulelang conform --engine` (to shrink a probe's game against it, say)")
    ap.add_argument("--survivors-of", type=Path, metavar="PROGRESS",
                    help="judge only the mutants an earlier run's progress file has as survivors (after new "
                         "cases, or to probe them)")
    args = ap.parse_args(argv)
    if not (args.sample or args.match or args.all or args.list or args.verify_allowlist or args.survivors_of):
        args.sample = [f"{area}={n}" for area, n in DEFAULT_SAMPLE.items()]
    compiled = sorted(p.name for p in (REPO / "interpreter").glob("*.so"))
    if compiled and not args.list:
        # a compiled module (setup.py, mypyc) is imported instead of its source: every mutant would survive
        print(f"mutation: compiled modules in interpreter/ shadow the source ({', '.join(compiled)}): delete them "
              "(or install with RULELANG_PURE_PYTHON=1) and run again", file=sys.stderr)
        return 2
    if args.source not in available_sources():
        print("mutation: cosmic-ray is not installed (pip install '.[dev]'); or run with --source project",
              file=sys.stderr)
        return 2
    try:
        entries = allowlist.load(args.equivalent)
    except allowlist.AllowListError as exc:
        print(f"mutation: {exc}", file=sys.stderr)
        return 2
    by_area = all_mutants(tuple(s for s in args.skip.split(",") if s), args.source)
    if args.serve is not None:
        return serve(by_area, args.serve)
    if args.verify_allowlist:
        return verify_allowlist(by_area, args)
    chosen = select(by_area, args)
    if args.survivors_of is not None:
        earlier = _resumed(args.survivors_of)
        if not earlier:
            print(f"mutation: no verdicts in {args.survivors_of}", file=sys.stderr)
            return 2
        chosen = {a: [m for m in ms if earlier.get(m.id, ("",))[0] == "survived"] for a, ms in chosen.items()}
    flat = interleaved(chosen)
    if args.list:
        for m in flat:
            print(f"{m.rel}:{m.line}: {m.label}  {m.source_line}")
        print(f"{len(flat)} of {sum(map(len, by_area.values()))} mutants")
        return 0
    listed = {e["id"] for e in entries}
    every_id = {m.id for ms in by_area.values() for m in ms} | every_mutant_id(tuple(s for s in args.skip.split(",")
                                                                                   if s))
    stale = sorted(i for i in listed if i not in every_id)
    t0 = time.monotonic()
    done = _resumed(args.progress)
    planned = {area: len(ms) for area, ms in chosen.items()}
    if args.report_only:
        # what the progress file holds of the selection, judging nothing (a run stopped early)
        # each area's sample is judged in its random order: its longest judged beginning is a random sample
        def reached(ms: list[Mutant]) -> list[Mutant]:
            end = next((i for i, m in enumerate(ms) if m.id not in done and m.id not in listed), len(ms))
            return ms[:end]
        chosen = {area: reached(ms) for area, ms in chosen.items()}
        keep = {m.id for ms in chosen.values() for m in ms}
        flat = [m for m in flat if m.id in keep]
    todo = {area_of(m) for m in flat if m.id not in listed and m.id not in done}
    with tempfile.TemporaryDirectory() as tmp:
        # the unmutated runs only when a mutant is left to judge (a finished run given again only reports)
        # tracing costs about as much as judging 50 mutants: a small run judges every mutant instead
        left = sum(1 for m in flat if m.id not in listed and m.id not in done)
        ctx = Context(Path(tmp), area_files(), todo, trace=left > TRACE_FROM, probe=not args.no_probe,
                      probe_scope=args.probe_scope)
        ctx.probe_killed = args.probe_killed
        outcome = run_all(flat, ctx, args.jobs, args.timeout, listed, progress=args.progress)
    rows = summary(by_area, chosen, outcome, {e["id"]: e["reason"].split(":")[0] for e in entries})
    survivors = [m for m in flat if outcome[m.id][0] == "survived"]
    print()
    for m in survivors:
        where = seen(outcome[m.id])
        probe = "" if "seen" not in outcome[m.id][2] else f"; SEEN by the probe: {where}" if where else \
            "; the probe does not see it"
        print(f"SURVIVED [{area_of(m)}] {m.rel}:{m.line} [{m.function}] {m.label}: {m.source_line}"
              f"  ({outcome[m.id][2].get('stage', '')}{probe})")
    # a configuration a case uses changed, every case passed, a test failed: killed, but not by a case
    for m in flat:
        if outcome[m.id][0] == "killed" and outcome[m.id][2].get("stage") == "cases, then tests":
            print(f"NO CASE SAW [{area_of(m)}] {m.rel}:{m.line} [{m.function}] {m.label}: {m.source_line}"
                  f"  (killed by {outcome[m.id][1]})")
    samples = _samples(args.sample)
    print(f"\n{'area':<11} {'mutants':>7} {'judged':>6} {'killed':>6} {'survived':>8} {'seen':>5} {'listed':>6}"
          f"  score  {'of seen':>7}")
    for area, r in rows.items():
        note = f"  (sample of {samples[area]}, seed {args.seed})" if area in samples else ""
        if r["judged"] < planned[area]:
            note += f"  (only {r['judged']} of the {planned[area]} planned judged: the run was stopped)"
        n_seen, of_seen = (f"{r['seen']}", f"{r['visible_score']:.1%}") if "seen" in r else ("-", "-")
        print(f"{area:<11} {r['mutants']:>7} {r['judged']:>6} {r['killed']:>6} {r['survived']:>8} {n_seen:>5} "
              f"{r['equivalent']:>6}  {r['score']:.1%}  {of_seen:>7}{note}")
    if any("seen" in r for r in rows.values()):
        print("seen: survivors the probe (bench/probe.py) answers otherwise; of seen: killed / (killed + seen), "
              "the score over the mutants the protocol can be shown to see")
    recall = probe_recall(flat, outcome)
    if recall is not None:
        print(f"probe recall: it sees {recall[0]} of the {recall[1]} engine mutants the suite killed "
              f"({recall[0] / recall[1]:.1%}): a survivor it does not see is presumed unobservable with that reach")
    for area, r in rows.items():
        if not r["judged"]:
            continue
        lo = r["left_out"]
        print(f"{area}: raw {r['raw']:.1%} over every mutant judged that compiles ({r['judged'] - lo['incompetent']}); "
              f"left out: {lo['equivalent']} equivalent, {lo['unobservable']} unobservable, {lo['unreachable']} "
              f"unreachable (listed), {lo['incompetent']} that do not compile; {r['not_executed']} survivors on "
              "lines no judge executes")
    ops = (f"cosmic-ray's core operators ({len(cosmic_operators())}) and the project's "
           f"{', '.join(SPECIFIC)}") if args.source == "cosmic-ray" else ", ".join(OPERATORS)
    print(f"{time.monotonic() - t0:.0f} s; mutants from {args.source}: {ops}")
    if stale:
        print(f"stale: {len(stale)} entries of {args.equivalent.name} name no mutant (their line changed or went): "
              "judge the new lines and remove the entries")
    if args.json:
        args.json.write_text(json.dumps({
            "areas": rows, "sample": samples, "planned": planned, "seed": args.seed, "stale": stale,
            "total": sum(map(len, by_area.values())), "judged": len(flat),
            "killed": sum(r["killed"] for r in rows.values()),
            "equivalent": sum(r["equivalent"] for r in rows.values()),
            "score": (lambda k, j: k / j if j else 1.0)(sum(r["killed"] for r in rows.values()),
                                                       sum(r["judged"] - r["equivalent"] - r["left_out"]["incompetent"]
                                                           for r in rows.values())),
            "verdicts": [{"id": m.id, "area": area_of(m), "verdict": outcome[m.id][0], "by": outcome[m.id][1],
                          "stage": outcome[m.id][2].get("stage"), "changed": outcome[m.id][2].get("changed", []),
                          "seen": outcome[m.id][2].get("seen")}
                         for m in flat],
            "survivors": [{"id": m.id, "area": area_of(m), "where": f"{m.rel}:{m.line}",
                           "stage": outcome[m.id][2].get("stage"), "changed": outcome[m.id][2].get("changed", []),
                           "seen": seen(outcome[m.id])}
                          for m in survivors],
        }, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
