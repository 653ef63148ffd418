"""The DĒMOS ``apprentice`` (a linear scorer learned from ismcts@256's choices) and its
trainer: registered and seen by the M2 test, its features on hand-set positions (computed
here by hand from the rules), strength against a planted weakness, determinism, the fit
recovering known weights, and the trainer's refusals."""

import math

import numpy as np
import pytest

from demos_sim import ConfigError
from demos_sim.cards import card_id
from demos_sim.demos import layout as L
from demos_sim.demos.policies import available, get
from demos_sim.demos.policies.apprentice import (
    B_PUBLIC, F_COMBO, F_DBREAK, F_HEUR, F_PASS, F_PCOMP, F_STATIC_PLAYERS, F_STATIC_TEAM,
    F_SUIT, F_TAKE, NF, V_ABOVE17, V_BIAS, V_CARRE, V_HEUR, V_LATE, V_LEAD, V_LEFT, V_MARGIN,
    V_OPP_PASS, V_OPP_TAKE, V_OWN_PASS, V_OWN_TAKE, V_PER_ROUND, V_PILE, V_PLACE, V_PLAYERS,
    V_ROUND, V_TEAM, V_TO_ASK, V_TO_ASK_STRONG, V_VALUE, WIDTH, choose, option_features,
    veto_features,
)
from demos_sim.demos.policies.apprentice_train import check_teacher, fit_logit
from demos_sim.demos.positions import position
from demos_sim.demos.record import play_logged
from demos_sim.demos.rules import DemosConfig
from demos_sim.demos.sim import chunk_game_keys
from demos_sim.tournament import make_config, match


def test_apprentice_is_a_fair_registered_policy_so_the_observation_test_runs_it():
    """tests/demos/test_observation.py runs every registered non-reference policy with
    the M2 check; the apprentice must be among them."""
    assert "apprentice" in available()
    p = get("apprentice")
    assert not p.reference
    assert set(p.flags) >= {"noveto", "notake", "nomedia"}


# ------------------------------------------------------------------ features by hand
def _params():
    return np.asarray(get("apprentice").params, np.float64).copy()


def test_public_turn_features_of_a_hand_set_position():
    """Seat 1 opens the public turn (D3.2) with 7S 8S 9S 1H 3D: a one-suit run. Nothing is
    face up, so the 35 other cards are unseen. Keeping the run (discarding 1H or 3D), the
    cards that make a run with the kept values {7, 8, 9} and one of them are the 6s, 7s,
    8s, 9s and 10s of every suit (20) less the three in the hand: 17 of 35."""
    pos = position(hand="7S 8S 9S 1H 3D", kind="public", seat=1)
    cand = np.zeros(L.MAXOPT, np.int64)
    F = np.zeros((L.MAXOPT, NF))
    k = option_features(pos.cfg, pos.obs, pos.opts, pos.n_opts, _params(), cand, F)
    assert k == 5
    rows = {pos.texts()[cand[a]].split()[1].rstrip(","): F[a] for a in range(k)}
    assert set(rows) == {"7S", "8S", "9S", "1H", "3D"}
    for card in ("1H", "3D"):
        assert rows[card][F_PCOMP] == pytest.approx(17 / 35)
        assert rows[card][F_DBREAK] == 0.0 and rows[card][F_COMBO] == 1.0
        assert rows[card][F_SUIT] == pytest.approx(3 / 5)      # three spades kept (D4.3)
    for card in ("7S", "8S", "9S"):
        assert rows[card][F_DBREAK] == 1.0 and rows[card][F_COMBO] == 0.0
        assert rows[card][F_SUIT] == pytest.approx(2 / 5)
    for r in rows.values():
        assert r[F_PASS] == 0.0 and r[F_TAKE] == 0.0
        assert r[F_STATIC_PLAYERS] == 0.0 and r[F_STATIC_TEAM] == 0.0   # 4 players, alone
    # heuristic's choice is marked once, on the option heuristic plays here
    assert sum(r[F_HEUR] for r in rows.values()) == 1.0
    heur = pos.decide("heuristic").text.split()[1].rstrip(",")
    assert rows[heur][F_HEUR] == 1.0


