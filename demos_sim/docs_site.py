"""The documentation site's generated pages (mkdocs; ``make docs``).

Nothing a reader sees on these pages is typed: :func:`generated` returns every page and
file the site's hook (``docs/hooks/generate.py``) adds to the hand-written pages of
``docs/`` when the site is built:

- ``reference/cli.md``: every command's ``--help``, from the parser ``demos-sim`` uses
  (:func:`demos_sim.cli.build_parser`; building it imports no kernel, so the reference is
  made without compiling one);
- ``reference/variants.md``: every game's rule variants (RULES.md Part V) and trial
  rules, from the rules modules behind ``demos-sim variants`` (default, where the rule
  acts, what it changes);
- ``reference/record-format.md``: the record contract, ``GAME_RECORD.md`` of the shared
  folder beside the repository (``../shared``), or a page saying where it lives;
- ``start/demo-output.md``: what ``make demo`` printed, from the committed run
  ``results/demo/`` (read back, not replayed);
- ``questions/`` and ``data/``: the designer's answer pages
  (:mod:`demos_sim.report.docs_pages`).

:func:`ladder_markdown` (the committed policy ladder) fills a hand-written page's
``<!-- ladder -->`` line.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HELP_WIDTH = 88                  # the width --help is wrapped at on the page


def _fence(text: str, lang: str = "text") -> str:
    return f"```{lang}\n{text.rstrip()}\n```"


def _help(parser: argparse.ArgumentParser) -> str:
    """``parser.format_help()`` wrapped at :data:`HELP_WIDTH` columns whatever the
    terminal (argparse reads ``COLUMNS``)."""
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(HELP_WIDTH)
    try:
        return parser.format_help()
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old


def commands(parser: argparse.ArgumentParser) -> dict[str, tuple[str, argparse.ArgumentParser]]:
    """Sub-command -> (its one-line help, its parser), in the order ``--help`` lists them."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {a.dest: (a.help or "") for a in sub._choices_actions}
    return {name: (helps.get(name, "").replace("%%", "%"), p) for name, p in sub.choices.items()}


def cli_reference() -> str:
    from demos_sim.cli import build_parser

    ap = build_parser()
    cmds = commands(ap)
    lines = ["# Command line", "",
             "Every command of `demos-sim` with its `--help`, written when the site is built "
             "from the parser the command itself uses (`demos_sim/cli.py`), so it cannot "
             "fall behind. Errors are one line, `demos-sim: error: …`: exit status 2 for "
             "input that cannot be used, 1 when the system refuses.", "",
             "| command | what it does |", "|---|---|"]
    lines += [f"| [`{name}`](#{name}) | {text} |" for name, (text, _) in cmds.items()]
    lines += ["", "## demos-sim", "", _fence(_help(ap)), ""]
    for name, (_, p) in cmds.items():
        lines += [f"## {name} {{#{name}}}", "", _fence(_help(p)), ""]
    return "\n".join(lines)


def command_help(name: str) -> str:
    """``demos-sim NAME --help`` as a fenced block for a page, or a line saying that this
    version of demos-sim has no such command."""
    from demos_sim.cli import build_parser

    cmds = commands(build_parser())
    if name not in cmds:
        return f"*This version of demos-sim has no `{name}` command yet.*"
    return _fence(_help(cmds[name][1]))


RUN_ENV = "DEMOS_SIM_DOCS_RUN"     # "0": leave the sample runs out (tests of the site's links)


