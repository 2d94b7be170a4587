"""Step table for ERR: per rank the stopping probability, the chance of getting there, the term."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import numpy as np

from ...metrics.conventions import cutoff
from ...metrics.rank_based import ERR_MAX_GRADE, err_rows
from ...registry import METRICS
from .steps import (
    NONE,
    Column,
    Explanation,
    Section,
    cutoff_words,
    exact_text,
    finish,
    hand_text,
    round_half_up,
    verify,
)


def explain_err(metric: str, x: Any, queries, items, k, decimals, kwargs) -> Explanation:
    max_grade = kwargs.get("max_grade", ERR_MAX_GRADE)
    registered = METRICS[metric]
    official = registered.function(x, k, **kwargs)  # checks max_grade and the grades first
    top, _ = cutoff(queries.grades, k)
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
    columns = [Column("rank", "순위")]
    if items is not None:
        columns.append(Column("item", "항목", align="left"))
    columns += [
        Column("grade", "등급"),
        Column("stop", "만족 확률 R", decimals),
        Column("reach", "여기까지 올 확률", decimals),
        Column("term", "R × 도달 ÷ 순위", decimals),
        Column("sum", "누적 합", decimals),
    ]
    label = registered.label + (f"@{k}" if k is not None else "")
    stepwise = float(err_rows(top, float(max_grade))[0])
    value = verify(label, stepwise, official)
    lines = [
        f"R = (2^등급 − 1) ÷ 2^{exact_text(float(max_grade))},  도달 확률 = 위 순위들의 (1 − R)의 곱",
        f"{label} = " + (" + ".join(exact_text(t) for t in terms) or "0") + f" = {exact_text(value)}",
    ]
    hand = round_half_up(hand_total, decimals) if decimals is not None else None
    if hand is not None:
        lines.append(f"손 계산: {label} = {hand_text(hand, decimals)}")
    conventions = {
        "gain": f"만족 확률 (2^g − 1) ÷ 2^{exact_text(float(max_grade))}",
        "discount": "1 ÷ 순위, 위에서 이미 만족했을 확률만큼 줄어듦",
        "ideal": NONE,
        "denominator": NONE,
        "cutoff": cutoff_words(k, queries.grades.shape[1]),
    }
    sections = [Section("순위별 만족 확률", columns, rows, lines)]
    return finish(metric, label, value, hand, rows, conventions, sections, decimals)
