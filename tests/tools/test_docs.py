"""The documentation site (mkdocs-material, ``make docs``) builds strictly, with every
generated page, and a broken link or anchor stops the build. The generated pages come from
the parsers, the rules and the committed analyses: the command-line reference is made
without compiling a numba kernel, and the Carré table reads its CSV as a designer would."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
MKDOCS = Path(sys.executable).with_name("mkdocs")


def build(config: Path, site: Path, run: bool = True) -> subprocess.CompletedProcess:
    """``mkdocs build --strict``; ``run=False`` leaves out the sample runs of the pages
    (``DEMOS_SIM_DOCS_RUN=0``: the tests of broken links need no games played)."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", DEMOS_SIM_DOCS_RUN="1" if run else "0")
    return subprocess.run([str(MKDOCS), "build", "--strict", "-f", str(config),
                           "--site-dir", str(site)], capture_output=True, text=True,
                          env=env, timeout=300, cwd=config.parent)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    if not MKDOCS.exists():
        pytest.fail("mkdocs is not installed: pip install -e '.[test]'")
    out = tmp_path_factory.mktemp("site")
    p = build(ROOT / "mkdocs.yml", out)
    assert p.returncode == 0, p.stderr[-3000:]
    return out


def test_every_designer_question_has_its_answer_page(site):
    from demos_sim.report.docs_pages import QUESTIONS

    assert len(QUESTIONS) == 8
    for q in QUESTIONS:
        html = (site / "questions" / f"{q.slug}.html").read_text()
        assert "The answer" in html and "Not measured here" not in html, q.slug
        # every plot it shows was copied into the site
        for src in re.findall(r'<img[^>]+src="([^"]+)"', html):
            assert (site / "questions" / src).resolve().is_file(), (q.slug, src)
    carre = (site / "questions" / "carre-and-points.html").read_text()
    assert "The Carré's points, screened" in carre


def test_the_cli_reference_holds_every_command_help(site):
    import argparse

    from demos_sim.cli import build_parser

    html = (site / "reference" / "cli.html").read_text()
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert len(sub.choices) >= 14
    for name, parser in sub.choices.items():
        assert f'id="{name}"' in html, name
        for action in parser._actions:           # every option of every command is shown
            for flag in action.option_strings:
                assert flag in html, (name, flag)


def test_the_variants_page_lists_every_variant_with_its_default(site):
    from demos_sim.game import GAMES, get_game

    html = (site / "reference" / "variants.html").read_text()
    for g in GAMES:
        for name in get_game(g).variant_names():
            assert f"<code>{name}</code>" in html, (g, name)
    assert "<code>handicap_points</code>" in html          # a trial rule, apart
    row = re.search(r"<code>carre_points</code></td>\s*<td><code>(\d+)</code>", html)
    assert row and int(row.group(1)) == get_game("demos").variant_defaults()["carre_points"]


def test_sample_outputs_are_made_by_the_build(site):
    """The simulate and what-if pages show what simulate and compare printed when the site
    was built (the command line, then its output), not a pasted copy."""
    html = (site / "reference" / "simulate.html").read_text()
    run = re.search(r"\$ demos-sim simulate --games 20000 --seed 1 --policies greedy\n"
                    r"DĒMOS, rules full, mode individual, 4 players, policies greedy, seed 1\n"
                    r"20000 games, \d+ rounds", html)
    assert run, "the simulate sample run is missing"
    assert "not run in this build" not in html
    html = (site / "how-to" / "what-if.html").read_text()
    assert re.search(r"\$ demos-sim compare --set carre_points=40 --games 10000\n"
                     r"DĒMOS: carre_points=40 against contract defaults, 10000 games", html)


def test_record_format_and_demo_output(site):
    rec = (site / "reference" / "record-format.html").read_text()
    if (ROOT.parent / "shared" / "GAME_RECORD.md").is_file():
        assert "Card notation" in rec                     # the contract's own text
    else:
        assert "../shared/GAME_RECORD.md" in rec
    demo = (site / "start" / "demo-output.html").read_text()
    assert "experiment demo:" in demo and "carre_points=60" in demo


