"""The analyses' CSV tables as the report shows them: human column labels with units, an
estimate and its 95% interval in one cell, constant columns said once above the table.

Presentation only: the numbers are those of the CSV (a share shown in % or a difference in
percentage points is the CSV value times 100, nothing else); the CSV itself is offered for
download unchanged. A column gets a unit only where its meaning is certain from its name
(and, for a few, from its table, :data:`BY_TABLE`); columns whose unit changes from row to
row (tables with a ``metric`` or ``measure`` column) are shown as stored.
"""

from __future__ import annotations

import html
import math
import re

import pandas as pd

from demos_sim.analysis.core.formatting import cell

# kind: "pct" (a share: shown ×100 with %), "pp" (a difference of shares: ×100, signed, pp),
# "num" (as stored), "p" (a p-value)
PCT, PP, NUM, P = "pct", "pp", "num", "p"

# column -> (label, kind), whatever the table
LABELS: dict[str, tuple[str, str]] = {
    "bot": ("bot", NUM), "games": ("games", NUM), "players": ("players", NUM),
    "setup": ("setup", NUM), "mode": ("mode", NUM), "rules": ("rules", NUM),
    "side": ("seat / side", NUM), "seats": ("seats", NUM), "seat": ("seat", NUM),
    "p": ("p", P), "p_value": ("p", P), "p_holm": ("p (Holm)", P),
    "p_one_sided": ("p (one-sided)", P),
    "win_share": ("win share (% of games)", PCT),
    "share_of_won": ("share of won games (%)", PCT),
    "parity": ("parity (% of won games)", PCT),
    "no_winner": ("no winner (% of games)", PCT),
    "truncated": ("stopped by round cap (% of games)", PCT),
    "rounds": ("rounds per game", NUM),
    "vetoes": ("vetoes per game", NUM), "vetoes_per_game": ("vetoes per game", NUM),
    "share_ref": ("win share, reference (%)", PCT),
    "share_noveto": ("win share, barred from vetoing (%)", PCT),
    "diff_half_width": ("half-width of the difference (pp)", PP),
    "no_winner_diff": ("change in no-winner share (pp)", PP),
    "mean_diff": ("veto value, average over seats (pp of win share)", PP),
    # the veto and the Media: worth = with − without the mechanic (positive: it helps)
    "worth": ("worth: with − without (pp of win share)", PP),
    "worth_per_veto": ("worth per veto used (pp of win share)", PP),
    "worth_per_action": ("worth per Media action (pp of win share)", PP),
    "lone_worth": ("worth to a lone user among abstainers (pp of win share)", PP),
    "lone_points": ("worth to a lone user (points a game)", NUM),
    "lone_uses": ("the lone user's uses a game", NUM),
    "others_change": ("change of each abstainer (pp of win share)", PP),
    "users_games": ("games, among users", NUM),
    "users_worth": ("worth to one user among users (pp of win share)", PP),
    "lone_no_winner": ("no-winner change, lone user (pp)", PP),
    "everyone_change": ("everyone − nobody, a seat (pp of win share)", PP),
    "everyone_points": ("everyone − nobody, a seat (points a game)", NUM),
    "everyone_no_winner": ("no-winner change, everyone − nobody (pp)", PP),
    "lone_p": ("p, lone user's worth", P),
    "half_width": ("half-width (pp)", PP),
    "vetoes_ref": ("vetoes per game, reference", NUM),
    "vetoes_noveto": ("vetoes per game, restricted", NUM),
    "restricted": ("barred from vetoing", NUM),
    "team_vetoes": ("team vetoes", NUM), "vetoes_used": ("vetoes used per game", NUM),
    "unanimous": ("unanimous turns per game", NUM),
    "unan_winner_change": ("unanimous turn changes the winners (% of turns)", PCT),
    "unan_score_change": ("change of round scores per unanimous turn (points, all players)",
                          NUM),
    "unan_score_change_per_player": ("… per player (points)", NUM),
    "unanimous_turns": ("unanimous turns", NUM),
    "with_media": ("with Media (%)", PCT), "no_media": ("without Media (%)", PCT),
    "act": ("Independent acts (%)", PCT), "keep": ("Independent keeps (%)", PCT),
    "revealed_on": ("targets revealed (%)", PCT), "revealed_off": ("targets hidden (%)", PCT),
    "cancel_share": ("Media cancel out (% of games)", PCT),
    "targeted": ("targeted players' win share (%)", PCT),
    "not_targeted": ("other players' win share (%)", PCT),
    "gap": ("gap (pp)", PP), "media_held": ("Media held", NUM),
    "actor_side_win_share": ("acting side's win share (%)", PCT),
    "win_rate": ("team win rate (% of games)", PCT), "level": ("level", NUM),
    "win_lower": ("win rate, lower level (%)", PCT),
    "win_upper": ("win rate, upper level (%)", PCT),
    "eliminated": ("eliminated (% of games)", PCT),
    "edge": ("edge over parity (pp of win share)", PP),
    "excess": ("share of won games − parity (pp)", PP),
    "collapse": ("city collapses (% of games)", PCT),
    "collapse_diff": ("change in collapses (pp)", PP),
    "early_end": ("early end (% of games)", PCT),
    "free_rider_share": ("free riders' win share (%)", PCT),
    "cooperator_share": ("cooperators' win share (%)", PCT),
    "seat0_share": ("seat 0 win share (%)", PCT), "seat0_diff": ("seat 0 change (pp)", PP),
    "fair_share": ("fair share (%)", PCT),
    "unfairness": ("unfairness (largest gap from parity, pp)", PP),
    "default_unfairness": ("unfairness, default (pp)", PP),
    "best_unfairness": ("unfairness, best option (pp)", PP),
    "worst_gap": ("largest gap (pp)", PP),
    "share": ("share (%)", PCT),
    "verdict": ("verdict", NUM), "fairness": ("fair? (TOST against the margin)", NUM),
    "fair_margin": ("margin of fair (± pp of share of won games)", PP),
    "definition": ("fair means", NUM), "figure": ("key figure", NUM), "analysis": ("analysis", NUM),
    "mean_a": ("bot A estimate", NUM), "mean_b": ("bot B estimate", NUM),
    "bot_a": ("bot A", NUM), "bot_b": ("bot B", NUM),
    "sign_a": ("sign A", NUM), "sign_b": ("sign B", NUM),
}

