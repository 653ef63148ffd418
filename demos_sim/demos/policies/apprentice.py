"""DĒMOS ``apprentice``: the search rung's choices at the speed of a heuristic.

A linear scorer over the options of a decision, learned from the decisions of a strong
search (``ismcts@256`` by default): ``demos-sim train-apprentice`` plays games, asks the
search what it would do at each public (D3.2), secret (D3.3) and unanimous (D3.4.3) turn
and at each veto (D3.4.1), and fits the weights of a conditional logit — the chance of
an option is ``exp(score) / Σ exp(score)`` over the decision's options — to those
choices (:mod:`demos_sim.demos.policies.apprentice_train`). The weights ship in
:mod:`demos_sim.demos.policies.apprentice_weights`, written by that command from a seed.
In play the option of highest score is taken; no chance is drawn in those decisions.

Everything is computed from the seat's observation (RULES.md M2).

- **Options scored** (the discard turns): the same as the search's root candidates —
  every public discard; the pass (when ``secret_optional``), every discard with a blind
  draw, and every discard with a take of a face-up card that completes a combination
  with the hand; the ``WIDTH`` best of them by ``heuristic``'s static value (the exact
  value of the hand after a pass or a take, the one-draw expectation over the unseen cards
  of a blind draw: :func:`~demos_sim.demos.policies.heuristic.blind_ev`). Each option gets
  the ``NF`` numbers of :func:`option_features`: its static value at three point floors,
  ``heuristic``'s look-ahead and shape terms, its type (pass, draw, take), the chance that
  the draw completes a combination, the discarded card's value and whether it breaks the
  held combination or the favourite suit, the kept cards' largest suit (D4.3), whether
  ``heuristic`` would choose it, and the static value and the pass crossed with the table:
  the others' passes and takes this round (a pass or a take shows a strong hand), the
  Power pile's progress, the player count and team size, the seat's place in the order,
  the vetoes left, the lead in points.
- **Veto** (D3.4.1): ``heuristic``'s, unless ``params[P_LEARNED_VETO]`` = 1 — the learned
  veto, fitted and reported by the trainer but not played: it agrees with ismcts@256 on
  95% of vetoes against heuristic's 89%, yet played alone with heuristic's discards it
  won 0.493 [0.485, 0.501] of decided games against ``heuristic``, while the learned
  discards with heuristic's veto won 0.560 [0.544, 0.575] and both learned 0.548 [0.532,
  0.563] (4 players, full rules, 2,000 deals, seed 7). The learned veto is a logistic
  choice on :func:`veto_features`: the hand's value (the
  team's under ``team_talk = hands``), ``heuristic``'s threshold and its verdict, a Carré,
  the Power pile left, the vetoes left and per round left, the others' passes and takes
  in the secret turn, the opposing sides still to be asked that hold a veto, the chance
  that a new figure improves the trio, the lead in points, the player count.
- **Delegated to** ``heuristic`` (same parameters 0–17): the favourite suit (X1), the X2
  announcement, the team allocation (D9.4), the Media target and colour (D6.2).

Restricted forms: ``apprentice:noveto`` never vetoes, ``:notake`` never takes a face-up
card, ``:nomedia`` as ``heuristic``. Weight blocks: one per decision kind, in the order of
:data:`BLOCKS`.

Measured with the committed weights (4 players, full rules, win share of decided games,
seat-rotated on common deals; ``demos-sim tournament --policies apprentice,B --games 2000
--seed 7``): against ``heuristic`` 0.560 [0.544, 0.575] (8,000 other deals, seed 8: 0.556
[0.548, 0.563]; 60,000 other deals, seed 13, ``experiments/belief_strength.py`` into
``results/belief/strength.csv``: 0.556 [0.553, 0.559]); against ``ismcts@256`` 0.473
[0.458, 0.489]. Each learned kind alone, the
rest ``heuristic``'s (8,000 deals, seed 8): public 0.533, secret 0.517, unanimous 0.505,
public and secret 0.553. Speed (``benchmarks/bench_rungs.py --rungs
greedy,heuristic,apprentice``, one run, one core, 2026-12-05): 2,312 games/s against
``greedy``'s 30,100 (1/13) and ``heuristic``'s 8,771: the options' static values are
computed at four point floors (one floor instead of four: 3,723 games/s against 2,340
in another one-core measurement, made by editing the kernel).
"""

import numpy as np

