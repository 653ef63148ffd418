"""The L'Assemblée kit: options in words, and positions from the records' names (Part A).

- ``describe_option`` reads each decision kind's options as the rules say (A4, A5.1,
  A5.2, A7, A8, A9, A10, A11).
- ``position(...)`` gives the observation and options the engine itself gives: checked
  at decisions of real games (snapshots taken inside the engine; every kind that arises
  with personalities, the Oracle's views and the MC's final tie); hand-set positions list
  their options as written by hand from the rules; impossible ones are refused.
"""

import re

import numpy as np
import pytest
from numba import njit

from demos_sim.assemblee import engine as E
from demos_sim.assemblee import kit
from demos_sim.assemblee import layout as L
from demos_sim.assemblee.observe import event_cost
from demos_sim.assemblee.policies import POLICY_SIG
from demos_sim.assemblee.positions import HISTORY, Position, position
from demos_sim.assemblee.rules import AssembleeConfig
from demos_sim.registry import N_PARAMS
from demos_sim.rng import below
from demos_sim.sim_common import chunk_game_keys


# ------------------------------------------------------------------ options in words
def test_describe_option_prints_every_kind():
    d = kit.describe_option
    assert d("bid", 5) == "bid 5 gold" and d("pledge", 0) == "pledge 0 gold"
    assert d("nimos", -1) == "lower the bid by 1" and d("nimos", 1) == "raise the bid by 1"
    assert d("target", -1) == "decline (no target)" and d("target", 2) == "target seat 2"
    assert d("propose", -1) == "no proposal" and d("propose", 3) == "propose to exile seat 3"
    assert d("support", 1) == "support the exile" and d("support", 0) == "do not support"
    assert d("vote", 4) == "vote for seat 4" and d("name_mc", 1) == "name seat 1 MC"
    assert d("buy", 0) == "buy nothing" and d("stop", 0) == "let it happen"
    with pytest.raises(ValueError, match="unknown L'Assemblée decision kind"):
        d("discard", 1)


# ------------------------------------------------------------------ hand-set positions
def test_hand_set_positions_list_the_options_of_the_rules():
    # A4: a bid is a whole number from 0 to the bidder's gold (the index is the amount)
    pos = position("bid", seat=3, gold=[10, 4, 7, 12], character="thief")
    assert pos.n_opts == 13 and pos.texts()[12] == "bid 12 gold on the thief"
    assert kit.max_amount(pos.obs) == 12 and kit.character(pos.obs) == L.CH_THIEF
    # A7, A12: the Assassin may decline, and names a target only with 25 gold
    pos = position("target", seat=1, character="assassin", gold=[3, 30, 0, 2], out=[2],
                   players=4, variants={"min_players": 3})
    assert pos.texts() == ["decline (no target)", "target seat 0", "target seat 3"]
    with pytest.raises(ValueError, match="needs 25 gold"):
        position("target", seat=1, character="assassin", gold=[3, 24, 0, 2])
    # A7: the Builder sells 2/5/8 renown for 3/4/6 gold, what the holder can afford
    pos = position("buy", seat=0, character="builder", gold=[4, 0, 0, 0])
    assert pos.texts() == ["buy nothing", "pay 3 gold for 2 renown", "pay 4 gold for 5 renown"]
    # A5.2: the pending flood (base 5) costs 5 + X + 3p: 4 players, postponed twice
    pos = position("pledge", seat=2, gold=[10, 4, 7, 12], event="flood",
                   pending=[("flood", 2)])
    assert kit.cost(pos.obs) == 5 + 4 + 6 and pos.n_opts == 8
    assert kit.pending_cost(pos.obs) == 15
    # A5.2: the Priest resolves the flood; its holder decides whether to spend it
    pos = position("spend", seat=1, character="priest", event="flood", pending=["flood"],
                   gold=[1, 1, 1, 1])
    assert pos.texts() == ["keep the character", "spend the priest for the flood"]
    # A5.1: the Brigand stops the harvest
    pos = position("stop", seat=0, character="brigand", event="harvest")
    assert pos.texts() == ["let it happen", "spend the brigand to stop the harvest"]
    # A8: the threshold of an exile: ceil(2/3 X) supporters, ceil(G / 4) gold
    pos = position("support", seat=2, proposer=0, target=1, gold=[10, 20, 5, 6, 0],
                   history={"proposals": 1})
    assert int(pos.obs[L.O_NEED_SUP]) == 4 and int(pos.obs[L.O_NEED_GOLD]) == 11
    assert pos.texts() == ["do not support", "support the exile"]
    # A8: one proposal a round, any other player in the game; A9 votes likewise
    pos = position("propose", seat=2, gold=[0, 1, 1, 1], out=[0], mc=1, players=4)
    assert pos.texts() == ["no proposal", "propose to exile seat 1", "propose to exile seat 3"]
    assert position("vote", seat=3).options() == [0, 1, 2, 4, 5]
    # A9 ties: most renown first, then the MC's choice
    pos = position("tie", seat=2, mc=2, tie="honours", tied=[0, 3, 4],
                   renown=[5, 0, 0, 5, 2, 0])
    assert pos.texts() == ["seat 0 is honoured", "seat 3 is honoured"]
    # A11: Nimos changes the bid just revealed by exactly 1, within his gold, not below 0
    pos = position("nimos", seat=1, character="thief", gold=[5, 3, 5, 5],
                   bids={"thief": [1, 3, 0, 2]}, variants={"personalities": True},
                   personalities=["ulios", "nimos", "ulios", "ulios"])
    assert pos.texts() == ["keep the bid", "lower the bid by 1"]
    # A8: an exiled MC names the new one among the players left
    pos = position("name_mc", seat=1, mc=1, proposer=0, target=1, out=[1],
                   gold=[1, 0, 1, 1, 1])
    assert pos.texts() == ["name seat 0 MC", "name seat 2 MC", "name seat 3 MC",
                           "name seat 4 MC"]


