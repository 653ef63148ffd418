"""One way to make a figure for the reports: matplotlib's object API, no pyplot.

No global state and no display: ``Figure`` with an Agg canvas, constrained layout.
"""

from __future__ import annotations


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
