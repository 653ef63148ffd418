"""``demos-sim report RESULTS_DIR``: report.html, report.md and plots/*.png.

Reads what ``demos-sim run`` wrote (``meta.json``, ``results.parquet``,
``histograms.parquet``), checks that the tables are the ones ``meta.json`` describes
(SHA-256), and writes

- ``plots/win_share.png``: win share by side with 95% CI bars, one marker per grid point,
  one panel per player count; ``plots/win_share_diff.png``: paired differences from the
  reference point with their 95% CIs (when the grid has more than one point);
- ``plots/points.png`` and ``plots/rounds.png``: distributions of final points (all
  seats) and of game length, one line per grid point;
- ``plots/sweep_<key>.png`` for every grid key that sweeps a whole number (the other keys
  at the reference point's values): what it changes against its value — win share by
  seat or side, no winner, the Carré's share of round wins, game length, points — as
  paired differences from the reference with 95% bands, the curve of ``demos-sim sweep``
  (:func:`demos_sim.analysis.core.sweep.plot_sweep`), with its verdict among the answers;
- ``report.md`` (links the PNGs) and ``report.html`` (the same content, PNGs embedded
  with a small palette, tables collapsed with a CSV download each), both stamped with
  rules contract, seed, games, version and git revision at the top. The page opens with
  the answers at a glance (per player count: the spread of the reference point's win
  shares, and each grid point's largest paired change with its interval), then the
  plots, the tables (shares in %, differences in percentage points) and the run.

Plots use matplotlib's object API (``Figure`` + Agg canvas), not pyplot: no global state,
no display needed.
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
from pathlib import Path

import numpy as np

from demos_sim.analysis.core.formatting import interval
from demos_sim.analysis.core.plotting import panels, png_bytes
from demos_sim.analysis.core.sweep import grid_sweeps, plot_sweep, verdict
from demos_sim.report.markup import (csv_data_uri, html_details, html_figure, html_page,
                                     html_table, md_table, text)
from demos_sim.runner.results import load_results
from demos_sim.runner.store import atomic_write_bytes, atomic_write_text

_FMT = "{:.4f}"


# ------------------------------------------------------------------ plots
def _shares_plot(meta, df, diff: bool) -> bytes:
    blocks = sorted(df["block"].unique())
    fig, axes = panels(len(blocks))
    for ax, b in zip(axes, blocks):
        rows = df[(df["block"] == b) & (df["metric"] == "win_share")]
        pts = [p for p in meta["points"] if p["block"] == b]
        if diff:
            pts = [p for p in pts if p["ref_point"] is not None]
        sides = list(dict.fromkeys(rows["side"]))
        width = 0.8 / max(1, len(pts))
        for i, p in enumerate(pts):
            r = rows[rows["point"] == p["point"]].set_index("side").loc[sides]
            x = np.arange(len(sides)) - 0.4 + width * (i + 0.5)
            col = "diff" if diff else "mean"
            lo = r["diff_ci_low" if diff else "ci_low"].to_numpy()
            hi = r["diff_ci_high" if diff else "ci_high"].to_numpy()
            y = r[col].to_numpy()
            ax.errorbar(x, y, yerr=[y - lo, hi - y], fmt="o", capsize=3, label=p["label"])
        ax.set_xticks(np.arange(len(sides)), sides)
        one_seat_sides = bool(pts) and pts[0]["sides"] == [str(i) for i in range(pts[0]["players"])]
        ax.set_xlabel("seat" if one_seat_sides else "side")
        if diff:
            ax.axhline(0.0, color="0.4", lw=0.8, ls="--")
            ref = next(p for p in meta["points"] if p["point"] == pts[0]["ref_point"])
            ax.set_ylabel(f"win share − reference ({ref['label']})")
        else:
            ax.set_ylabel("win share (M1), 95% CI")
        ax.set_title(f"{pts[0]['players']} players" if pts else "")
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize="small")
    return png_bytes(fig)


def _hist_plot(meta, hist, metric: str, xlabel: str) -> bytes:
    blocks = sorted(hist["block"].unique())
    fig, axes = panels(len(blocks))
    for ax, b in zip(axes, blocks):
        rows = hist[(hist["block"] == b) & (hist["metric"] == metric)]
        for p in [p for p in meta["points"] if p["block"] == b]:
            r = rows[rows["point"] == p["point"]].groupby("lo")["count"].sum()
            if r.empty:
                continue
            width = int(rows["width"].iloc[0])
            lo = np.arange(r.index.min(), r.index.max() + width, width)
            counts = r.reindex(lo, fill_value=0).to_numpy()
            edges = np.append(lo, lo[-1] + width) - (0.5 if width == 1 else 0.0)
            ax.stairs(counts / counts.sum(), edges, label=p["label"], lw=1.5)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("fraction")
        pts = [p for p in meta["points"] if p["block"] == b]
        ax.set_title(f"{pts[0]['players']} players")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    return png_bytes(fig)


# ------------------------------------------------------------------ text
def _ci(lo, hi) -> str:
    if lo is None or (isinstance(lo, float) and math.isnan(lo)):
        return ""
    return interval(lo, hi, _FMT)


def _num(v) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    return _FMT.format(v)


def _stamp(meta) -> list[tuple[str, str]]:
    exp = meta["experiment"]
    settings = ", ".join(f"{k}={v}" for k, v in meta["settings"].items())
    players = sorted({p["players"] for p in meta["points"]})
    pol = sorted({",".join(p["policies"]) for p in meta["points"]})
    fixed = exp["parsed"].get("variants", {})
    grid = exp["parsed"].get("grid", {})
    refs = {p["ref_point"] for p in meta["points"] if p["ref_point"] is not None}
    ref_labels = [p["label"] for p in meta["points"] if p["point"] in refs]
    stop = meta["stop"]
    games = (f"{meta['games_per_point']} per grid point ({meta['chunks']} chunks of "
             f"{meta['chunk_size']}), {meta['games_played']} in all; stopped by "
             f"{meta['stopped_by']}")
    if stop:
        games += (f" (rule: every tracked 95% half-width ≤ {stop['half_width']} for "
                  f"{', '.join(stop['track'])}, at most {stop['max_games']} games; widest "
                  f"at the end {stop['widest_half_width']:.4g})")
    v = meta["versions"]
    return [
        ("experiment", f"{exp['name']} ({exp['path']})"),
        ("game", f"{meta['title']}, {settings}" if settings else meta["title"]),
        ("players", ", ".join(map(str, players))),
        ("policies by seat", "; ".join(pol)),
        ("fixed variants", ", ".join(f"{k}={json.dumps(x)}" for k, x in fixed.items())
         or "none (defaults of RULES.md Part V)"),
        ("grid", "; ".join(f"{k} = {', '.join(json.dumps(x) for x in vals)}"
                           for k, vals in grid.items()) or "none"),
        ("reference point", ", ".join(dict.fromkeys(ref_labels)) or "none"),
        ("games", games),
        ("seed", str(meta["seed"])),
        ("version", f"demos-sim {meta['version']}, git {meta['git_revision']}, "
                    f"rules contract {meta.get('contract')}"),
        ("libraries", f"numba {v['numba']}, numpy {v['numpy']}, python {v['python']}"),
        ("run", f"{meta['created']}, {meta['backend']} × {meta['workers']}, "
                f"{meta['wall_s']:.1f} s, fingerprint {meta['fingerprint']}"),
    ]


SHARES = ("win_share", "no_winner", "truncated")     # metrics that are shares of games
UNITS = {"win_share": "win share", "no_winner": "no winner", "truncated":
         "stopped by round cap", "rounds": "rounds per game", "points": "final points",
         "vetoes": "vetoes per game"}


def _val(v, metric: str, diff: bool = False) -> str:
    """A metric's value: shares in % (differences in pp, signed), others as stored."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if metric in SHARES:
        if 0 < abs(100 * v) < 0.005:      # a rare event's Wilson bound is not "0.00"
            return f"{100 * v:+.2g}" if diff else f"{100 * v:.2g}"
        return f"{100 * v:+.2f}" if diff else f"{100 * v:.2f}"
    return f"{v:+.4f}" if diff else _FMT.format(v)


