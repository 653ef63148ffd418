"""``demos-sim`` command line: parse, call, print. Errors are one line and exit 2."""

from __future__ import annotations

import argparse
import json
import sys
import warnings

from demos_sim import ConfigError


def _add_game_args(p: argparse.ArgumentParser):
    p.add_argument("--game", default="demos", help="demos (Part D) or protocole (Part P)")
    p.add_argument("--rules", default=None, help="DĒMOS: full (default) or simplified (D1)")
    p.add_argument("--mode", default=None,
                   help="DĒMOS: individual (default), 2v2, 2v3 or 2v2+1 (D9.1); "
                        "Protocole: each (default) or coop (P5)")
    p.add_argument("--level", type=int, default=None, help="Protocole coop: 1, 2 or 3 (P5.3)")
    p.add_argument("--players", type=int, default=None,
                   help="DĒMOS 3–5 (fixed by team modes); Protocole 2–4 (default 4)")
    p.add_argument("--seating", default=None, help="DĒMOS team label by seat, e.g. ABABI (D9.2)")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--policies", default=None,
                   help="comma-separated policy by seat, or one for every seat (default: "
                        "DĒMOS greedy; Protocole cautious in each, convention in coop)")
    p.add_argument("--set", action="append", metavar="VARIANT=VALUE", default=[],
                   help="variant of RULES.md Part V (VALUE read as JSON when it parses); "
                        "`demos-sim variants --game G` lists them")
    p.add_argument("--plugin", action="append", metavar="MODULE_OR_FILE.py", default=[],
                   help="import a module that registers extra policies (repeatable)")


GAMES = ("demos", "protocole", "assemblee")


def _check_game(game):
    if game not in GAMES:
        raise ConfigError(f"unknown or not yet available game {game!r} "
                          f"(available: {', '.join(GAMES)})")


def parse_set(items: list[str] | None) -> dict:
    """``--set`` items, ``["max_rounds=5", "no_trio_winner=points"]`` -> dict of variants;
    VALUE is JSON when it parses (numbers, true/false, null, lists), a string otherwise."""
    import json

    out: dict = {}
    for item in items or []:
        name, sep, raw = item.partition("=")
        if not sep or not name.strip():
            raise ConfigError(f"--set expects VARIANT=VALUE, got {item!r}")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        out[name.strip()] = value
    return out


def _config(args):
    from demos_sim.demos.rules import MODE_PLAYERS, DemosConfig

    _check_game(args.game)
    if args.game == "assemblee":   # Part A
        from demos_sim.assemblee.rules import AssembleeConfig

        for opt, val in (("--rules", args.rules), ("--seating", args.seating),
                         ("--mode", args.mode), ("--level", args.level)):
            if val is not None:
                raise ConfigError(f"{opt} does not apply to L'Assemblée")
        return AssembleeConfig(players=6 if args.players is None else args.players,
                               variants=parse_set(args.set))
    if args.game == "protocole":
        from demos_sim.protocole.rules import ProtocoleConfig

        for opt, val in (("--rules", args.rules), ("--seating", args.seating)):
            if val is not None:
                raise ConfigError(f"{opt} applies to DĒMOS only, not to Protocole")
        return ProtocoleConfig(mode=args.mode or "each", level=args.level,
                               players=4 if args.players is None else args.players,
                               variants=parse_set(args.set))
    if args.level is not None:
        raise ConfigError("--level applies to Protocole's coop mode only, not to DĒMOS")
    mode = args.mode or "individual"
    players = args.players
    if players is None:
        players = MODE_PLAYERS.get(mode, 4)
    return DemosConfig(rules=args.rules or "full", mode=mode, players=players,
                       seating=args.seating, variants=parse_set(args.set))


def _registry(game):
    if game == "assemblee":
        from demos_sim.assemblee import policies
        return policies
    if game == "protocole":
        from demos_sim.protocole import policies
    else:
        from demos_sim.demos import policies
    return policies