def command_output(args: str) -> str:
    """What ``demos-sim ARGS`` prints, run now (a sample output on a page is made by the
    build, never pasted), as a fenced block headed by the command; with
    ``DEMOS_SIM_DOCS_RUN=0`` a line saying it was not run. A command that fails stops the
    build with its error."""
    import shlex
    import subprocess
    import sys

    shown = f"$ demos-sim {args}"
    if os.environ.get(RUN_ENV, "1") == "0":
        return _fence(shown + f"\n(not run in this build: {RUN_ENV}=0)")
    p = subprocess.run([sys.executable, "-m", "demos_sim.cli", *shlex.split(args)],
                       capture_output=True, text=True, cwd=ROOT, timeout=900)
    if p.returncode != 0:
        raise RuntimeError(f"demos-sim {args} failed: {p.stderr.strip()[-500:]}")
    return _fence(shown + "\n" + p.stdout)


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def variants_reference() -> str:
    from demos_sim.game import GAMES, get_game

    lines = ["# Rule variants", "",
             "Every variant of RULES.md Part V, by game, as `demos-sim variants --game G` "
             "lists it: the default (the contract's rule), where the rule acts (outside "
             "that, every game is the same whatever its value, and `compare` refuses it), "
             "and what it changes, with its rule ID. Written from the games' rules modules "
             "when the site is built. Set one with `--set NAME=VALUE` or in an "
             "experiment's `[variants]` or `[grid]` ([the experiment file]"
             "(experiment-file.md)).", ""]
    for name in GAMES:
        g = get_game(name)
        scope = getattr(g.rules, "SCOPE", {})
        lines += [f"## {g.title or name}", "", f"`--game {name}`", "",
                  "| variant | default | acts | what it changes (RULES.md) |",
                  "|---|---|---|---|"]
        helps = g.variant_help()
        for v, default in g.variant_defaults().items():
            shown = json.dumps(default) if not isinstance(default, str) else default
            acts = scope[v][1] if v in scope else "everywhere"
            lines.append(f"| `{v}` | `{_cell(shown)}` | {_cell(acts)} | {_cell(helps[v])} |")
        trial = g.trial_rules()
        if trial:
            lines += ["", "Trial rules: not in the contract (game records refuse them), set "
                      "with their own option (`--handicap-points N`) or `name = N` in an "
                      "experiment file; default 0.", "",
                      "| trial rule | what it changes |", "|---|---|"]
            lines += [f"| `{t}` | {_cell(text)} |" for t, text in trial.items()]
        lines.append("")
    return "\n".join(lines)


def record_format(shared: Path | None = None) -> str:
    """The record contract, ``GAME_RECORD.md`` of ``shared`` (default ``../shared``
    beside the repository) when it is there, else a page naming it."""
    shared = Path(shared) if shared is not None else ROOT.parent / "shared"
    src = shared / "GAME_RECORD.md"
    note = ("The contract every game record follows (`demos-sim record` writes it; "
            "[auditing records](../how-to/audit-records.md) replays it). It lives "
            "outside this repository, in the shared folder beside it "
            "(`../shared/GAME_RECORD.md`, with its JSON Schema `game_record.schema.json`)")
    if not src.is_file():
        return ("# Game record format\n\n" + note + "; that folder was not there when this "
                "site was built, so the contract is not copied here.\n")
    text = src.read_text(encoding="utf-8")
    head, _, rest = text.partition("\n")
    if not head.startswith("# "):
        head, rest = "# Game record format", text
    return f"{head}\n\n!!! info \"Where this comes from\"\n\n    {note}; this page is a copy " \
           f"made when the site was built.\n{rest}"


def demo_output(results: Path | None = None) -> str:
    """What ``make demo`` prints at the end of its run, read back from the committed
    ``results/demo/`` (the same summary ``demos-sim run`` prints)."""
    from types import SimpleNamespace

    from demos_sim.runner.cli_cmds import print_summary
    from demos_sim.runner.results import load_results

    results = Path(results) if results is not None else ROOT / "results" / "demo"
    head = ("# What make demo prints\n\n"
            "The summary `demos-sim run experiments/demo.toml` printed for the committed run "
            "(`results/demo/`), read back from its tables when this site was built:\n\n")
    try:
        meta, df, _ = load_results(results)
    except Exception as e:             # no committed run: say so, never fail the site
        return head.replace("read back", "to be read back") + f"*Not available: {e}*\n"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        print_summary(SimpleNamespace(results=df, meta=meta, out="results/demo"))
    return head + _fence(buf.getvalue()) + "\n"


def ladder_markdown(results: Path | None = None) -> str:
    """The committed policy ladder, ``results/ladder/ladder.md`` (written by ``python -m
    demos_sim.tournament ladder``) less its title: the command, every rung against the one
    below it with its interval and games, and the DĒMOS Bradley–Terry ratings. The Bots
    page shows it where it says ``<!-- ladder -->`` (``docs/hooks/generate.py``)."""
    results = Path(results) if results is not None else ROOT / "results" / "ladder"
    path = results / "ladder.md"
    if not path.exists():              # no committed ladder: say so, never fail the site
        return "*Not available: results/ladder/ladder.md is missing.*\n"
    head, _, rest = path.read_text().partition("\n")
    return (rest if head.startswith("# ") else head + "\n" + rest).lstrip("\n")


