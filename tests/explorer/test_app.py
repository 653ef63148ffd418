"""The explorer's endpoints through Starlette's test client (runs played in a thread of
this process): the form is the game's variants with their defaults and rule IDs; a run's
figures are exactly those of ``demos-sim compare`` (whatif.compare) with the same setup;
bad input is a message, never a traceback; a second run cancels the first; a page that
stops polling has its run stopped; the export is an experiment file the runner reads;
the replay is the game record's."""

from __future__ import annotations

import re
import time

import pandas as pd
import pytest

from demos_sim.analysis.core.whatif import compare
from demos_sim.game import get_game
from demos_sim.runner.experiment import load_experiment
from demos_sim.sim_common import CHUNK

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx.*")


@pytest.fixture(scope="module")
def client():
    from starlette.testclient import TestClient

    from demos_sim.explorer.app import create_app

    app = create_app(inline=True)
    with TestClient(app, base_url="http://127.0.0.1:8050") as c:   # serve()'s own Host
        c.explorer = app.state.explorer
        yield c


def _sid(client) -> str:
    return re.search(r'name="sid" value="([^"]+)"', client.get("/").text).group(1)


def _wait(client, sid, timeout=120.0):
    t = time.monotonic()
    while time.monotonic() - t < timeout:
        html = client.get("/status", params={"sid": sid}).text
        state = re.search(r'data-state="(\w+)"', html).group(1)
        if state in ("done", "stopped", "error"):
            return state, html
        time.sleep(0.2)
    raise AssertionError("the run did not finish")


def test_page_has_every_variant_with_its_default_and_rule_id(client):
    html = client.get("/").text
    g = get_game("demos")
    for name, help_line in g.variant_help().items():
        assert f'id="v_{name}"' in html and f'id="r_{name}"' in html
        rule = help_line.split()[0]
        assert f'<span class="rule">{rule}</span>' in html
    assert 'id="v_carre_points" name="v_carre_points" value="30" data-default="30"' in html
    assert "/static/htmx.min.js" in html and "cdn" not in html.lower()
    js = client.get("/static/htmx.min.js")
    assert js.status_code == 200 and js.text.startswith("var htmx")


def test_setup_and_seats_follow_the_game_and_mode(client):
    html = client.get("/setup", params={"game": "protocole", "sid": "x"}).text
    assert 'id="v_standard_tie"' in html and 'id="v_carre_points"' not in html
    assert '<option value="coop">' in html
    seats = client.get("/seats", params={"game": "demos", "mode": "2v3"}).text
    assert 'id="bot_4"' in seats and 'id="bot_5"' not in seats          # D9.1: 2v3 is 5 seats
    bad = client.get("/seats", params={"game": "demos", "players": "9"}).text
    assert 'class="error"' in bad and 'id="bot_0"' not in bad


def test_a_run_shows_exactly_the_figures_of_compare(client):
    sid = _sid(client)
    games = 2 * CHUNK + 50
    form = {"sid": sid, "game": "protocole", "players": "3", "v_standard_tie": "discard_all",
            "games": str(games), "half_width": "", "seed": "5"}
    first = client.post("/run", data=form).text
    assert 'hx-trigger="every 500ms"' in first                        # polls while it runs
    state, html = _wait(client, sid)
    assert state == "done"
    assert f'id="games-done">{games:,}<' in html
    assert 'id="chart-share"' in html and 'id="chart-length"' in html
    assert "hx-trigger" not in html                                   # polling ends with the run
    job = client.explorer().sessions[sid].job
    ref = compare("protocole", {}, 3, {"standard_tie": "discard_all"}, games=games, seed=5)
    pd.testing.assert_frame_equal(pd.DataFrame(job.rows), ref.table, check_dtype=False)
    # each setup's win share and its interval: those of the runner's table
    res = ref.run.results
    r = res[(res.point == 1) & (res.metric == "win_share") & (res.side == "0")].iloc[0]
    assert job.cis["1|win_share|0"] == pytest.approx([r["mean"], r["ci_low"], r["ci_high"]])


@pytest.mark.parametrize("form,words", [
    ({"game": "demos", "v_carre_points": "-3"}, "carre_points"),
    ({"game": "demos", "players": "9"}, "players"),
    ({"game": "demos", "v_carre_points": "40", "half_width": "wide"}, "target interval"),
    ({"game": "demos", "games": "0", "v_carre_points": "40"}, "games"),
    ({"game": "demos"}, "nothing to compare"),
    ({"game": "demos", "v_carre_points": "40", "bot_0": "nobody"}, "nobody"),
    ({"game": "chess"}, "unknown game"),
])
def test_bad_input_is_a_message_not_a_traceback(client, form, words):
    html = client.post("/run", data={"sid": _sid(client), **form}).text
    msg = re.search(r'<div class="error" id="message">([^<]*)</div>', html)
    assert msg and words in msg.group(1), html[:400]
    assert "Traceback" not in html


def test_bots_by_seat_fill_in_from_all_seats_then_the_game_default():
    from demos_sim.explorer.form import read_form

    s = read_form({"game": "demos", "bot_1": "random"})
    assert s.policies == ["greedy", "random", "greedy", "greedy"]
    s = read_form({"game": "protocole", "mode": "coop", "level": "1", "bot_0": "random",
                   "r_bot_all": "planner"})
    assert s.policies == ["random", "convention", "convention", "convention"]   # P5 default
    assert s.against_policies == ["planner"]
    assert read_form({"game": "demos", "bot_all": "search"}).policies == ["search"]


