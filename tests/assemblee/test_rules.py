"""Hand-made rule tests for the L'Assemblée engine, one or more per rule ID of RULES.md
Part A (with Part V). Every expected value was worked out by hand from
../shared/RULES.md; the comment next to it shows the reasoning.

Positions are set up by ``Table`` (figures, holders, pending events written into the
state by hand) and played by the real kernel phases (``_income`` A2, ``_draw_event`` A3,
``_reveal`` and ``_auction`` A4, ``_good_event`` A5.1, ``_harmful`` A5.2, ``_collapse``
A5.3, ``_benefits`` A7, ``_ostracism`` A8, ``_honours`` A9, ``_final`` A10), with the decisions of ``t_script``
(below), whose per-seat parameters say what each seat does. Every table runs in check
mode: the observation tests and the gold/renown ledger run at every decision.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from demos_sim import ConfigError
from demos_sim.assemblee import engine as E
from demos_sim.assemblee import layout as L
from demos_sim.assemblee.observe import observe_full
from demos_sim.assemblee.policies import POLICY_SIG, register
from demos_sim.assemblee.rules import AssembleeConfig, default_threshold
from demos_sim.registry import N_PARAMS

# t_script parameters (per seat)
BID, BID_CHAR, PLEDGE, YES, TARGET, PROPOSE, BUY, OSTP, NIMOS, VOTE, TIE, OUTBID = range(12)
PROBE = 16    # params[PROBE + pos]: the Oracle's K_BID at auction pos writes 1 + the mask of
              # the other seats whose bid on that auction his observation shows


@register("t_script", description="test script: decisions from its parameters")
@numba.njit(POLICY_SIG, cache=True)
def t_script(cfg, obs, opts, n_opts, params, rng):
    kind = obs[L.O_KIND]
    if kind == L.K_BID:
        seat = obs[L.O_SEAT]
        pos = obs[L.O_POS]
        if seat == obs[L.O_ORACLE]:
            seen = 0
            top = -1
            for q in range(obs[L.O_N]):
                b = obs[L.O_BIDS + pos * L.MAXP + q]
                if q != seat and b >= 0:
                    seen |= 1 << q
                    top = max(top, b)
            params[PROBE + pos] = 1 + seen
            if params[OUTBID] > 0:          # one more than the best bid he sees, else 0
                return min(top + 1, n_opts - 1) if top >= 0 else 0
        if params[BID_CHAR] < 0 or obs[L.O_CHAR] == int(params[BID_CHAR]):
            return min(int(params[BID]), n_opts - 1)
        return 0
    if kind == L.K_PLEDGE:
        return min(int(params[PLEDGE]), n_opts - 1)
    if kind == L.K_OST_PLEDGE:
        return min(int(params[OSTP]), n_opts - 1)
    if kind == L.K_STOP or kind == L.K_SPEND or kind == L.K_SUPPORT:
        return 1 if params[YES] > 0 else 0
    want = -99
    if kind == L.K_TARGET or kind == L.K_NAME_MC:
        want = int(params[TARGET])
    elif kind == L.K_PROPOSE:
        want = int(params[TARGET]) if params[PROPOSE] > 0 else -1
    elif kind == L.K_BUY:
        want = int(params[BUY])
    elif kind == L.K_NIMOS:
        want = int(params[NIMOS])
    elif kind == L.K_VOTE:
        want = int(params[VOTE])
    elif kind == L.K_TIE:
        want = int(params[TIE])
    for i in range(n_opts):
        if opts[i] == want:
            return i
    return 0


class Table:
    """A hand-set position: ``n`` players, MC ``mc``, figures by seat, t_script params."""

    def __init__(self, n, variants=None, mc=0, gold=None, renown=None, pers=None, log=False,
                 **script):
        self.cfg = AssembleeConfig(n, variants or {}).to_array(check_obs=True, log=log)
        self.n = n
        self.st = np.zeros(L.ST_LEN, np.int64)
        self.obs = np.zeros(L.OBS_LEN, np.int64)
        self.opts = np.zeros(L.MAXOPT, np.int64)
        self.prng = np.zeros(L.NSTREAM, np.uint64)
        self.wk = np.zeros(E.WK_LEN, np.int64)
        self.log = np.zeros(L.EV_W * 2000 if log else 2, np.int64)
        self.log[0] = L.EV_W
        self.res = np.zeros(L.RES_LEN, np.int64)
        self.diag = np.zeros(E.DIAG_LEN, np.int64)
        self.key = np.uint64(12345)
        E.init_state(self.cfg, self.key, self.st, self.obs, self.prng, self.res)
        st = self.st
        st[L.S_MC] = mc
        for p in range(n):
            st[L.S_GOLD + p] = (gold or [0] * n)[p]
            st[L.S_REN + p] = (renown or [0] * n)[p]
            if pers:
                st[L.S_PERS + p] = L.PERSONALITIES.index(pers[p]) if pers[p] else -1
        self.params = np.zeros((L.MAXP, N_PARAMS), np.float64)
        self.params[:, BID_CHAR] = -1
        self.params[:, TARGET] = -1
        self.params[:, VOTE] = -1
        for name, values in script.items():
            self.params[:n, globals()[name.upper()]] = values
        fn = t_script
        self.fns = tuple([fn] * L.MAXP)
        self.sync()

    def sync(self):
        st = self.st
        st[L.S_GOLD_IN] = st[L.S_GOLD:L.S_GOLD + L.MAXP].sum()
        st[L.S_GOLD_OUT] = 0
        st[L.S_REN_IN] = st[L.S_REN:L.S_REN + L.MAXP].sum()
        st[L.S_REN_OUT] = 0
        out = np.zeros(L.OBS_LEN, np.int64)
        observe_full(st, self.cfg, self.obs, out, E.EVENT_BASE_ARR)
        self.obs[:] = out

    def hold(self, chars_holders):
        """Reveal ``[(character name, holder or None), …]`` as this round's auctions."""
        st = self.st
        for pos, (c, h) in enumerate(chars_holders):
            ci = L.CHARACTERS.index(c)
            st[L.S_REV + pos] = ci
            st[L.S_HOLDER + pos] = -1 if h is None else h
            if h is not None:
                st[L.S_HOLDS + ci] = h
        st[L.S_NREV] = len(chars_holders)
        st[L.S_CUR] = len(chars_holders)
        self.sync()

    def pend(self, *events):
        st = self.st
        for i, (ev, p) in enumerate(events):
            st[L.S_PEND_EV + i] = L.EVENTS.index(ev)
            st[L.S_PEND_P + i] = p
        st[L.S_NPEND] = len(events)
        self.sync()

    def a(self):
        return (self.fns, self.st, self.cfg, self.obs, self.opts, self.params, self.prng,
                self.wk, self.diag, self.log)

    def gold(self):
        return [int(x) for x in self.st[L.S_GOLD:L.S_GOLD + self.n]]

    def renown(self):
        return [int(x) for x in self.st[L.S_REN:L.S_REN + self.n]]

    def logged(self, kind):
        """The logged events of one type (``log=True``), as tuples of their 5 arguments."""
        ev = self.log[L.EV_W:self.log[0]].reshape(-1, L.EV_W)
        return [tuple(int(x) for x in e[1:]) for e in ev if e[0] == kind]

    def check(self):
        assert self.diag[E.D_INVARIANT] == 0
        assert self.diag[E.D_PUB_DIFF] == 0 and self.diag[E.D_OBS_DIFF] == 0
        assert self.st[L.S_ERROR] == 0


