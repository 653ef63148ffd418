"""DĒMOS ``ismcts``: determinised Monte Carlo search over the seat's information set.

What it is (honestly): a **flat** information-set Monte Carlo search at the root, not yet
a UCT tree. Each of the ``budget`` iterations (``ismcts@N``, default
``params[P_BUDGET]`` = 64) samples one *determinisation* of the deciding seat's
information set and plays the rest of the round forward from it once for every root
candidate; the candidate with the best mean value is played. Evaluating every candidate
on the same determinisation (common random numbers) makes the comparison between them
far less noisy than UCB1's one-option-per-iteration sampling at these small budgets, and
sequential halving (the iterations in equal stages, after each only the better half of
the candidates goes on until two are left, :func:`search`) spends the later iterations
where they matter. A tree over the seat's later decisions (UCT over its information
sets, as OpenSpiel's ``ismcts.py``) is the natural next step; here the seat's own later
turns in a rollout are played by the rollout policy.

- **Determinisation** (:func:`determinise`, from the observation only, RULES.md M2): the
  cards the seat has not seen — the game's cards minus its hand, every card face up this
  round and its own face-down discards (and, under ``team_talk = hands`` in a team
  decision, the teammates' shown hands) — are shuffled with the policy's own stream and
  dealt to the places the observation says hold unseen cards: each other player's hand
  (5 cards less the face-up cards it took, which it is assumed to keep), each secret
  discard still face down (D3.3), each face-down unanimous discard (D3.4.3, out of the
  round), and the rest is the deck in draw order. The counts always add up (the
  test checks it on hand-set positions). Opponents' past choices are not used to
  weight the deal (as in OpenSpiel's ISMCTS), except through ``P_SKILL`` /
  ``P_VETO_SKILL`` below.
- **Rollouts** (:func:`rollout`, the round's forward model, kept here in one place with
  the rule IDs): the rest of the public turn (D3.2), the secret turn (D3.3, a pass only
  when ``secret_optional``), the veto check (D3.4.1, sides in action order, the first
  veto ends it), the reveal of the secret discards (D3.4.2), the unanimous turn
  (D3.4.3) and the showdown's combinations and round keys (D4.1–D4.3, ``best_combo``
  and ``round_key`` of :mod:`demos_sim.demos.scoring`). Every seat — the deciding one
  after its root move too — plays ``greedy``'s discards and takes (the same functions,
  :mod:`demos_sim.demos.policies.basic`; ``heuristic``'s with ``P_ROLL_POLICY`` = 1); a side vetoes when the asked player's hand
  scores at least ``params[P_ROLL_VETO]`` (17, ``heuristic``'s threshold).
- **Evaluation cut-off: the end of the current round.** A rollout's value is 1 when the
  deciding seat's side is among the round's winners (D4.3, D9.4; 1.5 with a Carré: two
  figures, D4.5) plus ``params[P_POINTS]`` × the seat's round score (points break
  election ties, D7.3). Why not the whole game: a round win is the game's currency
  (each is a figure, D4.5, and figures make the trio of the election, D7), the discard
  and veto decisions act almost only on the current round, and the 10+ rounds after it
  would multiply a rollout's cost by ten while adding mostly noise (new deals) to the
  comparison between two options of this round.
- **Veto** (D3.4.1): both options are searched; vetoing is charged
  ``params[P_VETO_COST]`` round wins × (1 - e^(-pile/4)) / vetoes left, the value of
  keeping the veto for a later round (nothing when the Power pile is about to end
  the game).
- **Candidates** (discard turns): every public discard; in the secret and unanimous
  turns the pass, every discard with a blind draw and every discard with a take of a
  face-up card that completes a combination with the hand (``heuristic``'s
  ``completing_cards``), cut to the ``params[P_WIDTH]`` best by ``heuristic``'s static
  value (exact for a take, the one-draw expectation for a blind draw), which also
  breaks ties between equal means.
- **Delegated to** ``heuristic`` (same parameters at indices 0–11): the favourite suit
  (X1), the X2 announcement, the team allocation (D9.4), the Media target and colour
  (D6.2). Searched: the public, secret and unanimous turns and the veto, in every mode
  (individual full and simplified, 2v2, 2v3, 2v2+1: sides come from the configuration).

Parameters (``params``; 0-11 are ``heuristic``'s): ``P_BUDGET`` (12) iterations per
searched decision (``ismcts@N``); ``P_WIDTH`` (13) root candidates kept; ``P_VETO_COST``
(14); ``P_POINTS`` (15) value of a round point; ``P_ROLL_VETO`` (16) the rollouts' veto
threshold; ``P_KINDS`` (17) bit mask of the decision kinds searched (``1 << kind``; the
others go to ``heuristic``: an ablation switch); ``P_SKILL`` (18) and ``P_VETO_SKILL``
(19): opponents' unknown cards are dealt as the best (D4.1 score) of 1 + skill × (its
discard turns done this round) uniform draws — a crude stand-in for what their play so
far says about their hands (uniform deals make an opponent who has improved its hand
twice look too weak, which misled the veto: measured 0.48 against heuristic with the
veto searched on uniform deals, 0.52 with ``P_VETO_SKILL`` = 3, veto-only search, 3,000
deals); 0 for the discards, 3 for the veto by default; ``P_ROLL_POLICY`` (20): 0 greedy
rollouts (default), 1 heuristic's discards and takes in the rollouts (about 5× slower;
against heuristic, 600 deals: 0.533 at @32 against 0.495 for greedy rollouts at @32,
but greedy rollouts at @128, for less time, made 0.569; measured with one halving step,
before the halving became sequential).

Measured (4 players, full rules; ``demos-sim tournament --policies ismcts@N,heuristic
--games 2000 --seed 7``, win share of the wins the two took, 95% interval): @64 0.552
[0.536, 0.567], @256 0.586 [0.571, 0.602]. Speed, one core, CPU time, ismcts at every
seat: @64 18.9 games/s (≈ 2,800 discard decisions/s), @256 4.5 games/s (≈ 680/s), so
10,000 games on 2 cores take about 4.4 and 18.4 minutes.

``P_POOL``, ``P_TEMP``, ``P_EPS`` (after ``P_TRUTH``): 0 here (uniform determinisations);
in ``belief`` the size of the pool of worlds weighted by the other players' actions, the
temperature and the floor of their model (:mod:`demos_sim.demos.policies.belief`).
``P_GAME`` (the last): 0 here (the round horizon above); 1 values a rollout's round by the
fitted chance of winning the game that its result leaves (:func:`game_value`, individual
games; ``belief_game`` in ``experiments/plugins/belief_variants.py``, to measure it).

``P_TRUTH`` (after ``P_ROLL_POLICY``): 0 here; 1 in ``omniscient`` (:mod:`demos_sim.demos.policies.omniscient`,
a reference exempt from M2): the search deals the true state from the truth block
(:func:`deal_truth`) instead of sampling one (:func:`determinise`); 2 in
``omniscient_hands`` (same module): the true hands and face-down cards, the deck's order
unknown (:func:`deal_hands_truth`); 3 and 4 as 2 at the veto only or at the discard turns
only, the others searched on determinisations (where the hands are worth most:
``experiments/plugins/truth_split.py``); the rest is this module.

Restricted forms: ``ismcts:noveto`` never vetoes (in its rollouts its side does not
either), ``:notake`` never takes a face-up card (nor in its rollouts), ``:nomedia`` as
``heuristic``. Chance comes only from the policy's stream (same seed, same games). Each
searched decision allocates two small scratch vectors (``WS_LEN`` int64, 2 × MAXOPT
float64); the determinisations and rollouts allocate nothing.
"""

