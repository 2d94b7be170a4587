"""Step tables for MRR and MAP: each query's own table, then the mean over queries."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import numpy as np

from ...i18n import _
from ...registry import METRICS
from ..catalogue import symbol
from .steps import Column, Explanation, Section, exact_text, finish, hand_text, round_half_up, verify

_PER_QUERY = ("relevant", "n_relevant")  # keywords given once per query; the rest apply to every query


def explain_mean(metric, queries_in, k, decimals, kwargs, explain: Callable[..., Explanation]) -> Explanation:
    """MRR or MAP: one step table per query (drawn by ``explain``), then the mean of their values."""
    registered = METRICS[metric]
    single = registered.per_query
    official = registered.function(queries_in, k, **kwargs)  # validates the list of queries
    queries_list = list(queries_in)
    parts = []
    for i, query in enumerate(queries_list):
        per_query = {
            name: (values[i] if name in _PER_QUERY else values)
            for name, values in kwargs.items()
            if values is not None
        }
        parts.append(explain(single, query, k, decimals=decimals, **per_query))
    label = symbol(metric) + (f"@{k}" if k is not None else "")
    inner = symbol(single)
    rows = []
    for i, part in enumerate(parts, start=1):
        row = {"query": i, "value": part.value}
        if decimals is not None:
            row["value_rounded"] = part.rounded
        rows.append(row)
    values = [part.value for part in parts]
    stepwise = float(np.mean(values))
    value = verify(label, stepwise, official)
    n = len(parts)
    lines = [f"{label} = ({' + '.join(exact_text(x) for x in values)}) ÷ {n} = {exact_text(value)}"]
    hand = None
    if decimals is not None:
        hand_terms = [round_half_up(part.rounded, decimals) for part in parts]
        hand_total = sum(hand_terms, Decimal(0))
        hand = round_half_up(hand_total / n, decimals)
        steps = (
            f"{label} = ({' + '.join(hand_text(t, decimals) for t in hand_terms)}) ÷ {n} "
            f"= {hand_text(hand_total, decimals)} ÷ {n} = {hand_text(hand, decimals)}"
        )
        lines.append(_("by hand: {steps}").format(steps=steps))
    columns = [Column("query", _("query")), Column("value", inner, decimals)]
    sections = []
    for i, part in enumerate(parts, start=1):
        for section in part.sections:
            sections.append(
                Section(
                    _("query {number}: {title}").format(number=i, title=section.title),
                    section.columns,
                    section.rows,
                    section.lines,
                )
            )
    sections.append(Section(_("values by query and their mean"), columns, rows, lines))
    conventions = dict(parts[0].conventions)
    each = _("the rank of the first relevant item") if single == "reciprocal_rank" else _("all relevant R")
    conventions["denominator"] = _("{n} queries (in each, the denominator of {inner} is {each})").format(
        n=n, inner=inner, each=each
    )
    conventions["cutoff"] = f"k = {k}" if k is not None else _("none (each query's whole list)")
    return finish(metric, label, value, hand, rows, conventions, sections, decimals, parts=parts)
