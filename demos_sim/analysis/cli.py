"""``demos-sim analyse``: run the designer's analyses and write their report."""

from __future__ import annotations


def add_analyse_parser(sub) -> None:
    from demos_sim.analysis.suite import ANALYSES, DEFAULT_OUT

    ap = sub.add_parser(
        "analyse", help="run the designer's analyses into results/analyses/ and report",
        description="Run every analysis (or the named ones): their experiments at each bot "
                    "rung (resumable), their tables, plots and findings, and the report "
                    f"<out>/report.html. Analyses: {', '.join(ANALYSES)}.")
    ap.add_argument("names", nargs="*", metavar="NAME", help="analyses to run (default: all)")
    ap.add_argument("--out", default=str(DEFAULT_OUT), metavar="DIR",
                    help=f"output folder (default {DEFAULT_OUT})")
    ap.add_argument("--workers", type=int, default=1, help="worker processes per run")
    ap.add_argument("--games", type=int, default=None,
                    help="games per grid point for every run (default: each file's own, "
                         "scaled per bot rung); small values for a quick look")
    ap.add_argument("--report-only", action="store_true",
                    help="rebuild report.html/report.md from the sections already written")
    ap.add_argument("--quiet", action="store_true")
    ap.set_defaults(func=cmd_analyse)


def cmd_analyse(args) -> int:
    from pathlib import Path

    from demos_sim import ConfigError
    from demos_sim.analysis.suite import analyse, module
    from demos_sim.report.analyses import build_analyses_report

    if args.workers < 1:
        raise ConfigError(f"--workers must be at least 1, got {args.workers}")
    if args.games is not None and args.games < 1:
        raise ConfigError(f"--games must be at least 1, got {args.games}")
    if args.report_only:
        for n in args.names:
            module(n)
        html_path, _ = build_analyses_report(Path(args.out))
        print(f"wrote {html_path}")
        return 0
    analyse(args.names, out=args.out, workers=args.workers, games=args.games,
            quiet=args.quiet)
    print(f"wrote {Path(args.out) / 'report.html'}")
    return 0
