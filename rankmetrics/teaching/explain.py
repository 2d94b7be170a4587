"""Step tables: a metric's calculation laid out row by row, the way it is done by hand.

``explain(metric, x, k, ...)`` returns an :class:`Explanation`: one row per rank
(grade, gain, discount, gain ÷ discount, running sum for DCG/nDCG; O/X, running
hit count, precision at each relevant rank for the hit-based metrics), the
formula with the numbers filled in, and a one-line convention card.

Nothing here defines a metric a second time. Every intermediate comes from the
shared conventions (``_conventions``: gain, discount, cutoff, relevance) and the
shared input resolution (``_queries.prepare``); the final value is then checked
against the public metric function, so a step table can never drift from the
number the package reports.

Student rounding (``decimals=2``) repeats the arithmetic with every
intermediate rounded half-up, as on paper, next to the exact values, and points
at the first step where the two part ways.
"""

from __future__ import annotations

import html
import inspect
import math
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import Any

import numpy as np

from .. import _validation as v
from ..metrics.conventions import GAINS, ap_denominator, cutoff, discounts, gain_values, is_relevant
from ..metrics.dcg import dcg, ndcg
from ..metrics.inputs import prepare
from ..metrics.rank_based import (
    average_precision,
    mean_average_precision,
    mean_rank,
    mean_reciprocal_rank,
    reciprocal_rank,
)
from ..metrics.rating import mae, mse, rmse
from ..metrics.set_based import f1, hit_rate, precision, r_precision, recall

__all__ = ["METRICS", "Explanation", "explain"]

_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "ndcg": ndcg,
    "dcg": dcg,
    "precision": precision,
    "recall": recall,
    "f1": f1,
    "hit_rate": hit_rate,
    "r_precision": r_precision,
    "reciprocal_rank": reciprocal_rank,
    "mean_rank": mean_rank,
    "average_precision": average_precision,
    "mean_reciprocal_rank": mean_reciprocal_rank,
    "mean_average_precision": mean_average_precision,
    "mse": mse,
    "mae": mae,
    "rmse": rmse,
}

#: The metric names :func:`explain` accepts (the public function names).
METRICS: tuple[str, ...] = tuple(_FUNCTIONS)

_RATING_METRICS = ("mse", "mae", "rmse")
_PER_QUERY = ("relevant", "n_relevant")  # MRR/MAP keywords given once per query; the rest apply to all
_MEAN_METRICS = {"mean_reciprocal_rank": "reciprocal_rank", "mean_average_precision": "average_precision"}

# The convention card uses these words and this order for every metric.
_CARD_FIELDS = (
    ("gain", "이득"),
    ("discount", "할인"),
    ("ideal", "이상적 순서"),
    ("denominator", "분모"),
    ("cutoff", "컷오프"),
)
_NONE = "없음"
_GAIN_WORDS = {
    "linear": "등급 그대로 (linear)",
    "exponential": "2^등급 − 1 (exponential)",
    "binary": "관련이면 1 (binary)",
}
_RELEVANT_WORDS = "관련이면 1, 아니면 0 (등급 > 0 이 관련)"

_LEGEND = "칸의 값은 손 계산(반올림)이고, 정확한 값이 다르게 읽히는 칸만 괄호 안에 정확한 값을 적었습니다."
_EXACT_PLACES = 4  # exact values are shown with 4 decimals, as the documents print them


# ---------------------------------------------------------------------------
# numbers as a person writes them


def _round(value: float | Decimal, places: int) -> Decimal:
    """Round half up (0.625 -> 0.63), as taught at school; not Python's round-half-even."""
    number = value if isinstance(value, Decimal) else Decimal(repr(float(value)))
    # Enough digits for the whole number plus `places` decimals (1e20 to 10 places needs 31).
    digits = max(28, number.adjusted() + places + 2)
    return number.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP, context=Context(prec=digits))


def _exact(value: float) -> str:
    """An exact value for reading: whole numbers bare, otherwise 4 decimals without trailing zeros."""
    if value is None:
        return ""
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if float(value).is_integer():
        return str(int(value))
    text = f"{float(value):.{_EXACT_PLACES}f}".rstrip("0").rstrip(".")
    return text


def _hand(value: Decimal | float, places: int) -> str:
    """A hand-rounded value: whole numbers bare (3, 0), otherwise exactly `places` decimals."""
    number = _round(value, places)
    if number == number.to_integral_value():
        return str(int(number))
    return f"{number:.{places}f}"


# ---------------------------------------------------------------------------
# the result object


@dataclass
class Column:
    key: str
    header: str
    places: int | None = None  # decimals of the hand-rounded value; None: not rounded
    align: str = "right"


@dataclass
class Section:
    """One step table with the formula lines that sum it up."""

    title: str
    columns: list[Column]
    rows: list[dict[str, Any]]
    lines: list[str] = field(default_factory=list)


