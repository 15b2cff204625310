"""The playground in a real browser: headless Chromium driven by Selenium against `rulelang serve`.

Skipped when Chromium, its driver or Selenium is missing (`.ci/run` installs them).
Screenshots and the printed PDF are kept under $PLAYGROUND_ARTIFACTS (default:
the system temporary folder, `rulelang-playground-artifacts/`).
"""
from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data" / "playground"
ARTIFACTS = Path(os.environ.get("PLAYGROUND_ARTIFACTS") or Path(tempfile.gettempdir()) / "rulelang-playground-artifacts")
WAIT = 30  # seconds a step may take on a loaded machine before the test fails


def _browser() -> tuple[str, str] | None:
    binary = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
    driver = shutil.which("chromedriver")
    return (binary, driver) if binary and driver else None


pytestmark = pytest.mark.skipif(_browser() is None, reason="needs chromium and chromedriver (apt-get install chromium chromium-driver)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`rulelang serve` in a subprocess, on a free port, with an empty workspace."""
    ws = tmp_path_factory.mktemp("workspace")
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "rulelang", "serve", "--port", str(port), "--workspace", str(ws)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + WAIT
    while True:
        try:
            with urllib.request.urlopen(url + "api/words", timeout=2):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"rulelang serve did not start: {proc.communicate()[0]}")
            time.sleep(0.2)
    yield url
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def driver():
    found = _browser()
    assert found is not None
    binary, chromedriver = found
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1400,950"):
        options.add_argument(arg)
    try:
        drv = webdriver.Chrome(service=Service(chromedriver), options=options)
    except WebDriverException as exc:
        pytest.skip(f"chromium does not start here: {exc.msg}")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield drv
    drv.quit()


def _wait(drv, condition, what: str):
    return WebDriverWait(drv, WAIT, poll_frequency=0.1).until(lambda d: condition(d), message=what)


def _shot(drv, name: str) -> None:
    drv.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def _open(drv, url: str) -> None:
    drv.get(url)
    _wait(drv, lambda d: d.execute_script("return document.body.dataset.ready") == "yes", "the page starts")


def _text_of(drv, css: str) -> str:
    return drv.find_element(By.CSS_SELECTOR, css).text


def _whole_log(drv) -> str:
    """The whole log's lines (engine notation), read even while its box is closed."""
    return "\n".join(li.get_attribute("textContent") for li in drv.find_elements(By.CSS_SELECTOR, "#log li"))


def _type(drv, text: str) -> None:
    """Type TEXT into the editor as a user does, closing the completion list before each Enter."""
    content = drv.find_element(By.CSS_SELECTOR, ".cm-content")
    content.click()
    content.send_keys(Keys.CONTROL, "a")
    content.send_keys(Keys.DELETE)
    for line in text.rstrip("\n").split("\n"):
        content.send_keys(line, Keys.ESCAPE, Keys.ENTER)


def test_type_see_the_diagnostic_fix_it_see_the_explanation(server, driver):
    _open(driver, server)
    # the first analysis answers after the page starts (later on a loaded machine)
    before = _wait(driver, lambda d: _text_of(d, "#explain"), "the first explanation")
    assert "150 points" in before  # the starting text is based on allfives, target 150
    _type(driver, (DATA / "club-typo.rules").read_text(encoding="utf-8"))
    mark = _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".cm-lintRange-error"), "a diagnostic in the text")
    assert [m.text for m in mark] == ["lest"]  # underlined where `rulelang check` puts the caret
    item = driver.find_element(By.CSS_SELECTOR, "#diagnostics li")
    assert (item.get_attribute("data-code"), item.get_attribute("data-line"), item.get_attribute("data-column")) == \
        ("unexpected-word", "5", "11")
    assert "hint: did you mean `least`?" in item.text and _text_of(driver, "#check-state") == "1 error"
    _shot(driver, "1-diagnostic")

    item.click()  # puts the cursor on the error
    content = driver.find_element(By.CSS_SELECTOR, ".cm-content")
    content.send_keys(Keys.DELETE * 4, "least")
    _wait(driver, lambda d: _text_of(d, "#check-state") == "no errors", "the error goes away")
    _wait(driver, lambda d: "100 points" in _text_of(d, "#explain"), "the explanation changes")
    after = _text_of(driver, "#explain")
    assert after != before and "All Fives, club rules (club)" in after and "150 points" not in after
    assert "the target" in _text_of(driver, "#diff")
    assert not driver.find_elements(By.CSS_SELECTOR, ".cm-lintRange-error")
    _shot(driver, "2-fixed")