# (analysis, table) -> {column: (label, kind)}: where a name means something particular
BY_TABLE: dict[tuple[str, str], dict[str, tuple[str, str]]] = {
    ("veto", "veto_value"): {"diff": ("veto value: restricted − reference (pp of win share)",
                                      PP)},
    ("teams", "summary"): {
        "default_no_winner": ("no winner, default (% of games)", PCT),
        "runner_up_unfairness": ("unfairness, runner-up (pp)", PP),
        "fresh_best_unfairness": ("unfairness, best option on fresh deals (pp)", PP),
        "best_minus_runner_up": ("best − runner-up, fresh deals (pp)", PP),
        "best_minus_default": ("best − default, fresh deals (pp)", PP),
        "fresh_best_fair": ("best on fresh deals, per side (TOST)", NUM),
        "fresh_best_worst_side": ("best on fresh deals: the side worst there, its TOST "
                                  "verdict and 90% interval", NUM),
        "fresh_runner_up_unfairness": ("unfairness, runner-up on fresh deals (pp)", PP),
        "fresh_runner_up_fair": ("runner-up on fresh deals, per side (TOST)", NUM),
        "fresh_runner_up_worst_side": ("runner-up on fresh deals: the side worst there, "
                                       "its TOST verdict", NUM),
        "default_worst_side_verdict": ("default: its worst side's TOST verdict", NUM),
        "options_shown_fair": ("options shown fair on the screen (TOST, Holm)", NUM)},
    ("teams", "confirm"): {"screen_unfairness": ("unfairness on the screen (pp)", PP),
                           "screen_worst_side": ("worst side on the screen", NUM),
                           "worst_side": ("worst side on the fresh deals", NUM),
                           "unfairness": ("unfairness U of that side, fresh deals "
                                          "(pp of all games)", PP),
                           "fair_per_side": ("per side, against the margin (TOST)", NUM),
                           "worst_side_verdict": ("worst side on the fresh deals: TOST "
                                                  "verdict, 90% interval (pp of won games)",
                                                  NUM),
                           "diff": ("difference of unfairness (pp)", PP)},
    ("teams", "options"): {"no_winner": ("no winner (% of games)", PCT)},
    ("teams", "fairness"): {
        # fairness.py: r_s is the side's share of won games, also each of its seats' own
        # (a seat wins when its side wins); per seat its parity is size/n, not 1/n
        "share_won": ("side's share of won games (% = each of its seats')", PCT),
        "parity": ("parity (% of won games; per side 1/K, per seat the side's seats' "
                   "share size/n)", PCT),
        "side_size": ("seats of the side", NUM),
        "diff": ("share of won games − parity (pp)", PP),
        "ci90_low": ("90% interval, low (pp)", PP), "ci90_high": ("90% interval, high (pp)", PP),
        "margin": ("margin of fair (± pp)", PP), "p_tost": ("p (TOST)", P),
        "verdict_text": ("verdict against the margin", NUM)},
    ("veto", "team_vetoes"): {"diff": ("change vs 2 vetoes (pp of win share)", PP)},
    # the value to the tuned player (the searched policy plays as tuned)
    ("veto", "veto_best_response"): {
        "field": ("the other seats play", NUM), "holder": ("the seat plays", NUM),
        "diff": ("veto value: barred − free to veto (pp of win share)", PP),
        "vetoes_half_width": ("half-width, vetoes per game", NUM),
        "per_veto": ("veto value per veto used (pp of win share)", PP),
        "interval": ("interval", NUM)},
    ("veto", "veto_deterrence"): {
        "share_unused_veto": ("win share, holds an unused veto (%)", PCT),
        "share_no_veto": ("win share, holds none (%)", PCT),
        "share_used_veto": ("win share, uses its veto (%)", PCT),
        "deterrence": ("unused veto − none (pp of win share)", PP),
        "deterrence_p": ("p, deterrence", P),
        "use": ("uses it − unused (pp of win share)", PP),
        "total": ("uses it − none (pp of win share)", PP)},
    ("game_shape", "seat_share"): {"flag": ("flag", NUM)},
    ("robustness", "ladder"): {
        "ladder": ("ladder", NUM), "rungs": ("rungs", NUM),
        "bots": ("rungs, weakest first (measured order)", NUM),
        "strengths": ("rung strengths (ladder rating)", NUM),
        "left_out": ("bots left out (not on the ladder)", NUM),
        "signs": ("signs detected at each rung", NUM),
        "weakest": ("weakest rung", NUM), "mean_weakest": ("at the weakest rung", PP),
        "strongest": ("strongest rung", NUM), "mean_strongest": ("at the strongest rung", PP),
        "unit": ("unit", NUM), "margin": ("margin (±)", PCT),
        "margin_rule": ("margin: how chosen", NUM),
        "change": ("change, weakest → strongest", PP),
        "change_ci90_low": ("change, 90% interval, low", PP),
        "change_ci90_high": ("change, 90% interval, high", PP),
        "trend_change": ("trend over every rung, weakest → strongest", PP),
        "trend_ci90_low": ("trend, 90% interval, low", PP),
        "trend_ci90_high": ("trend, 90% interval, high", PP),
        "trend_widening": ("trend's error widened by", NUM),
        "p_equiv": ("p, holds (TOST)", P), "p_equiv_holm": ("p (Holm), holds (TOST)", P),
        "p_beyond": ("p, beyond the margin", P),
        "p_beyond_holm": ("p (Holm), beyond the margin", P),
        "p_flip": ("p, flips", P), "p_flip_holm": ("p (Holm), flips", P),
        "p_zero": ("p, no effect at any rung", P),
        "p_zero_holm": ("p (Holm), no effect at any rung", P),
        "verdict": ("skill label", NUM), "reason": ("why uncertain", NUM),
        "flips_somewhere": ("changes sign between two rungs", NUM)},
    ("media", "swing"): {"effect": ("with − without (pp)", PP)},
    ("media", "media_best_response"): {
        "field": ("the other seats play", NUM), "holder": ("the seat plays", NUM),
        "share_nomedia": ("win share, declines its Media (%)", PCT),
        "diff": ("Media value: declines − plays (pp of win share)", PP),
        "actions_ref": ("Media actions per game", NUM),
        "actions_half_width": ("half-width, Media actions per game", NUM),
        "actions_nomedia": ("Media actions per game, declining", NUM),
        "per_action": ("Media value per action (pp of win share)", PP),
        "interval": ("interval", NUM)},
    ("media", "independent"): {"effect": ("act − keep (pp)", PP)},
    ("media", "revealed"): {"effect": ("revealed − hidden (pp)", PP)},
    ("protocole_levels", "level_steps"): {"diff": ("upper − lower (pp of win rate)", PP)},
    ("variants", "summary"): {
        "win_share_diff": ("change in win share (pp)", PP),
        "no_winner_diff": ("change in no-winner share (pp)", PP),
        "rounds_diff": ("change in rounds per game", NUM),
        "win_share_p_holm": ("p (Holm), win share", P),
        "no_winner_p_holm": ("p (Holm), no winner", P),
        "rounds_p_holm": ("p (Holm), rounds", P),
        "p_equivalent": ("p, every metric inside its margin (TOST)", P),
        "p_equivalent_holm": ("p (Holm), every metric inside its margin (TOST)", P),
        "any_beyond": ("some metric beyond its margin", NUM),
        "any_significant": ("some difference significant (Holm)", NUM),
        "worst_metric_verdict": ("the metric that decides it: TOST, 90% interval", NUM),
        "verdict": ("verdict against the margins", NUM)},
    ("assemblee", "personalities"): {"diff_vs_ulios": ("change vs Ulios (pp of win share)",
                                                       PP)},
    ("assemblee", "characters"): {"gain": ("gain from holding (pp of win share)", PP),
                                  "win_if_held": ("win share when held (%)", PCT)},
}

