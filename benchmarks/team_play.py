"""DĒMOS team play of the built-in bots: Media cancellations, vetoes and win shares.

Not a speed benchmark: it plays the team modes (RULES.md D9.1) with one policy on every
seat and prints, per mode and policy, the share of games where a player's two Media
cancel out (D6.1, the game quantity ``media_cancel``), the Media actions per game aimed
at a teammate / an opponent (D6.2), vetoes used per game by side and vetoes left unused
(D3.4.1, D9.3), and the M1 win shares by side with 95% intervals::

    PYTHONPATH=. .venv/bin/python benchmarks/team_play.py [--games 20000] [--seed 5]
        [--policies greedy,heuristic] [--modes individual,2v2,2v3,2v2+1]

``greedy:legacy`` / ``heuristic:legacy`` play the bots' pre-team-play decisions
(allocation, Media, veto) for a before/after comparison on the same deals.
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")


def measure(mode: str, policy: str, games: int, seed: int) -> dict:
    from demos_sim.game import SHARE_SCALE, get_game

    g = get_game("demos")
    config = g.make_config({"mode": mode}, None, {})
    out = g.play(config, [policy] * config.players, seed, 0, games)
    labels = config.side_labels()
    share = out["win_share"] / SHARE_SCALE
    mean = share.mean(0)
    half = 1.96 * share.std(0, ddof=1) / np.sqrt(games)
    vet = out["veto_by_side"].mean(0)
    from demos_sim.demos import layout as L
    cfg = config.to_array()
    have = np.array([cfg[L.C_SIDE_VETOES + s] for s in range(len(labels))])
    acts = out["media_actions"].mean(0)
    return {
        "mode": mode, "policy": policy, "games": games,
        "media_cancel": float(out["media_cancel"].mean()),
        "media_cancel_ci": float(1.96 * out["media_cancel"].std(ddof=1) / np.sqrt(games)),
        "acts_mate": float(acts[0]), "acts_opp": float(acts[1]),
        "win": {lab: (float(m), float(h)) for lab, m, h in zip(labels, mean, half)},
        "no_winner": float(out["no_winner"].mean()),
        "vetoes_by_side": {lab: float(v) for lab, v in zip(labels, vet)},
        "vetoes_unused": {lab: float(h - v) for lab, h, v in zip(labels, have, vet)},
    }


def show(r: dict) -> None:
    win = "  ".join(f"{k} {m:.4f}±{h:.4f}" for k, (m, h) in r["win"].items())
    vet = " ".join(f"{k}:{v:.3f}" for k, v in r["vetoes_by_side"].items())
    unused = " ".join(f"{k}:{v:.3f}" for k, v in r["vetoes_unused"].items())
    print(f"{r['mode']:>10} {r['policy']:<18} n={r['games']}  media_cancel "
          f"{r['media_cancel']:.4f}±{r['media_cancel_ci']:.4f}  Media acts mate/opp "
          f"{r['acts_mate']:.3f}/{r['acts_opp']:.3f}")
    print(f"{'':>10} win {win}  no-winner {r['no_winner']:.4f}")
    print(f"{'':>10} vetoes used by side {vet}   left unused {unused}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--policies", default="greedy,heuristic")
    ap.add_argument("--modes", default="2v2,2v3,2v2+1")
    a = ap.parse_args()
    for mode in a.modes.split(","):
        for pol in a.policies.split(","):
            show(measure(mode, pol, a.games, a.seed))


if __name__ == "__main__":
    main()
