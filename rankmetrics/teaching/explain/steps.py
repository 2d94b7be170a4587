"""The shared parts of every step table: the Explanation, its rendering, numbers as a person writes them.

The step formulas in the family modules (``dcg_steps``, ``hit_steps``,
``mean_steps``, ``rating_steps``) restate each metric by hand, the way a
learner computes it, row by row. That is a second computation on purpose:
:func:`verify` checks every table's total against the public metric function,
so a step table can never drift from the number the package reports.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import numpy as np

from ...i18n import N_, _, language, use_language
from ...tables import html_table, text_table
from ..numbers import exact_text, hand_text, round_half_up

# The convention card uses these words and this order for every metric.
_CARD_FIELDS = (
    ("gain", N_("gain")),
    ("discount", N_("discount")),
    ("ideal", N_("ideal ordering")),
    ("denominator", N_("denominator")),
    ("cutoff", N_("cutoff")),
)
_GAIN_WORDS = {
    "linear": N_("the grade itself (linear)"),
    "exponential": N_("2^grade − 1 (exponential)"),
    "binary": N_("1 if relevant (binary)"),
}
_LEGEND = N_(
    "Cells hold the hand calculation (rounded); where the exact value reads differently, "
    "it follows in parentheses."
)


def none_words() -> str:
    """The card's word for a convention that does not apply."""
    return _("none")


def gain_words(gain: str) -> str:
    return _(_GAIN_WORDS[gain])


def relevant_words() -> str:
    """The card's gain of the hit-based metrics."""
    return _("1 if relevant, else 0 (a grade > 0 is relevant)")


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
    language : str
        The language it was made in (:func:`rankmetrics.language` at the time); it
        renders in that language too.

    ``str(e)`` is an aligned text table for a terminal, ``e._repr_html_()`` an
    HTML table for Jupyter, ``e.to_markdown()`` pipe tables for a document. A
    notebook cell that ends with ``e`` carries both of the first two: a web page
    shows the HTML tables, and what cannot show HTML (a printed book, IPython in a
    terminal) shows the text tables, not the one-line ``repr``.
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
    language: str = field(default_factory=language)

    @property
    def steps(self) -> list[str]:
        """The formula lines with the numbers filled in, in order (exact, then by hand)."""
        return [line for section in self.sections for line in section.lines]

    # -- rendering ---------------------------------------------------------
    def __repr__(self) -> str:
        with use_language(self.language):
            return self._repr()

    def _repr(self) -> str:
        hand = (
            ""
            if self.rounded is None
            else _(", by hand {value}").format(value=hand_text(self.rounded, self.decimals))
        )
        return f"<Explanation {self.label} = {exact_text(self.value)}{hand}>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        # IPython's text/plain form of a displayed object. The LaTeX builder of the book
        # (myst-nb) prints that form, so it is the text tables, as print(e) shows them.
        printer.text(str(self))

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
            return exact_text(value)
        text = hand_text(rounded, column.places)
        exact = exact_text(value)
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
        with use_language(self.language):
            return self._text()

    def _text(self) -> str:
        lines = [_("{label} step table").format(label=self.label)]
        if self.decimals is not None:
            lines.append(_(_LEGEND))
        for section, headers, cells in self._tables():
            lines.append("")
            lines.append(f"[{section.title}]")
            if not headers:
                lines.extend(section.lines)
                continue
            aligns = [c.align for c in section.columns]
            lines.append(text_table(headers, cells, aligns))
            lines.extend(section.lines)
        lines.append("")
        lines.extend(self.summary)
        lines.append(self.card)
        return "\n".join(lines)

    def to_markdown(self) -> str:
        """The step tables as Markdown (pipe tables), e.g. for an answer key."""
        with use_language(self.language):
            return self._markdown()

    def _markdown(self) -> str:
        out = [f"*{_(_LEGEND)}*", ""] if self.decimals is not None else []
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
        with use_language(self.language):
            return self._html()

    def _html(self) -> str:
        title = _("{label} step table").format(label=self.label)
        parts = [f'<div class="rankmetrics-explain"><p><strong>{html.escape(title)}</strong></p>']
        if self.decimals is not None:
            parts.append(f"<p><em>{html.escape(_(_LEGEND))}</em></p>")
        for section, headers, cells in self._tables():
            if not headers:
                parts.append(f"<p>{html.escape(section.title)}</p>")
                parts.append("<pre>" + html.escape("\n".join(section.lines)) + "</pre>")
                continue
            aligns = [c.align for c in section.columns]
            parts.append(html_table(headers, cells, aligns, caption=section.title))
            if section.lines:
                parts.append("<pre>" + html.escape("\n".join(section.lines)) + "</pre>")
        parts.extend(f"<p>{html.escape(line)}</p>" for line in self.summary)
        parts.append(f"<p><small>{html.escape(self.card)}</small></p></div>")
        return "".join(parts)


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def _card(conventions: dict[str, str]) -> str:
    return _("rules") + " │ " + " │ ".join(f"{_(word)}: {conventions[key]}" for key, word in _CARD_FIELDS)