# columns whose unit depends on the row: a table with one of these shows stored values
ROW_UNITS = ("metric", "measure")
# ... except a ``unit`` column (the robustness tables): a row whose unit is a share shows
# its pp/% columns as such, any other row as stored
UNIT = "unit"
SHARE_UNITS = ("share", "shares", "pp", "fraction")

# (analysis, table) -> the columns the report shows, in this order (those the table has);
# the CSV keeps every column. The robustness ladder has ~40: the label and what it rests on
SHOWN: dict[tuple[str, str], list[str]] = {
    ("robustness", "ladder"): [
        "analysis", "figure", "bots", "left_out", "unit",
        "mean_weakest", "ci_low_weakest", "ci_high_weakest",
        "mean_strongest", "ci_low_strongest", "ci_high_strongest",
        "margin", "change", "change_ci90_low", "change_ci90_high",
        "trend_change", "trend_ci90_low", "trend_ci90_high", "verdict", "reason"],
}
SHOWN[("robustness", "flips")] = SHOWN[("robustness", "ladder")]
# the team options screen and the variants summary: the verdict and the figures it rests on
# (the p-values, mirror classes and per-metric tests stay in the CSV)
SHOWN[("teams", "options")] = [
    "bot", "mode", "option", "games", "unfairness", "u_ci_low", "u_ci_high", "worst_side",
    "no_winner", "tost_verdict"]
