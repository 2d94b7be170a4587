"""The last step of each hit-based step table: one small formula per metric.

:func:`rankmetrics.explain` draws one O/X table (rank, grade, O/X, running count of
hits, precision at each hit) for every metric registered with ``explain="hits"``;
what differs is the last step, which the metric's registration names as
``steps=`` (:class:`rankmetrics.registry.Metric`). A step formula reads the table
from a :class:`Hits`, writes its formula lines and convention-card entries into
it, and returns the exact value and, in student rounding, the hand-rounded one.
``explain`` checks the exact value against the metric's own function.

This module loads without the step tables (only numbers and conventions), so the
metric modules can name its formulas in their registrations.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import numpy as np

from ..i18n import _
from ..metrics.conventions import ap_denominator
from .numbers import exact_text, hand_text, round_half_up

__all__ = [
    "Hits",
    "average_precision",
    "f1",
    "hit_rate",
    "hits",
    "mean_rank",
    "precision",
    "r_precision",
    "recall",
    "reciprocal_rank",
]


@dataclass
class Hits:
    """What every hit-based formula reads from the O/X table, and what it writes back."""

    label: str  # e.g. "P@5"
    at: str  # the cutoff suffix, e.g. "@5"
    found: int  # hits within the cutoff
    depth: int  # the cutoff's length (k, even past the list's end; R for R-precision)
    total_relevant: float  # R
    hit_ranks: list[int]
    rows: list[dict[str, Any]]
    decimals: int | None
    relevant_source: str  # where R comes from, in words
    denominator_rule: str  # AP's denominator convention
    n_relevant: np.ndarray  # AP: as the metric received it
    lines: list[str] = field(default_factory=list)
    conventions: dict[str, str] = field(default_factory=dict)

    @property
    def R(self) -> str:
        return exact_text(self.total_relevant)

    def ratio(self, numerator: int, denominator: float) -> Decimal:
        """numerator ÷ denominator rounded as by hand (0 when the denominator is 0)."""
        if denominator <= 0:
            return Decimal(0)
        return round_half_up(Decimal(numerator) / Decimal(int(denominator)), self.decimals)

    def hand_line(self, hand: Decimal | None) -> None:
        """The line "by hand: P@5 = 0.40" under a formula whose hand result is one number."""
        if hand is not None:
            self.lines.append(
                _("by hand: {label} = {value}").format(label=self.label, value=hand_text(hand, self.decimals))
            )

    def all_relevant(self) -> str:
        """The card's denominator "all relevant R = 4: where R comes from"."""
        return _("all relevant R = {R}: {source}").format(R=self.R, source=self.relevant_source)


def precision(h: Hits) -> tuple[float, Decimal | None]:
    h.lines.append(
        _("{label} = hits ÷ k = {found} ÷ {depth} = {value}").format(
            label=h.label, found=h.found, depth=h.depth, value=exact_text(h.found / h.depth)
        )
    )
    h.conventions["denominator"] = _("k = {k} (k even when the list is shorter)").format(k=h.depth)
    hand = h.ratio(h.found, h.depth) if h.decimals is not None else None
    h.hand_line(hand)
    return h.found / h.depth, hand


def recall(h: Hits) -> tuple[float, Decimal | None]:
    value = h.found / h.total_relevant if h.total_relevant > 0 else 0.0
    h.lines.append(
        _("{label} = hits ÷ all relevant = {found} ÷ {R} = {value}").format(
            label=h.label, found=h.found, R=h.R, value=exact_text(value)
        )
    )
    h.conventions["denominator"] = h.all_relevant()
    hand = h.ratio(h.found, h.total_relevant) if h.decimals is not None else None
    h.hand_line(hand)
    return value, hand


def f1(h: Hits) -> tuple[float, Decimal | None]:
    p = h.found / h.depth
    r = h.found / h.total_relevant if h.total_relevant > 0 else 0.0
    value = 2 * p * r / (p + r) if p + r > 0 else 0.0
    P, Rc = exact_text(p), exact_text(r)
    h.lines += [
        f"P{h.at} = {h.found} ÷ {h.depth} = {P},  R{h.at} = {h.found} ÷ {h.R} = {Rc}",
        f"{h.label} = 2 × P × R ÷ (P + R) = 2 × {P} × {Rc} ÷ ({P} + {Rc}) = {exact_text(value)}",
    ]
    h.conventions["denominator"] = _("P: k = {k}; R: all relevant R = {R}: {source}").format(
        k=h.depth, R=h.R, source=h.relevant_source
    )
    if h.decimals is None:
        return value, None
    d = h.decimals
    hp, hr = h.ratio(h.found, h.depth), h.ratio(h.found, h.total_relevant)
    hand = round_half_up(2 * hp * hr / (hp + hr), d) if hp + hr > 0 else Decimal(0)
    P, Rc = hand_text(hp, d), hand_text(hr, d)
    h.lines.append(
        _("by hand: P = {P}, R = {R}, {label} = 2 × {P} × {R} ÷ ({P} + {R}) = {value}").format(
            P=P, R=Rc, label=h.label, value=hand_text(hand, d)
        )
    )
    return value, hand


