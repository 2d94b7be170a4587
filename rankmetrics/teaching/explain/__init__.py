"""Step tables: a metric's calculation laid out row by row, the way it is done by hand.

``explain(metric, x, k, ...)`` returns an :class:`Explanation`: one row per rank
(grade, gain, discount, gain ÷ discount, running sum for DCG/nDCG; O/X, running
hit count, precision at each relevant rank for the hit-based metrics), the
formula with the numbers filled in, and a one-line convention card.

The step formulas are a by-hand restatement of each metric, the way a learner
computes it, kept in one module per family (``dcg_steps``, ``hit_steps``,
``err_steps``, ``mean_steps``, ``rating_steps``). They reuse the package's conventions (gain,
discount, cutoff, relevance) and input forms, and every table's total is
checked against the public metric function (:func:`steps.verify`), so a step
table can never drift from the number the package reports. Which table a
metric gets is said in its registration (:mod:`rankmetrics.registry`).

Student rounding (``decimals=2``) repeats the arithmetic with every
intermediate rounded half-up, as on paper, next to the exact values, and points
at the first step where the two part ways.
"""

from __future__ import annotations

import inspect
from typing import Any

from ... import _validation as v
from ...i18n import _
from ...metrics.conventions import GAINS
from ...metrics.inputs import prepare
from ...registry import METRICS as REGISTRY
from ...registry import Metric
from ..catalogue import entry, where
from .dcg_steps import explain_dcg
from .err_steps import explain_err
from .estimate_steps import explain_off_policy, explain_sampled
from .hit_steps import explain_hits
from .list_steps import (
    explain_average_popularity,
    explain_calibration_kl,
    explain_coverage,
    explain_entropy,
    explain_gini,
    explain_intra_list_diversity,
    explain_long_tail_share,
    explain_novelty,
)
from .mean_steps import explain_mean
from .rating_steps import explain_rating
from .steps import Column, Explanation, Section

__all__ = ["Column", "Explanation", "Section", "explain", "explainable"]

# The recommender measures' step tables ("lists" and "estimate" in the teaching catalogue), by metric.
RECOMMENDER_STEPS = {
    "coverage": explain_coverage,
    "novelty": explain_novelty,
    "average_popularity": explain_average_popularity,
    "long_tail_share": explain_long_tail_share,
    "gini_index": explain_gini,
    "entropy": explain_entropy,
    "intra_list_diversity": explain_intra_list_diversity,
    "calibration_kl": explain_calibration_kl,
    "ips": explain_off_policy,
    "snips": explain_off_policy,
    "sampled_expectation": explain_sampled,
}


def explainable() -> tuple[str, ...]:
    """The metric names :func:`explain` accepts (the public function names), in registry order.

    A metric is explained when its teaching entry (:mod:`rankmetrics.teaching.catalogue`)
    names a step table. Read on every call, so a metric taught later is explained too.
    """
    return tuple(t.name for t in where(explain=bool))


