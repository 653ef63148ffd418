"""Python layer over the L'Assemblée kernel: policies -> function tuple, chunks, aggregates.

Chunking, keys, workers and the M1 interval are shared with the other games
(:mod:`demos_sim.sim_common`): game ``g`` is game ``g % CHUNK`` of chunk ``g // CHUNK``
and every aggregate is an integer count summed in chunk order, so the numbers are the
same for any number of workers, and game ``g`` of a record file is game ``g`` here.
M1 shares are kept exactly: a win shared by ``k`` counts in the ``k`` column.
"""

from __future__ import annotations


import numpy as np

from demos_sim import ConfigError
from demos_sim.assemblee import layout as L
from demos_sim.assemblee.policies import Policy, load_extension, loaded_extensions, resolve
from demos_sim.assemblee.rules import AssembleeConfig
from demos_sim.registry import policy_tuple as _policy_tuple
from demos_sim.sim_common import (
    SimResultBase, check_run_args, print_throughput, print_variants, run_chunks, share_ci,
    share_counts,
)

P = L.MAXP


def policy_tuple(policies: list[Policy]):
    """Pad to MAXP seats: the kernel is compiled once, for 15-tuples of policies."""
    return _policy_tuple(policies, P)


# ------------------------------------------------------------------ aggregates
A_GAMES = 0
A_NOWIN = 1
A_COLLAPSE = 2
A_EARLY = 3
A_ROUNDS = 4
A_OST_PROP = 5
A_OST_PASS = 6
A_OST_PLEDGED = 7
A_SPENT_RES = 8
A_PLEDGE_RES = 9
A_POSTPONED = 10
A_FINAL_TIES = 11                      # games still tied after gold (A10; under final_tie
                                       # = mc_choice the MC named the winner)
A_SHARE = 16                           # P seats x P k: games the seat won shared by k
A_EXILED = A_SHARE + P * P             # P
A_ASSASSINATED = A_EXILED + P          # P
A_SCORE = A_ASSASSINATED + P           # P sum of scores of seats still in
A_GOLD = A_SCORE + P                   # P
A_REN = A_GOLD + P                     # P
A_COLLAPSE_EV = A_REN + P              # NHARM collapses with this event pending
A_WINBID = A_COLLAPSE_EV + L.NHARM     # NCHAR
A_SOLD = A_WINBID + L.NCHAR            # NCHAR
A_REVEALED = A_SOLD + L.NCHAR          # NCHAR
A_GSUM = A_REVEALED + L.NCHAR          # P policy groups: sum of the group's M1 share x LCM
A_GSQ = A_GSUM + P                     # P: sum of its square x LCM**2
AGG_LEN = A_GSQ + P

LCM = 360360                           # lcm(1 … 15): a share of a win shared by k is exact


def policy_groups(specs: list[str], players: int) -> np.ndarray:
    """Group id by seat: seats playing the same policy form one group (first seen first)."""
    names = [p.name for p in resolve(list(specs), players)]
    order = list(dict.fromkeys(names))
    return np.array([order.index(x) for x in names], np.int64)


