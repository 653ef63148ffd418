"""One way to make a figure for the reports: matplotlib's object API, no pyplot.

No global state and no display: ``Figure`` with an Agg canvas. :func:`figure` and
:func:`panels` use constrained layout (the analyses and ``demos-sim report``);
:func:`tight_figure` / :func:`save_tight` a single axes laid out at save time. Error bars
come from intervals with :func:`error_bars`; :func:`png_bytes` renders a figure for embedding.
"""

from __future__ import annotations

import io
from pathlib import Path


def figure(ncols: int = 1, nrows: int = 1, w: float = 4.6, h: float = 3.6,
           min_width: float = 0.0):
    """``(fig, axes)``: a ``nrows × ncols`` grid of panels ``w × h`` inches each;
    ``axes`` is always 2-D (``axes[row][col]``)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(max(min_width, w * ncols), h * nrows), dpi=110,
                 layout="constrained")
    FigureCanvasAgg(fig)
    return fig, fig.subplots(nrows, ncols, squeeze=False)


def panels(n: int, height: float = 3.6, width: float = 5.0):
    """``(fig, axes)``: ``n`` panels side by side, ``width × height`` inches each, the
    figure at least 5.5 inches wide; ``axes`` is a list of ``n`` axes."""
    fig, ax = figure(n, 1, width, height, min_width=5.5)
    return fig, list(ax[0])


def error_bars(mean, lo, hi):
    """``(2, n)`` error-bar lengths below and above ``mean`` from interval bounds
    (``errorbar(yerr=…)`` or ``xerr=…``), never negative."""
    import numpy as np

    mean, lo, hi = (np.asarray(x, float) for x in (mean, lo, hi))
    return np.vstack([np.clip(mean - lo, 0, None), np.clip(hi - mean, 0, None)])


def png_bytes(fig) -> bytes:
    """The figure as PNG (its own dpi)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def tight_figure(w: float = 7.0, h: float = 4.2):
    """``(fig, ax)``: one axes on a ``w × h`` inch figure, laid out by :func:`save_tight`
    (add more axes with ``fig.add_subplot``)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(w, h))
    return fig, fig.add_subplot(111)


def save_tight(fig, folder: Path, name: str) -> str:
    """Write ``folder/name`` (PNG, 110 dpi, tight layout); returns ``name``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    fig.tight_layout()
    fig.savefig(Path(folder) / name, dpi=110)
    return name
