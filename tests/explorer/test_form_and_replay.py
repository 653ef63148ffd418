"""The explorer's form reads values as ``--set`` does, bots as policy specs, and the
replay's reasons and swing (no browser: the form's functions, the app through
Starlette's test client, and one DĒMOS game played again with its decisions kept)."""

from __future__ import annotations

import csv
import io
import json
import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from demos_sim import ConfigError
from demos_sim.explorer import form as F
from demos_sim.game import get_game, parse_set

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx.*")


@given(st.one_of(st.integers(-10**6, 10**6), st.booleans(), st.none(),
                 st.text(alphabet="abcxyz_", min_size=1, max_size=8),
                 st.lists(st.integers(0, 99), max_size=3)))
@settings(max_examples=80, deadline=None)
def test_the_form_reads_a_value_as_set_does(value):
    raw = value if isinstance(value, str) else json.dumps(value)
    assert F.typed("carre_points", raw) == parse_set([f"carre_points={raw}"])["carre_points"]
    assert not hasattr(F, "parse_value")           # one parser: game.parse_set


def test_a_2v3_handicap_is_a_number_on_this_setup_only():
    s = F.read_form({"game": "demos", "mode": "2v3", "v_handicap_points": "40",
                     "v_team_vetoes": "3"})
    assert s.trial == {"handicap_points": 40} and s.against_trial == {}
    assert s.change == {"team_vetoes": 3}
    args = s.plan_args()
    assert args["settings"] == {"mode": "2v3", "handicap_points": 40}
    assert args["against_settings"] == {"mode": "2v3"}
    assert s.config("change").handicap_points == 40 and s.config("against").handicap_points == 0
    from demos_sim.analysis.core.whatif import plan

    p = plan(**args)
    assert p.change == "handicap_points=40, team_vetoes=3"
    assert p.reference == "contract defaults"


@pytest.mark.parametrize("form,words", [
    ({"game": "demos", "mode": "2v3", "v_handicap_points": "forty"},
     "handicap_points (this setup): must be an integer >= 0, got 'forty'"),
    ({"game": "demos", "v_carre_points": "forty"}, "'forty' (this setup)"),
    ({"game": "demos", "r_carre_points": "-1"}, "(the reference)"),
    ({"game": "demos", "bot_0": "greedy", "bot_0_flag": "nomedia"}, "D6.2"),
    ({"game": "demos", "bot_0": "greedy", "bot_0_flag": "nosuch"}, "no restricted form"),
    ({"game": "demos", "r_bot_2": "ismcts", "r_bot_2_budget": "lots"},
     "the budget 'lots' is not a whole number"),
    ({"game": "demos", "bot_1": "greedy", "bot_1_budget": "8"}, "takes no @N budget"),
    ({"game": "demos", "bot_3_flag": "noveto"}, "seat 3 of this setup: choose a bot"),
])
def test_bad_values_and_bots_are_one_line(form, words):
    with pytest.raises(ConfigError) as e:
        F.read_form(form)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_pickers_write_specs_and_the_reference_falls_back_seat_by_seat():
    s = F.read_form({"game": "demos", "bot_all": "greedy", "bot_all_flag": "noveto",
                     "bot_2": "ismcts", "bot_2_budget": "8", "r_bot_1": "random"})
    assert s.specs("change") == ["greedy:noveto", "greedy:noveto", "ismcts@8",
                                 "greedy:noveto"]
    assert s.specs("against") == ["greedy:noveto", "random", "ismcts@8", "greedy:noveto"]


def test_every_variant_is_in_a_group_of_its_rule_part():
    for game in ("demos", "protocole", "assemblee"):
        g = get_game(game)
        groups = F.rule_groups(g)
        names = [f.name for _, fs in groups for f in fs]
        assert sorted(names) == sorted([*g.variant_names(), *g.trial_rules()])
        for title, fs in groups:
            for f in fs:
                if f.rule:
                    assert title.startswith(F.part_of(f.rule) + " ")
                    assert f.rule in g.variant_help()[f.name]
    assert F.part_of("D9.5/D9.6") == "D9" and F.part_of("X2") == "X"
    assert F.part_of("P3.1a") == "P3" and F.part_of("A5.2/A5.3") == "A5"


def test_the_export_makes_a_one_sided_trial_rule_a_grid_key(tmp_path):
    from demos_sim.runner.experiment import load_experiment

    s = F.read_form({"game": "demos", "mode": "2v3", "v_handicap_points": "40",
                     "games": "300", "half_width": ""})
    path = tmp_path / "whatif.toml"
    path.write_text(F.to_toml(s))
    exp = load_experiment(path)
    assert [p.values for p in exp.points] == [{"handicap_points": 0},
                                              {"handicap_points": 40}]


