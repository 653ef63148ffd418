"""``belief``: ismcts on worlds weighted by the others' actions (demos_sim.demos.policies.belief).

The M2 observation test (test_observation.py) covers ``belief`` at a small budget. Here:
the pool's worlds deal every unseen card once and keep what the seat saw; the opponent
model is a probability distribution over each turn's legal options (sums to one, by
enumeration); the inference moves the belief the way the rules say it should on
hand-set positions (a take of a face-up card points to the cards that make a
combination with it, D3.3; a pass in the secret turn points to a made hand); the true
world's weight is computed from the same model; determinism; a planted weakness.
"""

import math

import numpy as np
import pytest

from demos_sim.demos import layout as L
from demos_sim.demos.policies.basic import scoring_rules
from demos_sim.demos.policies.belief import (
    PH, PSEC, PUNAN, PUSED, TRUTH_W, _logp_public, _logp_turn, pool_logweights,
    truth_logweight,
)
from demos_sim.demos.policies.ismcts import WDECK, WH, WND, WS_LEN, WSEC, deal_world
from demos_sim.demos.positions import card_id, position
from demos_sim.demos.record import play_logged
from demos_sim.demos.rules import DemosConfig
from demos_sim.demos.scoring import best_combo
from demos_sim.demos.sim import chunk_game_keys
from demos_sim.tournament import make_config, match

POSITIONS = [
    dict(hand="7S 8S 9S 2H 5D", kind="public", seat=3, table="3C 4D"),
    dict(hand="7S 8S 9S 2H 5D", kind="secret", seat=0, public={1: "3C", 2: "4D", 3: "1H",
                                                                   0: "10S"},
         secret={1: ("6D", "4D"), 2: "pass", 3: "5C"}),
    dict(hand="7S 8S 9S 4D 5D", kind="veto", seat=1, public={1: "3C", 2: "4D", 3: "1H",
                                                                 0: "10S"},
         secret={1: ("6D", "4D"), 2: "pass", 3: "5C", 0: ("2C", "3C")}),
    dict(hand="7S 8S 9S 2H 5D", kind="unanimous", seat=0,
         public={1: "3C", 2: "4D", 3: "1H", 0: "10S"},
         secret={1: ("6D", "4D"), 2: "pass", 3: "5C", 0: ("2C", "deck")},
         unanimous={1: ("8D", "5C"), 2: ("3D", "deck"), 3: ("2D", "6D")}),
    dict(hand="7S 8S 9S 2H 5D", kind="secret", seat=0, rules="simplified", players=3,
         public={1: "3C", 2: "4D", 0: "10S"}, secret={1: ("6D", "4D"), 2: "5C"}),
    dict(hand="7S 8S 9S 4D 5D", kind="veto", seat=1, mode="2v2",
         variants={"team_talk": "hands"}, hands={3: "1C 2C 3C 4C 5C"},
         public={1: "3H", 2: "4D", 3: "1H", 0: "10S"},
         secret={1: ("6D", "4D"), 2: "pass", 3: "6C", 0: ("2D", "deck")}),
]


def _bits(m):
    return {c for c in range(40) if (int(m) >> c) & 1}


@pytest.mark.parametrize("kw", POSITIONS)
def test_pool_worlds_deal_every_unseen_card_once(kw):
    """Each world: 5 cards a hand, no card in two places, the seat's hand and every shown
    card where the observation says, and a deck of exactly O_DECK_LEFT unseen cards."""
    pos = position(**kw)
    obs = pos.obs
    n = int(obs[L.O_N])
    rng = np.array([3], np.uint64)
    worlds, lw = pool_logweights(pos.cfg, obs, 200, 2.0, 0.1, 17.0, rng)
    assert np.isfinite(lw).all()
    seen = _bits(obs[L.O_HAND] | obs[L.O_FACEUP] | obs[L.O_OWN_OUT])
    ws = np.zeros(WS_LEN, np.int64)
    for row in worlds:
        nd = deal_world(pos.cfg, obs, ws, row, rng)
        assert nd == obs[L.O_DECK_LEFT] == ws[WND]
        hands = [_bits(ws[WH + p]) for p in range(n)]
        assert all(len(h) == 5 for h in hands)
        assert hands[pos.seat] == _bits(obs[L.O_HAND])
        deck = [int(c) for c in ws[WDECK:WDECK + nd]]
        places = [c for h in hands for c in h] + deck
        secs = [int(ws[WSEC + p]) for p in range(n) if int(ws[WSEC + p]) >= 0]
        assert len(set(places)) == len(places)                   # no card twice
        for p in range(n):
            if p == pos.seat:
                continue
            if obs[L.O_MATE_HAND + p]:
                assert hands[p] == _bits(obs[L.O_MATE_HAND + p])  # D9.2 shown hands kept
            if obs[L.O_SEC_TAKE + p] >= 0:                       # a secret discard made
                assert int(ws[WSEC + p]) >= 0
                if obs[L.O_SEC + p] < 40:                        # turned up: the true card
                    assert ws[WSEC + p] == obs[L.O_SEC + p]
            else:
                assert ws[WSEC + p] == -1                        # none yet, or a pass
        for c in deck:
            assert c not in seen and c not in secs
        for c in secs:
            assert c not in places or c in seen