from demos_sim.bits import popcount, wrap
from demos_sim.demos import layout as L
from demos_sim.demos.policies import POLICY_SIG, register
from demos_sim.demos.policies.apprentice_weights import WEIGHTS
from demos_sim.demos.policies.basic import scoring_rules, team_hand_value, value4, value5
from demos_sim.demos.policies.heuristic import (
    HEURISTIC_PARAMS, P_FLOOR, P_HORIZON, P_LATE, P_LEGACY, P_NEED, P_NOMEDIA, P_NOTAKE,
    P_NOVETO, P_SHAPE, P_VETO_AT, P_VETO_FREE, P_VETO_SPEND, blind_ev, completing_cards,
    heuristic_policy, need_of, unseen_cards, util,
)
from demos_sim.demos.policies.teamplay import veto_shift
from demos_sim.demos.scoring import best_combo, max_suit_count
from demos_sim.jit import kernel

NF = 32                     # features an option (the veto uses the first NV_USED)
WIDTH = 8                   # options scored in a discard turn (the search's root width)
BLOCKS = ("public", "secret", "unanimous", "veto")   # weight rows, by decision kind
B_PUBLIC, B_SECRET, B_UNAN, B_VETO = range(4)
FLOOR_LO, FLOOR_HI = 6.0, 16.0     # the two extra point floors of the static value

# discard-turn features (column of an option's row)
(F_STATIC, F_HORIZON, F_SHAPE, F_PASS, F_TAKE, F_PCOMP, F_BASE, F_EV_HI, F_EV_LO,
 F_COMBO, F_DVAL, F_DBREAK, F_DFAV, F_SUIT, F_PASS_STRONG, F_STATIC_STRONG, F_STATIC_LATE,
 F_PASS_LATE, F_STATIC_PLAYERS, F_PASS_PLACE, F_STATIC_PLACE, F_PASS_VETO,
 F_STATIC_OPPVETO, F_TAKE_STRONG, F_STATIC_LEAD, F_PASS_LEAD, F_HEUR, F_POINTS,
 F_STATIC_TEAM, F_DECK_STRONG, F_TAKE_LATE, F_DECK_LATE) = range(NF)
DISCARD_FEATURES = (
    "static value (heuristic's, floor 11)", "heuristic's look-ahead value",
    "shape of the kept cards", "pass", "take", "chance the draw completes",
    "value without completing", "static value, floor 16", "static value, floor 6",
    "holds a combination", "discarded card's value", "breaks the held combination",
    "discards the favourite suit", "largest suit kept", "pass × others strong",
    "static × others strong", "static × pile progress", "pass × pile progress",
    "static × (players − 4)", "pass × place in order", "static × place in order",
    "pass × own veto left", "static × opposing vetoes", "take × others strong",
    "static × lead in points", "pass × lead in points", "heuristic's choice",
    "points (floor 0)", "static × (team size − 1)", "draw × others strong",
    "take × pile progress", "draw × pile progress")
# veto features (the row of the option "veto"; the row of "no veto" is 0)
(V_BIAS, V_VALUE, V_ABOVE17, V_HEUR, V_MARGIN, V_CARRE, V_PILE, V_LATE, V_LEFT, V_PER_ROUND,
 V_OPP_PASS, V_OPP_TAKE, V_TO_ASK, V_TO_ASK_STRONG, V_NEED, V_LEAD, V_PLAYERS, V_PLACE,
 V_OWN_PASS, V_OWN_TAKE, V_TEAM, V_ROUND) = range(22)
VETO_FEATURES = (
    "bias", "hand value", "points above 17", "heuristic vetoes", "value − heuristic's "
    "threshold", "Carré", "Power pile left", "last round", "vetoes left",
    "vetoes per round left", "others passed", "others took", "opposing sides to ask with "
    "a veto", "… of which showed strength", "chance a figure improves the trio",
    "lead in points", "players − 4", "place in order", "own pass", "own take", "team mode",
    "round")
NV_USED = len(VETO_FEATURES)

APPRENTICE_W = np.array(WEIGHTS, dtype=np.float64).reshape(len(BLOCKS), NF)
# after heuristic's own parameters (0-17), which the decisions left to it read
P_LEARNED_VETO = len(HEURISTIC_PARAMS)      # 1: play the learned veto; 0: heuristic's
APPRENTICE_PARAMS = tuple(HEURISTIC_PARAMS) + (0.0,)


@kernel
def _place(obs):
    """The seat's place in the round's action order (dealer's left first), 0 … n-1."""
    return wrap(obs[L.O_SEAT] - obs[L.O_DEALER] - 1 + obs[L.O_N], obs[L.O_N])