@dataclass
class Explanation:
    """A metric's calculation, step by step.

    Attributes
    ----------
    metric : str
        The public metric name, e.g. ``"ndcg"``.
    label : str
        How the value is written, e.g. ``"nDCG@5"``.
    value : float
        The exact value; always equal to calling the metric itself.
    rounded : float or None
        The result of the hand calculation when ``decimals`` was given.
    rows : list of dict
        The main table, one dict per rank (per item for MSE/MAE/RMSE, per query for MRR/MAP).
    ideal_rows : list of dict or None
        The ideal ordering's table (DCG-based metrics with a normalisation).
    card : str
        The convention card: gain, discount, ideal, denominator, cutoff.
    conventions : dict
        The same card as data.
    difference : str or None
        In rounding mode, where the hand calculation first parts from the exact one.
    parts : list of Explanation
        One explanation per query (MRR, MAP).
    sections : list of Section
        The tables in display order, each with its formula lines.
    steps : list of str
        The formula lines with the numbers filled in (a property).
    summary : list of str
        In rounding mode: the hand result next to the exact one, and where they part.

    ``str(e)`` is an aligned text table for a terminal, ``e._repr_html_()`` an
    HTML table for Jupyter, ``e.to_markdown()`` pipe tables for a document.
    """

    metric: str
    label: str
    value: float
    rounded: float | None
    rows: list[dict[str, Any]]
    card: str
    conventions: dict[str, str]
    sections: list[Section]
    summary: list[str]
    decimals: int | None = None
    discount_decimals: int | None = None
    ideal_rows: list[dict[str, Any]] | None = None
    difference: str | None = None
    parts: list[Explanation] = field(default_factory=list)

    @property
    def steps(self) -> list[str]:
        """The formula lines with the numbers filled in, in order (exact, then by hand)."""
        return [line for section in self.sections for line in section.lines]

    # -- rendering ---------------------------------------------------------
    def __repr__(self) -> str:
        hand = "" if self.rounded is None else f", 손 계산 {_hand(self.rounded, self.decimals)}"
        return f"<Explanation {self.label} = {_exact(self.value)}{hand}>"

    def _cell(self, row: dict[str, Any], column: Column) -> str:
        value = row.get(column.key)
        if value is None:
            return ""
        if isinstance(value, str) or column.key in ("item", "query"):
            return str(value)
        if isinstance(value, (bool, np.bool_)):
            return "O" if value else "X"
        rounded = row.get(column.key + "_rounded")
        if rounded is None or column.places is None:
            return _exact(value)
        text = _hand(rounded, column.places)
        exact = _exact(value)
        if Decimal(text) != Decimal(exact):  # show the exact value only where it reads differently
            text += f" ({exact})"
        return text

    def _tables(self) -> list[tuple[Section, list[str], list[list[str]]]]:
        out = []
        for section in self.sections:
            headers = [c.header for c in section.columns]
            cells = [[self._cell(row, c) for c in section.columns] for row in section.rows]
            out.append((section, headers, cells))
        return out

    def __str__(self) -> str:
        lines = [f"{self.label} 단계표"]
        if self.decimals is not None:
            lines.append(_LEGEND)
        for section, headers, cells in self._tables():
            lines.append("")
            lines.append(f"[{section.title}]")
            if not headers:
                lines.extend(section.lines)
                continue
            widths = [max([_width(h)] + [_width(row[i]) for row in cells]) for i, h in enumerate(headers)]
            aligns = [c.align for c in section.columns]
            lines.append(_join(headers, widths, aligns).rstrip())
            lines.append("  ".join("-" * w for w in widths))
            lines.extend(_join(row, widths, aligns).rstrip() for row in cells)
            lines.extend(section.lines)
        lines.append("")
        lines.extend(self.summary)
        lines.append(self.card)
        return "\n".join(lines)

    def to_markdown(self) -> str:
        """The step tables as Markdown (pipe tables), e.g. for an answer key."""
        out = [f"*{_LEGEND}*", ""] if self.decimals is not None else []
        for section, headers, cells in self._tables():
            out.append(f"**{_md_escape(section.title)}**")
            out.append("")
            if not headers:
                out.extend(f"    {line}" for line in section.lines)
                out.append("")
                continue
            out.append("| " + " | ".join(_md_escape(h) for h in headers) + " |")
            out.append(
                "|" + "|".join("---:" if c.align == "right" else ":---" for c in section.columns) + "|"
            )
            out.extend("| " + " | ".join(_md_escape(cell) for cell in row) + " |" for row in cells)
            out.append("")
            out.extend(f"    {line}" for line in section.lines)
            if section.lines:
                out.append("")
        out.extend(f"- {_md_escape(line)}" for line in self.summary)
        out.append(f"- {_md_escape(self.card)}")
        return "\n".join(out) + "\n"

    def _repr_html_(self) -> str:
        parts = [f'<div class="rankmetrics-explain"><p><strong>{html.escape(self.label)} 단계표</strong></p>']
        if self.decimals is not None:
            parts.append(f"<p><em>{html.escape(_LEGEND)}</em></p>")
        for section, headers, cells in self._tables():
            if not headers:
                parts.append(f"<p>{html.escape(section.title)}</p>")
                parts.append("<pre>" + html.escape("\n".join(section.lines)) + "</pre>")
                continue
            parts.append(
                f'<table><caption style="text-align:left">{html.escape(section.title)}</caption><thead><tr>'
            )
            parts.extend(f'<th style="padding:0 .6em">{html.escape(h)}</th>' for h in headers)
            parts.append("</tr></thead><tbody>")
            for row in cells:
                parts.append("<tr>")
                for column, cell in zip(section.columns, row):
                    parts.append(
                        f'<td style="text-align:{column.align};padding:0 .6em">{html.escape(cell)}</td>'
                    )
                parts.append("</tr>")
            parts.append("</tbody></table>")
            if section.lines:
                parts.append("<pre>" + html.escape("\n".join(section.lines)) + "</pre>")
        parts.extend(f"<p>{html.escape(line)}</p>" for line in self.summary)
        parts.append(f"<p><small>{html.escape(self.card)}</small></p></div>")
        return "".join(parts)


