""""What we found" is generated from the sections' tables (no game played): every statement
names a file that exists, safety caps are not variants, a missing column drops a sentence
only. The README's headline verdicts are five rows of the verdict board: a spoiled figure
comes back with `analyse --report-only`, a changed table changes the line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from demos_sim.cli import main
from demos_sim.report import findings as F
from demos_sim.report import readme as R

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results" / "analyses"

LADDER = pd.DataFrame({
    "analysis": ["veto", "media", "game_shape"],
    "figure": ["veto value, individual 4p, average over seats", "other", "other 2"],
    "bots": ["greedy < heuristic < tuned"] * 2 + ["greedy < tuned < heuristic"],
    "weakest": ["greedy"] * 3, "strongest": ["tuned", "tuned", "heuristic"],
    "verdict": ["grows with skill", "holds across skill", "uncertain"],
})

# the veto's worth at 4 players: mean_diff is the seat's win share without its veto minus
# with it, so the worth is its negation: greedy 0.80 [0.73, 0.87] pp, tuned 1.66 [1.42, 1.91]
VETO = pd.DataFrame({
    "bot": ["tuned", "greedy", "greedy"], "setup": ["individual 4p", "individual 4p",
                                                    "individual 3p"],
    "games": [32768, 131072, 131072],
    "mean_diff": [-0.0166, -0.0080, -0.0104],
    "ci_low": [-0.0191, -0.0087, -0.0112], "ci_high": [-0.0142, -0.0073, -0.0096],
})

# one variant screen: the safety cap moves most, then a rule reading
VARIANTS = pd.DataFrame({
    "setup": ["full 4p", "full 2v3", "full 2v3"], "bot": ["greedy"] * 3,
    "variant": ["round_cap", "team_points_tiebreak", "team_trio"],
    "value": ["12", "sum", "pooled"], "side": ["2", "A", "A"], "games": [81920, 40960, 40960],
    "win_share_diff": [-0.199, -0.1062, -0.009],
    "win_share_ci_low": [-0.202, -0.1091, -0.014], "win_share_ci_high": [-0.196, -0.1033, -0.004],
    "win_share_p_holm": [0.0, 0.0, 0.001],
})


def _section(folder: Path, name: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "section.json").write_text(json.dumps({
        "name": name, "title": name, "method": "m", "findings": [], "flags": [],
        "tables": [], "figures": [], "runs": []}))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository-shaped folder: README.md with the markers, results/analyses with a few
    small sections."""
    (tmp_path / ".git").mkdir()
    out = tmp_path / "results" / "analyses"
    for name, table, df in (("robustness", "ladder", LADDER), ("veto", "veto_average", VETO),
                            ("variants", "summary", VARIANTS)):
        _section(out / name, name)
        df.to_csv(out / name / f"{table}.csv", index=False)
    (tmp_path / "README.md").write_text(
        f"# Title\n\n## What we found\n\n{F.BEGIN}\nold text 43 gives 10.9%\n{F.END}\n\n"
        "## Reading the report\n")
    return tmp_path


def _block(readme: Path) -> str:
    text = readme.read_text()
    return text[text.index(F.BEGIN):text.index(F.END)]


def _said(out: Path) -> str:
    """Every finding's paragraph, its files named from the repository root."""
    return F.markdown(F.build(out, "results/analyses"))


def test_veto_sentence_is_read_from_the_table(repo):
    text = _said(repo / "results" / "analyses")
    # hand-computed: 100 × 0.0080 = 0.80 [0.73, 0.87]; 100 × 0.0166 = 1.66 [1.42, 1.91];
    # rungs weaker first (the ladder's order), the games of each rung
    assert ("greedy 0.80 [0.73, 0.87], tuned 1.66 [1.42, 1.91] pp "
            "(32,768–131,072 games a rung)") in text
    assert "**The veto is worth 0.8 to 1.7 pp of win share**" in text
    assert "skill: grows with skill, greedy to tuned" in text
    assert "(`results/analyses/veto/veto_average.csv`)" in text
    assert "−" not in text.split("Veto.")[1].split("(`")[0]      # a worth is positive


