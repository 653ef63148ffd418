"""Protocole ``ismcts``: determinised Monte Carlo search over the seat's information set.

The same design as DĒMOS's ``ismcts`` (:mod:`demos_sim.demos.policies.ismcts`): a **flat**
information-set Monte Carlo search at the root. Each of the ``budget`` iterations
(``ismcts@N``, default ``params[P_BUDGET]`` = 16) samples one *determinisation* of the
deciding seat's information set and plays the rest of the game forward from it once for
every root candidate still in the race (common random numbers: every candidate meets the
same hidden cards and the same later shuffles); sequential halving (the iterations in
equal stages, after each the better half of the candidates goes on until two are left)
spends the later iterations where they matter; the best mean is played. ``planner``'s
own choice is the first candidate and, in *all together*, starts with a head start of
``params[P_PRIOR_COOP]`` / √budget (1 / √N) win per rollout: another move must beat it
by that margin in mean win rate (a prior for the blueprint the other seats assume, see
below; it turned coop @16 from 0.51 to 0.71 win rate; in *each for themselves*
``P_PRIOR`` = 0, since a head start of 0.2 lost: win share 0.45 [0.43, 0.48] against no
head start, @16).

- **Determinisation** (:func:`determinise`, from the observation only, RULES.md M2): the
  cards the seat has not seen are split in two pools by what the observation says.
  *This round's* hidden cards — the round's deal (``O_DECKSET``) minus everything the
  seat saw (its hand and Foyer, the Selection, the Norm, the cards seen leaving) — are
  the other players' hands and the Foyer cards they placed face down this round (and, in
  round 0, their setup Foyer cards, P1.3); the counts are public: hand sizes, and each
  player's face-down placements = turns played this round (the round's hand size, P1.3,
  minus the hand left) minus the cards it played face up. *Older* hidden cards — every
  card outside the round's deal not seen — are the rest of the other players' Foyers
  (their Foyer size minus this round's cards) and the Foyers of eliminated players
  (P4.2, out of the game unrevealed). Each pool is shuffled with the policy's own stream
  and dealt; the counts always add up (the test checks it on real positions).
  Opponents' past choices do not weight the deal (as in OpenSpiel's ISMCTS).
- **Forward model: the engine's own functions** (:mod:`demos_sim.protocole.engine`) on a
  scratch copy of the determinised state: the root move is ``apply_play`` (P2.1–P2.2),
  the rest of the round :func:`roll_turns` — the loop of the engine's ``play_turns``
  built from ``turn_options``, ``observe``, ``apply_play`` and ``finish_turns`` (P3.3),
  with the rollout policy called directly instead of through the engine's function
  pointers, which numba cannot cache inside a policy — then ``control`` (P4,
  P5.2–P5.3), and every later round ``next_round`` (P4.3), ``deal`` (P1.3) and the same
  turns, so the rules and variants are the engine's (the replay test checks rollouts
  against engine games from real positions). Every seat — the deciding one after its
  root move too — plays :func:`rollout_policy`: ``planner`` with this policy's
  ``params[0:16]`` (default) or, ``params[P_ROLL]`` = 1 (``ismcts:basic``), the basic
  policy of the mode (``cautious`` each, ``convention`` all together) with its
  registered parameters. The next rounds' shuffles come from the policy's stream, one
  key per iteration shared by the candidates.
- **Horizon: the end of the game** (games last 1–2 rounds on average, 33 turns at 4
  players, so a rollout costs a few microseconds). The game's own round cap (P4.5) ends a
  rollout as it ends a game: a truncated game is worth 0.
- **Value**: *each for themselves* (P4.4) the seat's M1 share of the win (1/k of a win
  shared by k, 0 when eliminated or beaten); *all together* (P5.2) 1 when the team wins,
  plus ``params[P_RECORD]`` × the record (Foyer cards) of a won game.
- **All together (P5.1)**: the same search is the *convention-plus-search* bot: the
  conventions (C1–C3 of ``convention``, fixed before the game, in ``planner``'s
  all-together weights) are what every other seat is assumed to play, and the seat
  searches only its own move on its own observation — the single-agent search on a
  blueprint of SPARTA (Lerer et al. 2020, Hanabi), without its belief filtering (the
  deal is uniform over what the observation allows). Nothing is communicated: the
  policy reads its observation, the configuration and its own parameters.

Parameters (``params``; 0–15 are ``planner``'s, read by the rollouts and the tie-break):
``P_BUDGET`` (16) determinisations per decision (``ismcts@N``); ``P_ROLL`` (17) rollout
policy (0 planner, 1 cautious/convention: the restricted form ``ismcts:basic``);
``P_RECORD`` (18) value of a won game's Foyer card in coop (0); ``P_PRIOR`` (19, 0) and
``P_PRIOR_COOP`` (20, 1.0): the head start of ``planner``'s move times √budget, each /
all together.

Measured (4 players, 95% intervals; ``demos-sim tournament --game protocole [--mode coop
--level 2] --players 4 --policies ismcts@16,planner --games 2000 --seed 12``):
*each for themselves*, win share against ``planner`` (every rotation, 2,000 deals)
@16 0.765 [0.751, 0.778] (seed 12); seed 11: @4 0.678 [0.663, 0.692], @16 0.766 [0.753,
0.780], @64 (1,000 deals) 0.849 [0.834, 0.865], @32 against @16 0.555 [0.529, 0.581]
(1,000 deals). *All together* level 2, the whole table on the same deals: @16 0.708
against ``planner`` 0.364 (paired +0.344 [+0.315, +0.373]) and ``convention`` 0.350
(+0.358 [+0.329, +0.386]), seed 12; by budget (seed 11, ±0.02): @4 0.517, @8 0.625, @16
0.706, @32 0.783, @64 0.843 (planner 0.377). The prior was chosen on seed 11 (head starts
0.05–0.6 at @8 and @16; 0.25 at @16 was best, 0.6 worse), seed 12 is the check. The
rollout policy matters little (``ismcts:basic@16`` − ``ismcts@16`` before the prior: coop
−0.013 [−0.044, +0.018], each win share 0.479 [0.454, 0.503]). Speed, one core, CPU
time, ismcts at every seat (each / coop level 2): @4 462 / 435 games/s, @16 119 / 104,
@64 29 / 23 (≈ 3,500 / 2,900 decisions/s at @16).

Chance comes only from the policy's stream (same seed, same games). Each decision
allocates its scratch vectors (a few hundred int64); the rollouts allocate nothing.
"""

