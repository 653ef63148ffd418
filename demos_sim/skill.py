"""The skill trace: what each doubling of a policy's search budget is worth.

``demos-sim skill --policy ismcts --budgets 4,8,16,32,64`` plays, for every step
``N → M`` of the budget list (doublings are the intended use), ``policy@M`` against
``policy@N`` in the two-policy tournament on common deals of :mod:`demos_sim.tournament`
(:func:`~demos_sim.tournament.match`: every rotation of the two policies over the seats,
or over the sides in team modes; every step plays the same deals ``0 … games-1`` of the
seed), and reports per step the **gain** of the larger budget:

- competitive games (DĒMOS individual and team modes, Protocole *each for themselves*,
  L'Assemblée): its win share minus 0.5 — its part of the M1 wins the two budgets took
  (0.5: the doubling buys nothing) — with the tournament's 95% delta-method interval;
- cooperative games (Protocole *all together*, where the whole table is one team): the
  paired win-rate difference ``M − N`` on the same deals, as the ladder reports coop.

Each gain has a two-sided normal p-value (the interval's standard error, H0: no gain);
the p-values of all the steps are adjusted together by **Holm** (Holm–Bonferroni,
family-wise error 5%, :func:`demos_sim.analysis.core.stats.adjust`). The **skill depth**
is the number of steps whose gain is positive and significant after Holm: how many
doublings still make the bot measurably stronger. ``--ceiling SPEC`` adds the gap of a
reference policy (e.g. ``omniscient@64``, any spec the game knows) to the top budget, the
same measure played the same way (not one of the Holm family). The speed of each budget
is its games per CPU-second with the policy at every seat, timed on ``--speed-games``
deals of its own (0: not timed).

``--out DIR`` writes ``skill.csv`` (one row per step and the ceiling), ``skill.json``
(everything, with provenance: seed, configuration, rules contract, package version, git
revision and the command that regenerates it), ``skill.md`` (the sentence first, then
the table) and ``skill.png`` (gain per step against budget on a log2 axis).

Every step is one match, played through the runner's play call
(:func:`demos_sim.runner.points.play_points`): ``--workers``, ``--backend local|dask``
and ``--scheduler ADDRESS`` say where (the numbers do not change), and ``--store DIR``
keeps every finished piece of games there, so a trace stopped (even by kill -9) and run
again with the same command plays only what is missing (no resume folder by default).
The speed timing always plays in this process, without the resume folder.
"""

from __future__ import annotations

import json
import shlex
import time
from pathlib import Path

from demos_sim import ConfigError
from demos_sim.restricted import check_specs
from demos_sim.tournament import STORE_HELP, add_play_options, make_config, match, play_options

ALPHA = 0.05                  # family-wise error of the Holm family (the steps)


# ------------------------------------------------------------------ input


def parse_budgets(text: str | list) -> list[int]:
    """``"4,8,16"`` -> ``[4, 8, 16]``: whole numbers >= 1, strictly increasing, at least
    two (one-line :class:`~demos_sim.ConfigError` otherwise)."""
    items = [str(b).strip() for b in (text.split(",") if isinstance(text, str) else text)]
    items = [b for b in items if b]
    for b in items:
        if not (b.isascii() and b.isdigit()) or int(b) < 1:
            raise ConfigError(f"--budgets: {b!r} is not a whole number >= 1 (e.g. 4,8,16,32)")
    budgets = [int(b) for b in items]
    if len(budgets) < 2:
        raise ConfigError("--budgets needs at least two budgets (e.g. 4,8,16,32): a step "
                          "plays the larger against the smaller")
    for lo, hi in zip(budgets, budgets[1:]):
        if hi <= lo:
            raise ConfigError(f"--budgets must increase: {hi} after {lo} (e.g. 4,8,16,32)")
    return budgets


