"""Evaluate a run over many queries, with trec_eval's conventions by default.

:func:`evaluate` turns judgements and a run (TREC files or dicts) into one
padded grade array per metric family and hands it to the package's batch
metrics through each registered metric's ``evaluate`` hook
(:mod:`rankmetrics.registry`), so every formula still lives in exactly one
place. The names are read by :mod:`rankmetrics.trec.names`, the settings
checked once by :mod:`rankmetrics.trec.conventions`; reading, grouping by
query and ranking are done by :mod:`rankmetrics.trec.files` and
:mod:`rankmetrics.trec.ranking`, a group of queries at a time when
``chunk_queries`` is given, so that a run file of ten million lines is scored
in bounded memory by the very same code. The result is an
:class:`~rankmetrics.trec.evaluation.Evaluation`.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from dataclasses import replace
from itertools import compress
from typing import Any

import numpy as np

from .. import _validation as v
from .._arrays import sequential_sum
from ..i18n import _
from ..metrics.trec_measures import judged_counts
from ..registry import METRICS, Columns
from . import files, frames, presets, ranking
from . import presets_recsys as recsys
from .conventions import MISSING, SCORE_PRECISIONS, TIES, UNSET, Conventions
from .evaluation import AbsentQueriesWarning, Evaluation, shown_ids, summary_terms
from .names import Measure, known_metrics, parse_metric, parse_metrics
from .records import Records
from .recsys_frames import exclude_seen

__all__ = [
    "MISSING",
    "SCORE_PRECISIONS",
    "TIES",
    "Conventions",
    "Evaluation",
    "Measure",
    "evaluate",
    "evaluate_measures",
    "known_metrics",
    "parse_metric",
    "parse_metrics",
]


def evaluate(
    qrels: Any,
    run: Any,
    metrics: Any,
    *,
    relevance_level: float = UNSET,
    missing: str = UNSET,
    unjudged: str = UNSET,
    ties: str = UNSET,
    gain: str = UNSET,
    ideal: str = UNSET,
    denominator: str = UNSET,
    precision_denominator: str = UNSET,
    recall_denominator: str = UNSET,
    discount: str = UNSET,
    averaging: str = UNSET,
    chunk_queries: int | None = None,
    fractional_grades: str = UNSET,
    score_precision: str = UNSET,
    judged_only: bool = UNSET,
    max_documents: int | None = UNSET,
    reference: str = UNSET,
    like: str | None = None,
    conventions: Conventions | None = None,
    exclude: Any = None,
) -> Evaluation:
    """Score a run on every judged query, the way trec_eval does unless told otherwise.

    Each query's retrieved documents are ordered by score, highest first;
    documents with equal scores are ordered by docno, descending (trec_eval's
    rule; the run's rank column plays no part). Then each metric is computed
    per query with the package's functions and summarised over queries.

    Parameters
    ----------
    qrels : path, open file, dict ``{qid: {docno: grade}}``, or pandas DataFrame
        Judgements, read by :func:`read_qrels`'s reader (``.gz`` files,
        comments and any order of lines included). A DataFrame has
        ir_measures' columns ``query_id, doc_id, relevance``
        (:mod:`rankmetrics.trec.frames`).
    run : path, open file, dict ``{qid: {docno: score}}``, or pandas DataFrame
        The system's results, read by :func:`read_run`'s reader; a DataFrame
        has the columns ``query_id, doc_id, score``.
    metrics : str or list of str
        Human names (``"ndcg@10"``, ``"p@5"``, ``"recall@100"``, ``"map"``,
        ``"map@10"``, ``"mrr"``, ``"hit_rate@10"``, ``"f1@5"``,
        ``"r_precision"``) or trec_eval's (``"ndcg_cut_10"``, ``"P_5"``,
        ``"recall_100"``, ``"map_cut_10"``, ``"success_10"``, ``"map"``,
        ``"gm_map"``, ``"ndcg"``, ``"recip_rank"``, ``"Rprec"``,
        ``"num_ret"``, ``"num_rel"``, ``"num_rel_ret"``). Plain ``"ndcg"``
        and ``"map"`` use the whole ranked list. Every other measure of
        ``trec_eval -m all_trec`` is there too, under trec_eval's names
        (:mod:`rankmetrics.metrics.trec_measures`): ``runid``, ``num_q``,
        ``bpref``, ``gm_bpref``, ``infAP``, ``iprec_at_recall_0.10``,
        ``11pt_avg``, ``Rprec_mult_0.20``, ``utility``, ``binG``, ``G``,
        ``ndcg_rel``, ``Rndcg``, ``relative_P_5``, ``set_P``,
        ``set_relative_P``, ``set_recall``, ``set_map``, ``set_F``,
        ``num_nonrel_judged_ret``, ``rbp``, ``rbp_resid``, ``unj_5``,
        trec_eval 10.0's ``dcg`` and ``ideal_dcg`` (not in ``all_trec``),
        ``relstring`` (text: the first grades, one character each) and
        ``runid`` (text: the tag of the run file's last line; "" for a dict). trec_eval's parameters are written as it prints them
        or as its ``-m`` takes them: ``relstring_20``, ``set_F_0.5``,
        ``utility_2,-1,0,0`` (p1..p4), ``11pt_avg_0.2,0.5,0.8``, gain maps
        ``ndcg_1=3,2=9`` (also ``G``, ``ndcg_rel``, ``Rndcg``, ``rbp``),
        RBP's persistence ``rbp_p=0.95`` / ``rbp_resid_p=0.95``; or
        ``ndcg.1=3,2=9``. One measure per name (trec_eval's
        ``-m P.5,10`` is two names here). The package's own measures
        ``err@20`` (ERR, grades 0-4), ``judged@10`` and ``hits@10`` too.

        ir_measures' names are accepted as ir_measures writes them, so that a
        list can be pasted: ``Name``, ``Name@k``, ``Name(key=value,...)`` or
        ``Name(key=value,...)@k``, the name spelt exactly as ir_measures
        does: ``nDCG``, ``P``, ``R``, ``AP``, ``RR``, ``Success``, ``Rprec``,
        ``RBP``, ``ERR``, ``Judged``, ``NumRet``, ``NumRel``, ``NumRelRet``.
        The parameters: ``rel=2`` (P, R, AP, RR, Success, Rprec, NumRel,
        NumRelRet) makes grade >= 2 relevant for that measure only;
        ``p=0.8`` is RBP's persistence; ``dcg=log2|exp-log2`` is nDCG's gain
        (linear or exponential) for that measure. Any other parameter
        (``judged_only``, ``gains``) is refused with a ValueError naming it.
        Each name keeps ir_measures' meaning: ``RBP`` is RBP with
        ir_measures' p = 0.8, while trec_eval's ``rbp`` has p = 0.9; ``ERR``
        is gdeval.pl's, with the top grade 4 (ir_measures runs gdeval.pl);
        ``Judged@k`` divides by the documents shown, at most k.
    relevance_level : number, default 1
        A document is relevant for the binary metrics (P, recall, AP, RR,
        R-precision, hit rate, counts) when its grade is at least this
        (trec_eval's ``-l``). nDCG ignores it and uses the raw grades, a
        negative grade counting as 0.
    missing : {"skip", "zero"}
        Judged queries that the run does not contain: ``"skip"`` leaves them
        out of the summary and warns, naming them (trec_eval's default);
        ``"zero"`` scores them 0 on every metric (trec_eval's ``-c``).
        Queries of the run without judgements are always ignored. A query
        scored 0 keeps its ``num_rel``, is floored at 0.00001 in ``gm_map``
        and ``gm_bpref``, and has an empty ``relstring``, as with trec_eval
        -c. Two of trec_eval's -c quirks are not copied: its ``all`` line
        for ``num_rel`` counts the grades > 0 of the whole qrels whatever
        ``-l`` says (``m_num_rel.c``; here: the sum of the per-query
        ``num_rel``, the same for ``-l 1``), and it zeroes ``utility`` for
        such a query (here: utility of an empty ranking, also 0 with the
        default coefficients, but p3·R with ``utility_p1,p2,p3,p4``).
    unjudged : {"skip", "zero"}, default "skip"
        Queries of the run without any judgement: ignored, as trec_eval does
        (and listed in ``unjudged_queries``), or scored 0 on every metric and
        kept in the summary, as Spark MLlib scores a query whose label set is
        empty (``like="spark-mllib"``).
    ties : {"docno_descending", "input_order", "average", "numba_quicksort"}
        How documents with equal scores are ordered: by docno, descending, as
        text (trec_eval), or as they appear in the run (a stable sort).
        ``"numba_quicksort"``: where numba's unstable ``np.argsort`` of the
        scores, in the run's order, leaves them, as ranx does
        (:func:`rankmetrics.trec.ranking.numba_quicksort_order`).
        ``"average"`` orders none of them: each metric is its expected value
        over every order of each group of tied documents (McSherry & Najork,
        ECIR 2008; scikit-learn's ``ndcg_score`` default), computed exactly
        (:mod:`rankmetrics.metrics.ties`), so renaming documents never
        changes a score. Offered by nDCG, P, R, R-precision, AP (with the
        denominators ``"all_relevant"`` and ``"min_k_relevant"``), RR,
        Success/hit rate, hits, judged, RBP and the counts; any other metric,
        and ``max_documents`` (which would cut inside a tie group), is
        refused with a ValueError.
    score_precision : {"float32", "float64"}, default: as ``reference``
        How precisely scores are compared when ranking. NIST trec_eval 10.0
        reads each score as a C double (``"float64"``, also ranx's way);
        trec_eval 9.x, and so pytrec_eval and ir_measures, keep it in a
        32-bit float, about 7 significant digits: scores such as 0.123456789
        and 0.123456788 become equal there and are ordered by the ``ties``
        rule (``"float32"``).
    gain : {"linear", "exponential", "binary"}
        nDCG's gain function; see :func:`ndcg`.
    ideal : {"judged", "listed", "relevant_ones", "k_ones", "listed_hits"}
        nDCG's ideal ranking: from every judged document (trec_eval) or from
        the retrieved ones only (scikit-learn); see :func:`ndcg`. The
        recommender libraries' ideals: one unit of gain per relevant item
        (min(k, |R|) ones), k ones (RecTools), the gains already in the top k
        (DaisyRec).
    denominator : {"all_relevant", "min_k_relevant", "retrieved_relevant"}
        What AP divides by; see :func:`average_precision`. For ``map``
        without a cutoff, ``"min_k_relevant"`` is the same as ``"all_relevant"``.
    precision_denominator : {"k", "listed", "min_k_relevant"}
        What P@k divides by: k (trec_eval), min(k, length of the list)
        (LensKit, DaisyRec, torchmetrics), min(k, |R|) (implicit).
    recall_denominator : {"all_relevant", "min_k_relevant", "listed_relevant"}
        What recall@k divides by: |R|, min(k, |R|) (LensKit), the relevant
        items in the list (torchmetrics).
    discount : {"log2", "lenskit"}
        nDCG's discount: log2(rank + 1), or LensKit's max(1, log2 rank).
    averaging : {"per_user", "micro"}
        The summary: the mean over queries (users), or for P@k and recall@k
        the sum of hits over the sum of denominators (implicit's precision).
    chunk_queries : positive int, optional
        Read, rank and score the run this many queries at a time, holding only
        the judgements, one group of queries and the per-query results in
        memory: for run files too large to load whole (ten million lines
        take about 1.2 GB as Python dicts; read in groups of 1,000 queries,
        about 60 MB besides the judgements). The run must then be grouped by
        query, as TREC runs are; a query that comes back after other queries
        is an error naming it and its line. The values are those of the
        whole run (a sum over a padded row may differ in its last bit).
        Default: the whole run at once, in any order.
    fractional_grades : {"error", "truncate", "keep"}, default "error"
        What a judgement such as 0.5 does: refused, naming the line
        (trec_eval would silently read it as 0); cut toward zero as
        trec_eval does; or kept as a graded relevance. See :func:`read_qrels`.
    judged_only : bool, default False
        Score only judged documents (trec_eval's ``-J``): every retrieved
        document without a grade >= 0 (not in the qrels, or in them with a
        negative grade) is dropped and the ones below move up. ``num_ret``
        then counts the judged documents.
    max_documents : positive int, optional
        Keep only each query's first ``max_documents`` ranked documents
        (trec_eval's ``-M``), before ``judged_only`` drops any. Default: all.
    reference : {"trec_eval-10", "trec_eval-9"}, default "trec_eval-10"
        Which trec_eval's version-dependent rules to follow, all at once
        (:data:`rankmetrics.trec.conventions.REFERENCE_RULES`): the scores'
        precision (unless ``score_precision`` is given) and how
        ``iprec_at_recall`` and ``11pt_avg`` turn a recall level r into a
        number of relevant documents: ``lround(r * R)`` in 10.0,
        ``int(r * R + 0.9)`` in 9.x. ``"trec_eval-9"`` reproduces
        pytrec_eval and ir_measures.
    like : str, optional
        A preset (:data:`rankmetrics.trec.conventions.PRESETS`,
        :mod:`rankmetrics.trec.presets`): defaults that reproduce a reference
        implementation: ``"trec_eval-10"``, ``"trec_eval-9"`` (pytrec_eval,
        ir_measures), ``"ranx"``, ``"sklearn"``, ``"torchmetrics"``,
        ``"spark-mllib"``, and the recommender libraries'
        (:mod:`rankmetrics.trec.presets_recsys`): ``"recbole"``,
        ``"recommenders"``, ``"lenskit"``, ``"cornac"``, ``"implicit"``,
        ``"rectools"``, ``"replay"``, ``"evidently"``, ``"daisyrec"``. A
        library's preset refuses, with a ValueError saying why, the measures
        it does not reproduce, and the data on which the library crashes or
        leaves [0, 1] (naming the users). Arguments given
        explicitly override it; ``result.conventions.card()`` says which
        setting came from where.
    conventions : Conventions, optional
        Settings built earlier with :meth:`Conventions.resolve`, used as the
        defaults (explicit arguments still override them).
    exclude : DataFrame ``user_id, item_id`` or dict ``{user: items}``, optional
        Items each user saw in training, removed from that user's list
        before it is cut at k, as recommender libraries filter at recommend
        time (:func:`rankmetrics.trec.recsys_frames.exclude_seen`). The
        counts removed are ``result.excluded`` (``{user: count}``) and show
        in the caption. Users without a list are passed over; when no user
        of ``exclude`` has one, a ValueError.

    Returns
    -------
    Evaluation
        ``per_query`` values, the ``summary`` (trec_eval's ``all``), the
        missing and unjudged queries, and the conventions used. Shows as a
        table in a notebook and in ``print``.

    Raises
    ------
    ValueError
        For an unknown metric, a bad convention argument, when no query is
        both judged and in the run, or (with ``chunk_queries``) for a run
        file that is not grouped by query.

    See Also
    --------
    read_qrels, read_run, compare

    References
    ----------
    NIST, trec_eval (https://github.com/usnistgov/trec_eval): measure definitions in
    ``m_*.c``, ordering in ``form_res_rels.c``.

    Examples
    --------
    >>> qrels = {"q1": {"d1": 2, "d2": 0, "d3": 1}, "q2": {"d4": 1}}
    >>> run = {"q1": {"d1": 0.9, "d2": 0.8, "d3": 0.1}, "q2": {"d5": 0.7, "d4": 0.5}}
    >>> result = evaluate(qrels, run, ["map", "p@2", "ndcg_cut_3"])
    >>> result.summary["map"]  # q1: (1 + 2/3) / 2; q2: (1/2) / 1
    0.6666666666666666
    >>> result.per_query["p@2"].tolist()
    [0.5, 0.5]
    >>> print(result)
    query     map     p@2  ndcg_cut_3
    -----  ------  ------  ----------
    q1     0.8333  0.5000      0.9502
    q2     0.5000  0.5000      0.6309
    -----  ------  ------  ----------
    all    0.6667  0.5000      0.7906
    2 queries; relevance_level=1, ties=docno_descending, missing=skip; rankmetrics 0.2.0, reference trec_eval-10
    >>> evaluate(qrels, run, ["map", "p@2", "ndcg_cut_3"], chunk_queries=1).summary == result.summary
    True

    ir_measures' names, with a relevance level for one measure only:

    >>> pasted = evaluate(qrels, run, ["AP", "P@2", "P(rel=2)@2", "R(rel=2)@3", "nDCG@3", "RBP(p=0.5)"])
    >>> pasted.per_query["P(rel=2)@2"].tolist()  # q1: only d1 has grade >= 2; q2: none
    [0.5, 0.0]
    >>> pasted.summary["AP"] == result.summary["map"]
    True
    >>> round(pasted.value("RBP(p=0.5)", "q2"), 4)  # d4 (grade 1) at rank 2: 0.5 * 0.5
    0.25
    >>> evaluate(qrels, run, "P(judged_only=True)@2")
    Traceback (most recent call last):
    ...
    ValueError: 'P(judged_only=True)@2': 'judged_only' is not a parameter of P here (supported: rel=)

    Tied scores averaged over every order (scikit-learn's ``ndcg_score`` way):

    >>> tied = {"q1": {"d1": 0.5, "d2": 0.5, "d3": 0.1}, "q2": {"d4": 0.5}}
    >>> evaluate(qrels, tied, "rr").per_query["rr"].tolist()  # q1: d2 before d1 (docno descending)
    [0.5, 1.0]
    >>> evaluate(qrels, tied, "rr", ties="average").per_query["rr"].tolist()  # q1: (1 + 1/2) / 2
    [0.75, 1.0]
    """
    measures = parse_metrics(metrics)
    settings = Conventions.resolve(
        like,
        base=conventions,
        relevance_level=relevance_level,
        missing=missing,
        unjudged=unjudged,
        ties=ties,
        score_precision=score_precision,
        fractional_grades=fractional_grades,
        gain=gain,
        ideal=ideal,
        denominator=denominator,
        precision_denominator=precision_denominator,
        recall_denominator=recall_denominator,
        discount=discount,
        averaging=averaging,
        judged_only=judged_only,
        max_documents=max_documents,
        reference=reference,
    )
    if chunk_queries is not None:
        chunk_queries = v.check_k(chunk_queries, "chunk_queries")
    if exclude is None:
        return evaluate_measures(qrels, run, measures, settings, chunk_queries)
    run, removed = exclude_seen(run, exclude)
    settings = replace(settings, excluded=removed)  # the card says how many were removed
    return replace(evaluate_measures(qrels, run, measures, settings, chunk_queries), excluded=removed)


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
    qrels_given = qrels
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
        (qrels_given, run) if _rereadable(qrels_given) and _rereadable(run) else (),
    )


def _rereadable(source: Any) -> bool:
    """A path or a dict can be read again (Evaluation.explain); an open file cannot."""
    return isinstance(source, (str, os.PathLike, dict))


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
        binary=(ranked.judged & (ranked.grades >= level)).astype(float),
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
            computed[same] = _value(m, columns)
        values[m.name] = computed[same]
        if c.averaging == "micro" and m.family in ("precision", "recall"):
            weights.setdefault(m.name, []).append(recsys.micro_weights(m, columns))
    return values


def _value(m: Measure, columns: Columns) -> np.ndarray:
    if m.relevance_level is not None or m.gain is not None:
        columns = _for_measure(columns, m)
    if m.parameter is None:
        return m.metric.evaluate(columns, m.k)
    return m.metric.evaluate(columns, m.k, m.parameter)


def _for_measure(columns: Columns, m: Measure) -> Columns:
    """The columns under one measure's own relevance level or gain (``P(rel=2)@5``)."""
    if m.relevance_level is None:
        return replace(columns, gain=m.gain)
    # rel > 0, so the clipped grades decide relevance as the raw ones would.
    n_relevant, n_nonrelevant = judged_counts(columns.judged_grades, m.relevance_level)
    return replace(
        columns,
        binary=(columns.pooled & (columns.graded >= m.relevance_level)).astype(float),
        n_relevant=n_relevant,
        n_nonrelevant=n_nonrelevant,
        gain=m.gain or columns.gain,
    )


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
