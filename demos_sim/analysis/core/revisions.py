"""What changed between two runs: every figure of one results folder against another.

Two folders written by ``demos-sim run`` — before and after a rule change, a new bot, a
new version — are matched row by row (player count, grid point label, metric, side). For
each figure both runs measured, the change ``new − old`` gets a 95% interval from the two
runs' own intervals, ``± √(h_old² + h_new²)`` (``h`` the 95% half-width of each mean).
The runs are treated as independent; when they played the same deals (same seed and
setup) their errors are positively correlated and this interval is conservative. A
grid point's paired effect (its difference from the block's reference on the same deals)
is compared the same way, so "the veto is worth more with the new bot" shows up too.
The changes are tested together: Holm-adjusted over every row (family-wise error 5%);
``moved`` marks those whose adjusted p-value is below 0.05.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from demos_sim import ConfigError

from demos_sim.analysis.core.stats import adjust, p_value
from demos_sim.runner.results import load_results

KEY = ["players", "label", "metric", "side"]


def _rows(df: pd.DataFrame) -> pd.DataFrame:
    """One row per figure: the mean and, where a reference exists, the paired effect."""
    means = df[KEY + ["mean", "half_width", "games"]].assign(kind="value")
    eff = df[df["ref_point"].notna()][KEY + ["diff", "diff_half_width", "games"]]
    eff = eff.rename(columns={"diff": "mean", "diff_half_width": "half_width"})
    return pd.concat([means, eff.assign(kind="effect vs reference")], ignore_index=True)


def compare_runs(old_dir: str | Path, new_dir: str | Path) -> tuple[pd.DataFrame, dict, dict]:
    """``(table, old meta, new meta)``; the table has one row per figure both runs hold:
    KEY, ``kind`` (value / effect vs reference), ``old``, ``new``, ``change`` with its
    interval, ``p``, ``p_holm``, ``moved``; and rows only one run holds, with ``only``."""
    old_meta, old_df, _ = load_results(old_dir)
    new_meta, new_df, _ = load_results(new_dir)
    if old_meta.get("game") != new_meta.get("game"):
        raise ConfigError(f"cannot compare a {old_meta.get('game')} run ({old_dir}) with a "
                          f"{new_meta.get('game')} run ({new_dir}): no figure is the same")
    a, b = _rows(old_df), _rows(new_df)
    m = a.merge(b, on=KEY + ["kind"], how="outer", suffixes=("_old", "_new"), indicator=True)
    out = pd.DataFrame({
        **{k: m[k] for k in KEY + ["kind"]},
        "old": m["mean_old"], "old_hw": m["half_width_old"], "games_old": m["games_old"],
        "new": m["mean_new"], "new_hw": m["half_width_new"], "games_new": m["games_new"],
        "only": m["_merge"].map({"left_only": "old", "right_only": "new", "both": ""}),
    })
    both = out["only"] == ""
    change = out["new"] - out["old"]
    hw = np.sqrt(out["old_hw"].fillna(0.0) ** 2 + out["new_hw"].fillna(0.0) ** 2)
    out["change"] = change.where(both)
    out["change_ci_low"] = (change - hw).where(both)
    out["change_ci_high"] = (change + hw).where(both)
    out["p"] = [p_value(float(c), float(h)) if ok and not math.isnan(c) else math.nan
                for c, h, ok in zip(change, hw, both)]
    out["p_holm"] = adjust(out["p"].to_numpy(), "holm")
    out["moved"] = np.nan_to_num(out["p_holm"].to_numpy(), nan=1.0) < 0.05
    out = out.sort_values(["moved", "players", "label", "metric", "side"],
                          ascending=[False, True, True, True, True], kind="stable")
    return out.reset_index(drop=True), old_meta, new_meta