import numpy as np

from demos_sim.bits import lowest_bit, popcount, wrap
from demos_sim.demos import layout as L
from demos_sim.demos.policies import POLICY_SIG, register
from demos_sim.demos.policies.belief import (
    PH, POOL_W, PSEC, PUSED, build_pool, resample_index, unseen_list,
)
from demos_sim.demos.policies.basic import (
    greedy_blind_discard, greedy_discard_take, value5,
)
from demos_sim.demos.policies.heuristic import (
    ALL_FULL, HEURISTIC_PARAMS, NO_ACES, P_DRAW_W, P_FLOOR, P_HORIZON, P_KEEP, P_NOMEDIA,
    P_NOTAKE, P_NOVETO, P_SHAPE, best_blind, blind_ev, completing_cards, discard_take,
    heuristic_policy, unseen_cards, util,
)
from demos_sim.demos.policies.horizon_weights import DV as HDV, W as HW
from demos_sim.demos.scoring import best_combo, round_key, scoring_rules
from demos_sim.halving import keep_better_half, stage_length
from demos_sim.jit import kernel
from demos_sim.rng import below

# after heuristic's own parameters (0-17: its decisions, search's 12-13, team play 14-17),
# which the decisions left to heuristic read at the same indices
(P_BUDGET, P_WIDTH, P_VETO_COST, P_POINTS, P_ROLL_VETO, P_KINDS, P_SKILL,
 P_VETO_SKILL, P_ROLL_POLICY, P_TRUTH, P_POOL, P_TEMP, P_EPS,
 P_GAME) = range(len(HEURISTIC_PARAMS), len(HEURISTIC_PARAMS) + 14)
