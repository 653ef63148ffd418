"""``demos-sim`` command line: parse, call, print. Errors are one line and exit 2."""

from __future__ import annotations

import argparse
import json
import sys
import warnings

from demos_sim import ConfigError


def _add_game_args(p: argparse.ArgumentParser):
    p.add_argument("--game", default="demos", help="demos (protocole: see issues)")
    p.add_argument("--rules", default="full", help="full or simplified (D1)")
    p.add_argument("--mode", default="individual", help="individual, 2v2, 2v3 or 2v2+1 (D9.1)")
    p.add_argument("--players", type=int, default=None, help="3–5 (fixed by team modes)")
    p.add_argument("--seating", default=None, help="team label by seat, e.g. ABABI (D9.2)")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--policies", default="greedy",
                   help="comma-separated policy by seat, or one for every seat")
    p.add_argument("--set", action="append", metavar="VARIANT=VALUE", default=[],
                   help="variant of RULES.md Part V (VALUE read as JSON when it parses)")
    p.add_argument("--plugin", action="append", metavar="MODULE_OR_FILE.py", default=[],
                   help="import a module that registers extra policies (repeatable)")


def _config(args):
    from demos_sim.demos.rules import MODE_PLAYERS, DemosConfig, parse_set

    if args.game != "demos":
        raise ConfigError(f"unknown or not yet available game {args.game!r} (available: demos)")
    players = args.players
    if players is None:
        players = MODE_PLAYERS.get(args.mode, 4)
    return DemosConfig(rules=args.rules, mode=args.mode, players=players,
                       seating=args.seating, variants=parse_set(args.set))


def _specs(args, config):
    from demos_sim.demos.policies import resolve
    from demos_sim.registry import load_plugin

    for plugin in args.plugin:
        load_plugin(plugin)
    specs = [s for s in args.policies.split(",")]
    resolve(specs, config.players)  # unknown policy / wrong count: refuse now
    return specs


def cmd_simulate(args) -> int:
    from demos_sim.demos.sim import simulate

    config = _config(args)
    specs = _specs(args, config)
    result = simulate(config, specs, args.games, args.seed, workers=args.workers)
    s = result.summary()
    if args.json:
        print(json.dumps(s))
        return 0
    what = "side" if config.mode != "individual" else "seat"
    print(f"DĒMOS {config.rules} rules, {config.mode}, {config.players} players, "
          f"policies {','.join(specs)}, seed {args.seed}")
    print(f"{s['games']} games, {s['rounds']} rounds, {s['mean_rounds']:.2f} rounds/game")
    print(f"{what:>6}  seats      win share   95% CI")
    for side in s["sides"]:
        lo, hi = side["ci95"]
        seats = ",".join(map(str, side["seats"]))
        print(f"{side['side']:>6}  {seats:<9}  {side['share']:.4f}     [{lo:.4f}, {hi:.4f}]")
    print(f"no winner {s['no_winner_share']:.4f}   truncated {s['truncated_share']:.4f}   "
          f"vetoes/game {s['vetoes_per_game']:.3f}")
    print(f"throughput: {s['rounds_per_s']:,.0f} rounds/s, {s['games_per_s']:,.0f} games/s "
          f"({args.workers} worker{'s' if args.workers > 1 else ''}, {s['wall_s']:.2f} s)")
    return 0


def cmd_record(args) -> int:
    from demos_sim.demos.record import write_records

    config = _config(args)
    specs = _specs(args, config)
    n = write_records(args.out, config, specs, args.games, args.seed)
    print(f"wrote {n} game records to {args.out}", file=sys.stderr)
    return 0


def cmd_policies(args) -> int:
    from demos_sim.demos.policies import available, get
    from demos_sim.registry import load_plugin

    for plugin in args.plugin:
        load_plugin(plugin)
    for name in available():
        p = get(name)
        flags = f"  (restricted: {', '.join(name + ':' + f for f in p.flags)})" if p.flags else ""
        print(f"{name:<10} {p.description}{flags}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="demos-sim", description=__doc__)
    sub = ap.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("simulate", help="play games and print win shares with 95%% CIs")
    _add_game_args(sp)
    sp.add_argument("--workers", type=int, default=1, help="processes (joblib)")
    sp.add_argument("--json", action="store_true", help="one JSON object on stdout")
    sp.set_defaults(func=cmd_simulate)
    rp = sub.add_parser("record", help="write game records (GAME_RECORD.md) as JSON Lines")
    _add_game_args(rp)
    rp.add_argument("--out", required=True, help="output .jsonl file")
    rp.set_defaults(func=cmd_record)
    pp = sub.add_parser("policies", help="list the registered policies")
    pp.add_argument("--plugin", action="append", default=[], help="import extra policies")
    pp.set_defaults(func=cmd_policies)
    return ap


def main(argv=None) -> int:
    warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
    args = build_parser().parse_args(argv)
    try:
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


if __name__ == "__main__":
    sys.exit(main())
