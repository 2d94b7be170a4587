"""The package against two independent computations on random data.

1. scikit-learn: ``ndcg_score`` / ``dcg_score`` (linear gain, ideal from the
   row) and ``average_precision_score`` (AP over the relevant items found), on
   tie-free scores, reached through :func:`rankmetrics.order_by_score`.
2. A by-hand implementation in plain Python loops below, written from the
   textbook definitions and sharing no code with the package: DCG/nDCG with
   linear and exponential gain, AP, RR, Precision@k and Recall@k.

The data come from seeded generators, so every run checks the same cases.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, dcg_score, ndcg_score

import rankmetrics as rm

SEEDS = range(6)
CUTOFFS = [1, 2, 3, 5, 10, None]


# --------------------------------------------------------------------------
# The by-hand reference: plain loops, one definition each
# --------------------------------------------------------------------------


def hand_top(grades, k):
    return list(grades) if k is None else list(grades)[:k]


def hand_dcg(grades, k, gain="linear"):
    total = 0.0
    for rank, g in enumerate(hand_top(grades, k), start=1):
        g = max(g, 0)
        value = 2**g - 1 if gain == "exponential" else g
        total += value / math.log2(rank + 1)
    return total


def hand_ndcg(grades, k, gain="linear", judged=None):
    # The ideal is cut at the same k as the list; k=None cuts neither, so the
    # ideal keeps every judged item (trec_eval's uncut "ndcg").
    ideal = sorted(grades if judged is None else judged, reverse=True)
    best = hand_dcg(ideal, k, gain)
    if best == 0:
        return 0.0
    return hand_dcg(grades, k, gain) / best


def hand_precision(grades, k):
    top = hand_top(grades, k)
    hits = 0
    for g in top:
        if g > 0:
            hits += 1
    return hits / (len(grades) if k is None else k)


def hand_recall(grades, k, n_relevant):
    hits = 0
    for g in hand_top(grades, k):
        if g > 0:
            hits += 1
    return 0.0 if n_relevant == 0 else hits / n_relevant


def hand_ap(grades, k, n_relevant):
    hits = 0
    total = 0.0
    for rank, g in enumerate(hand_top(grades, k), start=1):
        if g > 0:
            hits += 1
            total += hits / rank
    return 0.0 if n_relevant == 0 else total / n_relevant


def hand_rr(grades, k):
    for rank, g in enumerate(hand_top(grades, k), start=1):
        if g > 0:
            return 1.0 / rank
    return 0.0


def test_hand_reference_on_a_known_list():
    # the reference itself must reproduce a number worked out on paper:
    # [3, 0, 3, 2, 0]: DCG = 3 + 1.5 + 2/log2(5) = 5.36135, nDCG = 0.90981
    assert hand_dcg([3, 0, 3, 2, 0], None) == pytest.approx(5.36135, abs=5e-6)
    assert hand_ndcg([3, 0, 3, 2, 0], None) == pytest.approx(0.90982, abs=5e-6)
    # [3, 2, 3, 0, 1] exponential: 12.77964 / 13.34718 = 0.95748
    assert hand_ndcg([3, 2, 3, 0, 1], 5, "exponential") == pytest.approx(0.95748, abs=5e-6)
    assert hand_ap([1, 0, 1, 0, 1], None, 4) == pytest.approx((1 + 2 / 3 + 3 / 5) / 4)


# --------------------------------------------------------------------------
# Random data
# --------------------------------------------------------------------------


def random_cases(seed, n_cases=15, max_len=12, max_grade=4, real=False):
    """(grades, scores) pairs; scores are distinct, so the order has no ties."""
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(n_cases):
        n = int(rng.integers(2, max_len + 1))  # scikit-learn's nDCG needs 2+ items
        if real:
            grades = rng.uniform(0, max_grade, size=n) * (rng.random(n) < 0.6)
        else:
            grades = rng.integers(0, max_grade + 1, size=n).astype(float)
        scores = rng.permutation(n) + rng.uniform(0, 0.5, size=n)
        assert len(set(scores.tolist())) == n
        cases.append((grades, scores))
    return cases


# --------------------------------------------------------------------------
# scikit-learn
# --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("k", CUTOFFS)
@pytest.mark.parametrize("real", [False, True], ids=["integer grades", "real grades"])
def test_ndcg_and_dcg_agree_with_sklearn(seed, k, real):
    for grades, scores in random_cases(seed, real=real):
        ranked = rm.order_by_score(grades, scores)
        assert rm.dcg(ranked, k=k) == pytest.approx(dcg_score([grades], [scores], k=k), rel=1e-12, abs=1e-15)
        assert rm.ndcg(ranked, k=k) == pytest.approx(
            ndcg_score([grades], [scores], k=k), rel=1e-12, abs=1e-15
        )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("k", CUTOFFS)
def test_batch_ndcg_mean_agrees_with_sklearn(seed, k):
    rng = np.random.default_rng(1000 + seed)
    grades = rng.integers(0, 4, size=(20, 8)).astype(float)
    scores = rng.random(size=(20, 8))
    ranked = rm.order_by_score(grades, scores)
    # scikit-learn averages over rows; the package returns one value per row
    assert float(np.mean(rm.ndcg(ranked, k=k))) == pytest.approx(ndcg_score(grades, scores, k=k), rel=1e-12)
    assert float(np.mean(rm.dcg(ranked, k=k))) == pytest.approx(dcg_score(grades, scores, k=k), rel=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_ap_agrees_with_sklearn_average_precision_score(seed):
    # scikit-learn's AP over one row's scores divides by the relevant items in
    # that row: the package's AP with the default n_relevant, no cutoff.
    for grades, scores in random_cases(seed, max_grade=1):
        if not np.any(grades > 0):
            continue  # scikit-learn warns and returns nan without a positive
        ranked = rm.order_by_score(grades, scores)
        expected = average_precision_score(grades > 0, scores)
        assert rm.average_precision(ranked) == pytest.approx(expected, rel=1e-12)


# --------------------------------------------------------------------------
# The by-hand reference
# --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("k", CUTOFFS)
@pytest.mark.parametrize("gain", ["linear", "exponential"])
def test_dcg_and_ndcg_match_the_hand_reference(seed, k, gain):
    for grades, scores in random_cases(seed):
        ranked = rm.order_by_score(grades, scores).tolist()
        assert rm.dcg(ranked, k=k, gain=gain) == pytest.approx(hand_dcg(ranked, k, gain), rel=1e-12)
        assert rm.ndcg(ranked, k=k, gain=gain) == pytest.approx(
            hand_ndcg(ranked, k, gain), rel=1e-12, abs=1e-15
        )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("k", CUTOFFS)
@pytest.mark.parametrize("gain", ["linear", "exponential"])
def test_ndcg_with_unretrieved_judged_items_matches_the_hand_reference(seed, k, gain):
    rng = np.random.default_rng(2000 + seed)
    for grades, _ in random_cases(seed):
        missing = rng.integers(0, 5, size=int(rng.integers(0, 4))).tolist()
        judged = grades.tolist() + missing
        expected = hand_ndcg(grades.tolist(), k, gain, judged=judged)
        assert rm.ndcg(grades, k=k, gain=gain, ideal=judged) == pytest.approx(expected, rel=1e-12, abs=1e-15)
        # the same through ids: unretrieved items are judged but not listed
        ranking = [f"d{i}" for i in range(len(grades))]
        relevant = dict(zip(ranking, grades.tolist()))
        relevant.update({f"u{i}": g for i, g in enumerate(missing)})
        assert rm.ndcg(ranking, k=k, gain=gain, relevant=relevant) == pytest.approx(
            expected, rel=1e-12, abs=1e-15
        )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("k", CUTOFFS)
def test_set_metrics_ap_rr_match_the_hand_reference(seed, k):
    rng = np.random.default_rng(3000 + seed)
    for grades, _ in random_cases(seed, max_grade=2):
        g = grades.tolist()
        found = sum(1 for x in g if x > 0)
        for n_relevant in (None, found + int(rng.integers(0, 4))):
            r = found if n_relevant is None else n_relevant
            assert rm.precision(g, k=k) == pytest.approx(hand_precision(g, k), rel=1e-12)
            assert rm.recall(g, k=k, n_relevant=n_relevant) == pytest.approx(hand_recall(g, k, r), rel=1e-12)
            assert rm.average_precision(g, k=k, n_relevant=n_relevant) == pytest.approx(
                hand_ap(g, k, r), rel=1e-12
            )
        assert rm.reciprocal_rank(g, k=k) == pytest.approx(hand_rr(g, k), rel=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_batch_matches_the_hand_reference(seed):
    rng = np.random.default_rng(4000 + seed)
    grid = rng.integers(0, 4, size=(10, 7)).astype(float)
    rows = grid.tolist()
    for k in CUTOFFS:
        np.testing.assert_allclose(
            rm.ndcg(grid, k=k, gain="exponential"), [hand_ndcg(r, k, "exponential") for r in rows], rtol=1e-12
        )
        np.testing.assert_allclose(
            rm.average_precision(grid, k=k), [hand_ap(r, k, sum(x > 0 for x in r)) for r in rows], rtol=1e-12
        )
        np.testing.assert_allclose(rm.reciprocal_rank(grid, k=k), [hand_rr(r, k) for r in rows], rtol=1e-12)
        np.testing.assert_allclose(rm.precision(grid, k=k), [hand_precision(r, k) for r in rows], rtol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_order_by_score_matches_a_python_sort(seed):
    # Python's sorted() is stable too: sort positions by descending score
    rng = np.random.default_rng(5000 + seed)
    grades = rng.integers(0, 4, size=9)
    scores = rng.integers(0, 4, size=9)  # many ties on purpose
    order = sorted(range(9), key=lambda i: -scores[i])
    assert rm.order_by_score(grades, scores).tolist() == [float(grades[i]) for i in order]