def explain(
    metric: str,
    x: Any,
    k: int | None = None,
    *,
    decimals: int | None = None,
    discount_decimals: int | None = None,
    **kwargs: Any,
) -> Explanation:
    """Show how a metric's value is computed, row by row, as in a hand calculation.

    Parameters
    ----------
    metric : str
        A public metric name: ``"ndcg"``, ``"dcg"``, ``"precision"``, ``"recall"``,
        ``"f1"``, ``"hit_rate"``, ``"hits"``, ``"r_precision"``, ``"reciprocal_rank"``, ``"mean_rank"``,
        ``"expected_reciprocal_rank"``,
        ``"average_precision"``, ``"mean_reciprocal_rank"``, ``"mean_average_precision"``,
        ``"mse"``, ``"mae"`` or ``"rmse"``; the recommender measures ``"coverage"``,
        ``"novelty"``, ``"average_popularity"``, ``"long_tail_share"``, ``"gini_index"``,
        ``"entropy"``, ``"intra_list_diversity"``, ``"calibration_kl"``, ``"ips"``,
        ``"snips"`` and ``"sampled_expectation"`` (one user).
    x : grades in ranked order, or item ids (then pass ``relevant``)
        One query. For MRR/MAP a list of queries; for MSE/MAE/RMSE ``y_true``. For a
        recommender measure, its function's first argument (the lists; the history for
        ``calibration_kl``, the rewards for IPS/SNIPS, the metric name such as
        ``"HR@10"`` for ``sampled_expectation``), its other arguments as keywords.
    k : positive int or None
        Cutoff, as in the metric.
    decimals : int from 0 to 15, optional
        Student rounding: every intermediate (gain, each term, each sum, each
        precision, the final ratio) is rounded half up to this many decimals, and
        the result is shown next to the exact one. 0 rounds to whole numbers.
    discount_decimals : int from 0 to 15, optional
        Decimals of the discount table log2(rank + 1) in student rounding;
        defaults to ``decimals``. The RAG article uses a one-decimal table
        (1, 1.6, 2, 2.3, 2.6) with two-decimal arithmetic: ``decimals=2,
        discount_decimals=1``.
    **kwargs
        The metric's own keywords: ``relevant``, ``n_relevant``, ``ideal``, ``gain``
        (``y_pred`` for MSE/MAE/RMSE).

    Returns
    -------
    Explanation
        ``.rows``, ``.value`` (equal to the metric's own result), ``.rounded``,
        ``.card``; prints as an aligned text table and shows as HTML in Jupyter.

    Raises
    ------
    ValueError
        For bad input, with the metric's own message; also for a batch (explain
        shows one query), for a keyword the metric does not take, and when a
        step of the table lies beyond the float range (about 1.8e308) although
        the metric's value does not (nDCG of grade 1100 with exponential gain,
        RMSE of an error of 1e200): call the metric itself then.

    See Also
    --------
    make_worksheet : problems with an answer key built from these tables.

    Examples
    --------
    >>> e = explain("ndcg", [1, 0, 1, 0, 1], decimals=2, discount_decimals=1)
    >>> round(e.value, 4), e.rounded   # exact vs the RAG article's 1.88 / 2.13
    (0.8855, 0.88)
    >>> [row["discount_rounded"] for row in e.rows]
    [1.0, 1.6, 2.0, 2.3, 2.6]
    >>> e = explain("precision", list("ABCDE"), k=5, relevant={"B", "D", "F", "G"})
    >>> [row["mark"] for row in e.rows], e.value
    (['X', 'O', 'X', 'O', 'X'], 0.4)
    >>> explain("reciprocal_rank", list("XYZW"), relevant={"Z"}).steps
    ['RR = 1 ÷ 3 = 0.3333']
    >>> lists = {"u1": ["a", "b", "c"], "u2": ["a", "b", "d"], "u3": ["a", "c", "e"]}
    >>> counts = {"a": 50, "b": 30, "c": 10, "d": 5, "e": 4, "f": 1}
    >>> explain("long_tail_share", lists, interactions=counts).steps[-1]  # head {a, b}
    'APLT = (0.3333 + 0.3333 + 0.6667) ÷ 3 = 0.4444'
    """
    if isinstance(metric, str) and metric in REGISTRY and metric not in explainable():
        raise ValueError(
            _(
                "{metric} has no step table: its teaching entry (rankmetrics.teaching.catalogue) "
                "names none. Call rankmetrics.evaluate or the metric's function for its value."
            ).format(metric=metric)
        )
    metric = v.check_choice(metric, "metric", explainable())
    registered = REGISTRY[metric]
    family = entry(metric).explain
    k = v.check_k(k)
    decimals = None if decimals is None else v.check_decimals(decimals, "decimals")
    discount_decimals = (
        None if discount_decimals is None else v.check_decimals(discount_decimals, "discount_decimals")
    )
    if discount_decimals is not None and decimals is None:
        raise ValueError(
            _(
                "discount_decimals only applies with decimals (student rounding); got "
                "discount_decimals={discount_decimals} and decimals=None"
            ).format(discount_decimals=discount_decimals)
        )
    if decimals is not None and discount_decimals is None:
        discount_decimals = decimals
    if family in ("lists", "estimate"):
        return _explain_recommendations(registered, x, k, decimals, kwargs)
    _check_keywords(registered, kwargs)
    if registered.inputs == "ratings":
        if k is not None:
            raise ValueError(
                _("k does not apply to {metric} (it compares every rating); got k={k}").format(
                    metric=metric, k=k
                )
            )
        return explain_rating(metric, x, decimals=decimals, **kwargs)
    if registered.cutoff == "none" and k is not None:
        raise ValueError(
            _(
                "k does not apply to {metric} (its cutoff is R, the number of relevant items); got k={k}"
            ).format(metric=metric, k=k)
        )
    if family == "mean":
        return explain_mean(metric, x, k, decimals, kwargs, explain)
    queries = prepare(
        x, relevant=kwargs.get("relevant"), n_relevant=kwargs.get("n_relevant"), ideal=kwargs.get("ideal")
    )
    if not queries.single:
        raise ValueError(
            _(
                "explain shows one query at a time; x has {rows} rows. Pass one row, or use "
                "mean_reciprocal_rank / mean_average_precision for several queries."
            ).format(rows=queries.grades.shape[0])
        )
    items = list(x) if kwargs.get("relevant") is not None else None
    if family == "dcg":
        gain = v.check_choice(kwargs.get("gain", "linear"), "gain", GAINS)
        return explain_dcg(metric, x, queries, items, k, gain, decimals, discount_decimals, kwargs)
    if family == "err":
        return explain_err(metric, x, queries, items, k, decimals, kwargs)
    return explain_hits(metric, x, queries, items, k, decimals, kwargs)


