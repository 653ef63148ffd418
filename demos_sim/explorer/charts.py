"""Charts of the explorer, drawn on the server as inline SVG (no script, no library).

Two kinds: :func:`bars` — each setup's value as a bar with its 95% interval as a whisker,
the reference in grey above this setup in blue, one group per seat, side or figure — and
:func:`differences` — the paired difference (this setup − reference) of every figure as a
dot with its 95% interval around a zero line, in orange when it moved after the Holm
adjustment, grey otherwise.
"""

from __future__ import annotations

import math
from html import escape

REF = "#9aa5b1"
NEW = "#2563eb"
MOVED = "#dd6b20"
STILL = "#718096"
W = 700           # svg width
LABEL = 92        # left margin for the group labels
RIGHT = 170       # right margin for the value labels
BAR = 13


def _nice_step(v: float, parts: int = 4) -> float:
    """A round tick step (1, 2, 2.5 or 5 × 10^k) with at most about ``parts`` steps to ``v``."""
    if not v > 0 or not math.isfinite(v):
        return 0.25
    raw = v / parts
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if m * mag >= raw:
            return m * mag
    return 10 * mag


def _nice_max(v: float) -> float:
    step = _nice_step(v)
    return step * max(1, math.ceil(v / step - 1e-9))


def bars(groups: list[tuple[str, list[tuple[str, float, float, float]]]], fmt, title: str,
         percent: bool = True, css_id: str = "") -> str:
    """``groups``: ``[(label, [(series, mean, lo, hi), …]), …]`` with series ``reference`` or
    ``this setup``; ``fmt(x)`` writes a value."""
    hi = max([h for _, s in groups for _, _, _, h in s if math.isfinite(h)] + [0.0])
    top = min(1.0, _nice_max(hi * 1.02)) if percent else _nice_max(hi * 1.02)
    step = _nice_step(hi * 1.02)
    plot_w = W - LABEL - RIGHT
    rows = sum(len(s) for _, s in groups)
    h = 30 + rows * (BAR + 3) + len(groups) * 8 + 20
    x = lambda v: LABEL + plot_w * max(0.0, min(v, top)) / top   # noqa: E731
    ident = f'id="{escape(css_id)}" ' if css_id else ""
    out = [f'<svg class="chart" {ident}viewBox="0 0 {W} {h}" '
           f'width="{W}" height="{h}" role="img" aria-label="{escape(title)}">',
           f'<text x="0" y="14" class="ct">{escape(title)}</text>']
    y = 28
    ticks = [step * i for i in range(int(round(top / step)) + 1)]
    for t in ticks:
        out.append(f'<line x1="{x(t):.1f}" x2="{x(t):.1f}" y1="22" y2="{h - 18}" class="grid"/>')
        out.append(f'<text x="{x(t):.1f}" y="{h - 6}" class="tick" text-anchor="middle">'
                   f'{escape(fmt(t, short=True))}</text>')
    for label, series in groups:
        gy = y
        for name, mean, lo, hi_ in series:
            colour = REF if name == "reference" else NEW
            if math.isfinite(mean):
                out.append(f'<rect x="{LABEL}" y="{y}" width="{max(0.5, x(mean) - LABEL):.1f}" '
                           f'height="{BAR}" fill="{colour}"><title>{escape(name)}: '
                           f'{escape(fmt(mean))} [{escape(fmt(lo))}, {escape(fmt(hi_))}]'
                           f'</title></rect>')
            if math.isfinite(lo) and math.isfinite(hi_):
                cy = y + BAR / 2
                out.append(f'<path d="M{x(lo):.1f},{cy} H{x(hi_):.1f} M{x(lo):.1f},{cy - 4} '
                           f'V{cy + 4} M{x(hi_):.1f},{cy - 4} V{cy + 4}" class="whisker"/>')
            out.append(f'<text x="{W - RIGHT + 6}" y="{y + BAR - 2}" class="val">'
                       f'{escape(fmt(mean))} [{escape(fmt(lo, bare=True))}, '
                       f'{escape(fmt(hi_, bare=True))}]</text>')
            y += BAR + 3
        out.append(f'<text x="{LABEL - 6}" y="{(gy + y - 3) / 2 + 4:.1f}" class="lab" '
                   f'text-anchor="end">{escape(label)}</text>')
        y += 8
    out.append("</svg>")
    return "".join(out)


def differences(rows: list[tuple[str, float, float, float, bool]], title: str) -> str:
    """``rows``: ``[(label, diff, lo, hi, moved), …]`` in percentage points."""
    finite = [abs(v) for _, d, lo, hi, _ in rows for v in (d, lo, hi) if math.isfinite(v)]
    span = _nice_max(max(finite + [0.2]) * 1.05)
    plot_w = W - LABEL - RIGHT
    x = lambda v: LABEL + plot_w * (max(-span, min(v, span)) + span) / (2 * span)   # noqa: E731
    h = 30 + len(rows) * 20 + 20
    out = [f'<svg class="chart" viewBox="0 0 {W} {h}" width="{W}" height="{h}" role="img" '
           f'aria-label="{escape(title)}">',
           f'<text x="0" y="14" class="ct">{escape(title)}</text>']
    for t in (-span, -span / 2, 0.0, span / 2, span):
        cls = "zero" if t == 0 else "grid"
        out.append(f'<line x1="{x(t):.1f}" x2="{x(t):.1f}" y1="22" y2="{h - 18}" class="{cls}"/>')
        out.append(f'<text x="{x(t):.1f}" y="{h - 6}" class="tick" text-anchor="middle">'
                   f'{"0" if t == 0 else format(t, "+.2g")}</text>')
    y = 30
    for label, d, lo, hi, moved in rows:
        colour = MOVED if moved else STILL
        cy = y + 6
        if math.isfinite(lo) and math.isfinite(hi):
            out.append(f'<path d="M{x(lo):.1f},{cy} H{x(hi):.1f} M{x(lo):.1f},{cy - 4} V{cy + 4} '
                       f'M{x(hi):.1f},{cy - 4} V{cy + 4}" stroke="{colour}" stroke-width="2" '
                       f'fill="none"/>')
        if math.isfinite(d):
            out.append(f'<circle cx="{x(d):.1f}" cy="{cy}" r="4.5" fill="'
                       f'{colour if moved else "white"}" stroke="{colour}" stroke-width="2">'
                       f'<title>{escape(label)}: {d:+.2f} [{lo:+.2f}, {hi:+.2f}]</title></circle>')
        out.append(f'<text x="{LABEL - 6}" y="{cy + 4}" class="lab" text-anchor="end">'
                   f'{escape(label)}</text>')
        out.append(f'<text x="{W - RIGHT + 6}" y="{cy + 4}" class="val'
                   f'{" moved" if moved else ""}">{d:+.2f} [{lo:+.2f}, {hi:+.2f}]</text>')
        y += 20
    out.append("</svg>")
    return "".join(out)
