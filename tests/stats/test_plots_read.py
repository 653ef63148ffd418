"""Plots that read: every analysis's ``plots`` code, drawn from the committed CSV tables
(results/analyses/<name>/, through :func:`~demos_sim.analysis.core.sections.load_tables`),
has no overlapping tick labels, no text outside its figure, no empty panel, and no colour
scale that leaves a panel without contrast (nor cell text that cannot be read on its cell).

The figures are collected before they are saved with
:func:`demos_sim.analysis.core.plotting.captured_figures`. Each checker is first shown to
fail on a small figure built here with that fault (and to pass on the same figure done
right), so a real plot that passes is not passing because a checker sees nothing.

The checks, in display pixels after ``fig.canvas.draw()``:

* overlap: two tick labels of one axis (only the ticks drawn, inside the view) whose text
  boxes intersect by more than :data:`TOL` px; labels with the same rotation are compared
  in their own rotated frame (two 45° labels' axis-aligned boxes overlap long before their
  text does); the text annotations of one panel likewise.
* outside: a visible text whose box leaves the figure by more than :data:`TOL` px.
* empty: a visible panel (not a colour bar) with no line, collection, patch, image, table
  or legend — a panel holding only a note such as "not screened" is empty.
* flat colour scale: an image or mesh whose cells' normalised values (``norm(value)`` in
  [0, 1]) span less than :data:`MIN_SPAN` of the colour map; when the scale runs through
  zero (``vmin < 0 < vmax``, a diverging map) zero's colour counts as one end, since the
  distance from "no effect" is what the colour then says (a shared scale made for one
  panel's -9 pp whitens a panel of -1 pp: span (0.5 − 0.447) = 0.053).
* unreadable cell text: a text annotation whose colour against the pixels under it
  (the figure drawn without the annotations) has a WCAG 2 contrast ratio under
  :data:`MIN_CONTRAST` (3:1, WCAG's floor for large text and graphics).
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import QuadMesh
from matplotlib.colors import to_rgba
from matplotlib.image import AxesImage
from matplotlib.text import Text

from demos_sim.analysis.core.plotting import captured_figures, figure, tight_figure
from demos_sim.analysis.core.sections import load_tables
from demos_sim.analysis.suite import ANALYSES

# the committed sections; DEMOS_SIM_PLOTS_FROM=<folder> checks another run's (--out)
RESULTS = Path(os.environ.get("DEMOS_SIM_PLOTS_FROM")
               or Path(__file__).resolve().parents[2] / "results" / "analyses")
TOL = 1.0            # px: boxes may touch or graze by a pixel
MIN_SPAN = 0.20      # of the colour map, per panel
MIN_CONTRAST = 3.0   # WCAG 2 contrast ratio


# ------------------------------------------------------------------------ the checkers
def luminance(rgb) -> float:
    """WCAG 2 relative luminance of an sRGB colour (channels in [0, 1])."""
    c = np.asarray(rgb, float)[:3]
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(lin @ [0.2126, 0.7152, 0.0722])


def contrast_ratio(a, b) -> float:
    """WCAG 2 contrast ratio (L_light + 0.05) / (L_dark + 0.05), from 1 to 21."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def _drawn_tick_labels(axis) -> list[list[Text]]:
    """The tick labels ``axis`` draws (ticks inside the view), as [label1s, label2s]."""
    ticks = axis._update_ticks()          # what Axis.draw draws
    return [[getattr(t, side) for t in ticks
             if getattr(t, side).get_visible() and getattr(t, side).get_text().strip()]
            for side in ("label1", "label2")]


def _box(t: Text, renderer):
    """(centre x, centre y, width, height, rotation) of a text's own (unrotated) box."""
    ext = t.get_window_extent(renderer)
    rot = t.get_rotation() % 180
    if rot:
        t.set_rotation(0)
        flat = t.get_window_extent(renderer)
        t.set_rotation(rot)
        w, h = flat.width, flat.height
    else:
        w, h = ext.width, ext.height
    return ((ext.x0 + ext.x1) / 2, (ext.y0 + ext.y1) / 2, w, h, rot)


def _overlaps(a, b) -> bool:
    """Whether two :func:`_box` boxes of the same rotation intersect by more than TOL."""
    ax, ay, aw, ah, rot = a
    bx, by, bw, bh, _ = b
    th = np.radians(rot)
    dx, dy = bx - ax, by - ay
    u = dx * np.cos(th) + dy * np.sin(th)           # along the text
    v = -dx * np.sin(th) + dy * np.cos(th)          # across it
    return abs(u) < (aw + bw) / 2 - TOL and abs(v) < (ah + bh) / 2 - TOL


