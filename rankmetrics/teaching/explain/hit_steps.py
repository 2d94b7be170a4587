"""Step tables for the hit-based metrics: one O/X table, then one small formula per metric.

The table (rank, grade, O/X, running count of hits, precision at each hit) is
the same for precision, recall, F1, hit rate, R-precision, RR, MR and AP; what
differs is the last step, written once per metric in :data:`_FORMULAS`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import numpy as np

from ...metrics.conventions import ap_denominator, cutoff, is_relevant
from ...registry import METRICS
from .steps import (
    NONE,
    RELEVANT_WORDS,
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


def _precision(h: Hits) -> tuple[float, Decimal | None]:
    h.lines.append(f"{h.label} = 정답 수 ÷ k = {h.found} ÷ {h.depth} = {exact_text(h.found / h.depth)}")
    h.conventions["denominator"] = f"k = {h.depth} (목록이 k보다 짧아도 k)"
    return h.found / h.depth, h.ratio(h.found, h.depth) if h.decimals is not None else None


def _recall(h: Hits) -> tuple[float, Decimal | None]:
    value = h.found / h.total_relevant if h.total_relevant > 0 else 0.0
    h.lines.append(f"{h.label} = 정답 수 ÷ 전체 관련 수 = {h.found} ÷ {h.R} = {exact_text(value)}")
    h.conventions["denominator"] = f"전체 관련 수 R = {h.R}: {h.relevant_source}"
    return value, h.ratio(h.found, h.total_relevant) if h.decimals is not None else None


def _f1(h: Hits) -> tuple[float, Decimal | None]:
    p = h.found / h.depth
    r = h.found / h.total_relevant if h.total_relevant > 0 else 0.0
    value = 2 * p * r / (p + r) if p + r > 0 else 0.0
    P, Rc = exact_text(p), exact_text(r)
    h.lines += [
        f"P{h.at} = {h.found} ÷ {h.depth} = {P},  R{h.at} = {h.found} ÷ {h.R} = {Rc}",
        f"{h.label} = 2 × P × R ÷ (P + R) = 2 × {P} × {Rc} ÷ ({P} + {Rc}) = {exact_text(value)}",
    ]
    h.conventions["denominator"] = f"P는 k = {h.depth}, R은 전체 관련 수 R = {h.R}: {h.relevant_source}"
    if h.decimals is None:
        return value, None
    d = h.decimals
    hp, hr = h.ratio(h.found, h.depth), h.ratio(h.found, h.total_relevant)
    hand = round_half_up(2 * hp * hr / (hp + hr), d) if hp + hr > 0 else Decimal(0)
    h.lines.append(
        f"손 계산: P = {hand_text(hp, d)}, R = {hand_text(hr, d)}, {h.label} = 2 × {hand_text(hp, d)} × "
        f"{hand_text(hr, d)} ÷ ({hand_text(hp, d)} + {hand_text(hr, d)}) = {hand_text(hand, d)}"
    )
    return value, hand


def _hit_rate(h: Hits) -> tuple[float, Decimal | None]:
    value = 1.0 if h.found > 0 else 0.0
    said = f"1 (상위 k 안에 정답 {h.found}개)" if h.found else "0 (상위 k 안에 정답 없음)"
    h.lines.append(f"{h.label} = {said}")
    h.conventions["denominator"] = f"{NONE} (0 또는 1)"
    return value, Decimal(int(value)) if h.decimals is not None else None


def _hits(h: Hits) -> tuple[float, Decimal | None]:
    h.lines.append(f"{h.label} = 상위 k개 중 정답 수 = {h.found}")
    h.conventions["denominator"] = f"{NONE} (개수)"
    return float(h.found), Decimal(h.found) if h.decimals is not None else None


def _r_precision(h: Hits) -> tuple[float, Decimal | None]:
    value = h.found / h.depth if h.depth > 0 else 0.0
    h.lines.append(
        f"{h.label} = 상위 R개 중 정답 수 ÷ R = {h.found} ÷ {h.depth} = {exact_text(value)}"
        if h.depth > 0
        else f"{h.label} = 0 (관련 항목이 없음: R = 0)"
    )
    h.conventions["denominator"] = f"전체 관련 수 R = {h.R}: {h.relevant_source}"
    h.conventions["cutoff"] = f"R = {h.R} (질의마다 전체 관련 수)"
    return value, h.ratio(h.found, h.depth) if h.decimals is not None else None


def _reciprocal_rank(h: Hits) -> tuple[float, Decimal | None]:
    first = h.hit_ranks[0] if h.hit_ranks else None
    value = 1.0 / first if first else 0.0
    h.lines.append(
        f"{h.label} = 1 ÷ {first} = {exact_text(value)}" if first else f"{h.label} = 0 (정답이 없음)"
    )
    h.conventions["denominator"] = "첫 정답의 순위"
    return value, h.ratio(1, first or 0) if h.decimals is not None else None


def _mean_rank(h: Hits) -> tuple[float, Decimal | None]:
    ranks = h.hit_ranks
    if ranks:
        value = sum(ranks) / len(ranks)
        h.lines.append(f"{h.label} = ({' + '.join(map(str, ranks))}) ÷ {len(ranks)} = {exact_text(value)}")
    else:
        value = math.nan
        h.lines.append(f"{h.label} = nan (정답이 없으면 평균 순위를 정할 수 없음)")
    h.conventions["denominator"] = "목록에 든 정답 수 (목록 밖 정답은 순위가 없어 빠짐)"
    if h.decimals is None or not ranks:
        return value, None
    return value, round_half_up(Decimal(sum(ranks)) / Decimal(len(ranks)), h.decimals)


def _average_precision(h: Hits) -> tuple[float, Decimal | None]:
    precisions = [row["precision"] for row in h.rows if row["hit"]]
    total = float(sum(precisions))
    rule = h.denominator_rule
    counts = h.n_relevant if rule != "retrieved_relevant" else None
    divisor = float(ap_denominator(counts, np.array([float(h.found)]), h.depth, rule)[0])
    value = total / divisor if divisor > 0 else 0.0
    D = exact_text(divisor)
    terms = " + ".join(exact_text(p) for p in precisions) or "0"
    h.lines.append(f"{h.label} = ({terms}) ÷ {D} = {exact_text(total)} ÷ {D} = {exact_text(value)}")
    h.conventions["denominator"] = {
        "all_relevant": f"전체 관련 수 R = {h.R}: {h.relevant_source}",
        "min_k_relevant": f"min(k, R) = min({h.depth}, {h.R}) = {D} (denominator='min_k_relevant')",
        "retrieved_relevant": f"상위 k 안에서 찾은 정답 수 {D} (denominator='retrieved_relevant')",
    }[rule]
    if h.decimals is None:
        return value, None
    d = h.decimals
    hand_terms = [Decimal(repr(row["precision_rounded"])) for row in h.rows if row["hit"]]
    hand_total = sum(hand_terms, Decimal(0))
    hand = round_half_up(hand_total / Decimal(int(divisor)), d) if divisor > 0 else Decimal(0)
    joined = " + ".join(hand_text(t, d) for t in hand_terms) or "0"
    h.lines.append(
        f"손 계산: {h.label} = ({joined}) ÷ {D} = {hand_text(hand_total, d)} ÷ {D} = {hand_text(hand, d)}"
    )
    return value, hand


# The last step of each hit-based metric: (its formula, whether the hand result gets its own line).
_FORMULAS: dict[str, tuple[Callable[[Hits], tuple[float, Decimal | None]], bool]] = {
    "precision": (_precision, True),
    "recall": (_recall, True),
    "f1": (_f1, False),
    "hit_rate": (_hit_rate, False),
    "hits": (_hits, False),
    "r_precision": (_r_precision, True),
    "reciprocal_rank": (_reciprocal_rank, True),
    "mean_rank": (_mean_rank, True),
    "average_precision": (_average_precision, False),
}


def explain_hits(metric, x, queries, items, k, decimals, kwargs) -> Explanation:
    formula, hand_line = _FORMULAS[metric]
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
                round_half_up(Decimal(int(count[i])) / Decimal(int(ranks[i])), decimals)
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
    # Precision-like metrics use the full cutoff (k, even past the list's end); RR, MR, AP
    # show a suffix only when k is given.
    registered = METRICS[metric]
    at = f"@{depth}" if registered.cutoff == "required" else (f"@{k}" if k is not None else "")
    h = Hits(
        label=registered.symbol + at,
        at=at,
        found=int(count[-1]) if hits.size else 0,
        depth=depth,
        total_relevant=float(queries.n_relevant[0]),
        hit_ranks=[int(r) for r in ranks[hits]],
        rows=rows,
        decimals=decimals,
        relevant_source=(
            "판정된 모든 관련 항목 (relevant)"
            if kwargs.get("relevant") is not None
            else "n_relevant로 준 수"
            if kwargs.get("n_relevant") is not None
            else "목록 안의 관련 등급 수"
        ),
        denominator_rule=kwargs.get("denominator", "all_relevant"),
        n_relevant=queries.n_relevant,
        conventions={
            "gain": RELEVANT_WORDS,
            "discount": NONE,
            "ideal": NONE,
            "denominator": "",
            "cutoff": cutoff_words(k, n),
        },
    )
    stepwise, hand = formula(h)
    if hand is not None and hand_line:
        h.lines.append(f"손 계산: {h.label} = {hand_text(hand, decimals)}")
    official = (
        registered.function(x, **kwargs) if metric == "r_precision" else registered.function(x, k, **kwargs)
    )
    value = verify(h.label, stepwise, official)
    sections = [Section("순위별 정답", columns, rows, h.lines)]
    return finish(metric, h.label, value, hand, rows, h.conventions, sections, decimals)
