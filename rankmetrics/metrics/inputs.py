"""Turn the two input forms into one internal shape.

Form (a): grades in ranked order, 1-D (one query) or 2-D (a batch).
Form (b): ``ranking`` of item ids plus ``relevant`` judgements.

Every metric works on a :class:`Queries` value: a 2-D float array of grades
(one query per row), the number of relevant items per query, and the ideal
grades per query. Denominators and ideal rankings thus come from one place.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from .. import _validation as v
from .._arrays import pad_right
from ..i18n import _
from .conventions import IDEAL_SOURCES, is_relevant


@dataclass(frozen=True)
class Queries:
    grades: np.ndarray  # (n_queries, n_ranks) non-negative grades in ranked order
    explicit_n_relevant: np.ndarray | None  # (n_queries,) given or judged; None: count the list
    ideal: np.ndarray  # (n_queries, m) every judged grade per query, zero-padded, any order
    single: bool  # True when the caller passed one query

    @cached_property
    def n_relevant(self) -> np.ndarray:
        """Relevant items in total per query, listed or not (the recall/AP denominator)."""
        if self.explicit_n_relevant is not None:
            return self.explicit_n_relevant
        # Counted only when a metric needs it: a full pass over a large batch costs time.
        return np.count_nonzero(is_relevant(self.grades), axis=1).astype(float)

    def finish(self, values: np.ndarray) -> float | np.ndarray:
        """A plain float for one query, a 1-D float array for a batch."""
        values = np.asarray(values, dtype=float)
        return float(values[0]) if self.single else values


def from_ids(ranking: Any, relevant: Any) -> tuple[np.ndarray, np.ndarray, int]:
    """Form (b) to grades: (grades in ranked order, all judged grades, n relevant)."""
    items: list[Hashable] = v.check_ranking(ranking)
    judged = v.check_relevant(relevant)
    # A judged grade <= 0 is non-relevant and earns no gain (trec_eval clips too).
    grades = np.array([max(judged.get(item, 0.0), 0.0) for item in items], dtype=float)
    all_grades = np.clip(np.fromiter(judged.values(), dtype=float, count=len(judged)), 0.0, None)
    return grades, all_grades, int(np.count_nonzero(is_relevant(all_grades)))


def prepare(
    x: Any,
    *,
    relevant: Any = None,
    n_relevant: Any = None,
    ideal: Any = None,
) -> Queries:
    """Validate one call's inputs and resolve the conventions that depend on the form.

    ``ideal`` may also name where the ideal ranking comes from: ``"judged"``
    (every judged item; the default with item ids) or ``"listed"`` (only the
    listed items; the default for grades).
    """
    source = None
    if isinstance(ideal, str):
        source = v.check_choice(ideal, "ideal", IDEAL_SOURCES)
        ideal = None
    if relevant is not None:
        for name, value in (("n_relevant", n_relevant), ("ideal", ideal)):
            if value is not None:
                raise ValueError(
                    _(
                        "{name} cannot be combined with relevant=...: with item ids the {name_2} comes from "
                        "every judged item in relevant; got {name}={value}"
                    ).format(
                        name=name,
                        name_2=_("denominator") if name == "n_relevant" else _("ideal ranking"),
                        value=v.show(value),
                    )
                    + ("" if name == "n_relevant" else _(" (ideal='listed' uses only the listed items)"))
                )
        grades, all_grades, count = from_ids(x, relevant)
        best = grades if source == "listed" else all_grades
        return Queries(grades[None, :], np.array([float(count)]), best[None, :], single=True)
    if source == "judged":
        raise ValueError(
            _(
                "ideal='judged' needs the judgements: pass the item ids with relevant={id: grade}, or "
                "the grades of every judged item as ideal=[...]; with grades alone only "
                "ideal='listed' is possible"
            )
        )

    grades = v.check_grades(x, "x", item_ids=True)
    single = grades.ndim == 1
    grades = np.atleast_2d(grades)
    counts = None
    if n_relevant is not None:
        present = np.count_nonzero(is_relevant(grades), axis=1).astype(float)
        counts = v.check_n_relevant(n_relevant, present)
    # Default ideal: the listed grades themselves (no copy; ndcg only reads them).
    ideals = grades if ideal is None else pad_right(_check_ideal(ideal, grades, single))
    return Queries(grades, counts, ideals, single)


def _check_ideal(ideal: Any, grades: np.ndarray, single: bool) -> list[np.ndarray]:
    rows = [ideal] if single else list(ideal)
    if not single and len(rows) != grades.shape[0]:
        raise ValueError(
            _("ideal must give one row of judged grades per query ({shape}); got {n_rows}").format(
                shape=grades.shape[0], n_rows=len(rows)
            )
        )
    checked = []
    for i, (row, listed) in enumerate(zip(rows, grades)):
        name = "ideal" if single else f"ideal[{i}]"
        judged = v.check_grades(row, name, allow_batch=False)
        # The ideal must hold every judged grade, so each listed grade needs a
        # partner at least as large; otherwise nDCG could exceed 1.
        top = np.sort(judged)[::-1]
        need = np.sort(listed[listed > 0])[::-1]
        padded = np.concatenate([top, np.zeros(max(0, need.size - top.size))])
        if np.any(need > padded[: need.size]):
            raise ValueError(
                _(
                    "{name} must contain the grades of every judged item, including those in the ranking; "
                    "the ranking has grades {need} but {name} is {judged}"
                ).format(name=name, need=need.tolist(), judged=judged.tolist())
            )
        checked.append(judged)
    return checked
