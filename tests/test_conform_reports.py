"""`rulelang conform --html FILE` (a report a team can publish) and `--badge FILE` (an SVG badge)."""
from __future__ import annotations

import json
import shlex
import sys
import xml.etree.ElementTree as ET
from html import escape
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.conformance import badge
from rulelang.conformance.cases import Case
from rulelang.conformance.compare import Difference
from rulelang.conformance.html_report import html_report
from rulelang.conformance.report import failure_text
from rulelang.conformance.runner import CaseResult, RunResult

TOY = Path(__file__).parents[1] / "conformance" / "examples" / "toy_engine.py"
SVG = "{http://www.w3.org/2000/svg}"
BROKEN = " ".join(shlex.quote(x) for x in [sys.executable, str(TOY), "--break", "internal-double-counts"])


def conform(*args: str):
    return CliRunner().invoke(main, ["conform", *args], env={"RULELANG_NO_PROGRESS": "1"}, catch_exceptions=False)


def _badge(path: Path) -> tuple[str, str, str]:
    """(label, message, colour of the message) of a badge file, read as XML."""
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    texts = {t.get("class"): t.text for t in root.iter(f"{SVG}text")}
    (message_bg,) = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "message"]
    assert root.find(f"{SVG}title").text == f"{texts['label']}: {texts['message']}"
    return texts["label"], texts["message"], message_bg.get("fill")


@pytest.fixture(scope="module")
def broken_run(tmp_path_factory):
    """The pagat cases run on the toy engine with a deliberate bug (an internal double still counts)."""
    out = tmp_path_factory.mktemp("reports")
    res = conform("--engine", BROKEN, "--variant", "pagat", "--report", str(out / "r.json"),
                  "--html", str(out / "r.html"), "--badge", str(out / "b.svg"))
    assert res.exit_code == 1, res.output
    return json.loads((out / "r.json").read_text()), (out / "r.html").read_text(encoding="utf-8"), out / "b.svg"


def test_the_html_lists_every_failure_with_its_first_difference(broken_run):
    report, page, _ = broken_run
    failed = [c for c in report["cases"] if c["outcome"] == "fail"]
    assert failed, "the broken engine fails no case"
    assert f"Failures ({len(failed)})" in page and "FAILED" in page
    for c in failed:
        assert f'id="case-{c["id"]}"' in page
        d = c["difference"]
        assert escape(f"step {d['step']} ({d['move']}): {d['path']}") in page  # the runner's first difference
        assert escape(f"expected {json.dumps(d['expected'], ensure_ascii=False)}")[:80] in page
    passed = [c for c in report["cases"] if c["outcome"] == "pass"]
    assert not any(f'id="case-{c["id"]}"' in page for c in passed)


def test_the_html_gives_pass_rates_by_variant_and_feature(broken_run):
    report, page, _ = broken_run
    n, passed = len(report["cases"]), report["summary"]["pass"]
    assert f"<td>pagat</td><td>{passed}</td><td>{n - passed}</td>" in page
    assert f"{passed}/{n} ({100 * passed / n:.1f}%)" in page
    assert "<td>internal-double</td>" in page  # the feature the bug breaks
    # self-contained: no script, nothing fetched from elsewhere
    assert not any(needle in page for needle in ("<script", "src=", "<link", "@import", "url(http"))


def test_the_badge_shows_the_count_in_red(broken_run):
    report, _, path = broken_run
    label, message, colour = _badge(path)
    assert (label, message) == ("conformance", f"{report['summary']['pass']}/{len(report['cases'])}")
    assert colour == badge.RED


def test_a_passing_run_has_a_green_badge_and_no_failure(tmp_path):
    res = conform("--variant", "pagat", "--tag", "diagram", "--html", str(tmp_path / "r.html"),
                  "--badge", str(tmp_path / "b.svg"))
    assert res.exit_code == 0, res.output
    assert _badge(tmp_path / "b.svg") == ("conformance", "12/12", badge.GREEN)
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "Failures (0)" in page and "every judged case gave the expected answers" in page


def test_an_engine_that_does_not_start_gets_a_red_badge(tmp_path):
    res = conform("--engine", str(tmp_path / "nope"), "--variant", "pagat", "--tag", "diagram",
                  "--html", str(tmp_path / "r.html"), "--badge", str(tmp_path / "b.svg"))
    assert res.exit_code == 1
    assert _badge(tmp_path / "b.svg") == ("conformance", "0/12", badge.RED)
    assert "the engine did not start" in (tmp_path / "r.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("args, needle", [
    (["--html", "{tmp}/no/such/folder/r.html"], "no such folder"),
    (["--badge", "{tmp}"], "is a directory"),
    (["--badge", "{tmp}/same", "--report", "{tmp}/same"], "another output file"),
    (["--html", "{tmp}/same", "--badge", "{tmp}/same"], "also the --html file"),
])
def test_an_unwritable_or_shared_output_is_refused_before_the_run(tmp_path, args, needle):
    res = conform("--variant", "pagat", *[a.format(tmp=tmp_path) for a in args])
    assert res.exit_code == 2 and needle in res.output and "Traceback" not in res.output
    assert "conformance" not in res.stdout  # no case ran: no table


def _run_of(description: str, clauses: list[str] | None) -> RunResult:
    data = {"id": "club-case", "description": description, "tags": ["layout"], "players": 2,
            "steps": [{"play": "[1|4]"}]}
    if clauses is not None:
        data["clauses"] = clauses
    case = Case("club-case", "club<b>", "layout", Path("club.json"), data, "pagat")
    failed = CaseResult(case, "fail", difference=Difference(0, "$.steps[0].count", "<5>", "&6"))
    return RunResult(engine={"implementation": {"name": "eng<i>", "version": "1"}}, results=[failed])


def test_every_text_is_escaped():
    page = html_report(_run_of("a <script>alert(1)</script> & more", None))
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in page
    assert "eng&lt;i&gt;" in page and "club&lt;b&gt;" in page and "&lt;b&gt;" in page
    assert '&quot;&lt;5&gt;&quot;' in page and '&quot;&amp;6&quot;' in page
    assert "Clauses it tests" not in page  # the case names none


def test_a_case_naming_its_clauses_shows_them():
    run = _run_of("a case", ["seed:002:p14", "family:reading-1"])
    page = html_report(run)
    assert "Clauses it tests" in page and "<code>seed:002:p14</code>" in page and "family:reading-1" in page
    assert failure_text(run.results[0]).splitlines()[0] in page


@pytest.mark.parametrize("passed, judged, colour", [
    (290, 290, badge.GREEN), (289, 290, badge.AMBER), (261, 290, badge.AMBER), (260, 290, badge.RED),
    (0, 290, badge.RED), (0, 0, badge.GREY)])
def test_badge_colours_by_pass_rate(passed, judged, colour):
    assert badge.badge_colour(passed, judged) == colour
