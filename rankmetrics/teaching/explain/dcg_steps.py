"""Step tables for DCG and nDCG: gain, discount, gain ÷ discount and running sum, rank by rank."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

import numpy as np

from ... import _validation as v
from ...i18n import N_, _
from ...metrics.conventions import cutoff, discounts, gain_values
from ...metrics.dcg import dcg, ndcg
from .steps import (
    Column,
    Explanation,
    Section,
    beyond_float_range,
    cutoff_words,
    exact_text,
    finish,
    gain_words,
    hand_text,
    none_words,
    round_half_up,
    verify,
)

_GAIN_HEADERS = {
    "linear": N_("gain (=grade)"),
    "exponential": N_("gain 2^grade−1"),
    "binary": N_("gain (relevant=1)"),
}


def _dcg_table(grades: np.ndarray, items: list | None, gain: str, decimals, discount_decimals):
    """Rows rank, item, grade, gain, discount, term, running sum (exact and hand-rounded)."""
    with np.errstate(over="ignore"):
        gains = gain_values(grades, gain)
        discount = discounts(grades.size)
        terms = gains / discount
        running = np.cumsum(terms)
    if running.size and not np.isfinite(running[-1]):  # the sums only grow: the last is the largest
        raise beyond_float_range(
            "x", _("a gain or running sum of gain ÷ discount under gain={gain}").format(gain=repr(gain))
        )
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
            hand_gain = round_half_up(gains[i], decimals)
            hand_discount = round_half_up(discount[i], discount_decimals)
            hand_term = round_half_up(hand_gain / hand_discount, decimals)
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
    gain_header = _(_GAIN_HEADERS[gain])
    columns = [Column("rank", _("rank"))]
    if has_items:
        columns.append(Column("item", _("item"), align="left"))
    columns += [
        Column("grade", _("grade")),
        Column("gain", gain_header, decimals),
        Column("discount", _("discount log2(rank+1)"), discount_decimals),
        Column("term", _("gain÷discount"), decimals),
        Column("running_sum", _("running sum"), decimals),
    ]
    return columns


def _dcg_lines(name: str, rows: list[dict], total: float, hand: Decimal | None, decimals, discount_decimals):
    if not rows:
        return [f"{name} = 0"]
    fractions = " + ".join(f"{exact_text(r['gain'])}/{exact_text(r['discount'])}" for r in rows)
    terms = " + ".join(exact_text(r["term"]) for r in rows)
    lines = [f"{name} = {fractions}", f"{' ' * len(name)} = {terms} = {exact_text(total)}"]
    if hand is not None:
        fractions = " + ".join(
            f"{hand_text(r['gain_rounded'], decimals)}/{hand_text(r['discount_rounded'], discount_decimals)}"
            for r in rows
        )
        terms = " + ".join(hand_text(r["term_rounded"], decimals) for r in rows)
        first = _("by hand: {steps}").format(steps=f"{name} = {fractions}")
        lines += [first, f"{' ' * (first.index(' = ') - 1)} = {terms} = {hand_text(hand, decimals)}"]
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


def explain_dcg(metric, x, queries, items, k, gain, decimals, discount_decimals, kwargs) -> Explanation:
    grades = queries.grades
    top, depth = cutoff(grades, k)
    n = grades.shape[1]
    suffix = f"@{k}" if k is not None else ""
    rows, total, hand_dcg = _dcg_table(top[0], items, gain, decimals, discount_decimals)
    columns = _dcg_columns(items is not None, gain, decimals, discount_decimals)
    dcg_name = f"DCG{suffix}"
    sections = [
        Section(
            _("my ranking"),
            columns,
            rows,
            _dcg_lines(dcg_name, rows, total, hand_dcg, decimals, discount_decimals),
        )
    ]
    official_dcg = dcg(top[0], gain=gain)
    verify(dcg_name, total, official_dcg)
    conventions = {
        "gain": gain_words(gain),
        "discount": _("log2(rank + 1)"),
        "ideal": none_words(),
        "denominator": _("none (not normalised)"),
        "cutoff": cutoff_words(k, n),
    }
    if metric == "dcg":
        value = verify(dcg_name, total, dcg(x, k, **kwargs))
        return finish(
            metric, dcg_name, value, hand_dcg, rows, conventions, sections, decimals, discount_decimals
        )

    # The ideal ordering: every judged grade, best first, cut at the same k (as ndcg does).
    # Without k neither side is cut (ndcg's uncut form), so the ideal may be longer than the list.
    judged = queries.ideal[0]
    if k is None:
        depth = max(depth, judged.size)
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
            _("ideal ordering"),
            _dcg_columns(items is not None, gain, decimals, discount_decimals),
            ideal_rows,
            _dcg_lines(idcg_name, ideal_rows, ideal_total, hand_idcg, decimals, discount_decimals),
        )
    )
    label = f"nDCG{suffix}"
    stepwise = total / ideal_total if ideal_total > 0 else 0.0
    value = verify(label, stepwise, ndcg(x, k, **kwargs))
    ratio = [
        f"{label} = {dcg_name} ÷ {idcg_name} = {exact_text(total)} ÷ {exact_text(ideal_total)} = {exact_text(value)}"
        if ideal_total > 0
        else _("{label} = 0 (taken as 0 when {idcg} is 0)").format(label=label, idcg=idcg_name)
    ]
    hand_ratio = None
    if decimals is not None:
        if hand_idcg > 0:
            hand_ratio = round_half_up(hand_dcg / hand_idcg, decimals)
            steps = (
                f"{label} = {hand_text(hand_dcg, decimals)} ÷ {hand_text(hand_idcg, decimals)}"
                f" = {hand_text(hand_ratio, decimals)}"
            )
            ratio.append(_("by hand: {steps}").format(steps=steps))
        else:
            hand_ratio = Decimal(0)
            ratio.append(_("by hand: {label} = 0 ({idcg} is 0)").format(label=label, idcg=idcg_name))
    sections.append(Section(_("ratio"), [], [], ratio))
    if source == "listed":
        conventions["ideal"] = _("the grades in the list (ideal='listed')")
    elif kwargs.get("relevant") is not None:
        conventions["ideal"] = _("the grades of every judged item (relevant)")
    elif source is not None and not isinstance(source, str):
        conventions["ideal"] = _("every grade given as ideal")
    else:
        conventions["ideal"] = _("the grades in the list (no ideal given)")
    conventions["denominator"] = _("the DCG of the ideal ordering ({idcg})").format(idcg=idcg_name)
    return finish(
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