def test_changing_a_number_in_the_table_changes_the_sentence(repo):
    out = repo / "results" / "analyses"
    line = ("**What is the veto worth?** **matters**. Holding the veto adds 1.7 pp to a "
            "4-player seat's win share with tuned bots, 0.8 pp with greedy.")
    assert line in R.block(out, repo / "README.md")     # 100 × 0.0166, 100 × 0.0080
    path = out / "veto" / "veto_average.csv"
    df = pd.read_csv(path)
    df.loc[df["bot"] == "greedy", ["mean_diff", "ci_low", "ci_high"]] = [-0.0123, -0.0130,
                                                                         -0.0116]
    df.to_csv(path, index=False)
    text = R.block(out, repo / "README.md")
    assert line.replace("0.8 pp", "1.2 pp") in text     # 100 × 0.0123 = 1.23
    assert "0.8 pp" not in text
    said = _said(out)
    assert "greedy 1.23 [1.16, 1.30]" in said           # 100 × 0.0123, 0.0116, 0.0130
    assert "0.80" not in said


def test_spoiled_block_comes_back_with_report_only(repo):
    out, readme = repo / "results" / "analyses", repo / "README.md"
    assert main(["analyse", "--report-only", "--out", str(out)]) == 0   # README found
    good = readme.read_text()
    line = ("- **What is the veto worth?** **matters**. Holding the veto adds 1.7 pp to a "
            "4-player seat's win share with tuned bots, 0.8 pp with greedy.")
    assert "old text" not in good and line in good
    # the veto's answer page and its tables, beside the README
    assert ("[The answer](site/questions/veto.html) · [its tables](results/analyses/veto/)"
            in good)
    assert good.startswith("# Title\n") and good.endswith("## Reading the report\n")
    readme.write_text(good.replace("0.8 pp with greedy", "0.9 pp with greedy"))
    assert readme.read_text() != good
    assert main(["analyse", "--report-only", "--out", str(out), "--readme",
                 str(readme)]) == 0
    assert readme.read_text() == good
    # the report says the same: its board's row and the section's sentence
    report = (out / "report.md").read_text()
    assert "Holding the veto adds 1.7 pp" in report
    assert "greedy 0.80 [0.73, 0.87], tuned 1.66 [1.42, 1.91] pp" in report


def test_missing_readme_or_markers_are_skipped(repo, capsys):
    out, readme = repo / "results" / "analyses", repo / "README.md"
    readme.write_text("# no markers\n")
    assert main(["analyse", "--report-only", "--out", str(out)]) == 0
    assert "no generated-findings markers" in capsys.readouterr().out
    assert readme.read_text() == "# no markers\n"
    assert "no README" in R.update_readme(out, repo / "nothing.md")


def test_safety_cap_is_not_a_variant(repo):
    text = _said(repo / "results" / "analyses")
    assert "round_cap" not in text
    # 100 × 0.1062 = 10.62, one decimal from 10 pp up: −10.6 [−10.9, −10.3]
    assert "`team_points_tiebreak = sum` (side A, full 2v3): greedy −10.6 [−10.9, −10.3] pp" \
        in text


def test_a_missing_column_drops_a_sentence_not_the_block(repo):
    out = repo / "results" / "analyses"
    VETO.drop(columns=["mean_diff"]).to_csv(out / "veto" / "veto_average.csv", index=False)
    found = {f.section: f for f in F.build(out, "results/analyses")}
    assert "veto" not in found
    assert "variants" in found and "robustness" in found


def test_rung_order_follows_the_majority_of_the_ladder_rows(repo):
    t = F.Tables(repo / "results" / "analyses", "results/analyses")
    # two rows put tuned above heuristic, one below: tuned is the stronger
    assert t.order(["tuned", "heuristic", "greedy", "ismcts@64"]) == [
        "greedy", "heuristic", "tuned", "ismcts@64"]


def test_share_formats():
    # 1 of 16,384 games: 0.0061% (two significant digits), never "0.0"
    assert F.pct(1 / 16384, 1.0774e-5, 3.4568e-4) == "0.0061% [0.0011, 0.0346]"
    assert F.pct(0.108375, 0.1038734, 0.1129406) == "10.84% [10.39, 11.29]"
    assert F.pp(-0.0269, -0.0564, 0.0026) == "−2.69 [−5.64, +0.26] pp"