@pytest.mark.parametrize("fault, expect", [
    ("[a page that is not there](nowhere.md)", "nowhere.md"),
    ("[an anchor that is not there](reference/cli.md#no-such-command)", "no-such-command"),
])
def test_a_broken_link_fails_the_strict_build(tmp_path, fault, expect):
    """The same site with one broken link in its first page does not build."""
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    index = tmp_path / "docs" / "index.md"
    index.write_text(index.read_text() + f"\n{fault}\n")
    p = build(tmp_path / "mkdocs.yml", tmp_path / "site", run=False)
    assert p.returncode != 0
    assert expect in p.stderr + p.stdout


def test_a_page_in_docs_that_is_also_generated_is_refused(tmp_path):
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    (tmp_path / "docs" / "reference" / "cli.md").write_text("# typed by hand\n")
    p = build(tmp_path / "mkdocs.yml", tmp_path / "site", run=False)
    assert p.returncode != 0
    assert "reference/cli.md is generated" in p.stderr + p.stdout


HOOK = """
import numba.core.dispatcher as d

def refuse(self, sig):
    raise SystemExit(f"COMPILED {self.py_func.__module__}.{self.py_func.__qualname__}")

d.Dispatcher.compile = refuse
from demos_sim.docs_site import cli_reference, command_help, variants_reference
print(len(cli_reference()), len(variants_reference()), len(command_help("run")))
"""


def test_the_cli_and_variants_reference_compile_no_kernel(tmp_path):
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    env.pop("NUMBA_DISABLE_JIT", None)
    p = subprocess.run([sys.executable, "-c", HOOK], capture_output=True, text=True,
                       env=env, timeout=120)
    assert "COMPILED" not in p.stderr, p.stderr[-2000:]
    assert p.returncode == 0, p.stderr[-2000:]
    assert [f for f in cache.rglob("*") if f.is_file()] == []


def test_command_help_of_a_command_this_version_lacks():
    from demos_sim.docs_site import command_help

    assert command_help("no-such-command") == (
        "*This version of demos-sim has no `no-such-command` command yet.*")
    assert command_help("compare").startswith("```text\nusage: demos-sim compare")


def test_the_carre_table_reads_the_variant_screen(tmp_path):
    """Two rungs, one Carré value each: the seat that moved most (by size, a negative move
    included), the no-winner and rounds differences, the verdict; a rung's rows in ladder
    order; other variants left out."""
    from demos_sim.report.docs_pages import carre_table

    rows = []
    for bot, rung, value, seats, nw, rd in [
            ("tuned", 2, "45", [0.001, -0.0123, 0.004, 0.0], 0.0051, -0.25),
            ("greedy", 0, "45", [0.002, 0.001, 0.0, 0.0], -0.0002, 0.5)]:
        for s, d in enumerate(seats):
            rows.append((bot, rung, "carre_points", value, "win_share", str(s), d))
        rows.append((bot, rung, "carre_points", value, "no_winner", "all", nw))
        rows.append((bot, rung, "carre_points", value, "rounds", "all", rd))
    rows.append(("greedy", 0, "max_rounds", "8", "win_share", "0", 0.09))
    ef = pd.DataFrame(rows, columns=["bot", "rung", "variant", "value", "metric", "side",
                                     "diff"])
    ef["setup"], ef["games"] = "DĒMOS full individual 4p", 20480
    ef["diff_ci_low"], ef["diff_ci_high"] = ef["diff"] - 0.001, ef["diff"] + 0.001
    (tmp_path / "variants").mkdir()
    ef.to_csv(tmp_path / "variants" / "effects.csv", index=False)
    pd.DataFrame({"setup": ["DĒMOS full individual 4p"] * 2, "bot": ["greedy", "tuned"],
                  "variant": ["carre_points"] * 2, "value": [45, 45],
                  "verdict": ["does not matter", "matters"]}).to_csv(
        tmp_path / "variants" / "summary.csv", index=False)
    lines = [s for s in carre_table(tmp_path).splitlines() if s.startswith("| DĒMOS")]
    assert lines == [
        "| DĒMOS full individual 4p | greedy | 45 | 20,480 | seat 0 +0.20 [+0.10, +0.30] pp "
        "| −0.02 [−0.12, +0.08] pp | +0.50 [+0.50, +0.50] | does not matter |",
        "| DĒMOS full individual 4p | tuned | 45 | 20,480 | seat 1 −1.23 [−1.33, −1.13] pp "
        "| +0.51 [+0.41, +0.61] pp | −0.25 [−0.25, −0.25] | matters |"]
    assert "max_rounds" not in carre_table(tmp_path)