def budget_specs(game: str, config, policy: str, budgets: list[int],
                 plugins: tuple = ()) -> list[str]:
    """``policy@N`` for every budget, each checked by the game's registry (a policy that
    takes no ``@N``, or a spec that already names a budget, is one line)."""
    from demos_sim.game import get_game

    policy = policy.strip()
    if "@" in policy:
        raise ConfigError(f"--policy {policy!r}: give the policy without '@N'; --budgets "
                          "sets N")
    if not policy:
        raise ConfigError("--policy is empty")
    g = get_game(game)
    specs = [f"{policy}@{b}" for b in budgets]
    for spec in specs:
        check_specs(g, [spec], config, list(plugins))
    return specs


# ------------------------------------------------------------------ statistics


def gain_of(m) -> dict:
    """The gain of policy A of a :class:`~demos_sim.tournament.Match` over B, its 95%
    interval, standard error and two-sided p-value (module docstring)."""
    from demos_sim.analysis.core.stats import Z95, p_value

    if m.coop:
        pd = m.paired()
        g, (lo, hi) = pd["mean_diff_per_game"], pd["ci95"]
        se = (hi - lo) / (2 * Z95)
        measure = "win-rate difference"
    else:
        w, se = m.win_share_se()
        _, (lo, hi) = m.win_share()
        g, lo, hi = w - 0.5, lo - 0.5, hi - 0.5
        measure = "win share - 0.5"
    return {"measure": measure, "gain": float(g), "ci_lo": float(lo), "ci_hi": float(hi),
            "se": float(se), "p": p_value(g, Z95 * se)}


def holm_depth(steps: list[dict], alpha: float = ALPHA) -> int:
    """Add ``p_holm`` (Holm over the steps) and ``significant`` (positive gain, adjusted
    p < ``alpha``) to every step; returns the skill depth (the significant steps)."""
    from demos_sim.analysis.core.stats import adjust

    adj = adjust([s["p"] for s in steps], "holm")
    for s, p in zip(steps, adj):
        s["p_holm"] = float(p)
        s["significant"] = bool(p < alpha and s["gain"] > 0)
    return sum(s["significant"] for s in steps)


# ------------------------------------------------------------------ playing


def speed(game: str, config, spec: str, games: int, seed: int, plugins: tuple = ()) -> float:
    """Games per CPU-second of ``spec`` at every seat over ``games`` deals (after one
    warm-up deal, so that compilation is not counted)."""
    from demos_sim.game import get_game
    from demos_sim.tournament import side_shares

    n = get_game(game).players_of(config)
    side_shares(game, config, [spec] * n, 1, seed, plugins)
    t0 = time.process_time()
    side_shares(game, config, [spec] * n, games, seed, plugins)
    dt = time.process_time() - t0
    return games / dt if dt > 0 else float("inf")


