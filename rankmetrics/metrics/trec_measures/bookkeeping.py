"""The bookkeeping lines of a trec_eval report: runid, num_q, counts, relstring, unj and Judged.

trec_eval ``m_runid.c``, ``m_num_q.c``, ``m_num_nonrel_judged_ret.c``,
``m_relstring.c``, ``m_unjudged.c``, and ir_measures' ``Judged``. The other
counts (``num_ret``, ``num_rel``, ``num_rel_ret``) and ``gm_map`` are
registered in :mod:`rankmetrics.trec.evaluate`; their place is here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._arrays import safe_divide
from ...i18n import N_
from ..rank_based import evaluate_ap
from ._common import as_rows, per_query, tie_averaged, trec_measure

RELSTRING_LENGTH = 10  # trec_eval.h
_DIGITS = np.array(list("0123456789-"))


def judged_counts(judged_grades: np.ndarray, relevance_level: float) -> tuple[np.ndarray, np.ndarray]:
    """Per query: (relevant judgements, judged non-relevant ones), from every judgement's grade.

    Relevant: grade >= ``relevance_level``; non-relevant: 0 <= grade <
    ``relevance_level``. A negative grade ("in the pool, unjudged") and the
    ``-inf`` padding count as neither (trec_eval's ``rel_levels``).

    Examples
    --------
    >>> judged_counts(np.array([[2.0, 0.0, 1.0, -1.0], [0.0, -np.inf, -np.inf, -np.inf]]), 1)
    (array([2., 0.]), array([1., 1.]))
    """
    relevant = np.count_nonzero(judged_grades >= relevance_level, axis=1).astype(float)
    judged = np.count_nonzero(judged_grades >= 0, axis=1).astype(float)
    return relevant, judged - np.count_nonzero(
        (judged_grades >= 0) & (judged_grades >= relevance_level), axis=1
    )


def unjudged_fraction(unjudged: Any, k: int) -> np.ndarray:
    """unj@k: the share of the top k without a judgement (a "red flag" for poorly judged runs).

    Not in the qrels, or in them with a negative grade. Ranks past the end of
    the list count as judged.

    References
    ----------
    trec_eval ``m_unjudged.c`` (``unj_k``).

    Examples
    --------
    >>> unjudged_fraction([[0, 1, 1]], 5)
    array([0.4])
    """
    return np.count_nonzero(as_rows(unjudged, bool)[:, :k], axis=1) / float(k)


def judged_fraction(in_qrels: Any, n_retrieved: Any, k: int | None = None) -> np.ndarray:
    """Judged@k: the share of the top k that is in the qrels, out of min(k, retrieved).

    A warning sign for reusing judgements: a new system whose top 10 is
    half unjudged is scored as if those documents were non-relevant. As in
    ir_measures' ``Judged`` (from OpenNIR): a document counts as judged when
    it is in the qrels with any grade, and a list shorter than k is divided
    by its length. (trec_eval's ``unj_k`` counts a negative grade as
    unjudged and divides by k.) 0 for an empty list.

    References
    ----------
    MacAvaney et al., ir_measures ``Judged`` / OpenNIR ``judged.py``.

    Examples
    --------
    >>> judged_fraction([[1, 0, 1, 1]], [4], 2)
    array([0.5])
    >>> judged_fraction([[1, 1, 0]], [3], 10)  # 2 of the 3 retrieved
    array([0.66666667])
    """
    found = as_rows(in_qrels)
    depth = found.shape[1] if k is None else k
    shown = np.minimum(per_query(n_retrieved), depth).astype(float)
    return safe_divide(found[:, :depth].sum(axis=1), shown)


def relevance_string(
    grades: Any, judged: Any, pooled: Any, n_retrieved: Any, length: int = RELSTRING_LENGTH
) -> np.ndarray:
    """The grades of the first documents, one character each: trec_eval's ``relstring``.

    A digit for a grade 0-9, ``>`` above 9, ``-`` for a document not in the
    qrels, ``.`` for one in the pool but unjudged (a negative grade). A
    fractional grade shows its whole part.

    Returns
    -------
    1-D array of str (dtype object), one per query.

    References
    ----------
    trec_eval ``m_relstring.c``.

    Examples
    --------
    >>> relevance_string([[2, 0, 0, 12]], [[1, 1, 0, 1]], [[1, 1, 1, 1]], [4]).tolist()
    ['20.>']
    >>> relevance_string([[1, 0, 0]], [[1, 0, 0]], [[1, 0, 0]], [2]).tolist()  # 2 retrieved
    ['1-']
    """
    graded = as_rows(grades)[:, :length]
    known, pool = as_rows(judged, bool)[:, :length], as_rows(pooled, bool)[:, :length]
    shown = np.arange(graded.shape[1]) < per_query(n_retrieved)[:, None]
    # A grade's whole part read off a table of characters (numbers turned into text one by
    # one are slow); a NaN, no grade at all, shows as "-".
    level = np.clip(graded, 0, 9)
    digits = _DIGITS[np.where(np.isnan(level), 10, level).astype(np.int64)]
    chars = np.where(graded > 9, ">", digits)
    chars = np.where(known, chars, np.where(pool, ".", "-"))
    chars = np.ascontiguousarray(np.where(shown, chars, "")).astype("<U1")
    # A row of one-character strings read as one string; numpy drops the empty padding.
    return chars.view(f"<U{chars.shape[1]}")[:, 0].astype(object)


MEASURES = (
    trec_measure(
        "runid",
        "runid",
        "runid",
        N_("the run's name (the tag on the last line of the run file)"),
        lambda c, k: np.full(c.n_retrieved.shape, "", dtype=object),
        summary="run_id",
        text="{}",
        trec_lines="all",
        reads_ranking=False,
    ),
    trec_measure(
        "num_q",
        "num_q",
        "num_q",
        N_("the number of queries evaluated"),
        lambda c, k: np.ones(c.n_retrieved.shape),
        summary="sum",
        count=True,
        trec_lines="all",
        reads_ranking=False,
    ),
    trec_measure(
        "num_nonrel_judged_ret",
        "num_nonrel_judged_ret",
        "num_nonrel_judged_ret",
        N_("the number of retrieved documents judged non-relevant"),
        lambda c, k: np.count_nonzero(c.nonrelevant, axis=1).astype(float),
        summary="sum",
        count=True,
    ),
    trec_measure(
        "unjudged_fraction",
        None,
        "unj",
        N_("unj@k: the share of unjudged documents in the top k"),
        lambda c, k: unjudged_fraction(c.unjudged, k),
        cutoff="required",
        trec_cutoff_name="unj",
    ),
    trec_measure(
        "judged_fraction",
        None,
        "Judged",
        N_("Judged@k: the share of documents in the top k that are in the judgements (qrels)"),
        lambda c, k: judged_fraction(tie_averaged(c, c.pooled.astype(float)), c.n_retrieved, k),
        cutoff="optional",
        names=("judged",),
        averages_ties=True,
        ir_name="Judged",
    ),
    trec_measure(
        "relevance_string",
        "relstring",
        "relstring",
        N_("the grades of the top documents, one character each"),
        lambda c, k: relevance_string(
            c.graded, c.judged, c.pooled, c.n_retrieved, RELSTRING_LENGTH if k is None else k
        ),
        cutoff="optional",
        trec_cutoff_name="relstring",
        summary="none",
        text="'{}'",
        trec_lines="queries",
    ),
    # The counts and gm_map: measures that exist only over many queries.
    trec_measure(
        "num_ret",
        "num_ret",
        "num_ret",
        N_("the number of documents retrieved"),
        lambda c, k: c.n_retrieved.astype(float),
        summary="sum",
        count=True,
        reads_ranking=False,
        averages_ties=True,  # no order in a count
        ir_name="NumRet",
    ),
    trec_measure(
        "num_rel",
        "num_rel",
        "num_rel",
        N_("the number of judged relevant documents"),
        lambda c, k: c.n_relevant,
        summary="sum",
        count=True,
        reads_ranking=False,
        averages_ties=True,
        ir_name="NumRel",
        ir_parameters=(("rel", None),),
    ),
    trec_measure(
        "num_rel_ret",
        "num_rel_ret",
        "num_rel_ret",
        N_("the number of relevant documents retrieved"),
        lambda c, k: c.binary.sum(axis=1),
        summary="sum",
        count=True,
        averages_ties=True,  # the whole list: no order
        ir_name="NumRelRet",
        ir_parameters=(("rel", None),),
    ),
    trec_measure(
        "gm_map",
        "gm_map",
        "GM-MAP",
        N_("the geometric mean of AP (AP never below 0.00001)"),
        evaluate_ap,  # AP per query; the summary is the geometric mean
        summary="geometric",
        trec_lines="all",
        averages_ties=True,
    ),
)
