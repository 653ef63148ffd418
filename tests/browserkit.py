"""Headless Chromium for the browser tests (Selenium + Debian's chromium and
chromium-driver): :func:`find_browser` says why the tests cannot run, or where the
browser is; :func:`browser_or_skip` skips without one, except under CI (``CI=true``),
where a missing browser fails; :func:`chrome` starts one. Used by
tests/report/test_browser.py and tests/explorer/test_explorer_browser.py."""

from __future__ import annotations

import os
import shutil

import pytest


def under_ci() -> bool:
    """``CI`` set to true (as CI services and .ci/run do)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def find_browser() -> tuple[str, str] | str:
    """``(chromium, chromedriver)`` paths, or why the browser tests cannot run."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    chromium = next((p for p in map(shutil.which, ("chromium", "chromium-browser",
                                                   "google-chrome")) if p), None)
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        return ("no headless browser: install Debian's chromium and chromium-driver "
                "(.ci/run does) to run the browser tests")
    return chromium, driver


def browser_or_skip() -> tuple[str, str]:
    """:func:`find_browser`'s paths; without a browser the test skips, saying why — or,
    under CI, fails: a browser test that skips there checks nothing."""
    found = find_browser()
    if isinstance(found, str):
        if under_ci():
            pytest.fail(f"{found} (CI=true: the browser tests must run)")
        pytest.skip(found)
    return found


def chrome(found: tuple[str, str], width: int = 1280, height: int = 1000):
    """A headless Chromium driver at ``width`` × ``height``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = found[0]
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--hide-scrollbars", f"--window-size={width},{height}"):
        opts.add_argument(a)
    drv = webdriver.Chrome(service=Service(executable_path=found[1]), options=opts)
    drv.set_page_load_timeout(60)
    return drv


def viewport(drv, width: int, height: int) -> None:
    """A window whose viewport (what the page sees) is ``width`` × ``height``: resized,
    measured and corrected until it is (a resize may land late, or short)."""
    outer_w, outer_h = width, height
    for _ in range(4):
        drv.set_window_size(outer_w, outer_h)
        w, h = drv.execute_script("return [window.innerWidth, window.innerHeight];")
        if (w, h) == (width, height):
            return
        outer_w, outer_h = outer_w + width - w, outer_h + height - h