def test_the_oracle_sees_the_bids_of_the_seat_it_views():
    # A4 three_bids: at the first 3 auctions the Oracle-advantage seat sees one seat's bid
    pos = position("bid", seat=0, oracle=0, sees=[2], character="thief",
                   revealed=["thief", "guard", "priest", "hero", "broker", "athlete"],
                   bids={"thief": [0, 0, 6, 0]}, gold=[10, 10, 10, 10])
    assert [kit.revealed_bid(pos.obs, 0, p) for p in range(4)] == [-1, -1, 6, -1]
    other = position("bid", seat=1, oracle=0, sees=[2], character="thief", players=4,
                     gold=[10, 10, 10, 10])
    assert [kit.revealed_bid(other.obs, 0, p) for p in range(4)] == [-1, -1, -1, -1]
    with pytest.raises(ValueError, match="only the Oracle-advantage seat sees"):
        position("bid", seat=1, oracle=0, sees=[2], character="thief", players=4,
                 bids={"thief": [0, 0, 6, 0]})


def test_position_refuses_what_cannot_happen():
    bad = [
        (dict(kind="bid"), "needs character="),
        (dict(kind="bid", character="thief", gold=[-1, 0, 0, 0]), "never negative"),
        (dict(kind="spend", seat=0, character="oracle", event="flood", pending=["flood"]),
         "resolved by the priest (A6)"),
        (dict(kind="pledge", event="flood"), "not pending (A5.2)"),
        (dict(kind="pending", event="flood"), "unknown L'Assemblée decision kind"),
        (dict(kind="stop", character="thief", event="harvest"), "(A5.1)"),
        (dict(kind="target", character="priest"), "names no target (A7)"),
        (dict(kind="nimos", character="thief"), "only Nimos"),
        (dict(kind="vote", seat=1, out=[1]), "only an exiled MC"),
        (dict(kind="tie", tie="honours", tied=[1, 2], seat=3), "the MC breaks a tie"),
        (dict(kind="vote", players=4, out=[0, 1]), "min_players"),
        (dict(kind="pledge", event="harvest", pending=["harvest"]), "never pending"),
        (dict(kind="support", proposer=0, target=0), "names its proposer= and target="),
    ]
    for kw, msg in bad:
        with pytest.raises(ValueError, match=re.escape(msg)):
            position(**kw)


def test_decide_names_the_choice_and_refuses_a_bad_index():
    pos = position("target", seat=1, character="thief", gold=[30, 5, 12, 0])
    assert isinstance(pos, Position)
    c = pos.decide("civic")
    assert (c.index, c.option, c.text) == (0, 0, "target seat 0")   # the leader (30 gold)
    pos = position("pledge", seat=2, gold=[10, 4, 7, 12], event="flood", pending=["flood"])
    # civic pledges its fair share ceil(9 / 4) = 3; free_rider never pledges
    assert pos.decide("civic").text == "pledge 3 gold for the flood"
    assert pos.decide("free_rider").text == "pledge 0 gold for the flood"

    @njit(POLICY_SIG)
    def too_much(cfg, obs, opts, n_opts, params, rng):
        return n_opts

    with pytest.raises(ValueError, match=r"answered option index 8 .* 8 options"):
        pos.decide(too_much)
    assert "pledge for an event (A5.2) of seat 2" in str(pos)