SEARCHED = (1 << L.K_PUBLIC) | (1 << L.K_SECRET) | (1 << L.K_VETO) | (1 << L.K_UNAN)
ISMCTS_PARAMS = tuple(HEURISTIC_PARAMS) + (64.0, 8.0, 0.2, 0.01, 17.0, float(SEARCHED),
                                          0.0, 3.0, 0.0, 0.0, 0.0, 2.0, 0.1, 0.0)
ROLL_DRAW_WEIGHT = 0.35            # greedy's blind-draw weight in the rollouts

# scratch (int64) of one searched decision
WH = 0                     # the determinisation: hands by seat …
WSEC = WH + L.MAXP           # … secret discards (-1: none or a pass) …
WVET = WSEC + L.MAXP         # … vetoes left by side …
WND = WVET + L.MAXP          # … the deck's length …
WDECK = WND + 1            # … the deck in draw order (40)
RH = WDECK + 40            # a rollout's hands …
RSEC = RH + L.MAXP           # … and secret discards
WU = RSEC + L.MAXP           # the unseen cards, shuffled (40)
CAND = WU + 40             # root candidates: option indices (MAXOPT)
RKEY = CAND + L.MAXOPT       # a rollout's showdown: round keys by seat (D4.3) …
RSC = RKEY + L.MAXP          # … scores …
RKD = RSC + L.MAXP           # … and combination kinds (2: a Carré)
WS_LEN = RKD + L.MAXP


@kernel
def _deal_hand(sr, ws, h, need, k, nu, tries, fav, rng):
    """Add ``need`` cards of the unseen list ``ws[WU + k : WU + nu]`` to ``h``: the best
    (D4.1 score) of ``tries`` uniform draws. The chosen cards end at ``ws[WU + k:]``."""
    if need <= 0 or nu - k < need:
        return h
    best = -1
    pick = 0
    for _ in range(tries):
        got = 0
        for i in range(need):                           # partial Fisher-Yates
            j = k + i + below(rng, 0, nu - k - i)
            t = ws[WU + k + i]
            ws[WU + k + i] = ws[WU + j]
            ws[WU + j] = t
            got |= np.int64(1) << ws[WU + k + i]
        if tries == 1:
            return h | got
        kd, sc, cm = best_combo(h | got, sr, fav)
        if sc > best:
            best = sc
            pick = got
    i = k                                               # move the picked cards first
    for j in range(k, nu):
        if (pick >> ws[WU + j]) & 1:
            t = ws[WU + i]
            ws[WU + i] = ws[WU + j]
            ws[WU + j] = t
            i += 1
    return h | pick