def _load_plugin(game, plugin):
    """L'Assemblée also takes persona files (``FILE.toml``) as plugins."""
    if game == "assemblee":
        from demos_sim.assemblee.policies import load_extension
        return load_extension(plugin)
    from demos_sim.registry import load_plugin
    return load_plugin(plugin)


def _specs(args, config):
    for plugin in args.plugin:
        _load_plugin(args.game, plugin)
    spec = args.policies
    if spec is None:
        spec = {"demos": "greedy", "protocole": "cautious", "assemblee": "civic"}[args.game]
        if args.game == "protocole" and config.mode == "coop":
            spec = "convention"
    specs = [s for s in spec.split(",")]
    _registry(args.game).resolve(specs, config.players)  # unknown policy / wrong count: refuse now
    return specs


def _variants_line(config) -> None:
    """Print the variants that differ from the contract's defaults, if any (Part V)."""
    import dataclasses

    default = dataclasses.replace(config, variants={}).variants
    changed = [f"{k}={json.dumps(v) if not isinstance(v, str) else v}"
               for k, v in config.variants.items() if v != default[k]]
    if changed:
        print("variants: " + ", ".join(changed))


def _throughput(s, workers):
    print(f"throughput: {s['rounds_per_s']:,.0f} rounds/s, {s['games_per_s']:,.0f} games/s "
          f"({workers} worker{'s' if workers > 1 else ''}, {s['wall_s']:.2f} s)")


def _print_protocole(s, config, specs, args):
    if config.mode == "each":
        print(f"Protocole each for themselves, {config.players} players, "
              f"policies {','.join(specs)}, seed {args.seed}")
    else:
        print(f"Protocole all together, level {config.level}, {config.players} players, "
              f"policies {','.join(specs)}, seed {args.seed}")
    _variants_line(config)
    print(f"{s['games']} games, {s['rounds']} rounds, {s['mean_rounds']:.2f} rounds/game")
    if config.mode == "each":
        print("  seat  win share   95% CI              eliminated  mean points")
        for p in s["seats"]:
            lo, hi = p["ci95"]
            print(f"{p['seat']:>6}  {p['share']:.4f}     [{lo:.4f}, {hi:.4f}]    "
                  f"{p['elimination_rate']:.4f}      {p['mean_points']:.3f}")
        print(f"no winner {s['no_winner_share']:.4f}   truncated {s['truncated_share']:.4f}")
    else:
        lo, hi = s["ci95"]
        print(f"win rate {s['win_rate']:.4f}   95% CI [{lo:.4f}, {hi:.4f}]   ({s['wins']} wins)")
        print(f"lost by elimination {s['loss_elimination_share']:.4f}   by reinforced control "
              f"{s['loss_reinforced_share']:.4f}   truncated {s['truncated_share']:.4f}")
        won = s["won_foyer_cards"]
        if won["mean"] is None:
            print("record of won games (cards in Foyers): no game won")
        else:
            dist = "  ".join(f"{k}:{v}" for k, v in won["distribution"].items())
            print(f"record of won games (cards in Foyers): mean {won['mean']:.2f}   "
                  f"games by record {dist}")
    _throughput(s, args.workers)


