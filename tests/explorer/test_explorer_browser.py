"""The explorer in a real browser: ``demos-sim serve`` started on a free port, driven by
headless Chromium (Selenium; Debian's chromium and chromium-driver, see
tests/browserkit.py — the tests skip, saying why, without them).

One page, as a designer uses it: load, change a variant (its row is highlighted), run it
against the defaults and watch the games count and the charts fill in chunk after chunk,
export the setup (the file loads as an experiment), open a sample game; and a bad value
that shows a message. A screenshot is kept in tests/artifacts/ (git-ignored).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from browserkit import browser_or_skip, chrome

from demos_sim.runner.experiment import parse_experiment
from demos_sim.sim_common import CHUNK

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "demos_sim.cli", "serve", "--port", str(port)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        t = time.monotonic()
        while True:
            try:
                urllib.request.urlopen(url, timeout=2).read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() - t > 60:
                    raise AssertionError("demos-sim serve did not start: "
                                         + proc.stdout.read().decode(errors="replace"))
                time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="module")
def page(server):
    found = browser_or_skip()
    drv = chrome(found, 1280, 1000)
    yield drv
    drv.quit()


def _state(drv) -> str:
    return drv.execute_script("return document.getElementById('results').dataset.state")


def _games(drv) -> str | None:
    return drv.execute_script(
        "const e = document.getElementById('games-done'); return e ? e.textContent : null")


def _set(drv, element_id: str, value: str) -> None:
    from selenium.webdriver.common.by import By

    el = drv.find_element(By.ID, element_id)
    el.clear()
    el.send_keys(value)
    drv.execute_script("arguments[0].dispatchEvent(new Event('change', {bubbles: true}))", el)


def test_change_run_watch_export_replay(page, server, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    drv = page
    drv.get(server)
    assert "what-if explorer" in drv.title
    _set(drv, "v_carre_points", "40")
    row = drv.find_element(By.ID, "row-carre_points")
    assert "changed" in row.get_attribute("class")
    games = 4 * CHUNK
    _set(drv, "games", str(games))
    _set(drv, "half_width", "0.01")              # narrower than 16,384 games reach: all of them
    drv.find_element(By.ID, "run").click()
    seen = []
    t = time.monotonic()
    while time.monotonic() - t < 180:
        g = _games(drv)
        if g and (not seen or seen[-1] != g):
            seen.append(g)
        if _state(drv) in ("done", "stopped", "error"):
            break
        time.sleep(0.1)
    assert _state(drv) == "done", drv.find_element(By.ID, "results").text
    g = _games(drv)              # the last chunk's count can arrive with the "done" state
    if g and seen[-1] != g:
        seen.append(g)
    assert seen[-1] == f"{games:,}"
    assert len(seen) >= 2, seen                   # the count moved while it ran
    assert [int(s.replace(",", "")) for s in seen] == sorted(int(s.replace(",", "")) for s in seen)
    for chart in ("chart-share", "chart-length"):
        assert drv.find_element(By.ID, chart).size["height"] > 50
    assert drv.find_element(By.ID, "sentence").text
    ARTIFACTS.mkdir(exist_ok=True)
    drv.execute_script("window.scrollTo(0, 0)")
    drv.save_screenshot(str(ARTIFACTS / "explorer.png"))

    drv.find_element(By.ID, "export-btn").click()
    toml = WebDriverWait(drv, 30).until(lambda d: d.find_element(By.ID, "toml")).text
    exp = parse_experiment(toml, tmp_path / "whatif.toml")
    assert [p.values for p in exp.points] == [{"carre_points": 30}, {"carre_points": 40}]

    drv.find_element(By.ID, "replay-btn").click()
    panel = WebDriverWait(drv, 60).until(lambda d: d.find_element(By.ID, "replay-panel"))
    assert "Round 1" in panel.text and "winner" in panel.text


def test_bad_input_shows_a_message(page, server):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    drv = page
    drv.get(server)
    _set(drv, "v_carre_points", "-3")
    drv.find_element(By.ID, "run").click()
    msg = WebDriverWait(drv, 30).until(lambda d: d.find_element(By.ID, "message"))
    assert "carre_points" in msg.text and "Traceback" not in drv.page_source
    _set(drv, "players", "9")                     # D2: 3–5 players; the seats say so at once
    err = WebDriverWait(drv, 30).until(
        lambda d: d.find_element(By.CSS_SELECTOR, "#seats .error"))
    assert "players" in err.text
    # another game: the form is rebuilt from its variants
    from selenium.webdriver.support.ui import Select

    Select(drv.find_element(By.ID, "game")).select_by_value("protocole")
    WebDriverWait(drv, 30).until(lambda d: d.find_elements(By.ID, "v_standard_tie"))
    assert not drv.find_elements(By.ID, "v_carre_points")
