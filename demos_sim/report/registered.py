"""What the report shows of each analysis, discovered from the analyses' modules.

Each analysis registers once: its line of :data:`demos_sim.analysis.names.ANALYSES` names
its question module, and the module declares what the report shows of it (``REPORT``, a
:class:`demos_sim.analysis.core.protocol.Report`: its section's question and key plot, its
paragraph of "What we found", its rows of the verdict board with their answer pages, the
tables the report derives). The report's cards, the board, the README's verdicts and the
site's answer pages all read them from here, in the order of ``ANALYSES`` (board rows by
their declared place), checked against the protocol.
"""

from __future__ import annotations

import importlib

from demos_sim.analysis import names
from demos_sim.analysis.core import protocol
from demos_sim.analysis.core.protocol import Report, Row


def reports() -> dict[str, Report]:
    """``{analysis: REPORT}`` of every registered analysis that declares one, in report
    order (:class:`demos_sim.ConfigError` when one breaks the protocol, or two declare the
    same board row or answer page)."""
    found = {}
    for name, path in names.ANALYSES.items():
        mod = importlib.import_module(path)
        if hasattr(mod, "REPORT"):
            protocol.check(name, mod)
            found[name] = mod.REPORT
    protocol.check_rows(found)
    return found


def report(name: str) -> Report | None:
    """The ``REPORT`` of analysis ``name`` (None: not registered, or it declares none)."""
    return reports().get(name)


def rows() -> list[tuple[str, Row]]:
    """``(analysis, row)`` of every board row the analyses declare, in board order."""
    return sorted(((n, r) for n, rep in reports().items() for r in rep.rows),
                  key=lambda x: x[1].place)
