"""The value of a mechanic to a best-responding holder, one seat among a field.

A best-response policy (``veto_br``, ``media_br``: :mod:`demos_sim.demos.policies.
best_response`) sits in one seat among the field's players, one experiment per seat
(the runner pairs a block's points with one reference); the other point of the file has
that seat play the policy's restricted form (``:noveto``, ``:nomedia``) on the same
deals. Per seat the table gives the paired win-share difference, restricted minus
reference (negative = the mechanic is worth that much to its holder), the seat's uses
per game in the reference (vetoes, Media actions) and the value per use (ratio of two
estimates of the same games: conservative delta-method interval
:func:`~demos_sim.analysis.core.stats.ratio_same_games`); then the average over the
seats, whose interval is the mean of the seats' half-widths (their estimates come from
different grid points of the same deals and the runner keeps no cross-products: the
triangle inequality makes that conservative for any correlation).
"""

from __future__ import annotations

import pandas as pd

from demos_sim.analysis.core.stats import p_value, ratio_same_games


def best_response_table(runs, stems: list[str], holder: str, flag: str, use: str,
                        use_metric: str, per: str) -> pd.DataFrame:
    """One row per seat and field rung, then the average. ``flag``: the restricted form's
    suffix (``noveto``); ``use``: the column stem of the uses per game (``vetoes``), read
    from the per-seat or per-side metric ``use_metric`` at the seat; ``per``: the column
    of the value per use (``per_veto``)."""
    have = {e for e, _ in runs.items}
    rows = []
    for stem in [s for s in stems if s in have]:
        ws = runs.results(stem, "win_share")
        us = runs.results(stem, use_metric)
        for (bot, point), d in ws.groupby(["bot", "point"], sort=False):
            if pd.isna(d["ref_point"].iloc[0]):
                continue
            seats = [i for i, p in enumerate(d["policies"].iloc[0].split(","))
                     if p.endswith(f":{flag}")]
            if len(seats) != 1:
                raise ValueError(f"{stem} point {point}: one seat must play :{flag}")
            key = str(seats[0])
            r = d[d["seats"] == key].iloc[0]
            ref_pt = int(r["ref_point"])
            ref = ws[(ws["bot"] == bot) & (ws["point"] == ref_pt) & (ws["seats"] == key)].iloc[0]
            u = us[(us["bot"] == bot) & (us["point"] == ref_pt) & (us["seats"] == key)].iloc[0]
            u_res = us[(us["bot"] == bot) & (us["point"] == point) & (us["seats"] == key)].iloc[0]
            rows.append(_row(holder, flag, use, per, bot, key, int(r["games"]), ref["mean"],
                             r["mean"], r["diff"], r["diff_half_width"], u["mean"],
                             (u["ci_high"] - u["ci_low"]) / 2, u_res["mean"]))
    out = pd.DataFrame(rows)
    if not len(out):
        return out
    avg = []
    for bot, d in out.groupby("field", sort=False):
        avg.append(_row(holder, flag, use, per, bot, "average", int(d["games"].iloc[0]),
                        float(d["share_ref"].mean()), float(d[f"share_{flag}"].mean()),
                        float(d["diff"].mean()), float(d["diff_half_width"].mean()),
                        float(d[f"{use}_ref"].mean()), float(d[f"{use}_half_width"].mean()),
                        float(d[f"{use}_{flag}"].mean())))
    return pd.concat([out, pd.DataFrame(avg)], ignore_index=True)


def _row(holder, flag, use, per, bot, seat, games, share_ref, share_res, diff, hw, uses, u_hw,
         u_res) -> dict:
    v, v_hw = ratio_same_games(diff, hw, uses, u_hw)
    return {"field": bot, "holder": holder, "seat": seat, "games": games,
            "share_ref": share_ref, f"share_{flag}": share_res, "diff": diff,
            "diff_ci_low": diff - hw, "diff_ci_high": diff + hw, "diff_half_width": hw,
            "p_value": p_value(diff, hw), f"{use}_ref": uses, f"{use}_half_width": u_hw,
            f"{use}_{flag}": u_res, per: v, f"{per}_ci_low": v - v_hw,
            f"{per}_ci_high": v + v_hw,
            "interval": "paired" if seat != "average" else "conservative (mean of half-widths)"}
