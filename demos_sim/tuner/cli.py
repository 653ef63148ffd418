"""``demos-sim tune TUNE.toml``: parse, call, print (registered in :mod:`demos_sim.cli`)."""

from __future__ import annotations

import json
from pathlib import Path

from demos_sim.runner.backends import add_backend_options


def add_tune_parser(sub) -> None:
    ap = sub.add_parser(
        "tune", help="search integer rule parameters (point values …) for balance targets",
        description="Tune integer parameters of a rule set toward targets (seat parity, a "
                    "combination's share of round wins, …): seeded optuna search on common "
                    "deals, racing of the best on fresh deals, intervals, paired differences "
                    "from the runner-up and the default, parameter importance. The file "
                    "format is in the README (section 'Tuning point values'). A tune "
                    "killed and started again with the same --out reads back the games "
                    "it had played.")
    ap.add_argument("file", metavar="TUNE.toml",
                    help="the tune file (format: README, 'Tuning point values')")
    ap.add_argument("--out", default=None, metavar="DIR", help="output folder "
                    "(default results/<name>)")
    add_backend_options(ap)
    ap.add_argument("--trials", type=int, default=None, help="search trials (file's default)")
    ap.add_argument("--games", type=int, default=None, help="games per search trial")
    ap.add_argument("--final-games", type=int, default=None,
                    help="games of each finalist in the last racing round")
    ap.add_argument("--json", action="store_true",
                    help="print the summary as JSON (shares as fractions from 0 to 1)")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    ap.set_defaults(func=cmd_tune)


def cmd_tune(args) -> int:
    from demos_sim.tuner.outputs import jsonable
    from demos_sim.tuner.search import tune
    from demos_sim.tuner.spec import TuneError, load_tune

    if args.workers < 1:
        raise TuneError(f"--workers must be at least 1, got {args.workers}")
    spec = load_tune(args.file).with_budget(args.trials, args.games, args.final_games)
    s = tune(spec, out=args.out, workers=args.workers, quiet=args.quiet or args.json,
             backend=args.backend, scheduler=args.scheduler)
    if args.json:
        print(json.dumps({k: v for k, v in s.items() if k != "file"}, indent=1,
                         default=jsonable))
    else:
        print(f"wrote {Path(args.out) if args.out else Path('results') / spec.name}")
    return 0


def add_tune_bot_parser(sub) -> None:
    ap = sub.add_parser(
        "tune-bot", help="tune a DĒMOS bot's parameters by self-play (the `tuned` rung)",
        description="Search the behaviour parameters of a DĒMOS policy with heuristic's "
                    "parameters (heuristic, search, tuned) by self-play: seeded TPE trials, "
                    "each a seat-rotated match against every policy of --against on the same "
                    "deals, then racing of the best on fresh deals and a confirmation against "
                    "the policy itself on more fresh deals (win share with a 95% interval). "
                    "--out writes the data file `tuned` is registered from "
                    "(demos_sim/tuner/bot.py; README 'The tuned rung').")
    ap.add_argument("--game", default="demos",
                    help="demos (a heuristic-family bot) or assemblee (a persona's best "
                         "response to the --against city: the `adaptive` persona)")
    ap.add_argument("--rules", default=None, help="full (default) or simplified")
    ap.add_argument("--mode", default=None, help="individual (default), 2v2, 2v3, 2v2+1")
    ap.add_argument("--seating", default=None, help="team modes: label by seat")
    ap.add_argument("--players", type=int, default=4, help="players at the table")
    ap.add_argument("--set", action="append", metavar="VARIANT=VALUE", default=[],
                    help="variant of RULES.md Part V")
    ap.add_argument("--policy", default="heuristic", help="the policy whose parameters are "
                                                          "tuned (default heuristic)")
    ap.add_argument("--against", default="heuristic,greedy",
                    help="the field: comma-separated opponents of every trial")
    ap.add_argument("--trials", type=int, default=120, help="search trials")
    ap.add_argument("--games", type=int, default=4096,
                    help="deals per search trial and opponent (each in every rotation)")
    ap.add_argument("--top", type=int, default=8, help="search vectors taken into the race")
    ap.add_argument("--race-games", type=int, default=16384,
                    help="deals of the last racing round (earlier rounds halve it)")
    ap.add_argument("--confirm-games", type=int, default=20000,
                    help="fresh deals of each confirmation match")
    ap.add_argument("--seed", type=int, default=0,
                    help="seed of the deals (a whole number >= 0): the same seed plays the "
                         "same games")
    ap.add_argument("--warm", action="append", default=[], metavar="TUNED.toml",
                    help="also try this file's vector right after the policy's own "
                         "(an earlier run's result; repeatable)")
    ap.add_argument("--params", default=None, metavar="NAME,NAME…",
                    help="search only these parameters (e.g. the veto's: veto_at,late,need,"
                         "veto_spend,veto_free); the others keep the policy's own values")
    ap.add_argument("--in-place", action="store_true",
                    help="DĒMOS: score a best response, the candidate at one seat (each in "
                         "turn) among --against players, instead of the seat-rotated match "
                         "(L'Assemblée is always scored so)")
    ap.add_argument("--out", default=None, metavar="FILE",
                    help="write the result as a tuned.toml (e.g. "
                         "demos_sim/demos/policies/tuned.toml)")
    ap.add_argument("--plugin", action="append", metavar="MODULE_OR_FILE.py", default=[],
                    help="import a module that registers extra policies (repeatable)")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    ap.set_defaults(func=cmd_tune_bot)


def cmd_tune_bot(args) -> int:
    import shlex

    from demos_sim.game import get_game, parse_set
    from demos_sim.tournament import make_config
    from demos_sim.tuner.bot import describe, tune_bot

    g = get_game(args.game)
    g.load_plugins(args.plugin)
    opts = {k: getattr(args, k) for k in ("rules", "mode", "seating")
            if getattr(args, k) is not None}
    config = make_config(args.game, args.players, parse_set(args.set), **opts)
    say = (lambda *a: None) if args.quiet else (lambda *a: print(*a, flush=True))
    warm = [g.tune_warm(w) for w in args.warm]
    res = tune_bot(config, policy=args.policy, field=args.against.split(","),
                   trials=args.trials, games=args.games, seed=args.seed, top=args.top,
                   race_games=args.race_games, confirm_games=args.confirm_games,
                   game=args.game, plugins=tuple(args.plugin), say=say, warm=warm,
                   params=None if args.params is None else args.params.split(","),
                   in_place=args.in_place)
    print(describe(res))
    if args.out:
        parts = ["demos-sim", "tune-bot", "--game", args.game]
        parts += [x for k, v in opts.items() for x in (f"--{k}", v)]
        parts += ["--players", str(args.players)]
        parts += [x for s in args.set for x in ("--set", s)]
        parts += ["--policy", args.policy, "--against", args.against, "--trials",
                  str(args.trials), "--games", str(args.games), "--top", str(args.top),
                  "--race-games", str(args.race_games), "--confirm-games",
                  str(args.confirm_games), "--seed", str(args.seed)]
        parts += [x for w in args.warm for x in ("--warm", w)]
        parts += (["--params", args.params] if args.params is not None else [])
        parts += (["--in-place"] if args.in_place else []) + ["--out", args.out]
        command = " ".join(shlex.quote(p) for p in parts)
        out = Path(args.out)
        tmp = out.with_suffix(out.suffix + ".tmp")
        tmp.write_text(g.write_tuned(res, command, out))
        tmp.replace(out)
        print(f"wrote {out}")
    return 0