def test_every_statement_of_the_committed_sections_names_an_existing_file():
    if not (RESULTS / "robustness" / "section.json").exists():
        pytest.skip("no committed analyses")
    found = F.build(RESULTS, "results/analyses")
    assert len(found) >= 6
    for f in found:
        for s in f.statements:
            assert (ROOT / s.source).is_file(), s.source
            for quoted in (q for q in s.text.split("`") if q.startswith("results/")):
                assert (ROOT / quoted).is_file(), quoted


def test_readme_holds_the_block_the_committed_sections_give():
    """Regenerate with `demos-sim analyse --report-only` when this fails."""
    readme = ROOT / "README.md"
    text = readme.read_text()
    assert F.BEGIN in text and F.END in text
    assert F.replace_block(text, R.block(RESULTS, readme)) == text
    # five headline verdicts, each linking its answer page (a page of the site's
    # navigation) and its tables (a committed folder)
    lines = [x for x in _block(readme).splitlines() if x.startswith("- **")]
    assert len(lines) == len(R.headlines()) == 5
    nav = (ROOT / "mkdocs.yml").read_text()
    for line in lines:
        page, tables = re.findall(r"\]\(([^)]+)\)", line)
        assert page.startswith("site/questions/") and page.endswith(".html")
        assert f"- questions/{page[len('site/questions/'):-len('.html')]}.md" in nav, page
        assert (ROOT / tables).is_dir(), tables


# ------------------------------------------------------------- the new tables
def _write(out: Path, name: str, table: str, df: pd.DataFrame) -> None:
    if not (out / name / "section.json").exists():
        _section(out / name, name)
    df.to_csv(out / name / f"{table}.csv", index=False)


def _found(repo: Path) -> dict[str, F.Finding]:
    return {f.section: f for f in F.build(repo / "results" / "analyses", "results/analyses")}


def _dilemma_rows(bot, lone, users, every, games=32768):
    (l, ll, lh), (u, ul, uh), (e, el, eh) = lone, users, every
    return {"bot": bot, "players": 4, "seat": "average", "games": games,
            "lone_worth": l, "lone_worth_ci_low": ll, "lone_worth_ci_high": lh,
            "users_games": 131072, "users_worth": u, "users_worth_ci_low": ul,
            "users_worth_ci_high": uh, "everyone_change": e, "everyone_change_ci_low": el,
            "everyone_change_ci_high": eh}


def test_the_dilemma_is_read_from_its_table(repo):
    """veto_dilemma.csv, average seat: greedy's lone worth [1.00, 1.40] pp and worth among
    users [0.60, 1.00] pp are both above 0 (using it pays whatever the others do) and
    everyone vetoing costs a seat [−0.50, −0.10] pp: a social dilemma. tuned's
    everyone-vs-nobody [−0.20, +0.40] crosses 0: not shown either way. A seat row (not
    the average) is not quoted."""
    out = repo / "results" / "analyses"
    seat0 = dict(_dilemma_rows("greedy", (0.5, 0.4, 0.6), (0.5, 0.4, 0.6), (0.5, 0.4, 0.6)),
                 seat="0")
    _write(out, "veto", "veto_dilemma", pd.DataFrame([
        seat0,
        _dilemma_rows("tuned", (0.0150, 0.0120, 0.0180), (0.0166, 0.0142, 0.0191),
                      (0.0010, -0.0020, 0.0040)),
        _dilemma_rows("greedy", (0.0120, 0.0100, 0.0140), (0.0080, 0.0060, 0.0100),
                      (-0.0030, -0.0050, -0.0010))]))
    text = _said(out)
    assert ("**The veto is a social dilemma at greedy; worth using whatever the others do, "
            "but whether everyone using it leaves a seat worse off is not shown either way "
            "at tuned**") in text
    # 100 × 0.0120 = 1.20 …, weaker rung first (the ladder: greedy < heuristic < tuned)
    assert ("worth to a lone user among abstainers greedy +1.20 [+1.00, +1.40], tuned "
            "+1.50 [+1.20, +1.80] pp (32,768 games a rung)") in text
    assert "to one user among users greedy +0.80 [+0.60, +1.00], tuned +1.66" in text
    assert ("everyone using it rather than nobody changes a seat's win share by greedy "
            "−0.30 [−0.50, −0.10], tuned +0.10 [−0.20, +0.40] pp") in text
    assert "50.0" not in text and "(`results/analyses/veto/veto_dilemma.csv`)" in text
    # a lone worth whose interval crosses 0: not shown to pay
    r = pd.Series(_dilemma_rows("g", (0.001, -0.001, 0.003), (0.01, 0.005, 0.015),
                                (-0.01, -0.02, -0.005)))
    assert F.dilemma_reading(r) == "not shown to pay whatever the others do"


