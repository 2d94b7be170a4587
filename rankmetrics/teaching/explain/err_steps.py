"""Step table for ERR: per rank the stopping probability, the chance of getting there, the term."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import numpy as np

from ...i18n import _
from ...metrics.conventions import cutoff
from ...metrics.rank_based import ERR_MAX_GRADE, err_rows
from ...registry import METRICS
from .steps import (
    Column,
    Explanation,
    Section,
    cutoff_words,
    exact_text,
    finish,
    hand_text,
    none_words,
    round_half_up,
    verify,
)


def explain_err(metric: str, x: Any, queries, items, k, decimals, kwargs) -> Explanation:
    max_grade = kwargs.get("max_grade", ERR_MAX_GRADE)
    registered = METRICS[metric]
    official = registered.function(x, k, **kwargs)  # checks max_grade and the grades first
    top, _depth = cutoff(queries.grades, k)
    grades = top[0]
    stop = (np.exp2(grades) - 1.0) / np.exp2(float(max_grade))
    reach = np.concatenate([[1.0], np.cumprod(1.0 - stop)[:-1]])
    terms = stop * reach / np.arange(1, grades.size + 1)
    rows, hand_reach, hand_total = [], Decimal(1), Decimal(0)
    for i in range(grades.size):
        row: dict[str, Any] = {"rank": i + 1}
        if items is not None:
            row["item"] = items[i]
        row.update(grade=float(grades[i]), stop=float(stop[i]), reach=float(reach[i]), term=float(terms[i]))
        row["sum"] = float(terms[: i + 1].sum())
        if decimals is not None:
            hand_stop = round_half_up(stop[i], decimals)
            hand_term = round_half_up(hand_stop * hand_reach / (i + 1), decimals)
            hand_total = round_half_up(hand_total + hand_term, decimals)
            row.update(stop_rounded=float(hand_stop), reach_rounded=float(hand_reach))
            row.update(term_rounded=float(hand_term), sum_rounded=float(hand_total))
            hand_reach = round_half_up(hand_reach * (1 - hand_stop), decimals)
        rows.append(row)
    columns = [Column("rank", _("rank"))]
    if items is not None:
        columns.append(Column("item", _("item"), align="left"))
    columns += [
        Column("grade", _("grade")),
        Column("stop", _("satisfaction R"), decimals),
        Column("reach", _("chance of reaching here"), decimals),
        Column("term", _("R × reach ÷ rank"), decimals),
        Column("sum", _("running sum"), decimals),
    ]
    label = registered.label + (f"@{k}" if k is not None else "")
    stepwise = float(err_rows(top, float(max_grade))[0])
    value = verify(label, stepwise, official)
    lines = [
        _("R = (2^grade − 1) ÷ 2^{top},  reach = the product of (1 − R) over the ranks above").format(
            top=exact_text(float(max_grade))
        ),
        f"{label} = " + (" + ".join(exact_text(t) for t in terms) or "0") + f" = {exact_text(value)}",
    ]
    hand = round_half_up(hand_total, decimals) if decimals is not None else None
    if hand is not None:
        lines.append(_("by hand: {label} = {value}").format(label=label, value=hand_text(hand, decimals)))
    conventions = {
        "gain": _("satisfaction (2^g − 1) ÷ 2^{top}").format(top=exact_text(float(max_grade))),
        "discount": _("1 ÷ rank, lessened by the chance of being satisfied above"),
        "ideal": none_words(),
        "denominator": none_words(),
        "cutoff": cutoff_words(k, queries.grades.shape[1]),
    }
    sections = [Section(_("satisfaction by rank"), columns, rows, lines)]
    return finish(metric, label, value, hand, rows, conventions, sections, decimals)
