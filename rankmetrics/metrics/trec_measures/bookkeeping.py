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
from ...registry import Reference
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
        reference=Reference(
            korean="시스템 이름",
            formula=r"\text{runid} = \text{결과 파일 마지막 줄의 시스템 이름}",
            conventions="숫자가 아니라 글자이며, 결과 파일 마지막 줄의 여섯째 칸(시스템 이름)을 씁니다.",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_runid.c",),
        ),
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
        reference=Reference(
            korean="질의 수",
            formula=r"num\_q = \lvert Q \rvert",
            conventions="평가한 질의의 수입니다.",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_num_q.c",),
        ),
    ),
    trec_measure(
        "num_nonrel_judged_ret",
        "num_nonrel_judged_ret",
        "num_nonrel_judged_ret",
        N_("the number of retrieved documents judged non-relevant"),
        lambda c, k: np.count_nonzero(c.nonrelevant, axis=1).astype(float),
        summary="sum",
        count=True,
        reference=Reference(
            korean="검색된 판정된 무관 문서 수",
            formula=r"num\_nonrel\_judged\_ret = \lvert Ret \cap NonRel \rvert",
            conventions="판정 파일에 등급 0 이상, 판정 수준 미만으로 적힌 문서 가운데 검색된 것의 수입니다.",
            papers=("trec_eval",),
            chapter="ch-incomplete_judgements",
            trec_files=("m_num_nonrel_judged_ret.c",),
        ),
    ),
    trec_measure(
        "unjudged_fraction",
        None,
        "unj",
        N_("unj@k: the share of unjudged documents in the top k"),
        lambda c, k: unjudged_fraction(c.unjudged, k),
        cutoff="required",
        trec_cutoff_name="unj",
        reference=Reference(
            korean="미판정률",
            formula=r"unj@k = \frac{\lvert \{ i \le k : i\text{위가 미판정} \} \rvert}{k}",
            conventions="판정 파일에 없거나 등급이 음수인 문서를 미판정으로 셉니다. 목록 끝 너머는 판정된 문서로 보고 분모는 언제나 $k$입니다.",
            papers=("trec_eval",),
            chapter="ch-incomplete_judgements",
            trec_files=("m_unjudged.c",),
        ),
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
        reference=Reference(
            korean="판정률",
            formula=r"judged@k = \frac{\lvert \{ i \le k : i\text{위가 판정 파일에 있음} \} \rvert}{\min(k, \lvert Ret \rvert)}",
            conventions="등급이 무엇이든 판정 파일에 있으면 판정된 문서로 셉니다(ir_measures의 `Judged`). 목록이 $k$보다 짧으면 목록 길이로 나눕니다.",
            papers=("macavaney2022irmeasures",),
            chapter="ch-incomplete_judgements",
        ),
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
        reference=Reference(
            korean="등급 문자열",
            formula=r"relstring = c_1 c_2 \cdots c_k",
            conventions="상위 문서마다 한 글자입니다: 등급 0–9는 숫자, 9보다 크면 `>`, 판정 파일에 없으면 `-`, 풀에 있으나 판정하지 않았으면 `.`입니다. 길이는 10이 기본입니다.",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_relstring.c",),
        ),
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
        reference=Reference(
            korean=N_("the number of documents retrieved"),
            formula=r"num\_ret = \lvert Ret \rvert",
            conventions="질의마다 런이 내놓은 문서 수입니다.",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_num_ret.c",),
        ),
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
        reference=Reference(
            korean="관련 문서 수",
            formula=r"num\_rel = R = \lvert Rel \rvert",
            conventions="판정 파일에서 등급이 판정 수준 이상인 문서 수입니다.",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_num_rel.c",),
        ),
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
        reference=Reference(
            korean=N_("the number of relevant documents retrieved"),
            formula=r"num\_rel\_ret = \lvert Ret \cap Rel \rvert",
            conventions="검색된 문서 가운데 등급이 판정 수준 이상인 것의 수입니다.",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_num_rel_ret.c",),
        ),
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
        reference=Reference(
            korean="AP의 기하평균",
            formula=r"GM\text{-}MAP = \exp\left(\frac{1}{\lvert Q \rvert} \sum_{u \in Q} \ln \max(AP_u, 10^{-5})\right)",
            conventions="AP가 낮은 질의를 MAP보다 무겁게 봅니다. 질의마다의 AP를 $10^{-5}$ 아래로 내리지 않습니다.",
            papers=("voorhees2005trec", "trec_eval"),
            chapter="ch-many_queries",
            trec_files=("m_gm_map.c",),
        ),
    ),
)
