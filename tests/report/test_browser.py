"""The committed reports in a real browser: headless Chromium driven by Selenium.

Selenium rather than Playwright: Debian packages ``chromium-driver`` built from the same
source as ``chromium``, so driver and browser always match, and the Python package is small
(Playwright's Python package ships its own Node driver and expects its own browser builds,
which cannot be downloaded here). ``.ci/run`` installs both packages when missing; on a
machine without them these tests skip, saying so in pytest's summary (``-ra``).

Checked against ``results/analyses/report.html`` and ``results/demo/report.html`` at a
1,280 px window: every section is there and has a height, every image decodes
(``naturalWidth > 0``), the page never scrolls sideways (also with every ``<details>``
opened, no table scrolls inside its box; at a 390 px phone width the page itself still
does not), the summary comes before any table. A screenshot of
each is kept in ``tests/artifacts/`` (git-ignored).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browserkit import browser_or_skip, chrome, viewport

ROOT = Path(__file__).resolve().parents[2]
ANALYSES = ROOT / "results" / "analyses" / "report.html"
DEMO = ROOT / "results" / "demo" / "report.html"
ARTIFACTS = ROOT / "tests" / "artifacts"
WIDTH = 1280


@pytest.fixture(scope="module")
def browser():
    found = browser_or_skip()
    drv = chrome(found, WIDTH, 1000)
    yield drv
    drv.quit()


def _open(drv, path: Path, width: int = WIDTH):
    drv.set_window_size(width, 1000)
    from selenium.webdriver.support.ui import WebDriverWait

    drv.get(path.as_uri())
    WebDriverWait(drv, 30).until(
        lambda d: d.execute_script("return document.readyState") == "complete")
    # the viewport, not the window: the test is about what the reader sees
    assert drv.execute_script("return document.documentElement.clientWidth") <= width


def _overflow(drv) -> tuple[int, int]:
    return tuple(drv.execute_script(
        "const d = document.documentElement; return [d.scrollWidth, d.clientWidth];"))


def _scrolling_tables(drv) -> list[str]:
    """The tables that scroll sideways inside their box (what the reader would have to
    scroll), by the summary line of their ``<details>``."""
    return drv.execute_script(
        "return Array.from(document.querySelectorAll('.tablebox'))"
        ".filter(b => b.scrollWidth > b.clientWidth + 1)"
        ".map(b => (b.closest('details') || b).textContent.slice(0, 60));")


def _images(drv) -> list[dict]:
    return drv.execute_script(
        "return Array.from(document.images).map(i => ({alt: i.alt, complete: i.complete, "
        "w: i.naturalWidth}));")


def _open_details(drv) -> int:
    return drv.execute_script(
        "const d = document.querySelectorAll('details'); d.forEach(x => x.open = true); "
        "return d.length;")


def _screenshot(drv, name: str, height: int) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    drv.set_window_size(WIDTH, height)
    path = ARTIFACTS / f"{name}.png"
    assert drv.save_screenshot(str(path))
    return path


def _summary_before_tables(drv) -> None:
    first = drv.execute_script(
        "const s = document.getElementById('summary'); const t = document.querySelector("
        "'table:not(#stamp table)'); if (!s || !t) return null; "
        "return [s.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING, "
        "s.getBoundingClientRect().top, t.getBoundingClientRect().top];")
    assert first is not None, "no summary or no table"
    following, s_top, t_top = first
    assert following and s_top < t_top


def test_analyses_report_in_a_browser(browser):
    _open(browser, ANALYSES)
    folder = ANALYSES.parent
    names = [p.parent.name for p in sorted(folder.glob("*/section.json"))]
    assert len(names) >= 9
    for name in names:
        sec = json.loads((folder / name / "section.json").read_text())
        h = browser.execute_script(
            "const e = document.getElementById(arguments[0]); "
            "return e ? [e.getBoundingClientRect().height, e.querySelector('h2').textContent]"
            " : null;", name)
        assert h is not None, f"section {name} missing"
        assert h[0] > 50 and h[1] == sec["title"], name
    # every board row links to a section of the page
    targets = browser.execute_script(
        "return Array.from(document.querySelectorAll('#board .brow h3 a'))"
        ".map(a => a.getAttribute('href').slice(1));")
    assert len(targets) >= 8 and set(targets) <= set(names)
    imgs = _images(browser)
    figures = sum(len(json.loads(p.read_text())["figures"])
                  for p in folder.glob("*/section.json"))
    assert len(imgs) == figures          # each plot once, in its section
    bad = [i["alt"] for i in imgs if not (i["complete"] and i["w"] > 0)]
    assert not bad, f"images that do not load: {bad}"
    assert browser.execute_script("return document.querySelectorAll('details[open]').length") == 0
    scroll, client = _overflow(browser)
    assert scroll <= client, f"scrolls sideways at {WIDTH} px: {scroll} > {client}"
    shot = _screenshot(browser, "analyses_summary", 1400)
    assert shot.stat().st_size > 10_000
    assert _open_details(browser) > 9 * 3
    _summary_before_tables(browser)
    scroll, client = _overflow(browser)
    assert scroll <= client, f"with the tables open: {scroll} > {client}"
    assert not _scrolling_tables(browser)
    # every table row of the page has a CSV link next to it that names a file that exists
    links = browser.execute_script(
        "return Array.from(document.querySelectorAll('summary a[download]'))"
        ".map(a => a.getAttribute('href'));")
    assert links and all((folder / h).is_file() for h in links)


def test_demo_report_in_a_browser(browser):
    _open(browser, DEMO)
    for sid in ("summary", "plots", "tables", "run"):
        assert browser.execute_script(
            "const e = document.getElementById(arguments[0]); "
            "return e && e.getBoundingClientRect().height > 0;", sid), sid
    imgs = _images(browser)
    # win share, its paired change, points, rounds and the sweep of carre_points
    assert len(imgs) == 5 and all(i["complete"] and i["w"] > 0 for i in imgs)
    scroll, client = _overflow(browser)
    assert scroll <= client
    _screenshot(browser, "demo_report", 1600)
    _open_details(browser)
    _summary_before_tables(browser)
    scroll, client = _overflow(browser)
    assert scroll <= client
    assert not _scrolling_tables(browser)
    # the CSV downloads are data: URIs holding the table's rows
    href = browser.execute_script(
        "return document.querySelector('summary a[download]').getAttribute('href');")
    assert href.startswith("data:text/csv") and "win%20share" in href


@pytest.mark.parametrize("report", [ANALYSES, DEMO], ids=["analyses", "demo"])
def test_no_sideways_scrolling_on_a_phone(browser, report):
    _open(browser, report, width=390)
    _open_details(browser)
    scroll, client = _overflow(browser)
    assert scroll <= client, f"{report.parent.name} at 390 px: {scroll} > {client}"


def test_the_board_is_the_first_screen(browser):
    """At 1,280 × 800 the verdict board's first row starts in the first screen and the
    whole board ends within the second (its bottom at most 1,600 px down the page); each
    row holds its lights, a sentence, a plot and a closed block of every rung; at 390 px
    nothing in it is wider than the screen."""
    browser.get(ANALYSES.as_uri())
    viewport(browser, WIDTH, 800)
    assert browser.execute_script("return window.innerHeight") == 800
    box = browser.execute_script(
        "const b = document.getElementById('board'); const r = b.querySelectorAll('.brow');"
        "const top = e => e.getBoundingClientRect().top + window.scrollY;"
        "return {first: top(r[0]), firstBottom: r[0].getBoundingClientRect().bottom "
        "+ window.scrollY, bottom: b.getBoundingClientRect().bottom + window.scrollY, "
        "rows: r.length, lights: Array.from(r).map(x => x.querySelectorAll('.light').length),"
        " plots: Array.from(r).map(x => x.querySelectorAll('svg circle').length),"
        " closed: Array.from(r).map(x => !x.querySelector('details').open)};")
    assert box["rows"] >= 8
    assert box["firstBottom"] <= 800, box
    assert box["bottom"] <= 1600, box
    assert all(n >= 1 for n in box["lights"]) and all(n >= 1 for n in box["plots"])
    assert all(box["closed"])
    ARTIFACTS.mkdir(exist_ok=True)
    assert browser.save_screenshot(str(ARTIFACTS / "analyses_board_1280x800.png"))
    viewport(browser, 390, 844)
    browser.get(ANALYSES.as_uri())
    _open_details(browser)
    wide = browser.execute_script(
        "return Array.from(document.querySelectorAll('#board *'))"
        ".filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth"
        " + 1).map(e => e.tagName + '.' + e.className);")
    assert not wide, wide                       # the rung tables open, too
    scroll, client = _overflow(browser)
    assert scroll <= client, f"at 390 px: {scroll} > {client}"
    assert browser.save_screenshot(str(ARTIFACTS / "analyses_board_390.png"))