@kernel
def determinise(cfg, obs, ws, rng, skill):
    """Deal the cards ``obs``'s seat has not seen into ``ws`` (hands, face-down secret
    discards, deck); returns the number of unseen cards left over for the deck (it
    equals ``obs[O_DECK_LEFT]``: the test checks it).

    With ``skill`` > 0 an opponent's unknown cards are the best of 1 + ``skill`` × (its
    discard turns done this round) uniform draws (module docstring); 0 is uniform."""
    n = obs[L.O_N]
    seat = obs[L.O_SEAT]
    sr = scoring_rules(cfg)
    known = obs[L.O_HAND] | obs[L.O_FACEUP] | obs[L.O_OWN_OUT]
    for p in range(n):
        known |= obs[L.O_MATE_HAND + p]
    unseen = (ALL_FULL if cfg[L.C_RULES] == 0 else NO_ACES) & ~known
    nu = 0
    while unseen:
        ws[WU + nu] = lowest_bit(unseen)
        unseen &= unseen - 1
        nu += 1
    k = 0
    for p in range(L.MAXP):
        ws[WVET + p] = 0
        ws[WSEC + p] = -1
        ws[WH + p] = 0
    for p in range(n):
        side = cfg[L.C_SIDE + p]
        ws[WVET + side] = obs[L.O_VETOES + p]
    for p in range(n):
        if p == seat:
            ws[WH + p] = obs[L.O_HAND]
            continue
        h = obs[L.O_MATE_HAND + p]                        # shown under team_talk = hands
        if h == 0:
            t1 = obs[L.O_SEC_TAKE + p]                    # face-up cards it took (kept)
            if 0 <= t1 < 40:
                h |= np.int64(1) << t1
            t2 = obs[L.O_UNAN_TAKE + p]
            if 0 <= t2 < 40:
                h |= np.int64(1) << t2
            turns = ((obs[L.O_PUB + p] >= 0) + (obs[L.O_SEC_TAKE + p] != -2)
                     + (obs[L.O_UNAN_TAKE + p] != -2))
            tries = 1 + int(skill * turns + 0.5)
            need = 5 - popcount(h)
            h = _deal_hand(sr, ws, h, need, k, nu, tries, obs[L.O_FAV + p], rng)
            k += need
        ws[WH + p] = h
    # the rest in a uniform order: face-down discards, then the deck
    for i in range(nu - 1, k, -1):                      # Fisher-Yates of ws[WU+k:WU+nu]
        j = k + below(rng, 0, i - k + 1)
        t = ws[WU + i]
        ws[WU + i] = ws[WU + j]
        ws[WU + j] = t
    for p in range(n):
        if obs[L.O_SEC_TAKE + p] >= 0:                    # a secret discard (D3.3)
            c = obs[L.O_SEC + p]                          # own, or turned up (D3.4.2)
            if c >= 40 and k < nu:                      # face down: unseen
                c = ws[WU + k]
                k += 1
            ws[WSEC + p] = c
        if p != seat and obs[L.O_UNAN_TAKE + p] >= 0 and k < nu:
            k += 1                                      # its face-down card, out (D3.4.3)
    nd = nu - k
    for i in range(nd):
        ws[WDECK + i] = ws[WU + k + i]
    ws[WND] = nd
    return nd


@kernel
def deal_truth(cfg, obs, ws):
    """The ``omniscient`` reference's determinisation (``P_TRUTH`` = 1): the true deal,
    copied from the observation's truth block (``O_T_*``, written only for a reference
    seat, which is exempt from M2) into the same places :func:`determinise` fills — the
    hands, the secret discards (-1 for a pass or none yet), the deck in draw order. The
    face-down unanimous discards are out of the round (D3.4.3) and need no place. Returns
    the deck's length."""
    n = obs[L.O_N]
    for p in range(L.MAXP):
        ws[WVET + p] = 0
        ws[WSEC + p] = -1
        ws[WH + p] = 0
    for p in range(n):
        ws[WVET + cfg[L.C_SIDE + p]] = obs[L.O_VETOES + p]
        ws[WH + p] = obs[L.O_T_HAND + p]
        ws[WSEC + p] = obs[L.O_T_SEC + p]
    nd = obs[L.O_T_DECK_N]
    for i in range(nd):
        ws[WDECK + i] = obs[L.O_T_DECK + i]
    ws[WND] = nd
    return nd


@kernel
def deal_hands_truth(cfg, obs, ws, rng):
    """The ``omniscient_hands`` reference's determinisation (``P_TRUTH`` = 2): the true
    hands and face-down cards as :func:`deal_truth`, but the People deck's cards in a
    fresh uniform order — what a player would know who read every hand but not the
    deck's order (the most any inference from the other players' play could tell)."""
    nd = deal_truth(cfg, obs, ws)
    for i in range(nd - 1, 0, -1):                      # Fisher-Yates of the deck
        j = below(rng, 0, i + 1)
        t = ws[WDECK + i]
        ws[WDECK + i] = ws[WDECK + j]
        ws[WDECK + j] = t
    return nd


