"""``demos-sim run``: parse, call, print (registered in cli.py)."""

from __future__ import annotations

import argparse
import math

from demos_sim.runner.backends import add_backend_options
from demos_sim.runner.units import pct, pct_ci, pp, pp_ci


def add_run_parser(sub) -> None:
    rp = sub.add_parser("run", help="run an experiment file (TOML) into results/<name>/",
                        description="Run an experiment file: every grid point on the same "
                                    "deals, chunk by chunk; resumes from finished chunks.")
    rp.add_argument("experiment", metavar="EXPERIMENT.toml",
                    help="the experiment file (examples in experiments/; format: README, "
                         "'The file format')")
    rp.add_argument("--games", type=int, default=None,
                    help="games per grid point (under a stopping rule: its maximum)")
    add_backend_options(rp)
    rp.add_argument("--out", metavar="DIR", default=None,
                    help="results folder (default results/<experiment name>)")
    rp.add_argument("--quiet", action="store_true", help="no progress bar or lines, no summary")
    rp.set_defaults(func=cmd_run)


def _who(ws) -> list[str]:
    """Each win-share row's seat or side, as RULES.md says: "side A" when the game has
    teams (a side of several seats; the Independent too), else "seat 0" (in individual
    play every player is a side of one, named by their seat)."""
    teams = any("," in str(s) for s in ws["seats"])
    return [f"side {side}" if teams else f"seat {side}" for side in ws["side"]]


def print_summary(res) -> None:
    """Each grid point's win shares in % (and their paired differences in pp) with 95%
    intervals; results.parquet keeps fractions."""
    df, meta = res.results, res.meta
    print(f"experiment {meta['experiment']['name']}: {meta['title']}, "
          f"{len(meta['points'])} grid point(s), {meta['games_per_point']} games each, "
          f"seed {meta['seed']} (stopped by {meta['stopped_by']})")
    for p in meta["points"]:
        rows = df[df["point"] == p["point"]]
        ws = rows[rows["metric"] == "win_share"]
        ref = "" if p["ref_point"] is None else f"   (paired differences vs point {p['ref_point']})"
        print(f"[{p['point']}] {p['players']}p {p['label']}{ref}")
        for who, (_, r) in zip(_who(ws), ws.iterrows()):
            line = (f"   {who:<7}  win share {pct(r['mean']):>7} "
                    f"{pct_ci(r['ci_low'], r['ci_high'])}")
            if not math.isnan(r["diff"]):
                line += f"   diff {pp(r['diff'])} {pp_ci(r['diff_ci_low'], r['diff_ci_high'])}"
            print(line)
        extra = []
        for m, what in (("no_winner", "no winner"), ("truncated", "truncated"),
                        ("rounds", "rounds/game")):
            r = rows[rows["metric"] == m]
            if len(r):
                v = r["mean"].iloc[0]
                extra.append(f"{what} {v:.4f}" if m == "rounds" else f"{what} {pct(v)}")
        print("   " + "   ".join(extra))
    rate = meta["games_per_s"]
    speed = f", {rate:,.0f} games/s" if rate else ""
    print(f"played {meta['games_played_this_run']} games now, {meta['games_resumed']} "
          f"from finished chunks{speed} ({meta['backend']}, {meta['workers']} worker"
          f"{'s' if meta['workers'] > 1 else ''}, {meta['wall_s']:.1f} s)")
    print(f"wrote {res.out}/results.parquet, histograms.parquet, meta.json")


def cmd_run(args: argparse.Namespace) -> int:
    from demos_sim.runner.experiment import load_experiment
    from demos_sim.runner.run import run_experiment

    exp = load_experiment(args.experiment)
    if args.games is not None:
        exp = exp.with_games(args.games)
    res = run_experiment(exp, out=args.out, workers=args.workers, backend=args.backend,
                         scheduler=args.scheduler, quiet=args.quiet)
    if not args.quiet:
        print_summary(res)
    return 0