import numpy as np

from demos_sim.bits import lowest_bit, popcount, wrap
from demos_sim.jit import kernel
from demos_sim.protocole.engine import (
    CTRL_END, apply_play, cards_in_hands, control, deal, finish_turns, next_round, turn_options,
)
from demos_sim.protocole import layout as L
from demos_sim.protocole.observe import observe
from demos_sim.protocole.policies import N_PARAMS, POLICY_SIG, register
from demos_sim.protocole.policies.basic import (
    CAUTIOUS_PARAMS, CONVENTION_PARAMS, cautious, convention,
)
from demos_sim.protocole.policies.planner import PLANNER_PARAMS, planner
from demos_sim.halving import keep_better_half, stage_length
from demos_sim.rng import next_u64, shuffle_inplace

P_BUDGET, P_ROLL, P_RECORD, P_PRIOR, P_PRIOR_COOP = range(len(PLANNER_PARAMS),
                                                         len(PLANNER_PARAMS) + 5)
ISMCTS_PARAMS = tuple(PLANNER_PARAMS) + (16.0, 0.0, 0.0, 0.0, 1.0)
ROLL_BASIC = N_PARAMS - 1      # in the rollouts' parameter rows only (rollout_policy)


@kernel(POLICY_SIG)
def rollout_policy(cfg, obs, opts, n_opts, params, rng):
    """Every seat's play in a rollout: ``planner`` with the searching policy's
    ``params[0:16]``, or (``params[ROLL_BASIC]`` = 1: the rollout rows :func:`search`
    builds when ``P_ROLL`` = 1) the basic policy of the mode (``cautious`` each,
    ``convention`` all together) with its registered parameters."""
    if params[ROLL_BASIC] == 0:
        return planner(cfg, obs, opts, n_opts, params, rng)
    if cfg[L.C_MODE] == 0:
        return cautious(cfg, obs, opts, n_opts, params, rng)
    return convention(cfg, obs, opts, n_opts, params, rng)


@kernel(allocates=True)
def _deal_pool(pool, rng):
    """Shuffle the cards of ``pool`` (mask) into a list; returns (array, count)."""
    cards = np.empty(36, np.int64)
    k = 0
    x = pool
    while x:
        cards[k] = lowest_bit(x)
        x &= x - 1
        k += 1
    shuffle_inplace(cards, k, rng, 0)
    return cards, k


@kernel
def _take(cards, pos, count):
    m = np.int64(0)
    for i in range(count):
        m |= np.int64(1) << cards[pos + i]
    return m


