"""The verdict board at the top of the analyses report is generated from the analyses'
tables: a spoiled figure in a table changes its row (light, sentence, plot), every sentence
is short, the summary stays under 500 words, and "noticed in 50 games" is the power of
the stated test."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pandas as pd
import pytest

from demos_sim.report import board as B

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results" / "analyses"
TOP = "apprentice"      # the strongest DĒMOS rung that plays every game (DEMOS_RUNGS)
KEYS = ["teams", "veto", "media", "carre", "seats", "levels", "assemblee", "change"]


@pytest.fixture(scope="module")
def rows():
    return {r.key: r for r in B.board_rows(RESULTS)}


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The committed sections' tables in a temporary folder (no plots, no runs)."""
    out = tmp_path / "analyses"
    for sec in RESULTS.glob("*/section.json"):
        (out / sec.parent.name).mkdir(parents=True)
        for f in sec.parent.glob("*.csv"):
            shutil.copy(f, out / sec.parent.name / f.name)
    return out


def test_one_row_per_question_each_short_with_lights_and_a_plot(rows):
    assert list(rows) == KEYS
    for r in rows.values():
        assert 5 <= r.words() <= B.MAX_WORDS, (r.key, r.sentence)
        assert r.lights and all(li.verdict in B.WORDS for li in r.lights)
        assert 0 <= r.noticed <= 1
        svg = B.svg(r)
        assert svg.startswith("<svg") and svg.count("<circle") >= 1


def test_the_team_lights_are_the_tost_verdicts_of_fairness_csv(rows):
    """Each mode's light is its verdict at the quoted rung (TOP): unfair when a side's
    90% interval lies beyond the margin; the sentence quotes 2v3's side A in pp."""
    fa = pd.read_csv(RESULTS / "teams" / "fairness.csv")
    fa = fa[(fa["option"] == "default") & (fa["definition"] == "per side")
            & (fa["bot"] == TOP)]
    r = rows["teams"]
    assert r.rung == TOP
    for li in r.lights:
        g = fa[fa["mode"] == li.label]
        beyond = ((g["ci90_high"] < -g["margin"]) | (g["ci90_low"] > g["margin"])).any()
        inside = ((g["ci90_low"] > -g["margin"]) & (g["ci90_high"] < g["margin"])).all()
        assert li.verdict == ("unfair" if beyond else "fair" if inside else "not shown fair")
    a = fa[(fa["mode"] == "2v3") & (fa["side"] == "A")].iloc[0]
    assert f"2v3 unfair (A {100 * a['diff']:+.1f} pp)".replace("-", "−") in r.sentence


def test_the_veto_row_quotes_veto_average_csv(rows):
    v = pd.read_csv(RESULTS / "veto" / "veto_average.csv")
    t = v[(v["setup"] == "individual 4p") & (v["bot"] == TOP)].iloc[0]
    r = rows["veto"]
    assert f"adds {100 * t['worth']:.1f} pp" in r.sentence
    # matters only when the whole 90% interval (from the 95% one: ×1.645/1.960) lies
    # beyond ±1 pp
    half90 = (t["worth_ci_high"] - t["worth_ci_low"]) / 2 * 1.6449 / 1.9600
    lo90 = t["worth"] - half90
    assert r.lights[0].verdict == ("matters" if lo90 > 0.01 else
                                   "does not matter" if t["worth"] + half90 < 0.01 else
                                   "not shown either way")


def test_the_carre_row_reads_the_variant_screen(rows):
    """The Carré's light is the variant screen's TOST over every seat's win share at the
    quoted rung: 'does not matter' only when every seat is shown equivalent."""
    ef = pd.read_csv(RESULTS / "variants" / "effects.csv")
    c = ef[(ef["variant"] == "carre_points") & (ef["metric"] == "win_share")
           & (ef["bot"] == rows["carre"].rung)]
    light = next(li for li in rows["carre"].lights if li.label == "Carré")
    if c["beyond"].any():
        assert light.verdict == "matters"
    elif c["equivalent"].all():
        assert light.verdict == "does not matter"
        big = c.loc[c["diff"].abs().idxmax()]
        assert f"{abs(100 * big['diff']):.2f} pp" in rows["carre"].sentence
    else:
        assert light.verdict == "not shown either way"
    assert "Carré" in rows["carre"].sentence


