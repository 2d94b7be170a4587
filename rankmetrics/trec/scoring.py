"""The engine of :func:`rankmetrics.evaluate`: parsed measures, checked conventions, every query scored.

:func:`evaluate_measures` turns judgements and a run (TREC files, dicts or
DataFrames) into one padded grade array per group of queries and hands it to
the package's batch metrics through each registered metric's ``evaluate``
hook (:mod:`rankmetrics.registry`), so every formula still lives in exactly one
place. Reading, grouping by query and ranking are done by
:mod:`rankmetrics.trec.files` and :mod:`rankmetrics.trec.ranking`, a group of
queries at a time when ``chunk_queries`` is given, so that a run file of ten
million lines is scored in bounded memory by the very same code.
:func:`rankmetrics.evaluate` (which reads the names and settings),
:func:`rankmetrics.compare`, the command line and the explainer of one query
(:mod:`rankmetrics.trec.query_explanation`) all call it.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import replace
from itertools import compress
from typing import Any

import numpy as np

from .._arrays import sequential_sum
from ..i18n import _
from ..metrics.trec_measures import judged_counts
from ..registry import METRICS, Columns
from . import files, frames, presets, ranking
from . import presets_recsys as recsys
from .conventions import Conventions
from .evaluation import AbsentQueriesWarning, Evaluation, shown_ids, summary_terms
from .names import Measure
from .records import Records

__all__ = ["evaluate_measures"]


def evaluate_measures(
    qrels: Any,
    run: Any,
    measures: list[Measure],
    conventions: Conventions,
    chunk_queries: int | None = None,
) -> Evaluation:
    """:func:`evaluate` for parsed measures and checked conventions (what compare and the CLI call)."""
    c = conventions
    presets.check_measures(c, measures)
    if c.ties == "average":
        _check_averaged(measures, c.denominator, c.max_documents)
    uses_ndcg = any(m.family == "ndcg" for m in measures)
    whole = (
        any(m.needs_whole_list for m in measures)
        or (uses_ndcg and c.ideal == "listed")
        or (c.recall_denominator == "listed_relevant" and any(m.family == "recall" for m in measures))
        or recsys.needs_whole_list(c, measures)
    )
    deepest = max((m.k for m in measures if m.k is not None), default=1)
    # Averaging a tie group needs all of it, wherever it ends: rank the whole list.
    depth = None if whole or c.ties == "average" else deepest
    # pandas DataFrames (ir_measures' columns) become the reader's records; files and dicts go on as they are.
    qrels = files.judged(frames.judgements(qrels, c.fractional_grades), c.fractional_grades)
    if not qrels:
        raise ValueError(_("qrels holds no judgement at all"))

    tied: list[str] = []  # users with tied scores in the top k, for a library whose tie order is undefined
    weights: dict[str, list[np.ndarray]] = {}  # averaging="micro": each part's denominators, per measure

    def score(groups: Records) -> dict[str, np.ndarray]:
        # unjudged="zero": a query of the run without judgements is ranked against none.
        ranked = ranking.rank(groups, qrels, depth, c.ties, c.score_precision, c.judged_only, c.max_documents)
        tied.extend(recsys.check_data(c, measures, groups, ranked, deepest))
        return _score(ranked, measures, c, weights)

    queries: list[str] = []
    parts: list[dict[str, np.ndarray]] = []
    in_run: set[str] = set()
    unjudged: set[str] = set()
    noted: dict[str, str] = {}  # the run file's last tag: trec_eval's runid
    for groups in frames.run_records(run, chunk_queries, noted):
        in_run.update(groups.qids)
        judged = qrels.rows(groups.qids) >= 0  # one look-up per query, in C
        unjudged.update(compress(groups.qids, (~judged).tolist()))
        if c.unjudged != "zero":
            groups = groups.take(np.flatnonzero(judged))
        if len(groups):
            queries.extend(groups.qids)
            parts.append(score(groups))
    absent = sorted(set(qrels) - in_run)
    if absent and c.missing == "zero":
        queries.extend(absent)
        parts.append(score(Records.empty(absent)))
    if not queries:
        raise ValueError(
            _("no query is both judged and in the run: the qrels judge {qrels}; the run has {in_run}").format(
                qrels=_list(sorted(qrels)), in_run=_list(sorted(in_run)) or _("none")
            )
        )
    if absent and c.missing == "skip":
        warnings.warn(
            AbsentQueriesWarning(len(absent), shown_ids(absent)),
            stacklevel=2,
        )
    if tied:
        recsys.warn_ties(c, sorted(tied), deepest)

    order = sorted(range(len(queries)), key=queries.__getitem__)  # trec_eval's order: as text
    at = np.array(order, dtype=np.int64)  # one conversion, not one per measure
    per_query = {m.name: np.concatenate([part[m.name] for part in parts])[at] for m in measures}
    run_id = noted.get("tag", "")  # a run given as a dict has no tag
    for m in measures:
        if m.metric.summary == "run_id":  # known only once the whole run is read
            per_query[m.name] = np.full(len(queries), run_id, dtype=object)
    summary = {m.name: _summarise(m, per_query[m.name], run_id) for m in measures}
    for name, parts_weights in weights.items():  # averaging="micro": hits summed over denominators summed
        summary[name] = recsys.micro_mean(per_query[name], np.concatenate(parts_weights)[at])
    return Evaluation(
        tuple(map(queries.__getitem__, order)),
        per_query,
        summary,
        tuple(absent),
        tuple(sorted(unjudged)),
        c,
    )


def _check_averaged(measures: list[Measure], denominator: str, max_documents: int | None) -> None:
    """ties="average" only for the metrics that compute an expectation; refuse the rest by name."""
    refused = [m.name for m in measures if not m.metric.averages_ties]
    if refused:
        offered = ", ".join(m.name for m in METRICS.values() if m.averages_ties)
        raise ValueError(
            _(
                "ties='average' is not available for {refused}; it is for: {offered}. Use "
                "ties='docno_descending' (trec_eval) for the others"
            ).format(refused=", ".join(map(repr, refused)), offered=offered)
        )
    if denominator == "retrieved_relevant" and any(m.family == "average_precision" for m in measures):
        raise ValueError(
            _(
                "ties='average' does not go with denominator='retrieved_relevant': AP would then "
                "divide by a count that itself depends on the order of the tied documents"
            )
        )
    if max_documents is not None:
        raise ValueError(_("ties='average' does not go with max_documents: the cut could split a tie group"))


def _list(ids: Sequence[str], shown: int = 10) -> str:
    return shown_ids(list(ids), shown)


def _score(
    ranked: ranking.Ranked, measures: list[Measure], c: Conventions, weights: dict[str, list[np.ndarray]]
) -> dict[str, np.ndarray]:
    """Every metric for a group of ranked queries: one value per query, by the metric's own hook.

    With ``averaging="micro"``, each P@k's and recall@k's denominators are added to ``weights``.
    """
    level = c.relevance_level
    uses_ndcg = any(m.family == "ndcg" for m in measures)
    width = ranked.grades.shape[1]
    n_relevant, n_nonrelevant = judged_counts(ranked.judged_grades, level)
    columns = Columns(
        binary=_relevant(ranked, level),
        graded=np.maximum(ranked.grades, 0.0),  # nDCG: raw grades, a negative one earns nothing
        # nDCG's ideal ranking: every judged grade of the query (padding and negatives count 0).
        best=np.maximum(ranked.judged_grades, 0.0) if uses_ndcg and c.ideal == "judged" else None,
        n_relevant=n_relevant,
        n_retrieved=ranked.n_retrieved,
        gain=c.gain,
        denominator=c.denominator,
        judged=ranked.judged & (ranked.grades >= 0),
        pooled=ranked.judged,
        retrieved=np.arange(width) < ranked.n_retrieved[:, None],
        n_nonrelevant=n_nonrelevant,
        judged_grades=ranked.judged_grades,
        tie_start=ranked.tie_start,
        tie_end=ranked.tie_end,
        recall_rank=c.recall_rank,
        discount=c.discount,
        ideal=c.ideal,
        precision_denominator=c.precision_denominator,
        recall_denominator=c.recall_denominator,
    )
    # Names that ask for the very same computation (map and gm_map both ask for AP per query,
    # bpref and gm_bpref for bpref) share its values; only their summaries differ.
    computed: dict[tuple, np.ndarray] = {}
    values = {}
    for m in measures:
        same = (m.metric.evaluate, m.k, m.parameter, m.relevance_level, m.gain)
        if same not in computed:
            computed[same] = _value(m, columns, ranked)
        values[m.name] = computed[same]
        if c.averaging == "micro" and m.family in ("precision", "recall"):
            weights.setdefault(m.name, []).append(recsys.micro_weights(m, columns))
    return values


def _value(m: Measure, columns: Columns, ranked: ranking.Ranked) -> np.ndarray:
    if m.relevance_level is not None or m.gain is not None:
        columns = _for_measure(columns, m, ranked)
    if m.parameter is None:
        return m.metric.evaluate(columns, m.k)
    return m.metric.evaluate(columns, m.k, m.parameter)


def _for_measure(columns: Columns, m: Measure, ranked: ranking.Ranked) -> Columns:
    """The columns under one measure's own relevance level or gain (``P(rel=2)@5``).

    Relevance is read from the ranked grades by the rule :func:`_score` follows for
    ``relevance_level``, so ``P(rel=0)@5`` is ``P_5`` under ``relevance_level=0``.
    """
    if m.relevance_level is None:
        return replace(columns, gain=m.gain)
    n_relevant, n_nonrelevant = judged_counts(columns.judged_grades, m.relevance_level)
    return replace(
        columns,
        binary=_relevant(ranked, m.relevance_level),
        n_relevant=n_relevant,
        n_nonrelevant=n_nonrelevant,
        gain=m.gain or columns.gain,
    )


def _relevant(ranked: ranking.Ranked, level: float) -> np.ndarray:
    """1.0 where a ranked document is judged with a grade of at least ``level`` (trec_eval's -l), else 0.0."""
    return (ranked.judged & (ranked.grades >= level)).astype(float)


def _summarise(m: Measure, values: np.ndarray, run_id: str) -> float | str:
    if m.metric.summary == "run_id":
        return run_id
    if m.metric.summary == "none":
        return ""
    # trec_eval adds the queries' terms one after another, in query order (its 'all' line),
    # and so does sequential_sum: numpy's pairwise sum can print another last digit.
    total = sequential_sum(summary_terms(m.metric, values))
    if m.metric.summary == "sum":
        return float(total)
    if m.metric.summary == "geometric":
        return float(np.exp(total / values.size))
    return float(total / values.size)
