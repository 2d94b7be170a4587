"""The two input forms and the batch shape, on small hand-checked examples."""

from __future__ import annotations

import math

import numpy as np
import pytest

import rankmetrics as rm

L3, L4, L5 = math.log2(3), math.log2(4), math.log2(5)


# --------------------------------------------------------------------------
# Batch shape
# --------------------------------------------------------------------------

GRID = [[1, 0, 1], [0, 0, 0], [2, 1, 0]]


def test_batch_returns_one_float_per_row(ranking_metric):
    metric = ranking_metric
    values = metric(GRID)
    assert isinstance(values, np.ndarray)
    assert values.shape == (3,) and values.dtype == np.float64
    one_row = metric([GRID[0]])
    assert isinstance(one_row, np.ndarray) and one_row.shape == (1,)
    assert one_row[0] == metric(GRID[0])


def test_batch_values_by_hand():
    # rows: [1, 0, 1], [0, 0, 0], [2, 1, 0]
    np.testing.assert_allclose(rm.precision(GRID, k=2), [1 / 2, 0, 2 / 2])
    np.testing.assert_allclose(rm.recall(GRID, k=1), [1 / 2, 0, 1 / 2])
    np.testing.assert_allclose(rm.reciprocal_rank(GRID), [1, 0, 1])
    np.testing.assert_allclose(rm.mean_rank(GRID), [(1 + 3) / 2, np.nan, (1 + 2) / 2])
    np.testing.assert_allclose(rm.average_precision(GRID), [(1 + 2 / 3) / 2, 0, 1])
    # DCG: 1 + 1/log2(4); 0; 2 + 1/log2(3)
    np.testing.assert_allclose(rm.dcg(GRID), [1 + 1 / L4, 0, 2 + 1 / L3])
    # nDCG: (1 + 1/2) / (1 + 1/log2(3)); 0 (no relevant item); 1 (already ideal)
    np.testing.assert_allclose(rm.ndcg(GRID), [1.5 / (1 + 1 / L3), 0, 1])


def test_batch_per_query_keywords():
    # n_relevant: one number for all rows, or one per row
    np.testing.assert_allclose(rm.recall(GRID, n_relevant=4), [2 / 4, 0, 2 / 4])
    np.testing.assert_allclose(rm.recall(GRID, n_relevant=[2, 1, 5]), [2 / 2, 0 / 1, 2 / 5])
    np.testing.assert_allclose(
        rm.average_precision(GRID, n_relevant=[3, 0, 2]), [(1 + 2 / 3) / 3, 0, (1 + 1) / 2]
    )
    # ideal: one row of judged grades per query, rows of any length
    values = rm.ndcg(GRID, ideal=[[1, 1, 1, 1], [0], [2, 1]])
    # row 1: DCG 1 + 1/2 = 1.5; k=None cuts nothing, so the ideal is all four
    # judged items [1, 1, 1, 1]: 1 + 1/log2(3) + 1/2 + 1/log2(5)
    np.testing.assert_allclose(values, [1.5 / (1 + 1 / L3 + 0.5 + 1 / math.log2(5)), 0, 1])
    # with k=3 both sides are cut at 3: the ideal [1, 1, 1]
    np.testing.assert_allclose(
        rm.ndcg(GRID, 3, ideal=[[1, 1, 1, 1], [0], [2, 1]])[0], 1.5 / (1 + 1 / L3 + 0.5)
    )


def test_booleans_batch():
    mask = np.array([[True, False], [False, True]])
    np.testing.assert_array_equal(rm.reciprocal_rank(mask), [1.0, 0.5])


def test_inputs_are_not_modified(ranking_metric):
    metric = ranking_metric
    grid = np.array([[3.0, 0.0, 1.0], [0.0, 2.0, 2.0]])
    ideal = [np.array([3.0, 1.0, 1.0]), np.array([2.0, 2.0, 4.0])]
    before = grid.copy(), [row.copy() for row in ideal]
    metric(grid, k=2)
    if metric is rm.ndcg:
        metric(grid, k=2, ideal=ideal, gain="exponential")
    np.testing.assert_array_equal(grid, before[0])
    for row, old in zip(ideal, before[1]):
        np.testing.assert_array_equal(row, old)


# --------------------------------------------------------------------------
# Cutoff beyond the list
# --------------------------------------------------------------------------


def test_k_beyond_the_list():
    # trec_eval: the missing ranks count as non-relevant
    assert rm.precision([1, 1, 1], k=10) == pytest.approx(0.3)
    assert rm.recall([1, 1, 1], k=10) == 1.0
    assert rm.f1([1, 1, 1], k=10) == pytest.approx(2 * 0.3 * 1 / 1.3)
    assert rm.hit_rate([0, 1], k=10) == 1.0
    # nDCG: the ideal of the listed grades is cut at k too; nothing past the list
    assert rm.ndcg([1, 0, 1], k=10) == pytest.approx((1 + 0.5) / (1 + 1 / L3))
    # with more judged items than listed, the ideal uses them up to k
    assert rm.ndcg([1, 0, 1], k=10, ideal=[1, 1, 1, 1]) == pytest.approx(1.5 / (1 + 1 / L3 + 0.5 + 1 / L5))


def test_k_none_is_the_list_length(ranking_metrics):
    grades = [0, 1, 0, 1]
    for metric in ranking_metrics:
        a, b = metric(grades), metric(grades, k=len(grades))
        assert a == b or (math.isnan(a) and math.isnan(b)), metric.__name__
    # ...except nDCG's ideal: k=None cuts nothing, so with 6 judged relevant items
    # and 4 listed the ideal holds all 6 (trec_eval's ndcg); k=4 keeps 4 of them
    ideal_4 = 1 + 1 / L3 + 0.5 + 1 / L5
    ideal_6 = ideal_4 + 1 / math.log2(6) + 1 / math.log2(7)
    assert rm.ndcg(grades, ideal=[1] * 6) == pytest.approx((1 / L3 + 1 / L5) / ideal_6)
    assert rm.ndcg(grades, k=4, ideal=[1] * 6) == pytest.approx((1 / L3 + 1 / L5) / ideal_4)


