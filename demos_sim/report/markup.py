"""HTML and Markdown pieces shared by the reports: tables, the page, embedded PNGs."""

from __future__ import annotations

import base64
import html

CSS = ("body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem}"
       "table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;"
       "padding:.2rem .5rem;text-align:left;font-variant-numeric:tabular-nums}"
       "th{background:#f3f3f3}img{max-width:100%}pre{background:#f6f6f6;padding:.8rem;"
       "overflow-x:auto}")


def md_table(rows: list[list[str]]) -> str:
    """A Markdown table; ``rows[0]`` is the header."""
    out = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in rows[1:]]
    return "\n".join(out)


def html_table(rows: list[list[str]]) -> str:
    """An HTML table; ``rows[0]`` is the header (cells escaped)."""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>"
                   for r in rows[1:])
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def html_figure(png: bytes, alt: str, caption: str) -> str:
    """A ``<figure>`` with the PNG embedded as a data URL."""
    data = base64.b64encode(png).decode("ascii")
    return (f'<figure><img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>")


def html_page(title: str, body: list[str]) -> str:
    """The whole page: title, the shared style sheet, ``body`` joined by newlines."""
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>"
            + "\n".join(body) + "</body></html>\n")