@kernel
def hidden_counts(cfg, obs, cnt):
    """What the observation says about the hidden cards, per seat ``p`` (into ``cnt``,
    3 × MAXP): ``cnt[p]`` its hand size, ``cnt[MAXP + p]`` its Foyer cards from this
    round's deal (face-down placements, plus the setup Foyer in round 0),
    ``cnt[2 MAXP + p]`` its older Foyer cards; 0 for the seat itself and for eliminated
    seats. Returns (this round's hidden pool, the older hidden pool) as masks."""
    n = obs[L.O_N]
    seat = obs[L.O_SEAT]
    alive = obs[L.O_ALIVE]
    na = popcount(alive)
    deckset = obs[L.O_DECKSET]
    fs = cfg[L.C_FOYER_START] if obs[L.O_ROUND] == 0 else 0
    each = (popcount(deckset) - fs * na) // max(1, na)      # P1.3 / P4.3 hand size
    seen = obs[L.O_HAND] | obs[L.O_FOYER] | obs[L.O_SEL] | obs[L.O_NORM] | obs[L.O_GONE]
    for p in range(L.MAXP):
        seen |= obs[L.O_PLAYED + p]
        cnt[p] = 0
        cnt[L.MAXP + p] = 0
        cnt[2 * L.MAXP + p] = 0
    for p in range(n):
        if p == seat or not (alive >> p) & 1:
            continue
        cnt[p] = obs[L.O_HANDN + p]
        new = fs + (each - obs[L.O_HANDN + p]) - popcount(obs[L.O_PLAYED + p])
        cnt[L.MAXP + p] = new
        cnt[2 * L.MAXP + p] = obs[L.O_FOYERN + p] - new
    return deckset & ~seen, L.FULL & ~deckset & ~seen


@kernel(allocates=True)
def determinise(cfg, obs, st, rng):
    """Write into ``st`` (ST_LEN) a full state consistent with ``obs``: the public parts
    copied, the hidden cards dealt uniformly from their two pools (module docstring).
    Returns the number of cards left over for the eliminated players' Foyers (≥ 0;
    the rest of each pool must be exactly used: -1 when the counts do not add up)."""
    for i in range(L.ST_LEN):
        st[i] = 0
    n = obs[L.O_N]
    seat = obs[L.O_SEAT]
    st[L.S_ROUND] = obs[L.O_ROUND]
    st[L.S_INIT] = obs[L.O_INIT]
    st[L.S_ALIVE] = obs[L.O_ALIVE]
    st[L.S_SEL] = obs[L.O_SEL]
    st[L.S_NORM] = obs[L.O_NORM]
    st[L.S_GONE] = obs[L.O_GONE]         # setup removal included: only the checks read it
    st[L.S_DECKSET] = obs[L.O_DECKSET]
    st[L.S_TURN] = obs[L.O_TURN]
    for p in range(L.MAXP):
        st[L.S_POINTS + p] = obs[L.O_POINTS + p]
        st[L.S_PLAYED + p] = obs[L.O_PLAYED + p]
    st[L.S_HAND + seat] = obs[L.O_HAND]
    st[L.S_FOYER + seat] = obs[L.O_FOYER]
    cnt = np.empty(3 * L.MAXP, np.int64)
    now, old = hidden_counts(cfg, obs, cnt)
    a, na_ = _deal_pool(now, rng)
    b, nb = _deal_pool(old, rng)
    ia = 0
    ib = 0
    ok = True
    for p in range(n):
        if p == seat:
            continue
        h = cnt[p]
        f1 = cnt[L.MAXP + p]
        f0 = cnt[2 * L.MAXP + p]
        if h < 0 or f1 < 0 or f0 < 0 or ia + h + f1 > na_ or ib + f0 > nb:
            ok = False
            break
        st[L.S_HAND + p] = _take(a, ia, h)
        ia += h
        st[L.S_FOYER + p] = _take(a, ia, f1) | _take(b, ib, f0)
        ia += f1
        ib += f0
    if not ok or ia != na_:
        return -1
    st[L.S_DEAD] = _take(b, ib, nb - ib)
    return nb - ib


@kernel
def roll_turns(cfg, st, obs, opts, rparams, prng, log, seat):
    """The rest of a round's turns from ``seat``: the loop of the engine's
    :func:`~demos_sim.protocole.engine.play_turns` (P2.1–P2.2, P3.3) with the engine's
    own pieces (``turn_options``, ``apply_play``, ``finish_turns``, ``observe``), every
    seat's choice by :func:`rollout_policy` called directly (the engine calls policies
    through function pointers, which numba cannot cache inside a policy)."""
    n = cfg[L.C_N]
    left = cards_in_hands(st, cfg)
    while left > 0:
        if st[L.S_HAND + seat] != 0:
            k = turn_options(st, seat, opts)
            observe(st, cfg, seat, L.K_PLAY, obs)
            idx = rollout_policy(cfg, obs, opts, k, rparams, prng)
            apply_play(st, cfg, seat, opts[idx], log)
            left -= 1
        seat = wrap(seat + 1, n)
    finish_turns(st, cfg, log)


