"""The metric registry: every metric declared once, next to its function.

A :class:`Metric` says everything the rest of the package needs to know about
a metric: its public function, the names :func:`rankmetrics.evaluate` accepts
(human names such as ``ndcg@10`` and trec_eval's such as ``ndcg_cut_10``), its
Korean label, its cutoff rule, how it is summarised over queries, which step
table :func:`rankmetrics.explain` draws for it, its command-line subcommand,
and whether worksheets use it. ``evaluate``'s name parsing, the command line,
``explain``, worksheets and the tests all read :data:`METRICS`; none keeps a
list of its own.

Adding a metric means writing its function and one ``register(Metric(...))``
call beside it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

CUTOFFS = ("optional", "required", "none")
SUMMARIES = ("mean", "sum", "geometric")
INPUTS = ("ranking", "queries", "ratings", "trec")
EXPLAIN_FAMILIES = ("dcg", "hits", "mean", "rating")


@dataclass(frozen=True)
class Columns:
    """What :func:`rankmetrics.evaluate` hands a metric for a group of ranked queries.

    Every array has one row per query, in ranked order, padded on the right.
    """

    binary: np.ndarray  # (n, width) 1.0 where the document is relevant (grade >= relevance_level)
    graded: np.ndarray  # (n, width) raw grades, negative ones as 0
    best: np.ndarray | None  # (n, m) every judged grade (nDCG's ideal), None for ideal="listed"
    n_relevant: np.ndarray  # (n,) relevant judgements per query
    n_retrieved: np.ndarray  # (n,) documents the run retrieved per query
    gain: str
    denominator: str


@dataclass(frozen=True)
class Metric:
    """One metric, as the whole package knows it.

    Attributes
    ----------
    name : str
        The public function's name (``"average_precision"``); also the name
        :func:`rankmetrics.explain` takes.
    function : callable or None
        The public function; None for a measure that exists only over many
        queries (trec_eval's counts, ``gm_map``).
    label : str
        The short name shown in tables and worksheets (``"AP"``).
    symbol : str
        How the value is written in a step table's formula (``"P"`` in
        ``P@5 = 2 ÷ 5``); the label when not given.
    title : str
        One Korean line saying what it measures (command-line help).
    inputs : {"ranking", "queries", "ratings", "trec"}
        One ranked list; several queries (MRR, MAP); true and predicted
        ratings; or only runs and judgements (:func:`rankmetrics.evaluate`).
    cutoff : {"optional", "required", "none"}
        Whether a cutoff k may, must or cannot be given.
    names : tuple of str
        Human names :func:`rankmetrics.evaluate` accepts, written ``name@k``
        when a cutoff is given (lower case).
    trec_name : str or None
        trec_eval's name without a cutoff (``"map"``, ``"recip_rank"``).
    trec_cutoff_name : str or None
        trec_eval's prefix with a cutoff: ``"ndcg_cut"`` for ``ndcg_cut_10``.
    summary : {"mean", "sum", "geometric"}
        How per-query values become trec_eval's ``all`` line.
    count : bool
        Whether the per-query values are counts (shown as integers).
    evaluate : callable or None
        ``evaluate(columns, k) -> per-query array``, for :func:`rankmetrics.evaluate`.
    explain : {"dcg", "hits", "mean", "rating"} or None
        The kind of step table :func:`rankmetrics.explain` draws.
    per_query : str or None
        For a mean over queries (MRR, MAP), the single-query metric it averages.
    command : str or None
        The command-line subcommand (``rankmetrics ap ...``).
    keywords : tuple of str
        Convention options the subcommand offers (``"gain"``, ``"ideal"``, ``"n_relevant"``).
    examples : tuple of str
        Command lines shown in the subcommand's help.
    worksheet : bool
        Whether :func:`rankmetrics.make_worksheet` can set problems on it.
    reads_ranking : bool
        False for counts that need no ranked list (``num_ret``, ``num_rel``):
        evaluate then ranks only as deep as the other metrics ask.
    """

    name: str
    function: Callable[..., Any] | None
    label: str
    title: str
    inputs: str = "ranking"
    cutoff: str = "optional"
    names: tuple[str, ...] = ()
    trec_name: str | None = None
    trec_cutoff_name: str | None = None
    summary: str = "mean"
    count: bool = False
    evaluate: Callable[[Columns, int | None], np.ndarray] | None = None
    explain: str | None = None
    per_query: str | None = None
    command: str | None = None
    keywords: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    worksheet: bool = False
    reads_ranking: bool = True
    symbol: str = ""

    def __repr__(self) -> str:
        return self.name

    def __post_init__(self) -> None:
        if not self.symbol:
            object.__setattr__(self, "symbol", self.label)
        for field, value, allowed in (
            ("inputs", self.inputs, INPUTS),
            ("cutoff", self.cutoff, CUTOFFS),
            ("summary", self.summary, SUMMARIES),
            ("explain", self.explain, (None, *EXPLAIN_FAMILIES)),
        ):
            if value not in allowed:
                raise ValueError(f"Metric {self.name!r}: {field} must be one of {allowed}; got {value!r}")


#: Every registered metric by name, in the order registered.
METRICS: dict[str, Metric] = {}


def register(metric: Metric) -> Metric:
    """Add a metric to :data:`METRICS`; a name, evaluate name or subcommand used twice is an error."""
    taken = {
        name: other.name
        for other in METRICS.values()
        for name in (
            other.name,
            *other.names,
            other.trec_name,
            other.trec_cutoff_name,
            other.command and f"command:{other.command}",
        )
        if name
    }
    for name in (
        metric.name,
        *metric.names,
        metric.trec_name,
        metric.trec_cutoff_name,
        metric.command and f"command:{metric.command}",
    ):
        if name and name.lower() in {t.lower() for t in taken}:
            raise ValueError(f"metric {metric.name!r}: the name {name!r} is taken by another metric")
    METRICS[metric.name] = metric
    return metric


def where(**conditions: Any) -> list[Metric]:
    """The registered metrics whose attributes equal the given values, in registry order.

    ``where(worksheet=True)``; a callable condition is a test: ``where(command=bool)``.
    """
    return [
        m
        for m in METRICS.values()
        if all(
            value(getattr(m, key)) if callable(value) else getattr(m, key) == value
            for key, value in conditions.items()
        )
    ]