def test_completion_and_format(server, driver):
    _open(driver, server)
    _type(driver, (DATA / "club-unformatted.rules").read_text(encoding="utf-8"))
    content = driver.find_element(By.CSS_SELECTOR, ".cm-content")
    content.send_keys("opener lea")
    _wait(driver, lambda d: any("opener leads any tile" in o.text for o in
                                d.find_elements(By.CSS_SELECTOR, ".cm-tooltip-autocomplete li[aria-selected]")),
          "the statement is offered")
    driver.find_element(By.CSS_SELECTOR, ".cm-tooltip-autocomplete li[aria-selected]").click()
    _wait(driver, lambda d: "opener leads any tile" in _text_of(d, ".cm-content"), "the completion is inserted")
    driver.find_element(By.ID, "format").click()
    _wait(driver, lambda d: _text_of(d, ".cm-content").splitlines()[1].startswith("source"), "fmt reorders the statements")
    assert "target at least 100 points" in _text_of(driver, ".cm-content")


def test_play_a_round_by_clicking(server, driver):
    _open(driver, server)
    driver.find_element(By.CSS_SELECTOR, '.tab[data-tab="play"]').click()
    driver.find_element(By.ID, "new-game").click()
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"), "the board is drawn")
    clicks = 0
    while "Round 1;" in _text_of(driver, "#target") and "over" not in _text_of(driver, "#turn"):
        assert clicks < 200, "the round does not end"
        version = driver.find_element(By.ID, "board").get_attribute("data-version")
        tile = driver.find_element(By.CSS_SELECTOR, "#hand button.playable")
        tile.click()
        # the tile is played at once (a new version comes) or chosen (its points are highlighted)
        _wait(driver, lambda d, v=version: d.find_element(By.ID, "board").get_attribute("data-version") != v
              or "click a highlighted point" in _text_of(d, "#status"), "the tile is played or chosen")
        if driver.find_element(By.ID, "board").get_attribute("data-version") == version:
            chosen = driver.find_elements(By.CSS_SELECTOR, "#board g.marker.legal.chosen")
            if chosen:
                chosen[0].click()  # a legal attach point of the layout
            else:
                driver.find_element(By.CSS_SELECTOR, "#moves button.move").click()
        _wait(driver, lambda d, v=version: d.find_element(By.ID, "board").get_attribute("data-version") != v,
              "the move is played")
        clicks += 1
        if clicks == 4:
            _shot(driver, "3-play")
    log = _whole_log(driver)
    assert "Round 1 over" in log and "seat 0 (you) plays" in log
    assert _text_of(driver, "#scores") and driver.find_element(By.ID, "transcript").get_attribute("href").endswith("/transcript")
    _shot(driver, "4-round-over")

    # replay: this game after its first turn, then the downloaded transcript
    driver.find_element(By.CSS_SELECTOR, "#replay summary").click()
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#replay-board svg"), "the replay is drawn")
    driver.execute_script("const s = document.getElementById('replay-turn'); s.value = '1';"
                          "s.dispatchEvent(new Event('input'));")
    _wait(driver, lambda d: _text_of(d, "#replay-caption").startswith("turn 1 of"), "turn 1 is shown")
    href = driver.find_element(By.ID, "transcript").get_attribute("href")
    saved = ARTIFACTS / "game.json"
    with urllib.request.urlopen(href, timeout=10) as res:
        saved.write_bytes(res.read())
    driver.find_element(By.ID, "replay-file").send_keys(str(saved))
    _wait(driver, lambda d: "Replaying game.json" in _text_of(d, "#status"), "the saved transcript is replayed")
    assert _text_of(driver, "#replay-caption").startswith("turn ")


