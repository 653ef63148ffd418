"""The best-response veto value and the 2v3 deterrence at full size, without the rest of
the veto analysis (which `demos-sim analyse veto` / `make analyses` also runs): the new
experiment files of demos_sim/analysis/questions/veto.py (BEST_RESPONSE, DETERRENCE) at
their rungs, through the suite's own runner, then the section's tables and findings.

    PYTHONPATH=. python results/veto_br/measure.py [--workers N]

Writes results/veto_br/{veto_best_response,veto_deterrence}.csv and findings.txt; the raw
runs go to results/veto_br/runs/ (not committed; resumable)."""

from __future__ import annotations

import argparse
import types
from pathlib import Path

from demos_sim.analysis.core.protocol import Runs
from demos_sim.analysis.questions import veto
from demos_sim.analysis.suite import run_experiments

HERE = Path(__file__).resolve().parent

ap = argparse.ArgumentParser()
ap.add_argument("--workers", type=int, default=1)
args = ap.parse_args()
mod = types.SimpleNamespace(EXPERIMENTS=veto.BEST_RESPONSE + [veto.DETERRENCE],
                            EXPERIMENT_RUNGS=veto.EXPERIMENT_RUNGS, RUNGS=veto.RUNGS)
runs = Runs(workers=args.workers)
run_experiments(mod, HERE, args.workers, None, False, runs)
tabs = {"veto_best_response": veto.best_response_table(runs),
        "veto_deterrence": veto.deterrence_table(runs)}
for name, t in tabs.items():
    t.to_csv(HERE / f"{name}.csv", index=False)
# findings() reads the other tables too: hand it empty ones
import pandas as pd  # noqa: E402

empty = {k: pd.DataFrame(columns=["bot", "players", "setup", "mode", "side", "round"])
         for k in ("veto_value", "veto_average", "team_vetoes", "veto_usage", "veto_round")}
found, flags = veto.findings({**empty, **tabs})
(HERE / "findings.txt").write_text("\n".join(found + ["FLAGS:"] + flags) + "\n")
print("\n".join(found + ["FLAGS:"] + flags))
