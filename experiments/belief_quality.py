"""How much ``belief``'s weighted deals know about the hidden cards (DĒMOS).

    .venv/bin/python experiments/belief_quality.py [--games 30] [--seed 2026]
        [--policy tuned] [--pool 5000] [--temps 2,4,8] [--eps 0.1]
        [--out results/belief]

Games are recorded with ``--policy`` at every seat (4 players, full rules; the record's
deck order gives every hidden card at every moment: GAME_RECORD.md). At every discard
decision of every seat (D3.2 public, D3.3 secret, D3.4.3 unanimous), the seat's
observation is rebuilt from the record (:func:`demos_sim.demos.positions.position`, so
it holds only what the seat saw, M2) and ``belief``'s pool of ``--pool`` worlds is
drawn from it (:func:`demos_sim.demos.policies.belief.pool_logweights`). Two figures:

- **log-likelihood gain**: log p_belief(true hidden cards) − log p_uniform(true hidden
  cards) = log w(truth) − log mean w(pool worlds), since the belief is the uniform deal
  reweighted by ``w`` (the probability of the others' actions); w(truth) averages the
  order of the draws (64 draws). Positive: the belief puts more probability on the
  truth than ``ismcts``'s uniform deals. In nats per decision.
- **card gain**: for every card an opponent truly holds, log of the belief's
  probability that it holds that card over the uniform probability (pool frequencies,
  weighted and not, +0.5 smoothing), averaged over cards: the same question card by card.

Both by decision kind and by round (manche), with their standard errors over decisions
(σ of the mean), for each temperature of the opponent model (``--temps``: the model's
fit to the play it reads; ``belief_default`` marks ``belief``'s own, chosen by the
matches of ``experiments/belief_strength.py``). The effective sample size of the weighted
pool (share of ``--pool``) is reported too. About 10 minutes on this machine (2 cores,
shared) at the defaults. Writes ``inference_quality.csv`` and prints the table.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from demos_sim.demos import layout as L
from demos_sim.demos.policies.belief import (
    PH, PSEC, PUNAN, TRUTH_W, pool_logweights, truth_logweight,
)
from demos_sim.demos.history import decision_points
from demos_sim.demos.policies.ismcts import BELIEF_PARAMS, P_TEMP
from demos_sim.demos.positions import card_id
from demos_sim.demos.record import iter_records
from demos_sim.demos.rules import DemosConfig


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << card_id(c)
    return m


def measure(config, records, pool, temps, eps, seed):
    rows = []
    rng = np.array([seed], np.uint64)
    for rec in records:
        for pt in decision_points(rec):
            pos = pt.position(config)
            seat, kind, r, hands = pt.seat, pt.kind, pt.round, pt.hands
            sec_true, unan_true = pt.secret_cards, pt.unanimous_cards
            obs = pos.obs
            cfg = pos.cfg
            n = config.players
            truth = np.full(TRUTH_W, -1, np.int64)
            for p in range(n):
                truth[PH + p] = _mask(hands[p])
                if p in sec_true:
                    truth[PSEC + p] = card_id(sec_true[p])
                if p in unan_true:
                    truth[PUNAN + p] = card_id(unan_true[p])
            seen = int(obs[L.O_HAND] | obs[L.O_FACEUP] | obs[L.O_OWN_OUT])
            state = int(rng[0])
            for temp in temps:
                rng[0] = state                               # the same worlds for every temp
                worlds, lw = pool_logweights(cfg, obs, pool, temp, eps, 17.0, rng)
                top = lw.max()
                w = np.exp(lw - top)
                lt = [truth_logweight(cfg, obs, truth, temp, eps, 17.0, rng) for _ in range(64)]
                lt_mean = math.log(np.mean(np.exp(np.array(lt) - top)))
                gain = lt_mean - math.log(w.mean())
                cards = []
                for p in range(n):
                    if p == seat:
                        continue
                    held = (worlds[:, PH + p][:, None] >> np.arange(40)) & 1
                    for c in range(40):
                        if (truth[PH + p] >> c) & 1 and not (seen >> c) & 1:
                            pb = (w @ held[:, c] + 0.5 / pool) / (w.sum() + 1.0 / pool)
                            pu = (held[:, c].sum() + 0.5) / (pool + 1.0)
                            cards.append(math.log(pb / pu))
                rows.append(dict(temp=temp, kind=kind, round=r, gain=gain,
                                 card_gain=float(np.mean(cards)) if cards else np.nan,
                                 ess=float(w.sum() ** 2 / (w @ w)) / pool))
    return pd.DataFrame(rows)


def summarise(df):
    def agg(g):
        k = len(g)
        return pd.Series(dict(
            decisions=k, gain_nats=g.gain.mean(), gain_se=g.gain.std(ddof=1) / math.sqrt(k),
            card_gain_nats=g.card_gain.mean(),
            card_gain_se=g.card_gain.std(ddof=1) / math.sqrt(g.card_gain.count()),
            ess_share=g.ess.mean()))
    by_kind = df.groupby(["temp", "kind"]).apply(agg).reset_index()
    by_round = df.groupby(["temp", "round"]).apply(agg).reset_index()
    every = df.groupby(["temp"]).apply(agg).reset_index()
    every["kind"] = "all"
    by_round["kind"] = "all"
    return pd.concat([every, by_kind, by_round], ignore_index=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--policy", default="tuned")
    ap.add_argument("--pool", type=int, default=5000)
    ap.add_argument("--temps", default="2,4,8")
    ap.add_argument("--eps", type=float, default=0.1)
    ap.add_argument("--out", default="results/belief")
    a = ap.parse_args(argv)
    config = DemosConfig("full", "individual", 4)
    temps = [float(t) for t in a.temps.split(",")]
    records = list(iter_records(config, [a.policy], a.games, a.seed))
    df = measure(config, records, a.pool, temps, a.eps, a.seed)
    table = summarise(df)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    table.insert(0, "policy", a.policy)
    table.insert(1, "eps", a.eps)
    table["belief_default"] = table["temp"] == BELIEF_PARAMS[P_TEMP]
    table.to_csv(out / f"inference_quality_{a.policy}.csv", index=False)
    with pd.option_context("display.width", 160, "display.max_rows", 200):
        print(table[table["round"].isna()].to_string(index=False, float_format="%.3f"))
    best = table[(table.kind == "all") & table["round"].isna()].sort_values("gain_nats").iloc[-1]
    print(f"best temperature {best.temp}: gain {best.gain_nats:+.3f} nats per decision "
          f"(± {1.96 * best.gain_se:.3f}), {best.decisions:.0f} decisions, {a.games} games of "
          f"{a.policy}, seed {a.seed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
