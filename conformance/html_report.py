"""The HTML report of a run (`rulelang conform --html FILE`): one self-contained page a team can publish.

Pass rates by variant and by feature tag, then every failure of the run with its
case id, the clauses of the rules the case tests (when it names them) and the
first difference the runner found, then the expected failures and the skipped
cases. The page is the template `templates/report.html` (string.Template); the
rows are filled in here, every text escaped. No script, no network: it reads the
same from a CI artifact, a file share or a static site.
"""
from __future__ import annotations

import importlib
from collections import defaultdict
from collections.abc import Callable, Iterable
from functools import cache
from html import escape
from pathlib import Path
from string import Template
from typing import Any

from rulelang._version import __version__
from rulelang.base.outfiles import write_atomic

from .cases import features
from .report import failure_text, passed_of, skip_reasons
from .runner import FAILING, OUTCOMES, CaseResult, RunResult

__all__ = ["html_report", "write_html", "group_counts"]

TEMPLATE = Path(__file__).resolve().parent / "templates" / "report.html"
LOW, MID = 0.9, 1.0  # a rate below LOW is shown red, below MID amber (the badge's colours)


@cache
def _template() -> Template:
    return Template(TEMPLATE.read_text(encoding="utf-8"))


def group_counts(results: Iterable[CaseResult],
                 keys: Callable[[CaseResult], Iterable[str]]) -> dict[str, dict[str, int]]:
    """Outcome counts per group; `keys(result)` names the groups a result belongs to (a variant, its tags)."""
    groups: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(OUTCOMES, 0))
    for r in results:
        for key in keys(r):
            groups[key][r.outcome] += 1
    return dict(sorted(groups.items()))


def _rate_cell(counts: dict[str, int]) -> str:
    passed, judged = passed_of(counts)
    if not judged:
        return '<td class="rate">-</td>'
    rate = passed / judged
    level = "low" if rate < LOW else "mid" if rate < MID else "all"
    return (f'<td class="rate {level}"><span class="bar" style="width:{100 * rate:.1f}%"></span>'
            f"{passed}/{judged} ({_percent(rate)})</td>")


def _percent(rate: float) -> str:
    """A rate as a percentage, never rounded up to 100% when a case failed."""
    shown = f"{100 * rate:.1f}%"
    return "99.9%" if shown == "100.0%" and rate < 1 else shown


def _table(first: str, groups: dict[str, dict[str, int]], meaning: dict[str, str] | None = None,
           total: dict[str, int] | None = None) -> str:
    head = [f"<th>{escape(first)}</th>", *(['<th class="meaning">meaning</th>'] if meaning is not None else []),
            *(f"<th>{o}</th>" for o in OUTCOMES), "<th>pass rate</th>"]
    rows = ["<table>", f"<thead><tr>{''.join(head)}</tr></thead>", "<tbody>"]
    for name, counts in groups.items():
        cells = [f"<td>{escape(name)}</td>"]
        if meaning is not None:
            cells.append(f'<td class="meaning">{escape(meaning.get(name, ""))}</td>')
        cells += [f"<td>{counts[o]}</td>" for o in OUTCOMES]
        rows.append(f"<tr>{''.join(cells)}{_rate_cell(counts)}</tr>")
    if total is not None:
        pad = "<td></td>" if meaning is not None else ""
        sums = "".join(f"<td>{total[o]}</td>" for o in OUTCOMES)
        rows.append(f'<tr class="total"><td>total</td>{pad}{sums}{_rate_cell(total)}</tr>')
    rows += ["</tbody>", "</table>"]
    return "\n".join(rows)


def _outcomes(total: dict[str, int]) -> str:
    """The run's outcome counts, one cell each, as the terminal's total row."""
    head = "".join(f"<th>{o}</th>" for o in OUTCOMES)
    cells = "".join(f"<td>{total[o]}</td>" for o in OUTCOMES)
    return (f"<table>\n<thead><tr>{head}<th>pass rate</th></tr></thead>\n"
            f"<tbody><tr>{cells}{_rate_cell(total)}</tr></tbody>\n</table>")


def _clause_ids(r: CaseResult) -> list[str]:
    """The clauses the case names (its file's and its own, where the suite has them); none when it names none."""
    ids: Any = getattr(r.case, "clauses", None)
    if ids is None:
        ids = r.case.data.get("clauses", [])
    return [str(i) for i in ids] if isinstance(ids, (list, tuple)) else []