@kernel
def deal_world(cfg, obs, ws, row, rng):
    """``belief``'s determinisation: the hands and secret discards of a pool world
    (:mod:`demos_sim.demos.policies.belief`), the rest of the unseen cards the deck in a
    fresh uniform order. Returns the deck's length (``obs[O_DECK_LEFT]``: a test checks)."""
    n = obs[L.O_N]
    for p in range(L.MAXP):
        ws[WVET + p] = 0
        ws[WSEC + p] = -1
        ws[WH + p] = 0
    for p in range(n):
        ws[WVET + cfg[L.C_SIDE + p]] = obs[L.O_VETOES + p]
        ws[WH + p] = row[PH + p]
        ws[WSEC + p] = row[PSEC + p]
    nu = unseen_list(cfg, obs, ws[WU:WU + 40])
    nd = 0
    for i in range(nu):
        c = ws[WU + i]
        if not (row[PUSED] >> c) & 1:
            ws[WDECK + nd] = c
            nd += 1
    for i in range(nd - 1, 0, -1):                      # Fisher-Yates of the deck
        j = below(rng, 0, i + 1)
        t = ws[WDECK + i]
        ws[WDECK + i] = ws[WDECK + j]
        ws[WDECK + j] = t
    ws[WND] = nd
    return nd


@kernel
def _roll_public(sr, h, fav, seen, allc, params, hpol):
    """A rollout's public discard (D3.2): greedy's, or heuristic's over the unseen cards."""
    if hpol:
        unseen = allc & ~(h | seen)
        kd, sc, cm = best_combo(h, sr, fav)
        return best_blind(sr, h, fav, unseen, popcount(unseen), params[P_HORIZON],
                          params[P_FLOOR], params[P_SHAPE], kd, sc, cm)[1]
    return greedy_blind_discard(sr, h, fav, ROLL_DRAW_WEIGHT)[1]


@kernel
def _roll_discard_take(sr, h, table, fav, seen, allc, notake, can_pass, params, hpol):
    """A rollout's secret (D3.3) or unanimous (D3.4.3) turn: greedy's or heuristic's."""
    if hpol:
        unseen = allc & ~(h | seen)
        return discard_take(sr, h, table, fav, unseen, notake, can_pass, params[P_KEEP],
                            params[P_DRAW_W], params[P_FLOOR])
    return greedy_discard_take(sr, h, table, fav, ROLL_DRAW_WEIGHT, notake, can_pass)


@kernel(inline=True)
def _apply(o, h, table, ws, dpos, nd):
    """D3.3 / D3.4.3: discard ``o // 64``, then draw the next card of the determinised deck
    (``DECK_TOP``) or take the face-up ``o % 64``; ``(hand, table, deck position)``."""
    d = o // 64
    t = o % 64
    h &= ~(np.int64(1) << d)
    if t == L.DECK_TOP:
        if dpos < nd:
            h |= np.int64(1) << ws[WDECK + dpos]
            dpos += 1
    else:
        h |= np.int64(1) << t
        table &= ~(np.int64(1) << t)
    return h, table, dpos