def _width(text: str) -> int:
    """Columns a string takes in a terminal: Hangul and other wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _join(cells: Sequence[str], widths: Sequence[int], aligns: Sequence[str]) -> str:
    out = []
    for cell, width, align in zip(cells, widths, aligns):
        pad = " " * (width - _width(cell))
        out.append(pad + cell if align == "right" else cell + pad)
    return "  ".join(out)


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def _card(conventions: dict[str, str]) -> str:
    return "규칙 │ " + " │ ".join(f"{word}: {conventions[key]}" for key, word in _CARD_FIELDS)


# ---------------------------------------------------------------------------
# the public entry point


def explain(
    metric: str,
    x: Any,
    k: int | None = None,
    *,
    decimals: int | None = None,
    discount_decimals: int | None = None,
    **kwargs: Any,
) -> Explanation:
    """Show how a metric's value is computed, row by row, as in a hand calculation.

    Parameters
    ----------
    metric : str
        A public metric name: ``"ndcg"``, ``"dcg"``, ``"precision"``, ``"recall"``,
        ``"f1"``, ``"hit_rate"``, ``"r_precision"``, ``"reciprocal_rank"``, ``"mean_rank"``,
        ``"average_precision"``, ``"mean_reciprocal_rank"``, ``"mean_average_precision"``,
        ``"mse"``, ``"mae"`` or ``"rmse"``.
    x : grades in ranked order, or item ids (then pass ``relevant``)
        One query. For MRR/MAP a list of queries; for MSE/MAE/RMSE ``y_true``.
    k : positive int or None
        Cutoff, as in the metric.
    decimals : int from 0 to 15, optional
        Student rounding: every intermediate (gain, each term, each sum, each
        precision, the final ratio) is rounded half up to this many decimals, and
        the result is shown next to the exact one. 0 rounds to whole numbers.
    discount_decimals : int from 0 to 15, optional
        Decimals of the discount table log2(rank + 1) in student rounding;
        defaults to ``decimals``. The RAG article uses a one-decimal table
        (1, 1.6, 2, 2.3, 2.6) with two-decimal arithmetic: ``decimals=2,
        discount_decimals=1``.
    **kwargs
        The metric's own keywords: ``relevant``, ``n_relevant``, ``ideal``, ``gain``
        (``y_pred`` for MSE/MAE/RMSE).

    Returns
    -------
    Explanation
        ``.rows``, ``.value`` (equal to the metric's own result), ``.rounded``,
        ``.card``; prints as an aligned text table and shows as HTML in Jupyter.

    Raises
    ------
    ValueError
        For bad input, with the metric's own message; also for a batch (explain
        shows one query), for a keyword the metric does not take, and when a
        step of the table lies beyond the float range (about 1.8e308) although
        the metric's value does not (nDCG of grade 1100 with exponential gain,
        RMSE of an error of 1e200): call the metric itself then.

    See Also
    --------
    make_worksheet : problems with an answer key built from these tables.

    Examples
    --------
    >>> e = explain("ndcg", [1, 0, 1, 0, 1], decimals=2, discount_decimals=1)
    >>> round(e.value, 4), e.rounded   # exact vs the RAG article's 1.88 / 2.13
    (0.8855, 0.88)
    >>> [row["discount_rounded"] for row in e.rows]
    [1.0, 1.6, 2.0, 2.3, 2.6]
    >>> e = explain("precision", list("ABCDE"), k=5, relevant={"B", "D", "F", "G"})
    >>> [row["mark"] for row in e.rows], e.value
    (['X', 'O', 'X', 'O', 'X'], 0.4)
    >>> explain("reciprocal_rank", list("XYZW"), relevant={"Z"}).steps
    ['RR = 1 ÷ 3 = 0.3333']
    """
    metric = v.check_choice(metric, "metric", METRICS)
    k = v.check_k(k)
    decimals = None if decimals is None else v.check_decimals(decimals, "decimals")
    discount_decimals = (
        None if discount_decimals is None else v.check_decimals(discount_decimals, "discount_decimals")
    )
    if discount_decimals is not None and decimals is None:
        raise ValueError(
            f"discount_decimals only applies with decimals (student rounding); got "
            f"discount_decimals={discount_decimals} and decimals=None"
        )
    if decimals is not None and discount_decimals is None:
        discount_decimals = decimals
    _check_keywords(metric, kwargs)
    if metric in _RATING_METRICS:
        if k is not None:
            raise ValueError(f"k does not apply to {metric} (it compares every rating); got k={k}")
        return _explain_rating(metric, x, decimals=decimals, **kwargs)
    if metric == "r_precision" and k is not None:
        raise ValueError(
            f"k does not apply to r_precision (its cutoff is R, the number of relevant items); got k={k}"
        )
    if metric in _MEAN_METRICS:
        return _explain_mean(metric, x, k, decimals, discount_decimals, kwargs)
    queries = prepare(
        x, relevant=kwargs.get("relevant"), n_relevant=kwargs.get("n_relevant"), ideal=kwargs.get("ideal")
    )
    if not queries.single:
        raise ValueError(
            f"explain shows one query at a time; x has {queries.grades.shape[0]} rows. "
            "Pass one row, or use mean_reciprocal_rank / mean_average_precision for several queries."
        )
    items = list(x) if kwargs.get("relevant") is not None else None
    if metric in ("dcg", "ndcg"):
        gain = v.check_gain(kwargs.get("gain", "linear"), GAINS)
        return _explain_dcg(metric, x, queries, items, k, gain, decimals, discount_decimals, kwargs)
    return _explain_hits(metric, x, queries, items, k, decimals, kwargs)


def _check_keywords(metric: str, kwargs: dict[str, Any]) -> None:
    function = _FUNCTIONS[metric]
    if metric in _RATING_METRICS:
        allowed = ["y_pred"]
    else:
        allowed = [
            name
            for name, p in inspect.signature(function).parameters.items()
            if p.kind is inspect.Parameter.KEYWORD_ONLY
        ]
    for name in kwargs:
        if name not in allowed:
            raise ValueError(
                f"{metric} has no keyword {name!r}; its keywords are {', '.join(allowed) or 'none'}"
            )


def _verify(label: str, stepwise: float, official: float) -> float:
    """The table's own total must equal the metric function's value; the metric's value is returned."""
    same = (math.isnan(stepwise) and math.isnan(official)) or math.isclose(
        stepwise, official, rel_tol=1e-12, abs_tol=1e-12
    )
    if not same:
        raise AssertionError(f"step table for {label} sums to {stepwise!r} but the metric gives {official!r}")
    return official


