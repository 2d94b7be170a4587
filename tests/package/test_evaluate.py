"""evaluate(): metric names, trec_eval's conventions, the options, and the result object.

The property test checks evaluate against a plain per-query implementation written
here from trec_eval's definitions (sort by score then docno descending, relevant means
grade >= relevance_level, nDCG with raw grades and log2(rank + 1)), sharing no code
with the package.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankmetrics as rm
from rankmetrics.trec.evaluate import parse_metric

# ---------------------------------------------------------------- a reference, by hand


def reference(qrels, run, level, missing="skip"):
    """Per-query trec_eval values, one plain loop per query."""
    out = {}
    queries = sorted(set(qrels) & set(run)) if missing == "skip" else sorted(qrels)
    for q in queries:
        judged = qrels[q]
        docs = run.get(q, {})
        ranked = [d for d, _ in sorted(docs.items(), key=lambda t: (t[1], t[0]), reverse=True)]
        rel = [d in judged and judged[d] >= level for d in ranked]
        n_rel = sum(g >= level for g in judged.values())
        gains = [max(judged.get(d, 0), 0) for d in ranked]
        ideal = sorted((g for g in judged.values() if g > 0), reverse=True)

        def dcg(values, k):
            return sum(g / math.log2(i + 2) for i, g in enumerate(values[:k]))

        row = {"num_ret": len(ranked), "num_rel": n_rel, "num_rel_ret": sum(rel)}
        hits, ap = 0, 0.0
        for i, r in enumerate(rel, start=1):
            if r:
                hits += 1
                ap += hits / i
        row["map"] = ap / n_rel if n_rel else 0.0
        row["recip_rank"] = next((1 / i for i, r in enumerate(rel, start=1) if r), 0.0)
        row["Rprec"] = sum(rel[:n_rel]) / n_rel if n_rel else 0.0
        big = len(ranked) + len(ideal)
        row["ndcg"] = dcg(gains, big) / dcg(ideal, big) if dcg(ideal, big) > 0 else 0.0
        for k in (1, 3, 5):
            row[f"P_{k}"] = sum(rel[:k]) / k
            row[f"recall_{k}"] = sum(rel[:k]) / n_rel if n_rel else 0.0
            row[f"success_{k}"] = float(any(rel[:k]))
            best = dcg(ideal, k)
            row[f"ndcg_cut_{k}"] = dcg(gains, k) / best if best > 0 else 0.0
            hits, ap = 0, 0.0
            for i, r in enumerate(rel[:k], start=1):
                if r:
                    hits += 1
                    ap += hits / i
            row[f"map_cut_{k}"] = ap / n_rel if n_rel else 0.0
        out[q] = row
    return out


METRICS = ["num_ret", "num_rel", "num_rel_ret", "map", "recip_rank", "Rprec", "ndcg"] + [
    f"{name}_{k}" for name in ("P", "recall", "success", "ndcg_cut", "map_cut") for k in (1, 3, 5)
]

doc_ids = st.sampled_from([f"d{i}" for i in range(8)])
qrels_strategy = st.dictionaries(
    st.sampled_from(["q1", "q2", "q3", "q10"]),
    st.dictionaries(doc_ids, st.integers(-1, 3), min_size=1, max_size=6),
    min_size=1,
)
run_strategy = st.dictionaries(
    st.sampled_from(["q1", "q2", "q3", "q10", "q4"]),
    # few distinct scores, so ties are common and the tie rule is exercised
    st.dictionaries(doc_ids, st.sampled_from([0.1, 0.5, 0.5, 2.0]), min_size=1, max_size=8),
    min_size=1,
)


@settings(max_examples=150, deadline=None)
@given(
    qrels=qrels_strategy, run=run_strategy, level=st.integers(0, 3), missing=st.sampled_from(["skip", "zero"])
)
def test_evaluate_equals_a_by_hand_trec_eval(qrels, run, level, missing):
    expected = reference(qrels, run, level, missing)
    if not expected:
        with pytest.raises(ValueError, match="no query is both judged and in the run"):
            rm.evaluate(qrels, run, METRICS, relevance_level=level, missing=missing)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # skipped queries warn; tested separately
        result = rm.evaluate(qrels, run, METRICS, relevance_level=level, missing=missing)
    assert result.queries == tuple(expected)
    for q, row in expected.items():
        for metric, value in row.items():
            assert result.value(metric, q) == pytest.approx(value, abs=1e-12), (q, metric)


# ---------------------------------------------------------------- conventions, by hand


def test_ties_are_broken_by_docno_descending():
    qrels = {"q": {"a": 1}}
    run = {"q": {"a": 0.5, "b": 0.5}}
    # Equal scores: "b" > "a" as text, so b is ranked first and the hit is at rank 2.
    assert rm.evaluate(qrels, run, "mrr").summary["mrr"] == 0.5
    # In the order of the run instead, a comes first.
    assert rm.evaluate(qrels, run, "mrr", ties="input_order").summary["mrr"] == 1.0
    # Renaming a to c (now "c" > "b") moves the hit to rank 1: the score depends on the ids.
    renamed = rm.evaluate({"q": {"c": 1}}, {"q": {"c": 0.5, "b": 0.5}}, "mrr")
    assert renamed.summary["mrr"] == 1.0


def test_docno_order_is_text_order_not_numeric():
    # "10" < "9" as text (trec_eval's strcmp), so with equal scores "9" ranks first.
    result = rm.evaluate({"q": {10: 1}}, {"q": {9: 1.0, 10: 1.0}}, "mrr")
    assert result.summary["mrr"] == 0.5


def test_rank_column_is_ignored(tmp_path):
    path = tmp_path / "run"
    path.write_text("q Q0 a 1 0.1 t\nq Q0 b 2 0.9 t\n")  # rank says a first; score says b
    assert rm.evaluate({"q": {"a": 1}}, path, "mrr").summary["mrr"] == 0.5


def test_relevance_level_binary_metrics_but_not_ndcg():
    qrels = {"q": {"a": 1, "b": 2}}
    run = {"q": {"a": 0.9, "b": 0.8}}
    one = rm.evaluate(qrels, run, ["p@1", "ndcg", "num_rel"])
    two = rm.evaluate(qrels, run, ["p@1", "ndcg", "num_rel"], relevance_level=2)
    assert (one.summary["p@1"], two.summary["p@1"]) == (1.0, 0.0)
    assert (one.summary["num_rel"], two.summary["num_rel"]) == (2, 1)
    # nDCG: (1 + 2/log2 3) / (2 + 1/log2 3) at either level
    expected = (1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3))
    assert one.summary["ndcg"] == pytest.approx(expected)
    assert two.summary["ndcg"] == pytest.approx(expected)


def test_negative_grades_count_as_zero_gain():
    result = rm.evaluate({"q": {"a": -1, "b": 2}}, {"q": {"a": 0.9, "b": 0.8}}, ["ndcg", "map"])
    assert result.summary["ndcg"] == pytest.approx(1 / math.log2(3))  # (2/log2 3) / 2
    assert result.summary["map"] == 0.5


def test_query_without_relevant_documents_scores_zero():
    result = rm.evaluate(
        {"q1": {"a": 0, "b": -1}, "q2": {"a": 1}},
        {"q1": {"a": 1.0}, "q2": {"a": 1.0}},
        ["map", "ndcg@5", "p@1", "recall@5", "mrr", "Rprec"],
    )
    assert result.to_dict()["per_query"]["q1"] == {
        "map": 0.0,
        "ndcg@5": 0.0,
        "p@1": 0.0,
        "recall@5": 0.0,
        "mrr": 0.0,
        "Rprec": 0.0,
    }
    assert result.summary["map"] == 0.5  # the zero counts in the mean


def test_missing_queries_are_skipped_with_a_warning_naming_them():
    qrels = {"q1": {"a": 1}, "q2": {"a": 1}, "q3": {"b": 1}}
    run = {"q1": {"a": 1.0}}
    with pytest.warns(UserWarning, match=r"2 judged queries are absent from the run and skipped: q2, q3"):
        result = rm.evaluate(qrels, run, ["map", "num_rel"])
    assert result.queries == ("q1",)
    assert result.missing_queries == ("q2", "q3")
    assert result.summary["map"] == 1.0


def test_missing_zero_scores_them_like_trec_eval_c():
    qrels = {"q1": {"a": 1}, "q2": {"a": 1, "b": 1}}
    run = {"q1": {"a": 1.0}}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = rm.evaluate(qrels, run, ["map", "num_rel", "num_ret"], missing="zero")
    assert result.queries == ("q1", "q2")
    assert result.per_query["map"].tolist() == [1.0, 0.0]
    assert result.summary["map"] == 0.5
    assert result.summary["num_rel"] == 3  # q2's relevant documents still count
    assert result.value("num_ret", "q2") == 0


def test_unjudged_run_queries_are_ignored_quietly():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = rm.evaluate({"q1": {"a": 1}}, {"q1": {"a": 1.0}, "zz": {"a": 1.0}}, "map")
    assert result.queries == ("q1",)
    assert result.unjudged_queries == ("zz",)


def test_no_common_query_is_an_error():
    with pytest.raises(
        ValueError, match=r"no query is both judged and in the run: the qrels judge q1; the run has q2"
    ):
        rm.evaluate({"q1": {"a": 1}}, {"q2": {"a": 1.0}}, "map")


def test_queries_are_in_text_order():
    qrels = {q: {"a": 1} for q in ("2", "10", "1")}
    run = {q: {"a": 1.0} for q in ("10", "1", "2")}
    assert rm.evaluate(qrels, run, "map").queries == ("1", "10", "2")


# ---------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("human", "trec"),
    [
        ("ndcg@10", "ndcg_cut_10"),
        ("p@5", "P_5"),
        ("precision@5", "P_5"),
        ("recall@100", "recall_100"),
        ("r@20", "recall_20"),
        ("map@10", "map_cut_10"),
        ("ap", "map"),
        ("mrr", "recip_rank"),
        ("hit_rate@10", "success_10"),
        ("hr@5", "success_5"),
        ("r_precision", "Rprec"),
    ],
)
def test_human_and_trec_eval_names_agree(human, trec, trec_eval_data):
    qrels, run = trec_eval_data / "qrels.test", trec_eval_data / "results.test"
    result = rm.evaluate(qrels, run, [human, trec])
    np.testing.assert_array_equal(result.per_query[human], result.per_query[trec])
    assert parse_metric(human).family == parse_metric(trec).family


def test_mrr_with_a_cutoff():
    run = {"q": {"a": 0.1, "b": 0.9, "c": 0.8}}  # ranked b, c, a
    result = rm.evaluate({"q": {"a": 1}}, run, ["mrr", "mrr@2"])
    assert (result.summary["mrr"], result.summary["mrr@2"]) == (pytest.approx(1 / 3), 0.0)


def test_f1_at_k_by_hand():
    run = {"q": {"a": 0.9, "b": 0.8, "c": 0.7}}
    result = rm.evaluate({"q": {"a": 1, "c": 1, "z": 1}}, run, "f1@2")  # P = 1/2, R = 1/3
    assert result.summary["f1@2"] == pytest.approx(2 * 0.5 / 3 / (0.5 + 1 / 3))


@pytest.mark.parametrize(
    ("metrics", "message"),
    [
        ("p", r"'p' needs a cutoff: write p@10"),
        ("recall", r"'recall' needs a cutoff"),
        ("prefs_simp", r"unknown metric 'prefs_simp'; known: ndcg"),  # trec_eval's, not all_trec
        (
            "iprec_at_recall",
            r"'iprec_at_recall' needs a level, as trec_eval prints it: e.g. iprec_at_recall_0.10",
        ),
        ("set_F.x", r"'set_F.x': 'x' is not a parameter of set_F \(numbers a,b,...\)"),
        ("utility_1,2", r"utility takes 4 numbers; got 2"),
        ("ndcg_p=0.5", r"ndcg: 'p'=0.5 is not a grade level"),
        ("rbp_resid_1=2", r"rbp_resid takes only p=persistence"),
        ("ndcg@0", r"the cutoff in 'ndcg@0' must be a positive integer"),
        ("ndcg@ten", r"the cutoff in 'ndcg@ten' must be a positive integer"),
        ("num_rel@5", r"unknown metric 'num_rel@5'"),
        ("P_0", r"the cutoff in 'P_0' must be a positive integer"),
        (["map", "map"], r"metrics lists 'map' twice"),
        ([], r"metrics must be a metric name or a non-empty list"),
        ([3], r"a metric name must be a non-empty string; got 3"),
    ],
)
def test_bad_metric_names(metrics, message):
    with pytest.raises(ValueError, match=message):
        rm.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, metrics)


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ({"missing": "drop"}, r"missing must be one of 'skip', 'zero'; got 'drop'"),
        ({"ties": "random"}, r"ties must be one of 'docno_descending', 'input_order'"),
        ({"relevance_level": "2"}, r"relevance_level must be a finite number; got '2'"),
        ({"relevance_level": True}, r"relevance_level must be a finite number; got True"),
        ({"relevance_level": float("nan")}, r"relevance_level must be a finite number"),
        ({"gain": "log"}, r"gain must be one of"),
        ({"ideal": "all"}, r"ideal must be one of 'judged', 'listed'"),
        ({"denominator": "R"}, r"denominator must be one of 'all_relevant'"),
    ],
)
def test_bad_options(option, message):
    with pytest.raises(ValueError, match=message):
        rm.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, "map", **option)


# ---------------------------------------------------------------- other libraries' conventions


def test_ideal_listed_equals_scikit_learn_ndcg_score():
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(4)
    qrels, run = {}, {}
    for q in range(6):
        docs = [f"d{i}" for i in range(12)]
        qrels[f"q{q}"] = {d: int(g) for d, g in zip(docs, rng.integers(0, 4, 12))}
        retrieved = docs[:8]  # four judged documents are never retrieved
        run[f"q{q}"] = dict(zip(retrieved, rng.permutation(8) / 10))  # no ties
    result = rm.evaluate(qrels, run, ["ndcg@5", "ndcg"], ideal="listed")
    for i, q in enumerate(result.queries):
        grades = [[qrels[q][d] for d in run[q]]]
        scores = [list(run[q].values())]
        assert result.per_query["ndcg@5"][i] == pytest.approx(sklearn_metrics.ndcg_score(grades, scores, k=5))
        assert result.per_query["ndcg"][i] == pytest.approx(sklearn_metrics.ndcg_score(grades, scores))


def test_exponential_gain_by_hand():
    qrels = {"q": {"a": 3, "b": 0, "c": 2}}
    run = {"q": {"a": 0.1, "b": 0.9, "c": 0.5}}  # ranked b, c, a: gains 0, 3, 7
    result = rm.evaluate(qrels, run, "ndcg", gain="exponential")
    expected = (3 / math.log2(3) + 7 / 2) / (7 + 3 / math.log2(3))
    assert result.summary["ndcg"] == pytest.approx(expected)


def test_ap_denominators_by_hand():
    qrels = {"q": {"a": 1, "b": 1, "c": 1, "d": 1}}  # R = 4
    run = {"q": {"a": 0.9, "x": 0.8, "b": 0.7}}  # hits at ranks 1 and 3
    top = 1 + 2 / 3
    for rule, divisor in [("all_relevant", 4), ("min_k_relevant", 3), ("retrieved_relevant", 2)]:
        result = rm.evaluate(qrels, run, ["map@3", "map"], denominator=rule)
        assert result.summary["map@3"] == pytest.approx(top / divisor), rule
    # without a cutoff, min(k, R) is R
    result = rm.evaluate(qrels, run, "map", denominator="min_k_relevant")
    assert result.summary["map"] == pytest.approx(top / 4)


def test_cutoff_only_metrics_equal_the_whole_list_values(trec_eval_data):
    # With only cutoff metrics, evaluate keeps just the top k columns; nothing may change.
    qrels, run = trec_eval_data / "qrels.rel_level", trec_eval_data / "results.test"
    names = ["p@5", "ndcg@10", "recall@20", "map@10", "mrr@10"]
    cut = rm.evaluate(qrels, run, names, relevance_level=2)
    whole = rm.evaluate(qrels, run, [*names, "map"], relevance_level=2)
    for name in names:
        np.testing.assert_array_equal(cut.per_query[name], whole.per_query[name])


# ---------------------------------------------------------------- the result object


@pytest.fixture
def small():
    qrels = {"q1": {"a": 2, "b": 0}, "q2": {"c": 1}, "<q3>": {"a": 1}}
    run = {"q1": {"a": 0.9, "b": 0.8}, "q2": {"a": 0.5, "c": 0.4}, "<q3>": {"a": 1.0}}
    return rm.evaluate(qrels, run, ["map", "num_ret"])


def test_to_dict_is_plain_python(small):
    data = small.to_dict()
    assert data["per_query"]["q2"] == {"map": 0.5, "num_ret": 2}
    assert data["summary"] == {"map": pytest.approx((1 + 0.5 + 1) / 3), "num_ret": 5}
    assert type(data["summary"]["num_ret"]) is int and type(data["summary"]["map"]) is float
    assert data["conventions"]["ties"] == "docno_descending"


def test_text_table(small):
    text = str(small)
    lines = text.splitlines()
    assert lines[0].split() == ["query", "map", "num_ret"]
    assert lines[2].split() == ["<q3>", "1.0000", "1"]
    assert lines[-2].split() == ["all", "0.8333", "5"]
    assert lines[-1].startswith("3 queries; relevance_level=1")


def test_html_table_escapes_ids(small):
    page = small._repr_html_()
    assert page.startswith('<table class="rankmetrics-evaluation">')
    assert '<th style="text-align:left;padding:0 .6em">&lt;q3&gt;</th>' in page and "<q3>" not in page
    # The summary row ("all") is the table's footer: (1 + 0.5 + 1) / 3 for map.
    assert '<tfoot><tr><th style="text-align:left;padding:0 .6em">all</th>' in page
    cell = '<td style="text-align:right;padding:0 .6em">{}</td>'
    assert cell.format("0.8333") + cell.format("5") + "</tr></tfoot>" in page  # num_ret: 2 + 2 + 1


def test_long_tables_are_shortened():
    qrels = {f"q{i:03d}": {"a": 1} for i in range(50)}
    run = {f"q{i:03d}": {"a": 1.0} for i in range(50)}
    text = str(rm.evaluate(qrels, run, "map"))
    assert "q000" in text and "q049" in text and "q025" not in text and "…" in text


def test_value_errors_name_metric_and_query(small):
    with pytest.raises(ValueError, match=r"metric 'ndcg' was not evaluated"):
        small.value("ndcg", "q1")
    with pytest.raises(ValueError, match=r"query 'q9' was not evaluated"):
        small.value("map", "q9")
    assert len(small) == 3 and repr(small) == "<Evaluation: 3 queries, metrics ['map', 'num_ret']>"


@pytest.mark.parametrize("name", ["p@²", "ndcg@٣", "P_٣", "ndcg_cut_²", "ndcg@ 5", "map@-1", "p@1.5"])
def test_cutoffs_are_ascii_digits(name):
    # "²".isdigit() is True and int("٣") is 3: only 0-9 make a cutoff, anything else is named.
    with pytest.raises(ValueError, match=r"(cutoff in|unknown metric) '"):
        rm.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, name)
