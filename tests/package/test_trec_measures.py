"""trec_eval's other measures through evaluate(): parameters, -J, -M, -c, runid, by hand.

NIST's outputs (test_trec_eval_conformance) cover the default parameters and pytrec_eval
(test_trec_files' differential test) random runs; here the parameters trec_eval takes on
its command line, its options, and the bookkeeping measures, each value derived by hand
or by an independent route.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import rankmetrics as rm

# One query. Ranked: a (grade 2), c (0), b (1), x (not judged); d (3) is never retrieved.
QRELS = {"q": {"a": 2, "b": 1, "c": 0, "d": 3}}
RUN = {"q": {"a": 0.9, "c": 0.8, "b": 0.7, "x": 0.6}}


def value(metric: str, **options) -> float:
    return rm.evaluate(QRELS, RUN, [metric], **options).value(metric, "q")


# ---------------------------------------------------------------- parameters as trec_eval writes them


def test_ndcg_with_a_gain_map():
    # ndcg.2=5: a earns 5, b 1, c 0; the ideal sorts every judged gain, 5, 3, 1.
    expected = (5 + 1 / math.log2(4)) / (5 + 3 / math.log2(3) + 1 / math.log2(4))
    assert value("ndcg_2=5") == pytest.approx(expected)
    assert value("ndcg.2=5") == value("ndcg_2=5")
    assert value("ndcg") == pytest.approx((2 + 1 / 2) / (3 + 2 / math.log2(3) + 1 / 2))


def test_dcg_and_ideal_dcg_are_ndcgs_numerator_and_denominator():
    # trec_eval 10.0's dcg: a (2) at rank 1, b (1) at rank 3: 2/log2(2) + 1/log2(4) = 2.5.
    # ideal_dcg: every judged gain, 3, 2, 1, 0: 3 + 2/log2(3) + 1/log2(4) = 4.7619.
    assert value("dcg") == pytest.approx(2.5, abs=1e-15)
    assert value("ideal_dcg") == pytest.approx(3 + 2 / math.log2(3) + 0.5, abs=1e-15)
    assert value("ndcg") == pytest.approx(value("dcg") / value("ideal_dcg"), abs=1e-15)
    # With a gain map (dcg.2=5): a earns 5, the ideal 5, 3, 1.
    assert value("dcg.2=5") == pytest.approx(5 + 0.5, abs=1e-15)
    assert value("ideal_dcg_2=5") == pytest.approx(5 + 3 / math.log2(3) + 0.5, abs=1e-15)


def test_a_negative_gain_costs_and_leaves_the_ideal():
    # ndcg.1=-2: b costs 2 / log2(4); the ideal keeps only the positive gains 3, 2.
    assert value("ndcg_1=-2") == pytest.approx((2 - 2 / 2) / (3 + 2 / math.log2(3)))


def test_gain_maps_reach_g_ndcg_rel_and_rndcg():
    # With every grade mapped to itself the measures are unchanged.
    for name in ("G", "ndcg_rel", "Rndcg"):
        assert value(f"{name}_1=1,2=2,3=3") == value(name), name
    # ndcg_rel.2=5 by hand: positive gains retrieved at ranks 1 (a) and 3 (b); d unretrieved.
    dcg1, dcg3 = 5.0, 5 + 1 / 2
    ideal1, ideal3 = 5.0, 5 + 3 / math.log2(3) + 1 / 2
    assert value("ndcg_rel_2=5") == pytest.approx((dcg1 / ideal1 + dcg3 / ideal3 + dcg3 / ideal3) / 3)


def test_rbp_rescales_gains_and_takes_a_persistence():
    # The query's grades reach 3, so trec_eval rescales gains to grade / 3.
    assert value("rbp") == pytest.approx(0.1 * (2 / 3 + 0.9**2 * 1 / 3))
    assert value("rbp_p=0.5") == pytest.approx(0.5 * (2 / 3 + 0.25 * 1 / 3))
    assert value("rbp.p=0.5") == value("rbp_p=0.5")
    # A gain map changes the levels before rescaling: 2=1 leaves 3 the highest.
    assert value("rbp_p=0.5,2=1") == pytest.approx(0.5 * (1 / 3 + 0.25 * 1 / 3))


def test_rbp_residual_and_unjudged():
    # x (rank 4) is unjudged: p^4 for the ranks past the end, plus (1 - p) p^3 for x.
    assert value("rbp_resid_p=0.5") == pytest.approx(0.5**4 + 0.5 * 0.5**3)
    assert (value("unj_2"), value("unj_4"), value("unj_8")) == (0.0, 0.25, 0.125)


def test_utility_set_f_and_relstring_parameters():
    # relevant retrieved 2 (a, b), retrieved 4, relevant 3 (a, b, d)
    assert value("utility") == 2 - 2
    assert value("utility_2,-1,-1,0") == 2 * 2 - 2 - 1
    precision, recall = 2 / 4, 2 / 3
    assert value("set_F_0.5") == pytest.approx(1.5 * precision * recall / (0.5 * precision + recall))
    result = rm.evaluate(QRELS, RUN, ["relstring", "relstring_2"])
    assert (result.value("relstring", "q"), result.value("relstring_2", "q")) == ("201-", "20")


@pytest.mark.parametrize(
    ("ours", "theirs", "key"),
    [
        ("set_F_0.5", "set_F.0.5", "set_F"),
        ("Rprec_mult_0.50", "Rprec_mult.0.5", "Rprec_mult_0.50"),
        ("relative_P_7", "relative_P.7", "relative_P_7"),
        ("11pt_avg_0.5", "11pt_avg.0.5", "11pt_avg"),  # one level: recall 0.5 (R/2 rounds alike in 9 and 10)
    ],
)
def test_parameters_as_pytrec_eval_reads_them(trec_eval_data, ours, theirs, key):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = (
        rm.read_qrels(trec_eval_data / "qrels.rel_level"),
        rm.read_run(trec_eval_data / "results.test"),
    )
    reference = pytrec_eval.RelevanceEvaluator(qrels, {theirs}).evaluate(run)
    result = rm.evaluate(qrels, run, [ours])
    for qid in reference:
        assert result.value(ours, qid) == pytest.approx(reference[qid][key], abs=1e-12)


# ---------------------------------------------------------------- -J, -M, -c


def test_judged_only_drops_unjudged_and_pooled_unjudged_documents():
    qrels = {"q": {"a": 1, "b": 0, "p": -1}}
    run = {"q": {"x": 0.9, "p": 0.8, "b": 0.7, "a": 0.6}}  # x: not judged; p: pooled, unjudged
    full = rm.evaluate(qrels, run, ["num_ret", "recip_rank", "relstring"])
    judged = rm.evaluate(qrels, run, ["num_ret", "recip_rank", "relstring"], judged_only=True)
    assert (full.value("num_ret", "q"), full.value("recip_rank", "q"), full.value("relstring", "q")) == (
        4,
        0.25,
        "-.01",
    )
    assert (
        judged.value("num_ret", "q"),
        judged.value("recip_rank", "q"),
        judged.value("relstring", "q"),
    ) == (
        2,
        0.5,
        "01",
    )
    assert judged.conventions["judged_only"] is True


def test_max_documents_equals_scoring_the_top_of_each_query(trec_eval_data):
    # -M 30 by another route: cut each query's run to its 30 best documents (scores in 32
    # bits, ties by docno descending) and score that.
    qrels = trec_eval_data / "qrels.rel_level"
    run = rm.read_run(trec_eval_data / "results.test")
    cut = {}
    for qid, docs in run.items():
        ranked = sorted(docs, key=lambda d: (-np.float32(docs[d]), [-ord(ch) for ch in d]))
        cut[qid] = {d: docs[d] for d in ranked[:30]}
    names = ["num_ret", "map", "bpref", "set_P", "Rprec_mult_2.00", "Rndcg", "rbp", "relstring_40"]
    limited = rm.evaluate(qrels, run, names, relevance_level=2, max_documents=30)
    reference = rm.evaluate(qrels, cut, names, relevance_level=2)
    assert limited.to_trec_eval() == reference.to_trec_eval()
    assert limited.per_query["num_ret"].tolist() == [30, 30, 30]
    with pytest.raises(ValueError, match="max_documents"):
        rm.evaluate(qrels, run, "map", max_documents=0)


def test_a_judged_query_missing_from_the_run_scores_as_trec_eval_c():
    # trec_eval -c scores such a query on a placeholder ranking and clears what remains:
    # every measure is 0 but num_rel; the geometric means floor it at 0.00001.
    qrels = {**QRELS, "z": {"d": 1, "e": 2}}
    names = ["num_q", "num_rel", "num_ret", "bpref", "infAP", "iprec_at_recall_0.00", "11pt_avg", "G"]
    names += ["Rprec_mult_1.00", "utility", "set_F", "rbp", "rbp_resid", "unj_5", "relstring", "gm_bpref"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = rm.evaluate(qrels, RUN, names, missing="zero")
    lines = {(m, q): v for m, q, v in (line.split("\t") for line in result.to_trec_eval().splitlines())}
    shown = {m.strip(): v for (m, q), v in lines.items() if q == "z"}
    assert shown.pop("num_rel") == "2" and shown.pop("num_ret") == "0" and shown.pop("relstring") == "''"
    assert set(shown.values()) == {"0.0000"}
    summary = {m.strip(): v for (m, q), v in lines.items() if q == "all"}
    assert summary["num_q"] == "2"
    bpref_q = result.value("gm_bpref", "q")
    assert float(summary["gm_bpref"]) == pytest.approx(math.sqrt(bpref_q * 0.00001), abs=5e-5)


# ---------------------------------------------------------------- runid and the text export


def test_runid_is_the_tag_of_the_run_files_last_line(tmp_path):
    path = tmp_path / "run"
    path.write_text("q Q0 a 1 0.9 first\nq Q0 c 2 0.8 first\nr Q0 a 1 0.5 last\n")
    qrels = {**QRELS, "r": {"a": 1}}
    for chunk in (None, 1):
        result = rm.evaluate(qrels, path, ["runid", "map"], chunk_queries=chunk)
        assert result.summary["runid"] == "last"
        assert result.to_trec_eval().splitlines()[-2] == f"{'runid':<22}\tall\tlast"
    assert rm.evaluate(QRELS, RUN, ["runid"]).summary["runid"] == ""  # a dict has no tag


def test_summary_only_output_and_what_each_line_shows(trec_eval_data):
    result = rm.evaluate(QRELS, RUN, ["num_q", "gm_bpref", "bpref", "relstring"])
    assert result.to_trec_eval(queries=False).splitlines() == [
        f"{'num_q':<22}\tall\t1",
        f"{'gm_bpref':<22}\tall\t{result.summary['gm_bpref']:.4f}",
        f"{'bpref':<22}\tall\t{result.summary['bpref']:.4f}",
    ]
    assert result.to_trec_eval().splitlines()[:2] == [
        f"{'bpref':<22}\tq\t{result.summary['bpref']:.4f}",
        f"{'relstring':<22}\tq\t'201-'",
    ]
    assert result.to_dict()["per_query"]["q"]["relstring"] == "201-"