def aggregate(res: np.ndarray, groups: np.ndarray | None = None) -> np.ndarray:
    agg = np.zeros(AGG_LEN, np.int64)
    if groups is not None:
        nw = np.maximum(res[:, L.R_NWIN], 1)
        for g in range(int(groups.max()) + 1):
            gmask = int(sum(1 << p for p in np.flatnonzero(groups == g)))
            w = np.zeros(res.shape[0], np.int64)
            x = res[:, L.R_WINMASK] & gmask
            for p in range(P):
                w += (x >> p) & 1
            units = w * (LCM // nw)
            agg[A_GSUM + g] = units.sum()
            agg[A_GSQ + g] = (units * units).sum()
    agg[A_GAMES] = res.shape[0]
    nwin = res[:, L.R_NWIN]
    agg[A_NOWIN] = (nwin == 0).sum()
    agg[A_COLLAPSE] = res[:, L.R_COLLAPSE].sum()
    agg[A_EARLY] = res[:, L.R_EARLY].sum()
    agg[A_ROUNDS] = res[:, L.R_ROUNDS].sum()
    agg[A_OST_PROP] = res[:, L.R_OST_PROPOSALS].sum()
    agg[A_OST_PASS] = res[:, L.R_OST_PASSES].sum()
    agg[A_OST_PLEDGED] = res[:, L.R_OST_PLEDGED].sum()
    agg[A_SPENT_RES] = res[:, L.R_SPENT_RESOLVED].sum()
    agg[A_PLEDGE_RES] = res[:, L.R_PLEDGE_RESOLVED].sum()
    agg[A_POSTPONED] = res[:, L.R_POSTPONED].sum()
    agg[A_FINAL_TIES] = (res[:, L.R_FINAL_TIED] > 1).sum()
    agg[A_SHARE:A_SHARE + P * P] = share_counts(res[:, L.R_WINMASK], nwin, P, P).ravel()
    for p in range(P):
        agg[A_EXILED + p] = ((res[:, L.R_EXILED] >> p) & 1).sum()
        agg[A_ASSASSINATED + p] = ((res[:, L.R_ASSASSINATED] >> p) & 1).sum()
        agg[A_SCORE + p] = np.maximum(res[:, L.R_SCORE + p], 0).sum()
        agg[A_GOLD + p] = res[:, L.R_GOLD + p].sum()
        agg[A_REN + p] = res[:, L.R_REN + p].sum()
    agg[A_COLLAPSE_EV:A_COLLAPSE_EV + L.NHARM] = res[:, L.R_COLLAPSE_EV:L.R_COLLAPSE_EV + L.NHARM].sum(0)
    agg[A_WINBID:A_WINBID + L.NCHAR] = res[:, L.R_WINBID:L.R_WINBID + L.NCHAR].sum(0)
    agg[A_SOLD:A_SOLD + L.NCHAR] = res[:, L.R_SOLD:L.R_SOLD + L.NCHAR].sum(0)
    agg[A_REVEALED:A_REVEALED + L.NCHAR] = res[:, L.R_REVEALED:L.R_REVEALED + L.NCHAR].sum(0)
    return agg


def play_rows(cfg_arr, specs, seed, players, plugins, chunk, count, check_obs=False):
    """Per-game result rows and diagnostics of games ``0 … count-1`` of chunk ``chunk``."""
    from demos_sim.assemblee.engine import DIAG_LEN, play_batch
    from demos_sim.sim_common import chunk_game_keys

    for plugin in plugins:
        load_extension(plugin)
    fns, params = policy_tuple(resolve(list(specs), players))
    res = np.zeros((count, L.RES_LEN), np.int64)
    diag = np.zeros(DIAG_LEN, np.int64)
    cfg = cfg_arr.copy()
    cfg[L.C_CHECK_OBS] = 1 if check_obs else cfg[L.C_CHECK_OBS]
    play_batch(fns, cfg, params, chunk_game_keys(seed, chunk, 0, count), res, diag)
    if res[:, L.R_ERROR].any():
        raise ConfigError("a policy returned an index outside its legal options")
    return res, diag


def play_chunk(cfg_arr: np.ndarray, specs: list[str], seed: int, players: int,
               plugins: tuple, chunk: int, count: int) -> np.ndarray:
    """Games ``0 … count-1`` of chunk ``chunk``: per-game result rows (``R_*`` of
    :mod:`demos_sim.assemblee.layout`), for :func:`run_chunk` and the experiment runner."""
    return play_rows(cfg_arr, specs, seed, players, plugins, chunk, count)[0]


def run_chunk(cfg_arr, specs, seed, players, plugins, chunk, count) -> np.ndarray:
    """Play one chunk and return its aggregate vector (a worker's whole job)."""
    res = play_chunk(cfg_arr, specs, seed, players, plugins, chunk, count)
    return aggregate(res, policy_groups(specs, players))


class SimResult(SimResultBase):
    """See :class:`demos_sim.sim_common.SimResultBase`."""

    def seat_names(self) -> list[str]:
        return [p.name for p in resolve(self.policies, self.config.players)]

    def seats(self) -> list[dict]:
        n = self.games
        names = self.seat_names()
        out = []
        for p in range(self.config.players):
            counts = self.agg[A_SHARE + p * P: A_SHARE + (p + 1) * P]
            mean, ci = share_ci(counts, n)
            out.append({"seat": p, "policy": names[p], "share": mean, "ci95": ci,
                        "wins": int(counts.sum()), "shared_wins": int(counts[1:].sum()),
                        "exiled_rate": int(self.agg[A_EXILED + p]) / n,
                        "assassinated_rate": int(self.agg[A_ASSASSINATED + p]) / n,
                        "mean_score": int(self.agg[A_SCORE + p]) / n,
                        "mean_gold": int(self.agg[A_GOLD + p]) / n,
                        "mean_renown": int(self.agg[A_REN + p]) / n})
        return out

    def by_policy(self) -> list[dict]:
        """M1 win share of the seats playing each policy together (a win shared by k
        counts 1/k per winning seat), with its 95% normal interval over games, and the
        same per seat (divided by the number of seats)."""
        from demos_sim.sim_common import Z95

        n = self.games
        names = self.seat_names()
        out = []
        for g, name in enumerate(dict.fromkeys(names)):
            seats = [p for p in range(self.config.players) if names[p] == name]
            s = int(self.agg[A_GSUM + g]) / LCM
            sq = int(self.agg[A_GSQ + g]) / LCM ** 2
            mean = s / n
            var = max(sq / n - mean * mean, 0.0) * n / max(n - 1, 1)
            half = Z95 * (var / n) ** 0.5
            k = len(seats)
            out.append({"policy": name, "seats": seats, "share": mean,
                        "ci95": [max(0.0, mean - half), min(1.0, mean + half)],
                        "share_per_seat": mean / k,
                        "ci95_per_seat": [max(0.0, mean - half) / k, min(1.0, mean + half) / k]})
        return out

    def summary(self) -> dict:
        from demos_sim import __version__
        from demos_sim.provenance import CONTRACT, git_revision

        n = self.games
        rounds = int(self.agg[A_ROUNDS])
        coll, ci = share_ci([int(self.agg[A_COLLAPSE])], n)
        return {
            "game": "assemblee", "players": self.config.players,
            "variants": self.config.variants, "collapse_threshold_in_force": self.config.threshold,
            "policies": self.policies, "seed": self.seed, "games": n,
            "collapse_rate": coll, "collapse_ci95": ci,
            "seats": self.seats(), "by_policy": self.by_policy(),
            "no_winner_share": int(self.agg[A_NOWIN]) / n, "truncated_share": 0.0,
            "early_end_share": int(self.agg[A_EARLY]) / n,
            "collapse_by_event": {L.EVENTS[e]: int(self.agg[A_COLLAPSE_EV + e])
                                  for e in range(L.NHARM)},
            "ostracism_proposals_per_game": int(self.agg[A_OST_PROP]) / n,
            "ostracism_passes_per_game": int(self.agg[A_OST_PASS]) / n,
            "events_resolved_by_spending": int(self.agg[A_SPENT_RES]),
            "events_resolved_by_pledges": int(self.agg[A_PLEDGE_RES]),
            "events_postponed": int(self.agg[A_POSTPONED]),
            "final_tie_share": int(self.agg[A_FINAL_TIES]) / n,
            "characters": {L.CHARACTERS[c]: {
                "revealed": int(self.agg[A_REVEALED + c]), "sold": int(self.agg[A_SOLD + c]),
                "mean_winning_bid": (int(self.agg[A_WINBID + c]) / int(self.agg[A_SOLD + c])
                                     if self.agg[A_SOLD + c] else None)}
                for c in range(L.NCHAR)},
            "mean_rounds": rounds / n, "rounds": rounds,
            "wall_s": self.wall_s, "workers": self.workers,
            "rounds_per_s": rounds / self.wall_s if self.wall_s > 0 else None,
            "games_per_s": n / self.wall_s if self.wall_s > 0 else None,
            "contract": CONTRACT, "version": __version__, "git_revision": git_revision(),
        }


def simulate(config: AssembleeConfig, specs: list[str], games: int, seed: int,
             workers: int = 1) -> SimResult:
    """Play ``games`` games; ``workers`` processes (joblib) share the chunks."""
    check_run_args(games, workers)
    resolve(list(specs), config.players)  # refuse unknown policies before anything runs
    args = (config.to_array(), list(specs), seed, config.players, tuple(loaded_extensions()))
    agg, wall = run_chunks(run_chunk, args, games, workers)
    return SimResult(config, list(specs), seed, agg, wall, workers)


def print_summary(result: SimResult, workers: int) -> None:
    """The text form of ``demos-sim simulate --game assemblee``."""
    s = result.summary()
    v = s["variants"]
    print(f"L'Assemblée, {s['players']} players, {v['rounds']} rounds, collapse threshold "
          f"{s['collapse_threshold_in_force']}, policies {','.join(s['policies'])}, "
          f"seed {s['seed']}")
    print_variants(result)
    lo, hi = s["collapse_ci95"]
    print(f"{s['games']} games, {s['mean_rounds']:.2f} rounds/game, collapse rate "
          f"{s['collapse_rate']:.4f} [{lo:.4f}, {hi:.4f}]")
    print("  seat  policy        win share   95% CI              exiled  assassinated  "
          "mean score")
    for p in s["seats"]:
        lo, hi = p["ci95"]
        print(f"{p['seat']:>6}  {p['policy']:<12}  {p['share']:.4f}     [{lo:.4f}, {hi:.4f}]    "
              f"{p['exiled_rate']:.4f}  {p['assassinated_rate']:.4f}        {p['mean_score']:.2f}")
    print("  policy        seats  win share   95% CI              per seat")
    for b in s["by_policy"]:
        lo, hi = b["ci95"]
        print(f"  {b['policy']:<12}  {len(b['seats']):>5}  {b['share']:.4f}     "
              f"[{lo:.4f}, {hi:.4f}]    {b['share_per_seat']:.4f}")
    print(f"no winner {s['no_winner_share']:.4f}   truncated {s['truncated_share']:.4f}   "
          f"ended by min_players {s['early_end_share']:.4f}   ostracism proposals/game "
          f"{s['ostracism_proposals_per_game']:.3f}, passed/game "
          f"{s['ostracism_passes_per_game']:.3f}")
    print_throughput(s, workers)