@kernel(allocates=True)
def rollout(cfg, det, st, obs, opts, rparams, prng, log, res, seat, o, key):
    """From the determinised state ``det``: ``seat`` plays option ``o``, then the game is
    played out with :func:`rollout_policy` at every seat; returns ``seat``'s value
    (module docstring). ``cfg`` must have the check and the log off. Rounds: the
    engine's ``control`` (P4, P5.2–P5.3), ``next_round`` (P4.3) and ``deal`` (P1.3)."""
    for i in range(L.ST_LEN):
        st[i] = det[i]
    for i in range(L.RES_LEN):
        res[i] = 0
    n = cfg[L.C_N]
    apply_play(st, cfg, seat, o, log)                            # P2.1 the root move
    roll_turns(cfg, st, obs, opts, rparams, prng, log, wrap(seat + 1, n))
    verdict = control(st, cfg, log, res)
    st[L.S_ROUND] += 1
    while verdict != CTRL_END:
        if st[L.S_ROUND] >= cfg[L.C_ROUND_CAP]:                      # P4.5: truncated, no winner
            return 0.0
        next_round(st, cfg, key)                                 # P4.3
        deal(st, cfg, 0, log)
        roll_turns(cfg, st, obs, opts, rparams, prng, log, st[L.S_INIT])
        verdict = control(st, cfg, log, res)
        st[L.S_ROUND] += 1
    if cfg[L.C_MODE] == 0:                                         # P4.4: M1 share of the win
        if (res[L.R_WINMASK] >> seat) & 1:
            return 1.0 / res[L.R_NWIN]
        return 0.0
    if res[L.R_OUTCOME] == L.OUT_WIN:                                # P5.2
        fc = 0
        for p in range(n):
            fc += popcount(st[L.S_FOYER + p])
        return 1.0 + rparams[P_RECORD] * fc
    return 0.0


@kernel(allocates=True)
def search(cfg, obs, opts, n_opts, params, rng):
    """The searched decision (P2.1): the option index with the best mean rollout value."""
    seat = obs[L.O_SEAT]
    first = planner(cfg, obs, opts, n_opts, params, rng)
    cand = np.empty(L.MAXOPT, np.int64)
    tot = np.zeros(L.MAXOPT, np.float64)
    cand[0] = first
    k = 1
    for i in range(n_opts):
        if i != first:
            cand[k] = i
            k += 1
    rcfg = cfg.copy()
    rcfg[L.C_CHECK_OBS] = 0
    rcfg[L.C_LOG] = 0
    rparams = np.zeros(N_PARAMS, np.float64)          # every seat's, in the rollouts
    basic = params[P_ROLL] != 0
    if not basic:
        for j in range(N_PARAMS - 1):
            rparams[j] = params[j]
    elif cfg[L.C_MODE] != 0:
        for j in range(len(CONVENTION_PARAMS)):
            rparams[j] = CONVENTION_PARAMS[j]
    else:
        for j in range(len(CAUTIOUS_PARAMS)):
            rparams[j] = CAUTIOUS_PARAMS[j]
    rparams[ROLL_BASIC] = 1.0 if basic else 0.0
    rparams[P_RECORD] = params[P_RECORD]
    det = np.empty(L.ST_LEN, np.int64)
    st = np.empty(L.ST_LEN, np.int64)
    robs = np.empty(L.OBS_LEN, np.int64)
    ropts = np.empty(L.MAXOPT, np.int64)
    prng = np.zeros(1, np.uint64)                     # the rollout policies draw nothing
    log = np.zeros(2, np.int64)
    res = np.zeros(L.RES_LEN, np.int64)
    budget = max(1, int(params[P_BUDGET]))
    prior = params[P_PRIOR_COOP if cfg[L.C_MODE] != 0 else P_PRIOR] / np.sqrt(budget)
    per = stage_length(k, budget)
    cut = per
    active = k
    for it in range(budget):
        determinise(cfg, obs, det, rng)
        key = next_u64(rng, 0)
        for c in range(active):
            tot[c] += rollout(rcfg, det, st, robs, ropts, rparams, prng, log, res, seat,
                              opts[cand[c]], key)
            if cand[c] == first:
                tot[c] += prior
        if it == cut - 1 and active > 2:
            cut += per
            active = keep_better_half(tot, cand, active)   # the better half goes on
    bi = 0
    for c in range(1, active):
        if tot[c] > tot[bi]:
            bi = c
    return cand[bi]


@register("ismcts", params=ISMCTS_PARAMS,
          description="information-set Monte Carlo search of every move to the end of the "
                      "game, rollouts by planner (each); all together: convention-plus-search, "
                      "the others assumed to follow the conventions (P5.1)",
          flags={"basic": P_ROLL}, budget=P_BUDGET)
@kernel(POLICY_SIG, allocates=True)
def ismcts_policy(cfg, obs, opts, n_opts, params, rng):
    return search(cfg, obs, opts, n_opts, params, rng)