def skill_trace(game: str, config, policy: str, budgets, games: int, seed: int,
                plugins: tuple = (), ceiling: str | None = None, speed_games: int = 0,
                command: str | None = None, progress=None, **run) -> dict:
    """The skill trace of ``policy`` over ``budgets`` (module docstring) as one JSON-able
    dict: ``steps`` (per step: budgets, gain, interval, p, Holm p, significant, deals,
    games, wall seconds), ``skill_depth``, ``ceiling`` (or None), ``speed`` (per budget),
    ``run`` (how the games were played: backend, workers, games played and read back from
    the resume folder) and the provenance. ``run``: the play options of every step's
    :func:`~demos_sim.tournament.match` (workers, backend, scheduler, store, quiet)."""
    from demos_sim import __version__
    from demos_sim.game import get_game
    from demos_sim.provenance import CONTRACT, git_revision

    revision = git_revision()            # the code that starts the run
    budgets = parse_budgets(budgets)
    if games < 2:
        raise ConfigError("--games must be at least 2 (an interval needs two deals)")
    specs = budget_specs(game, config, policy, budgets, plugins)
    g = get_game(game)
    if ceiling is not None:
        ceiling = ceiling.strip()
        check_specs(g, [ceiling], config)
    say = progress or (lambda _msg: None)
    steps = []
    played = {"games_played": 0, "games_resumed": 0}

    def count(m):
        played["games_played"] += m.meta["games_played_this_call"]
        played["games_resumed"] += m.meta["games_resumed"]
        played.update(backend=m.meta["backend"], workers=m.meta["workers"])
        return m

    for (lo, slo), (hi, shi) in zip(zip(budgets, specs), zip(budgets[1:], specs[1:])):
        m = count(match(game, config, shi, slo, games, seed, plugins,
                        desc=f"{shi} vs {slo}", **run))
        s = m.summary()
        row = {"low": lo, "high": hi, "policy": shi, "against": slo, **gain_of(m),
               "deals": games, "games": s.get("games", 2 * games), "wall_s": m.wall_s}
        steps.append(row)
        say(f"{shi} vs {slo}: gain {row['gain']:+.4f} [{row['ci_lo']:+.4f}, "
            f"{row['ci_hi']:+.4f}] ({m.wall_s:.0f} s)")
    depth = holm_depth(steps)
    ceil = None
    if ceiling is not None:
        m = count(match(game, config, ceiling, specs[-1], games, seed, plugins,
                        desc=f"{ceiling} vs {specs[-1]}", **run))
        ceil = {"policy": ceiling, "against": specs[-1], **gain_of(m), "deals": games,
                "games": m.summary().get("games", 2 * games), "wall_s": m.wall_s}
        say(f"{ceiling} vs {specs[-1]}: gap {ceil['gain']:+.4f} [{ceil['ci_lo']:+.4f}, "
            f"{ceil['ci_hi']:+.4f}]")
    speeds = []
    if speed_games > 0:
        for b, spec in zip(budgets, specs):
            speeds.append({"budget": b, "policy": spec,
                           "games_per_s": speed(game, config, spec, speed_games, seed,
                                                plugins),
                           "games": speed_games})
    return {"game": game, "title": g.title, "config": g.describe(config),
            "cooperative": bool(g.cooperative(config)), "policy": policy, "budgets": budgets,
            "deals": games, "seed": seed, "plugins": list(plugins),
            "steps": steps, "skill_depth": depth, "holm_alpha": ALPHA,
            "ceiling": ceil, "speed": speeds, "run": played,
            "contract": CONTRACT, "version": __version__, "git_revision": revision,
            "command": command}


# ------------------------------------------------------------------ writing


def _word(t: dict) -> str:
    return "doubling" if all(s["high"] == 2 * s["low"] for s in t["steps"]) else "step"


def title(t: dict) -> str:
    """The figure's sentence: how many doublings pay, up to where."""
    steps, depth, w = t["steps"], t["skill_depth"], _word(t)
    n = len(steps)
    span = f"@{t['budgets'][0]} to @{t['budgets'][-1]}"
    if depth == n:
        return f"Every {w} of {t['policy']} from {span} makes it stronger (skill depth {n})"
    if depth == 0:
        return (f"No {w} of {t['policy']} from {span} makes it measurably stronger "
                f"(skill depth 0 of {n})")
    last = max((s for s in steps if s["significant"]), key=lambda s: s["high"])
    return (f"{depth} of {n} {w}s of {t['policy']} ({span}) make it stronger, the last "
            f"@{last['low']}→@{last['high']} (skill depth {depth})")


def headline(t: dict) -> str:
    """The trace in one sentence: the skill depth, where the gains stop, the largest."""
    steps = t["steps"]
    n = len(steps)
    sig = [s for s in steps if s["significant"]]
    lead = (f"{len(sig)} of {n} {_word(t)}s of {t['policy']}'s budget "
            f"({t['budgets'][0]} to {t['budgets'][-1]}) make it significantly stronger "
            f"(Holm, family-wise {t['holm_alpha']:.0%}): skill depth {t['skill_depth']}")
    if sig:
        top = max(sig, key=lambda s: s["high"])
        lead += f"; the last significant gain is @{top['low']} to @{top['high']}"
    best = max(steps, key=lambda s: s["gain"])
    unit = "pp of win rate" if t["cooperative"] else "pp of win share"
    lead += (f"; the largest gain is {best['gain'] * 100:+.1f} {unit} "
             f"(@{best['low']} to @{best['high']}).")
    return lead


