"""The README's "What we found" is generated from the sections' tables (no game played):
a spoiled figure comes back, a changed table changes the sentence, every statement names a
file that exists, safety caps are not variants, a missing column drops a sentence only."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from demos_sim.cli import main
from demos_sim.report import findings as F

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


def test_veto_sentence_is_read_from_the_table(repo):
    text = F.block(repo / "results" / "analyses", repo / "README.md")
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
    path = out / "veto" / "veto_average.csv"
    df = pd.read_csv(path)
    df.loc[df["bot"] == "greedy", ["mean_diff", "ci_low", "ci_high"]] = [-0.0123, -0.0130,
                                                                         -0.0116]
    df.to_csv(path, index=False)
    text = F.block(out, repo / "README.md")
    assert "greedy 1.23 [1.16, 1.30]" in text          # 100 × 0.0123, 0.0116, 0.0130
    assert "0.80" not in text


def test_spoiled_block_comes_back_with_report_only(repo):
    out, readme = repo / "results" / "analyses", repo / "README.md"
    assert main(["analyse", "--report-only", "--out", str(out)]) == 0   # README found
    good = readme.read_text()
    assert "old text" not in good and "0.80 [0.73, 0.87]" in good
    assert good.startswith("# Title\n") and good.endswith("## Reading the report\n")
    readme.write_text(good.replace("0.80 [0.73, 0.87]", "0.90 [0.73, 0.87]"))
    assert readme.read_text() != good
    assert main(["analyse", "--report-only", "--out", str(out), "--readme",
                 str(readme)]) == 0
    assert readme.read_text() == good
    # the report's summary says the same sentences
    assert "greedy 0.80 [0.73, 0.87], tuned 1.66 [1.42, 1.91] pp" in (
        out / "report.md").read_text()


def test_missing_readme_or_markers_are_skipped(repo, capsys):
    out, readme = repo / "results" / "analyses", repo / "README.md"
    readme.write_text("# no markers\n")
    assert main(["analyse", "--report-only", "--out", str(out)]) == 0
    assert "no generated-findings markers" in capsys.readouterr().out
    assert readme.read_text() == "# no markers\n"
    assert "no README" in F.update_readme(out, repo / "nothing.md")


def test_safety_cap_is_not_a_variant(repo):
    text = F.block(repo / "results" / "analyses", repo / "README.md")
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
    assert F.replace_block(text, F.block(RESULTS, readme)) == text
