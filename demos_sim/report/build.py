"""``demos-sim report RESULTS_DIR``: report.html, report.md and plots/*.png.

Reads what ``demos-sim run`` wrote (``meta.json``, ``results.parquet``,
``histograms.parquet``), checks that the tables are the ones ``meta.json`` describes
(SHA-256), and writes

- ``plots/win_share.png``: win share by side with 95% CI bars, one marker per grid point,
  one panel per player count; ``plots/win_share_diff.png``: paired differences from the
  reference point with their 95% CIs (when the grid has more than one point);
- ``plots/points.png`` and ``plots/rounds.png``: distributions of final points (all
  seats) and of game length, one line per grid point;
- ``report.md`` (links the PNGs) and ``report.html`` (the same content, PNGs embedded),
  both stamped with experiment, seed, configuration, games, version and git revision.

Plots use matplotlib's object API (``Figure`` + Agg canvas), not pyplot: no global state,
no display needed.
"""

from __future__ import annotations

import html
import json
import math
from pathlib import Path

import numpy as np

from demos_sim.analysis.core.formatting import interval
from demos_sim.analysis.core.plotting import panels, png_bytes
from demos_sim.report.markup import html_figure, html_page, html_table, md_table
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


def _tables(meta, df):
    ws = df[df["metric"] == "win_share"]
    win = [["point", "players", "grid point", "side", "seats", "win share", "95% CI",
            "diff vs ref", "95% CI"]]
    for _, r in ws.iterrows():
        win.append([str(r["point"]), str(r["players"]), r["label"], r["side"], r["seats"],
                    _num(r["mean"]), _ci(r["ci_low"], r["ci_high"]), _num(r["diff"]),
                    _ci(r["diff_ci_low"], r["diff_ci_high"])])
    other = [["point", "players", "grid point", "metric", "side", "mean", "95% CI",
              "diff vs ref", "95% CI"]]
    for _, r in df[df["metric"] != "win_share"].iterrows():
        other.append([str(r["point"]), str(r["players"]), r["label"], r["metric"], r["side"],
                      _num(r["mean"]), _ci(r["ci_low"], r["ci_high"]), _num(r["diff"]),
                      _ci(r["diff_ci_low"], r["diff_ci_high"])])
    return win, other


_NOTES = (
    "Win shares follow RULES.md M1: a victory shared by k counts 1/k; games without a "
    "winner (`no_winner`) and games stopped by `round_cap` (`truncated`) count for nobody, "
    "so each point's win shares, no-winner and truncated shares add up to 1. "
    "Intervals are 95% normal intervals of the mean per-game value with the sample "
    "variance. Every grid point of a player count plays the same deals (same chunk seeds), "
    "so `diff vs ref` is the mean of per-game paired differences from the reference point, "
    "with the interval of that mean (exact sums of x, x², and x·x_ref kept per chunk); "
    "intervals are not adjusted for multiple comparisons."
)


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
    for name, _, png in plots:
        atomic_write_bytes(out / "plots" / name, png)

    exp = meta["experiment"]
    title = f"Experiment {exp['name']}"
    stamp = _stamp(meta)
    win, other = _tables(meta, df)

    md = [f"# {title}", ""]
    if exp["description"]:
        md += [exp["description"], ""]
    md += [md_table([["", ""]] + [[k, v] for k, v in stamp]), "",
           "## Win share by side (M1)", "", md_table(win), "",
           "## Other metrics", "", md_table(other), "", "## Plots", ""]
    for name, caption, _ in plots:
        md += [f"![{caption}](plots/{name})", "", f"*{caption}*", ""]
    md += ["## How to read it", "", _NOTES, "", "## Experiment file", "", "```toml",
           exp["file"].rstrip(), "```", ""]

    body = [f"<h1>{html.escape(title)}</h1>"]
    if exp["description"]:
        body.append(f"<p>{html.escape(exp['description'])}</p>")
    body.append(html_table([["", ""]] + [[k, v] for k, v in stamp]))
    body += ["<h2>Win share by side (M1)</h2>", html_table(win),
             "<h2>Other metrics</h2>", html_table(other), "<h2>Plots</h2>"]
    for name, caption, png in plots:
        body.append(html_figure(png, caption, caption))
    body += ["<h2>How to read it</h2>", f"<p>{html.escape(_NOTES)}</p>",
             "<h2>Experiment file</h2>", f"<pre>{html.escape(exp['file'])}</pre>"]
    page = html_page(title, body)

    html_path, md_path = out / "report.html", out / "report.md"
    atomic_write_text(md_path, "\n".join(md))
    atomic_write_text(html_path, page)
    return html_path, md_path
