"""Step tables for MSE, MAE and RMSE: each item's error, then the mean (and the square root)."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

import numpy as np

from ... import _validation as v
from ...i18n import _
from ...registry import METRICS
from .steps import (
    Column,
    Explanation,
    Section,
    beyond_float_range,
    exact_text,
    finish,
    hand_text,
    none_words,
    round_half_up,
    verify,
)


def explain_rating(metric: str, y_true: Any, *, decimals: int | None, y_pred: Any = None) -> Explanation:
    if y_pred is None:
        raise ValueError(
            _("explain({metric!r}, y_true, y_pred=...) needs the predictions as y_pred=").format(
                metric=metric
            )
        )
    truth, pred = v.check_ratings(y_true, y_pred)
    with np.errstate(over="ignore"):
        errors = pred - truth
        shown = errors**2 if metric in ("mse", "rmse") else np.abs(errors)
        if not np.isfinite(shown.sum()):
            raise beyond_float_range(
                "y_true, y_pred", _("an error, its square or their sum, under {metric}").format(metric=metric)
            )
    key, header = ("squared", _("error²")) if metric in ("mse", "rmse") else ("absolute", _("|error|"))
    rows = []
    for i in range(truth.size):
        row = {"index": i + 1, "true": float(truth[i]), "pred": float(pred[i]), "error": float(errors[i])}
        row[key] = float(shown[i])
        if decimals is not None:
            row[key + "_rounded"] = float(round_half_up(shown[i], decimals))
        rows.append(row)
    columns = [
        Column("index", _("no.")),
        Column("true", _("true")),
        Column("pred", _("predicted")),
        Column("error", _("error (predicted−true)")),
        Column(key, header, decimals),
    ]
    n = truth.size
    total = float(shown.sum())
    mean = total / n
    name = "MSE" if metric in ("mse", "rmse") else "MAE"
    lines = [
        f"{name} = ({' + '.join(exact_text(r[key]) for r in rows)}) ÷ {n} = {exact_text(total)} ÷ {n} = {exact_text(mean)}"
    ]
    stepwise = math.sqrt(mean) if metric == "rmse" else mean
    if metric == "rmse":
        lines.append(f"RMSE = √{exact_text(mean)} = {exact_text(stepwise)}")
    hand = None
    if decimals is not None:
        hand_total = sum((round_half_up(r[key + "_rounded"], decimals) for r in rows), Decimal(0))
        hand = round_half_up(hand_total / n, decimals)
        steps = f"{name} = {hand_text(hand_total, decimals)} ÷ {n} = {hand_text(hand, decimals)}"
        lines.append(_("by hand: {steps}").format(steps=steps))
        if metric == "rmse":
            hand = round_half_up(hand.sqrt(), decimals)
            steps = f"RMSE = √{hand_text(hand_total / n, decimals)} = {hand_text(hand, decimals)}"
            lines.append(_("by hand: {steps}").format(steps=steps))
    label = metric.upper()
    value = verify(label, stepwise, METRICS[metric].function(truth, pred))
    conventions = {
        "gain": none_words(),
        "discount": none_words(),
        "ideal": none_words(),
        "denominator": _("number of items N = {n}").format(n=n),
        "cutoff": none_words(),
    }
    sections = [Section(_("errors by item"), columns, rows, lines)]
    return finish(metric, label, value, hand, rows, conventions, sections, decimals)