def test_diagrams_browse_the_cases(server, driver):
    _open(driver, server)
    driver.find_element(By.CSS_SELECTOR, '.tab[data-tab="diagrams"]').click()
    link = _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#case-list a"), "the cases are listed")[0]
    case_id = link.get_attribute("data-case")
    link.click()
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#case-board svg g.tile"), "the case is drawn")
    assert case_id in _text_of(driver, "#case-title")
    _shot(driver, "5-diagram")


def test_print_the_sheet_to_pdf(server, driver):
    _open(driver, server)
    _type(driver, (DATA / "club.rules").read_text(encoding="utf-8"))
    _wait(driver, lambda d: "100 points" in _text_of(d, "#explain"), "the text is checked")
    main = driver.current_window_handle
    driver.find_element(By.ID, "print").click()
    _wait(driver, lambda d: len(d.window_handles) > 1, "the sheet opens")
    driver.switch_to.window(next(h for h in driver.window_handles if h != main))
    try:
        title = _wait(driver, lambda d: d.find_elements(By.ID, "sheet-title"), "the sheet is drawn")[0]
        assert title.text == "All Fives, club rules"
        assert driver.find_elements(By.CSS_SELECTOR, "table.scoring") and driver.find_elements(By.CSS_SELECTOR, "figure svg")
        _shot(driver, "6-sheet")
        from selenium.webdriver.common.print_page_options import PrintOptions

        pdf = driver.print_page(PrintOptions())
        import base64

        data = base64.b64decode(pdf)
        assert data.startswith(b"%PDF")
        (ARTIFACTS / "sheet.pdf").write_bytes(data)
    finally:
        driver.close()
        driver.switch_to.window(main)


def _open_variant_and_play(drv, name: str) -> None:
    """Open the bundled ruleset NAME in the editor (checked: its player counts reach the Play tab), show Play."""
    from selenium.webdriver.support.ui import Select

    Select(drv.find_element(By.ID, "variant")).select_by_value(name)
    drv.find_element(By.ID, "open-variant").click()
    _wait(drv, lambda d: f"({name})" in _text_of(d, "#explain") and _text_of(d, "#check-state") == "no errors",
          f"{name} is checked")
    drv.find_element(By.CSS_SELECTOR, '.tab[data-tab="play"]').click()


def _new_game(drv, seed: int) -> None:
    seed_box = drv.find_element(By.ID, "seed")
    seed_box.clear()
    seed_box.send_keys(str(seed))
    drv.find_element(By.ID, "new-game").click()
    _wait(drv, lambda d: d.find_element(By.ID, "board").get_attribute("data-version"), "the board is drawn")