def _clause_items(ids: list[str]) -> str:
    """Each clause as an item: its id and, where the clause catalogue knows it, where it is and its words."""
    catalogue: Any = None
    known: dict[str, Any] = {}
    try:  # the catalogue of the texts' clauses (conformance/clauses.py), where the suite has one
        catalogue = importlib.import_module(".clauses", __package__)
        known = catalogue.by_id()
    except ImportError:
        pass
    items = []
    for cid in ids:
        clause = known.get(cid)
        if clause is None or catalogue is None:
            items.append(f"<li><code>{escape(cid)}</code></li>")
        else:
            items.append(f"<li><code>{escape(cid)}</code> <span class=\"where\">{escape(catalogue.where(clause))}"
                         f"</span>: <q>{escape(catalogue.excerpt(clause))}</q></li>")
    return f'<p>Clauses it tests:</p><ul class="clauses">{"".join(items)}</ul>'


def _failure(r: CaseResult) -> str:
    c = r.case
    parts = [f'<li class="failure" id="case-{escape(c.id, quote=True)}">',
             f'<h3><code>{escape(c.id)}</code> <span class="outcome {r.outcome}">{r.outcome}</span> '
             f'<span class="where">{escape(c.variant)}/{escape(c.topic)}</span></h3>',
             f'<p class="description">{escape(c.description)}</p>']
    ids = _clause_ids(r)
    if ids:
        parts.append(_clause_items(ids))
    if r.outcome == "xpass":
        parts.append(f'<p class="difference">Passed, but listed as an expected failure '
                     f'({escape(str(r.xfail_reason))}): remove it from the list.</p>')
    else:
        label = "First difference" if r.difference is not None else "Error"
        parts.append(f'<p>{label}:</p><pre class="difference">{escape(failure_text(r))}</pre>')
    parts.append("</li>")
    return "\n".join(parts)


def _list(items: list[str], empty: str) -> str:
    return f"<ul>\n{''.join(items)}\n</ul>" if items else f"<p>{escape(empty)}</p>"


def html_report(run: RunResult, title: str | None = None) -> str:
    """The whole page of a run."""
    impl = run.engine.get("implementation") or {}
    engine = " ".join(str(impl.get(k, "")) for k in ("name", "version") if impl.get(k)) or "unknown engine"
    total = run.counts()
    passed, judged = passed_of(total)
    failing = [r for r in run.results if r.outcome in FAILING]
    expected = [f"<li><code>{escape(r.case.id)}</code>: {escape(str(r.xfail_reason))}</li>"
                for r in run.results if r.outcome == "xfail"]
    skipped = [f"<li>{n}: {escape(reason)}</li>" for reason, n in skip_reasons(run)]
    stale = "".join(f'<li class="failure"><code>{escape(cid)}</code>: listed as an expected failure, but no '
                    "such case is in the suite</li>" for cid in run.stale_expected_failures)
    start_error = (run.engine.get("start_error") or {}).get("message")
    headline = (f"{passed} of {judged} judged cases passed ({_percent(passed / judged)})" if judged
                else "no case was judged")
    if start_error:
        headline += f"; the engine did not start: {start_error}"
    return _template().substitute(
        title=escape(title or f"Conformance of {engine}"),
        generator=escape(f"rulelang {__version__}", quote=True),
        status="OK" if run.ok else "FAILED", status_class="ok" if run.ok else "failed",
        headline=escape(headline),
        engine=escape(engine + (f" ({impl['language']})" if impl.get("language") else "")),
        rate_rule=("A pass rate counts the cases judged: skipped cases (features the engine does not claim) are "
                   "left out, expected failures count as not passed."),
        outcome_table=_outcomes(total),
        variant_table=_table("variant", group_counts(run.results, lambda r: [r.case.variant]), total=total),
        feature_table=_table("feature", group_counts(run.results, lambda r: r.case.tags), meaning=features()),
        failure_count=len(failing) + len(run.stale_expected_failures),
        failures=(f'<ol class="failures">\n{"".join(_failure(r) for r in failing)}{stale}\n</ol>'
                  if failing or stale else "<p>None: every judged case gave the expected answers.</p>"),
        xfail_count=len(expected), expected=_list(expected, "None."),
        skip_count=total["skip"], skipped=_list(skipped, "None."))


def write_html(run: RunResult, path: str | Path) -> None:
    """Write the report atomically (an existing file is replaced whole or left as it was)."""
    write_atomic(str(path), html_report(run))