@pytest.fixture(scope="module")
def client():
    from starlette.testclient import TestClient

    from demos_sim.explorer.app import create_app

    app = create_app(inline=True)
    with TestClient(app, base_url="http://127.0.0.1:8050") as c:
        c.explorer = app.state.explorer
        yield c


def test_a_shared_address_fills_the_form(client):
    html = client.get("/", params={"game": "demos", "mode": "2v3", "v_handicap_points": "40",
                                   "bot_1": "ismcts", "bot_1_budget": "16",
                                   "bot_1_flag": "noveto", "seed": "9", "run": "1"}).text
    assert '<option value="2v3" selected>' in html
    assert 'id="v_handicap_points" name="v_handicap_points" value="40"' in html
    assert 'id="bot_1_budget" name="bot_1_budget" value="16"' in html
    assert '<option value="noveto" selected>' in html
    assert 'id="seed" name="seed" value="9"' in html
    assert 'htmx.trigger("#run", "click")' in html                      # run=1 runs it
    assert 'htmx.trigger("#run"' not in client.get("/").text


def test_the_seat_pickers_stay_when_a_trial_rule_is_bad(client):
    html = client.get("/seats", params={"game": "demos", "mode": "2v3",
                                        "v_handicap_points": "forty"}).text
    assert 'id="bot_4"' in html and 'id="r_bot_4"' in html


def test_downloads_carry_the_seed_setup_and_contract(client):
    sid = re.search(r'name="sid" value="([^"]+)"', client.get("/").text).group(1)
    assert client.get("/result.json", params={"sid": sid}).status_code == 404
    client.post("/run", data={"sid": sid, "game": "protocole", "players": "3",
                              "v_standard_tie": "discard_all", "games": "300",
                              "half_width": "", "seed": "4"})
    t = time.monotonic()
    while client.explorer().sessions[sid].job.active and time.monotonic() - t < 120:
        time.sleep(0.2)
    job = client.explorer().sessions[sid].job
    doc = client.get("/result.json", params={"sid": sid}).json()
    assert doc["contract"] == 2 and doc["games"] == 300 and doc["setup"]["seed"] == 4
    assert doc["setup"]["this_setup"]["variants"] == {"standard_tie": "discard_all"}
    assert doc["rows"] == json.loads(json.dumps(job.rows))
    rows = list(csv.DictReader(io.StringIO(client.get("/result.csv",
                                                      params={"sid": sid}).text)))
    assert len(rows) == len(job.rows)
    assert {r["seed"] for r in rows} == {"4"} and {r["contract"] for r in rows} == {"2"}
    assert [float(r["diff"]) for r in rows] == pytest.approx([r["diff"] for r in job.rows])


def test_greedy_reasons_explain_its_choices_and_the_game_is_the_record():
    from demos_sim.demos.decisions import play_decisions

    g = get_game("demos")
    for mode, players in (("individual", 4), ("2v3", None)):
        cfg = g.make_config({"mode": mode}, players, {})
        n = g.players_of(cfg)
        specs = ["greedy", "greedy:noveto", "heuristic"] + ["greedy"] * (n - 3)
        rec = next(iter(g.iter_records(cfg, specs, 1, 5)))
        ds = play_decisions(cfg, specs, 0, 5)
        # the public discards are the record's, seat by seat, round by round (D3.2)
        for r, rd in enumerate(rec["rounds"]):
            mine = [(d.seat, d.chosen_text.split()[1].rstrip(",")) for d in ds
                    if d.round == r + 1 and d.kind.startswith("public")]
            theirs = [(a["seat"], a["discard"]) for a in rd["public"]]
            assert sorted(mine) == sorted(t for t in theirs
                                          if any(t[0] == m[0] for m in mine))
        valued = [d for d in ds if d.values]
        assert valued and all(d.policy.startswith("greedy") for d in valued)
        for d in valued:          # greedy plays the option of highest value
            best = max(v for v in d.values if v is not None)
            assert d.values[d.chosen] is not None and d.values[d.chosen] >= best - 1e-9
        assert all("does not expose" in d.note for d in ds if d.policy == "heuristic")
        assert all(d.note == "greedy:noveto never vetoes" for d in ds
                   if d.policy == "greedy:noveto" and d.kind.startswith("veto"))


def test_the_swing_is_the_round_that_last_changed_the_lead():
    from demos_sim.explorer.replay import swing

    assert swing([[1, 0], [1, 2], [3, 2], [3, 5]]) == 3
    assert swing([[5, 0], [6, 1], [7, 7], [9, 7]]) == 3        # a tie is a change of lead
    assert swing([[5, 0], [6, 1]]) == 0
    assert swing([[None, 2], [4, None]]) == 1
    assert swing([]) is None and swing([[], []]) is None