def overlapping_texts(texts, renderer) -> list[tuple[str, str]]:
    """Pairs of texts (grouped by rotation) whose boxes intersect."""
    boxes = [(t, _box(t, renderer)) for t in texts]
    out = []
    for i, (t, a) in enumerate(boxes):
        for u, b in boxes[i + 1:]:
            if abs(a[4] - b[4]) < 0.5 and _overlaps(a, b):
                out.append((t.get_text(), u.get_text()))
    return out


def _panels(fig):
    return [ax for ax in fig.axes if ax.get_visible()]


def _is_colorbar(ax) -> bool:
    return getattr(ax, "_colorbar", None) is not None


def _shown_texts(fig) -> list[Text]:
    """Every text the figure draws: visible, not empty, in a visible panel, and for tick
    labels only those of ticks inside the view."""
    drawn, ticklabels = set(), set()
    for ax in _panels(fig):
        for axis in (ax.xaxis, ax.yaxis):
            for t in axis.get_major_ticks() + axis.get_minor_ticks():
                ticklabels.update((id(t.label1), id(t.label2)))
            for side in _drawn_tick_labels(axis):
                drawn.update(id(t) for t in side)
    out = []
    for t in fig.findobj(Text):
        if not t.get_visible() or not t.get_text().strip():
            continue
        if t.axes is not None and not t.axes.get_visible():
            continue
        if id(t) in ticklabels and id(t) not in drawn:
            continue
        out.append(t)
    return out


def _agg(fig):
    """``fig`` on an Agg canvas (a ``tight_figure`` gets one only when saved)."""
    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    return fig


def problems(fig) -> list[str]:
    """What keeps ``fig`` from reading (empty when nothing does)."""
    _agg(fig).canvas.draw()
    r = fig.canvas.get_renderer()
    found = []
    W, H = fig.bbox.width, fig.bbox.height
    for t in _shown_texts(fig):
        e = t.get_window_extent(r)
        if e.x0 < -TOL or e.y0 < -TOL or e.x1 > W + TOL or e.y1 > H + TOL:
            found.append(f"text outside the figure: {t.get_text()!r} at "
                         f"[{e.x0:.0f}, {e.x1:.0f}]×[{e.y0:.0f}, {e.y1:.0f}] px of "
                         f"{W:.0f}×{H:.0f}")
    for k, ax in enumerate(_panels(fig)):
        name = f"panel {k} ({ax.get_title() or 'untitled'!s})"
        for axis in (ax.xaxis, ax.yaxis):
            for side in _drawn_tick_labels(axis):
                pairs = overlapping_texts(side, r)
                if pairs:
                    found.append(f"{name}: {len(pairs)} pairs of overlapping "
                                 f"{axis.axis_name} tick labels, first {pairs[0]}")
        notes = [t for t in ax.texts if t.get_visible() and t.get_text().strip()]
        pairs = overlapping_texts(notes, r)
        if pairs:
            found.append(f"{name}: {len(pairs)} pairs of overlapping texts, first {pairs[0]}")
        if _is_colorbar(ax):
            continue
        if not (ax.lines or ax.collections or ax.patches or ax.images or ax.tables
                or ax.artists or ax.get_legend() is not None):
            found.append(f"{name}: empty panel")
        for m in ax.images + [c for c in ax.collections if isinstance(c, QuadMesh)]:
            span = colour_span(m)
            if span < MIN_SPAN:
                found.append(f"{name}: its cells use {span:.0%} of the colour scale "
                             f"(under {MIN_SPAN:.0%})")
    for a, b in overlapping_panels_texts(fig, r):
        found.append(f"text of one panel over another's: {a!r} and {b!r}")
    for text, ratio in low_contrast_texts(fig):
        found.append(f"cell text {text!r}: contrast {ratio:.2f}:1 with what is under it "
                     f"(under {MIN_CONTRAST:g}:1)")
    return found