def auction(t, char, pos=0):
    t.st[L.S_REV + pos] = L.CHARACTERS.index(char)
    t.st[L.S_NREV] = pos + 1
    t.st[L.S_CUR] = pos
    t.sync()
    E._auction(*t.a(), t.res, pos)
    t.check()
    return int(t.st[L.S_HOLDER + pos])


# ------------------------------------------------------------------ A1 setup, Part V
def test_A1_setup_and_variants():
    t = Table(15, {"personalities": True})
    E.setup(t.st, t.cfg, t.obs, t.prng, t.key, t.log, t.res)
    deck = sorted(t.st[L.S_DECK:L.S_DECK + 15])
    assert deck == list(range(15))                       # the 15 event cards
    assert 0 <= t.st[L.S_MC] < 15
    pers = list(t.st[L.S_PERS:L.S_PERS + 15])
    assert sorted(pers[:6]) == list(range(6)) and sorted(pers[6:12]) == list(range(6))  # A12
    for p in range(15):                                   # Mirnok 3 renown, others 0; 0 gold
        assert t.st[L.S_REN + p] == (3 if pers[p] == L.PE_MIRNOK else 0)
        assert t.st[L.S_GOLD + p] == 0
    assert AssembleeConfig(6).variants == {"rounds": 10, "collapse_threshold": None,
                                           "min_players": 3, "personalities": False,
                                           "akikos_income": "bonus",
                                           "oracle_view": "three_bids",
                                           "postpone_surcharge": "per_round",
                                           "event_draw": "deck", "final_tie": "shared"}


def test_partV_every_variant_has_help_citing_its_rule():
    from demos_sim.assemblee.rules import VARIANT_HELP, VARIANTS

    assert list(VARIANT_HELP) == list(VARIANTS)
    assert all(h.startswith("A") and h[1].isdigit() for h in VARIANT_HELP.values())


@pytest.mark.parametrize("n,variants", [(3, {}), (16, {}), (6, {"rounds": 0}),
                                        (6, {"collapse_threshold": 0}), (6, {"min_players": 1}),
                                        (6, {"personalities": 1}), (6, {"akikos_income": "x"}),
                                        (6, {"round_cap": 5}), (6, {"oracle_view": "three"}),
                                        (6, {"oracle_view": 3}), (6, {"postpone_surcharge": "twice"}),
                                        (6, {"event_draw": True}), (6, {"final_tie": None}),
                                        (6, {"final_tie": "oldest"})])
def test_partV_bad_configuration_is_one_line(n, variants):
    with pytest.raises(ConfigError) as e:
        AssembleeConfig(n, variants)
    assert "\n" not in str(e.value)


# ------------------------------------------------------------------ A2 income
@pytest.mark.parametrize("akikos,expect", [("bonus", [7, 1, 13, 1]), ("total", [7, 1, 6, 1])])
def test_A2_income_brigand_akikos(akikos, expect):
    # seat 1 and seat 3 (an Akikos) were targeted by the Brigand: 1 gold either way (A12)
    t = Table(4, {"personalities": True, "akikos_income": akikos},
              pers=["ulios", "ulios", "akikos", "akikos"])
    t.st[L.S_BRIG_NOW] = 0b1010
    E._income(t.st, t.cfg, t.obs, t.log)
    assert t.gold() == expect