def test_answer_pages_without_analyses_say_so(tmp_path):
    from demos_sim.report.docs_pages import QUESTIONS, pages

    made = pages(tmp_path / "nothing")
    for q in QUESTIONS:
        assert "Not measured here" in made[f"questions/{q.slug}.md"]
    assert not [p for p in made if p.startswith("data/")]


def test_the_readme_is_short_and_its_links_resolve():
    """Its links name committed files, or answer pages of the site that `make docs` builds
    into site/ (the README's headline verdicts link them)."""
    from demos_sim.report.docs_pages import QUESTIONS

    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 150
    built = {f"site/questions/{q.slug}.html" for q in QUESTIONS}
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        if target.startswith("site/"):
            assert target in built, target
        elif "://" not in target:
            assert (ROOT / target).exists(), target


def test_the_strong_play_page_reads_results_belief(tmp_path):
    """The page's figures come from the CSVs (a figure changed there changes on the page);
    without results it says so instead of failing the site."""
    import pandas as pd

    from demos_sim.docs_site import strong_play

    assert "Not available" in strong_play(tmp_path / "none")
    pd.DataFrame([dict(match="m", a="belief@64", b="heuristic", seed=11, deals=1234,
                       games=2468, win_share=0.5312, ci95_low=0.51, ci95_high=0.552,
                       wins_per_game_diff=0.0123, diff_ci95_low=-0.004, diff_ci95_high=0.03)]
                 ).to_csv(tmp_path / "strength.csv", index=False)
    pd.DataFrame([dict(gap_closure=0.25, ci95_low=0.1, ci95_high=0.4, deals=1234)]).to_csv(
        tmp_path / "gap_closure.csv", index=False)
    pd.DataFrame([dict(policy="tuned", eps=0.1, temp=4.0, kind="all", round=None,
                       decisions=10, gain_nats=1.5, gain_se=0.1, card_gain_nats=0.04,
                       card_gain_se=0.01, ess_share=0.5, belief_default=True),
                  dict(policy="tuned", eps=0.1, temp=4.0, kind="secret", round=None,
                       decisions=4, gain_nats=0.75, gain_se=0.2, card_gain_nats=0.02,
                       card_gain_se=0.01, ess_share=0.4, belief_default=True)]).to_csv(
        tmp_path / "inference_quality_tuned.csv", index=False)
    page = strong_play(tmp_path)
    assert "| `belief@64` | `heuristic` | 1,234 (seed 11) | 53.1% [51.0%, 55.2%] | " \
           "+0.0123 [-0.0040, +0.0300] |" in page
    assert "= 25.0% [10.0%, 40.0%] on 1,234 common deals" in page
    assert "| 4 (belief's) | 10 | +1.500 ± 0.100 | +0.040 ± 0.010 | 50.0% |" in page
    assert "| the secret turn (D3.3) | 4 | +0.750 ± 0.200 |" in page


def test_the_strong_play_page_says_whether_assemblee_needs_inference(tmp_path):
    """The L'Assemblée verdict reads results/belief/assemblee_inference.csv: no check that
    changed gives "No"; one decision changed by the redraw turns it."""
    import pandas as pd

    from demos_sim.docs_site import assemblee_inference

    assert assemblee_inference(tmp_path) == []
    row = dict(setup="10 players", players=10, policies="adaptive,civic", games=7,
               decisions_checked=12345, boards_differing=0, observations_changed=0,
               decisions_changed=0, seed=5)
    pd.DataFrame([row]).to_csv(tmp_path / "assemblee_inference.csv", index=False)
    page = "\n".join(assemblee_inference(tmp_path))
    assert "**No**" in page and "| 10 players | adaptive, civic | 7 | 12,345 | 0 | 0 |" in page
    pd.DataFrame([{**row, "decisions_changed": 3}]).to_csv(
        tmp_path / "assemblee_inference.csv", index=False)
    page = "\n".join(assemblee_inference(tmp_path))
    assert "**No**" not in page and "3 checks found an action" in page


def test_a_skill_marker_shows_the_committed_trace(tmp_path):
    """``<!-- skill: FOLDER -->`` puts results/skill/FOLDER/skill.md there, its title a
    heading under the page's ### section; a missing trace is said, not an error."""
    from demos_sim.docs_site import skill_markdown

    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "skill.md").write_text("# Skill trace: x\n\nOne sentence.\n")
    assert skill_markdown("t", tmp_path) == "#### Skill trace: x\n\nOne sentence.\n"
    assert "Not available" in skill_markdown("none", tmp_path)
