"""Compare two runs on the same queries: paired tests, a bootstrap interval, Holm's correction.

Two systems are compared query by query: for each query the difference
``b - a`` of a metric, then tests of whether the mean difference could be 0.
The statistics come from :mod:`scipy.stats` (``ttest_rel``,
``permutation_test``, ``bootstrap``), seeded, so a result can be reproduced
exactly. Written here are Holm's step-down adjustment, a few lines, because
SciPy does not ship it, and the permutation p-value's count from SciPy's
null distribution, with a tolerance for float noise that SciPy's misses when
the observed mean difference is 0 (values on a grid, such as P@5).
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import _validation as v
from ..i18n import N_, _
from ..registry import Metric
from ..tables import html_table, text_table
from . import presets
from .conventions import Conventions
from .evaluate import Evaluation, evaluate_measures, explaining
from .evaluation import summary_terms
from .names import parse_metrics

ALTERNATIVES = ("two-sided", "greater", "less")


def alternative_label(alternative: str) -> str:
    """How a caption names the test's alternative (``alternative=`` is the argument's value)."""
    labels = {
        "two-sided": _("two-sided"),
        "greater": _("one-sided: is b greater?"),
        "less": _("one-sided: is b less?"),
    }
    return labels.get(alternative, str(alternative))


CI_METHODS = ("BCa", "percentile", "basic")

# Differences this close to constant make the t statistic 0/0 and the
# bootstrap distribution a single point; they are handled without SciPy.
_CONSTANT = 1e-12

# Why a t-test p-value is nan, in the table's note.
_NO_SPREAD = N_("every query's difference is the same, so the t-test is undefined (its spread is 0)")


def holm(p_values: Any) -> np.ndarray:
    """Holm's step-down adjustment of p-values for testing several hypotheses at once.

    Sort the m p-values from small to large, multiply the i-th smallest
    (i = 0, 1, ...) by m - i, carry the running maximum forward so the order
    is kept, and cap at 1. Rejecting where the adjusted value is below alpha
    keeps the chance of any false rejection at most alpha, whatever the
    dependence between the tests, and rejects at least as often as Bonferroni.

    A ``nan`` p-value (a test that could not be computed, such as a t-test on
    differences without spread) stays ``nan``, and the others are adjusted
    over the m tests that were computed: a hypothesis that was never tested
    cannot be falsely rejected (R's ``p.adjust`` does the same with ``NA``).

    Parameters
    ----------
    p_values : sequence of numbers in [0, 1], or nan

    Returns
    -------
    numpy.ndarray of adjusted p-values, in the input order.

    References
    ----------
    Holm, "A simple sequentially rejective multiple test procedure",
    Scandinavian Journal of Statistics 6(2), 1979.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03]).tolist()  # 3*0.01, max(2*0.03, 0.03), max(1*0.04, 0.06)
    [0.03, 0.06, 0.06]
    >>> holm([0.01, float("nan"), 0.04]).tolist()  # two tests computed: 2*0.01, max(1*0.04, 0.02)
    [0.02, nan, 0.04]
    """
    p = v.to_float_array(p_values, "p_values")
    if p.ndim != 1 or p.size == 0:
        raise ValueError(
            _("p_values must be a non-empty 1-D sequence; got {p_values}").format(p_values=v.show(p_values))
        )
    tested = ~np.isnan(p)
    if not np.all((p[tested] >= 0) & (p[tested] <= 1)):
        raise ValueError(
            _("p_values must lie in [0, 1] (or be nan: not computed); got {p_values}").format(
                p_values=v.show(p_values)
            )
        )
    out = np.full(p.shape, np.nan)
    defined = p[tested]
    order = np.argsort(defined, kind="stable")
    scaled = (defined.size - np.arange(defined.size)) * defined[order]
    adjusted = np.empty_like(defined)
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    out[tested] = adjusted
    return out


@dataclass(frozen=True)
class MetricComparison:
    """The comparison of one metric between run a and run b (difference = b - a)."""

    metric: str
    mean_a: float  # run a's summary, as evaluate shows it: a mean, a sum (counts) or a geometric mean
    mean_b: float
    difference: float  # mean_b - mean_a
    ci_low: float
    ci_high: float
    t_statistic: float  # nan when every difference is the same (no spread)
    p_ttest: float  # nan likewise: the t-test is undefined
    p_permutation: float
    p_ttest_holm: float
    p_permutation_holm: float
    wins: int  # queries where b scores higher
    losses: int  # queries where b scores lower
    ties: int


@dataclass(frozen=True, repr=False)
class Comparison:
    """What :func:`compare` returns: one :class:`MetricComparison` per metric, and both evaluations.

    Attributes
    ----------
    results : dict
        ``{metric: MetricComparison}``.
    a, b : Evaluation
        The per-query values of each run.
    settings : dict
        ``n_resamples``, ``confidence_level``, ``alternative``, ``ci_method``, ``random_state``,
        and ``hypotheses``: how many distinct measures Holm's correction counted.
    """

    results: dict[str, MetricComparison]
    a: Evaluation
    b: Evaluation
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def queries(self) -> tuple[str, ...]:
        return self.a.queries

    def __getitem__(self, metric: str) -> MetricComparison:
        if metric not in self.results:
            raise KeyError(
                _("metric {metric!r} was not compared; the metrics are {results}").format(
                    metric=metric, results=list(self.results)
                )
            )
        return self.results[metric]

    def differences(self, metric: str) -> np.ndarray:
        """Per-query differences b - a of one metric, aligned with ``queries``."""
        self[metric]
        return self.b.per_query[metric] - self.a.per_query[metric]

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """``{metric: {field: value}}`` in plain Python numbers."""
        return {
            m: {name: value for name, value in vars(row).items() if name != "metric"}
            for m, row in self.results.items()
        }

    def _table(self) -> tuple[list[str], list[list[str]]]:
        def p(value: float) -> str:
            return "n/a" if np.isnan(value) else f"{value:.4f}"

        level = f"{self.settings.get('confidence_level', 0.95):.0%}"
        header = [
            _("metric"),
            "a",
            "b",
            "b - a",
            _("{level} CI").format(level=level),
            _("p (t)"),
            _("p (perm.)"),
            _("Holm p (perm.)"),
            "+/=/-",
        ]
        rows = [
            [
                r.metric,
                f"{r.mean_a:.4f}",
                f"{r.mean_b:.4f}",
                f"{r.difference:+.4f}",
                f"[{r.ci_low:+.4f}, {r.ci_high:+.4f}]",
                p(r.p_ttest),
                p(r.p_permutation),
                p(r.p_permutation_holm),
                f"{r.wins}/{r.ties}/{r.losses}",
            ]
            for r in self.results.values()
        ]
        return header, rows

    def _caption(self) -> str:
        s = self.settings
        return (
            _(
                "{queries} queries, difference = b - a; paired t-test, paired permutation test "
                "({alternative}), {ci_method} bootstrap CI; Holm across {metrics} metrics; "
                "n_resamples={n_resamples}, random_state={random_state}"
            ).format(
                queries=len(self.queries),
                alternative=alternative_label(s.get("alternative")),
                ci_method=s.get("ci_method"),
                metrics=s.get("hypotheses", len(self.results)),
                n_resamples=s.get("n_resamples"),
                random_state=s.get("random_state"),
            )
            + self._notes()
        )

    def _notes(self) -> str:
        """Why a p-value reads n/a, and what a one-point interval means; empty when nothing needs saying."""
        flat = [m for m, r in self.results.items() if np.isnan(r.p_ttest)]
        if not flat:
            return ""
        return _(
            ". Note for {metrics}: p (t) n/a: {reason}; the bootstrap interval is then a "
            "single point, since every resample has the same mean. The permutation test still applies."
        ).format(metrics=", ".join(flat), reason=_(_NO_SPREAD))

    def __str__(self) -> str:
        header, rows = self._table()
        return text_table(header, rows) + "\n" + self._caption()

    def __repr__(self) -> str:
        return _("<Comparison: {count} queries, metrics {metrics}>").format(
            count=len(self.queries), metrics=list(self.results)
        )

    def _repr_html_(self) -> str:
        header, rows = self._table()
        return html_table(
            header, rows, caption=self._caption(), css_class="rankmetrics-comparison", row_headers=True
        )


def compare(
    run_a: Any,
    run_b: Any,
    qrels: Any,
    metrics: Any,
    *,
    n_resamples: int = 9999,
    confidence_level: float = 0.95,
    alternative: str = "two-sided",
    ci_method: str = "BCa",
    random_state: int = 0,
    like: str | None = None,
    **conventions: Any,
) -> Comparison:
    """Compare two runs query by query: is run b's mean different from run a's?

    For each metric, the per-query differences d = b - a are tested three ways:

    - paired t-test (``scipy.stats.ttest_rel``): assumes the mean of d is
      roughly normal; quick, and usually close to the permutation test;
    - paired randomization test (``scipy.stats.permutation_test`` with
      ``permutation_type="samples"``): under "no difference" the labels a/b
      of each query are exchangeable, so it swaps them at random (every one
      of the 2**n swaps when n_resamples allows) and asks how often the mean
      difference is at least as extreme; it assumes no distribution;
    - a bootstrap confidence interval of the mean difference
      (``scipy.stats.bootstrap``), resampling queries with replacement.

    When every query's difference is the same (identical runs, or every query
    moved by the same amount), the t statistic is 0/0 or infinite: the t-test
    is undefined, so ``t_statistic`` and ``p_ttest`` are ``nan`` (the table
    shows n/a and a note says why; Holm leaves them out), the bootstrap
    interval is the single point d, and the permutation test stays exact
    (2 / 2**n for a constant shift on n queries, 1 for no change).

    Each metric is compared on the number :func:`evaluate` shows for it:
    ``mean_a`` and ``mean_b`` are the runs' summaries (a sum for the counts
    such as ``num_rel_ret``, a geometric mean for ``gm_map`` and
    ``gm_bpref``), ``difference`` is ``mean_b - mean_a``, and the interval is
    of that difference. A geometric mean is tested on ``ln(max(x, 0.00001))``
    per query, the logarithms trec_eval averages, so ``gm_map`` is not
    ``map``'s test again.

    With several metrics, Holm's correction (:func:`holm`) adjusts each test's
    p-values across the metrics; one measure asked for under two names
    (``map`` and ``AP``) is one hypothesis, tested once. Randomness is seeded from ``random_state``
    and the metric's name, so a metric's numbers do not change when other
    metrics are added.

    Parameters
    ----------
    run_a, run_b : path, open file, or dict ``{qid: {docno: score}}``
        The baseline and the challenger, evaluated on the same queries.
    qrels : path, open file, or dict ``{qid: {docno: grade}}``
    metrics : str or list of str
        As in :func:`evaluate`.
    n_resamples : int, default 9999
        Resamples of the permutation test and of the bootstrap.
    confidence_level : float, default 0.95
    alternative : {"two-sided", "greater", "less"}
        For both tests; "greater" asks whether b scores higher than a.
    ci_method : {"BCa", "percentile", "basic"}
        The bootstrap interval (SciPy's default is BCa).
    random_state : int, default 0
        Seed of the resampling.
    like : str, optional
        A preset of conventions, as in :func:`evaluate`.
    **conventions
        Every convention of :func:`evaluate` (the fields of
        :class:`rankmetrics.trec.conventions.Conventions`: ``relevance_level``,
        ``missing``, ``ties``, ``score_precision``, ``gain``, ``ideal``,
        ``denominator``, ``fractional_grades``, ``judged_only``,
        ``max_documents``), checked once and used for both runs; also
        ``conventions=`` (a ``Conventions`` object) and ``chunk_queries``.

    Returns
    -------
    Comparison

    Raises
    ------
    ValueError
        When the two runs are evaluated on different queries (pass
        ``missing="zero"`` to score absent queries 0 in both), when fewer
        than 2 queries are evaluated, for a text measure (``runid``,
        ``relstring``: no difference to test), for a measure whose summary
        is not made from its per-query values alone (recall@k with
        ``averaging="micro"``: a sum of hits over a sum of denominators), or
        for a bad argument.

    See Also
    --------
    evaluate, holm

    References
    ----------
    Smucker, Allan & Carterette, "A comparison of statistical significance tests for information
    retrieval evaluation", CIKM 2007; Efron & Tibshirani, *An Introduction to the Bootstrap* (1993);
    Holm, Scandinavian Journal of Statistics 6(2), 1979.

    Examples
    --------
    >>> qrels = {q: {"d1": 1, "d2": 1} for q in "abcd"}
    >>> run_a = {q: {"d1": 0.2, "d2": 0.1, "d3": 0.9} for q in "abcd"}
    >>> run_b = {"a": {"d1": 0.9, "d2": 0.1, "d3": 0.5}, "b": {"d1": 0.9, "d2": 0.8, "d3": 0.5},
    ...          "c": {"d1": 0.2, "d2": 0.1, "d3": 0.9}, "d": {"d1": 0.9, "d2": 0.1, "d3": 0.5}}
    >>> result = compare(run_a, run_b, qrels, "mrr")
    >>> result["mrr"].difference  # three queries go from RR 1/2 to 1, one stays
    0.375
    >>> result["mrr"].p_permutation  # all 2**4 = 16 swaps; 4 give a mean as far from 0
    0.25
    """
    try:
        from scipy import stats
    except ImportError:  # numpy is the package's only hard dependency
        raise ImportError(
            _("compare() needs SciPy 1.15 or newer for its tests: pip install 'rankmetrics[stats]'")
        ) from None

    n_resamples = v.check_k(n_resamples, "n_resamples")
    if n_resamples is None:
        raise ValueError(_("n_resamples must be a positive integer; got None"))
    level = v.check_probability(confidence_level, "confidence_level")
    alternative = v.check_choice(alternative, "alternative", ALTERNATIVES)
    ci_method = v.check_choice(ci_method, "ci_method", CI_METHODS)
    if isinstance(random_state, bool) or not isinstance(random_state, (int, np.integer)) or random_state < 0:
        raise ValueError(
            _("random_state must be a non-negative integer seed; got {random_state}").format(
                random_state=v.show(random_state)
            )
        )

    measures = parse_metrics(metrics)
    text = [m.name for m in measures if m.metric.text is not None]
    if text:
        raise ValueError(
            _(
                "compare() cannot compare {text}: a text measure (the run's tag, the first grades as "
                "characters) has no difference between runs; compare numeric measures"
            ).format(text=", ".join(map(repr, text)))
        )
    chunk_queries = v.check_k(conventions.pop("chunk_queries", None), "chunk_queries")
    settings = Conventions.resolve(
        presets.find(like), base=conventions.pop("conventions", None), **conventions
    )
    a = explaining(evaluate_measures(qrels, run_a, measures, settings, chunk_queries), qrels, run_a)
    b = explaining(evaluate_measures(qrels, run_b, measures, settings, chunk_queries), qrels, run_b)
    if a.queries != b.queries:
        only_a = sorted(set(a.queries) - set(b.queries))
        only_b = sorted(set(b.queries) - set(a.queries))
        raise ValueError(
            _(
                "run_a and run_b are evaluated on different queries (only run_a: {only_a}; only "
                "run_b: {only_b}); a paired comparison needs the same queries: pass missing='zero' to "
                "score a judged query that a run lacks as 0 (trec_eval -c)"
            ).format(only_a=", ".join(only_a) or _("none"), only_b=", ".join(only_b) or _("none"))
        )
    if len(a.queries) < 2:
        raise ValueError(
            _("a paired comparison needs at least 2 queries; got {n_queries}").format(
                n_queries=len(a.queries)
            )
        )

    # One measure asked for under two names (map and AP, P@5 and P_5) is one hypothesis: it is
    # tested once, under its first name, and counted once by Holm. map and gm_map are two: they
    # summarise the same per-query values differently, so they test different things.
    by_name = {m.name: m for m in measures}
    tested: dict[tuple, str] = {}
    rows: dict[str, dict[str, Any]] = {}
    for metric in a.metrics:
        m = by_name[metric]
        same = (m.metric.evaluate, m.k, m.parameter, m.relevance_level, m.gain, m.metric.summary)
        if same in tested:
            continue
        tested[same] = metric
        seed = [int(random_state), zlib.crc32(metric.encode("utf-8"))]
        rows[metric] = _one_metric(
            stats, m.metric, a, b, metric, seed, n_resamples, level, alternative, ci_method
        )
    p_t = dict(zip(rows, holm([r["p_ttest"] for r in rows.values()])))
    p_perm = dict(zip(rows, holm([r["p_permutation"] for r in rows.values()])))
    results = {}
    for metric in a.metrics:
        m = by_name[metric]
        first = tested[(m.metric.evaluate, m.k, m.parameter, m.relevance_level, m.gain, m.metric.summary)]
        results[metric] = MetricComparison(
            metric=metric,
            p_ttest_holm=float(p_t[first]),
            p_permutation_holm=float(p_perm[first]),
            **rows[first],
        )
    settings = {
        "n_resamples": n_resamples,
        "confidence_level": level,
        "alternative": alternative,
        "ci_method": ci_method,
        "random_state": int(random_state),
        "hypotheses": len(rows),
    }
    return Comparison(results, a, b, settings)


def _permutation_p(null: np.ndarray, observed: float, d: np.ndarray, alternative: str, exact: bool) -> float:
    """The permutation test's p-value: the share of sign flips whose mean is as extreme as observed.

    Two flips whose means are equal in exact arithmetic can differ in floats:
    P@5 differences such as 0.4, -0.4, 0.2, -0.2, ... have mean 0, but their
    float mean is about 1e-17, and half of the flips that also give 0 would
    then count as less extreme. So means within a tolerance relative to the
    values' magnitude count as equal: a mean of n numbers of size at most M
    is off by at most about n * eps * M. (SciPy's own tolerance is relative
    to the observed mean, which is itself ~0 here.) As SciPy does, an exact
    enumeration of every flip counts the flips; random flips count the
    observed order as one of them, (count + 1) / (n_resamples + 1).
    """
    tolerance = 100 * np.finfo(float).eps * d.size * float(np.max(np.abs(d)))
    extra = 0 if exact else 1
    greater = (np.count_nonzero(null >= observed - tolerance) + extra) / (null.size + extra)
    less = (np.count_nonzero(null <= observed + tolerance) + extra) / (null.size + extra)
    p = {"greater": greater, "less": less, "two-sided": 2 * min(greater, less)}[alternative]
    return float(min(p, 1.0))


def _one_metric(
    stats: Any,
    registered: Metric,
    a: Evaluation,
    b: Evaluation,
    metric: str,
    seed: list[int],
    n_resamples: int,
    level: float,
    alternative: str,
    ci_method: str,
) -> dict[str, Any]:
    """One metric's row: its summaries as evaluate shows them, the tests, the interval and the counts.

    The tests read each query's term of the summary (:func:`summary_terms`): the
    value itself for a mean or a sum, ln(max(value, 0.00001)) for a geometric
    mean. A sum is n times a mean, so both test the same hypothesis; its
    difference and interval are in the sum's units, n times the mean's.
    """
    values_a, values_b = a.per_query[metric], b.per_query[metric]
    x, y = summary_terms(registered, values_a), summary_terms(registered, values_b)
    d = y - x
    summarise = np.sum if registered.summary == "sum" else np.mean
    mean_a, mean_b = a.summary[metric], b.summary[metric]
    geometric = registered.summary == "geometric"
    # A mean or a sum of the differences is the difference of the means or sums; a geometric
    # mean is not linear, so its difference is that of the two geometric means.
    difference = mean_b - mean_a if geometric else float(summarise(d))
    for terms, summary in ((x, mean_a), (y, mean_b)):
        of_terms = np.exp(np.mean(terms)) if geometric else summarise(terms)
        if not np.isclose(of_terms, summary, rtol=1e-9, atol=1e-12):
            # averaging="micro": P@k and recall@k as the users' hits summed over their
            # denominators summed, a weighted mean the per-query differences do not test.
            raise ValueError(
                _(
                    "compare() cannot test {metric}: its summary ({summary!r}) is not made from its "
                    "per-query values alone ({of_terms!r}), as with averaging='micro'; compare with "
                    "averaging='per_user'"
                ).format(metric=metric, summary=summary, of_terms=float(of_terms))
            )

    def mean_difference(first: np.ndarray, second: np.ndarray, axis: int = -1) -> np.ndarray:
        return np.mean(first - second, axis=axis)

    permutation = stats.permutation_test(
        (y, x),
        mean_difference,
        permutation_type="samples",
        vectorized=True,
        n_resamples=n_resamples,
        alternative=alternative,
        rng=np.random.default_rng([*seed, 1]),
    )
    p_permutation = _permutation_p(
        permutation.null_distribution, permutation.statistic, d, alternative, exact=2**d.size <= n_resamples
    )
    if np.ptp(d) <= _CONSTANT:
        # Every query moved by the same amount (0 included): the t statistic is
        # 0/0 or +-inf, so the t-test says nothing; a p-value of 0 would claim
        # significance from no spread at all. Report nan (the table says why).
        # The permutation test above is still exact: with every difference c != 0
        # only "all swapped" and "none swapped" reach |c|, so p = 2 / 2**n.
        t_statistic = p_ttest = math.nan
    else:
        t = stats.ttest_rel(y, x, alternative=alternative)
        t_statistic, p_ttest = float(t.statistic), float(t.pvalue)
    if geometric:
        # The interval of exp(mean of y) - exp(mean of x), resampling the queries in pairs.
        def statistic(first: np.ndarray, second: np.ndarray, axis: int = -1) -> np.ndarray:
            return np.exp(np.mean(second, axis=axis)) - np.exp(np.mean(first, axis=axis))

        samples, fixed = (x, y), max(np.ptp(x), np.ptp(y)) <= _CONSTANT
    else:
        statistic, samples, fixed = summarise, (d,), np.ptp(d) <= _CONSTANT
    if fixed:  # every bootstrap resample gives the same difference: the interval is that point
        low = high = difference
    else:
        interval = stats.bootstrap(
            samples,
            statistic,
            paired=geometric,
            vectorized=True,
            n_resamples=n_resamples,
            confidence_level=level,
            method=ci_method,
            rng=np.random.default_rng([*seed, 2]),
        ).confidence_interval
        low, high = float(interval.low), float(interval.high)
    return {
        "mean_a": mean_a,
        "mean_b": mean_b,
        "difference": difference,
        "ci_low": low,
        "ci_high": high,
        "t_statistic": t_statistic,
        "p_ttest": p_ttest,
        "p_permutation": p_permutation,
        "wins": int(np.count_nonzero(d > 0)),
        "losses": int(np.count_nonzero(d < 0)),
        "ties": int(np.count_nonzero(d == 0)),
    }