def format_trace(t: dict) -> str:
    """The text ``demos-sim skill`` prints."""
    measure = t["steps"][0]["measure"]
    lines = [headline(t), "",
             f"{t['title']} {_setting(t)}: {t['deals']} deals per step, seed {t['seed']}; "
             f"gain = {measure} of the larger budget, 95% interval",
             f"  {'step':<22} {'gain':>8}  {'95% CI':<20} {'p':>8} {'Holm p':>8}  "
             f"{'':3} {'games':>7}"]
    for s in t["steps"]:
        lines.append(f"  {'@' + str(s['low']) + ' → @' + str(s['high']):<22} "
                     f"{s['gain']:+8.4f}  [{s['ci_lo']:+.4f}, {s['ci_hi']:+.4f}] "
                     f"{s['p']:8.2g} {s['p_holm']:8.2g}  {'*' if s['significant'] else '':3} "
                     f"{s['games']:>7}")
    c = t["ceiling"]
    if c:
        lines.append(f"  ceiling: {c['policy']} vs {c['against']}: gap {c['gain']:+.4f} "
                     f"[{c['ci_lo']:+.4f}, {c['ci_hi']:+.4f}] (not in the Holm family)")
    if t["speed"]:
        lines.append("  speed (policy at every seat, games per CPU-second): " + ", ".join(
            f"@{s['budget']} {s['games_per_s']:.1f}" for s in t["speed"]))
    return "\n".join(lines)


def _setting(t: dict) -> str:
    c = t["config"]
    keys = [k for k in ("rules", "mode", "level") if k in c]
    parts = [f"{c[k]}" if k != "level" else f"level {c[k]}" for k in keys]
    if "players" in c:
        parts.append(f"{c['players']}p")
    return " ".join(parts)


CSV_KEYS = ["row", "policy", "against", "low", "high", "measure", "gain", "ci_lo", "ci_hi",
            "p", "p_holm", "significant", "deals", "games"]


def write_trace(out: str | Path, t: dict) -> list[str]:
    """``skill.csv``, ``skill.json``, ``skill.md`` and ``skill.png`` in ``out``."""
    import csv

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rows = [{"row": "step", **s} for s in t["steps"]]
    if t["ceiling"]:
        rows.append({"row": "ceiling", **t["ceiling"]})
    with open(out / "skill.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_KEYS, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{r[k]:.6g}" if isinstance(r.get(k), float) else r.get(k, ""))
                        for k in CSV_KEYS})
    (out / "skill.json").write_text(json.dumps(t, indent=2) + "\n")
    (out / "skill.md").write_text(_markdown(t))
    _plot(out, t)
    return ["skill.csv", "skill.json", "skill.md", "skill.png"]


