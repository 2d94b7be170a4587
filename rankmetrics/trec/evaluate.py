"""Evaluate a run over many queries, with trec_eval's conventions by default.

:func:`evaluate` reads the metric names (:mod:`rankmetrics.trec.names`) and
checks the settings once (:mod:`rankmetrics.trec.conventions`, a preset by
name from :mod:`rankmetrics.trec.presets`); :func:`rankmetrics.trec.scoring.evaluate_measures`
scores every query, through each registered metric's ``evaluate`` hook, so
every formula still lives in exactly one place. The result is an
:class:`~rankmetrics.trec.evaluation.Evaluation`, handed the explainer of one
query (:mod:`rankmetrics.trec.query_explanation`) when its inputs can be read
again.
"""

from __future__ import annotations

import os
from dataclasses import replace
from functools import partial
from typing import Any

from .. import _validation as v
from . import presets
from .conventions import MISSING, SCORE_PRECISIONS, TIES, UNSET, Conventions
from .evaluation import Evaluation
from .names import Measure, known_metrics, parse_metric, parse_metrics
from .query_explanation import explain_query
from .recsys_frames import exclude_seen
from .scoring import evaluate_measures

__all__ = [
    "MISSING",
    "SCORE_PRECISIONS",
    "TIES",
    "Conventions",
    "Evaluation",
    "Measure",
    "evaluate",
    "evaluate_measures",
    "explaining",
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
        A preset (:data:`rankmetrics.trec.presets.PRESETS`,
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
        presets.find(like),
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
        return explaining(evaluate_measures(qrels, run, measures, settings, chunk_queries), qrels, run)
    run, removed = exclude_seen(run, exclude)
    settings = replace(settings, excluded=removed)  # the card says how many were removed
    result = evaluate_measures(qrels, run, measures, settings, chunk_queries)
    return replace(explaining(result, qrels, run), excluded=removed)


def explaining(result: Evaluation, qrels: Any, run: Any) -> Evaluation:
    """``result`` with its explainer: :meth:`Evaluation.explain` reads ``qrels`` and ``run`` again.

    Paths and dicts can be read again; an open file or a DataFrame cannot,
    and its evaluation explains nothing (``explain`` says so).
    """
    if not (_rereadable(qrels) and _rereadable(run)):
        return result
    return replace(result, explainer=partial(explain_query, qrels, run, conventions=result.conventions))


def _rereadable(source: Any) -> bool:
    return isinstance(source, (str, os.PathLike, dict))
