"""How strong is ``belief``? Seat-rotated matches on common deals (DĒMOS, 4 players, full rules).

    .venv/bin/python experiments/belief_strength.py [--deals 1500] [--out results/belief]
        [--plugin experiments/plugins/belief_variants.py] [--only NAME,…] [--workers 1]

Each match is ``demos_sim.tournament.match`` (the tournament's play path: ABAB and BABA
on the same deals of a seed; win share of the games the two policies won, delta-method
95% interval; the paired difference in wins per game). Matches against ``heuristic``
share seed 11, so their deals are common and the **gap closure** toward
``omniscient_hands`` (what reading every other hand is worth)::

    (W_belief − W_ismcts) / (W_omniscient_hands − W_ismcts)

is computed on the same deals with a bootstrap over deals (2,000 resamples, percentile
95% interval). Each match's per-deal results are kept in ``OUT/matches/*.npz`` and a
finished match is not played again (delete its file to replay it); with ``--only`` the
other matches' rows of ``OUT/strength.csv`` are kept. Writes
``OUT/strength.csv`` (one row per match, with seed, deals, contract, package version and
git revision of the run that played the match) and ``OUT/gap_closure.csv``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from demos_sim import __version__
from demos_sim.provenance import git_revision
from demos_sim.tournament import Match, make_config, match

CONTRACT = 2
# (name, A, B, seed, deals factor): the deals of a match are --deals × factor
MATCHES = [
    ("ismcts64_vs_heuristic", "ismcts@64", "heuristic", 11, 1.0),
    ("omniscient_hands64_vs_heuristic", "omniscient_hands@64", "heuristic", 11, 1.0),
    ("belief64_vs_heuristic", "belief@64", "heuristic", 11, 1.0),
    ("belief64_vs_ismcts64", "belief@64", "ismcts@64", 8, 1.5),
    ("belief_game64_vs_belief64", "belief_game@64", "belief@64", 12, 1.0),
    ("belief256_vs_ismcts256", "belief@256", "ismcts@256", 9, 0.5),
    # the apprentice's target (a 95% low above 0.55 against heuristic), on deals of its own
    ("apprentice_vs_heuristic", "apprentice", "heuristic", 13, 40.0),
]


def _play(name, a, b, seed, deals, out: Path, plugins, workers: int,
          before: dict) -> tuple[Match, str]:
    """The match and the git revision that played it (a kept match: its file's, else the
    previous strength.csv's row ``before[name]``)."""
    path = out / "matches" / f"{name}.npz"
    if path.exists():
        z = np.load(path, allow_pickle=False)
        if int(z["deals"]) == deals and str(z["a_spec"]) == a and str(z["b_spec"]) == b:
            git = str(z["git"]) if "git" in z else before.get(name, "unknown")
            return Match("demos", (a, b), deals, seed, [str(r) for r in z["rotations"]],
                         z["a"], z["b"], float(z["wall_s"])), git
    t = time.perf_counter()
    m = match("demos", make_config("demos", 4, rules="full"), a, b, deals, seed, plugins,
              workers=workers)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".part.npz")
    git = git_revision()
    np.savez_compressed(tmp, a=m.a, b=m.b, deals=deals, seed=seed, a_spec=a, b_spec=b,
             rotations=np.array(m.rotations), wall_s=time.perf_counter() - t, git=git)
    tmp.replace(path)
    return m, git


def _share(a, b):
    return a.sum() / (a + b).sum()


def gap_closure(ism: Match, bel: Match, omni: Match, reps: int = 2000, seed: int = 1):
    """The gap closure, its bootstrap interval and that of W_belief − W_ismcts (the same
    resamples of the deals for the three matches)."""
    def shares(idx):
        return (_share(ism.a[idx], ism.b[idx]), _share(bel.a[idx], bel.b[idx]),
                _share(omni.a[idx], omni.b[idx]))
    n = len(ism.a)
    rng = np.random.default_rng(seed)
    boots = np.array([shares(rng.integers(0, n, n)) for _ in range(reps)])
    g = (boots[:, 1] - boots[:, 0]) / (boots[:, 2] - boots[:, 0])
    wi, wb, wo = shares(np.arange(n))
    return ((wb - wi) / (wo - wi), np.percentile(g, [2.5, 97.5]),
            np.percentile(boots[:, 1] - boots[:, 0], [2.5, 97.5]))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=1500)
    ap.add_argument("--out", default="results/belief")
    ap.add_argument("--plugin", action="append",
                    default=["experiments/plugins/belief_variants.py"])
    ap.add_argument("--only", default="")
    ap.add_argument("--workers", type=int, default=1)
    a = ap.parse_args(argv)
    out = Path(a.out)
    kept = pd.DataFrame(columns=["match", "git"])
    if (out / "strength.csv").exists():
        kept = pd.read_csv(out / "strength.csv")
    before = dict(kept[["match", "git"]].itertuples(False))
    only = set(filter(None, a.only.split(",")))
    rows, played = [], {}
    for name, pa, pb, seed, f in MATCHES:
        if only and name not in only:
            continue
        deals = max(1, int(round(a.deals * f)))
        m, git = _play(name, pa, pb, seed, deals, out, tuple(a.plugin), a.workers, before)
        played[name] = m
        w, ci = m.win_share()
        p = m.paired()
        rows.append(dict(match=name, a=pa, b=pb, seed=seed, deals=deals,
                         games=deals * len(m.rotations), win_share=w, ci95_low=ci[0],
                         ci95_high=ci[1], wins_per_game_diff=p["mean_diff_per_game"],
                         diff_ci95_low=p["ci95"][0], diff_ci95_high=p["ci95"][1],
                         wall_s=round(m.wall_s, 1), contract=CONTRACT, version=__version__,
                         git=git))
        print(f"{name}: {pa} win share {w:.3f} [{ci[0]:.3f}, {ci[1]:.3f}] against {pb} "
              f"({deals} deals, seed {seed}); paired {p['mean_diff_per_game']:+.4f} wins/game "
              f"[{p['ci95'][0]:+.4f}, {p['ci95'][1]:+.4f}]", flush=True)
    out.mkdir(parents=True, exist_ok=True)
    # rows of the matches not played by this call (--only) are kept as they were
    order = [m[0] for m in MATCHES]
    table = pd.concat([kept[kept["match"].isin(set(order) - set(played))], pd.DataFrame(rows)])
    table = table.sort_values("match", key=lambda s: s.map(order.index), kind="stable")
    table.to_csv(out / "strength.csv", index=False)
    keys = ("ismcts64_vs_heuristic", "belief64_vs_heuristic", "omniscient_hands64_vs_heuristic")
    if all(k in played for k in keys):
        g, ci, dci = gap_closure(*(played[k] for k in keys))
        pd.DataFrame([dict(gap_closure=g, ci95_low=ci[0], ci95_high=ci[1],
                           belief_minus_ismcts_low=dci[0], belief_minus_ismcts_high=dci[1],
                           deals=played[keys[0]].games, seed=11, contract=CONTRACT,
                           version=__version__, git=git_revision())]).to_csv(
            out / "gap_closure.csv", index=False)
        print(f"gap closure toward omniscient_hands: {g:.1%} [{ci[0]:.1%}, {ci[1]:.1%}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
