"""The ``adaptive`` persona (a best response to a city of civic players): its data file,
its registration, and the seat-by-seat evaluation that tune-bot scores it with."""

from __future__ import annotations

import tomllib

import numpy as np
import pytest

from demos_sim import ConfigError
from demos_sim.assemblee.policies import available, get
from demos_sim.assemblee.policies.personas import ADAPTIVE_FILE, PARAMS, parse_personas
from demos_sim.cli import main
from demos_sim.game import get_game
from demos_sim.tournament import make_config
from demos_sim.tuner.bot import seat_player, tune_bot

PERSONA_SPACE = get_game("assemblee").tune_space(team=False)   # the persona parameters

CFG = make_config("assemblee", 6)


def test_adaptive_is_civic_with_searched_keys_only():
    a, c = get("adaptive"), get("civic")
    assert "adaptive" in available()
    assert a.fn is c.fn and a.flags == c.flags           # the persona kernel, other numbers
    searched = {i for i, *_ in PERSONA_SPACE.values()}
    differ = {i for i in range(len(a.params)) if a.params[i] != c.params[i]}
    assert differ and differ <= searched
    # every searched key is a persona key at the index the kernel reads
    for key, (i, *_) in PERSONA_SPACE.items():
        assert PARAMS[key][0] == i
    # the file is a personas table that says how it was found
    text = ADAPTIVE_FILE.read_text(encoding="utf-8")
    assert "# command: demos-sim tune-bot --game assemblee" in text
    assert "confirmation against civic" in text
    data = tomllib.loads(text)
    assert set(data) == {"adaptive"} and data["adaptive"]["base"] == "civic"
    assert np.array_equal(parse_personas(text, "adaptive.toml",
                                         {"civic": c.params})["adaptive"][0], a.params)


def test_a_candidate_equal_to_the_population_scores_exactly_even():
    """The candidate with civic's own vector plays the very games of the all-civic city:
    at every seat it wins exactly what the civic player it replaces wins, deal by deal."""
    play = seat_player("assemblee", CFG, "civic")
    a, b = play(get("civic").params.copy(), "civic", 5, 40)
    assert a.shape == b.shape == (40,)
    assert np.array_equal(a, b) and a.sum() > 0


def test_a_free_rider_in_a_civic_city_is_scored_against_the_civic_in_its_place():
    """free_rider's vector as the candidate: the games differ from the all-civic city's
    (never pledging changes the city), and ``b`` is the all-civic city's wins at the same
    seats: on every deal b sums the M1 shares of one game, so it is 0 or 1."""
    play = seat_player("assemblee", CFG, "civic")
    a, b = play(get("free_rider").params.copy(), "civic", 5, 40)
    assert not np.array_equal(a, b)
    assert set(np.round(b, 9)) <= {0.0, 1.0}
    assert np.all(a <= CFG.players + 1e-9)


def test_tune_bot_refuses_a_non_persona_and_warm(tmp_path, capsys):
    with pytest.raises(ConfigError, match="personas"):
        tune_bot(CFG, policy="random", field=["civic"], game="assemblee", trials=1,
                 games=2, race_games=2, confirm_games=2)
    assert main(["tune-bot", "--game", "assemblee", "--policy", "civic", "--against",
                 "civic", "--warm", "x.toml"]) == 2
    assert "--warm" in capsys.readouterr().err


def test_tiny_run_writes_a_persona_file(tmp_path, capsys):
    out = tmp_path / "adaptive.toml"
    assert main(["tune-bot", "--game", "assemblee", "--players", "4", "--policy", "civic",
                 "--against", "civic", "--trials", "3", "--games", "16", "--top", "2",
                 "--race-games", "32", "--confirm-games", "32", "--seed", "1",
                 "--out", str(out), "--quiet"]) == 0
    text = out.read_text()
    personas = parse_personas(text, "t", {"civic": get("civic").params})
    assert set(personas) == {"adaptive"}
    assert "--players 4" in text and "--seed 1" in text