def _markdown(t: dict) -> str:
    measure = t["steps"][0]["measure"]
    md = [f"# Skill trace: {t['policy']} in {t['title']} {_setting(t)}", "",
          headline(t), "",
          f"Each step plays the larger budget against the smaller in the seat-rotated "
          f"two-policy tournament on common deals ({t['deals']} deals, each in every "
          f"rotation; seed {t['seed']}). Gain: {measure} of the larger budget "
          + ("(the whole table is one team: paired win-rate difference on the same deals)"
             if t["cooperative"] else "(its part of the M1 wins the two budgets took; "
             "0 = the doubling buys nothing)")
          + f", 95% interval; p two-sided; Holm over the {len(t['steps'])} steps; "
          "* = positive and significant after Holm (counts toward the skill depth).", "",
          "| step | gain | 95% CI | p | Holm p | sig. | games | wall s |",
          "|---|---|---|---|---|---|---|---|"]
    for s in t["steps"]:
        md.append(f"| @{s['low']} → @{s['high']} | {s['gain']:+.4f} | "
                  f"[{s['ci_lo']:+.4f}, {s['ci_hi']:+.4f}] | {s['p']:.2g} | "
                  f"{s['p_holm']:.2g} | {'*' if s['significant'] else ''} | {s['games']} | "
                  f"{s['wall_s']:.0f} |")
    c = t["ceiling"]
    if c:
        md += ["", f"Ceiling: `{c['policy']}` against `{c['against']}`: gap {c['gain']:+.4f} "
                   f"[{c['ci_lo']:+.4f}, {c['ci_hi']:+.4f}] ({c['games']} games; not in "
                   "the Holm family)."]
    if t["speed"]:
        md += ["", f"Speed ({t['policy']} at every seat, games per CPU-second, "
                   f"{t['speed'][0]['games']} deals each, one core, timed during the run): "
                   + ", ".join(f"@{s['budget']} {s['games_per_s']:.1f}" for s in t["speed"])
                   + "."]
    md += ["", "Regenerate: `" + (t["command"] or "(from the Python API)") + "`", "",
           f"Provenance: seed {t['seed']}; rules contract {t['contract']}; demos-sim "
           f"{t['version']}; git revision {t['git_revision']}; configuration "
           f"`{json.dumps(t['config'], sort_keys=True)}`."]
    return "\n".join(md) + "\n"


def _plot(out: Path, t: dict) -> None:
    from demos_sim.analysis.core.plotting import error_bars, save_tight, tight_figure

    steps = t["steps"]
    x = [s["high"] for s in steps]
    y = [s["gain"] for s in steps]
    fig, ax = tight_figure(7.0, 4.2)
    eb = error_bars(y, [s["ci_lo"] for s in steps], [s["ci_hi"] for s in steps])
    ax.errorbar(x, y, yerr=eb, fmt="-", color="C0", capsize=4, lw=1)
    for s in steps:
        ax.plot([s["high"]], [s["gain"]], "o", color="C0",
                mfc="C0" if s["significant"] else "white", ms=7)
    c = t["ceiling"]
    if c:
        xc = steps[-1]["high"] * 1.6
        ax.errorbar([xc], [c["gain"]], yerr=error_bars([c["gain"]], [c["ci_lo"]], [c["ci_hi"]]),
                    fmt="s", color="C3", capsize=4, label=f"ceiling: {c['policy']} vs "
                                                          f"{c['against']}")
        ax.legend(fontsize=8, loc="best")
    ax.axhline(0, color="grey", lw=1, ls="--")
    ax.set_xscale("log", base=2)
    ax.set_xticks(x)
    ax.set_xticklabels([f"{s['low']}→{s['high']}" for s in steps], fontsize=8)
    ax.set_xlabel(f"budget step of {t['policy']} (log2 axis); filled: significant gain "
                  "after Holm")
    ax.set_ylabel(("win-rate difference" if t["cooperative"] else "win share − 0.5")
                  + ", 95% CI")
    ax.set_title(f"{title(t)}\n{t['title']} {_setting(t)}, {t['deals']} deals per step, "
                 f"every rotation", fontsize=9)
    save_tight(fig, out, "skill.png")


# ------------------------------------------------------------------ command line


def _command(args) -> str:
    """The ``demos-sim skill`` command line that regenerates ``args`` (canonical form)."""
    parts = ["demos-sim", "skill", "--game", args.game]
    for k in ("rules", "mode", "level", "seating", "players"):
        v = getattr(args, k)
        if v is not None:
            parts += [f"--{k}", str(v)]
    for s in args.set:
        parts += ["--set", s]
    for p in args.plugin:
        parts += ["--plugin", p]
    parts += ["--policy", args.policy, "--budgets", args.budgets, "--games", str(args.games),
              "--seed", str(args.seed)]
    if args.ceiling:
        parts += ["--ceiling", args.ceiling]
    if args.speed_games != 16:
        parts += ["--speed-games", str(args.speed_games)]
    if args.out:
        parts += ["--out", str(args.out)]
    return " ".join(shlex.quote(p) for p in parts)