# ------------------------------------------------------------------ against the engine
SNAP_AT, SNAP_COUNT, SNAP_N = N_PARAMS, N_PARAMS + 1, N_PARAMS + 2
SNAP_OBS = N_PARAMS + 3
SNAP_OPTS = SNAP_OBS + L.OBS_LEN
SNAP_W = SNAP_OPTS + L.MAXOPT


@njit(POLICY_SIG, cache=True)
def _snapshot(cfg, obs, opts, n_opts, params, rng):
    """Random play (amounts from a short range, so games go on); copies the observation
    and the options of its SNAP_AT-th decision."""
    if params[SNAP_COUNT] == params[SNAP_AT]:
        for i in range(L.OBS_LEN):
            params[SNAP_OBS + i] = obs[i]
        for i in range(min(n_opts, L.MAXOPT)):
            params[SNAP_OPTS + i] = opts[i]
        params[SNAP_N] = n_opts
    params[SNAP_COUNT] += 1
    k = obs[L.O_KIND]
    if k == L.K_BID or k == L.K_PLEDGE or k == L.K_OST_PLEDGE:
        return below(rng, 0, min(n_opts, 6))
    return below(rng, 0, n_opts)


def _snapshots(config, key, at):
    cfg = config.to_array()
    prm = np.zeros((L.MAXP, SNAP_W))
    prm[:, SNAP_AT] = at
    E.play_game((_snapshot,) * L.MAXP, cfg, prm, np.uint64(key), np.zeros(L.ST_LEN, np.int64),
                np.zeros(L.OBS_LEN, np.int64), np.zeros(L.MAXOPT, np.int64),
                np.zeros(L.NSTREAM, np.uint64), np.zeros(L.WK_LEN, np.int64),
                np.zeros(2, np.int64), np.zeros(E.DIAG_LEN, np.int64),
                np.zeros(L.RES_LEN, np.int64))
    out = []
    for seat in range(config.players):
        n = int(prm[seat, SNAP_N])
        if n:
            out.append((prm[seat, SNAP_OBS:SNAP_OBS + L.OBS_LEN].astype(np.int64), n,
                        prm[seat, SNAP_OPTS:SNAP_OPTS + min(n, L.MAXOPT)].astype(np.int64)))
    return out


def _mask_names(mask, names):
    return [names[i] for i in range(len(names)) if (int(mask) >> i) & 1]


def _pending(config, ob, nin):
    """A pending list that shows what ``ob`` shows: the counts by event, the total cost,
    and (spend, pledge) the cost of the event concerned (the rounds each was postponed
    are not shown: any split of them with those costs is the same observation)."""
    cfg = config.to_array()
    once = config.variants["postpone_surcharge"] == "once"
    events = [e for e in range(L.NHARM) for _ in range(int(ob[L.O_PEND_COUNT + e]))]
    if int(ob[L.O_KIND]) in (L.K_SPEND, L.K_PLEDGE):
        e = int(ob[L.O_EVENT])
        events.remove(e)
        events.insert(0, e)
    p = [0] * len(events)
    extra = (int(ob[L.O_PEND_COST]) - sum(L.EVENT_BASE[e] + nin for e in events)) // 3
    if int(ob[L.O_KIND]) in (L.K_SPEND, L.K_PLEDGE):
        p[0] = (int(ob[L.O_COST]) - L.EVENT_BASE[events[0]] - nin) // 3
        extra -= min(p[0], 1) if once else p[0]
    for i in range(1 if int(ob[L.O_KIND]) in (L.K_SPEND, L.K_PLEDGE) else 0, len(events)):
        take = min(extra, 1) if once else extra
        p[i] = take
        extra -= take
    assert sum(int(event_cost(cfg, L.EVENT_BASE[e], nin, q)) for e, q in zip(events, p)) == \
        int(ob[L.O_PEND_COST])
    return [(L.EVENTS[e], q) for e, q in zip(events, p)]


