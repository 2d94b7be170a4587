"""Step tables for the hit-based metrics: one O/X table, then one small formula per metric.

The table (rank, grade, O/X, running count of hits, precision at each hit) is
the same for precision, recall, F1, hit rate, R-precision, RR, MR and AP; what
differs is the last step, which each metric's registration names (``steps=``,
written in :mod:`rankmetrics.teaching.hit_formulas` for the package's own).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import numpy as np

from ...i18n import _
from ...metrics.conventions import cutoff, is_relevant
from ...registry import METRICS
from ..catalogue import entry
from ..hit_formulas import Hits
from .steps import (
    Column,
    Explanation,
    Section,
    cutoff_words,
    finish,
    none_words,
    relevant_words,
    round_half_up,
    verify,
)


def explain_hits(metric, x, queries, items, k, decimals, kwargs) -> Explanation:
    registered = METRICS[metric]
    taught = entry(metric)
    grades = queries.grades
    n = grades.shape[1]
    if registered.cutoff == "none":  # R-precision: the cutoff is R itself
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
        if taught.precision_at_hits:
            row["precision"] = float(count[i] / ranks[i]) if hits[i] else None
            if decimals is not None and hits[i]:
                row["precision_rounded"] = float(
                    round_half_up(Decimal(int(count[i])) / Decimal(int(ranks[i])), decimals)
                )
        rows.append(row)
    columns = [Column("rank", _("rank"))]
    if items is not None:
        columns.append(Column("item", _("item"), align="left"))
    columns += [
        Column("grade", _("grade")),
        Column("mark", _("relevant"), align="left"),
        Column("hits", _("hits so far")),
    ]
    if taught.precision_at_hits:  # AP and MAP only: the column the others would teach by accident
        columns.append(Column("precision", _("precision at a relevant rank"), decimals))
    # Precision-like metrics use the full cutoff (k, even past the list's end); RR, MR, AP
    # show a suffix only when k is given.
    at = f"@{depth}" if registered.cutoff == "required" else (f"@{k}" if k is not None else "")
    h = Hits(
        label=taught.symbol + at,
        at=at,
        found=int(count[-1]) if hits.size else 0,
        depth=depth,
        total_relevant=float(queries.n_relevant[0]),
        hit_ranks=[int(r) for r in ranks[hits]],
        rows=rows,
        decimals=decimals,
        relevant_source=(
            _("every judged relevant item (relevant)")
            if kwargs.get("relevant") is not None
            else _("the number given as n_relevant")
            if kwargs.get("n_relevant") is not None
            else _("the relevant grades in the list")
        ),
        denominator_rule=kwargs.get("denominator", "all_relevant"),
        n_relevant=queries.n_relevant,
        conventions={
            "gain": relevant_words(),
            "discount": none_words(),
            "ideal": none_words(),
            "denominator": "",
            "cutoff": cutoff_words(k, n),
        },
    )
    stepwise, hand = taught.steps(h)
    official = (
        registered.function(x, **kwargs)
        if registered.cutoff == "none"
        else registered.function(x, k, **kwargs)
    )
    value = verify(h.label, stepwise, official)
    sections = [Section(_("relevant items by rank"), columns, rows, h.lines)]
    return finish(metric, h.label, value, hand, rows, h.conventions, sections, decimals)
