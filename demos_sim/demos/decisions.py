"""Every decision of one DĒMOS sample game as the deciding seat saw it, with the bot's reason
(``DemosGame.decisions``: the explorer's replay lists them).

The sample game is played again exactly as its record (the same configuration, bots and
deal key as :func:`demos_sim.demos.record.iter_records`), with each seat's policy wrapped
so that every decision it is asked is kept: the seat's observation (its hand, the face-up
cards), the legal options in the engine's order and the index it answered. The wrapper
calls the policy with its own parameters and random stream, so the game is the recorded
one; a decision with one legal option is played by the engine without asking (RULES.md:
a forced move is no decision) and is not listed.

*The bot's reason*: the value it gave each option, where the policy exposes it. ``greedy``
(and its restricted forms) is a one-step rule whose values are functions of the deciding
seat's observation alone (:mod:`demos_sim.demos.policies.basic`), so they are computed here
with its own functions: in a discard turn (D3.2–D3.4) the value of the hand each option
leaves — exact for a known hand, greedy's estimate for a blind draw; options greedy does
not weigh (a take that joins no combination) have none — and for the veto (D3.4.1) its
hand value against its threshold. Greedy plays the option of highest value (ties to the
first), which tests/explorer/test_replay.py checks on whole games. The other bots (search,
Monte Carlo) expose no values: their options and choice are listed without them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from demos_sim.cards import codes_of

MAX_DECISIONS = 1000       # decisions kept per seat (a game under the default round cap
#                            asks each seat well under 200)


@dataclass
class Decision:
    """One decision: ``options`` in words, ``chosen`` their index, ``values`` the bot's
    value of each option (None where it gives none, or no list at all), ``note`` its
    reason in words when there is no value per option (the veto threshold)."""

    round: int                     # 1-based, as the replay's titles
    seat: int
    policy: str
    kind: str                      # the decision with its rule ID, e.g. "secret discard (D3.3)"
    hand: list[str]
    table: list[str]
    options: list[str]
    chosen: int
    values: list[float | None] | None = None
    note: str = ""
    figures: list[str] = field(default_factory=list)

    @property
    def chosen_text(self) -> str:
        return self.options[self.chosen]


_WRAPPED: dict = {}


def _capture(fn):
    """``fn`` wrapped so that every decision it answers is written into its parameter
    row after its own :data:`~demos_sim.registry.N_PARAMS` (a count, then one record per
    decision: the index answered, the number of options, the options, the observation)."""
    if fn in _WRAPPED:
        return _WRAPPED[fn]
    from demos_sim.jit import kernel
    from demos_sim.registry import N_PARAMS, POLICY_SIG

    rec, head, maxopt, obs_len, most = _sizes()

    def captured(cfg, obs, opts, n_opts, params, rng):
        idx = fn(cfg, obs, opts, n_opts, params[:N_PARAMS], rng)
        k = np.int64(params[N_PARAMS])
        if k < most:
            b = head + k * rec
            params[b] = idx
            params[b + 1] = n_opts
            for i in range(n_opts):
                params[b + 2 + i] = opts[i]
            for i in range(obs_len):
                params[b + 2 + maxopt + i] = obs[i]
        params[N_PARAMS] = k + 1
        return idx

    _WRAPPED[fn] = kernel(POLICY_SIG, allocates=True, cache=False)(captured)
    return _WRAPPED[fn]


def _sizes():
    from demos_sim.demos import layout as L
    from demos_sim.registry import N_PARAMS

    rec = 2 + L.MAXOPT + L.OBS_LEN
    return rec, N_PARAMS + 1, L.MAXOPT, L.OBS_LEN, MAX_DECISIONS


def play_decisions(config, specs: list[str], index: int, seed: int) -> list[Decision]:
    """The decisions of game ``index`` of the run seeded ``seed`` (the game of
    ``iter_records(config, specs, …, seed)`` at that index), in the order they were made."""
    from demos_sim.demos import engine as E
    from demos_sim.demos import kit
    from demos_sim.demos import layout as L
    from demos_sim.demos.policies import resolve
    from demos_sim.demos.sim import CHUNK, chunk_game_keys, policy_tuple
    from demos_sim.kernel import check_errors, new_diag
    from demos_sim.registry import N_PARAMS, reference_mask

    n = config.players
    pols = resolve(specs, n)
    fns, params = policy_tuple(pols)
    rec, head, maxopt, obs_len, most = _sizes()
    wrapped = tuple(_capture(f) for f in fns)
    prm = np.zeros((L.MAXP, head + most * rec), np.float64)
    prm[:, :N_PARAMS] = params
    cfg = config.to_array(log=False)
    cfg[L.C_TRUTH] = reference_mask(pols)
    st = np.zeros(L.ST_LEN, np.int64)
    obs = np.zeros((L.MAXP, L.OBS_LEN), np.int64)
    opts = np.zeros(L.MAXOPT, np.int64)
    prng = np.zeros(L.NSTREAM, np.uint64)
    wk = np.zeros(L.WK_LEN, np.int64)
    log = np.zeros(2, np.int64)
    diag = new_diag()
    res = np.zeros(L.RES_LEN, np.int64)
    chunk, idx = divmod(index, CHUNK)
    key = chunk_game_keys(seed, chunk, idx, 1)[0]
    E.play_game(wrapped, cfg, prm, np.uint64(key), st, obs, opts, prng, wk, log, diag, res)
    check_errors(diag)
    out = []
    for seat in range(n):
        count = min(int(prm[seat, N_PARAMS]), most)
        for k in range(count):
            b = head + k * rec
            chosen = int(prm[seat, b])
            n_opts = int(prm[seat, b + 1])
            o = prm[seat, b + 2:b + 2 + n_opts].astype(np.int64)
            ob = prm[seat, b + 2 + maxopt:b + 2 + maxopt + obs_len].astype(np.int64)
            kind = int(ob[L.O_KIND])
            texts = [kit.describe_option(kind, int(x), ob) for x in o]
            d = Decision(int(ob[L.O_ROUND]) + 1, seat, pols[seat].name, kit.KIND_RULES[kind],
                         codes_of(int(ob[L.O_HAND])), codes_of(int(ob[L.O_TABLE])), texts,
                         chosen)
            explain(d, pols[seat], cfg, ob, o, kind)
            turn = (seat - int(ob[L.O_DEALER]) - 1) % n      # action order (D3.1)
            out.append((d.round, _order_key(ob, L), turn, k, d))
    out.sort(key=lambda t: t[:4])
    return [t[-1] for t in out]


def _order_key(ob, L) -> int:
    """Decisions of one round in the order of the turn (the kinds follow the round:
    public, secret, veto, unanimous, then allocation and the Scandal)."""
    order = {L.K_FAV: 0, L.K_ANNOUNCE: 1, L.K_PUBLIC: 2, L.K_SECRET: 3, L.K_VETO: 4,
             L.K_UNAN: 5, L.K_ALLOC: 6, L.K_MEDIA: 7, L.K_COLOUR: 8}
    return order.get(int(ob[L.O_KIND]), 9)


def explain(d: Decision, pol, cfg, ob, opts, kind) -> None:
    """Fill in ``d.values`` / ``d.note``: the bot's reason where its policy exposes it."""
    from demos_sim.registry import spec_parts

    base = spec_parts(pol.name)[0]
    if base == "greedy":
        _greedy(d, pol, cfg, ob, opts, kind)
    else:
        d.note = f"{base} does not expose the values of its options"


