"""The documentation site in a real browser (headless Chromium, tests/browserkit.py): at a
390 px phone width no page scrolls sideways — long tables and code scroll inside their own
boxes — and every image decodes. The site is built strictly into a temporary folder and
opened from the disk (the site uses plain .html links, so it reads without a server).
Screenshots of each page at 390 px are left in tests/artifacts/ (git-ignored)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from browserkit import browser_or_skip, chrome

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
PHONE = 390
# the pages most likely to be too wide: the first page, the widest answer pages (long
# figures, a wide table, plots), the command line (88-column help) and the variants table
PAGES = ["index.html", "questions/team-modes.html", "questions/carre-and-points.html",
         "questions/what-to-change.html", "reference/cli.html", "reference/variants.html",
         "reference/bots.html"]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    found = browser_or_skip()
    out = tmp_path_factory.mktemp("site")
    p = subprocess.run([str(Path(sys.executable).with_name("mkdocs")), "build", "--strict",
                        "--site-dir", str(out)], capture_output=True, text=True, cwd=ROOT,
                       env=dict(os.environ, NO_MKDOCS_2_WARNING="1", DEMOS_SIM_DOCS_RUN="0"),
                       timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    drv = chrome(found, PHONE, 844)
    yield out, drv
    drv.quit()


@pytest.mark.parametrize("page", PAGES)
def test_no_sideways_scrolling_at_390_px(site, page):
    from selenium.webdriver.support.ui import WebDriverWait

    out, drv = site
    drv.set_window_size(PHONE, 844)
    drv.get((out / page).as_uri())
    WebDriverWait(drv, 30).until(
        lambda d: d.execute_script("return document.readyState") == "complete")
    client = drv.execute_script("return document.documentElement.clientWidth")
    assert client <= PHONE
    scroll = drv.execute_script("return document.documentElement.scrollWidth")
    assert scroll <= client, f"{page} at {PHONE} px: the page is {scroll} px wide"
    wide = drv.execute_script(
        "return Array.from(document.querySelectorAll('.md-content *'))"
        ".filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1"
        " && !e.closest('pre, .md-typeset__scrollwrap, .highlight'))"
        ".slice(0, 5).map(e => e.tagName + ' ' + (e.textContent || '').slice(0, 60))")
    assert wide == [], f"{page}: sticks out at {PHONE} px: {wide}"
    broken = drv.execute_script(
        "return Array.from(document.images).filter(i => i.complete && i.naturalWidth === 0)"
        ".map(i => i.src)")
    assert broken == [], broken
    ARTIFACTS.mkdir(exist_ok=True)
    drv.save_screenshot(str(ARTIFACTS / f"docs_{page.replace('/', '_')[:-5]}_390.png"))
