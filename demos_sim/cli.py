"""``demos-sim`` command line: parse, call, print. Errors are one line: exit 2 for input
that cannot be used, 1 when the system refuses (disk full, no permission)."""

from __future__ import annotations

import argparse
import json
import math
import sys
import warnings

from demos_sim import ConfigError
from demos_sim.game import CLI_SETTINGS, GAMES, get_game, parse_set
from demos_sim.restricted import Lineup, lineup


DESCRIPTION = """\
Play DĒMOS, Protocole or L'Assemblée many times with bots and see what a rule does: each
seat's or side's win share, games without a winner, game length and points, every figure
with its 95% interval. Shares are printed in % and their differences in pp (percentage
points); --json and the files a run writes keep them as fractions from 0 to 1.

Start with `demos-sim simulate` (the rules as printed), `demos-sim compare --set
carre_points=40` (one change against the rules, on the same deals), `demos-sim variants`
(the rules you can change) and `demos-sim policies` (the bots). `demos-sim COMMAND --help`
explains each command."""


class _Help(argparse.HelpFormatter):
    """Help that states every option's default (argparse's ArgumentDefaultsHelpFormatter
    without its ``(default: None)`` on options that have none)."""

    def _get_help_string(self, action):
        text = action.help or ""
        none = (action.default is None or action.default is False or action.default == []
                or action.default == argparse.SUPPRESS)
        if not none and "default" not in text:
            text += " (default: %(default)s)"
        return text