def _greedy(d: Decision, pol, cfg, ob, opts, kind) -> None:
    """greedy's values (module docstring), with its own functions and parameters."""
    from demos_sim.demos import layout as L
    from demos_sim.demos.policies import basic as B
    from demos_sim.demos.policies.teamplay import veto_shift
    from demos_sim.demos.scoring import best_combo, max_suit_count, total_value

    params = pol.params
    seat = int(ob[L.O_SEAT])
    sr = tuple(int(x) for x in B.scoring_rules(cfg))
    full = sr[0]
    h = int(ob[L.O_HAND])
    fav = int(ob[L.O_FAV + seat])
    weight = float(params[B.P_DRAW_WEIGHT])
    if kind in (L.K_PUBLIC, L.K_SECRET, L.K_UNAN):
        kd, sc, cm = best_combo(h, sr, fav)
        useful = 0 if params[B.P_NOTAKE] > 0 else int(B._useful_takes(h, int(ob[L.O_TABLE]),
                                                                      full == 1))
        values: list[float | None] = []
        for o in opts:
            o = int(o)
            if kind == L.K_PUBLIC:
                values.append(float(B.blind_value(sr, h, fav, weight, kd, sc, cm, o)))
            elif o < 0:
                values.append(float(B.value5(sr, h, fav)))       # pass: keep the hand
            else:
                dcard, t = divmod(o, 64)
                if t == L.DECK_TOP:
                    values.append(float(B.blind_value(sr, h, fav, weight, kd, sc, cm, dcard)))
                    continue
                h6 = h | (1 << t)
                kd6, sc6, cm6 = best_combo(h6, sr, fav)
                if not (useful >> t) & 1 or kd6 == 0 or (int(cm6) >> dcard) & 1:
                    values.append(None)          # greedy does not weigh this take
                    continue
                h5 = h6 & ~(1 << dcard)
                unpl6 = total_value(h6) - total_value(cm6)
                values.append(float(sc6 + 0.01 * max_suit_count(h5)
                                    + 0.0005 * (unpl6 - (dcard % 10 + 1))
                                    + 0.0001 * (10 - dcard % 10)))
        d.values = values
        d.note = ("value of the hand each option leaves: the best combination's points "
                  "(D4.1), exact for a known hand, greedy's estimate for a blind draw")
    elif kind == L.K_VETO:
        if params[B.P_NOVETO] > 0:
            d.note = "greedy:noveto never vetoes"
            return
        thr = float(params[B.P_VETO_AT])
        if params[B.P_LEGACY] == 0:
            thr += float(veto_shift(cfg, ob, seat, params[B.P_VETO_SPEND],
                                    params[B.P_VETO_FREE]))
        v = float(B.team_hand_value(sr, ob, seat))
        d.note = (f"hand value {v:.2f} against its veto threshold {thr:.2f}: "
                  + ("at or above it, it vetoes" if v >= thr else "below it, it lets the "
                     "unanimous exchange happen"))
    else:
        d.note = "greedy's rule for this decision weighs no value per option"