# ------------------------------------------------------------------ A3 events
def test_A3_reshuffle_includes_pending():
    # 16 rounds: the 16th draw finds the deck empty; the whole deck of 15 is reshuffled
    from demos_sim.assemblee.record import iter_records

    cfg = AssembleeConfig(4, {"rounds": 16, "collapse_threshold": 10 ** 6})
    # the first game of the 16 that lasts the 16 rounds (ostracism can end one early, A8)
    rec = next(r for r in iter_records(cfg, ["free_rider"], 16, 5)
               if len(r["rounds"]) == 16)
    decks = [r["event_deck"] for r in rec["rounds"]]
    assert all(d is None for d in decks[:15]) and sorted(decks[15]) == sorted(L.EVENTS)
    assert [r["event"] for r in rec["rounds"][:15]] == rec["event_deck"]
    assert rec["rounds"][15]["event"] == decks[15][0]
    # free riders never pledge and spend: every harmful event of the first deck is still
    # pending, so the 16th round's draw (if harmful) is pending twice
    ev = decks[15][0]
    if L.EVENTS.index(ev) < L.NHARM:
        names = [p["event"] for p in rec["rounds"][15]["pending"]]
        assert names.count(ev) in (1, 2)


def test_A3_independent_draws_repeat_and_keep_no_deck():
    # event_draw = independent: 15 rounds of 15 equally likely events repeat one with
    # probability 1 - 15!/15^15 > 0.999997; the record has no event deck
    from demos_sim.assemblee.record import iter_records

    cfg = AssembleeConfig(4, {"event_draw": "independent", "rounds": 15,
                              "collapse_threshold": 10 ** 6})
    recs = [r for r in iter_records(cfg, ["free_rider"], 6, 5) if len(r["rounds"]) == 15]
    assert recs
    for rec in recs:
        events = [r["event"] for r in rec["rounds"]]
        assert len(set(events)) < 15
        assert rec["event_deck"] is None and all(r["event_deck"] is None for r in rec["rounds"])
    # the same games under deck: 15 draws are the 15 cards once each
    cfg = AssembleeConfig(4, {"rounds": 15, "collapse_threshold": 10 ** 6})
    for rec in iter_records(cfg, ["free_rider"], 6, 5):
        if len(rec["rounds"]) == 15:
            assert sorted(r["event"] for r in rec["rounds"]) == sorted(L.EVENTS)


def test_A3_independent_draws_are_uniform():
    # 15,000 draws (rounds 0-9 of 1,500 games): each event 1,000 expected, sd sqrt(15000 x
    # 1/15 x 14/15) = 30.6; every count within 4.5 sd, and chi-square (14 d.f.) below 40
    # (p < 0.0003 under uniformity)
    t = Table(4, {"event_draw": "independent"})
    counts = np.zeros(15, np.int64)
    for key in range(1500):
        for r in range(10):
            t.st[L.S_ROUND] = r
            t.st[L.S_NPEND] = 0
            counts[E._draw_event(t.st, t.cfg, t.obs, t.prng, np.uint64(key), t.log)] += 1
    assert t.st[L.S_DECK_POS] == 0                        # no deck is used
    assert all(abs(c - 1000) < 4.5 * 30.6 for c in counts), counts
    assert ((counts - 1000) ** 2 / 1000).sum() < 40


def test_A3_independent_keeps_the_setup_draws():
    # the MC and the personalities come from the same stream whatever event_draw says
    a = Table(9, {"personalities": True})
    b = Table(9, {"personalities": True, "event_draw": "independent"})
    for t in (a, b):
        E.setup(t.st, t.cfg, t.obs, t.prng, t.key, t.log, t.res)
    assert a.st[L.S_MC] == b.st[L.S_MC]
    assert list(a.st[L.S_PERS:L.S_PERS + 9]) == list(b.st[L.S_PERS:L.S_PERS + 9])


# ------------------------------------------------------------------ A4 auction
def test_A4_all_pay_highest_wins():
    t = Table(4, gold=[10, 10, 10, 10], bid=[3, 5, 0, 4])
    assert auction(t, "priest") == 1
    assert t.gold() == [7, 5, 10, 6]                      # every bid is paid


def test_A4_no_bid_no_holder():
    t = Table(4, gold=[5, 5, 5, 5], bid=[0, 0, 0, 0])
    assert auction(t, "hero") == -1


def test_A4_tie_most_renown_then_mc():
    t = Table(4, gold=[9] * 4, renown=[1, 4, 4, 0], bid=[3, 3, 3, 1])
    assert auction(t, "hero") in (1, 2)                   # seats 1, 2 tied on renown 4
    t = Table(4, mc=3, gold=[9] * 4, renown=[1, 4, 4, 0], bid=[3, 3, 3, 1], tie=[0, 0, 0, 2])
    assert auction(t, "hero") == 2                        # the MC (seat 3) names seat 2
    t = Table(4, mc=3, gold=[9] * 4, renown=[1, 4, 4, 0], bid=[3, 3, 3, 1], tie=[0, 0, 0, 1])
    assert auction(t, "hero") == 1
    t = Table(4, mc=3, gold=[9] * 4, renown=[9, 4, 4, 0], bid=[3, 3, 3, 1], tie=[0, 0, 0, 1])
    assert auction(t, "hero") == 0                        # renown first: seat 0