SHOWN[("variants", "summary")] = [
    "setup", "bot", "variant", "value", "side", "win_share_diff", "win_share_ci_low",
    "win_share_ci_high", "no_winner_diff", "rounds_diff", "verdict"]


# (analysis, table) -> the table's title in the report, where its file name would mislead
TITLES = {("veto", "veto_best_response"): "veto: value to the tuned player",
          ("media", "media_best_response"): "Media: value to the tuned player",
          ("veto", "veto_dilemma"): "veto as a social dilemma",
          ("media", "media_dilemma"): "Media as a social dilemma",
          ("robustness", "ladder"): "skill labels over every rung (ladder)"}


def title(analysis: str, table: str) -> str:
    return TITLES.get((analysis, table), table.replace("_", " "))


def shown(df: pd.DataFrame, analysis: str, table: str) -> tuple[pd.DataFrame, str]:
    """``(table, note)``: the columns the report shows of ``table`` (:data:`SHOWN`; all
    of them for most tables) and a note saying how many of how many, '' when all."""
    cols = SHOWN.get((analysis, table))
    if not cols:
        return df, ""
    keep = [c for c in cols if c in df.columns]
    if len(keep) == len(df.columns) or len(keep) < 2:
        return df, ""
    return df[keep], (f"{len(keep)} of its {len(df.columns)} columns shown (the label and "
                      "what it rests on; every column in the CSV)")


_LOW = re.compile(r"(^|_)(ci_|ci90_)?low(_[ab]|_weakest|_strongest)?$")
_HIGH = re.compile(r"(^|_)(ci_|ci90_)?high(_[ab]|_weakest|_strongest)?$")


def _fmt(v, kind: str, signed: bool = False, column: str = "") -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if kind in (PCT, PP) and isinstance(v, (int, float)) and not isinstance(v, bool):
        x = 100 * float(v)
        if 0 < abs(x) < 0.005:         # a rare event's bound: not "0.00" (Wilson, 0 of N)
            return (f"{x:+.2g}" if kind == PP or signed else f"{x:.2g}").replace("-", "−")
        digits = 2 if abs(x) < 10 else 1
        return (f"{x:+.{digits}f}" if kind == PP or signed else f"{x:.{digits}f}").replace(
            "-", "−")
    if kind == P and isinstance(v, float):
        return "<0.001" if v < 1e-3 else f"{v:.3f}"
    if (isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 10_000
            and column != "seed"):
        return f"{v:,}"
    return cell(v)