def test_secret_turn_scores_pass_draws_and_completing_takes_only():
    """Secret turn (D3.3) with 9C face up: the pass, the 5 blind draws and the 5 takes of
    9C (it completes 7-8-9) are the candidates; the WIDTH best of the 11 are scored. A
    face-up card that completes nothing (5C) is never scored."""
    pos = position(hand="7S 8S 9S 1H 3D", kind="secret", seat=0,
                   public={1: "9C", 2: "5C"}, secret={1: "4S", 2: "6S"})
    cand = np.zeros(L.MAXOPT, np.int64)
    F = np.zeros((L.MAXOPT, NF))
    k = option_features(pos.cfg, pos.obs, pos.opts, pos.n_opts, _params(), cand, F)
    assert k == min(WIDTH, 11)
    texts = [pos.texts()[c] for c in cand[:k]]
    assert not any("take 5C" in t for t in texts)
    for a in range(k):
        assert F[a, F_PASS] == (1.0 if texts[a] == "pass" else 0.0)
        assert F[a, F_TAKE] == (1.0 if "take" in texts[a] else 0.0)
    p = _params()
    p[3] = 1.0                                   # :notake (P_NOTAKE)
    k2 = option_features(pos.cfg, pos.obs, pos.opts, pos.n_opts, p, cand, F)
    assert k2 == 6 and not any("take" in pos.texts()[c] for c in cand[:k2])


def test_veto_features_of_a_hand_set_position():
    """Seat 2 holds 5S 5H 5D 5C 2S: a Carré, carre_points 30 (D4.1), largest suit 2
    cards (spades), unplayed total 2 (the 2S): value 30 + 0.01 × 2 + 0.0005 × 2. Order
    1, 2, 3, 0 (dealer 0): seat 1 passed and was asked first; seat 3 took 2H; seat 0
    drew. Seat 3's side has no veto, seat 0's has one and showed nothing. Heuristic's
    threshold: 17 − 6 × min(1, 2 vetoes / 5 rounds) = 14.6 (no opposing side to be asked
    showed strength)."""
    pos = position(hand="5S 5H 5D 5C 2S", kind="veto", seat=2,
                   public={1: "2H", 2: "9D", 3: "4C", 0: "7H"},
                   secret={1: "pass", 2: "6D", 3: ("1C", "2H"), 0: "8C"},
                   vetoes={0: 1, 1: 1, 2: 2, 3: 0}, pile_left=5, points=[10, 20, 15, 40])
    f = np.zeros(NF)
    veto_features(pos.cfg, pos.obs, _params(), f)
    v0 = 30 + 0.02 + 0.001
    expect = {V_BIAS: 1, V_VALUE: v0 / 10, V_ABOVE17: (v0 - 17) / 10, V_CARRE: 1,
              V_PILE: 5 / 14, V_LATE: 0, V_LEFT: 2 / 3, V_PER_ROUND: 2 / 5,
              V_OPP_PASS: 1 / 3, V_OPP_TAKE: 1 / 3, V_TO_ASK: 1, V_TO_ASK_STRONG: 0,
              V_LEAD: (15 - 40) / 50, V_PLAYERS: 0, V_PLACE: 1 / 3, V_OWN_PASS: 0,
              V_OWN_TAKE: 0, V_TEAM: 0, V_ROUND: 0, V_HEUR: 1,
              V_MARGIN: (v0 - 14.6) / 10}
    for j, v in expect.items():
        assert f[j] == pytest.approx(v, abs=1e-9), j
    # the decision follows the sign of the score: a weight on the bias alone decides it
    W = np.zeros((4, NF))
    W[3, V_BIAS] = 1.0
    assert choose(pos.cfg, pos.obs, pos.opts, pos.n_opts, _params(), W) == 1
    W[3, V_BIAS] = -1.0
    assert choose(pos.cfg, pos.obs, pos.opts, pos.n_opts, _params(), W) == 0
    assert pos.decide("apprentice:noveto").index == 0
    # by default the apprentice plays heuristic's veto (the learned one is not played)
    assert pos.decide("apprentice").index == pos.decide("heuristic").index == 1


def test_choose_plays_the_option_of_highest_score():
    """A weight on the discarded card's value alone: the highest card goes (9S)."""
    from demos_sim.demos.policies.apprentice import F_DVAL

    pos = position(hand="7S 8S 9S 1H 3D", kind="public", seat=1)
    W = np.zeros((4, NF))
    W[B_PUBLIC, F_DVAL] = 1.0
    i = choose(pos.cfg, pos.obs, pos.opts, pos.n_opts, _params(), W)
    assert pos.opts[i] == card_id("9S")
    W[B_PUBLIC, F_DVAL] = -1.0
    i = choose(pos.cfg, pos.obs, pos.opts, pos.n_opts, _params(), W)
    assert pos.opts[i] == card_id("1H")


