"""``demos-sim report --compare OLD NEW``: what changed between two runs, as a page.

The sentence first (how many figures moved beyond their intervals, the largest moves),
then the figures that moved, then every figure collapsed, with a CSV of the whole table
(:func:`demos_sim.analysis.core.revisions.compare_runs` says how the intervals and the
Holm adjustment are made). Written atomically to ``OUT/compare.html`` and
``OUT/compare.csv``; the text summary is returned for the terminal.
"""

from __future__ import annotations

import html
import math
from pathlib import Path

from demos_sim.analysis.core.revisions import compare_runs
from demos_sim.report.markup import html_details, html_page, html_table
from demos_sim.runner.store import atomic_write_text

SHARES = ("win_share", "no_winner", "truncated")


def _fmt(v, metric: str, signed: bool = False) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if metric in SHARES:                         # shares in %, changes in pp
        return f"{100 * v:+.2f}" if signed else f"{100 * v:.2f}"
    return f"{v:+.4f}" if signed else f"{v:.4f}"


def _unit(metric: str) -> str:
    return " (% / pp)" if metric in SHARES else ""


def _run_line(meta: dict) -> str:
    exp = meta["experiment"]["name"]
    pols = "; ".join(dict.fromkeys(",".join(p["policies"]) for p in meta["points"]))
    return (f"{exp}: {meta['title']}, policies {pols}, seed {meta['seed']}, "
            f"{meta['games_per_point']} games "
            f"per point, contract {meta.get('contract')}, demos-sim {meta['version']}, git "
            f"{meta['git_revision']}")


def _row(r) -> list[str]:
    change = ""
    if r.only == "":
        change = (f"{_fmt(r.change, r.metric, True)} [{_fmt(r.change_ci_low, r.metric, True)}"
                  f", {_fmt(r.change_ci_high, r.metric, True)}]")
    return [f"{r.metric.replace('_', ' ')}{_unit(r.metric)}", r.kind, str(r.players), r.label,
            str(r.side), _fmt(r.old, r.metric, r.kind != "value"),
            _fmt(r.new, r.metric, r.kind != "value"),
            change or f"only in {r.only}", "moved" if r.moved else ""]


HEADER = ["figure", "kind", "players", "grid point", "side", "old", "new",
          "change [95% CI]", ""]


def build_compare_report(old_dir: str | Path, new_dir: str | Path,
                         out: str | Path | None = None) -> tuple[Path, str]:
    """Write ``compare.html`` and ``compare.csv`` into ``out`` (default: ``new_dir``);
    return the page's path and a text summary."""
    t, old_meta, new_meta = compare_runs(old_dir, new_dir)
    out = Path(out) if out is not None else Path(new_dir)
    out.mkdir(parents=True, exist_ok=True)
    both = t[t["only"] == ""]
    moved = t[t["moved"]]
    lead = (f"{len(moved)} of {len(both)} figures moved beyond their intervals "
            f"(Holm over all {len(both)}, family-wise error 5%)")
    ws = moved[(moved["metric"] == "win_share") & (moved["kind"] == "value")]
    if len(ws):
        lead += "; win shares: " + "; ".join(
            f"{r.side} at {r.label} ({r.players} players) {_fmt(r.change, r.metric, True)} pp"
            for r in ws.itertuples())
    elif len(both):
        lead += "; no win share moved"
    lead += "."
    only = t[t["only"] != ""]
    if len(only):
        lead += f" {len(only)} figures are in one run only (a changed grid or metric list)."
    body = [
        f"<p class=\"lead\">{html.escape(lead)}</p>",
        "<p>Old: " + html.escape(_run_line(old_meta)) + "<br>New: "
        + html.escape(_run_line(new_meta)) + "</p>",
        "<p>Change = new − old, with a 95% interval from both runs' intervals (the runs "
        "are taken as independent: conservative when they played the same deals). Shares "
        "of games are in %, their changes in percentage points (pp). \"Effect\" rows "
        "compare a grid point's paired difference from its reference point.</p>",
        "<h2>Figures that moved</h2>",
        html_table([HEADER] + [_row(r) for r in moved.itertuples()]) if len(moved)
        else "<p>None.</p>",
        html_details(f"Every figure ({len(t)} rows) — "
                     "<a href=\"compare.csv\">compare.csv</a>",
                     html_table([HEADER] + [_row(r) for r in t.itertuples()])),
    ]
    stamp = html.escape(f"old git {old_meta['git_revision']} · new git "
                        f"{new_meta['git_revision']} · contract {new_meta.get('contract')}")
    page = html_page(f"What changed: {new_meta['experiment']['name']} against "
                     f"{old_meta['experiment']['name']}", body, stamp)
    atomic_write_text(out / "compare.csv", t.to_csv(index=False))
    path = out / "compare.html"
    atomic_write_text(path, page)
    lines = [lead, ""]
    for r in moved.itertuples():
        c = _row(r)
        kind = "effect" if r.kind != "value" else ""
        lines.append(f"  {c[0]:<22} {c[4]:>11} {kind:<6}  {c[3][:28]:<28} {c[5]:>9} → "
                     f"{c[6]:>9}  {c[7]}")
    return path, "\n".join(lines)