def _frame_texts(ax) -> list[Text]:
    """A panel's title, axis labels and drawn tick labels."""
    out = [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
    for axis in (ax.xaxis, ax.yaxis):
        for side in _drawn_tick_labels(axis):
            out += side
    return [t for t in out if t.get_visible() and t.get_text().strip()]


def overlapping_panels_texts(fig, renderer) -> list[tuple[str, str]]:
    """Pairs of frame texts (titles, axis labels, tick labels; the figure's own titles)
    of two different panels whose axis-aligned boxes intersect by more than TOL: the
    stray 0–1 axes' "0.4" printed into the real panel's "0.015"."""
    groups = [_frame_texts(ax) for ax in _panels(fig)]
    groups.append([t for t in (fig._suptitle, fig._supxlabel, fig._supylabel)
                   if t is not None and t.get_visible() and t.get_text().strip()])
    boxes = [(g, t, t.get_window_extent(renderer)) for g, texts in enumerate(groups)
             for t in texts]
    if not boxes:
        return []
    e = np.array([[b.x0, b.y0, b.x1, b.y1] for _, _, b in boxes])
    g = np.array([k for k, _, _ in boxes])
    w = np.minimum(e[:, None, 2], e[None, :, 2]) - np.maximum(e[:, None, 0], e[None, :, 0])
    h = np.minimum(e[:, None, 3], e[None, :, 3]) - np.maximum(e[:, None, 1], e[None, :, 1])
    hit = (w > TOL) & (h > TOL) & (g[:, None] < g[None, :])
    return [(boxes[i][1].get_text(), boxes[j][1].get_text()) for i, j in zip(*np.nonzero(hit))]


def colour_span(mappable) -> float:
    """The share of the colour map an image's or mesh's cells use (see the module doc)."""
    a = np.ma.masked_invalid(np.ma.asarray(mappable.get_array(), float))
    norm = mappable.norm
    vals = np.ma.compressed(np.ma.asarray(norm(a), float))
    vals = vals[np.isfinite(vals)]
    if not len(vals):
        return 0.0
    if norm.vmin is not None and norm.vmax is not None and norm.vmin < 0 < norm.vmax:
        vals = np.append(vals, float(norm(0.0)))
    vals = np.clip(vals, 0, 1)
    return float(vals.max() - vals.min())


def low_contrast_texts(fig) -> list[tuple[str, float]]:
    """(text, ratio) of the panels' text annotations whose colour has a contrast under
    MIN_CONTRAST with the median colour of the pixels under them (the figure drawn
    without the annotations; a text's own opaque box counts as what is under it)."""
    notes = [t for ax in _panels(fig) for t in ax.texts
             if t.get_visible() and t.get_text().strip()]
    if not notes:
        return []
    _agg(fig).canvas.draw()
    r = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(r) for t in notes]
    for t in notes:
        t.set_visible(False)
    try:
        fig.canvas.draw()
        img = np.asarray(fig.canvas.buffer_rgba(), float)[..., :3] / 255
    finally:
        for t in notes:
            t.set_visible(True)
    H, W = img.shape[:2]
    out = []
    for t, e in zip(notes, boxes):
        x0, x1 = int(max(0, np.floor(e.x0))), int(min(W, np.ceil(e.x1)))
        y0, y1 = int(max(0, H - np.ceil(e.y1))), int(min(H, H - np.floor(e.y0)))
        if x1 <= x0 or y1 <= y0:
            continue                                  # outside: reported as such
        under = np.median(img[y0:y1, x0:x1].reshape(-1, 3), axis=0)
        patch = t.get_bbox_patch()
        if patch is not None:
            fc = to_rgba(patch.get_facecolor())
            under = fc[3] * np.asarray(fc[:3]) + (1 - fc[3]) * under
        rgba = to_rgba(t.get_color(), t.get_alpha())
        colour = rgba[3] * np.asarray(rgba[:3]) + (1 - rgba[3]) * under
        ratio = contrast_ratio(colour, under)
        if ratio < MIN_CONTRAST:
            out.append((t.get_text(), ratio))
    return out


