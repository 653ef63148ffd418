"""``demos-sim simulate``: the runner's one-point run, played in memory.

A simulation is an experiment of one grid point (:func:`demos_sim.runner.experiment.
experiment_of`) run by :func:`demos_sim.runner.run.run_experiment` with ``keep=False``:
the same chunks, the same seeds, the same exact totals and the same tables as ``demos-sim
run`` — only nothing is stored. So ``demos-sim simulate --seed S`` and an experiment file
with ``seed = S`` and the same setup give the same numbers, for any number of workers, and
every game gets the same summary, built from its :class:`~demos_sim.game.Quantity` table:

- the win share of every side (RULES.md M1) with its 95% interval — in a cooperative
  game (Protocole all together) the team's win rate once;
- game length, and the game's :attr:`~demos_sim.game.Game.summary_metrics` (no winner,
  truncated, vetoes per game, collapses …) with their intervals; the per-seat ones
  (points, eliminated, exiled …) in the seat table;
- what made it: configuration, variants changed from the contract's defaults, policies,
  seed, contract version, package version, git revision; and the speed of the run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pandas as pd

from demos_sim.game import Game, get_game
from demos_sim.restricted import Lineup, lineup
from demos_sim.runner.experiment import experiment_of
from demos_sim.runner.run import RunResult, run_experiment
from demos_sim.runner.units import pct, pct_ci


def _ci(row) -> list[float]:
    return [float(row.ci_low), float(row.ci_high)]


@dataclass
class Simulation:
    """A finished simulation: its game, configuration, policies, seed and run."""

    game: Game
    config: object
    policies: list[str]
    seed: int
    workers: int
    run: RunResult

    @property
    def results(self) -> pd.DataFrame:
        """The run's tidy table (columns of :mod:`demos_sim.runner.tables`)."""
        return self.run.results

    @property
    def games(self) -> int:
        return int(self.run.meta["games_per_point"])

    @property
    def wall_s(self) -> float:
        return float(self.run.meta["play_s"])

    def rows(self, metric: str) -> pd.DataFrame:
        return self.results[self.results["metric"] == metric]

    def changed_variants(self) -> dict:
        """The variants whose value differs from the contract's default (Part V)."""
        import dataclasses

        default = dataclasses.replace(self.config, variants={}).variants
        return {k: v for k, v in self.config.variants.items() if v != default[k]}

    def summary(self) -> dict:
        """Everything ``demos-sim simulate --json`` prints (see the module docstring)."""
        g = self.game
        n = self.games
        ws = self.rows("win_share")
        sides = [{"side": r.side, "seats": [int(x) for x in str(r.seats).split(",") if x != ""],
                  "share": float(r.mean), "ci95": _ci(r), "wins": int(r.count)}
                 for r in ws.itertuples()]
        metrics = {}
        seats: list[dict] = [{"seat": i, "policy": p} for i, p in enumerate(self.policies)]
        for m in g.summary_metrics:
            q = g.quantity(m)
            rows = self.rows(m)
            if q.level == "game":
                r = next(rows.itertuples())
                metrics[m] = {"mean": float(r.mean), "ci95": _ci(r),
                              "description": q.description}
            elif q.level == "bins":
                metrics[m] = {"description": q.description,
                              "bins": {r.side: {"mean": float(r.mean), "ci95": _ci(r)}
                                       for r in rows.itertuples()}}
            elif q.level == "seat":
                for r in rows.itertuples():
                    seats[int(r.side)][m] = float(r.mean)
                    seats[int(r.side)][m + "_ci95"] = _ci(r)
        by_policy = []
        if g.by_policy is not None:
            rows = {int(r.side): r for r in self.rows(g.by_policy).itertuples()}
            for name in dict.fromkeys(self.policies):
                members = [i for i, p in enumerate(self.policies) if p == name]
                r = rows[members[0]]
                by_policy.append({"policy": name, "seats": members, "share": float(r.mean),
                                  "ci95": _ci(r), "share_per_seat": float(r.mean) / len(members)})
        length = next(self.rows(g.length).itertuples())
        total_rounds = int(round(length.total))
        meta = self.run.meta
        out = {
            "game": g.name, "title": g.title, **g.describe(self.config),
            "changed_variants": self.changed_variants(), "players": g.players_of(self.config),
            "policies": list(self.policies), "seed": self.seed, "games": n,
            "cooperative": g.cooperative(self.config), "sides": sides,
            "metrics": metrics, "seats": seats, "by_policy": by_policy,
            "no_winner_share": float(next(self.rows("no_winner").itertuples()).mean),
            "truncated_share": float(next(self.rows("truncated").itertuples()).mean),
            "mean_rounds": float(length.mean), "rounds_ci95": _ci(length),
            "rounds": total_rounds,
            "wall_s": self.wall_s, "workers": self.workers,
            "rounds_per_s": total_rounds / self.wall_s if self.wall_s > 0 else None,
            "games_per_s": n / self.wall_s if self.wall_s > 0 else None,
            "contract": meta["contract"], "version": meta["version"],
            "git_revision": meta["git_revision"],
        }
        return out