def _all_options_sum_to_one(sr, h, table, fav, can_pass, temp, eps):
    total = 0.0
    if can_pass:
        total += math.exp(_logp_turn(sr, h, table, fav, can_pass, -1, 0, temp, eps))
    for d in _bits(h):
        total += math.exp(_logp_turn(sr, h, table, fav, can_pass, d, L.DECK_TOP, temp, eps))
        for t in _bits(table):
            total += math.exp(_logp_turn(sr, h, table, fav, can_pass, d, t, temp, eps))
    return total


@pytest.mark.parametrize("temp,eps", [(0.5, 0.0), (2.0, 0.1), (8.0, 0.5)])
def test_opponent_model_is_a_distribution_over_the_legal_options(temp, eps):
    """Summed over every legal option of a turn (pass under secret_optional, each discard
    with a draw, each discard with each face-up card), the model's probabilities make 1;
    the public turn's over the 5 cards likewise (D3.2, D3.3, D3.4.3)."""
    sr = scoring_rules(DemosConfig("full", "individual", 4).to_array())
    rng = np.random.default_rng(1)
    for _ in range(20):
        cards = rng.choice(40, size=8, replace=False)
        h = sum(1 << int(c) for c in cards[:5])
        table = sum(1 << int(c) for c in cards[5:])
        for can_pass in (True, False):
            assert _all_options_sum_to_one(sr, h, table, -1, can_pass, temp, eps) == \
                pytest.approx(1.0, abs=1e-9)
        total = sum(math.exp(_logp_public(sr, h, -1, d, temp, eps)) for d in _bits(h))
        assert total == pytest.approx(1.0, abs=1e-9)


def test_the_model_prefers_the_discard_that_keeps_a_run():
    """From 7S 8S 9S 2H 5D, discarding a card of the run (D4.1) is far less likely than
    discarding 2H."""
    sr = scoring_rules(DemosConfig("full", "individual", 4).to_array())
    h = sum(1 << card_id(c) for c in "7S 8S 9S 2H 5D".split())
    keep = _logp_public(sr, h, -1, card_id("2H"), 2.0, 0.1)
    spoil = _logp_public(sr, h, -1, card_id("8S"), 2.0, 0.1)
    assert keep - spoil > 3.0


UNANIMOUS = dict(hand="1S 2H 4D 6C 9H", kind="unanimous", seat=0,
                 public={1: "8S", 2: "3D", 3: "10H", 0: "5C"},
                 secret={1: ("2C", "deck"), 2: ("4C", "8S"), 3: "pass", 0: ("1C", "deck")})


def _weighted(pos, p, size=20000, temp=2.0):
    rng = np.array([5], np.uint64)
    worlds, lw = pool_logweights(pos.cfg, pos.obs, size, temp, 0.1, 17.0, rng)
    w = np.exp(lw - lw.max())
    w /= w.sum()
    return worlds[:, PH + p], w, 1.0 / (w @ w)


def test_a_take_points_to_the_cards_that_combine_with_it():
    """Seat 2 gave a card face down and took 8S from the table (D3.3): the belief puts
    more weight than the uniform deal on its holding 7S or 9S (a run with 8S). Measured:
    0.49 against 0.26 (pool of 20,000, effective size ~870: σ ≈ 0.017 for the weighted
    share); the bound is 0.10, over 5σ below the measured gap."""
    pos = position(**UNANIMOUS)
    hands, w, ess = _weighted(pos, 2)
    near = np.array([((h >> card_id("7S")) & 1) | ((h >> card_id("9S")) & 1) for h in hands])
    assert ess > 300
    assert w @ near - near.mean() > 0.10, (w @ near, near.mean())


def test_a_pass_points_to_a_made_hand():
    """Seat 3 passed in the secret turn (D3.3, full rules): the belief gives it a hand
    with a combination (D4.1) more often than the uniform deal does. σ of the weighted
    share ≈ 0.017 at the measured effective size; the bound, 0.10, is over 5σ below the
    measured gap."""
    pos = position(**UNANIMOUS)
    hands, w, ess = _weighted(pos, 3)
    sr = scoring_rules(pos.cfg)
    made = np.array([best_combo(int(h), sr, -1)[0] > 0 for h in hands], float)
    assert w @ made - made.mean() > 0.10, (w @ made, made.mean())