def test_the_sniff_clicked_on_the_layout_asks_crosswise_or_endwise(server, driver):
    from rulelang.tools.svg import svg_tile_rects

    _open(driver, server)
    _open_variant_and_play(driver, "sniff")
    _new_game(driver, 9)  # greedy leads [0|5]; the human's [5|5] fits on its 5, crosswise or endwise
    version = driver.find_element(By.ID, "board").get_attribute("data-version")
    assert not driver.find_element(By.ID, "choice").is_displayed()
    marker = driver.find_element(By.CSS_SELECTOR, '#board g.marker.legal[data-tile="[0|5]"][data-side="high"]')
    marker.click()
    _wait(driver, lambda d: d.find_element(By.ID, "choice").is_displayed(), "the choice of orientation is offered")
    assert "crosswise or endwise" in _text_of(driver, "#status")
    buttons = driver.find_elements(By.CSS_SELECTOR, "#choice button.choice")
    assert [b.text for b in buttons] == ["crosswise +10", "endwise +5"]
    assert [b.get_attribute("data-move") for b in buttons] == ["[5|5] on [0|5] high", "[5|5] on [0|5] high endwise"]
    _shot(driver, "7-sniff-choice")
    driver.find_element(By.CSS_SELECTOR, "#choice button.choice-cancel").click()  # changing one's mind
    _wait(driver, lambda d: not d.find_element(By.ID, "choice").is_displayed(), "the choice closes")
    assert driver.find_element(By.ID, "board").get_attribute("data-version") == version  # nothing was played

    driver.find_element(By.CSS_SELECTOR, '#hand button.tile[data-tile="[5|5]"]').click()  # the tile first: asked too
    _wait(driver, lambda d: d.find_element(By.ID, "choice").is_displayed(), "the tile's orientations are offered")
    driver.find_element(By.CSS_SELECTOR, '#choice button.choice[data-move$="endwise"]').click()
    _wait(driver, lambda d, v=version: d.find_element(By.ID, "board").get_attribute("data-version") != v, "the move is played")
    assert "seat 0 (you) plays [5|5] on [0|5] high endwise" in _whole_log(driver)
    svg = driver.execute_script("return document.querySelector('#board svg').outerHTML")
    rects = dict(svg_tile_rects(svg))
    lies = [(r[2] - r[0]) > (r[3] - r[1]) for r in (rects["[5|5]"], rects["[0|5]"])]
    assert lies[0] == lies[1]  # drawn in line with the tile it joined
    _shot(driver, "8-sniff-endwise")


def test_six_players_on_a_double_nine_set(server, driver):
    from selenium.webdriver.support.ui import Select

    _open(driver, server)
    _open_variant_and_play(driver, "double-nine-six")
    players = Select(driver.find_element(By.ID, "players"))
    _wait(driver, lambda d: len(players.options) == 9, "the ruleset's player counts are offered")
    assert [o.text for o in players.options] == [str(n) for n in range(2, 11)]
    players.select_by_value("6")
    seats = [s for s in driver.find_elements(By.CSS_SELECTOR, "#seats .seat") if s.is_displayed()]
    assert [s.get_attribute("data-seat") for s in seats] == ["1", "2", "3", "4", "5"]
    _new_game(driver, 3)
    assert len(driver.find_elements(By.CSS_SELECTOR, "#scores tr")) == 1 + 6
    hand = [b.get_attribute("data-tile") for b in driver.find_elements(By.CSS_SELECTOR, "#hand button.tile")]
    assert len(hand) == 8 and all(max(int(x) for x in t.strip("[]").split("|")) <= 9 for t in hand)
    assert "tiles in hands" in _text_of(driver, "#counted")
    _shot(driver, "9-double-nine-six")
    players.select_by_value("2")  # fewer players: the other seats' choices hide
    assert [s.get_attribute("data-seat") for s in driver.find_elements(By.CSS_SELECTOR, "#seats .seat") if s.is_displayed()] == ["1"]


def test_muggins_claims_a_claim_with_the_move_and_the_call_button(server, driver):
    _open(driver, server)
    _open_variant_and_play(driver, "muggins-claims")
    _new_game(driver, 1)  # the human leads; [5|5] counts 10, two shown points
    assert driver.find_element(By.ID, "claim-box").is_displayed() and not driver.find_element(By.ID, "call-box").is_displayed()
    version = driver.find_element(By.ID, "board").get_attribute("data-version")
    driver.find_element(By.ID, "claim").send_keys("1")  # one point short
    driver.find_element(By.CSS_SELECTOR, '#hand button.tile[data-tile="[5|5]"]').click()
    _wait(driver, lambda d, v=version: d.find_element(By.ID, "board").get_attribute("data-version") != v, "the move is played")
    log = _whole_log(driver)
    assert "seat 0 (you) plays [5|5] claim 1" in log and "seat 1 (greedy) calls muggins on seat 0 (you)!" in log
    assert driver.find_element(By.ID, "claim").get_attribute("value") == ""  # a claim goes with one move
    call = _wait(driver, lambda d: [b for b in d.find_elements(By.ID, "call") if b.is_displayed()], "a call is offered")[0]
    assert call.text == "Call muggins on seat 1 (greedy)" and "call muggins, or let it go" in _text_of(driver, "#turn")
    _shot(driver, "10-muggins-call")
    call.click()
    _wait(driver, lambda d: "No muggins (nothing-to-take)" in _text_of(d, "#status"), "the call is answered")
    assert not driver.find_element(By.ID, "call-box").is_displayed() and _text_of(driver, "#turn") == "Your turn."


