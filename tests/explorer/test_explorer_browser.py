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
from browserkit import browser_or_skip, chrome, viewport

from demos_sim.runner.experiment import loads_experiment
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
                urllib.request.urlopen(url, timeout=600).read()
                break
            except OSError:
                # the first page loads every bot (numba compiles the kernels of a cold
                # cache: minutes on a busy 2-core machine)
                if proc.poll() is not None or time.monotonic() - t > 600:
                    proc.kill()                  # its output ends only when it has ended
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

    _settled(drv)
    el = drv.find_element(By.ID, element_id)
    el.clear()
    el.send_keys(value)
    drv.execute_script("arguments[0].dispatchEvent(new Event('change', {bubbles: true}))", el)
    _settled(drv)


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
    exp = loads_experiment(toml, tmp_path / "whatif.toml")
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


# ---------------------------------------------------------------- every answer in the page
SHOTS = Path(os.environ.get("DEMOS_SIM_SHOTS", ARTIFACTS))


def _shot(drv, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert drv.save_screenshot(str(SHOTS / f"{name}.png"))


def _settled(drv) -> None:
    """Wait until htmx has no request, swap or settle in progress (a picker that changes
    redraws the seats: an element found before that would be stale)."""
    from selenium.webdriver.support.ui import WebDriverWait

    time.sleep(0.05)
    WebDriverWait(drv, 30).until(lambda d: d.execute_script(
        "return !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"))


def _select(drv, element_id: str, value: str, wait_for: str | None = None) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    _settled(drv)
    Select(drv.find_element(By.ID, element_id)).select_by_value(value)
    _settled(drv)
    if wait_for:
        WebDriverWait(drv, 30).until(lambda d: d.find_elements(By.ID, wait_for))
    _settled(drv)


def _run_to_end(drv, timeout: float = 240) -> str:
    from selenium.webdriver.common.by import By

    drv.find_element(By.ID, "run").click()
    t = time.monotonic()
    time.sleep(0.3)
    while time.monotonic() - t < timeout and _state(drv) not in ("done", "stopped", "error"):
        time.sleep(0.2)
    return _state(drv)


def _figures(drv) -> str:
    return drv.execute_script("return document.getElementById('figures').textContent")


def _message(drv) -> str:
    """The one-line message by the Run bar, once it has one; it must be visible (read in
    one script: the message is swapped in, an element found before would be stale)."""
    from selenium.webdriver.support.ui import WebDriverWait

    text, shown = WebDriverWait(drv, 30).until(lambda d: d.execute_script(
        "const m = document.getElementById('form-message'); const r = m.getBoundingClientRect();"
        "return m.textContent.trim() ? [m.textContent.trim(), m.offsetParent !== null"
        " && r.height > 0 && getComputedStyle(m).visibility === 'visible'] : null;"))
    assert shown, text
    return text


def test_a_2v3_handicap_run_shared_by_url_and_downloaded(page, server):
    """The README's fix in 2v3: handicap_points 40 (a trial rule) on this setup only, the
    seat pickers still there; the address reproduces the run; the result downloads."""
    from selenium.webdriver.common.by import By

    drv = page
    viewport(drv, 1280, 800)
    drv.get(server)
    _select(drv, "s_mode", "2v3", wait_for="bot_4")
    _set(drv, "v_handicap_points", "40")
    _set(drv, "games", str(CHUNK))
    _set(drv, "half_width", "")
    _set(drv, "seed", "11")
    assert _run_to_end(drv) == "done", drv.find_element(By.ID, "results").text
    assert drv.find_elements(By.ID, "bot_4") and drv.find_elements(By.ID, "r_bot_4")
    assert "handicap_points=40" in drv.find_element(By.ID, "results").text
    table = _figures(drv)
    _shot(drv, "explorer_2v3_handicap_1280")
    shared = drv.current_url
    assert "v_handicap_points=40" in shared and "mode=2v3" in shared and "run=1" in shared

    # downloads: the links the page shows, fetched by the browser
    csv_link = drv.find_element(By.ID, "download-csv")
    assert csv_link.get_attribute("download") == "whatif.csv"
    doc = drv.execute_async_script(
        "const done = arguments[0]; fetch(document.getElementById('download-json').href)"
        ".then(r => r.json()).then(done);")
    assert doc["contract"] == 2 and doc["setup"]["seed"] == 11 and doc["games"] == CHUNK
    assert doc["setup"]["this_setup"]["trial_rules"] == {"handicap_points": 40}
    assert doc["setup"]["reference"]["trial_rules"] == {}
    assert doc["setup"]["settings"] == {"rules": "full", "mode": "2v3"}
    csv_text = drv.execute_async_script(
        "const done = arguments[0]; fetch(document.getElementById('download-csv').href)"
        ".then(r => r.text()).then(done);")
    head, *lines = csv_text.strip().splitlines()
    assert head.startswith("contract,version,game,seed,games,reference,change,metric")
    assert len(lines) == len(doc["rows"]) and all(l.startswith("2,") for l in lines)

    # a fresh page at the shared address: the same form, run at once, the same figures
    drv.get("about:blank")
    drv.get(shared)
    assert drv.find_element(By.ID, "s_mode").get_attribute("value") == "2v3"
    assert drv.find_element(By.ID, "v_handicap_points").get_attribute("value") == "40"
    assert drv.find_element(By.ID, "seed").get_attribute("value") == "11"
    t = time.monotonic()
    while _state(drv) not in ("done", "error") and time.monotonic() - t < 240:
        time.sleep(0.2)
    assert _state(drv) == "done"
    assert _figures(drv) == table


def test_restricted_bots_and_budgets_in_the_pickers(page, server):
    from selenium.webdriver.common.by import By

    drv = page
    viewport(drv, 1280, 800)
    drv.get(server)
    _select(drv, "bot_1", "greedy", wait_for="bot_1_flag")
    _select(drv, "bot_1_flag", "noveto")
    _select(drv, "r_bot_2", "ismcts", wait_for="r_bot_2_budget")      # a budget field
    assert not drv.find_elements(By.ID, "bot_1_budget")                # greedy takes none
    _set(drv, "r_bot_2_budget", "lots")
    drv.find_element(By.ID, "run").click()
    msg = _message(drv)
    assert "budget" in msg and "lots" in msg and "\n" not in msg.strip()
    # an idle restricted form is refused with the rule that would enable it (D6.2)
    _select(drv, "r_bot_2", "", wait_for="r_bot_all")
    _select(drv, "bot_1_flag", "nomedia")
    drv.find_element(By.ID, "run").click()
    assert "D6.2" in _message(drv)
    _select(drv, "bot_1_flag", "noveto")
    _set(drv, "games", str(CHUNK))
    _set(drv, "half_width", "")
    # the reference plays this setup's bots unless given its own: the same bots are
    # nothing to compare; greedy in every seat of the reference is the veto's worth
    drv.find_element(By.ID, "run").click()
    assert "nothing to compare" in _message(drv)
    _select(drv, "r_bot_all", "greedy")
    assert _run_to_end(drv) == "done", drv.find_element(By.ID, "results").text
    assert "greedy:noveto" in drv.find_element(By.ID, "results").text
    assert "bot_1_flag=noveto" in drv.current_url


def test_a_word_in_a_number_field_is_a_visible_message(page, server):
    from selenium.webdriver.common.by import By

    drv = page
    viewport(drv, 1280, 800)
    drv.get(server)
    _set(drv, "v_carre_points", "forty")
    drv.find_element(By.ID, "run").click()
    msg = _message(drv)
    assert "carre_points" in msg and "forty" in msg and "nothing to compare" not in msg
    _set(drv, "v_carre_points", "30")
    _select(drv, "s_mode", "2v3", wait_for="bot_4")
    _set(drv, "v_handicap_points", "forty")
    drv.find_element(By.ID, "run").click()
    assert "handicap_points" in _message(drv)
    assert drv.find_elements(By.ID, "bot_4")                 # the pickers stay


def test_a_replay_shows_hands_decisions_with_reasons_and_the_swing(page, server):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    drv = page
    viewport(drv, 1280, 800)
    drv.get(server)
    _set(drv, "v_carre_points", "40")
    _set(drv, "seed", "3")
    drv.find_element(By.ID, "replay-btn").click()
    panel = WebDriverWait(drv, 90).until(lambda d: d.find_element(By.ID, "replay-panel"))
    assert "hands at the showdown: seat 0:" in panel.text
    swing = drv.find_element(By.ID, "swing")
    assert "swung in round" in swing.text
    swung = drv.find_elements(By.CSS_SELECTOR, "li.swung")
    assert len(swung) == 1
    drv.execute_script("document.querySelectorAll('details.decisions')"
                       ".forEach(d => d.open = true)")
    first = drv.find_element(By.ID, "decisions-1")
    assert "(greedy), public discard (D3.2) — hand" in first.text
    assert "values: " in first.text and "best combination" in first.text
    drv.execute_script("arguments[0].scrollIntoView()", first)
    _shot(drv, "explorer_replay_1280")


def _overlaps(drv) -> list:
    """Pairs of visible fields, buttons and labels of the form whose boxes intersect."""
    return drv.execute_script("""
      const sel = '#setup input:not([type=hidden]), #setup select, #setup button, #setup label';
      const els = [...document.querySelectorAll(sel)].filter(e => e.offsetParent !== null);
      const r = els.map(e => e.getBoundingClientRect());
      const out = [];
      for (let i = 0; i < els.length; i++) for (let j = i + 1; j < els.length; j++) {
        const a = r[i], b = r[j];
        if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1
            && !els[i].contains(els[j]) && !els[j].contains(els[i])
            && !(els[i].tagName === 'LABEL' && els[i].htmlFor === els[j].id)
            && !(els[j].tagName === 'LABEL' && els[j].htmlFor === els[i].id))
          out.push([els[i].id || els[i].textContent, els[j].id || els[j].textContent]);
      }
      return out;""")


def test_no_overlap_at_1280_and_no_sideways_scroll_at_390(page, server):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    drv = page
    viewport(drv, 1280, 800)
    drv.get(server + "?game=demos&mode=2v3&bot_1=ismcts&bot_1_flag=noveto&r_bot_all=greedy")
    # every variant visible, no box of 4 of 19: each row of the rules has its height
    names = get_game_names(drv)
    assert len(names) == 18 + 2              # Part V's DĒMOS variants + the 2 trial rules
    for y in range(0, drv.execute_script("return document.body.scrollHeight"), 600):
        drv.execute_script(f"window.scrollTo(0, {y})")
        assert _overlaps(drv) == [], y
    _set(drv, "games", str(CHUNK))
    _set(drv, "half_width", "")
    _select(drv, "bot_1", "greedy", wait_for="bot_1_flag")
    assert _run_to_end(drv) == "done"
    drv.execute_script("window.scrollTo(0, 0)")
    _shot(drv, "explorer_1280")
    viewport(drv, 390, 844)
    drv.find_element(By.ID, "replay-btn").click()
    WebDriverWait(drv, 90).until(lambda d: d.find_element(By.ID, "replay-panel"))
    drv.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")
    scroll, client = drv.execute_script(
        "const d = document.documentElement; return [d.scrollWidth, d.clientWidth];")
    assert client <= 390 and scroll <= client, (scroll, client)
    drv.execute_script("window.scrollTo(0, 0)")
    _shot(drv, "explorer_390")
    drv.execute_script("document.getElementById('results').scrollIntoView()")
    _shot(drv, "explorer_390_results")


def get_game_names(drv) -> list[str]:
    """The rules the page lists, each visible (a box of its own height in the page)."""
    return drv.execute_script("""
      return [...document.querySelectorAll('#rules tr[id^=row-]')]
        .filter(tr => tr.getBoundingClientRect().height > 10
                && getComputedStyle(tr).visibility === 'visible')
        .map(tr => tr.id.slice(4));""")


def _tool_to_end(drv, button: str, timeout: float = 300) -> str:
    """Press the sweep's or the search's button and wait for its panel to finish."""
    from selenium.webdriver.common.by import By

    _settled(drv)
    drv.find_element(By.ID, button).click()
    time.sleep(0.3)
    state = lambda: drv.execute_script(          # noqa: E731
        "return document.getElementById('sweep-results').dataset.state")
    t = time.monotonic()
    while time.monotonic() - t < timeout and state() not in ("done", "stopped", "error"):
        time.sleep(0.2)
    return state()


def test_a_sweep_and_a_find_the_value(page, server):
    """A tiny sweep (carre_points 20 and 40, 60 games a value) shows its verdict, its
    curves and its table; a tiny search (handicap_points 0 to 8 for '2v2+1 fair within
    20 pp', 200 games a value) shows each value played and the answer confirmed on fresh
    deals; a bad range is one visible line; the address keeps the fields."""
    from selenium.webdriver.common.by import By

    drv = page
    viewport(drv, 1280, 800)
    drv.get(server)
    _set(drv, "sweep_range", "forty")
    drv.find_element(By.ID, "sweep-btn").click()
    msg = _message(drv)
    assert "carre_points" in msg and "forty" in msg
    _select(drv, "sweep_over", "carre_points")
    _set(drv, "sweep_range", "20,40")
    _set(drv, "sweep_games", "60")
    assert _tool_to_end(drv, "sweep-btn") == "done", \
        drv.find_element(By.ID, "sweep-results").text
    sentence = drv.find_element(By.ID, "sweep-sentence").text
    assert sentence.startswith("carre_points from 20 to 40 (2 values, each against "
                               "carre_points = 20 on the same 60 deals)"), sentence
    w, h = drv.execute_script("const i = document.getElementById('sweep-plot');"
                              "return [i.naturalWidth, i.getBoundingClientRect().height];")
    assert w > 300 and h > 100
    table = drv.execute_script("return document.getElementById('sweep-table').textContent")
    assert "win share" in table and "%" in table and " pp" in table
    assert "sweep_range=20%2C40" in drv.current_url and "sweep_games=60" in drv.current_url
    drv.execute_script("document.getElementById('sweep-results').scrollIntoView()")
    _shot(drv, "explorer_sweep_1280")

    _select(drv, "sweep_over", "handicap_points")
    _set(drv, "solve_target", "2v2+1 fair within 20 pp")
    _set(drv, "solve_range", "0:8")
    _set(drv, "sweep_games", "200")
    assert _tool_to_end(drv, "solve-btn") == "done", \
        drv.find_element(By.ID, "sweep-results").text
    answer = drv.find_element(By.ID, "solve-answer").text
    assert "the smallest handicap_points from 0 to 8 that makes" in answer, answer
    assert "On fresh deals (seed 1000003, 400 games)" in answer
    rows = drv.find_elements(By.CSS_SELECTOR, "#solve-probes tr")
    assert len(rows) >= 3 and "fresh" in rows[-1].text
    assert "solve_target=2v2%2B1+fair+within+20+pp" in drv.current_url
    drv.execute_script("document.getElementById('sweep-results').scrollIntoView()")
    _shot(drv, "explorer_solve_1280")
    viewport(drv, 390, 844)                  # the results fit a phone: no sideways scroll
    drv.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")
    scroll, client = drv.execute_script(
        "const d = document.documentElement; return [d.scrollWidth, d.clientWidth];")
    assert client <= 390 and scroll <= client, (scroll, client)
    drv.execute_script("document.getElementById('sweep-results').scrollIntoView()")
    _shot(drv, "explorer_solve_390")