def hit_rate(h: Hits) -> tuple[float, Decimal | None]:
    value = 1.0 if h.found > 0 else 0.0
    said = (
        _("1 ({found} relevant in the top k)").format(found=h.found)
        if h.found
        else _("0 (none relevant in the top k)")
    )
    h.lines.append(f"{h.label} = {said}")
    h.conventions["denominator"] = _("none (0 or 1)")
    return value, Decimal(int(value)) if h.decimals is not None else None


def hits(h: Hits) -> tuple[float, Decimal | None]:
    h.lines.append(_("{label} = relevant in the top k = {found}").format(label=h.label, found=h.found))
    h.conventions["denominator"] = _("none (a count)")
    return float(h.found), Decimal(h.found) if h.decimals is not None else None


def r_precision(h: Hits) -> tuple[float, Decimal | None]:
    value = h.found / h.depth if h.depth > 0 else 0.0
    h.lines.append(
        _("{label} = relevant in the top R ÷ R = {found} ÷ {depth} = {value}").format(
            label=h.label, found=h.found, depth=h.depth, value=exact_text(value)
        )
        if h.depth > 0
        else _("{label} = 0 (no relevant items: R = 0)").format(label=h.label)
    )
    h.conventions["denominator"] = h.all_relevant()
    h.conventions["cutoff"] = _("R = {R} (each query's number of relevant items)").format(R=h.R)
    hand = h.ratio(h.found, h.depth) if h.decimals is not None else None
    h.hand_line(hand)
    return value, hand


def reciprocal_rank(h: Hits) -> tuple[float, Decimal | None]:
    first = h.hit_ranks[0] if h.hit_ranks else None
    value = 1.0 / first if first else 0.0
    h.lines.append(
        f"{h.label} = 1 ÷ {first} = {exact_text(value)}"
        if first
        else _("{label} = 0 (nothing relevant)").format(label=h.label)
    )
    h.conventions["denominator"] = _("the rank of the first relevant item")
    hand = h.ratio(1, first or 0) if h.decimals is not None else None
    h.hand_line(hand)
    return value, hand


def mean_rank(h: Hits) -> tuple[float, Decimal | None]:
    ranks = h.hit_ranks
    if ranks:
        value = sum(ranks) / len(ranks)
        h.lines.append(f"{h.label} = ({' + '.join(map(str, ranks))}) ÷ {len(ranks)} = {exact_text(value)}")
    else:
        value = math.nan
        h.lines.append(
            _("{label} = nan (without a relevant item there is no mean rank)").format(label=h.label)
        )
    h.conventions["denominator"] = _(
        "relevant items in the list (relevant items outside it have no rank and are left out)"
    )
    hand = None
    if h.decimals is not None and ranks:
        hand = round_half_up(Decimal(sum(ranks)) / Decimal(len(ranks)), h.decimals)
    h.hand_line(hand)
    return value, hand


def average_precision(h: Hits) -> tuple[float, Decimal | None]:
    precisions = [row["precision"] for row in h.rows if row["hit"]]
    total = float(sum(precisions))
    rule = h.denominator_rule
    counts = h.n_relevant if rule != "retrieved_relevant" else None
    divisor = float(ap_denominator(counts, np.array([float(h.found)]), h.depth, rule)[0])
    value = total / divisor if divisor > 0 else 0.0
    D = exact_text(divisor)
    terms = " + ".join(exact_text(p) for p in precisions) or "0"
    h.lines.append(f"{h.label} = ({terms}) ÷ {D} = {exact_text(total)} ÷ {D} = {exact_text(value)}")
    if rule == "all_relevant":
        h.conventions["denominator"] = h.all_relevant()
    elif rule == "min_k_relevant":
        h.conventions["denominator"] = (
            f"min(k, R) = min({h.depth}, {h.R}) = {D} (denominator='min_k_relevant')"
        )
    else:
        h.conventions["denominator"] = _(
            "relevant found in the top k: {count} (denominator='retrieved_relevant')"
        ).format(count=D)
    if h.decimals is None:
        return value, None
    d = h.decimals
    hand_terms = [Decimal(repr(row["precision_rounded"])) for row in h.rows if row["hit"]]
    hand_total = sum(hand_terms, Decimal(0))
    hand = round_half_up(hand_total / Decimal(int(divisor)), d) if divisor > 0 else Decimal(0)
    joined = " + ".join(hand_text(t, d) for t in hand_terms) or "0"
    steps = f"{h.label} = ({joined}) ÷ {D} = {hand_text(hand_total, d)} ÷ {D} = {hand_text(hand, d)}"
    h.lines.append(_("by hand: {steps}").format(steps=steps))
    return value, hand