def _cutoff_words(k: int | None, n: int) -> str:
    return f"k = {k}" if k is not None else f"{_NONE} (목록 전체 {n}개)"


def _first_difference(sections: list[Section]) -> str | None:
    """The first hand-rounded cell that differs from the exact value rounded the same way."""
    for section in sections:
        for row in section.rows:
            for column in section.columns:
                hand = row.get(column.key + "_rounded")
                exact = row.get(column.key)
                if hand is None or column.places is None or exact is None:
                    continue
                if _round(hand, column.places) != _round(exact, column.places):
                    where = f"{row['rank']}위의 " if "rank" in row else ""
                    return (
                        f"처음 갈라지는 곳: [{section.title}] {where}{column.header} — 손 계산 "
                        f"{_hand(hand, column.places)}, 정확한 값 {_exact(exact)} "
                        f"(소수 {column.places}자리로 반올림하면 {_hand(exact, column.places)})"
                    )
    return None


def _result_lines(
    label: str, value: float, hand: Decimal | None, decimals: int | None, sections, discount_decimals=None
) -> tuple:
    """Summary lines for rounding mode, the rounded float and the difference note."""
    if hand is None:
        return [], None, None
    rounded = float(_round(hand, decimals))
    how = f"소수 {decimals}자리"
    if discount_decimals is not None and discount_decimals != decimals:
        how += f", 할인표 소수 {discount_decimals}자리"
    lines = [
        (
            f"손 계산 ({how}): {label} = {_hand(hand, decimals)}  ·  정확한 값: {_exact(value)} "
            f"(소수 {decimals}자리로 반올림하면 {_hand(value, decimals)})"
        )
    ]
    note = _first_difference(sections)
    if note is None and _round(hand, decimals) != _round(value, decimals):
        note = "처음 갈라지는 곳: 마지막 반올림 — 단계마다 반올림한 오차가 쌓였습니다"
    lines.append(note or f"손 계산이 모든 단계에서 정확한 값(소수 {decimals}자리 반올림)과 같습니다")
    return lines, rounded, note


def _finish(
    metric, label, value, hand, rows, conventions, sections, decimals, discount_decimals=None, **extra
):
    """Assemble the Explanation: summary lines, rounded result and difference note, card."""
    summary, rounded, difference = _result_lines(label, value, hand, decimals, sections, discount_decimals)
    return Explanation(
        metric=metric,
        label=label,
        value=value,
        rounded=rounded,
        rows=rows,
        card=_card(conventions),
        conventions=conventions,
        sections=sections,
        summary=summary,
        decimals=decimals,
        discount_decimals=discount_decimals,
        difference=difference,
        **extra,
    )


# ---------------------------------------------------------------------------
# DCG and nDCG


def _beyond_float_range(name: str, steps: str) -> ValueError:
    return ValueError(
        f"{name}: the step table would hold numbers beyond the float range (about 1.8e308): {steps}. "
        "The metric itself computes with scaled values; call it directly for the result."
    )


def _dcg_table(grades: np.ndarray, items: list | None, gain: str, decimals, discount_decimals):
    """Rows rank, item, grade, gain, discount, term, running sum (exact and hand-rounded)."""
    with np.errstate(over="ignore"):
        gains = gain_values(grades, gain)
        discount = discounts(grades.size)
        terms = gains / discount
        running = np.cumsum(terms)
    if running.size and not np.isfinite(running[-1]):  # the sums only grow: the last is the largest
        raise _beyond_float_range("x", f"a gain or running sum of gain ÷ discount under gain={gain!r}")
    rows = []
    hand_sum = Decimal(0)
    for i in range(grades.size):
        row: dict[str, Any] = {"rank": i + 1}
        if items is not None:
            row["item"] = items[i] if i < len(items) and items[i] is not None else "—"
        row.update(
            grade=float(grades[i]),
            gain=float(gains[i]),
            discount=float(discount[i]),
            term=float(terms[i]),
            running_sum=float(running[i]),
        )
        if decimals is not None:
            hand_gain = _round(gains[i], decimals)
            hand_discount = _round(discount[i], discount_decimals)
            hand_term = _round(hand_gain / hand_discount, decimals)
            hand_sum += hand_term
            row.update(
                gain_rounded=float(hand_gain),
                discount_rounded=float(hand_discount),
                term_rounded=float(hand_term),
                running_sum_rounded=float(hand_sum),
            )
        rows.append(row)
    total = float(running[-1]) if rows else 0.0
    return rows, total, (hand_sum if decimals is not None else None)