# ------------------------------------------------------------ the checkers, by hand
def test_wcag_luminance_and_contrast_by_hand():
    assert luminance((1, 1, 1)) == pytest.approx(1.0)
    assert luminance((0, 0, 0)) == 0.0
    assert contrast_ratio((0, 0, 0), (1, 1, 1)) == pytest.approx(21.0)     # 1.05 / 0.05
    # #777777: 0x77/255 = 0.46667 -> ((0.46667 + 0.055) / 1.055)^2.4 = 0.18447;
    # on white (1.05) / (0.23447) = 4.478 (WCAG's well-known 4.48:1)
    assert contrast_ratio((0x77 / 255,) * 3, (1, 1, 1)) == pytest.approx(4.478, abs=1e-3)
    # black on pure blue: L(blue) = 0.0722 -> 0.1222 / 0.05 = 2.444 (under 3:1);
    # white on it: 1.05 / 0.1222 = 8.592
    assert contrast_ratio((0, 0, 0), (0, 0, 1)) == pytest.approx(2.444, abs=1e-3)
    assert contrast_ratio((1, 1, 1), (0, 0, 1)) == pytest.approx(8.592, abs=1e-3)


def _labels_figure(n: int, height: float):
    fig, ax = figure(1, 1, 4.0, height)
    ax = ax[0][0]
    ax.plot(range(n), range(n))
    ax.set_yticks(range(n), [f"label {i}" for i in range(n)], fontsize=8)
    return fig


def test_overlapping_tick_labels_are_found():
    # 40 labels of 8 pt (about 12 px a line at 110 dpi) on a panel of about 1.4 inch
    # (150 px): 3.8 px a label
    bad = problems(_labels_figure(40, 2.0))
    assert any("overlapping y tick labels" in p for p in bad), bad
    # 8 labels on a 4-inch figure: about 45 px a label
    assert problems(_labels_figure(8, 4.0)) == []


def test_rotated_labels_compared_in_their_own_frame():
    fig, ax = figure(1, 1, 5.0, 3.0)
    ax = ax[0][0]
    n = 10
    ax.plot(range(n), range(n))
    # 45° labels one data unit (about 50 px) apart: their axis-aligned boxes (about
    # 100 px wide) overlap, the text lines (about 50 · sin 45° = 35 px apart, 12 px
    # high) do not
    ax.set_xticks(range(n), [f"a longer setting {i:02d}" for i in range(n)], rotation=45,
                  ha="right", fontsize=8)
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    labels = _drawn_tick_labels(ax.xaxis)[0]
    e0, e1 = (t.get_window_extent(r) for t in labels[:2])
    assert e0.x1 > e1.x0 + 10                      # the boxes do overlap
    assert overlapping_texts(labels, r) == []
    # at 90 labels one unit apart are 4 px apart with 12 px lines: they overlap
    fig, ax = figure(1, 1, 5.0, 3.0)
    ax = ax[0][0]
    ax.plot(range(90), range(90))
    ax.set_xticks(range(90), [f"setting {i:02d}" for i in range(90)], rotation=45,
                  ha="right", fontsize=8)
    assert any("overlapping x tick labels" in p for p in problems(fig))


def test_text_outside_the_figure_is_found():
    # a colour bar's label longer than the figure is high (the veto heat-map's): no
    # layout can fit it
    fig, ax = figure(1, 1, 4.0, 2.0)
    im = ax[0][0].imshow([[0, 1], [1, 0]], cmap="Blues")
    fig.colorbar(im, ax=ax[0][0], label="win share difference (pp); * Holm p < 0.05, "
                 "two-sided, paired on the same deals")
    assert any("text outside the figure: 'win share difference" in p
               for p in problems(fig))
    # a note placed beyond the panel on a figure laid out by hand
    fig, ax = tight_figure(4.0, 3.0)
    ax.plot([0, 1], [0, 1])
    ax.text(1.02, 0.5, "a long note that runs off the right edge", transform=ax.transAxes)
    assert any("text outside the figure" in p for p in problems(fig))
    fig, ax = figure(1, 1, 4.0, 3.0)
    ax[0][0].plot([0, 1], [0, 1])
    ax[0][0].set_ylabel("a label inside")
    assert problems(fig) == []