# -- the page at a desktop's width and a phone's; the header after a move; the hand as tiles ------------

def _sideways(drv) -> tuple[int, int]:
    """The page's width and the window's: the page scrolls sideways when the first is larger."""
    return tuple(drv.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]"))


@pytest.mark.parametrize("width", [1280, 420])
def test_every_tab_fits_the_window_and_the_diagram_takes_the_pane_width(server, driver, width):
    driver.set_window_size(width, 900)
    try:
        _open(driver, server)
        page, window = _sideways(driver)
        assert window <= width and page <= window, (page, window)
        _shot(driver, f"11-{width}px-rules")

        driver.find_element(By.CSS_SELECTOR, '.tab[data-tab="play"]').click()
        _new_game(driver, 1)
        page, window = _sideways(driver)
        assert page <= window, (page, window)
        driver.execute_script("document.getElementById('hand').scrollIntoView({block: 'center'})")
        _shot(driver, f"12-{width}px-play")

        driver.find_element(By.CSS_SELECTOR, '.tab[data-tab="diagrams"]').click()
        _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#case-list a"), "the cases are listed")[0].click()
        _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#case-board svg g.tile"), "the case is drawn")
        page, window = _sideways(driver)
        assert page <= window, (page, window)
        drawn, room = driver.execute_script(
            "const box = document.getElementById('case-board');"
            "return [box.querySelector('svg').getBoundingClientRect().width, box.clientWidth];")
        assert drawn >= 0.95 * room, (drawn, room)  # the diagram uses the pane's width
        scale = driver.execute_script(
            "const svg = document.querySelector('#case-board svg');"
            "return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;")
        assert scale >= 0.99, scale  # never drawn smaller than its own size: the legend's text stays 12 px
        driver.execute_script("document.getElementById('case-board').scrollIntoView({block: 'center'})")
        _shot(driver, f"13-{width}px-diagrams")
    finally:
        driver.set_window_size(1400, 950)


def test_the_header_says_the_move_once_it_is_made_in_words(server, driver):
    _open(driver, server)
    driver.find_element(By.CSS_SELECTOR, '.tab[data-tab="play"]').click()
    _new_game(driver, 1)
    for said in (r"You led \d+-\d+\.", r"You played \d+-\d+ on the \d+-\d+, (left|right|top|bottom) end\."):
        version = driver.find_element(By.ID, "board").get_attribute("data-version")
        button = driver.find_element(By.CSS_SELECTOR, "#moves button.move")
        move = button.get_attribute("data-move")
        words = button.text
        button.click()
        _wait(driver, lambda d, v=version: d.find_element(By.ID, "board").get_attribute("data-version") != v,
              "the move is played")
        status = _text_of(driver, "#status")
        assert re.fullmatch(said, status), status
        assert status[:-1].split(" ", 2)[2] in words  # the button said it as the header does
        assert f"seat 0 (you) plays {move}" in _whole_log(driver)  # the whole log keeps the engine's notation


