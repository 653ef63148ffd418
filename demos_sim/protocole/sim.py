"""Python layer over the Protocole kernel: policies -> function tuple, chunks, aggregates.

Chunking, keys, workers and the M1 interval are shared with DĒMOS
(:mod:`demos_sim.sim_common`): game ``g`` is game ``g % CHUNK`` of chunk ``g // CHUNK``
and every aggregate is an integer count summed in chunk order, so the numbers are the
same for any number of workers, and game ``g`` of a record file is game ``g`` here.
"""

from __future__ import annotations


import numpy as np

from demos_sim.protocole import layout as L
from demos_sim.protocole.policies import Policy, loaded_plugins, resolve
from demos_sim.protocole.rules import ProtocoleConfig
from demos_sim.registry import policy_tuple as _policy_tuple
from demos_sim.sim_common import (
    SimResultBase, check_run_args, play_rows, print_throughput, print_variants, run_chunks,
    share_ci, share_counts,
)


def policy_tuple(policies: list[Policy]):
    """Pad to MAXP seats: the kernel is compiled once, for 4-tuples of policies."""
    return _policy_tuple(policies, L.MAXP)


# ------------------------------------------------------------------ aggregates
# One int64 vector per chunk; counts only, so sums are exact and order-free.
A_GAMES = 0
A_TRUNC = 1
A_NOWIN = 2                  # finished games without a winner (each; coop: losses)
A_ROUNDS = 3
A_ROUNDS_SQ = 4
A_TURNS = 5
A_WIN = 6                    # coop outcomes (P5.2)
A_LOSS_ELIM = 7
A_LOSS_REINF = 8
A_SHARE = 9                  # MAXP seats x MAXP k: games this seat won shared by k
A_ELIM = A_SHARE + L.MAXP * L.MAXP   # MAXP: games in which the seat was eliminated
A_POINTS = A_ELIM + L.MAXP           # MAXP: sum of final points
A_FOYER_HIST = A_POINTS + L.MAXP     # 37: coop wins by total Foyer cards 0–36
AGG_LEN = A_FOYER_HIST + L.NCARD + 1


def aggregate(res: np.ndarray) -> np.ndarray:
    agg = np.zeros(AGG_LEN, np.int64)
    agg[A_GAMES] = res.shape[0]
    trunc = res[:, L.R_TRUNC] == 1
    agg[A_TRUNC] = trunc.sum()
    agg[A_NOWIN] = ((res[:, L.R_NWIN] == 0) & ~trunc).sum()
    rounds = res[:, L.R_ROUNDS]
    agg[A_ROUNDS] = rounds.sum()
    agg[A_ROUNDS_SQ] = (rounds * rounds).sum()
    agg[A_TURNS] = res[:, L.R_TURNS].sum()
    out = res[:, L.R_OUTCOME]
    won = out == L.OUT_WIN
    agg[A_WIN] = won.sum()
    agg[A_LOSS_ELIM] = (out == L.OUT_LOSS_ELIM).sum()
    agg[A_LOSS_REINF] = (out == L.OUT_LOSS_REINF).sum()
    nwin = res[:, L.R_NWIN]
    agg[A_SHARE:A_SHARE + L.MAXP * L.MAXP] = share_counts(
        res[:, L.R_WINMASK], nwin, L.MAXP, L.MAXP).ravel()
    for p in range(L.MAXP):
        agg[A_ELIM + p] = ((res[:, L.R_ELIM] >> p) & 1).sum()
        agg[A_POINTS + p] = res[:, L.R_POINTS + p].sum()
    agg[A_FOYER_HIST:] = np.bincount(res[won, L.R_FOYER_CARDS], minlength=L.NCARD + 1)
    return agg


def play_chunk(cfg_arr: np.ndarray, specs: list[str], seed: int, players: int,
               plugins: tuple, chunk: int, count: int) -> np.ndarray:
    """Games ``0 … count-1`` of chunk ``chunk``: per-game result rows (``R_*`` of
    :mod:`demos_sim.protocole.layout`), for :func:`run_chunk` and the experiment runner."""
    from demos_sim.protocole.engine import DIAG_LEN, play_batch

    res, _ = play_rows(play_batch, cfg_arr, lambda: resolve(specs, players), L.MAXP,
                       L.RES_LEN, DIAG_LEN, seed, chunk, count, plugins)
    return res


def run_chunk(cfg_arr: np.ndarray, specs: list[str], seed: int, players: int,
              plugins: tuple, chunk: int, count: int) -> np.ndarray:
    """Play one chunk and return its aggregate vector (a worker's whole job)."""
    return aggregate(play_chunk(cfg_arr, specs, seed, players, plugins, chunk, count))


