"""Protocole ``sparta``: search over a blueprint, with a belief read from the others' actions.

The single-agent search of SPARTA (Lerer et al. 2020, Hanabi) on Protocole's blueprints.
*All together* (P5) the **blueprint** is ``convention`` (C1–C3, conventions fixed before
the game, which P5.1 allows); *each for themselves* (P4) it is ``planner`` (the model of
the others, as in ``ismcts``). At every decision (P2.1):

1. **Belief** (:func:`sample_world`, from the seat's observation only, RULES.md M2):
   ``budget`` determinisations of the hidden cards are drawn — the two pools and public
   counts of ``ismcts``'s :func:`~demos_sim.protocole.policies.ismcts.hidden_counts` —
   not uniformly but from the posterior given what the others did under the blueprint.
   The observation holds what each seat played face up this round and how many cards it
   added face down, not the order of the turns, so the belief uses the evidence that
   needs no order (each term exact for the blueprint as stated; ``params[P_EPS]`` = 0.1
   is the floor — the weight of a world in which a seat acted against the blueprint —
   so no observation empties the set of worlds):

   - **B1 face-down cards** (P2.1, P4.1): under the blueprint a seat adds a card face
     down only when the Norm already covers it (``convention``: a safe card scores
     ``params[0]`` = 4, an unsafe one −3, below every play but a completing play that
     breaks the Norm budget C3; ``planner`` each for themselves: below every play). The
     Norm only grows within a round, so each card another seat added face down *this
     round* is covered by the current Norm, or the world is weighted ``eps`` per card.
     The sampler draws this posterior exactly: the number ``j`` of uncovered cards among
     the ``P`` face-down placements with probability ∝ C(|U|, j) C(|C|, P − j) eps^j
     (``U`` / ``C``: the round's hidden cards the Norm does / does not cover), then the
     cards uniformly within each kind. Setup Foyer cards (P1.3, round 0) are uniform.
   - **B2 the last control** (P4.1, P4.2, P5.2–P5.3, rounds after the first): every
     seat still in the game passed the control that ended the previous round, whose
     Norm is this round's deal (``O_DECKSET``, P4.3). So every older Foyer card of a
     seat in the game is covered by it, and *all together* at levels 2–3
     (``reinforced_scope`` ``each_player``) each Foyer held at least ``need`` cards
     double-covered by it (P5.3). A public fact, not a model: the older cards are
     redealt (up to 64 tries) until it holds.
   - **B3 a face-up play** (*all together*, the blueprint's C2): a seat whose card is in
     the current Selection played it face up after the Norm last changed, so with the
     current Norm; it then held every card it holds now. ``convention`` banks a
     double-covered card (``params[0] + params[5]`` ≥ 4.5), or a covered one when its
     Foyer already has ``need`` double-covered cards without this round's additions
     (``params[0]`` = 4), before any non-completing play, unless that play makes at
     least ``u`` of its unsafe Foyer cards safer (its score is at most
     ``0.6 (2 u + 0.1 h) + 0.4``, ``h`` the round's hand size less one, P1.3). A world in which that seat still holds such a card
     and the bound does not reach the bank's score is weighted ``eps`` per such play.
     Likewise when a card it still holds would have scored more as a play whatever the
     Selection then (its least score, from the Foyer cards it surely held, above the
     played card's most).

   The own seat's cards and everything public are copied as in ``ismcts``.
2. **Search**: each option is played from every world and the game rolled forward to
   its end with *every* seat playing the blueprint (``ismcts``'s forward model: the
   engine's own functions; common random numbers: every candidate meets the same worlds
   and later shuffles); value 1 when the team wins (P5.2), each for themselves the M1
   share of the win (P4.4). Sequential halving spends the budget on the better half of
   the candidates after each stage; the blueprint's own move always stays in the race.
3. **Deviate by a margin** (SPARTA's threshold): the blueprint's move is played unless
   the best other move's weighted mean beats it by ``params[P_MARGIN]`` / √budget (coop,
   default 1: 0.25 of a win at @16; ``params[P_MARGIN_EACH]`` = 0 each for themselves,
   as ``ismcts``). A move is changed only where the search sees it win more often, so
   in expectation it plays no worse than the blueprint (measured: tests and
   docs/reference/protocole.md).

Flags: ``sparta:uniform`` draws the worlds uniformly (B1–B3 off: ``ismcts``'s
determinisation) — the same search without the belief, to measure what the belief adds.

Parameters: 0–15 ``planner``'s (each for themselves), ``P_BUDGET`` (16) worlds per
decision (``sparta@N``), ``P_UNIFORM`` (17), ``P_MARGIN`` (18), ``P_MARGIN_EACH`` (19),
``P_EPS`` (20). Chance comes only from the policy's stream (same seed, same games).

Measured (4 players, the whole table on the same deals, seed 7; ``demos-sim tournament
--game protocole --mode coop --level 2 --players 4 --policies A,B --games 2000 --seed
7``): *all together* level 2, ``sparta@32`` 0.780 against ``ismcts@16`` 0.704 (paired
+0.076 [+0.049, +0.103]) and against ``convention`` 0.362 (+0.418 [+0.390, +0.446]);
``sparta@16`` against ``convention`` +0.339 [+0.311, +0.366], against ``ismcts@16``
−0.004 [−0.032, +0.025]; ``sparta@32`` − ``ismcts@32`` +0.004 [−0.022, +0.030]. The
belief is no help in these games: ``sparta@16`` − ``sparta:uniform@16`` +0.001 [−0.027,
+0.029], though it holds information (the true deal is more likely under it than under
uniform deals; B1–B3 never rule out the truth among ``convention`` players: tests).
*Each for themselves* (``--policies sparta@16,ismcts@16 --games 1000 --seed 7``, every
rotation): win share 0.498 [0.473, 0.523].
"""