def test_the_hand_is_drawn_as_the_board_draws_tiles(server, driver):
    from rulelang.tools.svg import PIPS, U

    _open(driver, server)
    _type(driver, (DATA / "twenty-tiles.rules").read_text(encoding="utf-8"))  # halves up to 12: every pip pattern
    _wait(driver, lambda d: "(twelve)" in _text_of(d, "#explain"), "the ruleset is checked")
    driver.find_element(By.CSS_SELECTOR, '.tab[data-tab="play"]').click()
    _new_game(driver, 2)
    tiles = driver.execute_script("""
        return [...document.querySelectorAll('#hand button.tile')].map((b) => ({
          tile: b.dataset.tile, label: b.getAttribute('aria-label'), text: b.textContent,
          pips: [...b.querySelectorAll('svg circle.pip')].map((c) => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]),
        }));""")
    assert len(tiles) == 20
    seen = set()
    for t in tiles:
        a, b = (int(x) for x in t["tile"].strip("[]").split("|"))
        assert t["label"] == t["tile"] and t["text"] == ""  # drawn, not written; named for screen readers
        # each half's pips, as offsets in grid units from the half's centre (along the tile, across it)
        halves = [sorted((round((y - U * (1 + 2 * h)) / U, 2), round((x - U) / U, 2))
                         for x, y in t["pips"] if (y > 2 * U) == bool(h)) for h in (0, 1)]
        assert halves == [sorted(PIPS[a]), sorted(PIPS[b])], t["tile"]
        seen |= {a, b}
    assert seen >= {10, 11, 12}  # the larger sets' patterns were drawn too
    _shot(driver, "14-hand-tiles")


# -- the game seen whole, by layout rules (bounds, computed sizes, visibility, scrolling), at both sizes --------

MIN_TILE_PX = 30  # a tile's long side on the screen, at the board's smallest scale
MIN_TEXT_PX = 12

# the elements that may scroll: the editor, and a board (or diagram) too long for its box at its smallest scale
SCROLLERS = """
return [...document.querySelectorAll('body *')].filter((e) => {
  const s = getComputedStyle(e);
  const scrolls = (s.overflowY === 'auto' || s.overflowY === 'scroll') && e.scrollHeight > e.clientHeight + 1
    || (s.overflowX === 'auto' || s.overflowX === 'scroll') && e.scrollWidth > e.clientWidth + 1;
  return scrolls && !e.closest('.cm-editor');
}).map((e) => e.id || e.className || e.tagName);
"""

GAME = """
const box = (sel) => { const e = document.querySelector(sel); const r = e.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, shown: !!e.offsetParent && r.height > 0}; };
const svg = document.querySelector('#board svg');
const tiles = [...svg.querySelectorAll('g.tile rect.tile-rect')].map((r) => {
  const b = r.getBoundingClientRect(); return Math.max(b.width, b.height); });
return {
  view: [window.innerWidth, window.innerHeight], page: document.documentElement.scrollWidth,
  board: box('#board'), hand: box('#hand'), scores: box('#scores'), last: box('#last-moves'), reply: box('#reply'),
  scale: Number(svg.dataset.scale),
  tiles, legend: parseFloat(getComputedStyle(document.querySelector('#pane-play .board-legend')).fontSize),
  labels: [...svg.querySelectorAll('text.end-label')].map((t) => [t.textContent, t.getBoundingClientRect().height,
    Number(t.getAttribute('font-size')) * Number(svg.dataset.scale)]),
};
"""


def _viewport(drv, width: int, height: int) -> None:
    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def _check_the_game_is_seen_whole(drv, where: str) -> dict:
    """Board, hand, scores, last moves and the bots' reply in the window at once, readable, nothing scrolled
    inside the page (but a board already at its smallest scale)."""
    g = drv.execute_script(GAME)
    width, height = g["view"]
    assert g["page"] <= width, (where, "the page scrolls sideways", g["page"], width)
    for name in ("board", "hand", "scores", "last"):
        r = g[name]
        assert r["shown"], (where, name, "is not shown")
        assert r["top"] >= 0 and r["bottom"] <= height + 0.5 and r["left"] >= 0 and r["right"] <= width + 0.5, \
            (where, name, "is outside the window", r, g["view"])
    assert g["legend"] >= MIN_TEXT_PX, (where, "legend", g["legend"])
    assert g["tiles"] and min(g["tiles"]) >= MIN_TILE_PX, (where, "a tile is drawn too small", min(g["tiles"]))
    for letter, _drawn, size in g["labels"]:
        assert size >= MIN_TEXT_PX, (where, "end label", letter, size)
    scrollers = drv.execute_script(SCROLLERS)
    allowed = {"board"} if g["scale"] <= 0.601 else set()
    assert set(scrollers) <= allowed, (where, "scrolls inside the page", scrollers)
    return g