@kernel
def rollout(cfg, sr, obs, ws, kind0, j0, o0, params):
    """Play the round on from the determinisation in ``ws``: the seat at action position
    ``j0`` plays option ``o0`` of a ``kind0`` decision, then every seat plays ``greedy``;
    returns the deciding seat's value of the round (module docstring). ``params``: the
    policy's (``P_ROLL_VETO``, ``P_ROLL_POLICY``, ``P_POINTS``, the flags)."""
    roll_veto = params[P_ROLL_VETO]
    noveto = params[P_NOVETO] > 0
    notake = params[P_NOTAKE] > 0
    hpol = params[P_ROLL_POLICY] > 0
    allc = ALL_FULL if cfg[L.C_RULES] == 0 else NO_ACES
    seen = obs[L.O_FACEUP]               # every card face up (the rollout players' view)
    n = obs[L.O_N]
    seat = obs[L.O_SEAT]
    dealer = obs[L.O_DEALER]
    full = sr[0] == 1
    myside = cfg[L.C_SIDE + seat]
    for p in range(L.MAXP):
        ws[RH + p] = ws[WH + p]
        ws[RSEC + p] = ws[WSEC + p]
    nd = ws[WND]
    dpos = 0
    table = obs[L.O_TABLE]
    if kind0 == L.K_PUBLIC:
        phase = 0
    elif kind0 == L.K_SECRET:
        phase = 1
    elif kind0 == L.K_VETO:
        phase = 2
    else:
        phase = 3
    j = j0
    root = True
    while phase < 4:
        if phase == 0:                                  # D3.2 public discard, then draw
            for jj in range(j, n):
                p = wrap(dealer + 1 + jj, n)
                h = ws[RH + p]
                if root:
                    d = o0
                    root = False
                else:
                    d = _roll_public(sr, h, obs[L.O_FAV + p], seen, allc, params, hpol)
                h &= ~(np.int64(1) << d)
                if dpos < nd:
                    h |= np.int64(1) << ws[WDECK + dpos]
                    dpos += 1
                ws[RH + p] = h
                table |= np.int64(1) << d
                seen |= np.int64(1) << d
            phase = 1
            j = 0
        elif phase == 1:                                # D3.3 secret discard
            can_pass = cfg[L.C_SECRET_OPT] != 0
            for jj in range(j, n):
                p = wrap(dealer + 1 + jj, n)
                h = ws[RH + p]
                if root:
                    o = o0
                    root = False
                else:
                    o = _roll_discard_take(sr, h, table, obs[L.O_FAV + p], seen, allc,
                                           notake and p == seat, can_pass, params, hpol)
                if o < 0:
                    ws[RSEC + p] = -1
                    continue
                h, table, dpos = _apply(o, h, table, ws, dpos, nd)
                ws[RH + p] = h
                ws[RSEC + p] = o // 64
            phase = 2 if full else 4
            j = 0
        elif phase == 2:                                # D3.4.1 veto check
            asked = 0
            if root:                                    # sides asked before the root seat
                for jj in range(j):
                    asked |= 1 << cfg[L.C_SIDE + wrap(dealer + 1 + jj, n)]
            vetoed = False
            for jj in range(j, n):
                p = wrap(dealer + 1 + jj, n)
                side = cfg[L.C_SIDE + p]
                if (asked >> side) & 1:
                    continue
                asked |= 1 << side
                if ws[WVET + side] <= 0:
                    continue
                if root:
                    v = o0 == 1
                    root = False
                elif side == myside and noveto:
                    v = False
                else:
                    kd, sc, cm = best_combo(ws[RH + p], sr, obs[L.O_FAV + p])
                    v = sc >= roll_veto
                if v:
                    vetoed = True
                    break
            if vetoed:
                phase = 4
            else:
                for p in range(n):                      # D3.4.2 secret discards turned up
                    if ws[RSEC + p] >= 0:
                        table |= np.int64(1) << ws[RSEC + p]
                        seen |= np.int64(1) << ws[RSEC + p]
                phase = 3
                j = 0
        else:                                           # D3.4.3 unanimous discard
            for jj in range(j, n):
                p = wrap(dealer + 1 + jj, n)
                h = ws[RH + p]
                if root:
                    o = o0
                    root = False
                else:
                    o = _roll_discard_take(sr, h, table, obs[L.O_FAV + p], seen, allc,
                                           notake and p == seat, False, params, hpol)
                h, table, dpos = _apply(o, h, table, ws, dpos, nd)
                ws[RH + p] = h
            phase = 4
    # D4.1-D4.3 showdown; D9.4 a side wins with its best player
    mine = -1
    other = -1
    carre = False
    score = 0
    for p in range(n):
        h = ws[RH + p]
        kd, sc, cm = best_combo(h, sr, obs[L.O_FAV + p])
        key = round_key(h, kd, sc, cm)
        ws[RKEY + p] = key
        ws[RSC + p] = sc if kd != 0 else 0
        ws[RKD + p] = kd
        if p == seat:
            score = sc
        if cfg[L.C_SIDE + p] == myside:
            if key > mine:
                mine = key
                carre = kd == 2
            elif key == mine and kd == 2:
                carre = True
        elif key > other:
            other = key
    if params[P_GAME] > 0 and cfg[L.C_MODE] == 0:
        return game_value(obs, ws, n, seat, max(mine, other))
    v = 0.0
    if mine >= 0 and mine >= other:
        v = 1.5 if carre else 1.0                       # D4.5: a Carré wins two figures
    return v + params[P_POINTS] * score