def _check_keywords(metric: Metric, kwargs: dict[str, Any]) -> None:
    if metric.inputs == "ratings":
        allowed = ["y_pred"]
    else:
        allowed = [
            name
            for name, p in inspect.signature(metric.function).parameters.items()
            if p.kind is inspect.Parameter.KEYWORD_ONLY
        ]
    for name in kwargs:
        if name not in allowed:
            raise ValueError(
                _("{metric} has no keyword {name!r}; its keywords are {keywords}").format(
                    metric=metric.name, name=name, keywords=", ".join(allowed) or _("none")
                )
            )


def _explain_recommendations(metric: Metric, x: Any, k: int | None, decimals, kwargs: dict) -> Explanation:
    """A recommender measure: ``x`` is its function's first argument, the others are keywords."""
    if decimals is not None:
        raise ValueError(
            _(
                "student rounding (decimals) is offered for the ranking and rating metrics, not for {metric}"
            ).format(metric=metric.name)
        )
    if metric.cutoff == "none" and k is not None:
        raise ValueError(_("k does not apply to {metric}; got k={k}").format(metric=metric.name, k=k))
    parameters = [
        p for p in list(inspect.signature(metric.function).parameters.values())[1:] if p.name != "k"
    ]
    allowed = [p.name for p in parameters]
    for name in kwargs:
        if name not in allowed:
            raise ValueError(
                _("{metric} has no keyword {name!r}; its keywords are {keywords}").format(
                    metric=metric.name, name=name, keywords=", ".join(allowed)
                )
            )
    missing = [p.name for p in parameters if p.default is inspect.Parameter.empty and p.name not in kwargs]
    if missing:
        raise ValueError(
            _(
                "explain({metric!r}, x, ...) needs the keywords {names} (x is the function's first argument)"
            ).format(metric=metric.name, names=", ".join(f"{name}=" for name in missing))
        )
    return RECOMMENDER_STEPS[metric.name](metric.name, x, k, **kwargs)