def _dcg_columns(has_items: bool, gain: str, decimals, discount_decimals) -> list[Column]:
    gain_header = {"linear": "이득(=등급)", "exponential": "이득 2^등급−1", "binary": "이득(관련=1)"}[gain]
    columns = [Column("rank", "순위")]
    if has_items:
        columns.append(Column("item", "항목", align="left"))
    columns += [
        Column("grade", "등급"),
        Column("gain", gain_header, decimals),
        Column("discount", "할인 log2(순위+1)", discount_decimals),
        Column("term", "이득÷할인", decimals),
        Column("running_sum", "누적 합", decimals),
    ]
    return columns


def _dcg_lines(name: str, rows: list[dict], total: float, hand: Decimal | None, decimals, discount_decimals):
    if not rows:
        return [f"{name} = 0"]
    fractions = " + ".join(f"{_exact(r['gain'])}/{_exact(r['discount'])}" for r in rows)
    terms = " + ".join(_exact(r["term"]) for r in rows)
    lines = [f"{name} = {fractions}", f"{' ' * len(name)} = {terms} = {_exact(total)}"]
    if hand is not None:
        fractions = " + ".join(
            f"{_hand(r['gain_rounded'], decimals)}/{_hand(r['discount_rounded'], discount_decimals)}"
            for r in rows
        )
        terms = " + ".join(_hand(r["term_rounded"], decimals) for r in rows)
        lines += [
            f"손 계산: {name} = {fractions}",
            f"{' ' * (len(name) + 5)} = {terms} = {_hand(hand, decimals)}",
        ]
    return lines


def _ideal_items(x: Any, relevant: Any) -> list:
    """Judged items from best to worst grade; ties keep ranking order, then the judgements' order.

    Unlisted items given as a set are taken in sorted order, so the table does not
    depend on Python's set iteration order.
    """
    judged = v.check_relevant(relevant)
    listed = set(x)
    unlisted = [item for item in judged if item not in listed]
    if not isinstance(relevant, Mapping):
        unlisted.sort(key=repr)
    order = [item for item in x if item in judged] + unlisted
    # The same stable sort as the grades below, so every item stays beside its grade.
    return sorted(order, key=lambda item: -max(judged[item], 0.0))


def _explain_dcg(metric, x, queries, items, k, gain, decimals, discount_decimals, kwargs) -> Explanation:
    grades = queries.grades
    top, depth = cutoff(grades, k)
    n = grades.shape[1]
    suffix = f"@{k}" if k is not None else ""
    rows, total, hand_dcg = _dcg_table(top[0], items, gain, decimals, discount_decimals)
    columns = _dcg_columns(items is not None, gain, decimals, discount_decimals)
    dcg_name = f"DCG{suffix}"
    sections = [
        Section(
            "내 순위",
            columns,
            rows,
            _dcg_lines(dcg_name, rows, total, hand_dcg, decimals, discount_decimals),
        )
    ]
    official_dcg = dcg(top[0], gain=gain)
    _verify(dcg_name, total, official_dcg)
    conventions = {
        "gain": _GAIN_WORDS[gain],
        "discount": "log2(순위 + 1)",
        "ideal": _NONE,
        "denominator": f"{_NONE} (정규화하지 않음)",
        "cutoff": _cutoff_words(k, n),
    }
    if metric == "dcg":
        value = _verify(dcg_name, total, dcg(x, k, **kwargs))
        return _finish(
            metric, dcg_name, value, hand_dcg, rows, conventions, sections, decimals, discount_decimals
        )

    # The ideal ordering: every judged grade, best first, cut at the same k (as ndcg does).
    judged = queries.ideal[0]
    ideal = -np.sort(-np.concatenate([judged, np.zeros(max(0, depth - judged.size))]))[:depth]
    shown = min(depth, max(top.shape[1], judged.size))
    ideal_items = None
    source = kwargs.get("ideal")
    if items is not None:
        if source == "listed":  # only the listed items, best first (as ndcg's ideal="listed")
            ranked = sorted(range(len(items)), key=lambda i: -grades[0, i])
            ideal_items = [items[i] for i in ranked][:shown]
        else:
            ideal_items = _ideal_items(items, kwargs["relevant"])[:shown]
        ideal_items += [None] * (shown - len(ideal_items))
    ideal_rows, ideal_total, hand_idcg = _dcg_table(
        ideal[:shown], ideal_items, gain, decimals, discount_decimals
    )
    idcg_name = f"IDCG{suffix}"
    sections.append(
        Section(
            "이상적 순서",
            _dcg_columns(items is not None, gain, decimals, discount_decimals),
            ideal_rows,
            _dcg_lines(idcg_name, ideal_rows, ideal_total, hand_idcg, decimals, discount_decimals),
        )
    )
    label = f"nDCG{suffix}"
    stepwise = total / ideal_total if ideal_total > 0 else 0.0
    value = _verify(label, stepwise, ndcg(x, k, **kwargs))
    ratio = [
        f"{label} = {dcg_name} ÷ {idcg_name} = {_exact(total)} ÷ {_exact(ideal_total)} = {_exact(value)}"
        if ideal_total > 0
        else f"{label} = 0 ({idcg_name}가 0이면 0으로 둡니다)"
    ]
    hand_ratio = None
    if decimals is not None:
        if hand_idcg > 0:
            hand_ratio = _round(hand_dcg / hand_idcg, decimals)
            ratio.append(
                f"손 계산: {label} = {_hand(hand_dcg, decimals)} ÷ {_hand(hand_idcg, decimals)}"
                f" = {_hand(hand_ratio, decimals)}"
            )
        else:
            hand_ratio = Decimal(0)
            ratio.append(f"손 계산: {label} = 0 ({idcg_name}가 0)")
    sections.append(Section("비율", [], [], ratio))
    if source == "listed":
        conventions["ideal"] = "목록 안의 등급 (ideal='listed')"
    elif kwargs.get("relevant") is not None:
        conventions["ideal"] = "판정된 모든 항목의 등급 (relevant)"
    elif source is not None and not isinstance(source, str):
        conventions["ideal"] = "ideal로 준 등급 전체"
    else:
        conventions["ideal"] = "목록 안의 등급 (ideal 미지정)"
    conventions["denominator"] = f"이상적 순서의 DCG ({idcg_name})"
    return _finish(
        metric,
        label,
        value,
        hand_ratio,
        rows,
        conventions,
        sections,
        decimals,
        discount_decimals,
        ideal_rows=ideal_rows,
    )


