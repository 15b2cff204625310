"""The SVG plots of `rulelang simulate --plots DIR`."""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from rulelang.base.outfiles import write_atomic
from rulelang.tools.documents import SimMatch
from rulelang.tools.plots import histogram, line_chart
from rulelang.tools.simulation import Summary


def write_plots(directory: str, runs: Sequence[tuple[Summary, Sequence[SimMatch]]]) -> list[str]:
    """Write plots for each (Summary, results); return the file paths."""
    os.makedirs(directory, exist_ok=True)
    written = []

    def put(name: str, text: str) -> None:
        path = os.path.join(directory, name)
        write_atomic(path, text, newline=None)
        written.append(path)

    for summary, results in runs:
        v = summary.variant
        unit = summary.unit
        sample = next((r for r in results if "race" in r), None)
        if sample is not None:
            race = sample["race"]
            label: Callable[[int], str] = (lambda s: f"team {s}") if summary.partnerships else (lambda s: f"seat {s}")
            series = [(label(s), [row[s] / unit for row in race]) for s in range(summary.sides)]
            target = summary.target / unit if summary.target else None
            put(f"{v}-score-race.svg", line_chart(
                series, f"{v}: score race of match {sample['index']}",
                "accepted scoring event", "score (shown)" if unit != 1 else "score", hline=target))
        put(f"{v}-rounds-per-match.svg",
            histogram(summary.rounds_per_match, f"{v}: rounds per match", "rounds per match"))
        put(f"{v}-turns-per-round.svg",
            histogram(summary.turns_per_round, f"{v}: turns per round", "turns per round"))
        put(f"{v}-points-per-round.svg",
            histogram(summary.placement_per_round, f"{v}: play points per round (raw)", "raw points"))
    return written