def _breakable(cell_html: str) -> str:
    """Let a long identifier (``variants_demos_individual``, ``seating=BABIA``,
    ``seating+team_vetoes``) wrap after its underscores, commas, equals and plus signs."""
    if len(cell_html) < 12:
        return cell_html
    return re.sub(r"([_,=/+])(?!\s)", r"\1<wbr>", cell_html)


def _groups(cols: list[str]) -> list[tuple[str, str | None, str | None]]:
    """``(column, low, high)``: each column with the interval columns that follow it."""
    out: list[tuple[str, str | None, str | None]] = []
    i = 0
    while i < len(cols):
        c = cols[i]
        if i + 2 < len(cols) and _LOW.search(cols[i + 1]) and _HIGH.search(cols[i + 2]):
            out.append((c, cols[i + 1], cols[i + 2]))
            i += 3
        else:
            out.append((c, None, None))
            i += 1
    return out


def label(analysis: str, table: str, col: str, fixed_units: bool) -> tuple[str, str]:
    lab, kind = BY_TABLE.get((analysis, table), {}).get(col) or LABELS.get(
        col, (col.replace("_", " "), NUM))
    if not fixed_units and kind in (PCT, PP):
        return col.replace("_", " "), NUM
    return lab, kind


def transpose(rows: list[list[str]], keys: int = 2) -> list[list[str]]:
    """A wide table of few rows turned on its side: one column per row, headed by the
    row's first ``keys`` cells, one row per remaining column."""
    keys = min(keys, len(rows[0]) - 1)
    head = [" / ".join(rows[0][:keys])] + [" · ".join(r[:keys]) for r in rows[1:]]
    return [head] + [[rows[0][j]] + [r[j] for r in rows[1:]]
                     for j in range(keys, len(rows[0]))]


WIDE_COLUMNS = 10      # a table of more columns than this …
FEW_ROWS = 8           # … and at most this many rows is shown on its side


def present(df: pd.DataFrame, analysis: str, table: str, max_rows: int
            ) -> tuple[list[list[str]], list[str]]:
    """``(rows, notes)``: the table's rows as HTML cells (``rows[0]`` the header) and the
    notes to print above it (the columns that hold one value in every row). A table of
    more than :data:`WIDE_COLUMNS` columns and at most :data:`FEW_ROWS` rows comes on its
    side (:func:`transpose`), so that it fits the page."""
    fixed_units = not any(c in df.columns for c in ROW_UNITS)
    row_unit = UNIT in df.columns and not df[UNIT].astype(str).isin(SHARE_UNITS).all()
    notes, keep = [], []
    for c in df.columns:
        vals = df[c].dropna().unique()
        if len(df) > 1 and len(vals) == 1 and df[c].notna().all() and not re.search(
                r"low|high", c):
            lab, kind = label(analysis, table, c, fixed_units)
            notes.append(f"{html.escape(lab)} = {_fmt(vals[0], kind)}")
        else:
            keep.append(c)
    groups = _groups(keep)
    header = []
    for c, lo, _ in groups:
        lab, _kind = label(analysis, table, c, fixed_units)
        if row_unit and _kind in (PCT, PP):
            lab += " (pp for shares)"
        level = "90%" if lo and "ci90" in lo else "95%"
        header.append(html.escape(lab) + (f" <span class=ci>[{level} CI]</span>" if lo
                                          else ""))
    rows = [header]
    for rec in df.head(max_rows).to_dict("records"):
        row = []
        share_row = not row_unit or str(rec.get(UNIT)) in SHARE_UNITS
        for c, lo, hi in groups:
            _, kind = label(analysis, table, c, fixed_units)
            if not share_row and kind in (PCT, PP):
                kind = NUM
            s = _breakable(html.escape(_fmt(rec[c], kind, column=c)))
            if lo:
                a, b = _fmt(rec[lo], kind), _fmt(rec[hi], kind)
                if a or b:
                    s += f" <span class=ci>[{html.escape(a)}, {html.escape(b)}]</span>"
            row.append(s)
        rows.append(row)
    if len(rows[0]) > WIDE_COLUMNS and len(rows) - 1 <= FEW_ROWS:
        rows = transpose(rows)
    return rows, notes