def skill_markdown(folder: str, results: Path | None = None, level: int = 4) -> str:
    """A committed skill trace, ``results/skill/FOLDER/skill.md`` (written by ``demos-sim
    skill``), its title a heading of ``level`` (under the page's ``###`` section): the
    sentence, the table, the ceiling, the speeds, the command and the provenance. A page
    shows it where it says ``<!-- skill: FOLDER -->``."""
    results = Path(results) if results is not None else ROOT / "results" / "skill"
    path = results / folder / "skill.md"
    if not path.exists():              # no committed trace: say so, never fail the site
        return f"*Not available: results/skill/{folder}/skill.md is missing.*\n"
    text = path.read_text()
    return "#" * (level - 1) + text if text.startswith("# ") else text


def _pct(x) -> str:
    return f"{100 * float(x):.1f}%"


def strong_play(results: Path | None = None) -> str:
    """The top of the skill axis: ``belief``'s matches and its inference quality, read from
    the committed ``results/belief/`` (``experiments/belief_strength.py`` and
    ``experiments/belief_quality.py`` write it)."""
    import pandas as pd

    results = Path(results) if results is not None else ROOT / "results" / "belief"
    out = ["# Strong play: belief and what reading the table is worth", "",
           "`belief` is `ismcts` whose deals are weighted by how likely they make the other "
           "players' actions this round (`demos_sim/demos/policies/belief.py`). The figures "
           "below are read from `results/belief/` when this site is built; "
           "`experiments/belief_strength.py` and `experiments/belief_quality.py` regenerate "
           "them (DĒMOS, 4 players, full rules, seat-rotated on common deals).", ""]
    strength = results / "strength.csv"
    if not strength.exists():
        return "\n".join(out + ["*Not available: results/belief/strength.csv is missing.*", ""])
    df = pd.read_csv(strength)
    out += ["## Matches", "",
            "Win share of the games the two policies won (95% delta-method interval) and the "
            "paired difference in wins per game on the same deals.", "",
            "| policy | against | deals | win share | paired difference (wins per game) |",
            "|---|---|---|---|---|"]
    for r in df.itertuples():
        out.append(f"| `{r.a}` | `{r.b}` | {r.deals:,} (seed {r.seed}) | {_pct(r.win_share)} "
                   f"[{_pct(r.ci95_low)}, {_pct(r.ci95_high)}] | {r.wins_per_game_diff:+.4f} "
                   f"[{r.diff_ci95_low:+.4f}, {r.diff_ci95_high:+.4f}] |")
    gap = results / "gap_closure.csv"
    if gap.exists():
        g = pd.read_csv(gap).iloc[0]
        out += ["", f"**Gap closure** toward `omniscient_hands@64` (which sees every hand): "
                f"(W_belief − W_ismcts) / (W_omniscient_hands − W_ismcts) = {_pct(g.gap_closure)} "
                f"[{_pct(g.ci95_low)}, {_pct(g.ci95_high)}] on {int(g.deals):,} common deals "
                "against `heuristic` (bootstrap over deals)."]
    head = "| {} | decisions | gain (nats) | card gain (nats) | effective pool |"
    for q in sorted(results.glob("inference_quality_*.csv")):
        t = pd.read_csv(q)
        every = t[(t["kind"] == "all") & t["round"].isna()]
        out += ["", f"## Inference quality (opponents: `{t['policy'].iloc[0]}`)", "",
                "How much more probability the weighted deals put on the true hidden cards "
                "than uniform deals do: the log-likelihood ratio of the true cards (nats per "
                "decision; 0 = no better than `ismcts`'s deals), and the same card by card "
                "(nats per card an opponent really holds), each ± σ of the mean over "
                "decisions; the effective share of the pool. By the model's temperature "
                "(points):", "", head.format("temperature"), "|---|---|---|---|---|"]
        for r in every.itertuples():
            mark = " (belief's)" if getattr(r, "belief_default", False) else ""
            out.append(f"| {r.temp:g}{mark} | {int(r.decisions):,} | {r.gain_nats:+.3f} ± "
                       f"{r.gain_se:.3f} | {r.card_gain_nats:+.3f} ± {r.card_gain_se:.3f} | "
                       f"{_pct(r.ess_share)} |")
        default = t[t["belief_default"]] if "belief_default" in t else t.iloc[0:0]
        if default.empty:
            continue
        sel = default[~((default["kind"] == "all") & default["round"].isna())]
        out += ["", f"At belief's temperature ({default['temp'].iloc[0]:g}), by turn and by "
                "round:", "", head.format("decisions at"), "|---|---|---|---|---|"]
        for r in sel.itertuples():
            if r.kind != "all":
                where = {"public": "the public turn (D3.2)", "secret": "the secret turn (D3.3)",
                         "unanimous": "the unanimous turn (D3.4.3)"}.get(r.kind, r.kind)
            elif r.round == r.round:                  # a number, not NaN
                where = f"round {int(r.round) + 1}"
            else:
                where = "every decision"
            out.append(f"| {where} | {int(r.decisions):,} | {r.gain_nats:+.3f} ± {r.gain_se:.3f} "
                       f"| {r.card_gain_nats:+.3f} ± {r.card_gain_se:.3f} | {_pct(r.ess_share)} |")
    return "\n".join(out + assemblee_inference(results)) + "\n"