def test_value_to_the_tuned_player_never_says_best_response(repo):
    """media_best_response.csv: the average over the seats 1.45 [1.31, 1.59] pp, seats
    from 1.29 to 1.57, 0.85 actions a game, 1.71 [1.54, 1.87] pp an action."""
    out = repo / "results" / "analyses"
    _write(out, "media", "media_best_response", pd.DataFrame({
        "field": ["tuned"] * 3, "holder": ["media_br"] * 3, "seat": ["0", "1", "average"],
        "games": [32768] * 3, "worth": [0.0129, 0.0157, 0.0145],
        "worth_ci_low": [0.0115, 0.0142, 0.0131], "worth_ci_high": [0.0143, 0.0172, 0.0159],
        "actions_ref": [0.80, 0.90, 0.85], "worth_per_action": [0.0161, 0.0174, 0.0171],
        "worth_per_action_ci_low": [0.0144, 0.0158, 0.0154],
        "worth_per_action_ci_high": [0.0179, 0.0191, 0.0187]}))
    text = _said(out)
    assert ("Value to the tuned player: among tuned players, its Media actions are worth "
            "+1.45 [+1.31, +1.59] pp of win share to one seat") in text
    assert "seat 0 +1.29 [+1.15, +1.43] to seat 1 +1.57 [+1.42, +1.72]" in text
    assert "at 0.85 a game, one Media action is worth +1.71 [+1.54, +1.87] pp" in text
    assert "best response" not in text.lower().replace("media_best_response.csv", "")


def _fair(mode, side, size, d, parity, share, diff, ci90, verdict, games=49152):
    lo90, hi90 = ci90
    return {"bot": "greedy", "mode": mode, "option": "default", "side": side,
            "side_size": size, "games": games, "definition": d, "share_won": share,
            "parity": parity, "diff": diff, "ci_low": lo90 - 0.001, "ci_high": hi90 + 0.001,
            "ci90_low": lo90, "ci90_high": hi90, "margin": 0.01, "p_tost": 0.5,
            "verdict": verdict, "verdict_text": "old text"}


def test_team_verdicts_carry_their_90_intervals(repo):
    """fairness.csv: 2v3's side A wins 29.1% of the won games: per side −20.9 pp from ½,
    90% [−21.2, −20.6], wholly below −1 pp: unfair; per seat it is held to its seats'
    share ⅖ (fairness.py): 29.1 − 40 = −10.9 pp, 90% [−11.2, −10.6]: unfair. In 2v2 the
    two parities are the same (½ = 2/4): one test. Sides as far from parity: the one
    behind is quoted (2v3: A at −20.9, not B at +20.5; 2v2: B at −0.2, not A at +0.2)."""
    out = repo / "results" / "analyses"
    _write(out, "teams", "fairness", pd.DataFrame([
        _fair("2v2", "A", 2, "per side", 0.5, 0.502, 0.002, (-0.003, 0.007), "fair"),
        _fair("2v2", "B", 2, "per side", 0.5, 0.498, -0.002, (-0.007, 0.003), "fair"),
        _fair("2v2", "A", 2, "per seat", 0.5, 0.502, 0.002, (-0.003, 0.007), "fair"),
        _fair("2v2", "B", 2, "per seat", 0.5, 0.498, -0.002, (-0.007, 0.003), "fair"),
        _fair("2v3", "A", 2, "per side", 0.5, 0.291, -0.209, (-0.2124, -0.2056), "unfair"),
        _fair("2v3", "B", 3, "per side", 0.5, 0.709, 0.205, (0.2016, 0.2084), "unfair"),
        _fair("2v3", "A", 2, "per seat", 0.4, 0.291, -0.109, (-0.1124, -0.1056), "unfair"),
        _fair("2v3", "B", 3, "per seat", 0.6, 0.709, 0.105, (0.1016, 0.1084), "unfair")]))
    text = _said(out)
    assert ("**2v3 per side**: greedy side A unfair: −20.9 pp, 90% [−21.2, −20.6] beyond "
            "±1 pp (49,152 games a rung)") in text
    assert ("**2v3 per seat**: greedy side A unfair: −10.9 pp, 90% [−11.2, −10.6] beyond "
            "±1 pp") in text
    # every side fair and as far from parity: the side behind (B) is quoted
    assert ("**2v2 per side**: greedy side B fair: −0.2 pp, 90% [−0.7, +0.3] within ±1 pp"
            in text)
    assert "**2v2 per seat**: the same test as per side" in text
    assert "a side's parity is its seats' share of the table, size/n" in text
    assert "old text" not in text and "per seat 1/n" not in text