def test_A4_leremac_plus_two_even_at_zero():
    t = Table(4, {"personalities": True}, gold=[9] * 4, pers=["leremac", "ulios", "ulios", "ulios"],
              bid=[0, 1, 1, 0])
    assert auction(t, "thief") == 0                       # 0 + 2 > 1 (A12)
    assert t.gold()[0] == 9
    t = Table(4, {"personalities": True}, gold=[9] * 4, pers=["leremac", "ulios", "ulios", "ulios"],
              bid=[0, 1, 1, 0])
    assert auction(t, "priest") in (1, 2)                 # only Thief, Assassin, Brigand


def test_A11_nimos_raises_after_reveal():
    t = Table(4, {"personalities": True}, gold=[9] * 4, pers=["nimos", "ulios", "ulios", "ulios"],
              bid=[3, 3, 0, 0], nimos=[1, 0, 0, 0])
    assert auction(t, "hero") == 0                        # 3 -> 4 beats 3
    assert t.gold() == [5, 6, 9, 9]                       # he pays the new amount
    assert t.st[L.S_NIMOS_USED] == 1
    assert auction(t, "priest", pos=1) in (0, 1)          # once a round: no second change
    t = Table(4, {"personalities": True}, gold=[3] * 4, pers=["nimos", "ulios", "ulios", "ulios"],
              bid=[3, 3, 0, 0], nimos=[1, 0, 0, 0])
    auction(t, "hero")
    assert t.gold()[0] == 0 and t.st[L.S_NIMOS_USED] == 0  # +1 would pass his gold


def test_A4_oracle_views_and_reveal_count():
    from demos_sim.assemblee.record import iter_records

    for view in ("three_bids", "three_players"):
        oracles = 0
        for n in (4, 10, 15):
            for rec in iter_records(AssembleeConfig(n, {"oracle_view": view}), ["civic"], 2, 3):
                for r in rec["rounds"]:
                    nrev = len(r["revealed"])
                    assert nrev == max(6, min(15, len(r["in_game"])))
                    if r["oracle"] is None:
                        continue
                    oracles += 1
                    o = r["oracle"]["seat"]
                    others = set(r["in_game"]) - {o}
                    views = r["oracle"]["views"]
                    assert all(s in others for _, s in views)
                    if view == "three_bids":      # one bid at each of auctions 0, 1, 2
                        assert [i for i, _ in views] == [0, 1, 2]
                    else:                         # the same 3 players at every auction
                        seen = {s for _, s in views}
                        assert len(seen) == min(3, len(others))
                        assert sorted(views) == sorted([i, s] for i in range(nrev) for s in seen)
        assert oracles > 0


def test_A4_three_players_oracle_bids_after_seeing():
    # three_players: the Oracle sees the bids of his 3 seats at every auction before
    # bidding (M2 check mode verifies the board shows those and only those). Seats bid
    # 2 4 1 3; he sees seats 0, 1, 2 (best 4) and bids 5: he wins
    t = Table(5, {"oracle_view": "three_players"}, gold=[10] * 5, bid=[2, 4, 1, 3, 0],
              outbid=[0, 0, 0, 0, 1])
    t.st[L.S_ORACLE] = 4
    t.st[L.S_SEES] = 0b0111
    t.sync()
    assert auction(t, "hero") == 4
    assert t.params[4, PROBE] == 1 + 0b0111
    assert auction(t, "priest", pos=1) == 4           # again at auction 1 (gold 5: bids 5)
    assert t.params[4, PROBE + 1] == 1 + 0b0111
    assert t.gold() == [6, 2, 8, 4, 0]


def test_A4_three_bids_one_bid_at_each_of_the_first_three_auctions():
    # three_bids (default): the Oracle (seat 4) sees seat 1's bid at auctions 0 and 1 (the
    # same player twice: independent draws) and seat 2's at auction 2, nothing after.
    # Seats 0-3 bid 2 4 1 3 at every auction; he bids one more than the bid he sees, 0
    # when he sees none. Auction 0: sees 4, bids 5, wins; auction 1: the same; auction
    # 2: sees seat 2's 1, bids 2 and loses to seat 1's 4; auctions 3-5: bids 0, seat 1 wins.
    # Gold 40 each, all bids paid: seat 0 40 - 6x2 = 28, seat 1 40 - 6x4 = 16, seat 2
    # 40 - 6 = 34, seat 3 40 - 18 = 22, the Oracle 40 - 5 - 5 - 2 = 28.
    t = Table(5, gold=[40] * 5, bid=[2, 4, 1, 3, 0], outbid=[0, 0, 0, 0, 1])
    t.st[L.S_ORACLE] = 4
    t.st[L.S_VIEWS:L.S_VIEWS + 3] = [1, 1, 2]
    t.sync()
    holders = [auction(t, c, pos) for pos, c in
               enumerate(["hero", "priest", "athlete", "spectacles", "broker", "peddler"])]
    assert holders == [4, 4, 1, 1, 1, 1]
    assert t.gold() == [28, 16, 34, 22, 28]
    # what his observation showed at each of his 6 bids: one other seat's bid, then none
    seen = [int(t.params[4, PROBE + pos]) - 1 for pos in range(6)]
    assert seen == [0b00010, 0b00010, 0b00100, 0, 0, 0]
    assert t.params[0, PROBE] == 0                       # only the Oracle is shown anything


