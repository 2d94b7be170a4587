"""The one table printer: aligned text for a terminal, the same table as HTML for Jupyter.

Every table the package prints goes through here: step tables
(:func:`rankmetrics.explain`), :class:`rankmetrics.Evaluation`,
:class:`rankmetrics.Comparison`, worksheet grade reports, and the book's
``show_table``. In a monospace font a Hangul syllable (and any other East
Asian wide character) takes two columns and a combining mark none, so widths
are counted that way, not with ``len()``.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Sequence

from .i18n import _

ALIGNS = ("left", "right")


def width(text: str) -> int:
    """Columns the text takes in a monospace font.

    Examples
    --------
    >>> width("nDCG"), width("정답"), width("r̂")
    (4, 4, 1)
    """
    return sum(
        0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
        for ch in text
    )


def _check(headers: Sequence[str], rows: Sequence[Sequence[str]], aligns: Sequence[str] | None) -> list[str]:
    n = len(headers)
    aligns = list(aligns) if aligns is not None else ["left", *["right"] * (n - 1)]
    if len(aligns) != n or set(aligns) - set(ALIGNS):
        raise ValueError(
            _("aligns must give 'left' or 'right' for each of the {n} columns; got {aligns!r}").format(
                n=n, aligns=aligns
            )
        )
    for row in rows:
        if len(row) != n:
            raise ValueError(
                _("every row needs {n} cells, one per header; got {row!r}").format(n=n, row=list(row))
            )
    return aligns


def text_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    aligns: Sequence[str] | None = None,
    *,
    footer: Sequence[Sequence[str]] = (),
) -> str:
    """Rows of cells as aligned text: the headers, a rule, the rows (then a rule and the footer rows).

    Columns are two spaces apart; ``aligns`` gives ``"left"`` or ``"right"``
    per column (default: the first left, the rest right).

    Examples
    --------
    >>> print(text_table(["순위", "항목", "P@k"], [["1", "A", "1.000"], ["2", "문서", "0.500"]],
    ...                  ["right", "left", "right"]))
    순위  항목    P@k
    ----  ----  -----
       1  A     1.000
       2  문서  0.500
    """
    aligns = _check(headers, [*rows, *footer], aligns)
    every = [list(headers), *map(list, rows), *map(list, footer)]
    widths = [max(width(row[j]) for row in every) for j in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        padded = [
            " " * (w - width(c)) + c if side == "right" else c + " " * (w - width(c))
            for c, w, side in zip(cells, widths, aligns)
        ]
        return "  ".join(padded).rstrip()

    rule = "  ".join("-" * w for w in widths)
    out = [line(headers), rule, *map(line, rows)]
    if footer:
        out += [rule, *map(line, footer)]
    return "\n".join(out)


def html_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    aligns: Sequence[str] | None = None,
    *,
    caption: str | None = None,
    footer: Sequence[Sequence[str]] = (),
    css_class: str | None = None,
    row_headers: bool = False,
) -> str:
    """The same table as HTML, every cell escaped; ``row_headers`` makes each row's first cell a ``<th>``."""
    aligns = _check(headers, [*rows, *footer], aligns)
    esc = html.escape

    def cells(row: Sequence[str], tag: str = "td") -> str:
        out = []
        for j, (cell, side) in enumerate(zip(row, aligns)):
            name = "th" if (row_headers and j == 0) or tag == "th" else "td"
            out.append(f'<{name} style="text-align:{side};padding:0 .6em">{esc(cell)}</{name}>')
        return "<tr>" + "".join(out) + "</tr>"

    head = cells(headers, "th")
    body = "".join(cells(row) for row in rows)
    foot = "".join(cells(row) for row in footer)
    attributes = f' class="{esc(css_class)}"' if css_class else ""
    return (
        f"<table{attributes}>"
        + (f'<caption style="text-align:left">{esc(caption)}</caption>' if caption else "")
        + f"<thead>{head}</thead><tbody>{body}</tbody>"
        + (f"<tfoot>{foot}</tfoot>" if footer else "")
        + "</table>"
    )