def test_a_second_run_cancels_the_first(client):
    sid = _sid(client)
    long = {"sid": sid, "game": "demos", "v_carre_points": "40", "games": "400000",
            "half_width": ""}
    client.post("/run", data=long)
    first = client.explorer().sessions[sid].job
    t = time.monotonic()
    while first.games == 0 and time.monotonic() - t < 120:
        client.get("/status", params={"sid": sid})
        time.sleep(0.2)
    client.post("/run", data={**long, "games": "100"})
    second = client.explorer().sessions[sid].job
    assert second is not first and first.cancel_requested
    state, html = _wait(client, sid)
    assert first.state == "stopped" and first.games < 400000
    assert state == "done" and second.games == 100


def test_a_page_that_stops_polling_has_its_run_stopped(client, monkeypatch):
    import demos_sim.explorer.app as app_mod

    monkeypatch.setattr(app_mod, "HEARTBEAT_S", 1.0)
    sid = _sid(client)
    client.post("/run", data={"sid": sid, "game": "demos", "v_carre_points": "40",
                              "games": "400000", "half_width": ""})
    job = client.explorer().sessions[sid].job
    t = time.monotonic()
    while job.active and time.monotonic() - t < 120:      # no /status: the page is gone
        time.sleep(0.2)
    assert job.state == "stopped" and job.cancel_reason == "the page stopped polling"
    assert job.games < 400000


def _export(client, form, tmp_path):
    html = client.post("/export", data={"sid": "x", **form}).text
    m = re.search(r'<pre class="toml" id="toml">(.*?)</pre>', html, re.S)
    assert m, html[:300]
    import html as h

    path = tmp_path / "whatif.toml"
    path.write_text(h.unescape(m.group(1)))
    return load_experiment(path)


def test_export_is_an_experiment_the_runner_reads(client, tmp_path):
    exp = _export(client, {"game": "demos", "v_carre_points": "40", "games": "5000",
                           "half_width": "0.5", "seed": "7"}, tmp_path)
    assert [p.values for p in exp.points] == [{"carre_points": 30}, {"carre_points": 40}]
    assert exp.points[1].ref == 0 and exp.seed == 7
    assert exp.stop.half_width == pytest.approx(0.005) and exp.stop.max_games == 5000
    # a reference of its own and other bots: the variant fixed on both sides is a
    # [variants] entry, the policies a grid key (reference first)
    exp = _export(client, {"game": "protocole", "players": "3", "mode": "each",
                           "v_round_cap": "50", "r_round_cap": "50",
                           "v_standard_tie": "discard_all", "bot_all": "random",
                           "r_bot_all": "cautious", "games": "300", "half_width": ""},
                  tmp_path)
    assert exp.games == 300 and exp.stop is None
    assert all(p.config.variants["round_cap"] == 50 for p in exp.points)
    base, new = exp.points[0], exp.points[-1]
    assert base.policies == ("cautious",) * 3 and new.policies == ("random",) * 3
    assert base.config.variants["standard_tie"] == "keep_tied"
    assert new.config.variants["standard_tie"] == "discard_all"
    # D3.3: secret_optional's null default is written as its value in force (simplified
    # rules: false), which TOML can hold
    exp = _export(client, {"game": "demos", "rules": "simplified", "players": "3",
                           "v_secret_optional": "true", "games": "300", "half_width": ""},
                  tmp_path)
    assert [p.values for p in exp.points] == [{"secret_optional": False},
                                              {"secret_optional": True}]
    bad = client.post("/export", data={"sid": "x", "game": "demos"}).text
    assert "nothing to export" in bad


@pytest.mark.parametrize("game,players", [("demos", 4), ("protocole", 4), ("assemblee", 6)])
def test_replay_reads_the_game_record(client, game, players):
    g = get_game(game)
    cfg = g.make_config({}, players, {})
    rec = next(iter(g.iter_records(cfg, [g.default_policies(cfg)] * players, 1, 3)))
    other = {"demos": {"v_carre_points": "40"}, "protocole": {"v_round_cap": "90"},
             "assemblee": {"v_rounds": "9"}}[game]
    html = client.post("/replay", data={"game": game, "players": str(players), "seed": "3",
                                        "sample_of": "reference", **other}).text
    assert html.count("<b>Round ") == len(rec["rounds"])
    winners = (rec.get("final") or rec.get("result"))["winners"]
    final = re.search(r'<ul id="replay-final">(.*?)</ul>', html, re.S).group(1)
    assert "winner: " + (", ".join(f"seat {w}" for w in winners) or "nobody") in final


def test_export_refuses_a_value_past_the_maximum(client):
    """Once exported as "Checked: demos-sim run reads it", then an OverflowError in run."""
    html = client.post("/export", data={"sid": "x", "game": "demos",
                                        "v_carre_points": "99999999999999999999999999"}).text
    assert "carre_points is at most 1000000" in html
    assert 'id="toml"' not in html


@pytest.mark.parametrize("raw", ["²", "٣", "-1", "1000"])   # superscript two, Arabic three
def test_replay_refuses_a_sample_number_that_is_not_0_to_999(client, raw):
    html = client.post("/replay", data={"game": "demos", "v_carre_points": "40",
                                        "sample": raw}).text
    assert "sample game must be a number from 0 to 999" in html, html[:300]
    assert "something went wrong" not in html


@pytest.mark.parametrize("hw", ["inf", "nan", "0", "-1"])
def test_export_refuses_a_target_interval_that_is_not_finite_and_positive(client, hw):
    html = client.post("/export", data={"sid": "x", "game": "demos", "v_carre_points": "40",
                                        "half_width": hw}).text
    assert "target interval must be a finite number &gt; 0" in html, html[:300]
