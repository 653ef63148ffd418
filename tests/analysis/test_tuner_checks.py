"""The tuner's guards against fooling itself: parity on won games, its bias correction,
the fresh-deal confirmation, one-step deviations, range edges, the cap on changed rules,
enumeration of a short axis and the designed sample for importance."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from demos_sim.sim_common import chunks_of
from demos_sim.tuner.evaluate import debias, parity
from demos_sim.tuner.search import neighbours, project, tune
from demos_sim.tuner.spec import load_tune

HEAD = """
name = "synthetic"
game = "demos"
players = 4
policies = ["greedy"]
seed = 11
games = {games}
"""


def _spec(tmp_path, tune_text, games=2048):
    path = tmp_path / "t.toml"
    path.write_text(HEAD.format(games=games) + tune_text, encoding="utf-8")
    return load_tune(path)


# ----------------------------------------------------------------- parity on won games
def test_parity_is_over_won_games_by_hand():
    # 4 seats, 10 games: seat 0 won 3, seat 1 won 1, 6 games without a winner. Over won
    # games the shares are 3/4, 1/4, 0, 0: parity 0.75 (over all games it would be 0.3)
    assert parity(np.array([3.0, 1.0, 0.0, 0.0])) == pytest.approx(0.75)
    # equal wins, whatever the number of games without a winner: 0
    assert parity(np.array([5.0, 5.0, 5.0, 5.0])) == 0.0
    # nobody ever wins: the worst parity, not a perfect one
    assert parity(np.zeros(4)) == 1.0
    # vectorised over leading axes (bootstrap replicates)
    assert parity(np.array([[2.0, 2.0], [3.0, 1.0], [0.0, 0.0]])).tolist() == [0.0, 0.5, 1.0]


def _parity_draws(p, games, batches, reps, boot, seed):
    """Raw and bias-corrected parity of ``reps`` simulated tunes: winners drawn with
    probabilities ``p`` (the last entry: no winner), per-batch sums bootstrapped as the
    tuner does (multinomial weights over batches)."""
    rng = np.random.default_rng(seed)
    k = len(p) - 1
    raw, cor = [], []
    for _ in range(reps):
        counts = rng.multinomial(games // batches, p, size=batches)[:, :k].astype(float)
        W = rng.multinomial(batches, np.full(batches, 1 / batches), size=boot).astype(float)
        v = float(parity(counts.sum(0)))
        c, _ = debias(v, parity(W @ counts))
        raw.append(v)
        cor.append(c)
    return np.array(raw), np.array(cor)


def test_debias_shrinks_the_bias_at_parity():
    # exact parity among 4 seats, 10% of games without a winner, 4,096 games in 64 batches.
    # Share sd per seat sqrt(.25 .75 / 3686) = 0.0071, correlation -1/3 between seats (the
    # shares add up to 1): the raw range averages d_4 sd sqrt(1 + 1/3) ≈ 2.06 × 0.0071 ×
    # 1.155 = 0.0169. The corrected one must average clearly less (its mean over 300
    # replicates has sd ≈ 0.0006, so a 0.003 gap is 5 sigma).
    raw, cor = _parity_draws([0.225] * 4 + [0.1], 4096, 64, 300, 200, 1)
    assert raw.mean() == pytest.approx(2.06 * 0.0071 * (4 / 3) ** 0.5, rel=0.1)
    assert cor.mean() < raw.mean() - 0.003


def test_debias_is_harmless_far_from_parity():
    # over won games the shares are 0.4, 0.2, 0.2, 0.2: true parity 0.2. Seat 0 is always
    # the max; the min of the three others sits about 0.85 sd (≈ 0.006) low, so the raw
    # mean is ≈ 0.206. Both stay within 0.01 of the truth (per-replicate sd ≈ 0.011, mean
    # of 100: 0.0011), and the correction does not make it worse beyond 3 sigma.
    raw, cor = _parity_draws([0.36, 0.18, 0.18, 0.18, 0.1], 4096, 64, 100, 200, 2)
    assert raw.mean() == pytest.approx(0.2, abs=0.01)
    assert cor.mean() == pytest.approx(0.2, abs=0.01)
    assert abs(cor.mean() - 0.2) <= abs(raw.mean() - 0.2) + 0.0035


# ----------------------------------------------------------------- the confirmation
CONFIRM = """
[tune]
trials = 13
final_games = 8192
top = 4
sampler = "grid"

[tune.params]
carre_points = { low = 0, high = 12 }

