"""``demos-sim check-policy [--game GAME] PLUGIN``: the checks of the game's ``check`` module
(:mod:`demos_sim.demos.check`, :mod:`demos_sim.protocole.check`,
:mod:`demos_sim.assemblee.check`) and a match against the game's baseline from
:mod:`demos_sim.tournament` (above the games, so the command lives here rather than in a
game's folder). Exit status 1 when a policy fails.
"""

from __future__ import annotations

import importlib

from demos_sim import ConfigError


def _cmd_check_policy(args) -> int:
    from demos_sim.game import get_game
    from demos_sim.tournament import format_match, match

    if args.games < 1 or args.deals < 1:
        raise ConfigError("--games and --deals must be at least 1")
    game = get_game(args.game)
    # every game folder holds check.py with the same check_policies (kernels: only now)
    check = importlib.import_module(f"demos_sim.{game.name}.check")
    failed = check.check_policies(args.plugin, args.policy, args.games, args.deals, args.seed,
                                  match=match, format_match=format_match)
    return 1 if failed else 0


def add_check_policy_parser(sub) -> None:
    """``demos-sim check-policy PLUGIN``: registered by :func:`demos_sim.cli.build_parser`."""
    from demos_sim.game import GAMES

    p = sub.add_parser("check-policy", help="check a policy plugin: the M2 observation test, "
                                            "legal answers, and a match against the game's "
                                            "baseline (DĒMOS greedy, Protocole cautious, "
                                            "L'Assemblée civic)")
    p.add_argument("plugin", help="module name or .py file that registers policies")
    p.add_argument("--game", choices=list(GAMES), default="demos",
                   help="the game whose policies the plugin registers (default demos)")
    p.add_argument("--policy", action="append", default=[],
                   help="check this registered policy (repeatable; default: every policy "
                        "the plugin registers)")
    p.add_argument("--games", type=int, default=12,
                   help="games per setup and variant set for the decision checks")
    p.add_argument("--deals", type=int, default=500,
                   help="deals of the match against the baseline (each played in every "
                        "rotation)")
    p.add_argument("--seed", type=int, default=0, help="seed of the match")
    p.set_defaults(func=_cmd_check_policy)