def _play_first_move(drv) -> None:
    version = drv.find_element(By.ID, "board").get_attribute("data-version")
    drv.find_element(By.CSS_SELECTOR, "#moves button.move").click()
    _wait(drv, lambda d, v=version: d.find_element(By.ID, "board").get_attribute("data-version") != v, "the move is played")


@pytest.mark.parametrize("width", [1280, 420])
def test_the_board_the_hand_the_scores_and_the_last_moves_are_seen_together(server, driver, width):
    _viewport(driver, width, 760)
    try:
        _open(driver, server)
        driver.find_element(By.CSS_SELECTOR, '.tab[data-tab="play"]').click()
        _new_game(driver, 1)
        for _ in range(3):
            _play_first_move(driver)
        g = _check_the_game_is_seen_whole(driver, f"{width}px")
        # the bots' reply is said in words just above the board, where the user looks after a move
        reply = _text_of(driver, "#reply")
        assert reply.startswith("seat 1 (greedy) plays ") and "[" not in reply, reply
        assert 0 <= g["board"]["top"] - g["reply"]["bottom"] <= 40, (g["reply"], g["board"])
        assert driver.find_elements(By.CSS_SELECTOR, "#board g.tile.just-played")  # and its tile is framed
        # the moves in words, each end a letter on the board
        labels = {t.get_attribute("data-end") for t in driver.find_elements(By.CSS_SELECTOR, "#board text.end-label")}
        for button in driver.find_elements(By.CSS_SELECTOR, "#moves button.move"):
            said = button.text
            assert "[" not in said and "line-" not in said and "branch-" not in said, said
            m = re.fullmatch(r"\d+-\d+ on the \d+-\d+, (left|right|top|bottom) end \(([A-Z])\)(, \w+)?( +\+\d+)?", said)
            assert m and m.group(2) in labels, (said, labels)
        # a click on an end's letter plays there, as a click on the end does
        first = driver.find_element(By.CSS_SELECTOR, "#moves button.move")
        letter = re.search(r"\(([A-Z])\)", first.text).group(1)
        fits = [b for b in driver.find_elements(By.CSS_SELECTOR, "#moves button.move") if f"({letter})" in b.text]
        version = driver.find_element(By.ID, "board").get_attribute("data-version")
        driver.find_element(By.CSS_SELECTOR, f'#board text.end-label[data-end="{letter}"]').click()
        if len(fits) == 1:
            _wait(driver, lambda d, v=version: d.find_element(By.ID, "board").get_attribute("data-version") != v,
                  "the move at the letter is played")
            assert f"seat 0 (you) plays {fits[0].get_attribute('data-move')}" in _whole_log(driver)
        else:
            _wait(driver, lambda d: d.find_element(By.ID, "choice").is_displayed(), "the tiles that fit are offered")
            driver.find_element(By.CSS_SELECTOR, "#choice button.choice").click()
            _wait(driver, lambda d, v=version: d.find_element(By.ID, "board").get_attribute("data-version") != v,
                  "the chosen move is played")
        if width == 1280:  # nothing was scrolled away: the header and the editor are in view with the game
            assert driver.execute_script("return window.scrollY") == 0
        if width == 420:  # the toolbar folds under one button: the header is one line
            assert driver.find_element(By.CSS_SELECTOR, "header").size["height"] <= 80
            assert not driver.find_element(By.ID, "toolbar").is_displayed()
            driver.find_element(By.ID, "menu").click()
            assert driver.find_element(By.ID, "open-variant").is_displayed()
            driver.find_element(By.ID, "menu").click()
        _shot(driver, f"15-{width}x760-game")
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_long_layout_keeps_its_tiles_readable_at_420px(server, driver):
    _viewport(driver, 420, 760)
    try:
        _open(driver, server)
        driver.find_element(By.CSS_SELECTOR, '.tab[data-tab="play"]').click()
        _new_game(driver, 3)
        moves = 0
        while "Round 1;" in _text_of(driver, "#target") and driver.find_elements(By.CSS_SELECTOR, "#moves button.move"):
            _play_first_move(driver)
            moves += 1
            if "Round 1;" in _text_of(driver, "#target"):
                driver.execute_script("document.getElementById('game').scrollIntoView({block: 'start'})")
                g = driver.execute_script(GAME)
                assert min(g["tiles"]) >= MIN_TILE_PX and g["scale"] >= 0.6, (moves, g["tiles"], g["scale"])
        assert moves >= 5
        _shot(driver, "16-420x760-late-in-the-round")
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_panels_computed_from_an_earlier_text_are_greyed(server, driver):
    _open(driver, server)
    _type(driver, (DATA / "club-typo.rules").read_text(encoding="utf-8"))
    _wait(driver, lambda d: _text_of(d, "#check-state") == "1 error", "the error is found")
    for panel in ("diff", "explain", "inherited-box"):
        assert "stale" in driver.find_element(By.ID, panel).get_attribute("class").split(), panel
        opacity = float(driver.execute_script(f"return getComputedStyle(document.getElementById('{panel}')).opacity"))
        assert opacity < 0.6, (panel, opacity)
    assert driver.find_element(By.ID, "stale-note").is_displayed()
    assert not driver.find_element(By.ID, "new-game").is_enabled()  # the game would be of which text?
    _shot(driver, "17-stale-panels")
    content = driver.find_element(By.CSS_SELECTOR, ".cm-content")
    driver.find_element(By.CSS_SELECTOR, "#diagnostics li").click()
    content.send_keys(Keys.DELETE * 4, "least")
    _wait(driver, lambda d: _text_of(d, "#check-state") == "no errors", "the error goes away")
    assert not driver.find_elements(By.CSS_SELECTOR, ".follows-text.stale")
    assert not driver.find_element(By.ID, "stale-note").is_displayed() and driver.find_element(By.ID, "new-game").is_enabled()