def test_fresh_deals_name_their_own_worst_side(repo):
    """confirm.csv: the screen's worst side was A, the replay's is B (worst_side); the
    sentence quotes B's verdict, U +0.44 [−0.07, +0.95] pp of all games and best −
    default −10.0 [−11.0, −9.0] pp (100 × 0.100, one decimal from 10 pp)."""
    out = repo / "results" / "analyses"
    base = {"bot": "greedy", "mode": "2v3", "screen": "pairs", "games": 163840,
            "option": "seating=ABABA, handicap_points=40", "screen_worst_side": "A"}
    _write(out, "teams", "confirm", pd.DataFrame([
        {**base, "role": "best", "worst_side": "B", "unfairness": 0.0044, "ci_low": -0.0007,
         "ci_high": 0.0095, "fair_per_side": "not shown fair",
         "worst_side_verdict": "B: not shown fair: +0.8 pp, 90% [+0.1, +1.5], margin ±1 pp"},
        {**base, "role": "best - default", "worst_side": "", "unfairness": float("nan"),
         "ci_low": float("nan"), "ci_high": float("nan"), "fair_per_side": "",
         "worst_side_verdict": "", "diff": -0.100, "diff_ci_low": -0.110,
         "diff_ci_high": -0.090}]))
    text = _said(out)
    assert "**No change tried makes 2v3 fair**" in text
    assert ("`seating=ABABA, handicap_points=40`: greedy worst side B: not shown fair: "
            "+0.8 pp, 90% [+0.1, +1.5], margin ±1 pp (U +0.44 [−0.07, +0.95] pp of all "
            "games; best − default −10.0 [−11.0, −9.0]) (163,840 games a rung)") in text
    assert "worst side A" not in text


LADDER_NEW = pd.DataFrame({
    "analysis": ["veto", "veto", "media", "media"],
    "figure": ["veto value, individual 4p, average over seats", "f2", "f3", "f4"],
    "bots": ["greedy < heuristic < tuned"] * 3 + ["civic"],
    "weakest": ["greedy"] * 3 + [None], "strongest": ["tuned"] * 3 + [None],
    "unit": ["share"] * 4, "margin": [0.01] * 4,
    "change": [0.0086, 0.002, 0.01, None],
    "change_ci90_low": [0.0160, -0.004, -0.02, None],
    "change_ci90_high": [0.0212, 0.008, 0.04, None],
    "verdict": ["grows with skill", "holds across skill", "uncertain", "no skill order"],
    "reason": ["", "", "no rung detects an effect; not enough games at the strongest rung "
               "(tuned, ±3.1 pp) to tell: …", "fewer than two of its bots"],
})


def test_skill_labels_say_what_they_mean(repo):
    """A ladder with margins: the counts (the figure without a skill order apart), what
    each label means (holds = the change's 90% interval inside the margin) and why the
    uncertain one is (games at the strongest rung)."""
    out = repo / "results" / "analyses"
    _write(out, "robustness", "ladder", LADDER_NEW)
    text = _said(out)
    assert ("**Labels of 3 figures measured at two rungs or more**, from the weakest rung "
            "to the strongest (rungs in the order the committed ladder measured; Holm over "
            "the 3 figures for each kind of claim): 1 hold across skill, 1 grow with skill, "
            "1 uncertain") in text
    assert ("**holds across skill**: the change from the weakest rung to the strongest "
            "and the trend over every rung both have their 90% interval inside the "
            "figure's margin (TOST)") in text
    assert "(1 for want of games at the strongest rung)" in text
    assert "without a label (fewer than two rungs the ladder measured): 1 figure" in text
    # the veto sentence carries its figure's label and margin
    assert "skill: grows with skill, greedy to tuned, margin ±1 pp" in text


