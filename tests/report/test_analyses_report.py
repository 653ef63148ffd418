"""The analyses report rebuilt from the committed sections (no game played): the same page
as the committed one, under 2.5 MB, offline, answers first, quoting the analyses' numbers."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest

from demos_sim.analysis.core.sections import write_section
from demos_sim.cli import main
from demos_sim.report.analyses import build_analyses_report
from demos_sim.report.tables import present

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results" / "analyses"
LIMIT = 2_500_000          # bytes: the whole report, its images embedded (four rungs: 2.13 MB)


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory):
    """``demos-sim analyse --report-only`` on a copy of the committed sections."""
    out = tmp_path_factory.mktemp("analyses")
    for sec in RESULTS.glob("*/section.json"):
        shutil.copytree(sec.parent, out / sec.parent.name)
    assert main(["analyse", "--report-only", "--out", str(out)]) == 0
    return out


def _text(page: str) -> str:
    """The page without its embedded images (their bytes depend on Pillow's encoder)."""
    return re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "data:image/png", page)


def test_committed_report_is_what_report_only_builds(rebuilt):
    """Regenerate with `demos-sim analyse --report-only` when this fails."""
    new, old = (rebuilt / "report.html").read_text(), (RESULTS / "report.html").read_text()
    assert _text(new) == _text(old)
    assert new.count("data:image/png;base64,") == old.count("data:image/png;base64,")
    assert (rebuilt / "report.md").read_text() == (RESULTS / "report.md").read_text()


def test_small_offline_and_answers_first():
    page = (RESULTS / "report.html").read_text()
    assert len(page.encode()) < LIMIT
    # nothing fetched from elsewhere: no script, no external style sheet, image or font
    assert "<script" not in page
    assert not re.search(r'(src|href)="(https?:)?//', page)
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


def test_the_veto_answer_quotes_the_key_figures():
    """veto value, 4 players, average over seats (robustness/key_figures.csv): greedy
    −0.008000 [−0.008722, −0.007279] → −0.80 pp [−0.87, −0.73]; heuristic −0.011326
    [−0.013083, −0.009569] → −1.13 pp [−1.31, −0.96]. The change −0.003326 has the
    conservative half-width sqrt(0.000721² + 0.001757²) = 0.001899: [−0.0052, −0.0014]
    excludes 0, away from 0: the veto's value grows with skill."""
    page = (RESULTS / "report.html").read_text()
    card = page[page.index('id="card-veto"'):page.index('id="card-media"')]
    text = re.sub(r"<[^>]+>", "", card)
    assert "−0.80 pp [−0.87, −0.73] greedy" in text
    assert "−1.13 pp [−1.31, −0.96] heuristic" in text
    assert "~ Its size depends on bot skill" in text
    rob = pd.read_csv(RESULTS / "robustness" / "comparison.csv")
    r = rob[rob["figure"] == "veto value, individual 4p, average over seats"].iloc[0]
    assert r["verdict"] == "grows with skill"
    assert r["change_ci_low"] == pytest.approx(-0.003326 - 0.001899, abs=2e-6)


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


def test_the_teams_answer_gives_tost_verdicts_per_side_and_per_seat():
    """From the committed teams section (its fairness table): greedy 2v2+1, the Independent wins 0.1592 of all games and 5.07%
    have no winner, so 0.1592 / 0.9493 = 16.8% of won games — unfair per side (⅓) and per
    seat (⅕, −3.24 pp); 2v3's team of two is 45 games from being noticed at the table
    (δ = −20.9 pp, p = ½: 7.849 · 0.25 / 0.209² = 45)."""
    page = (RESULTS / "report.html").read_text()
    card = page[page.index('id="card-teams"'):page.index('id="card-veto"')]
    text = re.sub(r"<[^>]+>", "", card)
    assert ("2v3: per side unfair (side A: share of won games against 50.0%: 29.1%, "
            "−20.9 pp [−21.3, −20.5] greedy") in text
    assert ("per seat unfair (a seat of side I: share of won games against 20.0%: 16.8%, "
            "−3.24 pp [−3.65, −2.82] greedy") in text
    assert "2v2: per side fair greedy; not shown fair (side A" in text
    assert "45 greedy; 45 heuristic games; a group playing 50 games would notice it" in text
    md = (RESULTS / "report.md").read_text()
    # 3 rungs x 14 rows (2v2, 2v3: 2 sides, 2v2+1: 3 sides, each per side and per seat),
    # and the search rung's 2v2 screen (4 rows)
    assert "### Table: fairness (46 rows)" in md


def test_rare_event_bounds_are_not_printed_as_zero():
    """0 of N has a Wilson upper bound above 0 (runner/intervals.py); the report must not
    print it as 0.00: 0 of 81,920 → 3.84 / 81,924 = 0.0047%."""
    df = pd.DataFrame({"bot": ["g", "h"], "no_winner": [0.0, 0.1],
                       "ci_low": [0.0, 0.09], "ci_high": [0.0000469, 0.11]})
    rows, _ = present(df, "x", "y", 50)
    assert rows[1][1] == "0.00 <span class=ci>[0.00, 0.0047]</span>"
    from demos_sim.report.headlines import value
    assert value(0.000234, "pct") == "0.023"