def assemblee_inference(results: Path) -> list[str]:
    """The strong-play page's L'Assemblée section: whether a search there would need
    inference, from ``results/belief/assemblee_inference.csv``
    (``experiments/assemblee_inference.py``)."""
    import pandas as pd

    path = results / "assemblee_inference.csv"
    if not path.exists():
        return []
    t = pd.read_csv(path)
    changed = int(t["decisions_changed"].sum() + t["observations_changed"].sum()
                  + t["boards_differing"].sum())
    verdict = ("**No**: no action depends on what is hidden, so inference has nothing to "
               "read" if changed == 0 else
               f"**Yes, maybe**: {changed:,} checks found an action that depends on what is "
               "hidden")
    out = ["", "## L'Assemblée: would a search need inference?", "",
           f"{verdict}. In L'Assemblée every seat sees one public board (gold, renown and "
           "every sealed choice once revealed, A0); what is hidden — the event deck's "
           "order, the chance draws to come — is hidden from every seat alike. With the "
           "engine's M2 check on, every decision below was asked again after everything "
           "the deciding seat cannot see was redrawn: an action that changed would carry "
           "information about the hidden state, and only then could weighting the worlds "
           "by the others' actions help. What one seat alone knows — its own sealed choice "
           "while the step is open, the bid the Oracle's holder peeked at (A4) — is revealed "
           "to all when the step closes. Uniform sampling of the deck is already the exact "
           "belief. (`experiments/assemblee_inference.py`; seed "
           f"{int(t['seed'].iloc[0])}.)", "",
           "| setup | policies | games | decisions checked | boards differing | "
           "decisions changed |", "|---|---|---|---|---|---|"]
    for r in t.itertuples():
        out.append(f"| {r.setup} | {r.policies.replace(',', ', ')} | {r.games:,} | "
                   f"{r.decisions_checked:,} | {r.boards_differing} | {r.decisions_changed} |")
    return out


def generated(root: Path | None = None, shared: Path | None = None) -> dict[str, str | bytes]:
    """Every generated page and file: ``{path in the site's docs folder: content}``."""
    from demos_sim.report.docs_pages import pages

    root = Path(root) if root is not None else ROOT
    out: dict[str, str | bytes] = {
        "reference/cli.md": cli_reference(),
        "reference/variants.md": variants_reference(),
        "reference/record-format.md": record_format(shared),
        "start/demo-output.md": demo_output(root / "results" / "demo"),
        "method/strong-play.md": strong_play(root / "results" / "belief"),
    }
    out.update(pages(root / "results" / "analyses"))
    return out


if __name__ == "__main__":      # python -m demos_sim.docs_site: list what would be written
    for path, content in generated().items():
        print(f"{path}  {len(content):,} {'bytes' if isinstance(content, bytes) else 'chars'}")
