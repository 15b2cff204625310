"""The balance and ladder reports for a rules author: one plain sentence per finding first, tables that a phone
can read (each in a box of its own that scrolls sideways), a header over every column, and the ladder's closing
words in a club's terms."""
from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.tools.balance_findings import findings
from rulelang.tools.ladder_text import summary, verdict

SMALL = ["--matches", "4", "--skill-matches", "2", "--strong", "pimc:2"]
LADDER = ["--ladder", "--link-matches", "6", "--rungs", "random,greedy,pimc:2"]


class _Outline(HTMLParser):
    """The elements of a page in order (tag, attributes, text inside), and the header rows of its tables."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[list] = []
        self.stack: list[list] = []

    def handle_starttag(self, tag, attrs):
        node = [tag, dict(attrs), "", [e[0] for e in self.stack]]
        self.elements.append(node)
        if tag not in ("meta", "br", "img", "link"):
            self.stack.append(node)

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        for node in self.stack:
            node[2] += data


def _outline(text: str) -> _Outline:
    page = _Outline()
    page.feed(text)
    return page


def _body_after_title(page: _Outline) -> list[list]:
    """The top-level elements of the body, after the h1 (svg insides left out)."""
    return [e for e in page.elements if e[3][-1:] == ["body"] and e[0] != "h1"]


def _one_sentence(text: str) -> bool:
    return text.endswith(".") and "\n" not in text and not re.search(r"[.!?] [A-Z]", text[:-1])


def _balance(tmp_path: Path, *args: str) -> str:
    html = tmp_path / "r.html"
    res = CliRunner().invoke(main, ["balance", *args, *SMALL, "--html", str(html)])
    assert res.exit_code == 0, res.output
    return html.read_text(encoding="utf-8")


def _check_tables(page: _Outline) -> None:
    tables = [e for e in page.elements if e[0] == "table"]
    assert tables and all(e[3][-1:] == ["div"] for e in tables)  # each in its wrapper
    wrappers = [e for e in page.elements if e[0] == "div" and e[1].get("class") == "table-wrap"]
    assert len(wrappers) == len(tables)
    first_rows = [e for e in page.elements if e[0] == "th"]
    assert first_rows
    assert any(e[0] == "meta" and e[1].get("name") == "viewport" for e in page.elements)


def test_the_balance_report_opens_with_one_sentence_per_finding(tmp_path):
    page = _outline(_balance(tmp_path, "exact61"))
    first = _body_after_title(page)[0]
    assert first[0] == "section" and first[1]["class"] == "findings"
    items = [e[2] for e in page.elements if e[0] == "li" and "section" in e[3]]
    assert len(items) >= 4 and all(_one_sentence(s) for s in items), items
    said = " ".join(items)
    assert "seat" in said and "Opening the first round" in said and "luck alone" in said and "rounds on average" in said
    _check_tables(page)


def test_the_vs_report_says_what_the_second_ruleset_changes_and_heads_every_column(tmp_path):
    text = _balance(tmp_path, "exact61", "--vs", "bounce61")
    page = _outline(text)
    items = [e[2] for e in page.elements if e[0] == "li" and "section" in e[3]]
    assert items[0].startswith("With exact61: ") and all(_one_sentence(s) for s in items), items
    assert any("bounce61 changes" in s or "No figure differs significantly" in s for s in items)
    _check_tables(page)
    head = re.search(r"<table><tr>(.*?)</tr>", text).group(1)
    cells = re.findall(r"<th>(.*?)</th>", head)
    assert cells[-1] == "significance (Holm)" and all(c.strip() for c in cells), cells


def _figure(value: float, lo: float, hi: float, kind: str = "rate") -> dict:
    return {"value": value, "ci95": [lo, hi], "kind": kind}


def _report(opener: tuple[float, float, float], seat0: tuple[float, float, float]) -> dict:
    figs = {"win rate seat 0": _figure(*seat0), "win rate seat 1": _figure(1 - seat0[0], 1 - seat0[2], 1 - seat0[1]),
            "first opener's side wins the match": _figure(*opener),
            "strong beats greedy": _figure(0.7, 0.6, 0.8), "random beats greedy": _figure(0.2, 0.1, 0.3),
            "rounds per match": _figure(5.25, 4.5, 6.0, "mean"), "blocked rounds": _figure(0.1, 0.05, 0.15, "ratio"),
            "drawn or unfinished matches": _figure(0.0, 0.0, 0.05)}
    return {"variants": {"club": figs}, "study": {"strong": "pimc:12", "matches": 400}}


def test_an_edge_is_named_only_when_its_interval_excludes_the_even_share():
    edge = findings(_report((0.6, 0.55, 0.65), (0.5, 0.45, 0.55)), {"a": "club"}, 2)
    assert edge[0] == ("No seat has a measurable edge: every seat's interval includes the even share of 50.0% "
                       "(wins: seat 0 50.0%, seat 1 50.0%).")
    assert edge[2] == ("Skill counts: the strong player (pimc:12) beats the greedy bot in 70.0% of matches, and a "
                       "player who moves at random beats it in 20.0% (what luck alone wins).")
    assert edge[1] == ("Opening the first round is an advantage: that side wins 60.0% of matches "
                       "(95% interval 55.0% to 65.0%), against an even 50.0%.")
    assert edge[3] == "A match lasts 5.2 rounds on average (95% interval 4.5 to 6.0), and 10.0% of rounds end blocked."
    none = findings(_report((0.52, 0.45, 0.59), (0.6, 0.52, 0.68)), {"a": "club"}, 2)
    assert none[0].startswith("Seat 0 wins more often than its even share: 60.0%")
    assert none[1].startswith("Opening the first round gives no measurable edge")
    assert len(none) == 4  # no sentence about drawn matches when there are none


def _ladder(tmp_path: Path, *args: str) -> tuple[str, str]:
    page = tmp_path / "ladder.html"
    res = CliRunner().invoke(main, ["balance", *args, *LADDER, "--html", str(page)])
    assert res.exit_code == 0, res.output
    return res.output, page.read_text(encoding="utf-8")


def test_the_ladder_closes_with_what_it_found_in_a_clubs_words(tmp_path):
    out, text = _ladder(tmp_path, "exact61", "--vs", "bounce61")
    last = [line for line in out.strip().splitlines() if line.strip()][-3:]
    assert last[0].startswith("In exact61, ") and last[1].startswith("In bounce61, ")
    assert re.fullmatch(r"bounce61 (rewards skill more than|leaves more to luck than|and exact61 reward skill about "
                        r"equally: at this sample size the ladder sees no clear difference).*\.", last[2]), last[2]
    assert "->" not in last[2] and "coin toss" in last[2] and "step" in last[2]
    page = _outline(text)
    assert _body_after_title(page)[0][1].get("class") == "findings"
    items = [e[2] for e in page.elements if e[0] == "li" and "section" in e[3]]
    assert items == last
    _check_tables(page)
    assert "<th>significance (Holm)</th>" in text


def test_the_ladder_sentences_name_the_steps_climbed():
    rep = {"study": {"bars": [0.6], "names": ["a", "b"]},
           "variants": {"a": {"chain": [{"bar": 0.6, "length": 2}], "coin_share": {"value": 0.35},
                              "links": [{"lower": "random", "upper": "greedy"}, {"lower": "greedy", "upper": "pimc:4"},
                                        {"lower": "pimc:4", "upper": "pimc:8"}]}}}
    assert summary(rep) == ["In a, better play wins: the ladder climbs 2 steps (random < greedy < pimc:4), each "
                            "player beating the one below in at least 60% of matches; about 35% of the results are "
                            "as good as a coin toss."]
    rep["comparison"] = {"rows": [
        {"figure": "coin share", "a": 0.35, "b": 0.2, "difference": -0.15, "significant": True},
        {"figure": "chain length at 60%", "a": 2, "b": 3, "difference": 1, "significant": False}]}
    assert verdict(rep) == ("b rewards skill more than a: the better player wins more often (about 20% of the "
                            "results are as good as a coin toss with b, about 35% with a; the ladder climbs 3 steps "
                            "with b, 2 steps with a).")


@pytest.mark.skipif(not (shutil.which("chromium") and shutil.which("chromedriver")), reason="needs chromium")
def test_the_balance_report_fits_a_phone(tmp_path):
    pytest.importorskip("selenium")
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    html = _balance(tmp_path, "exact61", "--vs", "bounce61")
    (tmp_path / "r.html").write_text(html, encoding="utf-8")
    options = Options()
    options.binary_location = shutil.which("chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(arg)
    drv = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    try:
        drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 420, "height": 760, "deviceScaleFactor": 1, "mobile": False})
        drv.get((tmp_path / "r.html").as_uri())
        assert drv.execute_script("return document.documentElement.scrollWidth") <= 420  # the page never scrolls sideways
        wraps = drv.find_elements(By.CSS_SELECTOR, ".table-wrap")
        assert wraps and all(w.size["width"] <= 420 for w in wraps)
        findings_box = drv.find_element(By.CSS_SELECTOR, "section.findings")
        assert findings_box.location["y"] < 200 and findings_box.is_displayed()  # the first thing read
        import os
        import tempfile

        # kept with the playground's screenshots (never committed)
        artifacts = Path(os.environ.get("PLAYGROUND_ARTIFACTS")
                         or Path(tempfile.gettempdir()) / "rulelang-playground-artifacts")
        artifacts.mkdir(parents=True, exist_ok=True)
        drv.save_screenshot(str(artifacts / "balance-report-420px.png"))
    finally:
        drv.quit()
