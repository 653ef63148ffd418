"""The built-in L'Assemblée policies: ``random`` and the generic ``persona`` kernel.

Both read only their observation (RULES.md A0, M2: everyone's gold and renown, the
revealed characters, revealed bids, holders, pending events, pledges and votes once
revealed, personalities). The personas of ``personas.toml`` (``civic``, ``free_rider``,
``aggressive``, ``conditional``) are parameter vectors of ``persona``; the meaning of
each parameter is in that file and in :mod:`demos_sim.assemblee.policies.personas`.

``persona`` in short: a character's value to the seat (in score points) is its renown,
a third of its gold, the gold it takes or the renown it removes from the chosen target
(times ``attack``), plus 3 renown and a saved pledge when it can resolve a pending event
(``spend``); the bid is ``bid_per_point`` gold per point plus noise, within the share of
gold not held in ``reserve``. Pledges are the fair share ``ceil(cost / players)`` or
nothing, as ``pledge`` says. Ties (as MC) go to itself, else to the weakest tied player
(A4, A9); the final tie of A10 (``final_tie = mc_choice``) to itself when tied, else to
the tied player its honours vote rule (``vote``) would pick among them.
Every tie among equally good options (the leader, the richest, the weakest, the votes)
is broken at random from the policy's own stream, never by seat order (a first-option
rule made seat 0 the honours' target of every civic vote and exiled it in 79% of
10-player games). ``never_bid`` (parameters 16 + character id; restricted forms
``NAME:no_<character>``) makes a seat abstain on chosen characters. ``peek`` (parameter
31, off in every built-in persona) makes the Oracle-advantage seat use the bids it sees
(A4, ``oracle_view``); without it no built-in policy reads them, so ``oracle_view``
changes no built-in persona's game.
"""

import numpy as np

from demos_sim.assemblee import layout as L
from demos_sim.assemblee.policies import POLICY_SIG, register
from demos_sim.jit import kernel
from demos_sim.rng import below

(P_BID, P_NOISE, P_RESERVE, P_ATTACK, P_PLEDGE, P_PLEDGE_MULT, P_COND, P_SPEND,
 P_TARGET_LEADER, P_PROPOSE, P_PROPOSE_MARGIN, P_SUPPORT_MARGIN, P_OST_PLEDGE,
 P_ASSASSINATE, P_VOTE, P_BUY) = range(16)
P_NEVER_BID = 16          # 16 + character id: 1.0 = never bid on that character
P_PEEK = 31               # 1.0: as the Oracle-advantage seat, use the bids it sees (A4)

# A6: the character that resolves each harmful event (ids 0–10)
_RESOLVER = np.array((L.CH_ORACLE, L.CH_PEDDLER, L.CH_PRIEST, L.CH_ATHLETE, L.CH_ASSASSIN,
                      L.CH_BUILDER, L.CH_COURTESAN, L.CH_GUARD, L.CH_PHILOSOPHER, L.CH_CRIER,
                      L.CH_HERO), np.int64)
_BASE = np.array((6, 5, 5, 3, 2, 6, 3, 5, 4, 2, 4), np.int64)


@register("random", description="uniform among the legal options of every decision "
          "(amounts: uniform from 0 to the most allowed)")
@kernel(POLICY_SIG)
def random_policy(cfg, obs, opts, n_opts, params, rng):
    return below(rng, 0, n_opts)


@kernel(inline=True)
def _score(obs, p):
    return obs[L.O_REN + p] + obs[L.O_GOLD + p] // 3


@kernel
def _leader(obs, seat, rng):
    """The other player in the game with the highest score (ties: at random)."""
    best = -1
    who = -1
    nt = 0
    for q in range(obs[L.O_N]):
        if q != seat and (obs[L.O_IN] >> q) & 1:
            s = _score(obs, q)
            if s > best:
                best = s
                who = q
                nt = 1
            elif s == best:
                nt += 1
                if below(rng, 0, nt) == 0:
                    who = q
    return who


