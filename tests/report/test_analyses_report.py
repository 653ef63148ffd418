"""The analyses report rebuilt from the committed sections (no game played): the same page
as the committed one, under 1.5 MB, offline, answers first, quoting the analyses' numbers."""

from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
from scipy.stats import norm

from demos_sim.analysis.core.sections import write_section
from demos_sim.cli import main
from demos_sim.report.analyses import build_analyses_report
from demos_sim.report.tables import present

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results" / "analyses"
LIMIT = 1_500_000          # bytes: the whole report (its plots linked, not embedded)


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory):
    """``demos-sim analyse --report-only`` on a copy of the committed sections, laid out
    as in a checkout (``<repo>/results/analyses``) so that the statements name their files
    as the committed report does (relative to the repository's root)."""
    repo = tmp_path_factory.mktemp("repo")
    (repo / ".git").mkdir()
    out = repo / "results" / "analyses"
    out.mkdir(parents=True)
    for sec in RESULTS.glob("*/section.json"):
        shutil.copytree(sec.parent, out / sec.parent.name)
    assert main(["analyse", "--report-only", "--out", str(out)]) == 0
    return out


def test_committed_report_is_what_report_only_builds(rebuilt):
    """Regenerate with `demos-sim analyse --report-only` when this fails."""
    new, old = (rebuilt / "report.html").read_text(), (RESULTS / "report.html").read_text()
    assert new == old
    assert (rebuilt / "report.md").read_text() == (RESULTS / "report.md").read_text()


def test_small_offline_and_answers_first():
    page = (RESULTS / "report.html").read_text()
    assert len(page.encode()) < LIMIT
    # nothing fetched from elsewhere: no script, no external style sheet, image or font
    assert "<script" not in page
    assert not re.search(r'(src|href)="(https?:)?//', page)
    # every plot is a file of the results folder, linked from beside it
    srcs = re.findall(r'<img [^>]*src="([^"]+)"', page)
    assert srcs and all((RESULTS / s).is_file() for s in srcs)
    assert "data:image/png" not in page
    assert page.index('id="summary"') < page.index("<table")
    assert page.index('id="summary"') < page.index('<section id="veto"')


def test_stamp_names_contract_version_revision_seeds_and_games():
    page = (RESULTS / "report.html").read_text()
    runs = [r for p in RESULTS.glob("*/section.json") for r in json.loads(p.read_text())["runs"]]
    games = sum(r["games_per_point"] * r["points"] for r in runs)
    start = page.index('id="stamp">') + len('id="stamp">')
    stamp = page[start:page.index("</div>", start)]
    seeds = {r["seed"] for r in runs}
    assert f"{games:,} games" in stamp and f"{len(runs)} runs" in stamp
    assert f"{len(seeds)} seeds from {min(seeds)} to {max(seeds)}" in stamp
    assert "Rules contract 2" in stamp and "demos-sim 0.1.0" in stamp
    for rev in {r["git_revision"][:10] for r in runs}:
        assert rev in stamp
    assert page.count(stamp) == 2                      # at the top and at the foot


def _card(folder: Path, name: str) -> str:
    """The answer of section ``name`` in ``folder/report.html``: its text up to its first
    collapsed block."""
    page = (folder / "report.html").read_text()
    start = page.index(f'<section id="{name}"')
    return re.sub(r"<[^>]+>", "", page[start:page.index("<details", start)])


def _pp2(x: float) -> str:
    """A share difference in pp, two decimals, the report's minus sign: 0.0080 → 0.80."""
    return f"{100 * x:.2f}".replace("-", "−")


def _consistent(r: pd.Series) -> None:
    """A ladder label means what robustness.py's METHOD says: holds = the change's 90%
    interval inside ±margin; grows/shrinks = beyond it."""
    m, lo, hi = r["margin"], r["change_ci90_low"], r["change_ci90_high"]
    if r["verdict"] == "holds across skill":
        assert -m < lo and hi < m
    if r["verdict"] in ("grows with skill", "shrinks with skill"):
        assert lo > m or hi < -m


