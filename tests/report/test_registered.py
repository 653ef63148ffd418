"""An analysis registers once: one module (its ``REPORT``) and its line in
``names.ANALYSES``; the report's card, the verdict board, the README's verdicts, the
derived tables and the site's answer page all find it there, with nothing else edited."""

from __future__ import annotations

import importlib
import sys
import textwrap

import pandas as pd
import pytest
from PIL import Image

from demos_sim import ConfigError
from demos_sim.analysis import names
from demos_sim.analysis.core.sections import write_section
from demos_sim.report import board as B
from demos_sim.report import docs_pages
from demos_sim.report import findings as F
from demos_sim.report import readme as R
from demos_sim.report import registered
from demos_sim.report.analyses import build_analyses_report

TOY = '''
from demos_sim.analysis.core.answers import Finding, Statement, Tables, pct
from demos_sim.analysis.core.board import BoardRow, Est, Item, Light
from demos_sim.analysis.core.protocol import Derived, Page, Report, Row

TITLE = "Toy analysis"
METHOD = "A toy: one table written by the test."
EXPERIMENTS = []


def tables(runs):
    return {}


def plots(tables, folder):
    return []


def findings(tables):
    return [], []


def _answer(t: Tables) -> Finding:
    f = Finding("toy", "Toy")
    name = "toy/base.csv"
    df = t.get(name, "bot", "share", "ci_low", "ci_high")
    if df is not None:
        r = df.iloc[0]
        f.statements.append(Statement(
            "**The toy seat wins " + pct(r["share"], r["ci_low"], r["ci_high"])
            + "** of the games", t.source(name)))
    return f


def _row(t: Tables):
    name = "toy/base.csv"
    df = t.get(name, "bot", "share", "ci_low", "ci_high")
    if df is None:
        return None
    r = df.iloc[0]
    e = Est(str(r["bot"]), 100 * (r["share"] - 0.25), 100 * (r["ci_low"] - 0.25),
            100 * (r["ci_high"] - 0.25), "unfair", 1000)
    return BoardRow("{key}", "Is the toy seat favoured?", [Light("", "unfair")],
                    "The toy seat wins more than its quarter.", 0.5, "the toy seat's edge",
                    [Item("toy seat", e, [e])], "pp of win share", "90%", 1.0, "toy",
                    [t.source(name)], str(r["bot"]))


def _notice(out):
    return " <span class=power>TOY NOTICE</span>"


def _doubled(df):
    return df.assign(share=2 * df["share"])


REPORT = Report(
    question="Does the toy seat win more than its share?", key_plot="toy.png",
    answer=_answer, notice=_notice,
    rows=(Row("{key}", {place}, _row, Page(
        "{slug}", "Is the toy seat favoured?", "Whether the toy seat wins more.",
        ("toy/toy.png",)), readme=True),),
    derived=(Derived("doubled", _doubled, "table derived from base.csv by the toy",
                     source="base"),))
'''


