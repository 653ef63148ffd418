"""The value of a mechanic to one seat: among players who use it, and among players who
abstain from it (the social dilemma).

**Among users** (:func:`best_response_table`). A policy searched for one seat among the
field (``veto_br``, ``media_br``: :mod:`demos_sim.demos.policies.best_response`; the
searches found nothing better than ``tuned``, so what this measures is the value of the
mechanic *to the tuned player*, not to a proven best response) sits in one seat among the
field's players, one experiment per seat (the runner pairs a block's points with one
reference); the other point of the file has that seat play the policy's restricted form
(``:noveto``, ``:nomedia``) on the same deals. Per seat the table gives the paired
win-share difference, restricted minus reference (``diff``), and the mechanic's
``worth`` = −diff (positive: the mechanic is worth that much to its holder), the seat's
uses per game in the reference (vetoes, Media actions) and the worth per use (ratio of two
estimates of the same games: conservative delta-method interval
:func:`~demos_sim.analysis.core.stats.ratio_same_games`); then the average over the
seats, whose interval is the mean of the seats' half-widths (their estimates come from
different grid points of the same deals and the runner keeps no cross-products: the
triangle inequality makes that conservative for any correlation).

**Among abstainers** (:func:`dilemma_table`). One file whose reference has every seat
abstain (``bot:flag``), whose next points let one seat use the mechanic (``bot``, every
seat in turn) and whose last point lets every seat use it, all on the same deals: per
seat the worth of the mechanic to a lone user (its paired win-share and points
difference against nobody using it), what the three abstainers lose meanwhile, and what
the seat gains or loses when everyone uses it rather than nobody.
All shares and differences are fractions of all games (0.01 = 1 percentage point).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from demos_sim.analysis.core.formatting import estimate
from demos_sim.analysis.core.plotting import figure
from demos_sim.analysis.core.stats import p_value, ratio_same_games


def _ran(runs, stem: str) -> bool:
    """Whether ``runs`` holds experiment ``stem`` (at any rung)."""
    return any(e == stem for e, _ in runs.items)


def best_response_table(runs, stems: list[str], holder: str, flag: str, use: str,
                        use_metric: str, per: str) -> pd.DataFrame:
    """One row per seat and field rung, then the average. ``flag``: the restricted form's
    suffix (``noveto``); ``use``: the column stem of the uses per game (``vetoes``), read
    from the per-seat or per-side metric ``use_metric`` at the seat; ``per``: the column
    of the value per use (``per_veto``)."""
    rows = []
    for stem in [s for s in stems if _ran(runs, s)]:
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
            "share_ref": share_ref, f"share_{flag}": share_res,
            "worth": 0.0 - diff + 0.0, "worth_ci_low": 0.0 - diff - hw + 0.0,   # + 0.0: no −0.0
            "worth_ci_high": 0.0 - diff + hw + 0.0, "diff": diff,
            "diff_ci_low": diff - hw, "diff_ci_high": diff + hw, "diff_half_width": hw,
            "p_value": p_value(diff, hw), f"{use}_ref": uses, f"{use}_half_width": u_hw,
            f"{use}_{flag}": u_res, f"worth_{per}": 0.0 - v + 0.0,
            f"worth_{per}_ci_low": 0.0 - v - v_hw + 0.0,
            f"worth_{per}_ci_high": 0.0 - v + v_hw + 0.0, per: v, f"{per}_ci_low": v - v_hw,
            f"{per}_ci_high": v + v_hw,
            "interval": "paired" if seat != "average" else "conservative (mean of half-widths)"}


# ------------------------------------------------------------------ among abstainers
def _seat_of(policies: str, flag: str) -> int | None:
    """The one seat that does not play ``:flag`` (None unless exactly one)."""
    free = [i for i, p in enumerate(policies.split(",")) if not p.endswith(f":{flag}")]
    return free[0] if len(free) == 1 else None


def _diff(d: pd.DataFrame, side: str) -> tuple[float, float]:
    """(paired difference, its 95% half-width) of the row of ``side`` (nan when absent)."""
    r = d[d["side"].astype(str) == side]
    if not len(r):
        return float("nan"), float("nan")
    r = r.iloc[0]
    return float(r["diff"]), float(r["diff_half_width"])


def dilemma_table(runs, stem: str, flag: str, use_metric: str) -> pd.DataFrame:
    """One row per rung and seat of ``stem`` (reference: every seat ``bot:flag``; one point
    a seat with that seat ``bot`` alone; one point with every seat ``bot``), then the
    average over the seats. Columns (paired differences against nobody using the
    mechanic, fractions of all games; points per game for ``*_points``):

    - ``lone_worth``: the lone user's win share minus its share when nobody uses it;
      ``lone_points``: the same in points (D4.7); ``lone_uses``: its uses per game;
    - ``others_change``: the mean change of the three abstainers' win shares at that point;
    - ``lone_no_winner``: the change of the no-winner share;
    - ``everyone_change``, ``everyone_points``: the seat's change when every seat uses the
      mechanic (``everyone_no_winner``: the no-winner share's).

    The average row averages the seats' estimates, its half-width the mean of theirs
    (conservative, as :func:`best_response_table`'s); ``others_change`` is likewise a
    mean of three seats' estimates with the mean of their half-widths."""
    if not _ran(runs, stem):
        return pd.DataFrame()
    res = runs.results(stem)
    rows = []
    for bot in runs.bots(stem):
        d = res[res["bot"] == bot] if "bot" in res else res
        pts = d[d["ref_point"].notna()]
        n = int(d["players"].iloc[0])
        everyone = pts[~pts["policies"].str.contains(f":{flag}", regex=False)]
        ev = everyone[everyone["metric"] == "win_share"]
        evp = everyone[everyone["metric"] == "points"]
        evn = everyone[everyone["metric"] == "no_winner"]
        for point, g in pts.groupby("point", sort=True):
            s = _seat_of(g["policies"].iloc[0], flag)
            if s is None:
                continue
            key = str(s)
            w = g[g["metric"] == "win_share"]
            lone, lone_hw = _diff(w, key)
            others = [_diff(w, str(o)) for o in range(n) if o != s]
            pt, pt_hw = _diff(g[g["metric"] == "points"], key)
            nw, nw_hw = _diff(g[g["metric"] == "no_winner"], "all")
            u = g[(g["metric"] == use_metric) & (g["side"].astype(str) == key)]
            e, e_hw = _diff(ev, key)
            ep, ep_hw = _diff(evp, key)
            en, en_hw = _diff(evn, "all")
            rows.append({"bot": bot, "players": n, "seat": key, "games": int(w["games"].iloc[0]),
                         "lone_worth": lone, "lone_half_width": lone_hw,
                         "lone_points": pt, "lone_points_half_width": pt_hw,
                         "lone_uses": float(u["mean"].iloc[0]) if len(u) else float("nan"),
                         "others_change": sum(o[0] for o in others) / len(others),
                         "others_half_width": sum(o[1] for o in others) / len(others),
                         "lone_no_winner": nw, "lone_no_winner_half_width": nw_hw,
                         "everyone_change": e, "everyone_half_width": e_hw,
                         "everyone_points": ep, "everyone_points_half_width": ep_hw,
                         "everyone_no_winner": en, "everyone_no_winner_half_width": en_hw})
    if not rows:
        return pd.DataFrame()
    out = pd.DataFrame(rows)
    avg = []
    for bot, g in out.groupby("bot", sort=False):
        a = {"bot": bot, "players": int(g["players"].iloc[0]), "seat": "average",
             "games": int(g["games"].iloc[0])}
        for c in out.columns[4:]:
            a[c] = float(g[c].mean())           # a mean of half-widths: conservative
        avg.append(a)
    out = pd.concat([out, pd.DataFrame(avg)], ignore_index=True)
    return _with_intervals(out)


# the estimates of dilemma_table, each with its half-width column
DILEMMA = {"lone_worth": "lone_half_width", "lone_points": "lone_points_half_width",
           "others_change": "others_half_width",
           "lone_no_winner": "lone_no_winner_half_width",
           "everyone_change": "everyone_half_width",
           "everyone_points": "everyone_points_half_width",
           "everyone_no_winner": "everyone_no_winner_half_width"}


def _with_intervals(t: pd.DataFrame) -> pd.DataFrame:
    """Each estimate followed by its 95% interval (``_ci_low``, ``_ci_high``) and the
    half-width columns dropped; ``interval`` names the average row's."""
    cols = ["bot", "players", "seat", "games"]
    for m, hw in DILEMMA.items():
        t[f"{m}_ci_low"] = t[m] - t[hw]
        t[f"{m}_ci_high"] = t[m] + t[hw]
        cols += [m, f"{m}_ci_low", f"{m}_ci_high"]
        if m == "lone_points":
            cols.append("lone_uses")
    t["lone_p"] = [p_value(m, h) for m, h in zip(t["lone_worth"], t["lone_half_width"])]
    t["interval"] = ["conservative (mean of half-widths)" if s == "average" else "paired"
                     for s in t["seat"]]
    return t[cols + ["lone_p", "interval"]]


def users_table(runs, stem: str, flag: str) -> pd.DataFrame:
    """The value of the mechanic to one seat among users: ``stem``'s reference has every
    seat ``bot``, each other point one seat ``bot:flag`` (every seat in turn), same deals.
    One row per rung and seat, then the average (mean of the half-widths): ``users_worth``
    = reference minus restricted at that seat (positive: worth that much), ``users_points``
    the same in points per game when the run records them."""
    if not _ran(runs, stem):
        return pd.DataFrame()
    res = runs.results(stem)
    rows = []
    for bot in runs.bots(stem):
        d = res[(res["bot"] == bot) & res["ref_point"].notna()]
        for point, g in d.groupby("point", sort=True):
            seats = [i for i, p in enumerate(g["policies"].iloc[0].split(","))
                     if p.endswith(f":{flag}")]
            if len(seats) != 1:
                continue
            key = str(seats[0])
            w, w_hw = _diff(g[g["metric"] == "win_share"], key)
            p, p_hw = _diff(g[g["metric"] == "points"], key)
            rows.append({"bot": bot, "seat": key, "users_games": int(g["games"].iloc[0]),
                         "users_worth": 0.0 - w + 0.0, "users_half_width": w_hw,
                         "users_points": 0.0 - p + 0.0, "users_points_half_width": p_hw})
    if not rows:
        return pd.DataFrame()
    out = pd.DataFrame(rows)
    avg = [{"bot": bot, "seat": "average", "users_games": int(g["users_games"].iloc[0]),
            **{c: float(g[c].mean()) for c in out.columns[3:]}}
           for bot, g in out.groupby("bot", sort=False)]
    out = pd.concat([out, pd.DataFrame(avg)], ignore_index=True)
    for m, hw in (("users_worth", "users_half_width"), ("users_points", "users_points_half_width")):
        out[f"{m}_ci_low"] = out[m] - out[hw]
        out[f"{m}_ci_high"] = out[m] + out[hw]
    return out[["bot", "seat", "users_games", "users_worth", "users_worth_ci_low",
                "users_worth_ci_high", "users_points", "users_points_ci_low",
                "users_points_ci_high"]]


def with_users(dilemma: pd.DataFrame, users: pd.DataFrame) -> pd.DataFrame:
    """``dilemma`` with the value among users of the same rung and seat joined in after
    the lone user's columns (nan where that rung has no such measurement)."""
    if not len(dilemma):
        return dilemma
    cols = ["users_games", "users_worth", "users_worth_ci_low", "users_worth_ci_high",
            "users_points", "users_points_ci_low", "users_points_ci_high"]
    if not len(users):
        users = pd.DataFrame(columns=["bot", "seat"] + cols)
    out = dilemma.merge(users[["bot", "seat"] + cols], on=["bot", "seat"], how="left")
    at = list(dilemma.columns).index("others_change_ci_high") + 1
    order = list(dilemma.columns[:at]) + cols + list(dilemma.columns[at:])
    return out[order]


# ------------------------------------------------------------------ findings, plot
def _ci(m, lo, hi) -> str:
    """A difference of shares and its interval in percentage points: ``+1.23 [+0.45, +2.01]``."""
    return estimate(m, lo, hi, "{:+.2f}", scale=100)


def _pts(m, lo, hi) -> str:
    """A difference of points per game and its interval: ``-0.35 [-0.65, -0.05]``."""
    return estimate(m, lo, hi, "{:+.2f}", scale=1)


def dilemma_findings(dl: pd.DataFrame, what: str, uses: str, stem: str) -> list[str]:
    """One sentence per rung: the mechanic's worth to a lone user among abstainers, among
    users, and a seat's change when everyone uses it rather than nobody (average seat),
    with the reading as a social dilemma. Shared with the Media section."""
    out = []
    if not len(dl):
        return out
    for r in dl[dl["seat"] == "average"].itertuples():
        lone = _ci(r.lone_worth, r.lone_worth_ci_low, r.lone_worth_ci_high)
        every = _ci(r.everyone_change, r.everyone_change_ci_low, r.everyone_change_ci_high)
        msg = (f"{r.bot}, 4 players ({stem}): the {what} is worth {lone} pp of win share to "
               f"a lone user whose three opponents abstain (average seat; it uses "
               f"{r.lone_uses:.2f} {uses} a game; the three abstainers change by "
               f"{_ci(r.others_change, r.others_change_ci_low, r.others_change_ci_high)} pp "
               "each)")
        pts = getattr(r, "lone_points", float("nan"))
        if not np.isnan(pts):
            msg += (f", {_pts(pts, r.lone_points_ci_low, r.lone_points_ci_high)} points a game "
                    "to the lone user")
        users = getattr(r, "users_worth", float("nan"))
        if not np.isnan(users):
            msg += (f"; {_ci(users, r.users_worth_ci_low, r.users_worth_ci_high)} pp to one "
                    "user among users")
        msg += (f". When everyone uses it rather than nobody, a seat changes by {every} pp "
                f"(no-winner share {_ci(r.everyone_no_winner, r.everyone_no_winner_ci_low, r.everyone_no_winner_ci_high)} pp")
        ep = getattr(r, "everyone_points", float("nan"))
        if not np.isnan(ep):
            msg += (f", points {_pts(ep, r.everyone_points_ci_low, r.everyone_points_ci_high)}"
                    " a game")
        msg += "). "
        dominant = r.lone_worth_ci_low > 0 and (np.isnan(users) or r.users_worth_ci_low > 0)
        if dominant and r.everyone_change_ci_high < 0:
            msg += ("A social dilemma: each player gains by using it whatever the others do, "
                    "yet everyone using it leaves every seat worse off than nobody.")
        elif dominant:
            msg += ("Using it pays whatever the others do; whether everyone using it leaves a "
                    "seat worse off than nobody is not shown either way at these games."
                    if r.everyone_change_ci_low <= 0 else
                    "Using it pays whatever the others do, and everyone using it does not "
                    "leave a seat worse off: no social dilemma.")
        else:
            msg += "That using it pays whatever the others do is not shown at these games."
        out.append(msg)
    return out


def dilemma_plot(avg: pd.DataFrame, path: Path, what: str) -> None:
    """Per rung (average seat): the worth of ``what`` to a lone user among abstainers, to
    one user among users, and a seat's change when everyone uses it rather than nobody;
    95% intervals (the average's conservative ones). Shared with the Media section."""
    fig, axes = figure(1, 1, w=5.6, h=3.4)
    ax = axes[0][0]
    bots = list(avg["bot"])
    x = np.arange(len(bots))
    for k, (col, lab) in enumerate((("lone_worth", "lone user among abstainers"),
                                    ("users_worth", "one user among users"),
                                    ("everyone_change", "everyone vs nobody (a seat)"))):
        y = avg[col].to_numpy(float) * 100
        lo = avg[f"{col}_ci_low"].to_numpy(float) * 100
        hi = avg[f"{col}_ci_high"].to_numpy(float) * 100
        ax.errorbar(x + (k - 1) * 0.22, y, yerr=[y - lo, hi - y], fmt="o", capsize=3,
                    label=lab)
    ax.axhline(0, color="0.4", ls="--", lw=0.8)
    ax.set_xticks(x, bots)
    ax.set_ylabel(f"{what} worth, win share (pp of games)")
    ax.set_title(f"the {what} as a social dilemma, 4 players (average seat)")
    ax.legend(fontsize="x-small")
    ax.grid(axis="y", alpha=0.3)
    fig.savefig(path)
