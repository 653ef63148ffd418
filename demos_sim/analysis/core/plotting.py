"""One way to make a figure for the reports: matplotlib's object API, no pyplot.

No global state and no display: ``Figure`` with an Agg canvas. :func:`figure` and
:func:`panels` use constrained layout (the analyses and ``demos-sim report``);
:func:`tight_figure` / :func:`save_tight` a single axes laid out at save time. Error bars
come from intervals with :func:`error_bars`; :func:`png_bytes` renders a figure for embedding.
Inside :func:`captured_figures` every figure these helpers make is also collected, so a test
can measure what a ``plots`` function draws (tests/stats/test_plots_read.py).
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

_CAPTURED: list | None = None      # the figures made inside captured_figures(), or None


@contextlib.contextmanager
def captured_figures():
    """``with captured_figures() as figs:`` — ``figs`` lists every figure :func:`figure`
    and :func:`tight_figure` make inside the block, in order, each with the file name it
    was saved under (``fig.saved_as``; ``None`` until saved, ``""`` for a buffer)."""
    global _CAPTURED
    previous, _CAPTURED = _CAPTURED, []
    try:
        yield _CAPTURED
    finally:
        _CAPTURED = previous


def _capture(fig):
    """Record ``fig`` when a :func:`captured_figures` block is open; the name it is saved
    under is noted by wrapping this one figure's ``savefig``."""
    if _CAPTURED is not None:
        fig.saved_as = None
        save = fig.savefig

        def savefig(fname, *args, **kwargs):
            fig.saved_as = Path(fname).name if isinstance(fname, (str, Path)) else ""
            return save(fname, *args, **kwargs)

        fig.savefig = savefig
        _CAPTURED.append(fig)
    return fig


def figure(ncols: int = 1, nrows: int = 1, w: float = 4.6, h: float = 3.6,
           min_width: float = 0.0, height_ratios=None):
    """``(fig, axes)``: a ``nrows × ncols`` grid of panels ``w × h`` inches each (with
    ``height_ratios``, the rows share ``nrows × h`` inches in those ratios);
    ``axes`` is always 2-D (``axes[row][col]``)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(max(min_width, w * ncols), h * nrows), dpi=110,
                 layout="constrained")
    FigureCanvasAgg(fig)
    _capture(fig)
    return fig, fig.subplots(nrows, ncols, squeeze=False, height_ratios=height_ratios)


def panels(n: int, height: float = 3.6, width: float = 5.0, wrap: int | None = None):
    """``(fig, axes)``: ``n`` panels side by side, ``width × height`` inches each, the
    figure at least 5.5 inches wide; ``axes`` is a list of ``n`` axes. With ``wrap``, at
    most that many panels a row (a strip of four 5-inch panels is shown at half size in
    the report); the grid's unused places are hidden."""
    cols = n if wrap is None else max(1, min(n, wrap))
    rows = -(-n // cols)
    fig, ax = figure(cols, rows, width, height, min_width=5.5)
    flat = [a for row in ax for a in row]
    for a in flat[n:]:
        a.set_visible(False)
    return fig, flat[:n]


def error_bars(mean, lo, hi):
    """``(2, n)`` error-bar lengths below and above ``mean`` from interval bounds
    (``errorbar(yerr=…)`` or ``xerr=…``), never negative."""
    import numpy as np

    mean, lo, hi = (np.asarray(x, float) for x in (mean, lo, hi))
    return np.vstack([np.clip(mean - lo, 0, None), np.clip(hi - mean, 0, None)])


def text_colour(rgba) -> str:
    """``"black"`` or ``"white"``, whichever has the higher WCAG 2 contrast ratio with the
    colour ``rgba`` (a cell's text on a heat-map: black on light cells, white on dark)."""
    import numpy as np

    c = np.asarray(rgba, float)[:3]
    lum = float(np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
                @ [0.2126, 0.7152, 0.0722])
    return "black" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "white"


def heatmap(ax, m, texts=None, *, label: str | None = None, cmap: str = "RdBu_r",
            fontsize: float = 8):
    """Draw the matrix ``m`` (NaN: no cell) on ``ax`` on a scale of the panel's own,
    centred on zero (± its largest absolute value), with its own colour bar (``label``),
    and ``texts[i][j]`` (``None`` or ``""``: none) in each cell, black or white whichever
    reads on the cell. Returns the image. A scale shared by several panels lets the
    panel with the largest values (often the noisiest: the search rung's few games) whiten
    all the others."""
    import numpy as np

    m = np.asarray(m, float)
    finite = np.abs(m[np.isfinite(m)])
    lim = float(finite.max()) if len(finite) and finite.max() > 0 else 1.0
    im = ax.imshow(m, cmap=cmap, vmin=-lim, vmax=lim, aspect="auto")
    if texts is not None:
        for (i, j), v in np.ndenumerate(m):
            s = texts[i][j]
            if s and np.isfinite(v):
                ax.text(j, i, s, ha="center", va="center", fontsize=fontsize,
                        color=text_colour(im.cmap(im.norm(v))))
    ax.figure.colorbar(im, ax=ax, shrink=0.9, label=label)
    return im


def png_bytes(fig) -> bytes:
    """The figure as PNG (its own dpi)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def tight_figure(w: float = 7.0, h: float = 4.2, ncols: int = 1):
    """``(fig, ax)``: one axes on a ``w × h`` inch figure, laid out by :func:`save_tight`;
    with ``ncols`` > 1, ``(fig, [ax, …])``: that many panels side by side (never add
    panels to the one-axes figure: its first axes would stay, empty, under them)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(w, h))
    _capture(fig)
    if ncols == 1:
        return fig, fig.add_subplot(111)
    return fig, list(fig.subplots(1, ncols, squeeze=False)[0])


def save_tight(fig, folder: Path, name: str) -> str:
    """Write ``folder/name`` (PNG, 110 dpi, tight layout); returns ``name``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    fig.tight_layout()
    fig.savefig(Path(folder) / name, dpi=110)
    return name
