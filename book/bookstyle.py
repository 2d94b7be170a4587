"""One place for the book's figure style and Korean font.

Every chapter calls ``bookstyle.setup()`` in its first code cell. The font is
NanumGothic, shipped as a file inside the ``koreanize-matplotlib`` wheel. We use
the file only and never import that package (it imports ``distutils``, which
Python 3.12 removed).

The chapters print their step tables (the by-hand calculations) with
``bookstyle.show_table``, so every table in the book lines up the same way.
A glued number that a particle follows is glued together with its particle,
chosen by ``bookstyle.with_particle`` ("0.80" + 로 → "0.80으로").
"""

from __future__ import annotations

import html
import importlib.util
import logging
import re
from pathlib import Path

from rankmetrics.tables import html_table, text_table, width

FONT_FAMILY = "NanumGothic"
SHORT_COLUMN = 14  # monospace columns; a first or last column this narrow never wraps on a phone


def font_files() -> list[Path]:
    spec = importlib.util.find_spec("koreanize_matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("koreanize-matplotlib (the NanumGothic font files) is not installed")
    folder = Path(next(iter(spec.submodule_search_locations))) / "fonts"
    return sorted(folder.glob("NanumGothic*.ttf"))


def setup() -> None:
    """Register the Korean font and the book's plotting defaults; rankmetrics speaks Korean."""
    import rankmetrics

    # The book is Korean: step tables, tables and messages come from the catalogue in Korean
    # (the Python API's own default is English, whatever the machine's locale).
    rankmetrics.set_language("ko")
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
    """Show a step table: an HTML table in the book, aligned text everywhere else.

    Chapters print their by-hand calculations with this one function, so every step
    table in the book has the same look. In a notebook the output carries both forms:
    the web page shows the HTML table (:func:`table_html`: it scrolls sideways on a
    phone with its first and last columns held in view), the PDF and a terminal show
    the text (a header, a rule of dashes, then one line per row, columns two spaces
    apart). Outside a notebook the text is printed.

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
    text = text_table(cells[0], cells[1:], sides)
    if not _in_notebook():
        print(text)
        return
    from IPython.display import display

    display({"text/plain": text, "text/html": table_html(cells[0], cells[1:], sides)}, raw=True)


def _in_notebook() -> bool:
    """True inside a Jupyter kernel (the book's notebooks), False in doctests and scripts."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def is_step_table(headers) -> bool:
    """A step table has a row per rank (순위, 순위 k) or per cutoff (K): the by-hand calculation.

    >>> is_step_table(["순위 k", "결과", "누적 정답"]), is_step_table(["K", "P@K"]), is_step_table(["심사자", "τ"])
    (True, True, False)
    """
    first = str(headers[0]).strip()
    return first.startswith("순위") or first in ("K", "k")


def table_html(headers, rows, sides) -> str:
    """A step table as HTML for the web book, inside its own sideways scroller.

    The table is the package's (``rankmetrics.tables.html_table``) with the class
    ``rm-table``; book/_static/tables.css keeps its first column (the rank, or what
    the row is) in view while the other columns scroll, and in a step table
    (:func:`is_step_table`, class ``rm-step-table``) its last column too (the running
    sum). The scroller is a labelled region that the keyboard can reach, so a reader
    without a mouse or touch screen can scroll it too.

    Examples
    --------
    >>> print(table_html(["순위", "P@k"], [["1", "1.000"]], ["right", "right"]))  # doctest: +ELLIPSIS
    <div class="rm-table-scroll" role="region" tabindex="0" aria-label="표: 순위, P@k"><table class="rm-table rm-step-table rm-keep-first rm-keep-last">...</table></div>
    """
    label = html.escape("표: " + ", ".join(h for h in headers if h))
    # A short first or last column (a rank, "검색기 P", a sum) stays on one line; a long
    # one (a sentence that names the convention) wraps at its spaces.
    classes = ["rm-table"]
    if is_step_table(headers):
        classes.append("rm-step-table")
    for name, j in (("rm-keep-first", 0), ("rm-keep-last", -1)):
        if max(width(str(row[j])) for row in [headers, *rows]) <= SHORT_COLUMN:
            classes.append(name)
    table = html_table(headers, rows, sides, css_class=" ".join(classes))
    return f'<div class="rm-table-scroll" role="region" tabindex="0" aria-label="{label}">{table}</div>'


# Korean particles after a number. A particle is chosen by the last syllable of the
# word as it is *read*: "0.80" is read 영 점 팔 영 and ends in 영 (a final consonant),
# so it takes 으로; "0.88" ends in 팔 (final ㄹ) and takes 로. Digits after the decimal
# point are read one by one; the integer part is read as a number (10 십, 100 백,
# 1,000,000 백만), and a % sign is read 퍼센트.
_DIGIT_SYLLABLES = "영일이삼사오육칠팔구"
_UNIT_SYLLABLES = {1: "십", 2: "백", 3: "천"}  # ten, hundred, thousand
_MYRIAD_SYLLABLES = "만억조경"  # 10^4, 10^8, 10^12, 10^16
# (form after a final consonant, form after a vowel); a form may carry a tail such as 는 or 도.
_PARTICLE_PAIRS = [("으로", "로"), ("은", "는"), ("이", "가"), ("을", "를"), ("과", "와")]
_FINAL_RIEUL = 8  # index of ㄹ among the final consonants of a Hangul syllable


def _last_syllable_read(text: str) -> str:
    """The last syllable of ``text`` as read aloud in Korean ("0.80" → "영", "1,000" → "천")."""
    word = text.strip().replace(",", "")
    if word.endswith("%"):
        return "트"  # 퍼센트
    if word and "가" <= word[-1] <= "힣":
        return word[-1]
    match = re.search(r"(\d+)(?:\.(\d+))?$", word)
    if match is None:
        raise ValueError(f"cannot tell how {text!r} ends when read in Korean")
    fraction = re.search(r"(\d+)/\d+$", word)
    if fraction is not None:
        word = fraction.group(1)  # "1/3" is read 삼분의 일: the numerator comes last
        match = re.search(r"(\d+)(?:\.(\d+))?$", word)
    integer, decimals = match.groups()
    if decimals:
        return _DIGIT_SYLLABLES[int(decimals[-1])]
    digits = integer.lstrip("0") or "0"
    zeros = len(digits) - len(digits.rstrip("0"))
    if digits == "0" or zeros == 0:
        return _DIGIT_SYLLABLES[int(digits[-1])]
    if zeros < 4:
        return _UNIT_SYLLABLES[zeros]
    return _MYRIAD_SYLLABLES[min(zeros // 4, 4) - 1]


def with_particle(text: str, particle: str) -> str:
    """``text`` followed by the form of ``particle`` that fits how ``text`` is read in Korean.

    Give the particle in either form (은 or 는, 이 or 가, 을 or 를, 과 or 와, 으로 or
    로) with any tail (로는, 과도), or the copula (이다 or 다, 이고, 이며, 이면); the
    right form is chosen from the last syllable of ``text`` as read aloud. A final consonant takes the first form
    (은, 이, 을, 과, 으로, 이다), no final consonant the second (는, 가, 를, 와, 로, 다);
    으로/로 counts a final ㄹ as none, so 일, 칠 and 팔 take 로. A fraction "1/3" is read
    삼분의 일 and ends like its numerator.

    In a chapter, glue the number with its particle and write no particle after the role::

        glue("rag_target_mean_ro", bookstyle.with_particle(f"{mean:.2f}", "로"), display=False)
        평균은 {glue:text}`rag_target_mean_ro` 목표선에 걸립니다.

    Examples
    --------
    >>> with_particle("0.80", "로")
    '0.80으로'
    >>> with_particle("0.88", "으로")
    '0.88로'
    >>> with_particle("5.1", "는"), with_particle("4.2", "은")
    ('5.1은', '4.2는')
    >>> with_particle("0.906", "와"), with_particle("20%", "은"), with_particle("1,000,000", "를")
    ('0.906과', '20%는', '1,000,000을')
    """
    if particle == "다" or (particle.startswith("이") and len(particle) > 1):
        # the copula (이다, 이고, 이며, 이면): 이 after a final consonant, nothing after a vowel
        after_consonant, after_vowel, tail = "이", "", particle.removeprefix("이")
    else:
        for after_consonant, after_vowel in _PARTICLE_PAIRS:
            form = next((f for f in (after_consonant, after_vowel) if particle.startswith(f)), None)
            if form is not None:
                tail = particle[len(form) :]
                break
        else:
            raise ValueError(f"{particle!r} is not a particle that changes with the word before it")
    final = (ord(_last_syllable_read(text)) - ord("가")) % 28
    if after_consonant == "으로":
        takes_consonant_form = final not in (0, _FINAL_RIEUL)
    else:
        takes_consonant_form = final != 0
    return text + (after_consonant if takes_consonant_form else after_vowel) + tail