def test_card_skill_line_reads_the_ladder_labels(repo):
    """headlines.skill: the quoted figure grows beyond its margin → "~ Its size depends";
    quoting only the one that holds → "✓ Holds across skill"; the uncertain one → "~ Not
    settled" with its reason."""
    from demos_sim.report.headlines import skill

    out = repo / "results" / "analyses"
    _write(out, "robustness", "ladder", LADDER_NEW)
    cls, s = skill(out, "veto", ["veto value, individual 4p, average over seats"])
    assert cls == "warn" and s.startswith("~ Its size depends on bot skill: of the 1 "
                                          "figure quoted above, 1 grows or shrinks beyond "
                                          "its margin")
    assert "rungs greedy &lt; heuristic &lt; tuned" in s
    assert "all 2 labelled figures of this analysis: 1 hold across skill, 1 grow" in s
    cls, s = skill(out, "veto", ["f2"])
    assert cls == "ok" and s.startswith("✓ Holds across skill")
    assert "lies within each figure's margin (90% interval, TOST, Holm)" in s
    cls, s = skill(out, "media", ["f3"])
    assert cls == "warn" and "1 uncertain (1 for want of games at the strongest rung)" in s


def test_ladder_table_shows_a_readable_subset_with_90_intervals():
    """robustness/ladder.csv in the report: the label and what it rests on (the change
    with its 90% interval, the margin), shares in pp and a figure in rounds as stored."""
    from demos_sim.report.tables import label, present, shown

    df = pd.DataFrame({
        "analysis": ["veto", "game_shape"], "figure": ["v", "rounds per game"],
        "ladder": ["demos"] * 2, "bots": ["greedy < tuned"] * 2, "unit": ["share", "per game"],
        "mean_weakest": [0.0123, 13.5], "ci_low_weakest": [0.0113, 13.3],
        "ci_high_weakest": [0.0133, 13.7], "margin": [0.01, 1.35],
        "change": [0.0050, 0.2], "change_ci_low": [0.0010, -0.3], "change_ci_high": [0.0090, 0.7],
        "change_ci90_low": [0.0017, -0.2], "change_ci90_high": [0.0083, 0.6],
        "p_equiv": [0.2, 0.01], "verdict": ["uncertain", "holds across skill"],
        "reason": ["r", ""]})
    sub, note = shown(df, "robustness", "ladder")
    assert "change_ci_low" not in sub and "p_equiv" not in sub and "ladder" not in sub
    # 17 columns less ladder, change_ci_low, change_ci_high and p_equiv
    assert note.startswith("13 of its 17 columns shown")
    rows, _ = present(sub, "robustness", "ladder", 50)
    head = rows[0]
    change = next(i for i, h in enumerate(head) if h.startswith("change, weakest"))
    assert "[90% CI]" in head[change]
    # 100 × 0.0050 = +0.50 pp, 90% [+0.17, +0.83]; the rounds row as stored
    assert rows[1][change] == "+0.50 <span class=ci>[+0.17, +0.83]</span>"
    assert rows[2][change] == "0.2 <span class=ci>[-0.2, 0.6]</span>"
    margin = next(i for i, h in enumerate(head) if h.startswith("margin"))
    assert rows[1][margin] == "1.00" and rows[2][margin] == "1.35"
    # the per-seat share is the side's share of won games (fairness.py), not one seat's
    assert "one seat's" not in label("teams", "fairness", "share_won", True)[0]


def test_summary_cards_are_the_findings(repo):
    """The report's veto section says the README's sentence (the worth, positive) and none of
    the old hand-built wording."""
    out = repo / "results" / "analyses"
    from demos_sim.report.analyses import build_analyses_report

    html_path, _ = build_analyses_report(out, ["veto", "variants", "robustness"])
    page = html_path.read_text()
    card = page[page.index('<section id="veto"'):page.index('<section id="variants"')]
    assert "greedy 0.80 [0.73, 0.87], tuned 1.66 [1.42, 1.91] pp" in card
    assert "on average over the seats, the veto is worth" not in card
    assert "How much is the veto worth" in card