@kernel
def table_signals(obs):
    """(opponents who passed in the secret turn, opponents who took a face-up card
    there, opposing sides holding a veto, the seat's lead in points over the best
    opponent, the seat's side's size): what the others showed this round (D3.3)."""
    n = obs[L.O_N]
    seat = obs[L.O_SEAT]
    me = obs[L.O_SIDE + seat]
    passed = 0
    took = 0
    vet = 0
    best = -1 << 30
    size = 0
    sides = 0
    for p in range(n):
        if obs[L.O_SIDE + p] == me:
            size += 1
            continue
        t = obs[L.O_SEC_TAKE + p]
        if t == -1:
            passed += 1
        elif 0 <= t < 40:
            took += 1
        if obs[L.O_VETOES + p] > 0 and not (sides >> obs[L.O_SIDE + p]) & 1:
            vet += 1
        sides |= 1 << obs[L.O_SIDE + p]
        best = max(best, obs[L.O_CUM + p])
    return passed, took, vet, obs[L.O_CUM + seat] - best, size


@kernel
def option_features(cfg, obs, opts, n_opts, params, cand, F):
    """Score rows of a discard turn: ``cand[:k]`` the option indices (best static value
    first), ``F[:k]`` their features (module docstring); returns ``k`` (at most WIDTH)."""
    kind = obs[L.O_KIND]
    seat = obs[L.O_SEAT]
    n = obs[L.O_N]
    sr = scoring_rules(cfg)
    h = obs[L.O_HAND]
    fav = obs[L.O_FAV + seat]
    fl = params[P_FLOOR]
    unseen = unseen_cards(cfg, obs)
    nu = popcount(unseen)
    notake = params[P_NOTAKE] > 0
    useful = 0 if notake else completing_cards(h, sr[0] == 1) & obs[L.O_TABLE]
    kd0, sc0, cm0 = best_combo(h, sr, fav)
    passed, took, oppvet, lead, size = table_signals(obs)
    strong = (passed + took) / max(1, n - size)
    npile = L.NFIG if sr[0] == 1 else L.MEDIA0
    late = 1.0 - obs[L.O_PILE_LEFT] / npile
    place = _place(obs) / max(1, n - 1)
    ownveto = 1.0 if obs[L.O_VETOES + seat] > 0 else 0.0
    leadf = max(-1.0, min(1.0, lead / 50.0))
    horizon = params[P_HORIZON]
    k = 0
    for i in range(n_opts):
        o = opts[i]
        is_pass = 0.0
        is_take = 0.0
        d = -1
        if kind == L.K_PUBLIC:
            d = o
            t = L.DECK_TOP
        elif o < 0:
            is_pass = 1.0
            t = -1
        else:
            d = o // 64
            t = o % 64
            if t != L.DECK_TOP:
                if not (useful >> t) & 1:
                    continue
                is_take = 1.0
        for j in range(NF):
            F[k, j] = 0.0
        if t == L.DECK_TOP:
            h4 = h & ~(np.int64(1) << d)
            ev, base, outs = blind_ev(sr, h4, fav, unseen, nu, fl)
            ev_hi = blind_ev(sr, h4, fav, unseen, nu, FLOOR_HI)[0]
            ev_lo = blind_ev(sr, h4, fav, unseen, nu, FLOOR_LO)[0]
            pts = blind_ev(sr, h4, fav, unseen, nu, 0.0)[0]
            hz = ev
            pr = outs / nu if nu > 0 else 0.0
            if horizon > 1.0 and outs > 0:
                q = 1.0 - pr
                hz = base + (ev - base) / pr * (1.0 - q ** horizon)
            F[k, F_SHAPE] = value4(sr, h4, fav, 0.35)
            F[k, F_PCOMP] = pr
            F[k, F_BASE] = base
            F[k, F_COMBO] = 1.0 if base > 0 else 0.0
            hkept = h4
        else:
            h5 = h if t < 0 else (h & ~(np.int64(1) << d)) | (np.int64(1) << t)
            v = value5(sr, h5, fav)
            ev = util(v, fl)
            ev_hi = util(v, FLOOR_HI)
            ev_lo = util(v, FLOOR_LO)
            pts = util(v, 0.0)
            hz = ev
            F[k, F_BASE] = ev
            F[k, F_COMBO] = 1.0 if v > 0 else 0.0
            hkept = h5
        static = ev + 0.0001 * (10 - max(d, 0) % 10)
        F[k, F_STATIC] = static
        F[k, F_HORIZON] = hz
        F[k, F_PASS] = is_pass
        F[k, F_TAKE] = is_take
        F[k, F_EV_HI] = ev_hi
        F[k, F_EV_LO] = ev_lo
        F[k, F_POINTS] = pts / 10.0
        if d >= 0:
            F[k, F_DVAL] = (d % 10) / 9.0
            F[k, F_DBREAK] = 1.0 if kd0 != 0 and (cm0 >> d) & 1 else 0.0
            F[k, F_DFAV] = 1.0 if d // 10 == fav else 0.0
        F[k, F_SUIT] = max_suit_count(hkept) / 5.0
        F[k, F_PASS_STRONG] = is_pass * strong
        F[k, F_STATIC_STRONG] = static * strong
        F[k, F_STATIC_LATE] = static * late
        F[k, F_PASS_LATE] = is_pass * late
        F[k, F_STATIC_PLAYERS] = static * (n - 4)
        F[k, F_PASS_PLACE] = is_pass * place
        F[k, F_STATIC_PLACE] = static * place
        F[k, F_PASS_VETO] = is_pass * ownveto
        F[k, F_STATIC_OPPVETO] = static * oppvet
        F[k, F_TAKE_STRONG] = is_take * strong
        F[k, F_STATIC_LEAD] = static * leadf
        F[k, F_PASS_LEAD] = is_pass * leadf
        F[k, F_STATIC_TEAM] = static * (size - 1)
        is_deck = 1.0 - is_pass - is_take
        F[k, F_DECK_STRONG] = is_deck * strong
        F[k, F_TAKE_LATE] = is_take * late
        F[k, F_DECK_LATE] = is_deck * late
        # heuristic's own value of the option: the look-ahead and shape in the public turn
        F[k, F_HEUR] = (hz + params[P_SHAPE] * F[k, F_SHAPE] if kind == L.K_PUBLIC
                        else static) + 0.0001 * (10 - max(d, 0) % 10)
        cand[k] = i
        k += 1
    # the WIDTH best by static value, best first (selection sort, stable for ties)
    width = min(k, WIDTH)
    for a in range(width):
        b = a
        for c in range(a + 1, k):
            if F[c, F_STATIC] > F[b, F_STATIC]:
                b = c
        if b != a:
            tmp = cand[a]
            cand[a] = cand[b]
            cand[b] = tmp
            for j in range(NF):
                x = F[a, j]
                F[a, j] = F[b, j]
                F[b, j] = x
    # heuristic's choice among them: 1 for its best, 0 elsewhere
    hb = 0
    for a in range(1, width):
        if F[a, F_HEUR] > F[hb, F_HEUR]:
            hb = a
    for a in range(width):
        F[a, F_HEUR] = 1.0 if a == hb else 0.0
    return width


