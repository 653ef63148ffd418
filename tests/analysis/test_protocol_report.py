"""What a question module declares for the report (``REPORT``,
:mod:`demos_sim.analysis.core.protocol`) is checked when the module is loaded, and the
game on an analysis's line of ``names.REGISTERED`` places its figures on a bot ladder."""

from __future__ import annotations

import types

import pytest

from demos_sim import ConfigError
from demos_sim.analysis import names
from demos_sim.analysis.core import protocol, rungs
from demos_sim.analysis.core.protocol import Derived, Page, Part, Report, Row


def _module(report) -> types.ModuleType:
    mod = types.ModuleType("toy_question")
    mod.TITLE, mod.METHOD = "Toy", "A toy."
    mod.tables = mod.plots = mod.findings = lambda *a: None
    mod.REPORT = report
    return mod


def _row(**kw) -> Row:
    page = kw.pop("page", Page("toy-page", "Is it a toy?", "Whether it is."))
    return Row(kw.pop("key", "toy"), kw.pop("place", 5), kw.pop("build", lambda t: None),
               page, **kw)


def test_a_well_formed_report_passes():
    rep = Report("Is it a toy?", "toy.png", answer=lambda t: None, notice=lambda out: "",
                 rows=(_row(page=Page("toy-page", "Is it a toy?", "Whether it is.",
                                      ("toy/a.png",), (Part("toy", ("a",)),),
                                      lambda out: None)),),
                 derived=(Derived("b", lambda df: df, "note", lacks="c"),))
    protocol.check("toy", _module(rep))


@pytest.mark.parametrize("report,words", [
    ({"question": "q"}, "REPORT is dict, not a Report"),
    (Report(""), "has no question"),
    (Report("q", "plot.svg"), "key_plot 'plot.svg' is not a .png file"),
    (Report("q", answer="text"), "answer is not a function"),
    (Report("q", rows=("toy",)), "rows holds 'toy', not a Row"),
    (Report("q", rows=(_row(build="x"),)), "needs a key, an integer place and a build"),
    (Report("q", rows=(_row(place=1.5),)), "needs a key, an integer place and a build"),
    (Report("q", rows=(_row(page=Page("Toy Page", "t", "l")),)), "slug of lower-case"),
    (Report("q", rows=(_row(page=Page("p", "t", "l", parts=("toy",))),)),
     "parts hold 'toy', not a Part"),
    (Report("q", derived=(Derived("b", lambda df: df, "n"),)), "give either source or lacks"),
    (Report("q", derived=(Derived("b", lambda df: df, "n", "a", "c"),)),
     "give either source or lacks"),
])
def test_a_malformed_report_is_one_line_naming_the_analysis(report, words):
    with pytest.raises(ConfigError, match="^analysis toy: REPORT ") as e:
        protocol.check("toy", _module(report))
    assert words in str(e.value) and "\n" not in str(e.value)


def test_rows_of_two_analyses_must_not_share_a_key_a_place_or_a_page():
    a = Report("q", rows=(_row(),))
    protocol.check_rows({"a": a, "b": Report("q", rows=(_row(key="other", place=6,
                                                            page=Page("p2", "t", "l")),))})
    for clash, what in ((dict(place=6, page=Page("p2", "t", "l")), "key 'toy'"),
                        (dict(key="k", page=Page("p2", "t", "l")), "place 5"),
                        (dict(key="k", place=6), "page 'toy-page'")):
        with pytest.raises(ConfigError, match=f"analyses a and b: two board rows with {what}"):
            protocol.check_rows({"a": a, "b": Report("q", rows=(_row(**clash),))})


def test_the_registered_game_places_a_figure_on_its_ladder(monkeypatch):
    """A figure whose name names no game is placed by its analysis's registered game."""
    figure = "share of won games - parity, seat 0"
    assert rungs.family("toy", figure) is None
    for game, chain in (("demos", "demos"), ("assemblee", "assemblee")):
        monkeypatch.setattr(names, "GAMES", {**names.GAMES, "toy": game})
        assert rungs.family("toy", figure) == chain
    monkeypatch.setattr(names, "GAMES", {**names.GAMES, "toy": "protocole"})
    assert rungs.family("toy", "coop win rate, level 2 vs 1") == "protocole coop"
    assert rungs.family("toy", "each: seat 0 edge") == "protocole each"


def test_every_registered_analysis_has_one_line_with_its_module_and_game():
    assert list(names.ANALYSES) == [a.name for a in names.REGISTERED]
    assert len(set(names.ANALYSES)) == len(names.REGISTERED)
    for a in names.REGISTERED:
        assert a.module == f"demos_sim.analysis.questions.{a.name}"
        assert a.game in (None, "demos", "protocole", "assemblee")
        # a game on a line is a chain of the ladder (protocole: by the figure's mode)
        assert a.game is None or any(k.startswith(a.game) for k in rungs.GAMES)