import math

import numpy as np

from demos_sim.bits import lowest_bit, popcount
from demos_sim.halving import keep_better_half, stage_length
from demos_sim.jit import kernel
from demos_sim.protocole import layout as L
from demos_sim.protocole.norm import covered, double_covered
from demos_sim.protocole.policies import N_PARAMS, POLICY_SIG, register
from demos_sim.protocole.policies.basic import CONVENTION_PARAMS, attributes_of, convention
from demos_sim.protocole.policies.ismcts import ROLL_BASIC, hidden_counts, rollout
from demos_sim.protocole.policies.planner import PLANNER_PARAMS, planner
from demos_sim.rng import next_u64, shuffle_inplace

P_BUDGET, P_UNIFORM, P_MARGIN, P_MARGIN_EACH, P_EPS = range(len(PLANNER_PARAMS),
                                                          len(PLANNER_PARAMS) + 5)
SPARTA_PARAMS = tuple(PLANNER_PARAMS) + (16.0, 0.0, 1.0, 0.0, 0.1)
MAX_TRIES = 64          # B2: redeals of the older Foyer cards


@kernel(inline=True)
def _u01(rng):
    return (next_u64(rng, 0) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@kernel
def _log_choose(n, k):
    return math.lgamma(n + 1.0) - math.lgamma(k + 1.0) - math.lgamma(n - k + 1.0)


@kernel
def _to_list(mask, out):
    k = 0
    x = mask
    while x:
        out[k] = lowest_bit(x)
        x &= x - 1
        k += 1
    return k


@kernel
def _take(cards, pos, count):
    m = np.int64(0)
    for i in range(count):
        m |= np.int64(1) << cards[pos + i]
    return m


@kernel
def draw_uncovered(n_unc, n_cov, placed, eps, rng):
    """B1: the number ``j`` of uncovered cards among ``placed`` face-down placements,
    drawn with probability ∝ C(n_unc, j) C(n_cov, placed − j) eps^j."""
    lo = max(0, placed - n_cov)
    hi = min(placed, n_unc)
    if hi <= lo:
        return lo
    le = math.log(eps) if eps > 0 else -1e300
    top = -1e300
    for j in range(lo, hi + 1):
        v = _log_choose(n_unc, j) + _log_choose(n_cov, placed - j) + j * le
        if v > top:
            top = v
    tot = 0.0
    for j in range(lo, hi + 1):
        tot += math.exp(_log_choose(n_unc, j) + _log_choose(n_cov, placed - j) + j * le - top)
    r = _u01(rng) * tot
    acc = 0.0
    for j in range(lo, hi + 1):
        acc += math.exp(_log_choose(n_unc, j) + _log_choose(n_cov, placed - j) + j * le - top)
        if r < acc:
            return j
    return hi


@kernel
def play_evidence(cfg, obs, p, hand, foyer, before, placed, bparams):
    """B3 (all together): how many of seat ``p``'s face-up plays in the current Selection
    the blueprint ``convention`` (weights ``bparams``) would not have made in a world
    where ``p`` holds ``hand`` and the Foyer ``foyer`` (module docstring). ``before``: the
    Foyer cards ``p`` surely held at those plays (its older cards, and its setup cards
    in round 0); ``placed``: the cards it added face down this round."""
    norm = obs[L.O_NORM]
    plays = obs[L.O_PLAYED + p] & obs[L.O_SEL]
    if norm == 0 or plays == 0:
        return 0
    cov = covered(norm)
    dbl = double_covered(norm)
    bank = -1e18                                   # the least a card to the Foyer scored
    if hand & dbl:
        bank = bparams[0] + bparams[5]
    elif (hand & cov) and popcount(before & dbl) >= cfg[L.C_NEED]:
        bank = bparams[0]
    fix = bparams[2]
    handcov = bparams[3]
    lead = bparams[4]
    bad = 0
    x = plays
    while x:
        c = lowest_bit(x)
        x &= x - 1
        att_c = attributes_of(c) & ~cov
        later = (plays & ~(np.int64(1) << c)) | placed   # may have left the hand after c
        top = 0.6 * (fix * popcount(foyer & att_c)
                     + handcov * popcount((hand | later) & att_c)) + lead
        worse = top < bank
        y = hand
        while y and not worse:                       # a held card the blueprint preferred
            d = lowest_bit(y)
            y &= y - 1
            att_d = attributes_of(d) & ~cov
            low = 0.6 * (fix * popcount(before & att_d)
                         + handcov * popcount((hand | (np.int64(1) << c)) & ~(np.int64(1) << d)
                                              & att_d)) - lead
            worse = low > top
        if worse:
            bad += 1
    return bad


@kernel(allocates=True)
def sample_world(cfg, obs, st, rng, eps, belief, bparams):
    """Write into ``st`` (ST_LEN) a full state consistent with ``obs``, the hidden cards
    drawn from the belief (B1, B2; uniform when ``belief`` is false). Returns the world's
    weight (B3: ``eps`` per play against the blueprint; 1 otherwise), or -1.0 when the
    public counts do not add up."""
    for i in range(L.ST_LEN):
        st[i] = 0
    n = obs[L.O_N]
    seat = obs[L.O_SEAT]
    coop = cfg[L.C_MODE] != 0
    st[L.S_ROUND] = obs[L.O_ROUND]
    st[L.S_INIT] = obs[L.O_INIT]
    st[L.S_ALIVE] = obs[L.O_ALIVE]
    st[L.S_SEL] = obs[L.O_SEL]
    st[L.S_NORM] = obs[L.O_NORM]
    st[L.S_GONE] = obs[L.O_GONE]
    st[L.S_DECKSET] = obs[L.O_DECKSET]
    st[L.S_TURN] = obs[L.O_TURN]
    for p in range(L.MAXP):
        st[L.S_POINTS + p] = obs[L.O_POINTS + p]
        st[L.S_PLAYED + p] = obs[L.O_PLAYED + p]
    st[L.S_HAND + seat] = obs[L.O_HAND]
    st[L.S_FOYER + seat] = obs[L.O_FOYER]
    cnt = np.empty(3 * L.MAXP, np.int64)
    now, old = hidden_counts(cfg, obs, cnt)
    fs = cfg[L.C_FOYER_START] if obs[L.O_ROUND] == 0 else 0
    placed_tot = 0
    for p in range(n):
        if p == seat or not (obs[L.O_ALIVE] >> p) & 1:
            continue
        if cnt[p] < 0 or cnt[L.MAXP + p] < fs or cnt[2 * L.MAXP + p] < 0:
            return -1.0
        placed_tot += cnt[L.MAXP + p] - fs
    # B1: the face-down placements first, from the posterior; the rest uniform
    placed = np.empty(36, np.int64)
    rest = np.empty(36, np.int64)
    if belief:
        cov = covered(obs[L.O_NORM])
        unc_l = np.empty(36, np.int64)
        cov_l = np.empty(36, np.int64)
        nu = _to_list(now & ~cov, unc_l)
        nc = _to_list(now & cov, cov_l)
        if placed_tot > nu + nc:
            return -1.0
        j = draw_uncovered(nu, nc, placed_tot, eps, rng)
        shuffle_inplace(unc_l, nu, rng, 0)
        shuffle_inplace(cov_l, nc, rng, 0)
        for i in range(j):
            placed[i] = unc_l[i]
        for i in range(placed_tot - j):
            placed[j + i] = cov_l[i]
        shuffle_inplace(placed, placed_tot, rng, 0)
        taken = _take(placed, 0, placed_tot)
        nr = _to_list(now & ~taken, rest)
    else:
        nr = _to_list(now, rest)
        if placed_tot > nr:
            return -1.0
        shuffle_inplace(rest, nr, rng, 0)
        for i in range(placed_tot):
            placed[i] = rest[i]
        for i in range(nr - placed_tot):
            rest[i] = rest[placed_tot + i]
        nr -= placed_tot
    shuffle_inplace(rest, nr, rng, 0)
    before = np.zeros(L.MAXP, np.int64)             # Foyer cards held since the round began
    placedm = np.zeros(L.MAXP, np.int64)            # … and added face down this round
    ia = 0
    ip = 0
    for p in range(n):
        if p == seat or not (obs[L.O_ALIVE] >> p) & 1:
            continue
        h = cnt[p]
        pl = cnt[L.MAXP + p] - fs
        if ia + h + fs > nr:
            return -1.0
        st[L.S_HAND + p] = _take(rest, ia, h)
        ia += h
        before[p] = _take(rest, ia, fs)
        placedm[p] = _take(placed, ip, pl)
        st[L.S_FOYER + p] = before[p] | placedm[p]
        ia += fs
        ip += pl
    if ia != nr:
        return -1.0
    # the older cards (other seats' Foyers before this round, eliminated Foyers): B2
    old_l = np.empty(36, np.int64)
    nb = _to_list(old, old_l)
    need_tot = 0
    for p in range(n):
        if p != seat and (obs[L.O_ALIVE] >> p) & 1:
            need_tot += cnt[2 * L.MAXP + p]
    if need_tot > nb:
        return -1.0
    check = belief and obs[L.O_ROUND] > 0
    last_cov = covered(obs[L.O_DECKSET])
    last_dbl = double_covered(obs[L.O_DECKSET])
    per_seat = coop and cfg[L.C_SCOPE_TEAM] == 0
    for _ in range(MAX_TRIES):
        shuffle_inplace(old_l, nb, rng, 0)
        ok = True
        ib = 0
        for p in range(n):
            if p == seat or not (obs[L.O_ALIVE] >> p) & 1:
                continue
            f0 = cnt[2 * L.MAXP + p]
            m = _take(old_l, ib, f0)
            ib += f0
            if check and ((m & ~last_cov) != 0
                          or (per_seat and popcount(m & last_dbl) < cfg[L.C_NEED])):
                ok = False
            st[L.S_FOYER + p] |= m
        if ok or not check:
            break
        for p in range(n):                      # undo and redeal
            if p != seat and (obs[L.O_ALIVE] >> p) & 1:
                st[L.S_FOYER + p] &= ~_take(old_l, 0, nb)
    ib = need_tot
    st[L.S_DEAD] = _take(old_l, ib, nb - ib)
    if not (belief and coop):
        return 1.0
    w = 1.0
    for p in range(n):                          # B3
        if p != seat and (obs[L.O_ALIVE] >> p) & 1:
            bad = play_evidence(cfg, obs, p, st[L.S_HAND + p], st[L.S_FOYER + p],
                                before[p] | (st[L.S_FOYER + p] & ~obs[L.O_DECKSET]),
                                placedm[p], bparams)
            for _ in range(bad):
                w *= eps
    return w


@kernel(allocates=True)
def search(cfg, obs, opts, n_opts, params, rng):
    """The decision (module docstring): the blueprint's option index unless another
    option's weighted mean rollout value beats it by the margin."""
    seat = obs[L.O_SEAT]
    coop = cfg[L.C_MODE] != 0
    bparams = np.zeros(N_PARAMS, np.float64)       # the blueprint's, every seat's in rollouts
    if coop:
        for j in range(len(CONVENTION_PARAMS)):
            bparams[j] = CONVENTION_PARAMS[j]
        bparams[ROLL_BASIC] = 1.0                  # rollout_policy: convention
        first = convention(cfg, obs, opts, n_opts, bparams, rng)
    else:
        for j in range(len(PLANNER_PARAMS)):
            bparams[j] = params[j]
        first = planner(cfg, obs, opts, n_opts, bparams, rng)
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
    det = np.empty(L.ST_LEN, np.int64)
    st = np.empty(L.ST_LEN, np.int64)
    robs = np.empty(L.OBS_LEN, np.int64)
    ropts = np.empty(L.MAXOPT, np.int64)
    prng = np.zeros(1, np.uint64)                  # the blueprints draw nothing
    log = np.zeros(2, np.int64)
    res = np.zeros(L.RES_LEN, np.int64)
    budget = max(1, int(params[P_BUDGET]))
    belief = params[P_UNIFORM] == 0
    eps = params[P_EPS]
    margin = params[P_MARGIN if coop else P_MARGIN_EACH] / np.sqrt(budget)
    per = stage_length(k, budget)
    cut = per
    active = k
    wsum = 0.0
    for it in range(budget):
        w = sample_world(cfg, obs, det, rng, eps, belief, bparams)
        key = next_u64(rng, 0)
        if w <= 0.0:
            continue
        wsum += w
        for c in range(active):
            tot[c] += w * rollout(rcfg, det, st, robs, ropts, bparams, prng, log, res, seat,
                                  opts[cand[c]], key)
        if it == cut - 1 and active > 2:
            cut += per
            # the blueprint (index 0) stays; the better half of the others goes on
            active = 1 + keep_better_half(tot[1:], cand[1:], active - 1)
    bi = 1
    for c in range(2, active):
        if tot[c] > tot[bi]:
            bi = c
    if active > 1 and tot[bi] > tot[0] + margin * wsum:    # SPARTA's threshold
        return cand[bi]
    return cand[0]


@register("sparta", params=SPARTA_PARAMS,
          description="search over a blueprint (all together: convention; each: planner) "
                      "with worlds weighted by the others' actions under it (face-down "
                      "cards covered, the last control passed); deviates only by a margin",
          flags={"uniform": P_UNIFORM}, budget=P_BUDGET)
@kernel(POLICY_SIG, allocates=True)
def sparta_policy(cfg, obs, opts, n_opts, params, rng):
    return search(cfg, obs, opts, n_opts, params, rng)