def test_empty_panels_are_found():
    # a panel with only a note
    fig, ax = figure(2, 1, 3.0, 3.0)
    ax[0][0].plot([0, 1], [0, 1])
    ax[0][1].text(0.5, 0.5, "not screened at this rung", ha="center",
                  transform=ax[0][1].transAxes)
    assert any("panel 1" in p and "empty panel" in p for p in problems(fig))
    # the stray 0–1 axes: a figure made with one panel, then more panels added to it
    fig, ax = figure(1, 1, 6.0, 3.0)
    a1, a2 = fig.add_subplot(121), fig.add_subplot(122)
    a1.plot([0, 1], [0.010, 0.030])
    a2.plot([0, 1], [0.4, 0.8])
    bad = problems(fig)
    assert [p for p in bad if "empty panel" in p] == ["panel 0 (untitled): empty panel"]
    # … whose 0–1 ticks print into the real panels' ("0.40.015")
    assert any(p.startswith("text of one panel over another's") for p in bad), bad
    fig, ax = tight_figure(6.0, 3.0)
    fig.add_subplot(121).plot([0, 1], [0, 1])
    assert any("empty panel" in p for p in problems(fig))
    # a colour bar is not a panel to fill; a panel turned invisible is not shown
    fig, ax = figure(2, 1, 3.0, 3.0)
    im = ax[0][0].imshow([[0, 1], [1, 0]], cmap="Blues")
    fig.colorbar(im, ax=ax[0][0])
    ax[0][1].set_visible(False)
    assert problems(fig) == []


def test_a_shared_scale_that_whitens_a_panel_is_found():
    # the veto heat-map's fault: one scale ±9.28 for every panel; greedy's cells -0.57 ..
    # -1.07 normalise to 0.5 − 1.07/18.56 = 0.442 .. 0.5 − 0.57/18.56 = 0.469, with zero
    # at 0.5: span 0.058
    fig, ax = figure(2, 1, 3.0, 2.5)
    greedy = np.array([[-1.06, -1.00, -0.57], [-0.82, -0.69, -0.90]])
    search = np.array([[2.05, -9.28, -3.22], [0.68, -1.0, 1.0]])
    for a, m in zip(ax[0], (greedy, search)):
        a.imshow(m, cmap="RdBu_r", vmin=-9.28, vmax=9.28)
    bad = problems(fig)
    assert len([p for p in bad if "colour scale" in p]) == 1
    assert any(p.startswith("panel 0") and "6% of the colour scale" in p for p in bad), bad
    # its own scale per panel (±1.06): the -1.06 cell reaches the end, span 0.5
    fig, ax = figure(2, 1, 3.0, 2.5)
    for a, m in zip(ax[0], (greedy, search)):
        lim = np.abs(m).max()
        a.imshow(m, cmap="RdBu_r", vmin=-lim, vmax=lim)
    assert problems(fig) == []
    # a sequential scale: the cells themselves must span the 20 %
    fig, ax = figure(1, 1, 3.0, 2.5)
    ax[0][0].pcolormesh(np.array([[0.50, 0.52], [0.55, 0.51]]), vmin=0, vmax=1)
    assert any("5% of the colour scale" in p for p in problems(fig))   # 0.55 − 0.50


def test_cell_text_without_contrast_is_found():
    # black on navy (#053061: luminance 0.0287, contrast 0.0787 / 0.05 = 1.57) fails,
    # white on it (1.05 / 0.0787 = 13.3) reads
    for colour, fails in (("black", True), ("white", False)):
        fig, ax = figure(1, 1, 3.0, 2.5)
        a = ax[0][0]
        a.imshow([[0.0, 1.0]], cmap="Blues", vmin=0, vmax=1)   # cell 1: Blues' darkest
        a.text(1, 0, "-9.28*", ha="center", va="center", color=colour)
        a.text(0, 0, "+2.05", ha="center", va="center", color="black")  # on near-white
        bad = low_contrast_texts(fig)
        assert [t for t, _ in bad] == (["-9.28*"] if fails else []), bad
        if fails:
            assert bad[0][1] == pytest.approx(1.57, abs=0.1)


# ------------------------------------------------------------------ the real plots
def _analysis_figures(name: str, folder: Path):
    mod = importlib.import_module(ANALYSES[name])
    tables = load_tables(RESULTS / name)
    with captured_figures() as figs:
        files = mod.plots(tables, folder)
    return files, figs


@pytest.mark.parametrize("name", list(ANALYSES))
def test_every_analysis_plot_reads(name, tmp_path):
    if not (RESULTS / name / "section.json").exists():
        pytest.skip(f"no committed section {name}")
    files, figs = _analysis_figures(name, tmp_path)
    assert figs, f"{name}: plots() made no figure through demos_sim.analysis.core.plotting"
    assert len(figs) == len(files), (files, [f.saved_as for f in figs])
    found = []
    for k, fig in enumerate(figs):
        label = fig.saved_as or f"figure {k}"
        found += [f"{name}/{label}: {p}" for p in problems(fig)]
    assert not found, "\n".join(found)