def test_A4_three_bids_views_drawn_uniformly_and_independently():
    # 4 players, Oracle seat 0: each view is one of seats 1, 2, 3 (p = 1/3 each, over 3000
    # reveals x 3 views: mean 3000, sd sqrt(9000 x 1/3 x 2/3) = 44.7); the 3 views of a
    # round are all different with p = 1 x 2/3 x 1/3 = 2/9 (sd sqrt(3000 x 2/9 x 7/9) /
    # 3000 = 0.0076). Within 4.5 sd.
    t = Table(4)
    counts = np.zeros(4, np.int64)
    distinct = 0
    for key in range(3000):
        t.st[L.S_ORACLE_NEXT] = 0
        E._reveal(t.st, t.cfg, t.obs, t.prng, np.uint64(key), t.log, t.res, t.wk)
        v = list(t.st[L.S_VIEWS:L.S_VIEWS + 3])
        assert t.st[L.S_ORACLE] == 0 and t.st[L.S_SEES] == 0   # nothing seen before auction 0
        for s in v:
            counts[s] += 1
        distinct += len(set(v)) == 3
    assert counts[0] == 0
    assert all(abs(c - 3000) < 4.5 * 44.7 for c in counts[1:]), counts
    assert abs(distinct / 3000 - 2 / 9) < 4.5 * 0.0076, distinct
    t = Table(4, {"oracle_view": "three_players"})        # 3 others: all 3 seen all round
    t.st[L.S_ORACLE_NEXT] = 0
    E._reveal(t.st, t.cfg, t.obs, t.prng, np.uint64(1), t.log, t.res, t.wk)
    assert t.st[L.S_SEES] == 0b1110


# ------------------------------------------------------------------ A5 events
def test_A5_1_harvest_and_stop():
    t = Table(4, gold=[1, 2, 3, 4], yes=[0, 0, 0, 0])
    t.hold([("brigand", 2)])
    E._good_event(*t.a(), t.key, L.EV_HARVEST)
    assert t.gold() == [11, 12, 13, 14]                   # +10 to every player
    t = Table(4, gold=[1, 2, 3, 4], yes=[0, 0, 1, 0])
    t.hold([("brigand", 2)])
    E._good_event(*t.a(), t.key, L.EV_HARVEST)
    assert t.gold() == [1, 2, 3, 4] and t.renown() == [0, 0, 0, 0]  # stopped: no renown
    assert t.st[L.S_SPENT] == 1 << L.CH_BRIGAND
    t = Table(4, yes=[0] * 4)
    E._good_event(*t.a(), t.key, L.EV_WEDDING)
    assert sorted(t.renown()) == [0, 0, 3, 3]             # two players drawn, +3 each
    t = Table(4, gold=[0] * 4, yes=[0] * 4)
    E._good_event(*t.a(), t.key, L.EV_TRIUMPH)
    assert t.gold() == [5] * 4
    t.check()


def test_A5_2_pledges_paid_only_when_reached_and_postponed():
    # Flood: 5 + X (4) + 3p; p = 0 -> 9; pledges 2+2+2+2 = 8 < 9: nothing paid, p -> 1
    t = Table(4, gold=[5] * 4, pledge=[2, 2, 2, 2])
    t.pend(("flood", 0))
    E._harmful(*t.a(), t.res)
    assert t.gold() == [5] * 4 and t.st[L.S_NPEND] == 1 and t.st[L.S_PEND_P] == 1
    # next round: 9 + 3 = 12; pledges 3+3+3+3 = 12 reach it: all paid, resolved
    t.params[:4, PLEDGE] = 3
    E._harmful(*t.a(), t.res)
    assert t.gold() == [2] * 4 and t.st[L.S_NPEND] == 0
    t.check()


def test_A5_2_spend_resolving_character_once():
    # two Floods pending (possible after a reshuffle, A12): the Priest resolves one only
    t = Table(4, gold=[0] * 4, yes=[0, 1, 0, 0])
    t.hold([("priest", 1)])
    t.pend(("flood", 0), ("flood", 2))
    E._harmful(*t.a(), t.res)
    assert t.renown() == [0, 3, 0, 0]                     # +3 to the holder
    assert t.st[L.S_NPEND] == 1 and t.st[L.S_PEND_P] == 3  # the second postponed: 2 -> 3
    assert (t.st[L.S_SPENT] >> L.CH_PRIEST) & 1
    t.check()


@pytest.mark.parametrize("n,thr", [(4, 20), (7, 20), (8, 35), (11, 35), (12, 40), (15, 40)])
def test_A5_3_threshold_by_players(n, thr):
    assert default_threshold(n) == thr
    assert AssembleeConfig(n).threshold == thr
    assert AssembleeConfig(n, {"collapse_threshold": 7}).threshold == 7


@pytest.mark.parametrize("surcharge,cost,resolved", [("per_round", 15, False), ("once", 12, True)])
def test_A5_2_postpone_surcharge(surcharge, cost, resolved):
    # Flood postponed twice, 4 players: per_round 5 + 4 + 3x2 = 15; once 5 + 4 + 3 = 12.
    # Pledges 3 each = 12: resolved (and paid) under once only
    t = Table(4, {"postpone_surcharge": surcharge}, gold=[5] * 4, pledge=[3] * 4, log=True)
    t.pend(("flood", 2))
    assert t.obs[L.O_PEND_COST] == cost                   # the total shown to policies
    E._harmful(*t.a(), t.res)
    assert t.logged(L.L_PEND) == [(L.EV_FLOOD, 2, cost, 0, 0)]
    assert t.gold() == ([2] * 4 if resolved else [5] * 4)
    assert t.st[L.S_NPEND] == (0 if resolved else 1)
    t.check()


@pytest.mark.parametrize("surcharge,costs", [("per_round", [9, 12, 15, 18]),
                                             ("once", [9, 12, 12, 12])])
