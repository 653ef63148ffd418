"""HTML and Markdown pieces shared by the reports: the page and its style sheet, tables
(plain, or collapsed in a ``<details>`` with a CSV download), figures with the PNG embedded
(re-encoded with a small palette, :func:`small_png`), the stamp box.

The page is self-contained and works offline (no script, no font, no CDN). The style sheet
keeps it within the window down to phone width: text column of at most 72 rem, images
scaled down, table cells that wrap (an interval goes under its estimate), and a wide table
scrolls inside its own box rather than the page.
"""

from __future__ import annotations

import base64
import html
import io
import re
import urllib.parse

CSS = """
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.45;
 color:#1d232a;max-width:72rem;margin:0 auto;padding:1rem 1.25rem 3rem}
h1{font-size:1.7rem;margin:.6rem 0 .3rem}h2{font-size:1.35rem;margin:2.2rem 0 .4rem;
 padding-top:.6rem;border-top:2px solid #d7dde3}h3{font-size:1.05rem;margin:1.2rem 0 .3rem}
a{color:#0b5cad}
.stamp{font-size:.85rem;color:#46525e;background:#f4f6f8;border:1px solid #dde3e8;
 border-radius:6px;padding:.45rem .7rem;margin:.6rem 0}
.stamp b{color:#1d232a}
.answer{font-size:1.08rem;margin:.3rem 0 .4rem}
.question{font-weight:600;font-size:1.1rem;margin:0 0 .2rem}
.fig{white-space:nowrap;font-weight:600}.ci{color:#55606b;white-space:nowrap;font-weight:400}
.bot{font-size:.8rem;color:#55606b;background:#eef1f4;border-radius:3px;padding:0 .25rem;
 white-space:nowrap;font-weight:400}
.meta{font-size:.88rem;color:#46525e;margin:.2rem 0}
.ok{color:#1b6e3a}.warn{color:#a33c00}
.card{display:grid;grid-template-columns:minmax(0,2fr) minmax(0,3fr);gap:1rem;
 border:1px solid #d7dde3;border-radius:8px;padding:.8rem .9rem;margin:1rem 0;
 align-items:start}
.card.wide{grid-template-columns:minmax(0,1fr)}
code{overflow-wrap:anywhere}
.card h3{margin:0 0 .3rem;font-size:1.1rem}
.card img{width:100%;height:auto;display:block}
.card figure{margin:0}
figure{margin:1rem 0;max-width:100%}figure img{max-width:100%;height:auto;display:block}
".plots{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,32rem),1fr));
 gap:0 1.5rem}
figcaption{font-size:.88rem;color:#46525e}
.gloss{background:#fbfaf4;border:1px solid #e8e2c8;border-radius:6px;padding:.5rem .9rem;
 margin:1rem 0;font-size:.93rem}.gloss dt{font-weight:600}.gloss dd{margin:0 0 .35rem 1rem}
details{margin:.5rem 0;border:1px solid #dde3e8;border-radius:6px;padding:.3rem .6rem}
summary{cursor:pointer;font-weight:600}
details>summary .n{font-weight:400;color:#55606b}
.tablebox{max-width:100%;overflow-x:auto}
table{border-collapse:collapse;margin:.5rem 0;font-size:.82rem;max-width:100%}
td,th{border:1px solid #d3d9df;padding:.15rem .35rem;text-align:left;vertical-align:top;
 font-variant-numeric:tabular-nums;overflow-wrap:break-word}
th{background:#eef1f4;font-weight:600}
td .ci{display:block;font-size:.92em;white-space:normal}
table.dense{font-size:.72rem}table.dense td,table.dense th{padding:.1rem .2rem}
ul.flags li{color:#a33c00}
pre{background:#f4f6f8;padding:.8rem;overflow-x:auto;white-space:pre-wrap}
.toc{columns:2 18rem;font-size:.95rem}
@media (max-width:50rem){body{padding:.5rem}.card{grid-template-columns:minmax(0,1fr)}}
"""


def text(fragment: str) -> str:
    """Plain text of an HTML fragment (for the Markdown reports)."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def md_table(rows: list[list[str]]) -> str:
    """A Markdown table; ``rows[0]`` is the header."""
    out = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in rows[1:]]
    return "\n".join(out)


DENSE = 12     # a table of more columns than this gets a smaller font


def html_table(rows: list[list[str]], raw: bool = False) -> str:
    """An HTML table; ``rows[0]`` is the header. Cells are escaped unless ``raw`` (cells
    already HTML). More than :data:`DENSE` columns: a smaller font, to fit the page."""
    esc = (lambda c: c) if raw else html.escape
    cls = ' class="dense"' if len(rows[0]) > DENSE else ""
    head = "".join(f"<th>{esc(c)}</th>" for c in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>"
                   for r in rows[1:])
    return (f'<div class="tablebox"><table{cls}><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>")


def csv_data_uri(text: str) -> str:
    """A ``data:`` URI of a CSV text (a download link that needs no file)."""
    return "data:text/csv;charset=utf-8," + urllib.parse.quote(text)


def html_details(summary: str, inner: str, open_: bool = False) -> str:
    """A collapsed ``<details>`` block; ``summary`` is HTML."""
    return (f"<details{' open' if open_ else ''}><summary>{summary}</summary>"
            f"{inner}</details>")


def small_png(png: bytes, colours: int = 256) -> bytes:
    """``png`` re-encoded with a palette of at most ``colours`` (octree, no dithering)
    when that is smaller: plots have few colours, so this keeps them sharp (no channel off
    by more than ~40 of 255 in the committed plots, colour bars kept) at a third of the
    size."""
    from PIL import Image

    im = Image.open(io.BytesIO(png)).convert("RGB")
    q = im.quantize(colors=colours, method=Image.Quantize.FASTOCTREE,
                    dither=Image.Dither.NONE)
    buf = io.BytesIO()
    q.save(buf, format="PNG", optimize=True)
    out = buf.getvalue()
    return out if len(out) < len(png) else png


def png_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def html_figure(png: bytes, alt: str, caption: str, optimise: bool = True) -> str:
    """A ``<figure>`` with the PNG embedded as a data URL (:func:`small_png` first)."""
    data = png_uri(small_png(png) if optimise else png)
    return (f'<figure><img alt="{html.escape(alt)}" src="{data}">'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>")


def html_page(title: str, body: list[str], stamp: str = "", css: str = "") -> str:
    """The whole page: title, the style sheet (and ``css`` after it), ``stamp`` (HTML) at
    the top and the foot, ``body`` joined by newlines."""
    top = f'<div class="stamp" id="stamp">{stamp}</div>' if stamp else ""
    foot = f'<footer><div class="stamp">{stamp}</div></footer>' if stamp else ""
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            f"<title>{html.escape(title)}</title><style>{CSS}{css}</style></head><body>"
            f"<h1>{html.escape(title)}</h1>{top}\n"
            + "\n".join(body) + f"\n{foot}</body></html>\n")