@kernel
def _runner_up(obs, leader):
    """The best score in the game apart from ``leader``'s."""
    best = 0
    for q in range(obs[L.O_N]):
        if q != leader and (obs[L.O_IN] >> q) & 1:
            best = max(best, _score(obs, q))
    return best


@kernel
def _best_other(obs, seat, off, rng):
    """The other player in the game with the most of ``obs[off + q]`` (gold or renown;
    ties at random)."""
    best = -1
    who = -1
    nt = 0
    for q in range(obs[L.O_N]):
        if q != seat and (obs[L.O_IN] >> q) & 1:
            x = obs[off + q]
            if x > best:
                best = x
                who = q
                nt = 1
            elif x == best:
                nt += 1
                if below(rng, 0, nt) == 0:
                    who = q
    return who


@kernel
def _fair_share(obs, params):
    cost = obs[L.O_COST]
    nin = obs[L.O_NIN]
    return int(np.ceil(((cost + nin - 1) // nin) * params[P_PLEDGE_MULT]))


@kernel
def _value(obs, params, seat, c, rng):
    """What holding character ``c`` this round is worth to ``seat``, in score points."""
    a = params[P_ATTACK]
    v = 0.0
    if c == L.CH_SPECTACLES:
        v = 5.0
    elif c == L.CH_GUARD:
        v = 0.5
    elif c == L.CH_THIEF:
        q = (_leader(obs, seat, rng) if params[P_TARGET_LEADER] > 0
             else _best_other(obs, seat, L.O_GOLD, rng))
        if q >= 0:
            v = a * (obs[L.O_GOLD + q] // 2) / 3.0
    elif c == L.CH_ASSASSIN:
        q = _leader(obs, seat, rng)
        if params[P_ASSASSINATE] > 0 and q >= 0:
            lead = _score(obs, q) - _score(obs, seat)
            v = a * max(0.0, lead * params[P_ASSASSINATE] - 10.0) / 2.0
    elif c == L.CH_PEDDLER:
        v = 7.0 / 3.0
    elif c == L.CH_COURTESAN:
        q = (_leader(obs, seat, rng) if params[P_TARGET_LEADER] > 0
             else _best_other(obs, seat, L.O_REN, rng))
        if q >= 0:
            v = a * 0.4 * min(4, obs[L.O_REN + q])
    elif c == L.CH_ORACLE:
        v = 1.0
    elif c == L.CH_PRIEST or c == L.CH_ATHLETE:
        v = 3.0
    elif c == L.CH_HERO:
        v = 4.0
    elif c == L.CH_BRIGAND:
        v = a * 1.0
    elif c == L.CH_BROKER:
        v = 4.0 / 3.0
    elif c == L.CH_BUILDER:
        v = 4.0 if params[P_BUY] > 0 else 0.0
    elif c == L.CH_PHILOSOPHER:
        v = 2.0
    elif c == L.CH_CRIER:
        v = 0.7 if params[P_BUY] > 0 else 0.0
    if params[P_SPEND] > 0:
        for e in range(L.NHARM):
            if _RESOLVER[e] == c and obs[L.O_PEND_COUNT + e] > 0:
                save = _BASE[e] + obs[L.O_NIN]
                v = max(v, 3.0 + (save / obs[L.O_NIN]) / 3.0)
                break
    return v


@kernel
def _bid(obs, params, rng, seat):
    c = obs[L.O_CHAR]
    g = obs[L.O_MAX]
    v = _value(obs, params, seat, c, rng)
    b = int(v * params[P_BID])
    if b > 0 and params[P_NOISE] > 0:
        b += below(rng, 0, int(params[P_NOISE]) + 1)
    if ((c == L.CH_THIEF or c == L.CH_ASSASSIN or c == L.CH_BRIGAND)
            and obs[L.O_PERS + seat] == L.PE_LEREMAC):
        b = max(0, b - 2)             # A11: his bid counts 2 more
    keep = 0
    if params[P_PLEDGE] > 0 and obs[L.O_NPEND] > 0:   # the fair share of what is pending
        nin = obs[L.O_NIN]
        keep = int(np.ceil(((obs[L.O_PEND_COST] + nin - 1) // nin + obs[L.O_NPEND])
                           * params[P_PLEDGE_MULT]))
    top = int(max(0, g - keep) * (1.0 - params[P_RESERVE]))
    if b > top:
        b = top
    if c == L.CH_ASSASSIN and b > g - 25:   # keep the 25 gold of the kill
        b = max(0, g - 25)
    if params[P_NEVER_BID + c] > 0:   # never_bid: abstain (after the same random draws,
        return 0                      # so the seat's stream stays paired with the free form)
    if params[P_PEEK] > 0 and seat == obs[L.O_ORACLE]:
        b = _peek(obs, params, seat, c, v, b, top, g)
    return max(0, min(b, g))


@kernel
def _peek(obs, params, seat, c, v, b, top, g):
    """``peek``: the Oracle-advantage seat (A4) that sees a bid at least its own raises to
    one more when that stays within the character's worth to it (``value x
    bid_per_point``) and its limits (``top``), else bids 0: an all-pay bid it expects to
    lose is gold thrown away. Seeing no such bid, it keeps its bid."""
    pos = obs[L.O_POS]
    seen = -1
    for q in range(obs[L.O_N]):
        if q != seat:
            seen = max(seen, obs[L.O_BIDS + pos * L.MAXP + q])
    bonus = 0
    if ((c == L.CH_THIEF or c == L.CH_ASSASSIN or c == L.CH_BRIGAND)
            and obs[L.O_PERS + seat] == L.PE_LEREMAC):
        bonus = 2                     # A11: his bid counts 2 more
    if seen < 0 or b + bonus > seen:
        return b
    want = max(0, seen + 1 - bonus)
    if c == L.CH_ASSASSIN:
        top = min(top, g - 25)
    if want <= int(v * params[P_BID]) and want <= top:
        return want
    return 0


@kernel
def _weakest(obs, opts, n_opts, rng):
    """The option (a seat) with the lowest score; ties at random."""
    best = 1 << 40
    k = 0
    nt = 0
    for i in range(n_opts):
        q = opts[i]
        if q >= 0:
            s = _score(obs, q)
            if s < best:
                best = s
                k = i
                nt = 1
            elif s == best:
                nt += 1
                if below(rng, 0, nt) == 0:
                    k = i
    return k


@kernel
def _vote(obs, params, opts, n_opts, rng):
    """The option (a seat) its ``vote`` rule picks: weakest, most gold pledged over the
    game (generous) or best score (leader); ties at random."""
    mode = int(params[P_VOTE])
    if mode == 0:
        return _weakest(obs, opts, n_opts, rng)
    best = -1
    k = 0
    nt = 0
    for i in range(n_opts):
        q = opts[i]
        s = obs[L.O_PLEDGED + q] if mode == 1 else _score(obs, q)
        if s > best:
            best = s
            k = i
            nt = 1
        elif s == best:            # ties at random, never by seat order
            nt += 1
            if below(rng, 0, nt) == 0:
                k = i
    return k


@kernel(POLICY_SIG)
def persona(cfg, obs, opts, n_opts, params, rng):
    """The generic persona kernel (parameters: personas.toml)."""
    kind = obs[L.O_KIND]
    seat = obs[L.O_SEAT]
    if kind == L.K_BID:
        return _bid(obs, params, rng, seat)
    if kind == L.K_PLEDGE:
        mode = int(params[P_PLEDGE])
        give = 0
        if mode == 1:
            give = _fair_share(obs, params)
        elif mode == 2:
            if obs[L.O_LAST_TOTAL] < 0:
                give = _fair_share(obs, params)       # cooperate first
            else:
                others = 0
                pos = 0
                for q in range(obs[L.O_N]):
                    if q != seat and obs[L.O_LAST_PLEDGE + q] >= 0:
                        others += 1
                        if obs[L.O_LAST_PLEDGE + q] > 0:
                            pos += 1
                if others > 0 and pos >= params[P_COND] * others:
                    give = _fair_share(obs, params)
        return min(give, obs[L.O_MAX])
    if kind == L.K_SPEND:
        return 1 if params[P_SPEND] > 0 else 0
    if kind == L.K_STOP:
        return 0
    if kind == L.K_TARGET:
        c = obs[L.O_CHAR]
        guard = obs[L.O_HOLDS + L.CH_GUARD]
        if c == L.CH_ASSASSIN:
            q = _leader(obs, seat, rng)
            if (params[P_ASSASSINATE] > 0 and q >= 0 and q != guard and
                    (_score(obs, q) - _score(obs, seat)) * params[P_ASSASSINATE] >= 10):
                for i in range(n_opts):
                    if opts[i] == q:
                        return i
            return 0                                  # decline
        if params[P_TARGET_LEADER] > 0:
            q = _leader(obs, seat, rng)
        elif c == L.CH_COURTESAN:
            q = _best_other(obs, seat, L.O_REN, rng)
        else:
            q = _best_other(obs, seat, L.O_GOLD, rng)
        best = 0
        for i in range(n_opts):
            if opts[i] == q:
                best = i
        if opts[best] == guard and c != L.CH_COURTESAN:   # the Guard is immune (A7)
            for i in range(n_opts):
                if opts[i] != guard:
                    return i
        return best
    if kind == L.K_BUY:
        return n_opts - 1 if params[P_BUY] > 0 else 0
    if kind == L.K_PROPOSE:
        if params[P_PROPOSE] > 0:
            q = _leader(obs, seat, rng)
            if q >= 0 and _score(obs, q) - _runner_up(obs, q) >= params[P_PROPOSE_MARGIN]:
                for i in range(n_opts):
                    if opts[i] == q:
                        return i
        return 0
    if kind == L.K_SUPPORT:
        t = obs[L.O_TARGET]
        return 1 if _score(obs, t) - _score(obs, seat) >= params[P_SUPPORT_MARGIN] else 0
    if kind == L.K_OST_PLEDGE:
        need = obs[L.O_NEED_GOLD]
        ns = max(1, obs[L.O_NEED_SUP])
        give = int(np.ceil(need / ns * params[P_OST_PLEDGE]))
        return min(give, obs[L.O_MAX])
    if kind == L.K_VOTE:
        return _vote(obs, params, opts, n_opts, rng)
    if kind == L.K_TIE:
        for i in range(n_opts):
            if opts[i] == seat:
                return i
        if obs[L.O_TIE_WHAT] == 2:       # A10 final tie: whom it would honour (A9 rule)
            return _vote(obs, params, opts, n_opts, rng)
        return _weakest(obs, opts, n_opts, rng)
    if kind == L.K_NAME_MC:
        return _weakest(obs, opts, n_opts, rng)
    if kind == L.K_NIMOS:
        # raise by 1 when that makes the seat the strict top bid, lower when it leads by 2+
        pos = obs[L.O_POS]
        mine = obs[L.O_BIDS + pos * L.MAXP + seat]
        other = 0
        for q in range(obs[L.O_N]):
            if q != seat and (obs[L.O_IN] >> q) & 1:
                other = max(other, obs[L.O_BIDS + pos * L.MAXP + q])
        want = 0
        if mine == other and _value(obs, params, seat, obs[L.O_CHAR], rng) * params[P_BID] > mine:
            want = 1
        elif mine >= other + 2:
            want = -1
        for i in range(n_opts):
            if opts[i] == want:
                return i
        return 0
    return 0