def _vci(lo, hi, metric: str, diff: bool = False) -> str:
    if lo is None or (isinstance(lo, float) and math.isnan(lo)):
        return ""
    return f"[{_val(lo, metric, diff)}, {_val(hi, metric, diff)}]"


def _tables(meta, df):
    ws = df[df["metric"] == "win_share"]
    win = [["point", "players", "grid point", "side", "seats", "win share (%)", "95% CI",
            "diff vs ref (pp)", "95% CI"]]
    for _, r in ws.iterrows():
        win.append([str(r["point"]), str(r["players"]), r["label"], r["side"], r["seats"],
                    _val(r["mean"], "win_share"), _vci(r["ci_low"], r["ci_high"], "win_share"),
                    _val(r["diff"], "win_share", True),
                    _vci(r["diff_ci_low"], r["diff_ci_high"], "win_share", True)])
    other = [["point", "players", "grid point", "metric", "side", "mean", "95% CI",
              "diff vs ref (pp for % rows)", "95% CI"]]
    for _, r in df[df["metric"] != "win_share"].iterrows():
        m = r["metric"]
        unit = " (% of games)" if m in SHARES else ""
        other.append([str(r["point"]), str(r["players"]), r["label"], UNITS.get(m, m) + unit,
                      r["side"], _val(r["mean"], m), _vci(r["ci_low"], r["ci_high"], m),
                      _val(r["diff"], m, True),
                      _vci(r["diff_ci_low"], r["diff_ci_high"], m, True)])
    return win, other