def test_A5_2_surcharge_over_rounds(surcharge, costs):
    # a Flood nobody pledges for, 4 players: p = 0, 1, 2, 3 -> 5 + 4 + 3p, or 3·min(p, 1)
    t = Table(4, {"postpone_surcharge": surcharge}, gold=[0] * 4, log=True)
    t.pend(("flood", 0))
    for _ in range(4):
        E._harmful(*t.a(), t.res)
    assert [c for _, _, c, _, _ in t.logged(L.L_PEND)] == costs
    assert t.st[L.S_PEND_P] == 4


@pytest.mark.parametrize("surcharge,total,collapses", [("per_round", 28, True), ("once", 25, False)])
def test_A5_3_collapse_under_postpone_surcharge(surcharge, total, collapses):
    # 4 players, threshold 26: Epidemic p=2 and Famine p=1. per_round: 6 + 4 + 6 = 16 and
    # 5 + 4 + 3 = 12, 28 >= 26: collapse; once: 6 + 4 + 3 = 13 and 12, 25 < 26: none
    t = Table(4, {"postpone_surcharge": surcharge, "collapse_threshold": 26}, log=True)
    t.pend(("epidemic", 2), ("famine", 1))
    assert E._collapse(t.st, t.cfg, t.log, t.res) == collapses
    assert t.logged(L.L_COLLAPSE) == [(int(collapses), total, 0, 0, 0)]


def test_A5_3_collapse():
    # 4 players: Epidemic 6+4+3*1 = 13, Famine 5+4+3*0 = 9: 22 >= 20 collapses; 13 alone not
    t = Table(4)
    t.pend(("epidemic", 1), ("famine", 0))
    assert E._collapse(t.st, t.cfg, t.log, t.res)
    t = Table(4)
    t.pend(("epidemic", 1))
    assert not E._collapse(t.st, t.cfg, t.log, t.res)


# ------------------------------------------------------------------ A7 benefits
def test_A7_simple_benefits():
    t = Table(6, gold=[10] * 6, buy=[0, 0, 0, 0, 6, 4])
    t.hold([("spectacles", 0), ("peddler", 1), ("priest", 2), ("hero", 3), ("builder", 4),
            ("crier", 5)])
    E._benefits(*t.a(), t.res)
    assert t.renown() == [5, 0, 3, 4, 8, 2]               # Builder 6 -> 8, Crier 4 -> 2
    assert t.gold() == [10, 17, 10, 10, 4, 6]
    t = Table(4, gold=[0] * 4)
    t.hold([("athlete", 0), ("broker", 1), ("philosopher", 2), ("oracle", 3)])
    E._benefits(*t.a(), t.res)
    assert t.renown() == [3, 0, 2, 0] and t.gold() == [0, 4, 0, 0]
    assert t.st[L.S_ORACLE_NEXT] == 3
    t.check()


def test_A7_thief_courtesan_brigand():
    t = Table(4, gold=[0, 9, 0, 0], renown=[0, 0, 3, 0], target=[1, 2, 1, 0])
    t.hold([("thief", 0), ("courtesan", 1), ("brigand", 2)])
    E._benefits(*t.a(), t.res)
    assert t.gold() == [4, 5, 0, 0]                       # half of 9, rounded down
    assert t.renown() == [0, 0, 0, 0]                     # -4, not below 0
    assert t.st[L.S_BRIG_NEXT] == 0b0010
    t.check()


def test_A7_guard_immunity_and_spent_guard():
    t = Table(4, gold=[0, 9, 0, 0], target=[1, 0, 0, 0])
    t.hold([("thief", 0), ("guard", 1)])                  # the Guard later in the order
    E._benefits(*t.a(), t.res)
    assert t.gold() == [0, 9, 0, 0]                       # immune for all of A7
    t = Table(4, gold=[0, 9, 0, 0], target=[1, 0, 0, 0])
    t.hold([("thief", 0), ("guard", 1)])
    t.st[L.S_SPENT] = 1 << L.CH_GUARD                     # spent on Sparta's raid
    t.sync()
    E._benefits(*t.a(), t.res)
    assert t.gold() == [4, 5, 0, 0]


def test_A7_assassin_mc_replacement_and_arthas():
    t = Table(5, mc=2, gold=[30, 0, 5, 0, 0], target=[2, 0, 0, 0, 0])
    t.hold([("assassin", 0), ("priest", 2)])
    ended = E._benefits(*t.a(), t.res)
    assert not ended
    assert t.gold()[0] == 5 and not (t.st[L.S_IN] >> 2) & 1   # 25 paid, seat 2 out
    assert t.renown()[2] == 0                             # his Priest gives nothing
    assert t.st[L.S_MC] == 3                              # next on the MC's left
    t.check()
    t = Table(4, {"personalities": True}, gold=[30, 0, 0, 0], pers=[None, "arthas", None, None],
              target=[1, 0, 0, 0])
    t.hold([("assassin", 0)])
    E._benefits(*t.a(), t.res)
    assert t.gold()[0] == 5 and (t.st[L.S_IN] >> 1) & 1   # cancelled, 25 still paid
    assert t.st[L.S_ARTHAS_USED] == 0b10
    t = Table(4, gold=[24, 0, 0, 0], target=[1, 0, 0, 0])
    t.hold([("assassin", 0)])
    E._benefits(*t.a(), t.res)
    assert t.st[L.S_IN] == 0b1111 and t.gold()[0] == 24   # cannot pay: declines


