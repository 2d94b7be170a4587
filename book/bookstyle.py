"""One place for the book's figure style and Korean font.

Every chapter calls ``bookstyle.setup()`` in its first code cell. The font is
NanumGothic, shipped as a file inside the ``koreanize-matplotlib`` wheel. We use
the file only and never import that package (it imports ``distutils``, which
Python 3.12 removed).

The chapters print their step tables (the by-hand calculations) with
``bookstyle.show_table``, so every table in the book lines up the same way.
"""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path

from rankmetrics.tables import text_table

FONT_FAMILY = "NanumGothic"


def font_files() -> list[Path]:
    spec = importlib.util.find_spec("koreanize_matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("koreanize-matplotlib (the NanumGothic font files) is not installed")
    folder = Path(next(iter(spec.submodule_search_locations))) / "fonts"
    return sorted(folder.glob("NanumGothic*.ttf"))


def setup() -> None:
    """Register the Korean font and the book's plotting defaults."""
    # matplotlib logs "building the font cache" on a fresh machine; keep it out of outputs.
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    import matplotlib as mpl
    from matplotlib import font_manager

    for path in font_files():
        font_manager.fontManager.addfont(str(path))
    mpl.rcParams.update(
        {
            "font.family": FONT_FAMILY,
            "axes.unicode_minus": False,  # NanumGothic has no U+2212 minus sign
            "figure.figsize": (6.4, 3.6),
            "figure.dpi": 100,
            "savefig.dpi": 150,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.grid": True,
            "grid.alpha": 0.3,
        }
    )


def _is_number(text: str) -> bool:
    """True for a cell that reads as a number; "-" and "" (no value at this step) count as numbers too."""
    try:
        float(text)
    except ValueError:
        return text in ("-", "")
    return True


def show_table(headers, rows, align: str | None = None) -> None:
    """Print a step table with its columns lined up.

    Chapters print their by-hand calculations with this one function, so every step
    table in the book has the same look: a header, a rule of dashes, then one line
    per row, columns two spaces apart.

    Parameters
    ----------
    headers : sequence
        Column titles.
    rows : sequence of sequences
        The cells, one sequence per row; each cell is shown with ``str()``.
    align : str, optional
        One character per column, ``"<"`` for left and ``">"`` for right. By default a
        column whose cells all read as numbers (``"-"`` and empty cells included) goes
        to the right and any other column to the left, as in the ``rm.explain`` tables.

    Notes
    -----
    The rows are laid out by the package's one table printer
    (``rankmetrics.tables.text_table``): a Hangul character takes two columns on
    screen and a combining mark (the hat of ``r̂``) none, so Korean headers line up
    in the monospace font of code outputs.

    Examples
    --------
    >>> show_table(["순위", "항목", "P@k"], [[1, "A", "1.000"], [2, "B", "0.500"]])
    순위  항목    P@k
    ----  ----  -----
       1  A     1.000
       2  B     0.500
    >>> show_table(["순위", "정답"], [["1위", "O"], ["2위", "X"]], align="<>")
    순위  정답
    ----  ----
    1위      O
    2위      X
    """
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    n_columns = len(cells[0])
    if align is None:
        align = "".join(
            ">" if all(_is_number(row[j]) for row in cells[1:]) else "<" for j in range(n_columns)
        )
    elif len(align) != n_columns or set(align) - {"<", ">"}:
        raise ValueError(f'align must give "<" or ">" for each of the {n_columns} columns; got {align!r}')
    sides = ["right" if side == ">" else "left" for side in align]
    print(text_table(cells[0], cells[1:], sides))