def check_veto_card(folder: Path) -> None:
    """The veto card quotes veto_average.csv's worth (positive: with − without) with its
    interval at every main rung, and the label of its key figure from ladder.csv, whose
    verdict agrees with its own change interval and margin."""
    text = _card(folder, "veto")
    v = pd.read_csv(folder / "veto" / "veto_average.csv")
    assert {"worth", "worth_ci_low", "worth_ci_high"} <= set(v.columns), "regenerate"
    four = v[(v["setup"] == "individual 4p") & ~v["bot"].str.startswith("ismcts")]
    assert len(four) >= 2
    for r in four.itertuples():
        assert (r.worth == pytest.approx(-r.mean_diff) and r.worth_ci_low
                == pytest.approx(-r.ci_high))                   # worth = −(without − with)
        if abs(100 * r.worth) < 10:
            assert (f"{r.bot} {_pp2(r.worth)} [{_pp2(r.worth_ci_low)}, "
                    f"{_pp2(r.worth_ci_high)}]") in text
    lad = pd.read_csv(folder / "robustness" / "ladder.csv")
    r = lad[(lad["analysis"] == "veto")
            & (lad["figure"] == "veto value, individual 4p, average over seats")].iloc[0]
    assert f"skill: {r['verdict']}" in text
    assert f"{r['weakest']} to {r['strongest']}, margin ±{100 * r['margin']:.2g} pp" in text
    _consistent(r)
    mark = {"holds across skill": "✓ Holds across skill", "grows with skill":
            "~ Its size depends on bot skill", "shrinks with skill":
            "~ Its size depends on bot skill", "flips": "⚠ Depends on bot skill"}
    assert mark.get(r["verdict"], "~ Not settled across skill") in text
    assert "best response" not in text.lower()


def test_the_veto_answer_quotes_the_worth_and_its_skill_label():
    """Regenerate with `demos-sim analyse` when the committed tables lack the columns."""
    check_veto_card(RESULTS)


def check_teams_card(folder: Path) -> None:
    """The teams card prints each mode's verdict with its 90% interval (fairness.csv's
    ci90 columns, stats.Equivalence.text's form); per seat, a side is held to its seats'
    share of the table (fairness.py: the same estimate, parity size/n); 2v2's two
    definitions are one test; and the games to notice 2v3's deficit:
    n = (z₀.₉₇₅ + z₀.₈)² · p(1 − p) / d² = 7.849 · 0.25 / d² (p = ½)."""
    text = _card(folder, "teams")
    fa = pd.read_csv(folder / "teams" / "fairness.csv")
    fa = fa[fa["option"] == "default"]
    side = fa[(fa["definition"] == "per side")].set_index(["bot", "mode", "side"])
    seat = fa[(fa["definition"] == "per seat")].set_index(["bot", "mode", "side"])
    assert (side["share_won"] - seat["share_won"]).abs().max() < 1e-12   # one estimate
    assert (seat["parity"] - seat["side_size"] / seat.groupby(
        level=["bot", "mode"])["side_size"].transform("sum")).abs().max() < 1e-12
    a = fa[(fa["mode"] == "2v3") & (fa["side"] == "A") & (fa["definition"] == "per side")]
    for r in a.itertuples():
        if r.verdict == "unfair":
            assert r.ci90_high < -r.margin                          # wholly beyond −m
        one = lambda x: f"{100 * x:+.1f}".replace("-", "−")      # noqa: E731
        assert (f"{r.bot} side A {r.verdict}: {one(r.diff)} pp, 90% [{one(r.ci90_low)}, "
                f"{one(r.ci90_high)}]") in text
    assert "2v2 per seat: the same test as per side" in text
    g = a[a["bot"] == "greedy"]["diff"].iloc[0]
    n = math.ceil((norm.ppf(0.975) + norm.ppf(0.8)) ** 2 * 0.25 / g ** 2)
    assert "the 2v3 team of two's deficit" in text
    if n < 1000:                                 # larger counts are rounded
        assert f"{n:,} greedy" in text
    md = (folder / "report.md").read_text()
    assert f"### Table: fairness ({len(pd.read_csv(folder / 'teams' / 'fairness.csv'))} rows" in md