def test_A7_min_players_ends_at_once():
    t = Table(4, {"min_players": 4}, gold=[30, 0, 0, 0], target=[1, 0, 0, 0])
    t.hold([("assassin", 0), ("priest", 2)])
    assert E._benefits(*t.a(), t.res)
    assert t.renown()[2] == 0 and t.st[L.S_ENDED] == 2


# ------------------------------------------------------------------ A8 ostracism
def test_A8_passes_shares_rounded_up():
    # 4 in the game: supporters needed ceil(8/3) = 3; gold 8+8+8+11 = 35 -> ceil(35/4) = 9
    t = Table(4, mc=3, gold=[8, 8, 8, 11], renown=[0, 0, 0, 7], propose=[1, 0, 0, 0],
              target=[3, 0, 0, 0], yes=[1, 1, 1, 0], ostp=[3, 3, 3, 0])
    E._ostracism(*t.a(), t.res)
    # pledges 9 paid; seat 3 out with 11 gold, 7 renown: 3 players, ceil(11/3) = 4,
    # ceil(7/3) = 3; proposer +3. The exiled MC names seat 0 (target param 0)
    assert not (t.st[L.S_IN] >> 3) & 1
    assert t.gold() == [9, 9, 9, 0] and t.renown() == [6, 3, 3, 0]
    assert t.st[L.S_MC] == 0
    t.check()


def test_A8_fails_pledges_still_paid():
    t = Table(4, gold=[8, 8, 8, 11], propose=[1, 0, 0, 0], target=[3, 0, 0, 0],
              yes=[1, 1, 1, 0], ostp=[2, 2, 2, 0])             # 6 < 9
    E._ostracism(*t.a(), t.res)
    assert t.st[L.S_IN] == 0b1111 and t.gold() == [6, 6, 6, 11] and t.renown() == [0] * 4
    t = Table(4, gold=[8, 8, 8, 11], propose=[1, 0, 0, 0], target=[3, 0, 0, 0],
              yes=[1, 1, 0, 0], ostp=[9, 9, 9, 0])             # 2 supporters < 3
    E._ostracism(*t.a(), t.res)
    assert t.st[L.S_IN] == 0b1111 and t.gold() == [0, 0, 8, 11]  # non-supporters pay nothing


def test_A8_first_proposer_in_turn_order():
    t = Table(4, mc=1, gold=[4] * 4, propose=[1, 0, 0, 1], target=[1, 0, 0, 2])
    E._ostracism(*t.a(), t.res)
    # turn order from the MC's left is 2, 3, 0, 1: seat 2 declines, seat 3 proposes first
    assert t.res[L.R_OST_PROPOSALS] == 1
    assert t.obs[L.O_PROPOSED + 3] == 1 and t.obs[L.O_PROPOSED + 0] == 0


# ------------------------------------------------------------------ A9 honours, A10 end
def test_A9_honours_and_ties():
    t = Table(4, renown=[0, 1, 2, 0], vote=[2, 2, 1, 1])
    E._honours(*t.a())
    assert t.renown() == [0, 1, 7, 0]                     # 2-2 tie: seat 2 has more renown
    t = Table(4, mc=0, renown=[0, 2, 2, 0], vote=[2, 2, 1, 1], tie=[1, 0, 0, 0])
    E._honours(*t.a())
    assert t.renown() == [0, 7, 2, 0]                     # still tied: the MC names seat 1


def test_A10_scores_ties_gold_then_shared():
    t = Table(4, gold=[9, 6, 6, 0], renown=[2, 3, 3, 5])
    E._final(*t.a(), t.res)
    assert list(t.res[L.R_SCORE:L.R_SCORE + 4]) == [5, 5, 5, 5]
    assert t.res[L.R_WINMASK] == 0b0001                    # most gold
    t = Table(4, gold=[6, 6, 0, 0], renown=[3, 3, 0, 0], tie=[1] * 4)
    E._final(*t.a(), t.res)
    assert t.res[L.R_WINMASK] == 0b0011 and t.res[L.R_NWIN] == 2   # shared: nobody asked
    assert t.res[L.R_FINAL_TIED] == 2
    t.st[L.S_ENDED] = 1                                   # a collapse: no winner
    E._final(*t.a(), t.res)
    assert t.res[L.R_NWIN] == 0 and t.res[L.R_SCORE] == 5


def test_A10_mc_choice_names_one_of_the_tied():
    # scores 6//3 + 3 = 5, 5, 0, 4 (seat 3: 12//3 + 0 = 4): seats 0 and 1 tied on 5 with 6
    # gold each. The MC (seat 2, not tied) names seat 1: the only winner
    t = Table(4, {"final_tie": "mc_choice"}, mc=2, gold=[6, 6, 0, 12], renown=[3, 3, 0, 0],
              tie=[0, 0, 1, 0], log=True)
    E._final(*t.a(), t.res)
    assert t.res[L.R_WINMASK] == 0b0010 and t.res[L.R_NWIN] == 1
    assert t.res[L.R_FINAL_TIED] == 2
    assert t.logged(L.L_FINAL_TIE) == [(2, 1, 0b0011, 0, 0)]   # MC 2 named 1 among {0, 1}
    t.check()
    # the MC tied himself may name himself (seat 0 names 0) or the other
    for pick in (0, 1):
        t = Table(4, {"final_tie": "mc_choice"}, mc=0, gold=[6, 6, 0, 12],
                  renown=[3, 3, 0, 0], tie=[pick, 0, 0, 0])
        E._final(*t.a(), t.res)
        assert t.res[L.R_WINMASK] == 1 << pick
    # seat 0 wins on gold (9 > 6 with the same score 5): no tie left, nobody asked
    t = Table(4, {"final_tie": "mc_choice"}, mc=2, gold=[9, 6, 0, 0], renown=[2, 3, 0, 0],
              tie=[0, 0, 1, 0], log=True)
    E._final(*t.a(), t.res)
    assert t.res[L.R_WINMASK] == 0b0001 and t.logged(L.L_FINAL_TIE) == []
    assert t.res[L.R_FINAL_TIED] == 0
    # a collapse: no winner and no choice
    t = Table(4, {"final_tie": "mc_choice"}, mc=2, gold=[6, 6, 0, 0], renown=[3, 3, 0, 0],
              tie=[0, 0, 1, 0], log=True)
    t.st[L.S_ENDED] = 1
    E._final(*t.a(), t.res)
    assert t.res[L.R_NWIN] == 0 and t.logged(L.L_FINAL_TIE) == []


