"""The explorer's sweep and find-the-value: the form read into the arguments of
``demos-sim sweep`` / ``demos-sim solve`` (one-line errors on bad input), the jobs played
in the engine (stopped between chunks or values), and the routes through Starlette's
test client: the page shows the very table and answer the library computes."""

from __future__ import annotations

import html as html_text
import re
import time

import pytest

from demos_sim import ConfigError
from demos_sim.explorer.form import read_solve, read_sweep

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx.*")


# ---------------------------------------------------------------- the form
def test_sweep_arguments_from_the_form():
    a = read_sweep({"game": "demos", "sweep_over": "carre_points", "sweep_range": "20:60:10",
                    "sweep_games": "300", "seed": "7", "v_carre_points": "40",
                    "v_favourite_suit_bonus": "5", "bot_1": "random"})
    assert a["values"] == [20, 30, 40, 50, 60]          # STOP included when a step lands on it
    assert a["games"] == 300 and a["seed"] == 7 and a["name"] == "carre_points"
    # the swept rule is left out of the fixed ones; the other changes stay
    assert a["variants"] == {"favourite_suit_bonus": 5}
    assert a["policies"] == ["greedy", "random", "greedy", "greedy"]
    b = read_sweep({"game": "demos", "mode": "2v3", "sweep_over": "handicap_points",
                    "sweep_range": "0,20,45", "v_handicap_points": "10"})
    assert b["values"] == [0, 20, 45] and b["games"] == 2000          # the form's default
    assert "handicap_points" not in b["settings"] and b["settings"]["mode"] == "2v3"


@pytest.mark.parametrize("form,words", [
    ({"sweep_range": ""}, "START:STOP:STEP"),
    ({"sweep_range": "60:20:10"}, "STOP (20) is below START (60)"),
    ({"sweep_range": "forty"}, "'forty' is not a whole number"),
    ({"sweep_range": "40"}, "at least two values"),
    ({"sweep_range": "20:60:10", "sweep_games": "lots"}, "games a value must be a whole"),
    ({"sweep_range": "20:60:10", "sweep_over": "rules"}, "numeric setting"),
    ({"sweep_range": "20:60:10", "v_carre_points": "forty"}, "carre_points"),
])
def test_bad_sweep_input_is_one_line(form, words):
    with pytest.raises(ConfigError) as e:
        read_sweep({"game": "demos", "sweep_over": "carre_points", **form})
    assert words in str(e.value) and "\n" not in str(e.value)


def test_solve_arguments_from_the_form():
    a = read_solve({"game": "demos", "sweep_over": "handicap_points",
                    "solve_target": "2v2+1 fair within 2 pp", "solve_range": "0:80",
                    "sweep_games": "500", "seed": "3"})
    # the target's mode is played (the form's own mode, individual, is left out)
    assert a["settings"]["mode"] == "2v2+1" and a["bounds"] == (0, 80)
    assert a["target"] == "2v2+1 fair within 2 pp" and a["games"] == 500 and a["seed"] == 3
    assert read_solve({"game": "demos", "sweep_over": "handicap_points",
                       "solve_target": "2v3 fair"})["bounds"] is None


@pytest.mark.parametrize("form,words", [
    ({"solve_target": ""}, "give the target"),
    ({"solve_target": "balanced please"}, "expected '[MODE] fair"),
    ({"solve_target": "7v7 fair"}, "mode"),
    ({"solve_target": "2v3 fair", "solve_range": "80:0"}, "HI (0) is below LO (80)"),
    ({"solve_target": "2v3 fair", "solve_range": "0:99999999999"}, "handicap_points takes"),
    # a trial rule outside the modes it applies to: the configuration's own message
    ({"solve_target": "fair"}, "handicap_points"),
])
def test_bad_solve_input_is_one_line(form, words):
    with pytest.raises(ConfigError) as e:
        read_solve({"game": "demos", "sweep_over": "handicap_points", **form})
    assert words in str(e.value) and "\n" not in str(e.value) and "--" not in str(e.value)