@kernel
def game_value(obs, ws, n, seat, top):
    """``belief_game``'s value of a rollout's round (individual games): the fitted chance
    of winning the game from what every seat sees at the round's end (the figures the
    round's winners draw, D4.5, as many as the Power pile still holds; the round's
    points, D4.7), in units of one figure's average worth (``horizon_weights.DV``), so
    that the veto's cost keeps its meaning. Fitted by ``experiments/fit_horizon.py``."""
    pile = obs[L.O_PILE_LEFT]
    left = pile
    mine = obs[L.O_NFIG + seat]
    others = 0
    mine_cum = 0
    best = -1 << 40
    for j in range(n):                                  # D4.5 winners in action order
        p = wrap(obs[L.O_DEALER] + 1 + j, n)
        got = 0
        if top >= 0 and ws[RKEY + p] == top:
            got = min(left, 2 if ws[RKD + p] == 2 else 1)
            left -= got
        cum = obs[L.O_CUM + p] + ws[RSC + p]
        if p == seat:
            mine += got
            mine_cum = cum
        else:
            others = max(others, obs[L.O_NFIG + p] + got)
            best = max(best, cum)
    x = (HW[0] + HW[1] * mine + HW[2] * others + HW[3] * left
         + HW[4] * (mine_cum - best) / 10.0 + HW[5] * mine * left / 14.0
         + HW[6] * others * left / 14.0)
    return 1.0 / (1.0 + np.exp(-x)) / HDV