[tune.targets.nowin]
metric = "no_winner"
direction = "min"
"""


def _lucky_hook(spec, lucky, luck_chunks):
    """P(no winner) = 0.30 + 0.01 |x - 6|; the point ``lucky`` instead plays 0.10 on
    ``luck_chunks`` (the search's and the race's deals) and 0.45 elsewhere: a winner by
    luck of the deals, which fresh deals must expose."""
    def hook(values, seed, chunk, count):
        x = values["carre_points"]
        p = 0.30 + 0.01 * abs(x - 6)
        if x == lucky:
            p = 0.10 if chunk in luck_chunks else 0.45
        u = np.random.default_rng([seed, chunk]).random(count)   # common random numbers
        return {"no_winner": (u < p).astype(np.int64)[:, None]}
    return hook


def test_confirmation_overturns_a_lucky_winner(tmp_path):
    spec = _spec(tmp_path, CONFIRM)
    n_search = len(chunks_of(spec.games))
    n_race = len(chunks_of(spec.final_games))
    luck = set(range(n_search + n_race))           # every deal the search and race used
    s = tune(spec, out=tmp_path / "o", play_hook=_lucky_hook(spec, 11, luck))
    assert s["racing"]["winner"]["carre_points"] == 11          # the race was fooled …
    assert s["confirmation"]["overturned"] is True              # … fresh deals were not
    assert s["best"]["values"]["carre_points"] != 11
    assert s["confirmation"]["first_chunk"] == n_search + n_race
    # the best's figure comes from the fresh deals: 0.30 + 0.01|x - 6| for the runner-up,
    # never the lucky 0.10 (sd of a rate at 8,192 games ≈ 0.005; 0.05 is 10 sigma)
    assert s["best"]["nowin"]["value"] > 0.25
    best = pd.read_csv(tmp_path / "o" / "best.csv")
    assert (best["games"] == spec.confirm).all()


def test_confirmation_keeps_an_honest_winner(tmp_path):
    spec = _spec(tmp_path, CONFIRM)
    s = tune(spec, out=tmp_path / "o", play_hook=_lucky_hook(spec, 99, set()))
    assert s["best"]["values"]["carre_points"] == 6
    assert s["confirmation"]["overturned"] is False
    # one step either way costs 0.01: at 8,192 games on common deals the paired sd of the
    # difference is ≈ sqrt(0.01/8192) = 0.0011, so both steps are significantly worse
    assert s["local_optimum"] is True
    dev = pd.read_csv(tmp_path / "o" / "deviations.csv")
    assert sorted(dev["value"]) == [5, 7]
    assert (dev["diff_ci_low"] > 0).all() and not dev["better"].any()
    assert s["at_edge"] == []


def test_edge_of_range_is_flagged(tmp_path):
    spec = _spec(tmp_path, CONFIRM.replace("high = 12", "high = 4"))   # optimum 6 outside
    s = tune(spec, out=tmp_path / "o", play_hook=_lucky_hook(spec, 99, set()))
    assert s["best"]["values"]["carre_points"] == 4
    assert s["at_edge"] == ["carre_points"]


# ----------------------------------------------------------------- neighbours, caps
TWO = """
[tune]
trials = 40
final_games = 4096
top = 4
sampler = "tpe"
max_changes = 1

[tune.params]
carre_points = { low = 20, high = 40, step = 2 }
"run_base.0" = { low = 4, high = 20 }
favourite_suit_bonus = { values = [0, 4, 8] }

[tune.targets.nowin]
metric = "no_winner"
direction = "min"
"""


def test_neighbours_by_hand(tmp_path):
    spec = _spec(tmp_path, TWO.replace("max_changes = 1", "max_changes = 3"))
    pts = neighbours(spec, {"carre_points": 20, "run_base.0": 9, "favourite_suit_bonus": 0})
    got = sorted((n, d, p[n]) for n, d, p in pts)
    # carre_points at its low end has only the step up; the list-valued parameter has no
    # order, so no steps
    assert got == [("carre_points", 1, 22), ("run_base.0", -1, 8), ("run_base.0", 1, 10)]


def test_project_keeps_the_largest_move(tmp_path):
    spec = _spec(tmp_path, TWO)
    d = spec.default_values()
    assert d == {"carre_points": 30, "run_base.0": 12, "favourite_suit_bonus": 0}
    p = project(spec, {"carre_points": 32, "run_base.0": 4, "favourite_suit_bonus": 0})
    # run_base.0 moved 8 of 16 (0.5), carre_points 2 of 20 (0.1): run_base.0 is kept
    assert p == {"carre_points": 30, "run_base.0": 4, "favourite_suit_bonus": 0}
    # a list-valued parameter counts as a whole move (1): it beats both ranges
    p = project(spec, {"carre_points": 40, "run_base.0": 4, "favourite_suit_bonus": 8})
    assert p == {"carre_points": 30, "run_base.0": 12, "favourite_suit_bonus": 8}


def _nowin_hook(values, seed, chunk, count):
    x, y, z = values["carre_points"], values["run_base.0"], values["favourite_suit_bonus"]
    p = 0.4 - 0.01 * (x - 20) / 2 - 0.01 * (y - 4) / 2 - 0.02 * z / 4
    u = np.random.default_rng([seed, chunk]).random(count)
    return {"no_winner": (u < p).astype(np.int64)[:, None]}


def test_max_changes_caps_every_trial(tmp_path):
    spec = _spec(tmp_path, TWO)
    s = tune(spec, out=tmp_path / "o", play_hook=_nowin_hook)
    trials = pd.read_csv(tmp_path / "o" / "trials.csv")
    assert len(trials) == 40 and trials["changes"].max() <= 1
    assert spec.changes(s["best"]["values"]) <= 1
    front = pd.read_csv(tmp_path / "o" / "changes.csv")
    assert list(front["max_changes"]) == [0, 1]          # nothing beyond the cap exists
    assert front["objective"].is_monotonic_decreasing
    # the designed sample obeys the cap too, and importance says where it came from
    # (only 1 + 10 + 16 + 2 = 29 points of the space move at most one parameter)
    assert 20 <= s["importance_points"] <= 29 and "uniformly" in s["importance_method"]


def test_a_short_axis_is_enumerated(tmp_path):
    # one parameter, 61 values, 16 trials asked: auto enumerates all 61 (a sampler could
    # skip the one value that meets the goal)
    text = CONFIRM.replace('sampler = "grid"', 'sampler = "auto"').replace(
        "trials = 13", "trials = 16").replace("high = 12", "high = 60")
    spec = _spec(tmp_path, text, games=512)
    assert spec.exhaustive
    s = tune(spec, out=tmp_path / "o", play_hook=_lucky_hook(spec, 99, set()))
    assert s["search"]["trials"] == 61
    assert s["best"]["values"]["carre_points"] == 6