def _cmd_skill(args) -> int:
    import sys

    from demos_sim.game import CLI_SETTINGS, get_game, parse_set

    g = get_game(args.game)
    g.load_plugins(args.plugin)
    if args.speed_games < 0:
        raise ConfigError("--speed-games must be at least 0")
    if args.out:
        from demos_sim.sim_common import check_out_folder
        check_out_folder(args.out)
    config = make_config(args.game, args.players, parse_set(args.set),
                         **{k: getattr(args, k, None) for k in CLI_SETTINGS})
    progress = None if args.json else (lambda msg: print(msg, file=sys.stderr, flush=True))
    t = skill_trace(args.game, config, args.policy, args.budgets, args.games, args.seed,
                    tuple(args.plugin), args.ceiling, args.speed_games, _command(args),
                    progress, **play_options(args, quiet=args.json))
    if args.out:
        write_trace(args.out, t)
    print(json.dumps(t, indent=2) if args.json else format_trace(t))
    if args.out and not args.json:
        print(f"wrote {args.out}/skill.csv, skill.json, skill.md, skill.png")
    return 0


def add_skill_parser(sub) -> None:
    """``demos-sim skill``: registered by :func:`demos_sim.cli.build_parser`."""
    sp = sub.add_parser("skill", help="the skill trace: each doubling of a policy's budget "
                                      "against the one below, paired gains, Holm, skill depth",
                        description=__doc__.split("\n\n")[0])
    sp.add_argument("--game", default="demos", help="demos, protocole or assemblee")
    sp.add_argument("--rules", default=None, help="DĒMOS: full (default) or simplified")
    sp.add_argument("--mode", default=None,
                    help="DĒMOS: individual (default), 2v2, 2v3, 2v2+1 (the budgets take "
                         "turns on every side); Protocole: each (default) or coop")
    sp.add_argument("--level", type=int, default=None, help="Protocole coop level")
    sp.add_argument("--seating", default=None, help="DĒMOS team modes: label by seat")
    sp.add_argument("--players", type=int, default=None, help="seats (default: the game's)")
    sp.add_argument("--set", action="append", metavar="VARIANT=VALUE", default=[],
                    help="variant of RULES.md Part V (see `demos-sim variants`)")
    sp.add_argument("--policy", required=True,
                    help="a policy that takes a budget, without @N (e.g. ismcts, search; "
                         "`demos-sim policies` shows which)")
    sp.add_argument("--budgets", required=True,
                    help="increasing budgets, e.g. 4,8,16,32,64 (each step: the larger "
                         "against the smaller)")
    sp.add_argument("--games", type=int, default=500,
                    help="deals per step (each played in every rotation)")
    sp.add_argument("--seed", type=int, default=0,
                    help="seed of the deals (a whole number >= 0): the same seed plays the "
                         "same games")
    sp.add_argument("--ceiling", default=None, metavar="SPEC",
                    help="a reference policy played against the top budget, e.g. "
                         "omniscient@64 (any policy spec of the game)")
    sp.add_argument("--speed-games", type=int, default=16,
                    help="deals timed per budget with the policy at every seat (0: no timing)")
    sp.add_argument("--out", default=None, help="folder for skill.csv/.json/.md/.png")
    add_play_options(sp, STORE_HELP)
    sp.add_argument("--json", action="store_true",
                    help="one JSON object on stdout (shares as fractions from 0 to 1)")
    sp.add_argument("--plugin", action="append", metavar="MODULE_OR_FILE.py", default=[],
                    help="import a module that registers extra policies (repeatable)")
    sp.set_defaults(func=_cmd_skill)


__all__ = ["parse_budgets", "budget_specs", "gain_of", "holm_depth", "skill_trace",
           "write_trace", "format_trace", "headline", "title", "add_skill_parser"]