# --------------------------------------------------------------------------
# Form (b): ids and judgements
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "relevant",
    [{"B", "D"}, ["B", "D"], ("D", "B"), frozenset("BD"), {"B": 1, "D": 1}, {"B": True, "D": True, "A": 0}],
    ids=["set", "list", "tuple", "frozenset", "dict", "dict of bools"],
)
def test_judgement_containers(relevant):
    ranking = list("ABCDE")
    assert rm.mean_rank(ranking, relevant=relevant) == 3.0  # (2 + 4) / 2
    assert rm.average_precision(ranking, relevant=relevant) == pytest.approx((1 / 2 + 2 / 4) / 2)
    assert rm.ndcg(ranking, relevant=relevant) == pytest.approx((1 / L3 + 1 / L5) / (1 + 1 / L3))


@pytest.mark.parametrize(
    "ranking",
    [list("ABCDE"), tuple("ABCDE"), np.array(list("ABCDE")), iter("ABCDE")],
    ids=["list", "tuple", "array", "iterator"],
)
def test_ranking_containers(ranking):
    assert rm.recall(ranking, k=3, relevant={"B", "D", "F", "G"}) == 0.25  # B only, of 4


def test_ids_of_any_hashable_type():
    ranking = [10, (1, "x"), "10", 3.5]
    judged = {(1, "x"): 2, "10": 1, 99: 3}  # 10 (int) and "10" (str) are different ids
    # listed grades [0, 2, 1, 0]; all judged [2, 1, 3]
    assert rm.reciprocal_rank(ranking, relevant=judged) == 0.5
    assert rm.recall(ranking, relevant=judged) == pytest.approx(2 / 3)
    dcg = 2 / L3 + 1 / L4
    assert rm.dcg(ranking, relevant=judged) == pytest.approx(dcg)
    assert rm.ndcg(ranking, relevant=judged) == pytest.approx(dcg / (3 + 2 / L3 + 1 / L4))


def test_graded_judgements_unretrieved_items():
    # listed: A (3), B (unjudged), C (1); judged but not listed: Z (2)
    ranking, judged = ["A", "B", "C"], {"A": 3, "C": 1, "Z": 2}
    assert rm.recall(ranking, relevant=judged) == pytest.approx(2 / 3)
    assert rm.average_precision(ranking, relevant=judged) == pytest.approx((1 + 2 / 3) / 3)
    # DCG = 3 + 1/2; ideal [3, 2, 1]: 3 + 2/log2(3) + 1/2
    assert rm.ndcg(ranking, relevant=judged) == pytest.approx(3.5 / (3 + 2 / L3 + 0.5))
    # exponential: DCG = 7 + 1/2; ideal 7 + 3/log2(3) + 1/2
    assert rm.ndcg(ranking, relevant=judged, gain="exponential") == pytest.approx(7.5 / (7 + 3 / L3 + 0.5))


@pytest.mark.parametrize(
    "relevant", [set(), {}, [], {"A": 0, "Q": -1}], ids=["set", "dict", "list", "none relevant"]
)
def test_no_relevant_judgement(relevant, ranking_metrics):
    ranking = ["A", "B"]
    for metric in ranking_metrics:
        value = metric(ranking, relevant=relevant)
        if metric is rm.mean_rank:
            assert math.isnan(value)
        else:
            assert value == 0.0, metric.__name__


def test_mean_metrics_with_ids():
    queries = [list("ABC"), list("XY")]
    relevant = [{"C"}, {"X": 2, "Q": 1}]
    # RR: 1/3 and 1; AP: (1/3)/1 and (1/1)/2
    assert rm.mean_reciprocal_rank(queries, relevant=relevant) == pytest.approx((1 / 3 + 1) / 2)
    assert rm.mean_average_precision(queries, relevant=relevant) == pytest.approx((1 / 3 + 1 / 2) / 2)
    # with k=2 the C at rank 3 is cut off
    assert rm.mean_reciprocal_rank(queries, k=2, relevant=relevant) == pytest.approx((0 + 1) / 2)


# --------------------------------------------------------------------------
# order_by_score
# --------------------------------------------------------------------------


def test_order_by_score_ties_keep_input_order():
    # scores 0.5, 0.9, 0.5, 0.9: the two 0.9s first in input order, then the two 0.5s
    assert rm.order_by_score([1, 2, 3, 4], [0.5, 0.9, 0.5, 0.9]).tolist() == [2.0, 4.0, 1.0, 3.0]


def test_order_by_score_batch_is_per_row():
    ranked = rm.order_by_score([[1, 2, 3], [1, 2, 3]], [[0.1, 0.2, 0.3], [0.3, 0.2, 0.1]])
    assert ranked.tolist() == [[3.0, 2.0, 1.0], [1.0, 2.0, 3.0]]


def test_order_by_score_leaves_inputs_alone():
    grades, scores = np.array([0.0, 2.0, 1.0]), np.array([0.1, 0.9, 0.5])
    ranked = rm.order_by_score(grades, scores)
    assert ranked.tolist() == [2.0, 1.0, 0.0]
    ranked[0] = 99.0
    assert grades.tolist() == [0.0, 2.0, 1.0] and scores.tolist() == [0.1, 0.9, 0.5]