def cmd_simulate(args) -> int:
    config = _config(args)
    specs = _specs(args, config)
    if args.game == "assemblee":
        from demos_sim.assemblee.sim import print_summary, simulate
        s = simulate(config, specs, args.games, args.seed, workers=args.workers).summary()
        if args.json:
            print(json.dumps(s))
        else:
            print_summary(s, args.workers)
            _variants_line(config)
        return 0
    if args.game == "protocole":
        from demos_sim.protocole.sim import simulate
    else:
        from demos_sim.demos.sim import simulate
    result = simulate(config, specs, args.games, args.seed, workers=args.workers)
    s = result.summary()
    if args.json:
        print(json.dumps(s))
        return 0
    if args.game == "protocole":
        _print_protocole(s, config, specs, args)
        return 0
    what = "side" if config.mode != "individual" else "seat"
    print(f"DĒMOS {config.rules} rules, {config.mode}, {config.players} players, "
          f"policies {','.join(specs)}, seed {args.seed}")
    _variants_line(config)
    print(f"{s['games']} games, {s['rounds']} rounds, {s['mean_rounds']:.2f} rounds/game")
    print(f"{what:>6}  seats      win share   95% CI")
    for side in s["sides"]:
        lo, hi = side["ci95"]
        seats = ",".join(map(str, side["seats"]))
        print(f"{side['side']:>6}  {seats:<9}  {side['share']:.4f}     [{lo:.4f}, {hi:.4f}]")
    print(f"no winner {s['no_winner_share']:.4f}   truncated {s['truncated_share']:.4f}   "
          f"vetoes/game {s['vetoes_per_game']:.3f}")
    _throughput(s, args.workers)
    return 0


def cmd_record(args) -> int:
    config = _config(args)
    if args.game == "assemblee":
        from demos_sim.assemblee.record import write_records
    elif args.game == "protocole":
        from demos_sim.protocole.record import write_records
    else:
        from demos_sim.demos.record import write_records
    specs = _specs(args, config)
    n = write_records(args.out, config, specs, args.games, args.seed)
    print(f"wrote {n} game records to {args.out}", file=sys.stderr)
    return 0


def cmd_policies(args) -> int:
    _check_game(args.game)
    registry = _registry(args.game)
    for plugin in args.plugin:
        _load_plugin(args.game, plugin)
    for name in registry.available():
        p = registry.get(name)
        flags = f"  (restricted: {', '.join(name + ':' + f for f in p.flags)})" if p.flags else ""
        print(f"{name:<10} {p.description}{flags}")
    return 0


def cmd_variants(args) -> int:
    """Every variant of RULES.md Part V for a game: default, values and what it changes."""
    _check_game(args.game)
    import importlib

    rules = importlib.import_module(f"demos_sim.{args.game}.rules")
    defaults = {name: (spec[1] if isinstance(spec, tuple) else spec)
                for name, spec in rules.VARIANTS.items()}
    print(f"{'variant':<26} {'default':<20} what it changes (RULES.md)")
    for name, default in defaults.items():
        shown = json.dumps(default) if not isinstance(default, str) else default
        if name == "secret_optional":
            shown = "rules-dependent"
        print(f"{name:<26} {shown:<20} {rules.VARIANT_HELP[name]}")
    print("set one with --set NAME=VALUE (simulate, record) or in an experiment's [grid]")
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
    pp.add_argument("--game", default="demos", help="demos or protocole")
    pp.add_argument("--plugin", action="append", default=[], help="import extra policies")
    pp.set_defaults(func=cmd_policies)
    vp = sub.add_parser("variants", help="list a game's variants (RULES.md Part V)")
    vp.add_argument("--game", default="demos", help="demos, protocole or assemblee")
    vp.set_defaults(func=cmd_variants)
    from demos_sim.report.cli import add_analyse_parser, add_report_parser
    from demos_sim.runner.cli_cmds import add_run_parser
    add_run_parser(sub)      # demos-sim run EXPERIMENT.toml
    add_report_parser(sub)   # demos-sim report RESULTS_DIR
    from demos_sim.tournament import add_tournament_parser
    add_tournament_parser(sub)   # demos-sim tournament --policies A,B
    add_analyse_parser(sub)      # demos-sim analyse [NAME ...]
    from demos_sim.tuner.cli import add_tune_parser
    add_tune_parser(sub)         # demos-sim tune TUNE.toml
    from demos_sim.check_policy import add_check_policy_parser
    add_check_policy_parser(sub)  # demos-sim check-policy PLUGIN
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