@kernel
def veto_features(cfg, obs, params, f):
    """The row of the option "veto" (D3.4.1) into ``f[:NF]`` (module docstring)."""
    seat = obs[L.O_SEAT]
    n = obs[L.O_N]
    sr = scoring_rules(cfg)
    for j in range(NF):
        f[j] = 0.0
    v0 = team_hand_value(sr, obs, seat)
    thr = params[P_VETO_AT]
    if obs[L.O_PILE_LEFT] <= n:
        thr -= params[P_LATE]
    if params[P_LEGACY] == 0:
        thr += veto_shift(cfg, obs, seat, params[P_VETO_SPEND], params[P_VETO_FREE])
    need = need_of(obs, seat)
    hthr = thr
    if cfg[L.C_MODE] == 0 and v0 >= thr and v0 < thr + params[P_NEED]:
        hthr = thr + params[P_NEED] * (1.0 - need)
    kd, sc, cm = best_combo(obs[L.O_HAND], sr, obs[L.O_FAV + seat])
    passed, took, oppvet, lead, size = table_signals(obs)
    # opposing sides asked after this seat that hold a veto, and those that showed
    # strength (a member passed or took a face-up card in the secret turn)
    dealer = obs[L.O_DEALER]
    me = _place(obs)
    asked = 1 << obs[L.O_SIDE + seat]
    for j in range(me):
        asked |= 1 << obs[L.O_SIDE + wrap(dealer + 1 + j, n)]
    to_ask = 0
    to_ask_strong = 0
    for j in range(me + 1, n):
        q = wrap(dealer + 1 + j, n)
        s = obs[L.O_SIDE + q]
        if (asked >> s) & 1:
            continue
        asked |= 1 << s
        if obs[L.O_VETOES + q] <= 0:
            continue
        to_ask += 1
        for p in range(n):
            t = obs[L.O_SEC_TAKE + p]
            if obs[L.O_SIDE + p] == s and (t == -1 or 0 <= t < 40):
                to_ask_strong += 1
                break
    npile = L.NFIG if sr[0] == 1 else L.MEDIA0
    rounds = max(1, obs[L.O_PILE_LEFT])
    left = obs[L.O_VETOES + seat]
    own = obs[L.O_SEC_TAKE + seat]
    nopp = max(1, n - size)
    f[V_BIAS] = 1.0
    f[V_VALUE] = v0 / 10.0
    f[V_ABOVE17] = max(v0 - 17.0, 0.0) / 10.0
    f[V_HEUR] = 1.0 if v0 >= hthr else 0.0
    f[V_MARGIN] = max(-3.0, min(3.0, (v0 - hthr) / 10.0))
    f[V_CARRE] = 1.0 if kd == 2 else 0.0
    f[V_PILE] = obs[L.O_PILE_LEFT] / npile
    f[V_LATE] = 1.0 if obs[L.O_PILE_LEFT] <= n else 0.0
    f[V_LEFT] = min(left, 3) / 3.0
    f[V_PER_ROUND] = min(1.0, left / rounds)
    f[V_OPP_PASS] = passed / nopp
    f[V_OPP_TAKE] = took / nopp
    f[V_TO_ASK] = to_ask
    f[V_TO_ASK_STRONG] = to_ask_strong
    f[V_NEED] = need
    f[V_LEAD] = max(-1.0, min(1.0, lead / 50.0))
    f[V_PLAYERS] = n - 4
    f[V_PLACE] = me / max(1, n - 1)
    f[V_OWN_PASS] = 1.0 if own == -1 else 0.0
    f[V_OWN_TAKE] = 1.0 if 0 <= own < 40 else 0.0
    f[V_TEAM] = 1.0 if cfg[L.C_MODE] != 0 else 0.0
    f[V_ROUND] = obs[L.O_ROUND] / 10.0