def simulate(game: str | Game, config, specs: Lineup | list[str], games: int, seed: int,
             workers: int = 1, plugins: tuple[str, ...] = ()) -> Simulation:
    """Play ``games`` games of ``config`` with ``specs`` — a :class:`~demos_sim.restricted.
    Lineup` read for ``config``, or the specs it is read from (one policy by seat, or one
    for all) — on ``workers`` processes; nothing is written. ``plugins`` (modules, ``.py``
    or persona files) are loaded first; with those already loaded in this process they
    are loaded again in every worker. Unknown policies and bad counts are refused with a
    one-line error before anything runs."""
    from demos_sim import ConfigError

    g = get_game(game) if isinstance(game, str) else game
    if workers < 1:
        raise ConfigError(f"--workers must be at least 1, got {workers}")
    seats = specs if isinstance(specs, Lineup) else lineup(g, specs, config, plugins)
    plugins = tuple(dict.fromkeys(tuple(plugins) + g.loaded_plugins()))
    metrics = ("win_share", "no_winner", "truncated", g.length, *g.summary_metrics,
               *([g.by_policy] if g.by_policy else []))
    exp = experiment_of(g.name, [("all games", config, seats)], games, seed, tuple(plugins),
                        metrics=metrics)
    run = run_experiment(exp, workers=workers, quiet=True, keep=False)
    return Simulation(g, config, list(seats.specs), seed, workers, run)


def _fmt(v) -> str:
    return v if isinstance(v, str) else json.dumps(v)


def _bound(x: float) -> str:
    """An interval bound at 4 decimals, or 2 significant digits when it would print as
    0.0000 without being 0 (the Wilson upper bound of a rare event: 0 of 100,000 games
    is [0.0000, 0.000038], not [0.0000, 0.0000])."""
    return f"{x:.2g}" if 0 < abs(x) < 5e-5 else f"{x:.4f}"


def _value(g, metric: str, mean: float, lo: float, hi: float) -> str:
    """A figure and its 95% interval: a share (a rate) in %, any other figure (points,
    vetoes per game …) in its own unit."""
    if g.quantity(metric).rate:
        return f"{pct(mean)} {pct_ci(lo, hi)}"
    return f"{mean:.4f} [{_bound(lo)}, {_bound(hi)}]"


def print_summary(sim: Simulation) -> None:
    """The text of ``demos-sim simulate``: what was played, then the sentence-sized
    figures, each with its 95% interval."""
    s = sim.summary()
    g = sim.game
    setting = ", ".join(f"{k} {s[k]}" for k in g.settings if s.get(k) is not None)
    pols = s["policies"][:1] if len(set(s["policies"])) == 1 else s["policies"]
    print(f"{g.title}{', ' + setting if setting else ''}, {s['players']} players, "
          f"policies {','.join(pols)}, seed {s['seed']}")
    if s["changed_variants"]:
        print("variants: " + ", ".join(f"{k}={_fmt(v)}"
                                       for k, v in s["changed_variants"].items()))
    lo, hi = s["rounds_ci95"]
    print(f"{s['games']} games, {s['rounds']} rounds, {s['mean_rounds']:.3f} rounds/game "
          f"[{lo:.3f}, {hi:.3f}]")
    if s["cooperative"]:
        side = s["sides"][0]
        lo, hi = side["ci95"]
        print(f"the team wins {pct(side['share'])}   95% CI {pct_ci(lo, hi)}   "
              f"({side['wins']} wins)")
    else:
        what = "side" if any(len(x["seats"]) > 1 for x in s["sides"]) else "seat"
        print(f"{what:>6}  seats      win share   95% CI")
        for side in s["sides"]:
            lo, hi = side["ci95"]
            seats = ",".join(map(str, side["seats"]))
            print(f"{side['side']:>6}  {seats:<9}  {pct(side['share']):>8}   {pct_ci(lo, hi)}")
    seat_cols = [m for m in g.summary_metrics if g.quantity(m).level == "seat"]
    if seat_cols and not s["cooperative"]:
        print("  seat  policy      " + "".join(f"{m:>14}" for m in seat_cols))
        for row in s["seats"]:
            print(f"{row['seat']:>6}  {row['policy']:<10}  "
                  + "".join(f"{pct(row[m]):>14}" if g.quantity(m).rate else f"{row[m]:>14.4f}"
                            for m in seat_cols))
    if len(s["by_policy"]) > 1:
        print("  policy        seats  win share   95% CI              per seat")
        for b in s["by_policy"]:
            lo, hi = b["ci95"]
            print(f"  {b['policy']:<12}  {len(b['seats']):>5}  {pct(b['share']):>8}   "
                  f"{pct_ci(lo, hi):<16}  {pct(b['share_per_seat'])}")
    for m, v in s["metrics"].items():
        if "bins" in v:
            print(f"{m.replace('_', ' ')} ({v['description']}):")
            for b, e in v["bins"].items():
                lo, hi = e["ci95"]
                print(f"  {b.replace('_', ' '):<22} {_value(g, m, e['mean'], lo, hi)}")
            continue
        lo, hi = v["ci95"]
        print(f"{m.replace('_', ' ')} {_value(g, m, v['mean'], lo, hi)}   "
              f"({v['description']})")
    workers = s["workers"]
    print(f"throughput: {s['rounds_per_s']:,.0f} rounds/s, {s['games_per_s']:,.0f} games/s "
          f"({workers} worker{'s' if workers > 1 else ''}, {s['wall_s']:.2f} s)")