@pytest.mark.parametrize("width", [1280, 420])
def test_the_diagrams_tab_keeps_the_columns_and_starts_at_the_base(server, driver, width):
    from selenium.webdriver.support.ui import Select

    _viewport(driver, width, 760)
    try:
        _open(driver, server)  # the starting text is based on allfives
        before = driver.execute_script("return document.getElementById('left').getBoundingClientRect().width")
        driver.find_element(By.CSS_SELECTOR, '.tab[data-tab="diagrams"]').click()
        link = _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#case-list a"), "the cases are listed")[0]
        assert driver.execute_script("return document.getElementById('left').getBoundingClientRect().width") == before
        assert Select(driver.find_element(By.ID, "case-variant")).first_selected_option.get_attribute("value") == "allfives"
        link.click()
        _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#case-board svg g.tile"), "the case is drawn")
        # the caption is the page's, wrapped at spaces: nothing of it is cut by the diagram's box
        title = driver.find_element(By.ID, "case-title")
        assert link.get_attribute("data-case") in title.text
        assert driver.execute_script("const t = arguments[0]; return t.scrollWidth <= t.clientWidth", title)
        assert not driver.find_elements(By.CSS_SELECTOR, "#case-board svg > text, #case-board g.legend")
        legend = driver.find_element(By.CSS_SELECTOR, "#pane-diagrams .board-legend")
        assert legend.is_displayed() and float(legend.value_of_css_property("font-size").rstrip("px")) >= MIN_TEXT_PX
        assert set(driver.execute_script(SCROLLERS)) <= {"case-board"}
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
        _shot(driver, f"18-{width}x760-diagram")
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