# ---------------------------------------------------------------------------
# hit-based metrics: precision, recall, F1, hit rate, RR, MR, AP

_HIT_LABELS = {
    "r_precision": "R-Prec",
    "precision": "P",
    "recall": "R",
    "f1": "F1",
    "hit_rate": "HR",
    "reciprocal_rank": "RR",
    "mean_rank": "MR",
    "average_precision": "AP",
}


def _explain_hits(metric, x, queries, items, k, decimals, kwargs) -> Explanation:
    grades = queries.grades
    n = grades.shape[1]
    if metric == "r_precision":  # the cutoff is R itself
        r_cut = int(queries.n_relevant[0])
        top, depth = cutoff(grades, r_cut) if r_cut > 0 else (grades[:, :0], 0)
    else:
        top, depth = cutoff(grades, k)
    hits = is_relevant(top)[0]
    count = np.cumsum(hits)
    ranks = np.arange(1, hits.size + 1)
    rows = []
    for i in range(hits.size):
        row: dict[str, Any] = {"rank": int(ranks[i])}
        if items is not None:
            row["item"] = items[i]
        row.update(
            grade=float(top[0, i]), hit=bool(hits[i]), mark="O" if hits[i] else "X", hits=int(count[i])
        )
        row["precision"] = float(count[i] / ranks[i]) if hits[i] else None
        if decimals is not None and hits[i]:
            row["precision_rounded"] = float(
                _round(Decimal(int(count[i])) / Decimal(int(ranks[i])), decimals)
            )
        rows.append(row)
    columns = [Column("rank", "순위")]
    if items is not None:
        columns.append(Column("item", "항목", align="left"))
    columns += [
        Column("grade", "등급"),
        Column("mark", "정답", align="left"),
        Column("hits", "누적 정답 수"),
        Column("precision", "정답 위치의 정밀도", decimals),
    ]

    found = int(count[-1]) if hits.size else 0
    total_relevant = float(queries.n_relevant[0])
    # Precision and recall use the full cutoff (k, even past the list's end); RR, MR, AP show a suffix only with k.
    at = (
        f"@{depth}"
        if metric in ("precision", "recall", "f1", "hit_rate")
        else (f"@{k}" if k is not None else "")
    )
    label = _HIT_LABELS[metric] + at
    official = (
        _FUNCTIONS[metric](x, **kwargs) if metric == "r_precision" else _FUNCTIONS[metric](x, k, **kwargs)
    )
    hit_ranks = [int(r) for r in ranks[hits]]
    lines: list[str] = []
    hand: Decimal | None = None
    d = decimals
    R = _exact(total_relevant)
    conventions = {
        "gain": _RELEVANT_WORDS,
        "discount": _NONE,
        "ideal": _NONE,
        "denominator": "",
        "cutoff": _cutoff_words(k, n),
    }
    relevant_source = (
        "판정된 모든 관련 항목 (relevant)"
        if kwargs.get("relevant") is not None
        else "n_relevant로 준 수"
        if kwargs.get("n_relevant") is not None
        else "목록 안의 관련 등급 수"
    )

    if metric == "r_precision":
        stepwise = found / depth if depth > 0 else 0.0
        lines.append(
            f"{label} = 상위 R개 중 정답 수 ÷ R = {found} ÷ {depth} = {_exact(stepwise)}"
            if depth > 0
            else f"{label} = 0 (관련 항목이 없음: R = 0)"
        )
        conventions["denominator"] = f"전체 관련 수 R = {R}: {relevant_source}"
        conventions["cutoff"] = f"R = {R} (질의마다 전체 관련 수)"
        if d is not None:
            hand = _round(Decimal(found) / Decimal(depth), d) if depth > 0 else Decimal(0)
    elif metric == "precision":
        stepwise = found / depth
        lines.append(f"{label} = 정답 수 ÷ k = {found} ÷ {depth} = {_exact(stepwise)}")
        conventions["denominator"] = f"k = {depth} (목록이 k보다 짧아도 k)"
        if d is not None:
            hand = _round(Decimal(found) / Decimal(depth), d)
    elif metric == "recall":
        stepwise = found / total_relevant if total_relevant > 0 else 0.0
        lines.append(f"{label} = 정답 수 ÷ 전체 관련 수 = {found} ÷ {R} = {_exact(stepwise)}")
        conventions["denominator"] = f"전체 관련 수 R = {R}: {relevant_source}"
        if d is not None:
            hand = (
                _round(Decimal(found) / Decimal(int(total_relevant)), d) if total_relevant > 0 else Decimal(0)
            )
    elif metric == "f1":
        p = found / depth
        r = found / total_relevant if total_relevant > 0 else 0.0
        stepwise = 2 * p * r / (p + r) if p + r > 0 else 0.0
        lines += [
            f"P{at} = {found} ÷ {depth} = {_exact(p)},  R{at} = {found} ÷ {R} = {_exact(r)}",
            (
                f"{label} = 2 × P × R ÷ (P + R) = 2 × {_exact(p)} × {_exact(r)} ÷ ({_exact(p)} + {_exact(r)})"
                f" = {_exact(stepwise)}"
            ),
        ]
        conventions["denominator"] = f"P는 k = {depth}, R은 전체 관련 수 R = {R}: {relevant_source}"
        if d is not None:
            hp = _round(Decimal(found) / Decimal(depth), d)
            hr = (
                _round(Decimal(found) / Decimal(int(total_relevant)), d) if total_relevant > 0 else Decimal(0)
            )
            hand = _round(2 * hp * hr / (hp + hr), d) if hp + hr > 0 else Decimal(0)
            lines.append(
                f"손 계산: P = {_hand(hp, d)}, R = {_hand(hr, d)}, {label} = 2 × {_hand(hp, d)} × {_hand(hr, d)}"
                f" ÷ ({_hand(hp, d)} + {_hand(hr, d)}) = {_hand(hand, d)}"
            )
    elif metric == "hit_rate":
        stepwise = 1.0 if found > 0 else 0.0
        lines.append(
            f"{label} = {'1 (상위 k 안에 정답 ' + str(found) + '개)' if found else '0 (상위 k 안에 정답 없음)'}"
        )
        conventions["denominator"] = f"{_NONE} (0 또는 1)"
        if d is not None:
            hand = Decimal(int(stepwise))
    elif metric == "reciprocal_rank":
        if hit_ranks:
            stepwise = 1.0 / hit_ranks[0]
            lines.append(f"{label} = 1 ÷ {hit_ranks[0]} = {_exact(stepwise)}")
        else:
            stepwise = 0.0
            lines.append(f"{label} = 0 (정답이 없음)")
        conventions["denominator"] = "첫 정답의 순위"
        if d is not None:
            hand = _round(Decimal(1) / Decimal(hit_ranks[0]), d) if hit_ranks else Decimal(0)
    elif metric == "mean_rank":
        if hit_ranks:
            stepwise = sum(hit_ranks) / len(hit_ranks)
            lines.append(
                f"{label} = ({' + '.join(map(str, hit_ranks))}) ÷ {len(hit_ranks)} = {_exact(stepwise)}"
            )
        else:
            stepwise = math.nan
            lines.append(f"{label} = nan (정답이 없으면 평균 순위를 정할 수 없음)")
        conventions["denominator"] = "목록에 든 정답 수 (목록 밖 정답은 순위가 없어 빠짐)"
        if d is not None and hit_ranks:
            hand = _round(Decimal(sum(hit_ranks)) / Decimal(len(hit_ranks)), d)
    else:  # average_precision
        precisions = [row["precision"] for row in rows if row["hit"]]
        total = float(sum(precisions))
        rule = kwargs.get("denominator", "all_relevant")
        divisor = float(
            ap_denominator(
                queries.n_relevant if rule != "retrieved_relevant" else None,
                np.array([float(found)]),
                depth,
                rule,
            )[0]
        )
        stepwise = total / divisor if divisor > 0 else 0.0
        D = _exact(divisor)
        terms = " + ".join(_exact(p) for p in precisions) or "0"
        lines.append(f"{label} = ({terms}) ÷ {D} = {_exact(total)} ÷ {D} = {_exact(stepwise)}")
        conventions["denominator"] = {
            "all_relevant": f"전체 관련 수 R = {R}: {relevant_source}",
            "min_k_relevant": f"min(k, R) = min({depth}, {R}) = {D} (denominator='min_k_relevant')",
            "retrieved_relevant": f"상위 k 안에서 찾은 정답 수 {D} (denominator='retrieved_relevant')",
        }[rule]
        if d is not None:
            hand_terms = [Decimal(repr(row["precision_rounded"])) for row in rows if row["hit"]]
            hand_total = sum(hand_terms, Decimal(0))
            hand = _round(hand_total / Decimal(int(divisor)), d) if divisor > 0 else Decimal(0)
            joined = " + ".join(_hand(t, d) for t in hand_terms) or "0"
            lines.append(
                f"손 계산: {label} = ({joined}) ÷ {D} = {_hand(hand_total, d)} ÷ {D} = {_hand(hand, d)}"
            )
    if hand is not None and metric in ("r_precision", "precision", "recall", "reciprocal_rank", "mean_rank"):
        lines.append(f"손 계산: {label} = {_hand(hand, d)}")

    value = _verify(label, stepwise, official)
    sections = [Section("순위별 정답", columns, rows, lines)]
    return _finish(metric, label, value, hand, rows, conventions, sections, decimals)


