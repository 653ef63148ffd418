"""``demos-sim report`` and ``demos-sim analyse``: the commands that write reports.

``report RESULTS_DIR`` writes the report of one run (:mod:`demos_sim.report.build`);
``analyse [NAME …]`` runs the designer's analyses (:mod:`demos_sim.analysis.suite`), then
writes their report from the sections they wrote (:mod:`demos_sim.report.analyses`) and
the README's headline verdicts (:mod:`demos_sim.report.readme`).
Parse, call, print; registered in :mod:`demos_sim.cli`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from demos_sim import ConfigError
from demos_sim.runner.backends import add_backend_options


def add_report_parser(sub) -> None:
    pp = sub.add_parser("report", help="HTML + Markdown report of a results folder, or what "
                                       "changed between two (--compare OLD NEW)",
                        description="Write report.html, report.md and plots/*.png for a "
                                    "results folder written by `demos-sim run`; with "
                                    "--compare OLD NEW, compare.html and compare.csv: every "
                                    "figure of NEW against OLD, moves beyond the intervals "
                                    "flagged (Holm).")
    pp.add_argument("results", metavar="RESULTS_DIR", nargs="?",
                    help="a results folder written by `demos-sim run`")
    pp.add_argument("--compare", nargs=2, metavar=("OLD_DIR", "NEW_DIR"), default=None,
                    help="two results folders: what changed from OLD to NEW")
    pp.add_argument("--out", metavar="DIR", default=None,
                    help="where to write the report (default: the results folder; with "
                         "--compare, NEW_DIR)")
    pp.set_defaults(func=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    if args.compare is not None:
        from demos_sim.report.revisions import build_compare_report

        if args.results is not None:
            raise ConfigError("give either RESULTS_DIR or --compare OLD_DIR NEW_DIR, not both")
        path, summary = build_compare_report(*args.compare, out=args.out)
        print(summary)
        print(f"wrote {path}")
        return 0
    if args.results is None:
        raise ConfigError("give a results folder (RESULTS_DIR) or --compare OLD_DIR NEW_DIR")
    from demos_sim.report.build import build_report

    html, md = build_report(args.results, out=args.out)
    print(f"wrote {html} and {md}")
    return 0


def add_analyse_parser(sub) -> None:
    from demos_sim.analysis.names import ANALYSES, DEFAULT_OUT

    ap = sub.add_parser(
        "analyse", help="run the designer's analyses into results/analyses/ and report",
        description="Run every analysis (or the named ones): their experiments at each bot "
                    "rung (resumable), their tables, plots and findings, and the report "
                    f"<out>/report.html. Analyses: {', '.join(ANALYSES)}.")
    ap.add_argument("names", nargs="*", metavar="NAME", help="analyses to run (default: all)")
    ap.add_argument("--out", default=str(DEFAULT_OUT), metavar="DIR",
                    help=f"output folder (default {DEFAULT_OUT})")
    add_backend_options(ap, backend_help="where every run, tune and follow-up game "
                        "(fresh-deal confirmations, replays by other bots) plays: local "
                        "processes (default) or a Dask cluster")
    ap.add_argument("--games", type=int, default=None,
                    help="a quick look: N games per grid point at a file's main rung, "
                         "the other rungs in proportion to their shares, at least 4 "
                         "(default: each file's own games, scaled per bot rung)")
    ap.add_argument("--report-only", action="store_true",
                    help="rebuild report.html/report.md (and the README's generated "
                         "headline verdicts) from the sections already written")
    ap.add_argument("--readme", default=None, metavar="PATH",
                    help="the README whose generated headline verdicts (between its marker "
                         "comments) are rewritten from the sections (default: README.md at "
                         "the root of the git repository holding --out; skipped with a "
                         "message when the file or its markers are missing)")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    ap.set_defaults(func=cmd_analyse)


def cmd_analyse(args: argparse.Namespace) -> int:
    from demos_sim.analysis.suite import ANALYSES, analyse, module
    from demos_sim.report.analyses import build_analyses_report
    from demos_sim.report.readme import update_readme

    if args.workers < 1:
        raise ConfigError(f"--workers must be at least 1, got {args.workers}")
    if args.scheduler and args.backend != "dask":
        raise ConfigError("--scheduler needs --backend dask")
    if args.games is not None and args.games < 1:
        raise ConfigError(f"--games must be at least 1, got {args.games}")
    if args.report_only:
        for n in args.names:
            module(n)
    else:
        analyse(args.names, out=args.out, workers=args.workers, games=args.games,
                quiet=args.quiet, backend=args.backend, scheduler=args.scheduler)
    html_path, _ = build_analyses_report(Path(args.out), list(ANALYSES))
    print(f"wrote {html_path}")
    print(update_readme(Path(args.out), args.readme))
    return 0
