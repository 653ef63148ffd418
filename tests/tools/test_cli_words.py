"""What the command line says to a person: help written for a designer (no "%%", every
option explained with its default), RULES.md's "seat" and "side", shares in % and their
differences in pp on the terminal (fractions only in --json and the files). Pure: the
printed tables are built from hand-made results, no game is played."""

from __future__ import annotations

import argparse
from types import SimpleNamespace

import pandas as pd
import pytest

from demos_sim.analysis.core.whatif import WhatIf, format_whatif
from demos_sim.cli import build_parser, main
from demos_sim.runner import units
from demos_sim.runner.cli_cmds import print_summary


def _subparsers():
    ap = build_parser()
    sub = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    return ap, sub.choices


def _helps():
    ap, subs = _subparsers()
    return [("demos-sim", ap.format_help())] + [(n, p.format_help()) for n, p in subs.items()]


@pytest.mark.parametrize("name, text", _helps(), ids=lambda x: x if len(x) < 20 else "")
def test_help_has_no_escaped_percent_nor_developer_words(name, text):
    assert "%%" not in text
    assert "parse, call, print" not in text


def test_top_help_is_for_a_designer():
    text = build_parser().format_help()
    assert "win share" in text and "pp (percentage" in text and "demos-sim variants" in text


def test_every_option_is_explained_with_its_default():
    _, subs = _subparsers()
    for name, p in subs.items():
        shown = p.format_help()
        for a in p._actions:
            if isinstance(a, argparse._HelpAction):
                continue
            what = f"{name} {'/'.join(a.option_strings) or a.dest}"
            assert a.help, f"{what} has no help"
            if a.default not in (None, [], argparse.SUPPRESS) and a.default is not False:
                assert "default" in shown.split(a.option_strings[0] if a.option_strings
                                                else a.metavar, 1)[1], f"{what}: no default"


def test_games_and_seed_say_their_defaults():
    _, subs = _subparsers()
    text = " ".join(subs["simulate"].format_help().split())
    assert "games to play (default: 1000)" in text
    assert "the same seed plays the same games (default: 0)" in text
    text = " ".join(subs["compare"].format_help().split())
    assert "on the same deals (default: 20000)" in text
    assert "0.005 is ±0.5 pp" in text


def test_variants_names_every_command_that_takes_set(capsys):
    assert main(["variants", "--game", "protocole"]) == 0
    out = capsys.readouterr().out
    # the commands with a --set option, written out by hand
    assert ("--set NAME=VALUE (simulate, compare, sweep, solve, record, tournament, skill, "
            "tune-bot)"
            in out)


def test_units():
    assert units.pct(0.19551) == "19.55%"
    assert units.pct_ci(0.1901, 0.2010) == "[19.01, 20.10]"
    assert units.pp(0.0093) == "+0.93 pp" and units.pp(-0.0035) == "-0.35 pp"
    assert units.pp_ci(-0.0046, 0.0051) == "[-0.46, +0.51]"
    # 0 of 100,000 games: Wilson's upper bound 3.8e-05 = 0.0038%, never "0.00"
    assert units.pct_ci(0.0, 3.8e-05) == "[0.00, 0.0038]"


def _whatif(rows, game="demos"):
    cols = ["metric", "side", "seats", "reference", "changed", "diff", "diff_ci_low",
            "diff_ci_high", "moved"]
    return WhatIf(game, "contract defaults", "carre_points=40",
                  pd.DataFrame([dict(zip(cols, r)) for r in rows]),
                  SimpleNamespace(meta={"games_per_point": 2000}))


