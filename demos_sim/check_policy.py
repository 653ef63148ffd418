"""``demos-sim check-policy PLUGIN``: the checks of :mod:`demos_sim.demos.check` and a
match against ``greedy`` from :mod:`demos_sim.tournament` (above the games, so the
command lives here rather than in the game's folder). Exit status 1 when a policy fails.
"""

from __future__ import annotations

from demos_sim import ConfigError


def _cmd_check_policy(args) -> int:
    from demos_sim.demos.check import check_policies   # the kernels: only when it runs
    from demos_sim.tournament import format_match, match

    if args.games < 1 or args.deals < 1:
        raise ConfigError("--games and --deals must be at least 1")
    failed = check_policies(args.plugin, args.policy, args.games, args.deals, args.seed,
                            match=match, format_match=format_match)
    return 1 if failed else 0


def add_check_policy_parser(sub) -> None:
    """``demos-sim check-policy PLUGIN``: registered by :func:`demos_sim.cli.build_parser`."""
    p = sub.add_parser("check-policy", help="check a DĒMOS policy plugin: the M2 observation "
                                            "test, legal answers, and a match against greedy")
    p.add_argument("plugin", help="module name or .py file that registers policies")
    p.add_argument("--policy", action="append", default=[],
                   help="check this registered policy (repeatable; default: every policy "
                        "the plugin registers)")
    p.add_argument("--games", type=int, default=12,
                   help="games per setup and variant set for the decision checks")
    p.add_argument("--deals", type=int, default=500,
                   help="deals of the match against greedy (each played in every rotation)")
    p.add_argument("--seed", type=int, default=0, help="seed of the match")
    p.set_defaults(func=_cmd_check_policy)
