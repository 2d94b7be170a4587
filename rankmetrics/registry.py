"""The metric registry: every metric declared once, next to its function.

A :class:`Metric` says what the package needs to compute a metric and to find
it by name: its public function, the names :func:`rankmetrics.evaluate` accepts
(human names such as ``ndcg@10``, trec_eval's such as ``ndcg_cut_10`` and
ir_measures' such as ``nDCG@10``), its label, its cutoff rule, its parameter,
how it is summarised over queries, and what the command line needs to call it.
``evaluate``'s name parsing, the command line and the tests read :data:`METRICS`
when they run; none keeps a list of its own.

What the book and the classroom say about a metric (its step table, worksheet
problems, Korean name, formula and papers) is not here: it lives in the teaching
catalogue (:mod:`rankmetrics.teaching.catalogue`), keyed by the metric's name.
The metric modules never import it, so ``import rankmetrics`` loads no teaching
code.

Adding a metric means writing its function and one ``register(Metric(...))``
call beside it; a ``teach(Teaching(...))`` entry in the catalogue is optional.
``tests/package/test_registry_reach.py`` registers a throwaway metric, with and
without an entry, and follows it into every tool.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import cached_property
from typing import Any, TypeVar

import numpy as np

from .i18n import _

CUTOFFS = ("optional", "required", "none")
SUMMARIES = ("mean", "sum", "geometric", "none", "run_id")
PARAMETERS = (None, "level", "numbers", "gains")
TREC_LINES = ("both", "all", "queries")
# "lists": recommendation lists with a catalogue, interactions or item attributes (coverage, ...);
# "rounds": an off-policy log of rewards and probabilities (IPS); "held_out": each user's held-out
# item's full rank (sampled metrics). Their functions return one number for all users at once.
INPUTS = ("ranking", "queries", "ratings", "trec", "lists", "rounds", "held_out")

T = TypeVar("T")


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
    # trec_eval's view of each retrieved document (form_res_rels.c): judged (a grade >= 0),
    # in the pool but unjudged (a negative grade, e.g. infAP's unsampled documents), or not
    # in the qrels at all. Padding beyond n_retrieved is none of these.
    judged: np.ndarray | None = None  # (n, width) True where the document has a grade >= 0
    pooled: np.ndarray | None = None  # (n, width) True where the document is in the qrels at all
    retrieved: np.ndarray | None = None  # (n, width) True for ranks 1..n_retrieved (not padding)
    n_nonrelevant: np.ndarray | None = None  # (n,) judgements with 0 <= grade < relevance_level
    judged_grades: np.ndarray | None = None  # (n, m) every judgement's raw grade, padded with -inf
    # ties="average" (rankmetrics.metrics.ties): each rank's group of tied scores, [start, end)
    # 0-based; None when ties are broken. A metric then reports its expected value.
    tie_start: np.ndarray | None = None  # (n, width)
    tie_end: np.ndarray | None = None  # (n, width)
    # How iprec_at_recall and 11pt_avg turn a recall level into a rank: "lround" (trec_eval 10.0)
    # or "plus_0.9" (9.x); see rankmetrics.trec.conventions.REFERENCE_RULES.
    recall_rank: str = "lround"
    # The recommender libraries' conventions (rankmetrics.metrics.conventions: DISCOUNTS,
    # EVALUATE_IDEALS, PRECISION_DENOMINATORS, RECALL_DENOMINATORS).
    discount: str = "log2"
    ideal: str = "judged"
    precision_denominator: str = "k"
    recall_denominator: str = "all_relevant"
    # What shared() has computed for this group of queries (not an argument; replace() starts afresh).
    _shared: dict = dataclass_field(default_factory=dict, init=False, repr=False, compare=False)

    # trec_eval's four kinds of ranked document, derived once per group of queries and
    # shared by every measure that asks (form_res_rels.c). They need judged, pooled and
    # retrieved, which only rankmetrics.evaluate fills in.

    @cached_property
    def relevant(self) -> np.ndarray:
        """(n, width) True where the document is relevant (grade >= relevance_level)."""
        return self.binary > 0

    @cached_property
    def nonrelevant(self) -> np.ndarray:
        """(n, width) True where the document is judged non-relevant (0 <= grade < relevance_level)."""
        return self.judged & (self.binary == 0)

    @cached_property
    def unjudged(self) -> np.ndarray:
        """(n, width) True where a retrieved document has no grade >= 0 (not in the qrels, or a negative grade)."""
        return self.retrieved & ~self.judged

    @cached_property
    def pool_unjudged(self) -> np.ndarray:
        """(n, width) True where the document is in the qrels with a negative grade (in the pool, unjudged)."""
        return self.pooled & ~self.judged

    @cached_property
    def n_relevant_retrieved(self) -> np.ndarray:
        """(n,) relevant documents retrieved per query."""
        return self.binary.sum(axis=1)

    @cached_property
    def hits_so_far(self) -> np.ndarray:
        """(n, width) relevant documents in ranks 1..i, at each rank i: what P@k, recall@k, AP,
        interpolated precision and R-precision all count, counted once for all their cutoffs."""
        return np.cumsum(self.binary, axis=1)

    def hits_in_top(self, k: int | np.ndarray) -> np.ndarray:
        """(n,) relevant documents in ranks 1..k; k is one cutoff or one per query (0 counts none).

        Ranks past the end of the list hold no relevant document, so a k beyond it counts the whole list.
        """
        depth = np.minimum(np.broadcast_to(np.asarray(k, dtype=np.int64), self.n_retrieved.shape), self.width)
        counted = self.hits_so_far[np.arange(depth.size), np.maximum(depth, 1) - 1] if self.width else 0.0
        return np.where(depth >= 1, counted, 0.0)

    @property
    def width(self) -> int:
        """The number of ranks of each row (the longest list of the group)."""
        return self.binary.shape[1]

    def shared(self, compute: Callable[..., T], *args: Any) -> T:
        """``compute(self, *args)``, computed once for this group of queries and then reused.

        For an intermediate array that several measures read: the interpolated precision
        curve of the 11 ``iprec_at_recall`` levels and ``11pt_avg``, AP's running precision
        sum for ``map`` and every ``map_cut_k``, nDCG's ideal ordering for every
        ``ndcg_cut_k``. The measure's module defines ``compute`` beside its formula (the
        key is the function and ``args``); each hook asks for it here. The result is
        shared, so it is read, never written into. A measure with its own relevance level
        or gain gets its own columns (``dataclasses.replace``) and so its own values.
        """
        key = (compute, *args)
        if key not in self._shared:
            self._shared[key] = compute(self, *args)
        return self._shared[key]


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
        queries (trec_eval's counts, ``gm_map``) and for trec_eval's measures
        of judged runs (:mod:`rankmetrics.metrics.trec_measures`), whose
        functions take :func:`rankmetrics.evaluate`'s ranked arrays.
    label : str
        The short name shown in tables and worksheets (``"AP"``).
    title : str
        One line saying what it measures, as an English message id marked with
        :func:`rankmetrics.i18n.N_` (``N_("RR: the reciprocal of ...")``); the
        command line's help and the metric reference (지표 사전) show its translation.
    inputs : {"ranking", "queries", "ratings", "trec", "lists", "rounds", "held_out"}
        One ranked list; several queries (MRR, MAP); true and predicted
        ratings; only runs and judgements (:func:`rankmetrics.evaluate`);
        recommendation lists with what they are compared with (a catalogue,
        interactions, item features; coverage, novelty, ...); an off-policy log
        (IPS, SNIPS); or the full ranks of held-out items (sampled metrics).
    cutoff : {"optional", "required", "none"}
        Whether a cutoff k may, must or cannot be given.
    names : tuple of str
        Human names :func:`rankmetrics.evaluate` accepts, written ``name@k``
        when a cutoff is given (lower case).
    trec_name : str or None
        trec_eval's name without a cutoff (``"map"``, ``"recip_rank"``).
    trec_cutoff_name : str or None
        trec_eval's prefix with a cutoff: ``"ndcg_cut"`` for ``ndcg_cut_10``.
    summary : {"mean", "sum", "geometric", "none", "run_id"}
        How per-query values become trec_eval's ``all`` line: their mean, sum,
        geometric mean (each value floored at 0.00001, as trec_eval's ``gm_``
        measures), no ``all`` line (``relstring``), or the run's tag
        (``runid``).
    count : bool
        Whether the per-query values are counts (shown as integers).
    text : str or None
        For a measure whose values are text (``runid``, ``relstring``): how
        trec_eval prints one, as a format string (``"'{}'"``). None for numbers.
    trec_lines : {"both", "all", "queries"}
        Which lines trec_eval prints: per query and ``all``; only ``all``
        (``gm_map``, ``gm_bpref``, ``num_q``, ``runid``); only per query
        (``relstring``).
    parameter : {None, "level", "numbers", "gains"}
        What trec_eval's parameter of the measure is, written after its
        ``trec_name`` and ``_`` (as trec_eval prints it) or ``.`` (as ``-m``
        takes it): one number (``iprec_at_recall_0.10``, required),
        comma-separated numbers (``utility_1,-1,0,0``, ``set_F_0.5``,
        ``11pt_avg_0.2,0.5,0.8``), or ``level=gain`` pairs (``ndcg_1=3,2=9``,
        ``rbp_p=0.95``). An integer cutoff is not a parameter: see
        ``trec_cutoff_name``.
    check_parameter : callable or None
        ``check_parameter(parameter) -> str or None``: for a measure with a
        ``parameter``, why a parsed value lies outside the measure's defined
        range (``"beta must be >= 0 ..."``), or None when it is inside.
        :func:`rankmetrics.trec.names.parse_metric` refuses such a name
        unless called with ``check_range=False`` (trec_eval computes it anyway).
    evaluate : callable or None
        ``evaluate(columns, k) -> per-query array``, for :func:`rankmetrics.evaluate`;
        a metric with a ``parameter`` is called ``evaluate(columns, k, parameter)``
        when one is given.
    per_query : str or None
        For a mean over queries (MRR, MAP), the single-query metric it averages.
    command : str or None
        The command-line subcommand (``rankmetrics ap ...``).
    keywords : tuple of str
        Convention options of the function that the subcommand offers
        (``"gain"``, ``"ideal"``, ``"n_relevant"``).
    reads_ranking : bool
        False for counts that need no ranked list (``num_ret``, ``num_rel``):
        evaluate then ranks only as deep as the other metrics ask.
    averages_ties : bool
        Whether the ``evaluate`` hook computes the expected value over every
        order of tied scores when :attr:`Columns.tie_start` is given
        (``evaluate(..., ties="average")``); any other metric is refused then.
    ir_name : str or None
        The measure's name in ir_measures (``"nDCG"``, ``"P"``, ``"RBP"``),
        which :func:`rankmetrics.evaluate` also accepts as ``Name(key=value)@k``.
    ir_parameters : tuple of (str, default) pairs
        The ir_measures parameters accepted in that form: ``"rel"`` (the
        relevance level for this measure only), ``"p"`` (RBP's persistence),
        ``"dcg"`` (``"log2"`` or ``"exp-log2"``: the gain). The default is
        ir_measures' when it differs from the package's (RBP's p = 0.8),
        otherwise None.
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
    text: str | None = None
    trec_lines: str = "both"
    parameter: str | None = None
    check_parameter: Callable[[Any], str | None] | None = None
    evaluate: Callable[..., np.ndarray] | None = None
    per_query: str | None = None
    command: str | None = None
    keywords: tuple[str, ...] = ()
    reads_ranking: bool = True
    averages_ties: bool = False
    ir_name: str | None = None
    ir_parameters: tuple[tuple[str, Any], ...] = ()

    def __repr__(self) -> str:
        return self.name

    def __post_init__(self) -> None:
        for field, value, allowed in (
            ("inputs", self.inputs, INPUTS),
            ("cutoff", self.cutoff, CUTOFFS),
            ("summary", self.summary, SUMMARIES),
            ("parameter", self.parameter, PARAMETERS),
            ("trec_lines", self.trec_lines, TREC_LINES),
        ):
            if value not in allowed:
                raise ValueError(
                    _("Metric {name!r}: {field} must be one of {allowed}; got {value!r}").format(
                        name=self.name, field=field, allowed=allowed, value=value
                    )
                )


#: Every registered metric by name, in the order registered.
METRICS: dict[str, Metric] = {}


def register(metric: Metric) -> Metric:
    """Add a metric to :data:`METRICS`; a name, evaluate name or subcommand used twice is an error.

    A metric without an ``evaluate`` hook (a function only, such as ``dcg``)
    cannot be asked for by its registry name in :func:`rankmetrics.evaluate`,
    so that name does not block another metric's trec_eval name (trec_eval
    10.0's ``dcg`` measure is ``trec_dcg`` here).
    """
    if metric.name.lower() in {other.name.lower() for other in METRICS.values()}:
        raise ValueError(
            _("metric {name!r}: the name {name!r} is taken by another metric").format(name=metric.name)
        )
    taken = {name for other in METRICS.values() for name in _spellings(other)}
    for name in _spellings(metric):
        if name in taken:
            raise ValueError(
                _("metric {name!r}: the name {name_2!r} is taken by another metric").format(
                    name=metric.name, name_2=name
                )
            )
    METRICS[metric.name] = metric
    return metric


def _spellings(metric: Metric) -> set[str]:
    """The names that select the metric (lower case): in evaluate, or as a subcommand."""
    names = (
        metric.name if metric.evaluate is not None else None,
        *metric.names,
        metric.trec_name,
        metric.trec_cutoff_name,
        metric.ir_name,
        metric.command and f"command:{metric.command}",
    )
    return {name.lower() for name in names if name}


def where(**conditions: Any) -> list[Metric]:
    """The registered metrics whose attributes equal the given values, in registry order.

    ``where(inputs="ranking")``; a callable condition is a test: ``where(command=bool)``.
    """
    return [
        m
        for m in METRICS.values()
        if all(
            value(getattr(m, key)) if callable(value) else getattr(m, key) == value
            for key, value in conditions.items()
        )
    ]
