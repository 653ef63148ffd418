"""The README's headline verdicts: five rows of the verdict board, generated.

``demos-sim analyse --report-only`` rewrites what lies between the README's markers
(:data:`demos_sim.report.findings.BEGIN` and ``END``) with the rows of the analyses
report's verdict board (:func:`demos_sim.report.board.board_rows`, read from the tables
under the results folder, never typed) that their analyses declare for the README
(``readme=True``, :func:`headlines`), each as
:func:`demos_sim.report.board.board_markdown` writes it, followed by a link to the
question's page on the documentation site (the row's declared page, built into ``site/``
by ``make docs``) and to the folder of its tables.

The five: the questions a designer of DĒMOS asks first and whose answer changes the game
as printed (are the team modes fair, what the veto and the Media are worth, what the
Carré's points move, whether the seat matters). Protocole's levels, L'Assemblée's free
riders and "what to change" are on the board and the site.
"""

from __future__ import annotations

from pathlib import Path

from demos_sim.report import board as B
from demos_sim.report import findings as F
from demos_sim.report.registered import rows as registered_rows

SITE = "site"                       # where `make docs` builds the site, beside the README


def headlines() -> tuple[str, ...]:
    """The board rows the README shows (declared ``readme=True``), in board order."""
    return tuple(r.key for _, r in registered_rows() if r.readme)


def page(key: str) -> str:
    """The site path of the answer page of board row ``key``."""
    slug = next(r.page.slug for _, r in registered_rows() if r.key == key)
    return f"{SITE}/questions/{slug}.html"


def block(out: Path, readme: Path) -> str:
    """The generated block: a lead line, then one line per headline verdict, its files
    named relative to the README's folder."""
    pre = F.prefix(Path(out), Path(readme).parent)
    rows = {r.key: r for r in B.board_rows(out, pre)}
    shown = [rows[k] for k in headlines() if k in rows]
    lead = ("Written by `demos-sim analyse --report-only` from the analyses' tables: the "
            "first rows of the report's verdict board (each analysis declares its rows in its "
            "module, `demos_sim/analysis/questions/`; edit those, not this text). Each answer's page, built by `make docs`, shows every bot rung, "
            "interval and file.")
    if not shown:
        return lead + "\n\nNo analyses found under " + f"`{pre}`."
    lines = [f"{line} [The answer]({page(r.key)}) · [its tables]({pre}/{r.section}/)"
             for r, line in zip(shown, B.board_markdown(shown))]
    return lead + "\n\n" + "\n".join(lines)


def update_readme(out: str | Path, readme: str | Path | None) -> str:
    """Rewrite the README's generated block from the tables under ``out``; returns a line
    saying what was done (or why it was skipped)."""
    readme = Path(readme) if readme is not None else F.default_readme(Path(out))
    if readme is None or not readme.exists():
        return f"findings: no README at {readme or 'the repository root'}; skipped"
    text = readme.read_text()
    new = F.replace_block(text, block(Path(out), readme))
    if new is None:
        return f"findings: no generated-findings markers in {readme}; skipped"
    if new != text:
        readme.write_text(new)
        return f"findings: rewrote the generated block of {readme}"
    return f"findings: {readme} already up to date"