def verify(label: str, stepwise: float, official: float) -> float:
    """The table's own total must equal the metric function's value; the metric's value is returned."""
    same = (math.isnan(stepwise) and math.isnan(official)) or math.isclose(
        stepwise, official, rel_tol=1e-12, abs_tol=1e-12
    )
    if not same:
        raise AssertionError(
            _("step table for {label} sums to {stepwise!r} but the metric gives {official!r}").format(
                label=label, stepwise=stepwise, official=official
            )
        )
    return official


def cutoff_words(k: int | None, n: int) -> str:
    return f"k = {k}" if k is not None else _("none (the whole list of {n})").format(n=n)


def _first_difference(sections: list[Section]) -> str | None:
    """The first hand-rounded cell that differs from the exact value rounded the same way."""
    for section in sections:
        for row in section.rows:
            for column in section.columns:
                hand = row.get(column.key + "_rounded")
                exact = row.get(column.key)
                if hand is None or column.places is None or exact is None:
                    continue
                if round_half_up(hand, column.places) != round_half_up(exact, column.places):
                    cell = (
                        _("{column} at rank {rank}").format(column=column.header, rank=row["rank"])
                        if "rank" in row
                        else column.header
                    )
                    return _(
                        "first parting: [{table}] {cell} — by hand {hand}, exact {exact} "
                        "(rounded to {places} decimals: {rounded})"
                    ).format(
                        table=section.title,
                        cell=cell,
                        hand=hand_text(hand, column.places),
                        exact=exact_text(exact),
                        places=column.places,
                        rounded=hand_text(exact, column.places),
                    )
    return None


def _result_lines(
    label: str, value: float, hand: Decimal | None, decimals: int | None, sections, discount_decimals=None
) -> tuple:
    """Summary lines for rounding mode, the rounded float and the difference note."""
    if hand is None:
        return [], None, None
    rounded = float(round_half_up(hand, decimals))
    how = _("{places} decimals").format(places=decimals)
    if discount_decimals is not None and discount_decimals != decimals:
        how = _("{places} decimals, discount table {discount_places} decimals").format(
            places=decimals, discount_places=discount_decimals
        )
    lines = [
        _(
            "by hand ({how}): {label} = {hand}  ·  exact: {exact} (rounded to {places} decimals: {rounded})"
        ).format(
            how=how,
            label=label,
            hand=hand_text(hand, decimals),
            exact=exact_text(value),
            places=decimals,
            rounded=hand_text(value, decimals),
        )
    ]
    note = _first_difference(sections)
    if note is None and round_half_up(hand, decimals) != round_half_up(value, decimals):
        note = _("first parting: the last rounding — the rounding of every step added up")
    lines.append(
        note
        or _(
            "the hand calculation equals the exact value (rounded to {places} decimals) at every step"
        ).format(places=decimals)
    )
    return lines, rounded, note


def finish(
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


def beyond_float_range(name: str, steps: str) -> ValueError:
    return ValueError(
        _(
            "{name}: the step table would hold numbers beyond the float range (about 1.8e308): {steps}. "
            "The metric itself computes with scaled values; call it directly for the result."
        ).format(name=name, steps=steps)
    )