def _csv(rows: list[list[str]]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue()


def _summary(meta, df) -> list[str]:
    """The answers at a glance (HTML sentences): per player count, the reference point's
    spread of win shares and no-winner share, then each other grid point's largest paired
    change of a side's win share and of the no-winner share, with intervals."""
    out = []
    for b in sorted(df["block"].unique()):
        pts = [p for p in meta["points"] if p["block"] == b]
        ref = next((p for p in pts if p["ref_point"] is None), pts[0])
        rows = df[(df["block"] == b) & (df["point"] == ref["point"])]
        ws = rows[rows["metric"] == "win_share"].sort_values("mean")
        lo, hi = ws.iloc[0], ws.iloc[-1]
        nw = rows[rows["metric"] == "no_winner"]
        s = (f"<b>{ref['players']} players, {html.escape(ref['label'] or 'the setting')}"
             f"</b>{' (reference)' if len(pts) > 1 else ''}: win shares from "
             f"<span class=fig>{100 * lo['mean']:.1f}%</span> (seat/side "
             f"{html.escape(str(lo['side']))}) to <span class=fig>{100 * hi['mean']:.1f}%"
             f"</span> ({html.escape(str(hi['side']))})")
        if len(nw):
            s += (f"; <span class=fig>{100 * nw['mean'].iloc[0]:.1f}%</span> of games "
                  "without a winner")
        out.append(s + ".")
        for p in pts:
            if p["ref_point"] is None:
                continue
            r = df[(df["point"] == p["point"]) & (df["metric"] == "win_share")]
            big = r.loc[(r["diff"].abs()).idxmax()]
            det = big["diff_ci_low"] > 0 or big["diff_ci_high"] < 0
            t = (f"{html.escape(p['label'])}: largest change of a win share "
                 f"<span class=fig>{100 * big['diff']:+.2f} pp</span> <span class=ci>"
                 f"{_vci(big['diff_ci_low'], big['diff_ci_high'], 'win_share', True)}"
                 f"</span> (side {html.escape(str(big['side']))}; "
                 f"{'detected' if det else 'within noise: the interval contains 0'})")
            n = df[(df["point"] == p["point"]) & (df["metric"] == "no_winner")]
            if len(n):
                ci = _vci(n["diff_ci_low"].iloc[0], n["diff_ci_high"].iloc[0], "no_winner",
                          True)
                t += (f"; no winner <span class=fig>{100 * n['diff'].iloc[0]:+.2f} pp"
                      f"</span> <span class=ci>{ci}</span>")
            out.append(t + ".")
    return out


_NOTES = (
    "Win share (share of games): the fraction of all games a seat or side wins (RULES.md "
    "M1: a victory shared by k counts 1/k); games without a winner (`no_winner`) and games "
    "stopped by `round_cap` (`truncated`) count for nobody, so each point's win shares, "
    "no-winner and truncated shares add up to 100%. Shares are shown in % and their "
    "differences in percentage points (pp: 20% → 22% is +2 pp). "
    "Intervals are 95% normal intervals of the mean per-game value with the sample "
    "variance. Every grid point of a player count plays the same deals (same chunk seeds), "
    "so `diff vs ref` is the mean of per-game paired differences from the reference point, "
    "with the interval of that mean (exact sums of x, x², and x·x_ref kept per chunk); "
    "intervals are not adjusted for multiple comparisons."
)


def _stamp_line(meta) -> str:
    return (f"<b>Rules contract {html.escape(str(meta.get('contract')))}</b> · demos-sim "
            f"{html.escape(str(meta['version']))} · git "
            f"{html.escape(str(meta['git_revision']))[:10]} · seed {meta['seed']} · "
            f"<b>{meta['games_played']:,} games</b> ({meta['games_per_point']:,} per grid "
            f"point) · experiment {html.escape(meta['experiment']['name'])}")


def build_report(results_dir: str | Path, out: str | Path | None = None) -> tuple[Path, Path]:
    """Write the report of ``results_dir`` into ``out`` (default: ``results_dir``)."""
    results_dir = Path(results_dir)
    out = Path(out) if out is not None else results_dir
    meta, df, hist = load_results(results_dir)
    (out / "plots").mkdir(parents=True, exist_ok=True)

    plots: list[tuple[str, str, bytes]] = [
        ("win_share.png", "Win share by side, 95% CI, per grid point",
         _shares_plot(meta, df, diff=False))]
    if any(p["ref_point"] is not None for p in meta["points"]):
        plots.append(("win_share_diff.png", "Paired difference of win share from the "
                      "reference point (same deals), 95% CI", _shares_plot(meta, df, diff=True)))
    if (hist["metric"] == "points").any():
        plots.append(("points.png", "Distribution of final points (every seat)",
                      _hist_plot(meta, hist, "points", "final points (bins of 5)")))
    if (hist["metric"] == "rounds").any():
        plots.append(("rounds.png", "Distribution of game length",
                      _hist_plot(meta, hist, "rounds", "rounds")))
    sweeps = grid_sweeps(meta, df)
    blocks = len({p["block"] for p in meta["points"]})
    for key, players, t in sweeps:
        suffix = f"_{players}p" if blocks > 1 else ""
        plots.append((f"sweep_{key}{suffix}.png",
                      f"What {key} changes, against its value: paired differences from "
                      f"{key} = {t[t['reference']]['value'].iloc[0]} on the same deals, 95% "
                      f"bands ({players} players)",
                      png_bytes(plot_sweep(t))))
    for name, _, png in plots:
        atomic_write_bytes(out / "plots" / name, png)

    exp = meta["experiment"]
    title = f"Experiment {exp['name']}"
    stamp = _stamp(meta)
    win, other = _tables(meta, df)
    summary = _summary(meta, df) + [
        f"<b>{players} players, sweep of {html.escape(key)}</b>: {html.escape(verdict(t))}"
        for key, players, t in sweeps]

    md = [f"# {title}", "", text(_stamp_line(meta)), ""]
    if exp["description"]:
        md += [exp["description"], ""]
    md += ["## At a glance", ""] + [f"- {text(s)}" for s in summary] + [""]
    md += ["## Plots", ""]
    for name, caption, _ in plots:
        md += [f"![{caption}](plots/{name})", "", f"*{caption}*", ""]
    md += ["## Win share by side (M1)", "", md_table(win), "",
           "## Other metrics", "", md_table(other), "",
           "## How to read it", "", _NOTES, "",
           "## Run", "", md_table([["", ""]] + [[k, v] for k, v in stamp]), "",
           "## Experiment file", "", "```toml", exp["file"].rstrip(), "```", ""]

    body = []
    if exp["description"]:
        body.append(f'<p class="lead">{html.escape(exp["description"])}</p>')
    body += ['<h2 id="summary">At a glance</h2>', '<div class="answer"><ul>']
    body += [f"<li>{s}</li>" for s in summary] + ["</ul></div>"]
    body += ['<div class="gloss"><b>How to read it.</b> ' + html.escape(_NOTES) + "</div>",
             '<h2 id="plots">Plots</h2>', '<div class="plots">']
    for name, caption, png in plots:
        body.append(html_figure(png, caption, caption))
    body.append("</div>")
    body.append('<h2 id="tables">Tables</h2>')
    for label, rows, fname in (("Win share by side (M1)", win, "win_share.csv"),
                               ("Other metrics", other, "other_metrics.csv")):
        body.append(html_details(
            f'{html.escape(label)} <span class="n">({len(rows) - 1} rows) · '
            f'<a download="{fname}" href="{csv_data_uri(_csv(rows))}">CSV</a></span>',
            html_table(rows)))
    body += ['<h2 id="run">Run</h2>', html_table([["", ""]] + [[k, v] for k, v in stamp]),
             html_details("Experiment file", f"<pre>{html.escape(exp['file'])}</pre>")]
    page = html_page(title, body, _stamp_line(meta))

    html_path, md_path = out / "report.html", out / "report.md"
    atomic_write_text(md_path, "\n".join(md))
    atomic_write_text(html_path, page)
    return html_path, md_path
