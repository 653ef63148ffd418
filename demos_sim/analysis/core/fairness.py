"""Is a team mode fair? Each side's share of won games against parity, within a margin.

Two definitions of fair, both on the **share of won games** (games without a winner
count for nobody; ``r_s = x̄_s / w̄``, ``x_s`` the side's per-game M1 win share, ``w`` 1
when the game had a winner):

- **per side**: every side has the same chance to win, ``r_s = 1/K`` for ``K`` sides (2v3:
  ½ each; 2v2+1: ⅓ each, the Independent included). A team's members all win when it
  wins, so this is "every player has the same chance to be on the winning side".
- **per seat**: every seat carries the same weight, so a side of ``size_s`` seats should
  win its seats' share of the won games, ``r_s = size_s / n`` for ``n`` players (2v3: ⅖
  and ⅗; 2v2+1: ⅖, ⅖ and the Independent ⅕). Each seat of the side is on the winning side
  exactly when its side wins, so ``r_s`` is also *each seat's own* share of the won games
  it wins, and ``size_s / n`` that seat's parity.

**One margin, one unit.** Both definitions test the same estimate, ``r_s``, with the same
standard error, against the same margin ``±m`` in pp of won games; only the parity
differs (``1/K`` or ``size_s / n``). An earlier version tested the per-seat *credit*
``r_s / size_s`` against ``1/n`` at the same ``±m``: dividing the estimate (and its error)
by ``size_s`` but not the margin widened the margin to ``±m·size_s`` on ``r_s`` (±2 pp for
a team of two). In 2v2 the two parities are the same hypothesis (``1/2`` = ``2/4``), yet
a side could be "not shown fair" per side and "fair" per seat. With one estimate and one
margin the verdicts agree wherever the parities agree (2v2, and the per-seat parity of a
side of one is its credit). Whoever prefers the per-seat credit ``r_s / size_s`` against
``1/n`` reads the same test with the margin ``m / size_s``.

Each difference gets an interval-based TOST against the designer's margin
(``fair_margin`` in the experiment file, default ±1 pp; :func:`stats.tost`): *fair*
when its 90% interval lies inside ``±m``, *unfair* when the 90% interval lies wholly
beyond the margin, *not shown fair* otherwise; the verdict's text carries that 90%
interval. The interval of ``r_s`` is the delta-method interval of a ratio of means
(:func:`stats.share_of_won`).

:func:`fairness` reads the teams analysis's ``sides`` table (per option and side: the win
share, the no-winner share, the games and the half-width of the side's gap of win share),
so the report can derive it from committed sections that predate it.
"""

from __future__ import annotations

import math

import pandas as pd

from demos_sim.analysis.core.stats import FAIR_MARGIN, Z95, tost, tost_ci, won_gap

DEFINITIONS = ("per side", "per seat")
COLUMNS = ["bot", "mode", "option", "side", "side_size", "games", "definition",
           "share_won", "parity", "diff", "ci_low", "ci_high", "ci90_low", "ci90_high",
           "margin", "p_tost", "verdict", "verdict_text"]


def run_margin(run) -> float:
    """The designer's margin of "fair" a run of the suite was made with: ``fair_margin`` of
    its experiment file, as its ``meta.json`` keeps the parsed file (default
    :data:`FAIR_MARGIN`, as :func:`demos_sim.runner.experiment.parse_experiment` reads it)."""
    return float(run.meta["experiment"]["parsed"].get("fair_margin", FAIR_MARGIN))


def side_sd(share: float, gap_half_width: float, games: int, u: float, k: int) -> float:
    """The sd of a side's per-game win share ``x_s`` from the half-width of its gap
    ``g_s = x_s − mean_k x_k`` (``Var g = Var x + Var u / K² + 2 μ_s μ_u / K`` with the
    ``n/(n−1)`` sample factor; the teams analysis's :func:`gap_estimates` inverted)."""
    n = int(games)
    c = n / max(n - 1, 1)
    var_g = (gap_half_width / Z95) ** 2 * n
    var = var_g - c * u * (1 - u) / k ** 2 + 2 * c * share * u / k
    return math.sqrt(max(var, 0.0))


def fairness(sides: pd.DataFrame, margin: float = FAIR_MARGIN,
             options: tuple[str, ...] | None = ("default",)) -> pd.DataFrame:
    """Per side and per seat verdicts of every (bot, mode, option) of ``sides`` (only
    ``options`` when given). ``share_won`` is the side's share of won games (each of its
    seats' own: a seat wins when its side wins); ``parity`` is ``1/K`` per side and the
    side's seats' share ``size/n`` per seat; the margin is the same. ``sides`` needs the
    columns bot, mode, option, side, side_size, games, share, gap_half_width, and ``sd``
    (the side's per-game sd) when it has it; otherwise the sd is recovered from
    ``gap_half_width``."""
    rows = []
    df = sides if options is None else sides[sides["option"].isin(options)]
    for (bot, mode, option), g in df.groupby(["bot", "mode", "option"], sort=False):
        k = len(g)
        n_players = int(g["side_size"].sum())
        u = max(0.0, 1.0 - float(g["share"].sum()))     # no winner or truncated
        won = 1.0 - u
        for r in g.itertuples(index=False):
            n = int(r.games)
            sd = (float(r.sd) if "sd" in g and not pd.isna(getattr(r, "sd", float("nan")))
                  else side_sd(r.share, r.gap_half_width, n, u, k))
            size = int(r.side_size)
            for definition in DEFINITIONS:
                # the same estimate r_s and margin for both definitions: only the parity
                # differs (1/K, or the side's seats' share size/n)
                target = 1.0 / k if definition == "per side" else size / n_players
                d, se = won_gap(r.share, sd, n, won, target)
                e = tost(d, se, margin)
                sw = r.share / won if won > 0 else float("nan")
                rows.append({"bot": bot, "mode": mode, "option": option, "side": r.side,
                             "side_size": size, "games": n, "definition": definition,
                             "share_won": sw, "parity": target, "diff": d,
                             "ci_low": e.lo, "ci_high": e.hi,
                             "ci90_low": e.lo90, "ci90_high": e.hi90, "margin": margin,
                             "p_tost": e.p_tost, "verdict": e.verdict,
                             "verdict_text": e.text()})
    return pd.DataFrame(rows, columns=COLUMNS)


def mode_verdict(f: pd.DataFrame) -> str:
    """One mode's verdict over its sides (rows of one bot, mode, option, definition):
    fair when every side is, unfair when one side is, not shown fair otherwise."""
    v = set(f["verdict"])
    if v == {"fair"}:
        return "fair"
    if "unfair" in v:
        return "unfair"
    return "not shown fair"


def with_verdicts(df: pd.DataFrame, diff: str, lo: str, hi: str,
                  margin: float = FAIR_MARGIN, offset: str | None = None) -> pd.DataFrame:
    """``df`` with the columns ``fair_margin`` and ``fairness`` (the TOST verdict's text)
    of the difference in column ``diff`` whose 95% interval is ``[lo, hi]`` (each minus
    column ``offset`` when given, e.g. a share's interval minus its parity)."""
    off = df[offset] if offset else 0.0
    e = [tost_ci(d, a, b, margin).text() for d, a, b in zip(df[diff], df[lo] - off,
                                                             df[hi] - off)]
    return df.assign(fair_margin=margin, fairness=e)