def test_spoiled_figures_change_their_rows(copy):
    before = {r.key: r for r in B.board_rows(copy)}
    # the veto worth at the top rung: 0.20 [0.15, 0.25] pp, inside ±1 pp
    p = copy / "veto" / "veto_average.csv"
    v = pd.read_csv(p)
    i = v.index[(v["setup"] == "individual 4p") & (v["bot"] == TOP)][0]
    v.loc[i, ["worth", "worth_ci_low", "worth_ci_high"]] = [0.0020, 0.0015, 0.0025]
    v.loc[i, ["mean_diff", "ci_low", "ci_high"]] = [-0.0020, -0.0025, -0.0015]
    v.to_csv(p, index=False)
    # 2v3 at the top rung: both sides within 0.2 pp of parity, 90% inside ±1 pp
    p = copy / "teams" / "fairness.csv"
    fa = pd.read_csv(p)
    m = (fa["mode"] == "2v3") & (fa["bot"] == TOP)
    sign = fa.loc[m, "side"].map({"A": -1, "B": 1})
    fa.loc[m, "diff"] = 0.002 * sign
    fa.loc[m, "ci90_low"] = 0.002 * sign - 0.003
    fa.loc[m, "ci90_high"] = 0.002 * sign + 0.003
    fa.loc[m, "verdict"] = "fair"
    fa.to_csv(p, index=False)
    # a Carré of 15 moves seat 1 by +3 pp at the top rung, beyond the margin
    p = copy / "variants" / "effects.csv"
    ef = pd.read_csv(p)
    m = ((ef["variant"] == "carre_points") & (ef["value"].astype(str) == "15")
         & (ef["bot"] == TOP) & (ef["metric"] == "win_share")
         & (ef["side"].astype(str) == "1"))
    ef.loc[m, ["diff", "ci90_low", "ci90_high", "beyond", "equivalent"]] = \
        [0.03, 0.025, 0.035, True, False]
    ef.to_csv(p, index=False)
    after = {r.key: r for r in B.board_rows(copy)}

    # the committed worth at the top rung is not inside the margin (1.1 pp at apprentice,
    # not shown either way): the spoiled one is
    assert before["veto"].lights[0].verdict != "does not matter"
    assert after["veto"].lights[0].verdict == "does not matter"
    assert "adds 0.2 pp" in after["veto"].sentence
    assert after["veto"].noticed < before["veto"].noticed
    assert B.svg(after["veto"]) != B.svg(before["veto"])

    mode = {li.label: li.verdict for li in after["teams"].lights}
    assert mode["2v3"] == "fair"
    assert "2v3 fair (" in after["teams"].sentence
    assert "2v3 unfair" in before["teams"].sentence

    car = {li.label: li.verdict for li in after["carre"].lights}
    assert car["Carré"] == "matters"
    assert "A Carré of 15 points (default 30) moves a seat's win share by +3.00 pp" in \
        after["carre"].sentence
    # the other rows did not move
    for k in ("media", "seats", "levels", "assemblee", "change"):
        assert after[k].sentence == before[k].sentence


def test_a_missing_table_drops_its_row_only(copy):
    (copy / "media" / "swing.csv").unlink()
    keys = [r.key for r in B.board_rows(copy)]
    assert "media" not in keys and len(keys) == len(KEYS) - 1


def test_noticed_is_the_power_of_the_two_sided_test():
    """By hand, z₀.₉₇₅ = 1.95996: one setting against parity ½, d = 20 pp, 50 games:
    shift 0.2·√50/0.5 = 2.8284, power Φ(0.8685) + Φ(−4.7884) = 0.8074; two settings from
    p₀ = 25% to 35%, 25 games each: sd √(0.1875 + 0.2275) = 0.64420, shift 0.1·5/0.6442 =
    0.77615, power Φ(−1.18381) + Φ(−2.73611) = 0.11824 + 0.00311 = 0.1214."""
    assert B.noticed(0.2, 0.5, False) == pytest.approx(0.8074, abs=2e-4)
    assert B.noticed(-0.2, 0.5, False) == pytest.approx(0.8074, abs=2e-4)
    assert B.noticed(0.1, 0.25, True) == pytest.approx(0.1214, abs=2e-4)
    assert B._pct(0.001) == "<1%" and B._pct(0.9999) == ">99%" and B._pct(0.283) == "28%"


def _board_words(page: str) -> int:
    """The words of the summary as it opens: the lead and the board, without the plots
    and without what the closed blocks hold (their summary lines count)."""
    start = page.index('<p class="lead">') if '<p class="lead">' in page else \
        page.index('<section id="board"')
    b = page[start:page.index("</section>", start)]
    b = re.sub(r"<svg.*?</svg>", " ", b, flags=re.S)
    b = re.sub(r"</summary>.*?</details>", " ", b, flags=re.S)
    b = re.sub(r"</?(p|div|h\d|section|summary|details|span)\b[^>]*>", " ", b)
    return len(re.sub(r"<[^>]+>", "", b).split())     # inline tags (abbr, b) join words


def test_the_committed_summary_is_under_500_words_and_the_report_under_1_5_mb():
    page = (RESULTS / "report.html").read_text()
    assert _board_words(page) <= 500
    assert len(page.encode()) <= 1_500_000
    # the board comes first: before the glossary and every section
    assert page.index('id="board"') < page.index('id="glossary"') < page.index(
        '<section id="veto"')
    # pp, rung, apprentice, TOST and Holm are explained where the board uses them
    start = page.index('<section id="board"')
    b = page[start:page.index("</section>", start)]
    for w in ("pp", "rung", "TOST", "Holm"):
        assert re.search(rf'<abbr title="[^"]+">{re.escape(w)}</abbr>', b), w
    assert re.search(r'<abbr title="[^"]*strongest DĒMOS rung[^"]*">apprentice( bots)?</abbr>', b)


def test_word_count_sees_a_longer_board():
    """The count the test above relies on grows with the board's words and ignores the
    closed blocks and the plots."""
    page = ('<section id="board"><p>one two (<abbr title="t">three</abbr>)</p><svg><text>x'
            " y</text></svg><details><summary>four<span>five</span></summary><p>six seven "
            "eight</p></details></section>")
    assert _board_words(page) == 5


def test_fit_keeps_clauses_within_the_word_limit_and_always_closes_the_sentence():
    from demos_sim.analysis.core.board import MAX_WORDS, fit

    head = " ".join(["w"] * (MAX_WORDS - 1))
    assert fit(head, " one", " two more", ".") == head + " one."
    long = " ".join(["w"] * (MAX_WORDS + 1))         # already over: no clause, still a "."
    assert fit(long, " one", ".") == long + "."