# ---------------------------------------------------------------- the engine's jobs
def test_a_search_stops_between_values_when_cancelled():
    from demos_sim.explorer.engine import Job, execute_solve

    args = read_solve({"game": "demos", "sweep_over": "handicap_points",
                       "solve_target": "2v2+1 fair", "sweep_games": "60"})
    job = Job(None, kind="solve", args=args)
    msgs = []

    def emit(m):
        msgs.append(m["type"])
        job.take(m)

    execute_solve(dict(args), emit, lambda: True)
    assert msgs == ["running", "probe", "done"]
    assert job.state == "stopped" and [p["value"] for p in job.probes] == [0]


# ---------------------------------------------------------------- the routes
@pytest.fixture(scope="module")
def client():
    from starlette.testclient import TestClient

    from demos_sim.explorer.app import create_app

    app = create_app(inline=True)
    with TestClient(app, base_url="http://127.0.0.1:8050") as c:
        c.explorer = app.state.explorer
        yield c


def _sid(client, query: str = "") -> str:
    return re.search(r'name="sid" value="([^"]+)"', client.get("/" + query).text).group(1)


def _wait(client, sid, timeout=300.0):
    t = time.monotonic()
    while time.monotonic() - t < timeout:
        html = client.get("/sweep-status", params={"sid": sid}).text
        state = re.search(r'data-state="(\w+)"', html).group(1)
        if state in ("done", "stopped", "error"):
            return state, html
        time.sleep(0.2)
    raise AssertionError("the sweep did not finish")


def test_the_page_has_the_sweep_box_and_keeps_its_fields_in_the_address(client):
    html = client.get("/?game=demos&sweep_over=team_vetoes&sweep_range=0:2"
                      "&solve_target=2v3+fair").text
    assert '<option value="team_vetoes" selected>' in html
    assert 'id="sweep_range" name="sweep_range" value="0:2"' in html
    assert 'name="solve_target" value="2v3 fair"' in html
    prot = client.get("/setup", params={"game": "protocole"}).text
    assert '<option value="level"' in prot and '<option value="carre_points"' not in prot


def test_bad_sweep_input_is_a_message_by_the_run_bar(client):
    html = client.post("/sweep", data={"sid": _sid(client), "game": "demos",
                                       "sweep_over": "carre_points",
                                       "sweep_range": "20:60:0"}).text
    msg = re.search(r'<div id="form-message" class="error" role="alert" '
                    r'hx-swap-oob="true">([^<]*)</div>', html)
    assert msg and "the step must be a whole number >= 1" in html_text.unescape(msg.group(1))
    assert 'id="sweep-message"' in html and "Traceback" not in html
    html = client.post("/solve", data={"sid": _sid(client), "game": "demos",
                                       "sweep_over": "handicap_points",
                                       "solve_target": "fair-ish"}).text
    assert "expected &#39;[MODE] fair" in html


def test_a_sweep_shows_the_table_of_demos_sim_sweep(client):
    import pandas as pd

    from demos_sim.analysis.core.sweep import plan_sweep, run_sweep

    sid = _sid(client)
    form = {"sid": sid, "game": "demos", "sweep_over": "carre_points",
            "sweep_range": "20,40,60", "sweep_games": "80", "seed": "5"}
    assert 'hx-trigger="every 500ms"' in client.post("/sweep", data=form).text
    state, html = _wait(client, sid)
    assert state == "done", html[:500]
    job = client.explorer().sessions[sid].sweep
    ref = run_sweep(plan_sweep("demos", "carre_points", [20, 40, 60],
                               {"rules": "full", "mode": "individual"}, games=80, seed=5))
    pd.testing.assert_frame_equal(pd.DataFrame(job.rows), ref.table, check_dtype=False)
    assert 'id="sweep-plot"' in html and "data:image/png;base64,iVBOR" in html
    sentence = re.search(r'id="sweep-sentence">([^<]*)<', html).group(1)
    assert sentence.startswith("carre_points from 20 to 60 (3 values, each against "
                               "carre_points = 20 on the same 80 deals)")
    # shares in %, their changes in pp (the no-winner row at 40, from the library's table)
    r = ref.table[(ref.table.metric == "no_winner") & (ref.table.value == 40)].iloc[0]
    assert f"{100 * r['mean']:.2f}%" in html and f"{100 * r['diff']:+.2f} pp" in html