def _register(tmp_path, monkeypatch, module="toy_question", key="toy", place=35,
              slug="toy-question"):
    """Write the toy module and add its one line to the registered analyses (``toy``)."""
    (tmp_path / f"{module}.py").write_text(textwrap.dedent(TOY).replace(
        "{key}", key).replace("{place}", str(place)).replace("{slug}", slug))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, module, raising=False)     # this test's toy, fresh
    importlib.invalidate_caches()
    monkeypatch.setattr(names, "ANALYSES", {**names.ANALYSES, "toy": module})


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The toy analysis registered, and its section written as the suite would write it,
    in a checkout laid out as the real one (README beside ``results/analyses``)."""
    (tmp_path / "mods").mkdir()
    _register(tmp_path / "mods", monkeypatch)
    repo = tmp_path / "repo"
    out = repo / "results" / "analyses"
    base = pd.DataFrame({"bot": ["tuned"], "share": [0.3125], "ci_low": [0.30],
                         "ci_high": [0.325]})
    sec = {"name": "toy", "title": "Toy analysis", "method": "A toy.",
           "findings": ["The toy wrote one table."], "flags": [], "tables": ["base"],
           "show": ["base"], "figures": ["toy.png"], "runs": []}
    write_section(out / "toy", sec, {"base": base})
    Image.new("RGB", (4, 3), "white").save(out / "toy" / "toy.png")
    (repo / ".git").mkdir()
    (repo / "README.md").write_text(f"# x\n\n{F.BEGIN}\n\nold\n\n{F.END}\n")
    return out


def test_a_toy_analysis_registered_once_shows_up_everywhere(toy):
    out, repo = toy, toy.parents[1]
    # the verdict board: its row, in its declared place (35: after the Media's 30)
    order = [r.key for _, r in registered.rows()]
    assert order[order.index("media") + 1] == "toy"
    rows = B.board_rows(out)
    keys = [r.key for r in rows]
    assert "toy" in keys
    row = rows[keys.index("toy")]
    assert row.sentence == "The toy seat wins more than its quarter."
    assert [li.word for li in row.lights] == ["unfair"]
    # the README's verdicts: readme=True puts it there, linking its declared page
    assert "toy" in R.headlines()
    R.update_readme(out, repo / "README.md")
    block = (repo / "README.md").read_text()
    assert "**Is the toy seat favoured?** **unfair**. The toy seat wins more" in block
    assert "[The answer](site/questions/toy-question.html)" in block
    # "What we found": its answer, naming its file
    found = {f.section: f for f in F.build(out, "results/analyses")}
    assert found["toy"].statements[0].source == "results/analyses/toy/base.csv"
    assert "The toy seat wins 31.2% [30.0, 32.5]" in found["toy"].statements[0].text
    # the analyses report: the card asks its question, answers with its paragraph and
    # its notice, shows its key plot, and its derived table
    html_path, md_path = build_analyses_report(out, ["toy"])
    page, md = html_path.read_text(), md_path.read_text()
    assert '<p class="question">Does the toy seat win more than its share?</p>' in page
    assert "TOY NOTICE" in page
    assert 'id="board-toy"' in page
    assert "Table: doubled" in md and "table derived from base.csv by the toy" in md
    assert 'src="toy/toy.png"' in page
    # the site: its answer page, with the board row's glance and the answer
    made = docs_pages.pages(out, "results/analyses")
    assert "questions/toy-question.md" in made
    text = made["questions/toy-question.md"]
    assert text.startswith("# Is the toy seat favoured?\n\nWhether the toy seat wins more.")
    assert "The toy seat wins 31.2%" in text
    assert "[Is the toy seat favoured?](toy-question.md)" in made["questions/index.md"]


def test_unregistered_the_toy_is_nowhere(toy, monkeypatch):
    """The same folder without the toy's line in names.ANALYSES: no row, no card's
    question, no page (what the test above sees comes from the registration)."""
    monkeypatch.setattr(names, "ANALYSES", {k: v for k, v in names.ANALYSES.items()
                                            if k != "toy"})
    assert "toy" not in [r.key for r in B.board_rows(toy)]
    assert "toy" not in R.headlines()
    assert "questions/toy-question.md" not in docs_pages.pages(toy, "results/analyses")


@pytest.mark.parametrize("what,clash", [("key", dict(key="veto")),
                                        ("place", dict(place=20)),
                                        ("page", dict(slug="media"))])
def test_two_rows_with_one_key_place_or_page_are_refused(tmp_path, monkeypatch, what, clash):
    _register(tmp_path, monkeypatch, **clash)
    with pytest.raises(ConfigError, match=f"two board rows with {what}"):
        registered.rows()


def test_a_report_that_breaks_the_protocol_is_refused(tmp_path, monkeypatch):
    (tmp_path / "bad_question.py").write_text(
        "TITLE = 't'\nMETHOD = 'm'\nEXPERIMENTS = []\n"
        "def tables(runs): return {}\ndef plots(t, f): return []\n"
        "def findings(t): return [], []\nREPORT = {'question': 'q'}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "bad_question", raising=False)
    importlib.invalidate_caches()
    monkeypatch.setattr(names, "ANALYSES", {**names.ANALYSES, "bad": "bad_question"})
    with pytest.raises(ConfigError, match="analysis bad: REPORT is dict, not a Report"):
        registered.reports()