# ---------------------------------------------------------------------------
# several queries: MRR and MAP


def _explain_mean(metric, queries_in, k, decimals, discount_decimals, kwargs) -> Explanation:
    single = _MEAN_METRICS[metric]
    official = _FUNCTIONS[metric](queries_in, k, **kwargs)  # validates the list of queries
    queries_list = list(queries_in)
    parts = []
    for i, query in enumerate(queries_list):
        per_query = {
            name: (values[i] if name in _PER_QUERY else values)
            for name, values in kwargs.items()
            if values is not None
        }
        parts.append(explain(single, query, k, decimals=decimals, **per_query))
    label = ("MRR" if metric == "mean_reciprocal_rank" else "MAP") + (f"@{k}" if k is not None else "")
    inner = _HIT_LABELS[single]
    rows = []
    for i, part in enumerate(parts, start=1):
        row = {"query": i, "value": part.value}
        if decimals is not None:
            row["value_rounded"] = part.rounded
        rows.append(row)
    values = [part.value for part in parts]
    stepwise = float(np.mean(values))
    value = _verify(label, stepwise, official)
    n = len(parts)
    lines = [f"{label} = ({' + '.join(_exact(x) for x in values)}) ÷ {n} = {_exact(value)}"]
    hand = None
    if decimals is not None:
        hand_terms = [_round(part.rounded, decimals) for part in parts]
        hand_total = sum(hand_terms, Decimal(0))
        hand = _round(hand_total / n, decimals)
        lines.append(
            f"손 계산: {label} = ({' + '.join(_hand(t, decimals) for t in hand_terms)}) ÷ {n} "
            f"= {_hand(hand_total, decimals)} ÷ {n} = {_hand(hand, decimals)}"
        )
    columns = [Column("query", "질의"), Column("value", inner, decimals)]
    sections = []
    for i, part in enumerate(parts, start=1):
        for section in part.sections:
            sections.append(
                Section(f"질의 {i}: {section.title}", section.columns, section.rows, section.lines)
            )
    sections.append(Section("질의별 값과 평균", columns, rows, lines))
    conventions = dict(parts[0].conventions)
    each = "첫 정답의 순위" if single == "reciprocal_rank" else "전체 관련 수 R"
    conventions["denominator"] = f"질의 수 {n} (질의마다 {inner}의 분모는 {each})"
    conventions["cutoff"] = f"k = {k}" if k is not None else f"{_NONE} (질의마다 목록 전체)"
    return _finish(metric, label, value, hand, rows, conventions, sections, decimals, parts=parts)


