"""``demos-sim tune TUNE.toml``: parse, call, print (registered in :mod:`demos_sim.cli`)."""

from __future__ import annotations

import json
from pathlib import Path


def add_tune_parser(sub) -> None:
    ap = sub.add_parser(
        "tune", help="search integer rule parameters (point values …) for balance targets",
        description="Tune integer parameters of a rule set toward targets (seat parity, a "
                    "combination's share of round wins, …): seeded optuna search on common "
                    "deals, racing of the best on fresh deals, intervals, paired differences "
                    "from the runner-up and the default, parameter importance. The file "
                    "format is in the README (section 'Tuning point values').")
    ap.add_argument("file", metavar="TUNE.toml")
    ap.add_argument("--out", default=None, metavar="DIR", help="output folder "
                    "(default results/<name>)")
    ap.add_argument("--workers", type=int, default=1, help="worker processes")
    ap.add_argument("--trials", type=int, default=None, help="search trials (file's default)")
    ap.add_argument("--games", type=int, default=None, help="games per search trial")
    ap.add_argument("--final-games", type=int, default=None,
                    help="games of each finalist in the last racing round")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    ap.add_argument("--quiet", action="store_true")
    ap.set_defaults(func=cmd_tune)


def cmd_tune(args) -> int:
    from demos_sim.tuner.outputs import jsonable
    from demos_sim.tuner.search import tune
    from demos_sim.tuner.spec import TuneError, load_tune

    if args.workers < 1:
        raise TuneError(f"--workers must be at least 1, got {args.workers}")
    spec = load_tune(args.file).with_budget(args.trials, args.games, args.final_games)
    s = tune(spec, out=args.out, workers=args.workers, quiet=args.quiet or args.json)
    if args.json:
        print(json.dumps({k: v for k, v in s.items() if k != "file"}, indent=1,
                         default=jsonable))
    else:
        print(f"wrote {Path(args.out) if args.out else Path('results') / spec.name}")
    return 0