@kernel
def candidates(cfg, sr, obs, opts, n_opts, params, ws, static):
    """Root candidates of a discard turn into ``ws[CAND:]`` (option indices), best static
    value first; returns how many (at most ``params[P_WIDTH]``)."""
    kind = obs[L.O_KIND]
    seat = obs[L.O_SEAT]
    h = obs[L.O_HAND]
    fav = obs[L.O_FAV + seat]
    fl = params[P_FLOOR]
    unseen = unseen_cards(cfg, obs)
    nu = popcount(unseen)
    notake = params[P_NOTAKE] > 0
    useful = 0 if notake else completing_cards(h, sr[0] == 1) & obs[L.O_TABLE]
    k = 0
    for i in range(n_opts):
        o = opts[i]
        if kind == L.K_PUBLIC:
            v = blind_ev(sr, h & ~(np.int64(1) << o), fav, unseen, nu, fl)[0]
        elif o < 0:
            v = util(value5(sr, h, fav), fl)
        else:
            d = o // 64
            t = o % 64
            if t == L.DECK_TOP:
                v = blind_ev(sr, h & ~(np.int64(1) << d), fav, unseen, nu, fl)[0]
            elif (useful >> t) & 1:
                v = util(value5(sr, (h & ~(np.int64(1) << d)) | (np.int64(1) << t), fav), fl)
            else:
                continue
        ws[CAND + k] = i
        static[k] = v + 0.0001 * (10 - (o if kind == L.K_PUBLIC else max(o, 0) // 64) % 10)
        k += 1
    # the best ``width`` by static value, best first (selection sort: k <= 45)
    width = min(k, max(1, int(params[P_WIDTH])))
    for a in range(width):
        b = a
        for c in range(a + 1, k):
            if static[c] > static[b]:
                b = c
        if b != a:
            t = ws[CAND + a]
            ws[CAND + a] = ws[CAND + b]
            ws[CAND + b] = t
            s = static[a]
            static[a] = static[b]
            static[b] = s
    return width


@kernel
def _position(obs):
    """The deciding seat's place in the round's action order (dealer's left first)."""
    return wrap(obs[L.O_SEAT] - obs[L.O_DEALER] - 1 + obs[L.O_N], obs[L.O_N])


@kernel(allocates=True)
def search(cfg, obs, opts, n_opts, params, rng):
    """The searched decisions: public, secret, unanimous turns and the veto."""
    kind = obs[L.O_KIND]
    sr = scoring_rules(cfg)
    ws = np.empty(WS_LEN, np.int64)
    fl = np.zeros(2 * L.MAXOPT, np.float64)
    static = fl[:L.MAXOPT]
    tot = fl[L.MAXOPT:]
    if kind == L.K_VETO:
        k = 2
        ws[CAND] = 0
        ws[CAND + 1] = 1
    else:
        k = candidates(cfg, sr, obs, opts, n_opts, params, ws, static)
        if k == 1:
            return ws[CAND]
    budget = max(1, int(params[P_BUDGET]))
    # omniscient (P_TRUTH 1, a reference seat with the truth block): every iteration deals
    # the same true state and the rollouts draw no chance, so one iteration is all of them;
    # omniscient_hands (P_TRUTH 2): the true hands, the deck shuffled every iteration;
    # 3 and 4 (experiments/plugins/truth_split.py): 2 at the veto only / the discards only
    truth = int(params[P_TRUTH]) if obs[L.O_T_ON] == 1 else 0
    if truth == 3:                                      # the true hands at the veto only
        truth = 2 if kind == L.K_VETO else 0
    elif truth == 4:                                    # … at the discard turns only
        truth = 0 if kind == L.K_VETO else 2
    if truth == 1:
        budget = 1
    skill = params[P_VETO_SKILL] if kind == L.K_VETO else params[P_SKILL]
    # belief (P_POOL > 0): the worlds drawn from a pool weighted by the others' actions
    # (demos_sim.demos.policies.belief), by systematic resampling: iteration ``it`` takes
    # the world at cumulative weight (it + x0) / budget
    npool = int(params[P_POOL]) if truth == 0 else 0
    if npool > 0:
        pool, cum = build_pool(cfg, obs, npool, params[P_TEMP], params[P_EPS],
                               params[P_ROLL_VETO], rng)
        x0 = below(rng, 0, 1 << 30) / float(1 << 30)
    else:
        pool = np.empty((0, POOL_W), np.int64)
        cum = np.empty(0, np.float64)
        x0 = 0.0
    j0 = _position(obs)
    for c in range(k):
        tot[c] = 0.0
    active = k
    # sequential halving: the budget in equal stages; after each stage but the last the
    # better half of the candidates goes on, until two are left
    per = stage_length(k, budget)
    cut = per
    for it in range(budget):
        if truth == 1:
            deal_truth(cfg, obs, ws)
        elif truth == 2:
            deal_hands_truth(cfg, obs, ws, rng)
        elif npool > 0:
            deal_world(cfg, obs, ws, pool[resample_index(cum, (it + x0) / budget)], rng)
        else:
            determinise(cfg, obs, ws, rng, skill)
        for c in range(active):
            tot[c] += rollout(cfg, sr, obs, ws, kind, j0, opts[ws[CAND + c]], params)
        if it == cut - 1 and active > 2:
            cut += per
            # the better half goes on (stable: ties keep the static order)
            active = keep_better_half(tot, ws[CAND:], active)
    if kind == L.K_VETO:
        vleft = max(1, ws[WVET + cfg[L.C_SIDE + obs[L.O_SEAT]]])
        cost = params[P_VETO_COST] * (1.0 - np.exp(-obs[L.O_PILE_LEFT] / 4.0)) / vleft
        return 1 if tot[1] / budget - cost > tot[0] / budget else 0
    bi = 0
    for c in range(1, active):
        if tot[c] > tot[bi]:
            bi = c
    return ws[CAND + bi]


@register("ismcts", params=ISMCTS_PARAMS,
          description="information-set Monte Carlo search of the round (discards, veto; "
                      "flat, round horizon); the rest heuristic",
          flags={"noveto": P_NOVETO, "notake": P_NOTAKE, "nomedia": P_NOMEDIA},
          budget=P_BUDGET)
@kernel(POLICY_SIG, allocates=True)
def ismcts_policy(cfg, obs, opts, n_opts, params, rng):
    kind = obs[L.O_KIND]
    if kind == L.K_VETO and params[P_NOVETO] > 0:
        return 0
    if (int(params[P_KINDS]) >> kind) & 1:
        return search(cfg, obs, opts, n_opts, params, rng)
    return heuristic_policy(cfg, obs, opts, n_opts, params, rng)


def _belief_params():
    params = list(ISMCTS_PARAMS)
    params[P_POOL] = 512.0         # measured: see demos_sim/demos/policies/belief.py
    params[P_TEMP] = 4.0
    params[P_SKILL] = 0.0          # the pool's weights read the others' play instead
    params[P_VETO_SKILL] = 0.0
    return tuple(params)


BELIEF_PARAMS = _belief_params()
register("belief", params=BELIEF_PARAMS,
         description="ismcts whose deals are weighted by how likely they make the other "
                     "players' actions this round (policy inference with a greedy model of "
                     "them); the rest heuristic",
         flags={"noveto": P_NOVETO, "notake": P_NOTAKE, "nomedia": P_NOMEDIA},
         budget=P_BUDGET)(ismcts_policy)