# ---------------------------------------------------------------------------
# rating errors: MSE, MAE, RMSE


def _explain_rating(metric: str, y_true: Any, *, decimals: int | None, y_pred: Any = None) -> Explanation:
    if y_pred is None:
        raise ValueError(f"explain({metric!r}, y_true, y_pred=...) needs the predictions as y_pred=")
    truth, pred = v.check_ratings(y_true, y_pred)
    with np.errstate(over="ignore"):
        errors = pred - truth
        shown = errors**2 if metric in ("mse", "rmse") else np.abs(errors)
        if not np.isfinite(shown.sum()):
            raise _beyond_float_range("y_true, y_pred", f"an error, its square or their sum, under {metric}")
    key, header = ("squared", "오차²") if metric in ("mse", "rmse") else ("absolute", "|오차|")
    rows = []
    for i in range(truth.size):
        row = {"index": i + 1, "true": float(truth[i]), "pred": float(pred[i]), "error": float(errors[i])}
        row[key] = float(shown[i])
        if decimals is not None:
            row[key + "_rounded"] = float(_round(shown[i], decimals))
        rows.append(row)
    columns = [
        Column("index", "번호"),
        Column("true", "실제"),
        Column("pred", "예측"),
        Column("error", "오차(예측−실제)"),
        Column(key, header, decimals),
    ]
    n = truth.size
    total = float(shown.sum())
    mean = total / n
    name = "MSE" if metric in ("mse", "rmse") else "MAE"
    lines = [
        f"{name} = ({' + '.join(_exact(r[key]) for r in rows)}) ÷ {n} = {_exact(total)} ÷ {n} = {_exact(mean)}"
    ]
    stepwise = math.sqrt(mean) if metric == "rmse" else mean
    if metric == "rmse":
        lines.append(f"RMSE = √{_exact(mean)} = {_exact(stepwise)}")
    hand = None
    if decimals is not None:
        hand_total = sum((_round(r[key + "_rounded"], decimals) for r in rows), Decimal(0))
        hand = _round(hand_total / n, decimals)
        lines.append(f"손 계산: {name} = {_hand(hand_total, decimals)} ÷ {n} = {_hand(hand, decimals)}")
        if metric == "rmse":
            hand = _round(hand.sqrt(), decimals)
            lines.append(f"손 계산: RMSE = √{_hand(hand_total / n, decimals)} = {_hand(hand, decimals)}")
    label = metric.upper()
    value = _verify(label, stepwise, _FUNCTIONS[metric](truth, pred))
    conventions = {
        "gain": _NONE,
        "discount": _NONE,
        "ideal": _NONE,
        "denominator": f"항목 수 N = {n}",
        "cutoff": _NONE,
    }
    sections = [Section("항목별 오차", columns, rows, lines)]
    return _finish(metric, label, value, hand, rows, conventions, sections, decimals)