def test_A10_mc_choice_by_the_mc_at_the_end():
    # A8 as in test_A8_passes_shares_rounded_up: the MC, seat 3, is exiled and names seat 0
    # the new MC; figures after: gold 9 9 9 -, renown 6 3 3 -. Seat 0's renown set to 3:
    # seats 0, 1, 2 tied (3 + 9//3 = 6, gold 9). The MC at the end, seat 0, names seat 2
    # (the exiled seat 3 would have named seat 1)
    t = Table(4, {"final_tie": "mc_choice"}, mc=3, gold=[8, 8, 8, 11], renown=[0, 0, 0, 7],
              propose=[1, 0, 0, 0], target=[3, 0, 0, 0], yes=[1, 1, 1, 0], ostp=[3, 3, 3, 0],
              tie=[2, 0, 0, 1])
    E._ostracism(*t.a(), t.res)
    assert t.st[L.S_MC] == 0 and t.gold() == [9, 9, 9, 0]
    t.st[L.S_REN] = 3
    t.sync()
    E._final(*t.a(), t.res)
    assert t.res[L.R_WINMASK] == 0b0100 and t.res[L.R_FINAL_TIED] == 3
    t.check()


def test_A10_personas_name_themselves_else_by_their_vote_rule():
    # the persona kernel asked for the final tie (K_TIE, O_TIE_WHAT = 2): itself when
    # tied; else civic (vote "generous") names the tied player who pledged most over the
    # game (seat 3: 9 > 5); random picks uniformly
    from demos_sim.assemblee.policies import get

    civic = get("civic")
    rnd = get("random")
    obs = np.zeros(L.OBS_LEN, np.int64)
    obs[L.O_KIND] = L.K_TIE
    obs[L.O_TIE_WHAT] = 2
    obs[L.O_N] = 4
    obs[L.O_IN] = 0b1111
    obs[L.O_SEAT] = 1
    obs[L.O_PLEDGED + 1] = 5
    obs[L.O_PLEDGED + 3] = 9
    opts = np.zeros(L.MAXOPT, np.int64)
    rng = np.array([7], np.uint64)
    opts[:2] = [1, 3]
    assert civic.fn(np.zeros(L.CFG_LEN, np.int64), obs, opts, 2, civic.params, rng) == 0
    obs[L.O_SEAT] = 0
    assert civic.fn(np.zeros(L.CFG_LEN, np.int64), obs, opts, 2, civic.params, rng) == 1
    picks = [rnd.fn(np.zeros(L.CFG_LEN, np.int64), obs, opts, 2, rnd.params, rng)
             for _ in range(400)]
    assert 150 < sum(picks) < 250                         # binomial(400, 1/2): sd 10


@pytest.mark.parametrize("seen,peek,bid", [(None, 1, 4), (3, 1, 4), (4, 1, 0), (2, 0, 4),
                                           (4, 0, 4)])
def test_A4_peek_persona_uses_the_bid_it_sees(seen, peek, bid):
    # civic with no noise and no reserve values the Hero at 4 renown = 4 points: it bids 4.
    # As the Oracle seat with peek, seeing seat 2's bid: 3 < 4, keeps 4; 4 >= 4: 5 would
    # pass the Hero's worth (4), so it bids 0 (a bid it expects to lose); without peek,
    # or seeing nothing, 4
    from demos_sim.assemblee.policies import get

    civic = get("civic")
    params = civic.params.copy()
    params[1] = 0.0                                       # bid_noise
    params[2] = 0.0                                       # reserve
    params[31] = peek                                     # peek
    obs = np.zeros(L.OBS_LEN, np.int64)
    obs[L.O_BIDS:L.O_BIDS + L.NCHAR * L.MAXP] = -1
    obs[L.O_KIND] = L.K_BID
    obs[L.O_N] = 4
    obs[L.O_NIN] = 4
    obs[L.O_IN] = 0b1111
    obs[L.O_SEAT] = 0
    obs[L.O_ORACLE] = 0
    obs[L.O_CHAR] = L.CH_HERO
    obs[L.O_POS] = 0
    obs[L.O_MAX] = 20
    obs[L.O_PERS:L.O_PERS + L.MAXP] = -1
    if seen is not None:
        obs[L.O_BIDS + 2] = seen
    opts = np.zeros(L.MAXOPT, np.int64)
    rng = np.array([3], np.uint64)
    assert civic.fn(np.zeros(L.CFG_LEN, np.int64), obs, opts, 21, params, rng) == bid