# ------------------------------------------------------------------ play
def _se(m):
    s = m.a + m.b
    w = m.a.sum() / s.sum()
    z = m.a - w * s
    return w, float(z.std(ddof=1)) / (s.mean() * math.sqrt(len(s)))


def test_apprentice_beats_a_planted_weak_policy():
    """``heuristic:notake`` never takes a face-up card (a planted weakness); the
    apprentice must beat it by more than 3 standard errors of the win share (delta
    method over deals, as the tournament)."""
    m = match("demos", make_config("demos", 4, rules="full"), "apprentice",
              "heuristic:notake", 400, 2027)
    w, se = _se(m)
    assert w - 3.0 * se > 0.5, (w, se)


@pytest.mark.parametrize("setup", [("full", "individual", 4), ("full", "2v3", 5),
                                   ("simplified", "individual", 3)])
def test_same_seed_same_games_and_every_setup_plays(setup):
    rules, mode, n = setup
    config = DemosConfig(rules, mode, n)
    k1, k2 = chunk_game_keys(11, 0, 0, 2)
    a = play_logged(config, ["apprentice"] * n, k1)[0]
    b = play_logged(config, ["apprentice"] * n, k1)[0]
    c = play_logged(config, ["apprentice"] * n, k2)[0]
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


# ------------------------------------------------------------------ the trainer
def test_fit_recovers_known_weights():
    """Choices drawn from a conditional logit with known weights (decisions of 2 to 6
    options): the fit finds the weights back within a few standard errors (20,000
    decisions: about 0.02 each)."""
    rng = np.random.default_rng(5)
    n, a, f = 20000, 6, 4
    w_true = np.array([1.5, -0.7, 0.0, 2.0])
    X = rng.normal(size=(n, a, f)) * np.array([1.0, 3.0, 0.5, 1.0])
    M = np.zeros((n, a), bool)
    sizes = rng.integers(2, a + 1, size=n)
    for i, s in enumerate(sizes):
        M[i, :s] = True
    s = np.where(M, X @ w_true, -np.inf)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    Y = np.array([rng.choice(a, p=row) for row in p])
    w, ll, acc = fit_logit(X, M, Y, l2=0.0)
    assert np.max(np.abs(w - w_true)) < 0.08, w
    assert ll < 0 and 0 < acc < 1
    # a decision whose choice is unknown (-1) is left out, not fitted as option 0
    Y2 = Y.copy()
    Y2[:5000] = -1
    w2, _, _ = fit_logit(X, M, Y2, l2=0.0)
    assert np.max(np.abs(w2 - w_true)) < 0.1, w2


@pytest.mark.parametrize("spec, words", [("omniscient", "reference policy"),
                                         ("nosuch@256", "unknown"),
                                         ("apprentice", "cannot teach itself"),
                                         ("ismcts:notake@256", "restricted")])
def test_bad_teacher_is_refused_in_one_line(spec, words):
    with pytest.raises(ConfigError) as e:
        check_teacher(spec)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_cli_refuses_a_bad_teacher_with_one_line(capsys):
    from demos_sim.cli import main

    assert main(["train-apprentice", "--teacher", "omniscient", "--games", "8"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("demos-sim: error: --teacher 'omniscient'") and "\n" not in err


def test_training_is_deterministic_and_learns_its_teacher(tmp_path):
    """The same seed writes the same weights module whatever the number of workers; taught
    by heuristic (whose choice is one of the features), the fit agrees with its teacher on
    most public discards. Slow: two short trainings (16 + 8 games each)."""
    import re

    from demos_sim.demos.policies.apprentice_train import train
    from demos_sim.runner.backends import map_tasks

    said = []
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    train("heuristic", 16, 3, dagger_games=8, out=a, say=said.append)
    train("heuristic", 16, 3, dagger_games=8, out=b, say=lambda s: None,
          mapper=lambda fn, args: map_tasks(fn, args, 2))
    assert a.read_text() == b.read_text()
    ns = {}
    exec(a.read_text(), ns)
    assert len(ns["WEIGHTS"]) == 4 * NF and all(math.isfinite(x) for x in ns["WEIGHTS"])
    last = [s for s in said if s.strip().startswith("public:")][-1]
    agree = float(re.search(r"agreement with the teacher ([\d.]+)%", last).group(1))
    assert agree > 90.0, last