def _rebuilt(config, ob, opts):
    n = config.players
    k = int(ob[L.O_KIND])
    inn = int(ob[L.O_IN])
    nin = int(ob[L.O_NIN])
    nrev = int(ob[L.O_NREV])
    rev = [L.CHARACTERS[int(ob[L.O_REV + i])] for i in range(nrev)]
    bids = {}
    for i in range(nrev):
        row = [int(x) for x in ob[L.O_BIDS + i * L.MAXP:L.O_BIDS + i * L.MAXP + n]]
        if any(x >= 0 for x in row):
            bids[rev[i]] = [max(x, 0) for x in row]
    ch = int(ob[L.O_CHAR])
    history = {name: ([int(x) for x in ob[off:off + n]] if per else int(ob[off]))
               for name, (off, per) in HISTORY.items()}
    ev, ev_now = int(ob[L.O_EVENT]), int(ob[L.O_EVENT_NOW])
    kw = dict(
        config=config, gold=[int(x) for x in ob[L.O_GOLD:L.O_GOLD + n]],
        renown=[int(x) for x in ob[L.O_REN:L.O_REN + n]], mc=int(ob[L.O_MC]),
        round=int(ob[L.O_ROUND]), out=[p for p in range(n) if not (inn >> p) & 1],
        personalities=([L.PERSONALITIES[int(x)] for x in ob[L.O_PERS:L.O_PERS + n]]
                       if config.variants["personalities"] else None),
        revealed=rev if nrev else None,
        holders={rev[i]: int(ob[L.O_HOLDER + i]) for i in range(nrev)
                 if ob[L.O_HOLDER + i] >= 0},
        bids=bids, character=L.CHARACTERS[ch] if ch >= 0 else None,
        event=L.EVENTS[ev] if ev >= 0 else None,
        round_event=L.EVENTS[ev_now] if ev_now >= 0 else None,
        pending=_pending(config, ob, nin),
        spent=_mask_names(ob[L.O_SPENT], L.CHARACTERS),
        previous={L.CHARACTERS[c]: int(ob[L.O_PREV_HOLDS + c]) for c in range(L.NCHAR)
                  if ob[L.O_PREV_HOLDS + c] >= 0},
        brigand=[p for p in range(n) if (int(ob[L.O_BRIG]) >> p) & 1],
        arthas_used=[p for p in range(n) if (int(ob[L.O_ARTHAS_USED]) >> p) & 1],
        drawn=(_mask_names(ob[L.O_DRAWN], L.EVENTS)
               if config.variants["event_draw"] == "deck" else None),
        oracle=int(ob[L.O_ORACLE]) if ob[L.O_ORACLE] >= 0 else None,
        sees=[p for p in range(n) if (int(ob[L.O_SEES]) >> p) & 1],
        history=history)
    if k in (L.K_SUPPORT, L.K_OST_PLEDGE, L.K_NAME_MC):
        kw.update(proposer=int(ob[L.O_PROPOSER]), target=int(ob[L.O_TARGET]))
    if k == L.K_TIE:
        kw.update(tied=[int(x) for x in opts],
                  tie=("auction", "honours", "final")[int(ob[L.O_TIE_WHAT])])
    return position(kit.KIND_NAMES[k], int(ob[L.O_SEAT]), **kw)


@pytest.mark.parametrize("n,variants", [
    (4, {}), (6, {"personalities": True, "final_tie": "mc_choice"}),
    (7, {"oracle_view": "three_players", "postpone_surcharge": "once",
         "event_draw": "independent", "personalities": True}),
    (5, {"final_tie": "mc_choice", "rounds": 3})])
def test_position_gives_the_engines_observation_and_options(n, variants):
    """Decisions of real games, rebuilt from what their observation shows: the same
    observation, field by field, and the same options."""
    config = AssembleeConfig(n, variants)
    kinds = set()
    for key in chunk_game_keys(3, 0, 0, 3):
        for at in (0, 3, 8, 15, 25, 40, 60, 90, 130):
            for ob, n_opts, opts in _snapshots(config, key, at):
                pos = _rebuilt(config, ob, opts)
                k = int(ob[L.O_KIND])
                assert pos.n_opts == n_opts, kit.KIND_NAMES[k]
                if k not in kit.AMOUNT_KINDS:
                    assert pos.options() == opts.tolist(), kit.KIND_NAMES[k]
                diff = np.nonzero(pos.obs != ob)[0]
                assert diff.size == 0, (kit.KIND_NAMES[k], diff, pos.obs[diff], ob[diff])
                kinds.add(kit.KIND_NAMES[k])
    assert {"bid", "propose"} <= kinds and len(kinds) >= 5, kinds
