"""Python layer over the kernel: policies -> function tuple, chunks, workers, aggregates.

Games are numbered ``0 … G-1`` and cut into chunks of :data:`CHUNK` games; game ``g`` is
game ``g % CHUNK`` of chunk ``g // CHUNK``, whose key comes from
``SeedSequence(seed, spawn_key=(chunk,))``. Every worker can therefore play any chunk on
its own, and the aggregates — integer counts, summed in chunk order — are identical for
any number of workers. Records use the same numbering, so game ``g`` of a record file is
game ``g`` of a simulation with the same seed. The game-neutral parts (chunking, keys,
workers, the M1 interval) live in :mod:`demos_sim.sim_common`.
"""

from __future__ import annotations


import numpy as np

from demos_sim.demos import layout as L
from demos_sim.demos.rules import DemosConfig
from demos_sim.demos.policies import Policy, loaded_plugins, resolve
from demos_sim.registry import policy_tuple as _policy_tuple
from demos_sim.sim_common import (  # noqa: F401  (CHUNK, chunks_of re-exported)
    CHUNK, SimResultBase, check_run_args, chunk_game_keys, chunks_of, play_rows, print_throughput,
    print_variants, run_chunks, share_ci, share_counts,
)


def policy_tuple(policies: list[Policy]):
    """Pad to MAXP seats: the kernel is compiled once, for 5-tuples of policies."""
    return _policy_tuple(policies, L.MAXP)


# ------------------------------------------------------------------ aggregates
# One int64 vector per chunk; counts only, so sums are exact and order-free.
A_GAMES = 0
A_NOWIN = 1
A_TRUNC = 2
A_ROUNDS = 3
A_ROUNDS_SQ = 4
A_VETOES = 5
A_SHARE = 6                  # MAXP sides x MAXP k: games this side won shared by k
AGG_LEN = A_SHARE + L.MAXP * L.MAXP


def aggregate(res: np.ndarray) -> np.ndarray:
    agg = np.zeros(AGG_LEN, np.int64)
    agg[A_GAMES] = res.shape[0]
    trunc = res[:, L.R_TRUNC] == 1
    agg[A_TRUNC] = trunc.sum()
    agg[A_NOWIN] = ((res[:, L.R_NWIN] == 0) & ~trunc).sum()
    rounds = res[:, L.R_ROUNDS]
    agg[A_ROUNDS] = rounds.sum()
    agg[A_ROUNDS_SQ] = (rounds * rounds).sum()
    agg[A_VETOES] = res[:, L.R_VETOES_USED].sum()
    nwin = res[:, L.R_NWIN]
    agg[A_SHARE:A_SHARE + L.MAXP * L.MAXP] = share_counts(
        res[:, L.R_WINSIDES], nwin, L.MAXP, L.MAXP).ravel()
    return agg


def play_chunk(cfg_arr: np.ndarray, specs: list[str], seed: int, players: int,
               plugins: tuple, chunk: int, count: int) -> np.ndarray:
    """Play games ``0 … count-1`` of chunk ``chunk``; per-game result rows.

    Returns
    -------
    ndarray(int64, ndim=2), shape (count, RES_LEN): row ``g`` is game ``g`` of the chunk
    (columns ``R_*`` of :mod:`demos_sim.demos.layout`). The experiment runner
    (:mod:`demos_sim.runner`) turns these rows into its own per-chunk aggregates.
    """
    from demos_sim.demos.engine import DIAG_LEN, check_errors, play_batch

    res, diag = play_rows(play_batch, cfg_arr, lambda: resolve(specs, players), L.MAXP,
                          L.RES_LEN, DIAG_LEN, seed, chunk, count, plugins)
    check_errors(diag)
    return res


def run_chunk(cfg_arr: np.ndarray, specs: list[str], seed: int, players: int,
              plugins: tuple, chunk: int, count: int) -> np.ndarray:
    """Play one chunk and return its aggregate vector (a worker's whole job)."""
    return aggregate(play_chunk(cfg_arr, specs, seed, players, plugins, chunk, count))


class SimResult(SimResultBase):
    """See :class:`demos_sim.sim_common.SimResultBase`."""

    def side_shares(self) -> list[dict]:
        """M1 win share of every side: mean, 95% CI (normal, sample variance), counts."""
        n = self.games
        out = []
        labels = self.config.side_labels()
        for s, label in enumerate(labels):
            counts = self.agg[A_SHARE + s * L.MAXP: A_SHARE + (s + 1) * L.MAXP]
            mean, ci = share_ci(counts, n)
            seats = [i for i, x in enumerate(self.config.side_of_seat()) if x == s]
            out.append({"side": label, "seats": seats, "share": mean, "ci95": ci,
                        "wins": int(counts.sum()), "shared_wins": int(counts[1:].sum())})
        return out

    def summary(self) -> dict:
        from demos_sim import __version__
        from demos_sim.provenance import CONTRACT, git_revision

        n = self.games
        rounds_mean = self.agg[A_ROUNDS] / n
        total_rounds = int(self.agg[A_ROUNDS])
        return {
            "game": "demos", "rules": self.config.rules, "mode": self.config.mode,
            "players": self.config.players, "seating": self.config.seating,
            "variants": self.config.variants, "policies": self.policies, "seed": self.seed,
            "games": n, "sides": self.side_shares(),
            "no_winner_share": int(self.agg[A_NOWIN]) / n,
            "truncated_share": int(self.agg[A_TRUNC]) / n,
            "mean_rounds": rounds_mean, "rounds": total_rounds,
            "vetoes_per_game": int(self.agg[A_VETOES]) / n,
            "wall_s": self.wall_s, "workers": self.workers,
            "rounds_per_s": total_rounds / self.wall_s if self.wall_s > 0 else None,
            "games_per_s": n / self.wall_s if self.wall_s > 0 else None,
            "contract": CONTRACT, "version": __version__, "git_revision": git_revision(),
        }


def print_summary(result: SimResult, workers: int) -> None:
    """The text form of ``demos-sim simulate`` (DĒMOS)."""
    s = result.summary()
    config = result.config
    what = "side" if config.mode != "individual" else "seat"
    print(f"DĒMOS {config.rules} rules, {config.mode}, {config.players} players, "
          f"policies {','.join(result.policies)}, seed {result.seed}")
    print_variants(result)
    print(f"{s['games']} games, {s['rounds']} rounds, {s['mean_rounds']:.2f} rounds/game")
    print(f"{what:>6}  seats      win share   95% CI")
    for side in s["sides"]:
        lo, hi = side["ci95"]
        seats = ",".join(map(str, side["seats"]))
        print(f"{side['side']:>6}  {seats:<9}  {side['share']:.4f}     [{lo:.4f}, {hi:.4f}]")
    print(f"no winner {s['no_winner_share']:.4f}   truncated {s['truncated_share']:.4f}   "
          f"vetoes/game {s['vetoes_per_game']:.3f}")
    print_throughput(s, workers)


def simulate(config: DemosConfig, specs: list[str], games: int, seed: int,
             workers: int = 1) -> SimResult:
    """Play ``games`` games; ``workers`` processes (joblib) share the chunks."""
    check_run_args(games, workers)
    resolve(specs, config.players)  # refuse unknown policies before anything runs
    args = (config.to_array(), specs, seed, config.players, tuple(loaded_plugins()))
    agg, wall = run_chunks(run_chunk, args, games, workers)
    return SimResult(config, list(specs), seed, agg, wall, workers)