@kernel(inline=True)
def block_of(kind):
    """The weight row of a decision kind (-1: not learned)."""
    if kind == L.K_PUBLIC:
        return B_PUBLIC
    if kind == L.K_SECRET:
        return B_SECRET
    if kind == L.K_UNAN:
        return B_UNAN
    if kind == L.K_VETO:
        return B_VETO
    return -1


@kernel(allocates=True)
def choose(cfg, obs, opts, n_opts, params, W):
    """The option of highest score under the weights ``W`` (len(BLOCKS), NF) in a learned
    decision (public, secret, unanimous, veto)."""
    kind = obs[L.O_KIND]
    if kind == L.K_VETO:
        if params[P_NOVETO] > 0:
            return 0
        f = np.empty(NF, np.float64)
        veto_features(cfg, obs, params, f)
        s = 0.0
        for j in range(NF):
            s += f[j] * W[B_VETO, j]
        return 1 if s > 0.0 else 0
    b = block_of(kind)
    F = np.empty((L.MAXOPT, NF), np.float64)
    cand = np.empty(L.MAXOPT, np.int64)
    k = option_features(cfg, obs, opts, n_opts, params, cand, F)
    if k == 0:
        return 0
    best = 0
    bs = -1e300
    for a in range(k):
        s = 0.0
        for j in range(NF):
            s += F[a, j] * W[b, j]
        if s > bs:
            bs = s
            best = a
    return cand[best]


@register("apprentice", params=APPRENTICE_PARAMS,
          description="a linear scorer of the discard and take options learned from "
                      "ismcts@256's choices (demos-sim train-apprentice); the veto and the "
                      "rest heuristic",
          flags={"noveto": P_NOVETO, "notake": P_NOTAKE, "nomedia": P_NOMEDIA})
@kernel(POLICY_SIG, allocates=True)
def apprentice_policy(cfg, obs, opts, n_opts, params, rng):
    kind = obs[L.O_KIND]
    if kind == L.K_PUBLIC or kind == L.K_SECRET or kind == L.K_UNAN or (
            kind == L.K_VETO and params[P_LEARNED_VETO] > 0):
        return choose(cfg, obs, opts, n_opts, params, APPRENTICE_W)
    return heuristic_policy(cfg, obs, opts, n_opts, params, rng)