class SimResult(SimResultBase):
    """See :class:`demos_sim.sim_common.SimResultBase`."""

    def seats(self) -> list[dict]:
        """Each for themselves: M1 win share with 95% CI, elimination rate, mean points."""
        n = self.games
        out = []
        for p in range(self.config.players):
            counts = self.agg[A_SHARE + p * L.MAXP: A_SHARE + (p + 1) * L.MAXP]
            mean, ci = share_ci(counts, n)
            out.append({"seat": p, "share": mean, "ci95": ci, "wins": int(counts.sum()),
                        "shared_wins": int(counts[1:].sum()),
                        "elimination_rate": int(self.agg[A_ELIM + p]) / n,
                        "mean_points": int(self.agg[A_POINTS + p]) / n})
        return out

    def coop(self) -> dict:
        """All together: win rate with 95% CI, how games were lost, records of won games."""
        n = self.games
        wins = int(self.agg[A_WIN])
        rate, ci = share_ci([wins], n)
        hist = self.agg[A_FOYER_HIST:A_FOYER_HIST + L.NCARD + 1]
        dist = {str(k): int(v) for k, v in enumerate(hist) if v}
        mean = float((hist * np.arange(len(hist))).sum() / wins) if wins else None
        return {"win_rate": rate, "ci95": ci, "wins": wins,
                "loss_elimination_share": int(self.agg[A_LOSS_ELIM]) / n,
                "loss_reinforced_share": int(self.agg[A_LOSS_REINF]) / n,
                "losses": {"elimination": int(self.agg[A_LOSS_ELIM]),
                           "reinforced": int(self.agg[A_LOSS_REINF])},
                "won_foyer_cards": {"mean": mean, "distribution": dist}}

    def summary(self) -> dict:
        from demos_sim import __version__
        from demos_sim.provenance import CONTRACT, git_revision

        n = self.games
        total_rounds = int(self.agg[A_ROUNDS])
        s = {
            "game": "protocole", "mode": self.config.mode, "level": self.config.level,
            "players": self.config.players, "variants": self.config.variants,
            "policies": self.policies, "seed": self.seed, "games": n,
        }
        if self.config.mode == "each":
            s["seats"] = self.seats()
        else:
            s.update(self.coop())
        s.update({
            "no_winner_share": int(self.agg[A_NOWIN]) / n,   # M1 (coop: the losses)
            "truncated_share": int(self.agg[A_TRUNC]) / n,
            "mean_rounds": total_rounds / n, "rounds": total_rounds,
            "mean_turns": int(self.agg[A_TURNS]) / n,
            "wall_s": self.wall_s, "workers": self.workers,
            "rounds_per_s": total_rounds / self.wall_s if self.wall_s > 0 else None,
            "games_per_s": n / self.wall_s if self.wall_s > 0 else None,
            "contract": CONTRACT, "version": __version__, "git_revision": git_revision(),
        })
        return s


def simulate(config: ProtocoleConfig, specs: list[str], games: int, seed: int,
             workers: int = 1) -> SimResult:
    """Play ``games`` games; ``workers`` processes (joblib) share the chunks."""
    check_run_args(games, workers)
    resolve(specs, config.players)  # refuse unknown policies before anything runs
    args = (config.to_array(), specs, seed, config.players, tuple(loaded_plugins()))
    agg, wall = run_chunks(run_chunk, args, games, workers)
    return SimResult(config, list(specs), seed, agg, wall, workers)


def print_summary(result: SimResult, workers: int) -> None:
    """The text form of ``demos-sim simulate --game protocole``."""
    s = result.summary()
    config = result.config
    pols = ",".join(result.policies)
    if config.mode == "each":
        print(f"Protocole each for themselves, {config.players} players, "
              f"policies {pols}, seed {result.seed}")
    else:
        print(f"Protocole all together, level {config.level}, {config.players} players, "
              f"policies {pols}, seed {result.seed}")
    print_variants(result)
    print(f"{s['games']} games, {s['rounds']} rounds, {s['mean_rounds']:.2f} rounds/game")
    if config.mode == "each":
        print("  seat  win share   95% CI              eliminated  mean points")
        for p in s["seats"]:
            lo, hi = p["ci95"]
            print(f"{p['seat']:>6}  {p['share']:.4f}     [{lo:.4f}, {hi:.4f}]    "
                  f"{p['elimination_rate']:.4f}      {p['mean_points']:.3f}")
        print(f"no winner {s['no_winner_share']:.4f}   truncated {s['truncated_share']:.4f}")
    else:
        lo, hi = s["ci95"]
        print(f"win rate {s['win_rate']:.4f}   95% CI [{lo:.4f}, {hi:.4f}]   ({s['wins']} wins)")
        print(f"lost by elimination {s['loss_elimination_share']:.4f}   by reinforced control "
              f"{s['loss_reinforced_share']:.4f}   truncated {s['truncated_share']:.4f}")
        won = s["won_foyer_cards"]
        if won["mean"] is None:
            print("record of won games (cards in Foyers): no game won")
        else:
            dist = "  ".join(f"{k}:{v}" for k, v in won["distribution"].items())
            print(f"record of won games (cards in Foyers): mean {won['mean']:.2f}   "
                  f"games by record {dist}")
    print_throughput(s, workers)
