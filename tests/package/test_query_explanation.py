"""One query explained: the ranking evaluate used, each document's status, and a step table that adds up.

The order is checked against a second method (Python's sorted() on the scores as the
reference version reads them, docno descending for ties), and every step table's value
against evaluate's value on NIST trec_eval's own test files.
"""

from __future__ import annotations

import numpy as np
import pytest

import rankmetrics as rm
from rankmetrics.trec.query_explanation import explain_query

STEPPED = ["ndcg_cut_10", "ndcg", "P_5", "map", "map_cut_10", "recip_rank", "recall_100", "Rprec", "nDCG@5"]


def by_hand(run: dict[str, float], precision: str) -> list[str]:
    """Score descending, then docno descending (trec_eval), the score as the reference reads it."""
    cast = (lambda s: float(np.float32(s))) if precision == "float32" else float
    return [d for d, _ in sorted(run.items(), key=lambda item: (cast(item[1]), item[0]), reverse=True)]


@pytest.mark.parametrize("like", ["trec_eval-10", "trec_eval-9"])
def test_ranking_is_score_then_docno_descending_as_the_reference_reads_scores(like):
    # 0.123456789 and 0.123456788 tie only as C floats (9.x): then docno descending puts "b" first.
    qrels = {"q": {"a": 1, "b": 0, "c": 2}}
    run = {"q": {"a": 0.123456789, "b": 0.123456788, "c": 0.5, "x": 0.123456789}}
    e = explain_query(qrels, run, "q", "P_2", like=like)
    precision = "float64" if like == "trec_eval-10" else "float32"
    assert [r["docno"] for r in e.rows] == by_hand(run["q"], precision)
    # trec_eval-10: c, x, a (x ties a exactly: docno descending), b.  9.x: c, x, b, a.
    assert [r["docno"] for r in e.rows] == (
        ["c", "x", "a", "b"] if like == "trec_eval-10" else ["c", "x", "b", "a"]
    )
    assert [r["status"] for r in e.rows][:2] == ["relevant", "absent"]
    assert e.value == 0.5 == rm.evaluate(qrels, run, "P_2", like=like).value("P_2", "q")
    assert e.rows[2]["compared"] == (
        0.123456789 if like == "trec_eval-10" else float(np.float32(0.123456789))
    )


def test_judged_only_and_max_documents_show_what_is_kept():
    qrels = {"q": {"a": 1, "b": -1, "c": 0}}
    run = {"q": {"a": 0.1, "b": 0.9, "c": 0.5, "d": 0.7}}
    # -M 3 keeps b, d, c; then -J drops b (unjudged) and d (not judged): c, then nothing.
    e = explain_query(qrels, run, "q", "P_1", judged_only=True, max_documents=3)
    assert [(r["rank"], r["docno"], r["status"]) for r in e.rows] == [(1, "c", "nonrelevant")]
    assert e.value == 0.0


def test_every_step_table_adds_up_to_evaluates_value_on_nist_files(trec_eval_data):
    qrels, run = trec_eval_data / "qrels.rel_level", trec_eval_data / "results.test"
    result = rm.evaluate(qrels, run, STEPPED, relevance_level=2)
    read = rm.read_run(run)
    for qid in result.queries[:6]:
        for name in STEPPED:
            e = result.explain(qid, name)
            assert e.steps is not None, (qid, name, e.note)
            assert e.value == pytest.approx(
                result.value(name, qid), abs=1e-15
            )  # one query vs the padded batch
            assert e.steps.value == pytest.approx(e.value, abs=1e-12)
        assert [r["docno"] for r in e.rows] == by_hand(read[qid], "float64")


def test_measures_without_a_step_table_say_why_and_bad_queries_are_named():
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"a": 0.2, "b": 0.9}}
    e = explain_query(qrels, run, "q", "bpref")
    assert e.steps is None and "no step table" in e.note and e.value == 0.0  # b (non-relevant) before a
    assert "in the pool" not in str(e) and "non-relevant (judged)" in str(e)
    with rm.use_language("ko"):  # the book's language: the same explanation in Korean
        e = explain_query(qrels, run, "q", "bpref")
        assert e.steps is None and e.note.startswith("bpref에는 단계표가 없습니다") and e.value == 0.0
        assert "풀에 있으나" not in str(e) and "비관련 (판정됨)" in str(e)
        assert str(e).splitlines()[0].split() == ["순위", "문서", "점수", "비교한", "점수", "등급", "상태"]
    with pytest.raises(ValueError, match="'nope' has no judgement"):
        explain_query(qrels, run, "nope")
    with pytest.raises(ValueError, match="'q' is not in the run"):
        explain_query(qrels, {"r": {"a": 1.0}}, "q")
    from_file = rm.evaluate(qrels, open_run(run), "map")
    with pytest.raises(ValueError, match="needs the qrels and run as paths or dicts"):
        from_file.explain("q", "map")


def open_run(run):
    import io

    lines = [f"{q} Q0 {d} 1 {s} t\n" for q, docs in run.items() for d, s in docs.items()]
    return io.StringIO("".join(lines))