def test_find_the_value_shows_each_probe_and_the_confirmed_answer(client):
    from demos_sim.analysis.core.solve import format_solution, parse_target, solve

    sid = _sid(client)
    form = {"sid": sid, "game": "demos", "sweep_over": "handicap_points",
            "solve_target": "2v2+1 fair within 20 pp", "solve_range": "0:8",
            "sweep_games": "200", "seed": "0"}
    client.post("/solve", data=form)
    state, html = _wait(client, sid)
    assert state == "done", html[:500]
    sol = solve("demos", "handicap_points", parse_target("2v2+1 fair within 20 pp"),
                {"rules": "full"}, games=200, seed=0, bounds=(0, 8))
    job = client.explorer().sessions[sid].sweep
    played = [(p.value, p.verdict) for p in sol.probes] + [(sol.value, sol.confirm.verdict)]
    assert [(p["value"], p["verdict"]) for p in job.probes] == played
    assert [p["fresh"] for p in job.probes] == [False] * len(sol.probes) + [True]
    answer = format_solution(sol, "DĒMOS").split("\n\n")[0].splitlines()[0]
    assert answer.endswith(f"is {sol.value}.")
    shown = re.search(r'id="solve-answer">(.*?)<br>', html).group(1)
    assert shown == answer.replace("'", "&#39;")


def test_a_search_that_cannot_meet_its_target_says_so(client):
    sid = _sid(client)
    client.post("/solve", data={"sid": sid, "game": "demos", "sweep_over": "handicap_points",
                                "solve_target": "2v2+1 fair within 0.1 pp",
                                "solve_range": "0:2", "sweep_games": "60"})
    state, html = _wait(client, sid)
    assert state == "done"
    assert "no handicap_points from 0 to 2 makes" in html


def test_stop_a_new_sweep_or_a_quiet_page_stops_the_sweep(client, monkeypatch):
    import demos_sim.explorer.app as app_mod

    sid = _sid(client)
    long = {"sid": sid, "game": "demos", "sweep_over": "carre_points",
            "sweep_range": "20,40", "sweep_games": "400000"}
    client.post("/sweep", data=long)
    first = client.explorer().sessions[sid].sweep
    # a search from the same page replaces it
    client.post("/solve", data={"sid": sid, "game": "demos", "sweep_over": "handicap_points",
                                "solve_target": "2v3 fair", "solve_range": "0:1",
                                "sweep_games": "400000"})
    second = client.explorer().sessions[sid].sweep
    assert second is not first and first.cancel_requested
    assert first.cancel_reason == "a new sweep or search from the same page"
    html = client.post("/sweep-stop", data={"sid": sid}).text
    assert second.cancel_reason == "stopped from the page"
    state, html = _wait(client, sid)
    assert state == "stopped" and "Stopped (stopped from the page)" in html
    assert first.state == "stopped" and first.games < 400000
    # a page that stops polling has its sweep stopped
    monkeypatch.setattr(app_mod, "HEARTBEAT_S", 1.0)
    client.post("/sweep", data=long)
    job = client.explorer().sessions[sid].sweep
    t = time.monotonic()
    while job.active and time.monotonic() - t < 120:      # no /sweep-status: the page is gone
        time.sleep(0.2)
    assert job.state == "stopped" and job.cancel_reason == "the page stopped polling"
    assert job.games < 400000