class Parser(argparse.ArgumentParser):
    """``demos-sim``'s parser: its sub-commands are parsers of this class too, so every
    command's help states its defaults (:class:`_Help`)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)


def _add_game_args(p: argparse.ArgumentParser, games_help: str = "games to play",
                   set_help: str | None = None):
    p.add_argument("--game", default="demos", help=f"one of {', '.join(GAMES)}")
    p.add_argument("--rules", default=None, help="DĒMOS: full (default) or simplified (D1)")
    p.add_argument("--mode", default=None,
                   help="DĒMOS: individual (default), 2v2, 2v3 or 2v2+1 (D9.1); "
                        "Protocole: each (default) or coop (P5)")
    p.add_argument("--level", type=int, default=None, help="Protocole coop: 1, 2 or 3 (P5.3)")
    p.add_argument("--players", type=int, default=None,
                   help="DĒMOS 3–5 (fixed by team modes); Protocole 2–4 (default 4); "
                        "L'Assemblée 4–15 (default 6)")
    p.add_argument("--seating", default=None, help="DĒMOS team label by seat, e.g. ABABI (D9.2)")
    p.add_argument("--handicap-points", type=int, default=None,
                   help="DĒMOS 2v3/2v2+1 trial rule, not in contract 2: every member of the "
                        "smaller side starts with this many cumulative points")
    p.add_argument("--handicap-vetoes", type=int, default=None,
                   help="DĒMOS 2v3/2v2+1 trial rule, not in contract 2: the smaller side "
                        "holds this many vetoes more")
    p.add_argument("--games", type=int, default=1000, help=games_help)
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the deals (a whole number >= 0): the same seed plays the "
                        "same games")
    p.add_argument("--policies", default=None,
                   help="comma-separated policy by seat, or one for every seat (default: "
                        "DĒMOS greedy; Protocole cautious in each, convention in coop; "
                        "L'Assemblée civic)")
    p.add_argument("--set", action="append", metavar="VARIANT=VALUE", default=[],
                   help=set_help or "variant of RULES.md Part V (VALUE read as JSON when it "
                                    "parses); `demos-sim variants --game G` lists them")
    p.add_argument("--plugin", action="append", metavar="MODULE_OR_FILE.py", default=[],
                   help="import a module that registers extra policies (repeatable)")


def _game(args):
    return get_game(args.game)


def _config(args):
    """The configuration of ``--game`` from the command line (one-line errors)."""
    return _game(args).config_from_options({k: getattr(args, k) for k in CLI_SETTINGS},
                                           args.players, parse_set(args.set))


def _settings(args) -> dict:
    """The game settings given on the command line (``--mode``, ``--handicap-points`` …);
    one that does not apply to ``--game`` is refused with one line."""
    game = _game(args)
    settings = {k: getattr(args, k) for k in CLI_SETTINGS if getattr(args, k) is not None}
    for key in settings:
        if key not in game.settings:
            raise ConfigError(f"--{key} does not apply to {game.title}")
    return settings


def _lineup(args, config) -> Lineup:
    """``--policies`` by seat (default: the game's) read once, ``--plugin`` loaded; unknown
    policy, wrong count, idle :flag: refused now, in one line."""
    game = _game(args)
    spec = args.policies if args.policies is not None else game.default_policies(config)
    return lineup(game, spec, config, args.plugin)


def cmd_simulate(args) -> int:
    from demos_sim.runner.simulate import print_summary, simulate

    config = _config(args)
    seats = _lineup(args, config)
    sim = simulate(args.game, config, seats, args.games, args.seed, workers=args.workers,
                   plugins=tuple(args.plugin))
    if args.json:
        out = sim.summary()
        out["reference_policies"] = seats.references()   # sees all hidden cards (not M2)
        print(json.dumps(out, default=str))
    else:
        print_summary(sim)
        if seats.note():
            print(seats.note())
    return 0


def cmd_compare(args) -> int:
    """A paired what-if from the command line (no experiment file)."""
    from demos_sim.analysis.core.whatif import compare, format_whatif

    game = _game(args)
    hw = args.half_width
    if hw is not None and not (hw > 0 and math.isfinite(hw)):
        raise ConfigError(f"--half-width must be a finite number > 0, got {hw}")
    settings = _settings(args)
    for option, items in (("--set", args.set), ("--against-set", args.against_set)):
        variants = parse_set(items)
        config = game.config_from_options({k: getattr(args, k) for k in CLI_SETTINGS},
                                          args.players, variants)
        for name in variants:
            where = game.variant_scope(config, name)
            if where:
                raise ConfigError(f"{option} {name}: {name} applies {where}, not to this "
                                  "game: the two games would be identical")
    w = compare(args.game, settings, args.players, parse_set(args.set),
                against=parse_set(args.against_set),
                policies=args.policies.split(",") if args.policies else None,
                against_policies=(args.against_policies.split(",")
                                  if args.against_policies else None),
                games=args.games, seed=args.seed, workers=args.workers,
                plugins=tuple(args.plugin), half_width=args.half_width,
                allow_reference=args.allow_reference)
    if args.json:
        print(json.dumps({"game": args.game, "reference": w.reference, "change": w.change,
                          "games": w.games, "seed": args.seed,
                          "rows": w.table.to_dict(orient="records"),
                          "contract": w.run.meta["contract"], "version": w.run.meta["version"],
                          "git_revision": w.run.meta["git_revision"]}, default=str))
    else:
        print(format_whatif(w, game.title))
    return 0


def _workers(args) -> None:
    if args.workers < 1:
        raise ConfigError(f"--workers must be at least 1, got {args.workers}")


def cmd_sweep(args) -> int:
    """A numeric setting played at several values on the same deals: verdict, table, plot."""
    from pathlib import Path

    from demos_sim.analysis.core.plotting import png_bytes
    from demos_sim.analysis.core.sweep import (format_sweep, plan_sweep, plot_sweep,
                                               provenance_table, run_sweep, split_sets)
    from demos_sim.runner.store import atomic_write_bytes, atomic_write_text

    game = _game(args)
    _workers(args)
    game.load_plugins(args.plugin)
    name, values, fixed = split_sets(parse_set(args.set))
    plan = plan_sweep(args.game, name, values, _settings(args), args.players, fixed,
                      policies=args.policies.split(",") if args.policies else None,
                      games=args.games, seed=args.seed, plugins=tuple(args.plugin),
                      allow_reference=args.allow_reference)
    out = Path(args.out) if args.out else Path("results") / f"sweep-{name}"
    sw = run_sweep(plan, out=out, workers=args.workers, quiet=args.json)
    cfg = plan.experiment.points[0].config
    where = [f"{v}" for k, v in game.describe(cfg).items()
             if k in ("rules", "mode", "level") and k != name and v is not None]
    title = ", ".join([" ".join([game.title, *where]), f"{game.players_of(cfg)} players",
                       ",".join(dict.fromkeys(plan.policies))])
    prov = provenance_table(sw.table, sw.run.meta, game.name)
    fig = plot_sweep(sw.table, f"{title}: {name} on the same {sw.games:,} deals a value "
                               "(95% bands)")
    atomic_write_bytes(out / "sweep.png", png_bytes(fig))
    atomic_write_text(out / "sweep.csv", prov.to_csv(index=False))
    if args.json:
        print(json.dumps({"game": game.name, "setting": name, "values": plan.values,
                          "reference": plan.ref_value, "games": sw.games, "seed": args.seed,
                          "rows": json.loads(sw.table.to_json(orient="records")),
                          "contract": sw.run.meta["contract"],
                          "version": sw.run.meta["version"],
                          "git_revision": sw.run.meta["git_revision"],
                          "plot": str(out / "sweep.png"), "csv": str(out / "sweep.csv")},
                         default=str))
    else:
        print(format_sweep(sw.table, title))
        print(f"wrote {out / 'sweep.png'} and {out / 'sweep.csv'} (the run is in {out}: "
              f"`demos-sim report {out}` draws the same curves)")
    return 0


def cmd_solve(args) -> int:
    """The smallest value of a numeric setting that meets a fairness target."""
    from demos_sim.analysis.core.solve import (format_solution, parse_bounds, parse_target,
                                               solution_dict, solve)

    game = _game(args)
    _workers(args)
    game.load_plugins(args.plugin)
    target = parse_target(args.target)
    bounds = parse_bounds(args.range) if args.range is not None else None
    if args.confirm_games is not None and args.confirm_games < 1:
        raise ConfigError(f"--confirm-games must be at least 1, got {args.confirm_games}")
    if args.confirm_games is not None:
        from demos_sim.sim_common import check_games
        check_games(args.confirm_games)
    progress = None
    if not args.json:
        def progress(p):
            print(f"  {args.over} = {p.value}: {p.verdict} ({p.games:,} games, seed {p.seed}, "
                  f"{p.wall_s:.1f} s)", file=sys.stderr, flush=True)
    sol = solve(args.game, args.over, target, _settings(args), args.players,
                parse_set(args.set),
                policies=args.policies.split(",") if args.policies else None,
                games=args.games, seed=args.seed, bounds=bounds,
                confirm_games=args.confirm_games, workers=args.workers,
                plugins=tuple(args.plugin), allow_reference=args.allow_reference,
                on_probe=progress)
    if args.json:
        print(json.dumps(solution_dict(sol), default=str))
    else:
        print(format_solution(sol, game.title))
    return 0


def cmd_record(args) -> int:
    game = _game(args)
    config = _config(args)
    seats = _lineup(args, config)
    n = game.write_records(args.out, config, list(seats.specs), args.games, args.seed)
    print(f"wrote {n} game records to {args.out}", file=sys.stderr)
    return 0


def cmd_policies(args) -> int:
    game = _game(args)
    registry = game.policies
    game.load_plugins(args.plugin)
    for name in registry.available():
        p = registry.describe(name)     # the declared table: no policy module imported
        flags = f"  (restricted: {', '.join(name + ':' + f for f in p.flags)})" if p.flags else ""
        budget = f"  (budget: {name}@N, default {p.default_budget})" if p.budget is not None else ""
        print(f"{name:<10} {p.description}{flags}{budget}")
    print("a policy spec is name[:flag][@N]: ':flag' a restricted form, '@N' the search "
          "budget (a whole number from 1 to 1000000) of the policies that show one")
    return 0


def cmd_train_apprentice(args) -> int:
    from demos_sim.demos.policies.apprentice_train import train
    from demos_sim.runner.backends import map_tasks

    train(args.teacher, args.games, args.seed, args.dagger_games, args.l2, args.out,
          say=lambda s: print(s, flush=True), keep_positions=args.keep_positions,
          mapper=lambda fn, a: map_tasks(fn, a, args.workers))
    return 0


def cmd_variants(args) -> int:
    """Every variant of RULES.md Part V for a game: default, values and what it changes."""
    game = _game(args)
    print(f"{'variant':<26} {'default':<20} what it changes (RULES.md)")
    for name, default in game.variant_defaults().items():
        shown = json.dumps(default) if not isinstance(default, str) else default
        print(f"{name:<26} {shown:<20} {game.variant_help()[name]}")
    print(f"set one with --set NAME=VALUE ({', '.join(_commands_with('--set'))}) or in an "
          "experiment's [grid]")
    trial = game.trial_rules()
    if trial:
        print("\ntrial rules (not in the contract; game records refuse them)")
        for name, text in trial.items():
            print(f"{name:<26} {'0':<20} {text}")
            option = f"--{name.replace('_', '-')}"
            print(f"{'':<47} set with {option} N ({', '.join(_commands_with(option))}), or "
                  f"{name} = N in an experiment file")
    return 0


def _commands_with(option: str) -> list[str]:
    """The sub-commands that take ``option`` (read from the parser: never out of date)."""
    sub = next(a for a in build_parser()._actions
               if isinstance(a, argparse._SubParsersAction))
    return [name for name, p in sub.choices.items() if option in p._option_string_actions]


def _add_simulate(sub) -> None:
    """``demos-sim simulate``: play games, print the shares."""
    sp = sub.add_parser("simulate", help="play games and print win shares with 95%% CIs")
    _add_game_args(sp)
    sp.add_argument("--workers", type=int, default=1,
                    help="worker processes (about one per CPU core; the same numbers for any "
                         "count)")
    sp.add_argument("--json", action="store_true",
                    help="one JSON object on stdout instead of the table (shares as "
                         "fractions from 0 to 1, not %%)")
    sp.set_defaults(func=cmd_simulate)


def _add_compare(sub) -> None:
    """``demos-sim compare``: one change against the defaults, paired."""
    cp = sub.add_parser("compare", help="a rule change against the defaults, paired on the "
                                        "same deals (no experiment file)",
                        description="Play the game with --set VARIANT=VALUE (and/or other "
                                    "--policies) and without, on the same deals, and print "
                                    "every figure of simulate with its paired difference and "
                                    "95% interval: shares in %, their differences in pp "
                                    "(percentage points). The differences are tested "
                                    "together (Holm: a * marks those beyond chance over "
                                    "every row, 5% family-wise error).")
    _add_game_args(cp, games_help="games played with the change and as many without, on "
                                  "the same deals")
    cp.set_defaults(games=20000)
    cp.add_argument("--against-set", action="append", metavar="VARIANT=VALUE", default=[],
                    help="the reference's variants (default: the contract's defaults)")
    cp.add_argument("--against-policies", default=None,
                    help="the reference's policies (default: the same as --policies)")
    cp.add_argument("--half-width", type=float, default=None,
                    help="stop once every win-share difference's 95%% half-width is at most "
                         "this, a fraction: 0.005 is ±0.5 pp (--games is then the most "
                         "played on each side)")
    cp.add_argument("--workers", type=int, default=1,
                    help="worker processes (about one per CPU core; the same numbers for any "
                         "count)")
    cp.add_argument("--json", action="store_true",
                    help="one JSON object on stdout instead of the table (shares and their "
                         "differences as fractions from 0 to 1, not %% and pp)")
    cp.add_argument("--allow-reference", action="store_true",
                    help="accept a reference policy (omniscient: sees every hidden card, "
                         "exempt from M2), refused otherwise")
    cp.set_defaults(func=cmd_compare)


def _add_sweep(sub) -> None:
    """``demos-sim sweep``: one numeric rule at several values."""
    wp = sub.add_parser(
        "sweep", help="one numeric rule at several values on the same deals: what it moves, "
                      "as curves",
        description="Play the game at every value of one numeric rule — a variant such as "
                    "carre_points, max_rounds or team_vetoes, or a trial rule such as "
                    "handicap_points — on the same deals, and print what each value changes "
                    "against the rule's default (or the first value when the default is not "
                    "swept): each seat's or side's win share, games without a winner, the "
                    "Carré's share of round wins (DĒMOS), game length in rounds and points, "
                    "each with its 95% interval. A verdict sentence first, then the table "
                    "(shares in %, their changes in pp: percentage points; * marks a change "
                    "beyond chance, Holm over every change). Writes sweep.png (the changes "
                    "against the value, with 95% bands) and sweep.csv (every figure with the "
                    "seed, the configuration, the rules contract, the version and the git "
                    "revision) into --out, with the run itself: run the same command again "
                    "and it resumes; `demos-sim report OUT` draws the same curves. Example: "
                    "demos-sim sweep --set carre_points=20:60:10 --games 20000",
        formatter_class=_Help)
    _add_game_args(wp, games_help="games played at each value, on the same deals for every "
                                  "value",
                   set_help="the rule to sweep, written NAME=START:STOP:STEP (20:60:10 is 20, "
                            "30, 40, 50, 60) or NAME=A,B,C; any other --set NAME=VALUE is "
                            "fixed for every value. `demos-sim variants --game G` lists the "
                            "rules; the numeric ones can be swept")
    wp.set_defaults(games=10000)
    wp.add_argument("--out", metavar="DIR", default=None,
                    help="folder for the run, sweep.png and sweep.csv (default: "
                         "results/sweep-NAME)")
    wp.add_argument("--workers", type=int, default=1,
                    help="worker processes (about one per CPU core; the same numbers for any "
                         "count)")
    wp.add_argument("--json", action="store_true",
                    help="one JSON object on stdout instead of the text (shares and their "
                         "changes as fractions from 0 to 1, not %% and pp)")
    wp.add_argument("--allow-reference", action="store_true",
                    help="accept a reference policy (omniscient: sees every hidden card), "
                         "refused otherwise")
    wp.set_defaults(func=cmd_sweep)


def _add_solve(sub) -> None:
    """``demos-sim solve``: the smallest value that meets a fairness target."""
    sv = sub.add_parser(
        "solve", help="the smallest value of a numeric rule that makes a mode fair",
        description="Find the smallest value of one numeric rule (--over) that meets a "
                    "fairness target (--target), e.g. the handicap that makes 2v2+1 fair: "
                    "demos-sim solve --target \"2v2+1 fair\" --over handicap_points. Fair "
                    "means every side's share of the games that had a winner lies within the "
                    "margin (default ±1 pp) of its fair share — per side, 1/K of the won "
                    "games for K sides (2v2+1: a third each, the Independent included); per "
                    "seat, its seats' share of the table (2v2+1: 2/5, 2/5, 1/5) — shown by "
                    "the equivalence test of the analyses (TOST: the 90% interval inside the "
                    "margin). The search plays values on the same deals, galloping up from "
                    "the lowest value the rules allow (or --range) and then halving the last "
                    "step (about 2·log2(answer) values); it assumes the rule helps the side "
                    "that is behind at the lowest value more as it grows. The value found is "
                    "played again on fresh deals (a new seed) and reported with every side's "
                    "share, its 95% interval and verdict. When no value meets the target it "
                    "says so and names the side that prevents it.",
        formatter_class=_Help)
    _add_game_args(sv, games_help="games played at each value tried, on the same deals "
                                  "for every value")
    sv.set_defaults(games=50000)
    sv.add_argument("--target", required=True,
                    help="what to reach: '[MODE] fair [per side|per seat] [within N pp]', "
                         "e.g. '2v2+1 fair', '2v3 fair per seat', '2v2+1 fair within 2 pp' "
                         "(MODE sets --mode; per side and 1 pp unless given)")
    sv.add_argument("--over", required=True, metavar="RULE",
                    help="the numeric rule to search: a variant (team_vetoes, carre_points …) "
                         "or a trial rule (handicap_points, handicap_vetoes)")
    sv.add_argument("--range", default=None, metavar="LO:HI",
                    help="search only from LO to HI (default: every value the rules allow, "
                         "e.g. 0 to 1,000,000 points)")
    sv.add_argument("--confirm-games", type=int, default=None,
                    help="games played on fresh deals at the value found (default: twice "
                         "--games)")
    sv.add_argument("--workers", type=int, default=1,
                    help="worker processes (about one per CPU core; the same numbers for any "
                         "count)")
    sv.add_argument("--json", action="store_true",
                    help="one JSON object on stdout instead of the text (shares as "
                         "fractions from 0 to 1)")
    sv.add_argument("--allow-reference", action="store_true",
                    help="accept a reference policy (omniscient: sees every hidden card), "
                         "refused otherwise")
    sv.set_defaults(func=cmd_solve)


def _add_record_and_lists(sub) -> None:
    """``demos-sim record``, ``policies`` and ``variants``."""
    rp = sub.add_parser("record", help="write game records (GAME_RECORD.md) as JSON Lines")
    _add_game_args(rp)
    rp.add_argument("--out", required=True, help="the .jsonl file to write")
    rp.set_defaults(func=cmd_record)
    pp = sub.add_parser("policies", help="list the registered policies")
    pp.add_argument("--game", default="demos", help=f"one of {', '.join(GAMES)}")
    pp.add_argument("--plugin", action="append", metavar="MODULE_OR_FILE.py", default=[],
                    help="import a module that registers extra policies (repeatable)")
    pp.set_defaults(func=cmd_policies)
    vp = sub.add_parser("variants", help="list a game's variants (RULES.md Part V)")
    vp.add_argument("--game", default="demos", help=f"one of {', '.join(GAMES)}")
    vp.set_defaults(func=cmd_variants)


def _add_train_apprentice(sub) -> None:
    """``demos-sim train-apprentice``: the DĒMOS apprentice's weights."""
    ta = sub.add_parser(
        "train-apprentice",
        help="regenerate the DĒMOS apprentice's weights from a teacher's decisions (about "
             "25 minutes on 2 cores with the defaults)",
        description="Play --games games of tuned self-play and --dagger-games of the "
                    "apprentice's own, label every discard turn and veto with the teacher's "
                    "choice, and fit the apprentice's weights (a conditional logit, scipy's "
                    "L-BFGS) into demos_sim/demos/policies/apprentice_weights.py; the same "
                    "seed writes the same file. Time: the teacher's decisions dominate; "
                    "ismcts@256 labels about 700 a second a core, about 155 a game, so the "
                    "defaults take about 25 minutes on 2 cores (make apprentice).")
    ta.add_argument("--teacher", default="ismcts@256",
                    help="the policy whose choices the apprentice learns (not a reference)")
    ta.add_argument("--games", type=int, default=2400, help="games of tuned self-play")
    ta.add_argument("--dagger-games", type=int, default=None,
                    help="games of the apprentice's own play, labelled by the teacher "
                         "(default: half of --games)")
    ta.add_argument("--seed", type=int, default=0, help="seed of the games and the labels")
    ta.add_argument("--l2", type=float, default=1e-3, help="L2 penalty of the fit")
    ta.add_argument("--workers", type=int, default=2, help="processes")
    ta.add_argument("--out", default=None,
                    help="the weights module to write (default: the package's "
                         "apprentice_weights.py)")
    ta.add_argument("--keep-positions", default=None, metavar="PREFIX",
                    help="save each round's labelled positions to PREFIX-1.npz and "
                         "PREFIX-2.npz, and reuse them when the same run (teacher, seed, games, "
                         "round-1 weights) is asked again: only the fit is redone")
    ta.set_defaults(func=cmd_train_apprentice)


def build_parser() -> argparse.ArgumentParser:
    ap = Parser(prog="demos-sim", description=DESCRIPTION,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    _add_simulate(sub)
    _add_compare(sub)
    _add_sweep(sub)
    _add_solve(sub)
    _add_record_and_lists(sub)
    from demos_sim.report.cli import add_analyse_parser, add_report_parser
    from demos_sim.runner.cli_cmds import add_run_parser
    add_run_parser(sub)      # demos-sim run EXPERIMENT.toml
    add_report_parser(sub)   # demos-sim report RESULTS_DIR
    from demos_sim.tournament import add_tournament_parser
    add_tournament_parser(sub)   # demos-sim tournament --policies A,B
    from demos_sim.skill import add_skill_parser
    add_skill_parser(sub)        # demos-sim skill --policy ismcts --budgets 4,8,16
    add_analyse_parser(sub)      # demos-sim analyse [NAME ...]
    from demos_sim.tuner.cli import add_tune_bot_parser, add_tune_parser
    add_tune_parser(sub)         # demos-sim tune TUNE.toml
    add_tune_bot_parser(sub)     # demos-sim tune-bot --policy heuristic --against …
    from demos_sim.check_policy import add_check_policy_parser
    add_check_policy_parser(sub)  # demos-sim check-policy PLUGIN
    _add_train_apprentice(sub)
    from demos_sim.explorer.cli import add_serve_parser
    add_serve_parser(sub)         # demos-sim serve (the what-if explorer)
    return ap


def _check_common(args) -> None:
    """Options several commands share, checked once for all of them."""
    seed = getattr(args, "seed", None)
    if seed is not None and seed < 0:     # numpy's SeedSequence takes whole numbers >= 0
        raise ConfigError(f"--seed must be a whole number >= 0, got {seed}")
    games = getattr(args, "games", None)
    if isinstance(games, int):
        from demos_sim.sim_common import check_games
        check_games(games)


def _os_error(e: OSError, command: str) -> str:
    """One line for an error the system raised; every file is written whole or not at all
    (:func:`demos_sim.sim_common.atomic_open`), so none is left half-written."""
    import errno

    what = e.strerror or str(e) or type(e).__name__
    where = " -> ".join(repr(str(f)) for f in (e.filename, e.filename2) if f is not None)
    hint = {errno.EEXIST: "a file is where a folder is needed",
            errno.ENOTDIR: "a file is where a folder is needed",
            errno.EISDIR: "a folder is where a file is needed"}.get(e.errno)
    kept = ("finished chunks are kept: the same command resumes from them"
            if command == "run" else "no file was left half-written")
    return f"{what}{': ' + where if where else ''} ({hint + '; ' if hint else ''}{kept})"


def main(argv=None) -> int:
    warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
    args = build_parser().parse_args(argv)
    try:
        _check_common(args)
        return args.func(args)
    except ConfigError as e:
        print(f"demos-sim: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("demos-sim: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into head & co.
        sys.stderr.close()
        return 0
    except OSError as e:     # the system refused: disk full, permissions, a file for a folder
        print(f"demos-sim: error: {_os_error(e, args.command)}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