def test_truth_weight_uses_the_same_model():
    """The true world's log-weight is the sum of the same turn probabilities: for a seat
    whose only action was a public discard (the others not yet played), it is the
    public-turn probability of its dealt hand, averaged over which card was the draw."""
    pos = position(hand="7S 8S 9S 2H 5D", kind="public", seat=2, public={1: "3C"},
                   dealer=0)
    row = np.full(TRUTH_W, -1, np.int64)
    hands = {0: "1H 2D 3S 4C 6H", 1: "4H 5H 6D 7D 10C", 2: "7S 8S 9S 2H 5D",
             3: "1C 2C 6C 7C 8C"}
    for p, cards in hands.items():
        row[PH + p] = sum(1 << card_id(c) for c in cards.split())
    rng = np.array([9], np.uint64)
    got = np.mean([math.exp(truth_logweight(pos.cfg, pos.obs, row, 2.0, 0.1, 17.0, rng))
                   for _ in range(4000)])
    sr = scoring_rules(pos.cfg)
    h1 = row[PH + 1]
    want = np.mean([math.exp(_logp_public(sr, (h1 & ~(1 << d)) | (1 << card_id("3C")), -1,
                                          card_id("3C"), 2.0, 0.1)) for d in _bits(h1)])
    assert got == pytest.approx(want, rel=0.03)
    assert PSEC < PUSED < PUNAN


def test_same_seed_same_games():
    config = DemosConfig("full", "individual", 4)
    key = chunk_game_keys(11, 0, 0, 1)[0]
    a = play_logged(config, ["belief@8"], key)[0]
    b = play_logged(config, ["belief@8"], key)[0]
    assert np.array_equal(a, b)
    c = play_logged(config, ["belief@8"], chunk_game_keys(12, 0, 0, 1)[0])[0]
    assert not np.array_equal(a, c)


def test_belief_beats_a_planted_weak_policy():
    """``heuristic:notake`` never takes a face-up card; belief@8 must beat it by more than
    3 standard errors of the win share (delta method over deals, as test_ismcts)."""
    m = match("demos", make_config("demos", 4, rules="full"), "belief@8", "heuristic:notake",
              100, 2027)
    s = m.a + m.b
    w = m.a.sum() / s.sum()
    se = float((m.a - w * s).std(ddof=1)) / (s.mean() * math.sqrt(len(s)))
    assert w - 3.0 * se > 0.5, (w, se)


def _game_value(figs, cum, keys, kinds, scores, pile=6, seat=0):
    from demos_sim.demos.policies.ismcts import RKD, RKEY, RSC, game_value
    n = len(figs)
    obs = np.zeros(L.OBS_LEN, np.int64)
    obs[L.O_N] = n
    obs[L.O_DEALER] = n - 1                       # seat 0 acts first (D3.2 order)
    obs[L.O_PILE_LEFT] = pile
    ws = np.zeros(WS_LEN, np.int64)
    for p in range(n):
        obs[L.O_NFIG + p] = figs[p]
        obs[L.O_CUM + p] = cum[p]
        ws[RKEY + p] = keys[p]
        ws[RKD + p] = kinds[p]
        ws[RSC + p] = scores[p]
    return game_value(obs, ws, n, seat, max(keys))


def test_game_value_reads_the_round_as_the_election_does():
    """belief_game's value of a round (D4.5 figures to the winners, D4.7 points): winning
    beats losing, a Carré's two figures beat one (while the pile holds two), an opponent's
    win costs, and the points of the round count (D7.3 breaks ties on points)."""
    base = dict(figs=[2, 2, 2, 2], cum=[40, 40, 40, 40], kinds=[1, 1, 1, 1],
                scores=[15, 15, 15, 15])
    win = _game_value(keys=[9, 5, 4, 3], **base)
    lose = _game_value(keys=[3, 9, 4, 5], **base)
    assert win > lose
    carre = _game_value(keys=[9, 5, 4, 3], **{**base, "kinds": [2, 1, 1, 1]})
    assert carre > win
    last = _game_value(keys=[9, 5, 4, 3], pile=1, **{**base, "kinds": [2, 1, 1, 1]})
    last_run = _game_value(keys=[9, 5, 4, 3], pile=1, **base)
    assert last == pytest.approx(last_run)            # one figure left: a Carré gets one
    nobody = _game_value(keys=[-1, -1, -1, -1], **base)
    assert lose < nobody < win
    more_points = _game_value(keys=[3, 9, 4, 5], **{**base, "scores": [25, 15, 15, 15]})
    assert more_points > lose