def test_the_teams_answer_gives_tost_verdicts_with_their_90_intervals():
    """Regenerate with `demos-sim analyse` when the committed tables predate the rule."""
    check_teams_card(RESULTS)


def test_a_section_without_key_figures_is_answered_by_its_first_finding(tmp_path):
    df = pd.DataFrame({"bot": ["greedy", "greedy"], "diff": [-0.0021, 0.0005],
                       "diff_ci_low": [-0.0024, -0.0001], "diff_ci_high": [-0.0019, 0.0011]})
    write_section(tmp_path / "veto", {
        "name": "veto", "title": "Veto value", "method": "m", "findings": ["first", "second"],
        "flags": [], "tables": ["veto_value"], "show": ["veto_value"], "figures": [],
        "runs": []}, {"veto_value": df})
    html_path, md_path = build_analyses_report(tmp_path, ["veto", "media"])
    page = html_path.read_text()
    assert '<p class="answer">first</p>' in page
    assert 'href="veto/veto_value.csv"' in page and "<details>" in page


def test_tables_join_intervals_and_give_units():
    df = pd.DataFrame({"bot": ["greedy", "greedy"], "players": [4, 4], "seats": ["0", "1"],
                       "diff": [-0.0021, 0.0005], "diff_ci_low": [-0.0024, -0.0001],
                       "diff_ci_high": [-0.0019, 0.0011], "p_holm": [0.0001, 0.5]})
    rows, notes = present(df, "veto", "veto_value", 50)
    assert notes == ["bot = greedy", "players = 4"]
    assert rows[0][1].startswith("veto value: restricted − reference (pp of win share)")
    assert rows[1] == ["0", "−0.21 <span class=ci>[−0.24, −0.19]</span>", "&lt;0.001"]
    assert rows[2][1] == "+0.05 <span class=ci>[−0.01, +0.11]</span>"
    # a table whose rows hold different metrics keeps the stored values
    rows, _ = present(df.assign(metric=["rounds", "win_share"]), "x", "y", 50)
    assert rows[1][1] == "-0.0021 <span class=ci>[-0.0024, -0.0019]</span>"


def test_small_png_keeps_a_colour_bar():
    """A diverging colour map with its colour bar (as the heat maps): the palette PNG is
    smaller and no pixel channel moves by more than 48 of 255 (a 64-colour median cut
    moves one by 90 here, and turned the veto heat map's unused red end grey: 115)."""
    import io

    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from PIL import Image

    from demos_sim.report.markup import small_png

    fig = Figure(figsize=(6, 3), dpi=110)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(111)
    im = ax.imshow(np.linspace(-1, 0.2, 40).reshape(5, 8), cmap="RdBu_r", vmin=-1, vmax=1)
    fig.colorbar(im)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    png = buf.getvalue()
    small = small_png(png)
    assert len(small) < len(png)
    a, b = (np.asarray(Image.open(io.BytesIO(x)).convert("RGB")).astype(int)
            for x in (png, small))
    assert np.abs(a - b).max() <= 48


def test_rare_event_bounds_are_not_printed_as_zero():
    """0 of N has a Wilson upper bound above 0 (runner/intervals.py); the report must not
    print it as 0.00: 0 of 81,920 → 3.84 / 81,924 = 0.0047%."""
    df = pd.DataFrame({"bot": ["g", "h"], "no_winner": [0.0, 0.1],
                       "ci_low": [0.0, 0.09], "ci_high": [0.0000469, 0.11]})
    rows, _ = present(df, "x", "y", 50)
    assert rows[1][1] == "0.00 <span class=ci>[0.00, 0.0047]</span>"
    from demos_sim.report.findings import pct
    # 100 × 0.000234 = 0.0234%: two significant digits, three decimals
    assert pct(0.000234, 0.0001, 0.0005) == "0.023% [0.010, 0.050]"