def test_compare_prints_percent_and_pp_seats_in_individual_play():
    w = _whatif([("win_share", "0", "0", 0.1955, 0.1958, 0.0003, -0.0046, 0.0051, False),
                 ("win_share", "1", "1", 0.2082, 0.2247, 0.0165, 0.0118, 0.0212, True),
                 ("no_winner", "all", "", 0.1745, 0.1750, 0.0005, -0.0038, 0.0048, False),
                 ("rounds", "all", "", 13.5495, 13.5305, -0.019, -0.0253, -0.0127, True),
                 ("points", "0", "0", 149.3025, 150.238, 0.9355, 0.7259, 1.1451, True)])
    lines = format_whatif(w, "DĒMOS").splitlines()
    assert lines[1] == "The change moves the win share of seat 1 +1.65 pp."
    body = [" ".join(line.split()) for line in lines[3:8]]
    assert body == [
        "figure seat/side reference changed difference [95% CI]",
        "win share seat 0 19.55% 19.58% +0.03 pp [-0.46, +0.51]",
        "win share seat 1 20.82% 22.47% +1.65 pp [+1.18, +2.12] *",
        "no winner game 17.45% 17.50% +0.05 pp [-0.38, +0.48]",
        "rounds game 13.5495 13.5305 -0.0190 [-0.0253, -0.0127] *"]
    assert (" ".join(lines[8].split())
            == "points seat 0 149.3025 150.2380 +0.9355 [+0.7259, +1.1451] *")


def test_compare_says_side_for_teams():
    w = _whatif([("win_share", "A", "0,2", 0.40, 0.41, 0.01, 0.005, 0.015, True),
                 ("win_share", "I", "4", 0.18, 0.17, -0.01, -0.015, -0.005, True),
                 ("points", "4", "4", 150.0, 151.0, 1.0, 0.5, 1.5, True)])
    text = format_whatif(w, "DĒMOS")
    assert "win share of side A +1.00 pp, side I -1.00 pp." in text
    assert "side I" in text.splitlines()[5] and "seat 4" in text.splitlines()[6]


def _run_result(teams: bool):
    sides = [("A", "0,2"), ("B", "1,3")] if teams else [("0", "0"), ("1", "1")]
    rows = []
    for point, diff in ((0, float("nan")), (1, -0.0008)):
        for side, seats in sides:
            rows.append(dict(point=point, metric="win_share", side=side, seats=seats,
                             mean=0.1933, ci_low=0.1906, ci_high=0.1960, diff=diff,
                             diff_ci_low=-0.0029, diff_ci_high=0.0014))
        rows += [dict(point=point, metric="no_winner", side="all", seats="", mean=0.1741),
                 dict(point=point, metric="truncated", side="all", seats="", mean=0.0),
                 dict(point=point, metric="rounds", side="all", seats="", mean=13.8723)]
    meta = {"experiment": {"name": "demo"}, "title": "DĒMOS", "games_per_point": 81920,
            "seed": 1, "stopped_by": "games", "games_per_s": 4000.0,
            "games_played_this_run": 163840, "games_resumed": 0, "backend": "local",
            "workers": 1, "wall_s": 41.0,
            "points": [{"point": 0, "players": 4, "label": "carre_points=30", "ref_point": None},
                       {"point": 1, "players": 4, "label": "carre_points=15", "ref_point": 0}]}
    return SimpleNamespace(results=pd.DataFrame(rows), meta=meta, out="results/demo")


def test_run_prints_seats_percent_and_pp(capsys):
    print_summary(_run_result(teams=False))
    lines = [" ".join(line.split()) for line in capsys.readouterr().out.splitlines()]
    assert "seat 0 win share 19.33% [19.06, 19.60]" in lines
    assert ("seat 0 win share 19.33% [19.06, 19.60] diff -0.08 pp [-0.29, +0.14]" in lines)
    assert "no winner 17.41% truncated 0.00% rounds/game 13.8723" in lines
    assert not any(line.startswith("side ") for line in lines)


def test_run_says_side_for_teams(capsys):
    print_summary(_run_result(teams=True))
    out = " ".join(capsys.readouterr().out.split())
    assert "side A win share 19.33%" in out and "side B win share" in out and "seat " not in out
