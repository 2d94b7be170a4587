"""Invariants every ranking metric must keep, checked on generated data (hypothesis).

- a perfect order scores 1;
- renaming the item ids changes nothing;
- moving a relevant item above a non-relevant one never lowers RR, AP or nDCG;
- a 2-D batch gives the same values as the rows one by one;
- grades in order (form a) and ids with judgements (form b) agree on the same data;
- Precision@k times k is the number of hits; the normalised metrics lie in [0, 1].
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import rankmetrics as rm

PROPERTY = settings(max_examples=100, deadline=None)

grade = st.integers(min_value=0, max_value=4)
grades_1d = st.lists(grade, min_size=1, max_size=12)
float_grades_1d = st.lists(
    st.floats(min_value=0, max_value=5, allow_nan=False, allow_infinity=False), min_size=1, max_size=12
)
cutoff_k = st.none() | st.integers(min_value=1, max_value=15)
gains = st.sampled_from(["linear", "exponential", "binary"])


def hits_in_top(grades, k):
    top = grades if k is None else grades[:k]
    return sum(1 for g in top if g > 0)


# --------------------------------------------------------------------------
# Perfect order scores 1
# --------------------------------------------------------------------------


@PROPERTY
@given(grades=grades_1d, k=cutoff_k, gain=gains)
def test_perfect_order_ndcg_is_one(grades, k, gain):
    assume(any(g > 0 for g in grades))
    perfect = sorted(grades, reverse=True)
    # exactly 1.0, not 0.9999999999999998: a learner reads this number
    assert rm.ndcg(perfect, k=k, gain=gain) == 1.0


@PROPERTY
@given(grades=float_grades_1d, k=cutoff_k, gain=st.sampled_from(["linear", "exponential"]))
def test_perfect_order_ndcg_is_one_for_real_grades(grades, k, gain):
    assume(max(grades) > 1e-3)
    assert rm.ndcg(sorted(grades, reverse=True), k=k, gain=gain) == 1.0


@PROPERTY
@given(n_rel=st.integers(1, 8), n_non=st.integers(0, 8), k=cutoff_k)
def test_perfect_order_ap_and_rr_are_one(n_rel, n_non, k):
    perfect = [1] * n_rel + [0] * n_non
    # AP with the default R (the relevant grades in the list), no cutoff
    assert rm.average_precision(perfect) == 1.0
    # RR is 1 for every k when rank 1 is relevant
    assert rm.reciprocal_rank(perfect, k=k) == 1.0
    # with a cutoff, AP@k = min(k, R) / R: only the relevant items inside the top k count
    expected = 1.0 if k is None else min(k, n_rel) / n_rel
    assert rm.average_precision(perfect, k=k) == pytest.approx(expected, rel=1e-12)


@PROPERTY
@given(grades=grades_1d)
def test_perfect_graded_order_ap_is_one(grades):
    # any relevant-first order is perfect for AP, whatever the grades
    assume(any(g > 0 for g in grades))
    assert rm.average_precision(sorted(grades, reverse=True)) == 1.0
    assert rm.mean_average_precision([sorted(grades, reverse=True)]) == 1.0


# --------------------------------------------------------------------------
# Renaming ids changes nothing (form b)
# --------------------------------------------------------------------------


@st.composite
def judged_ranking(draw):
    """A ranking of ids with graded judgements, some judged items not retrieved."""
    listed = draw(st.lists(st.integers(-1, 4), min_size=1, max_size=10))
    unlisted = draw(st.lists(st.integers(-1, 4), max_size=5))
    ranking = [f"d{i}" for i in range(len(listed))]
    judged = dict(zip(ranking, listed))
    judged.update({f"u{i}": g for i, g in enumerate(unlisted)})
    # unjudged listed items: drop some judgements of grade 0 (they mean the same)
    drop = draw(st.lists(st.booleans(), min_size=len(listed), max_size=len(listed)))
    for item, g, gone in zip(ranking, listed, drop):
        if gone and g == 0:
            del judged[item]
    return ranking, judged, listed, unlisted


def all_metrics_b(ranking, judged, k):
    return [
        rm.precision(ranking, k=k, relevant=judged),
        rm.recall(ranking, k=k, relevant=judged),
        rm.f1(ranking, k=k, relevant=judged),
        rm.hit_rate(ranking, k=k, relevant=judged),
        rm.reciprocal_rank(ranking, k=k, relevant=judged),
        rm.mean_rank(ranking, k=k, relevant=judged),
        rm.average_precision(ranking, k=k, relevant=judged),
        rm.dcg(ranking, k=k, relevant=judged),
        rm.dcg(ranking, k=k, relevant=judged, gain="exponential"),
        rm.ndcg(ranking, k=k, relevant=judged),
        rm.ndcg(ranking, k=k, relevant=judged, gain="exponential"),
    ]


@PROPERTY
@given(data=judged_ranking(), k=cutoff_k, seed=st.integers(0, 2**32 - 1))
def test_renaming_ids_changes_nothing(data, k, seed):
    ranking, judged, _, _ = data
    names = list(dict.fromkeys(ranking + list(judged)))
    # a bijection onto new ids of another type, in shuffled order
    new_names = np.random.default_rng(seed).permutation(len(names)).tolist()
    rename = {old: (new, "item") for old, new in zip(names, new_names)}
    renamed_ranking = [rename[item] for item in ranking]
    renamed_judged = {rename[item]: g for item, g in judged.items()}
    np.testing.assert_array_equal(
        all_metrics_b(ranking, judged, k), all_metrics_b(renamed_ranking, renamed_judged, k)
    )
    # the order of the judgements does not matter either
    reversed_judged = dict(reversed(list(judged.items())))
    np.testing.assert_array_equal(
        all_metrics_b(ranking, judged, k), all_metrics_b(ranking, reversed_judged, k)
    )


# --------------------------------------------------------------------------
# Moving a relevant item up never hurts
# --------------------------------------------------------------------------


@PROPERTY
@given(grades=grades_1d, k=cutoff_k, data=st.data())
def test_swap_relevant_above_non_relevant(grades, k, data):
    non = [i for i, g in enumerate(grades) if g == 0]
    rel = [j for j, g in enumerate(grades) if g > 0]
    pairs = [(i, j) for i in non for j in rel if i < j]
    assume(pairs)
    i, j = data.draw(st.sampled_from(pairs))
    better = list(grades)
    better[i], better[j] = better[j], better[i]
    tolerance = 1e-12
    for metric in (rm.reciprocal_rank, rm.average_precision, rm.precision, rm.recall, rm.hit_rate):
        assert metric(better, k=k) >= metric(grades, k=k) - tolerance, metric.__name__
    for gain in ("linear", "exponential", "binary"):
        assert rm.ndcg(better, k=k, gain=gain) >= rm.ndcg(grades, k=k, gain=gain) - tolerance
    # mean rank is lower-is-better: it never goes up when nothing leaves the top k
    if k is None:
        assert rm.mean_rank(better) <= rm.mean_rank(grades) + tolerance


@PROPERTY
@given(grades=grades_1d, k=cutoff_k, data=st.data())
def test_swap_higher_grade_up_never_lowers_ndcg(grades, k, data):
    pairs = [(i, j) for i in range(len(grades)) for j in range(i + 1, len(grades)) if grades[i] < grades[j]]
    assume(pairs)
    i, j = data.draw(st.sampled_from(pairs))
    better = list(grades)
    better[i], better[j] = better[j], better[i]
    for gain in ("linear", "exponential"):
        assert rm.dcg(better, k=k, gain=gain) >= rm.dcg(grades, k=k, gain=gain) - 1e-12
        assert rm.ndcg(better, k=k, gain=gain) >= rm.ndcg(grades, k=k, gain=gain) - 1e-12


# --------------------------------------------------------------------------
# Batch equals row by row
# --------------------------------------------------------------------------


@st.composite
def batches(draw):
    rows = draw(st.integers(1, 6))
    width = draw(st.integers(1, 10))
    grid = draw(st.lists(st.lists(grade, min_size=width, max_size=width), min_size=rows, max_size=rows))
    extra = draw(st.lists(st.integers(0, 3), min_size=rows, max_size=rows))  # unretrieved relevant items
    extra_grades = draw(st.lists(st.lists(st.integers(1, 4), max_size=3), min_size=rows, max_size=rows))
    return np.array(grid, dtype=float), extra, extra_grades


def assert_same(batch_values, row_values):
    assert isinstance(batch_values, np.ndarray) and batch_values.ndim == 1
    assert all(type(v) is float for v in row_values)
    np.testing.assert_allclose(batch_values, row_values, rtol=1e-12, atol=0, equal_nan=True)


@PROPERTY
@given(data=batches(), k=cutoff_k)
def test_batch_equals_row_by_row(data, k, ranking_metrics):
    grid, _, _ = data
    for metric in ranking_metrics:
        assert_same(metric(grid, k=k), [metric(row, k=k) for row in grid])
    for gain in ("exponential", "binary"):
        assert_same(rm.dcg(grid, k=k, gain=gain), [rm.dcg(row, k=k, gain=gain) for row in grid])
        assert_same(rm.ndcg(grid, k=k, gain=gain), [rm.ndcg(row, k=k, gain=gain) for row in grid])


@PROPERTY
@given(data=batches(), k=cutoff_k)
def test_batch_per_query_keywords(data, k):
    grid, extra, extra_grades = data
    n_relevant = [int(np.count_nonzero(row > 0)) + e for row, e in zip(grid, extra)]
    for metric in (rm.recall, rm.f1, rm.average_precision):
        assert_same(
            metric(grid, k=k, n_relevant=n_relevant),
            [metric(row, k=k, n_relevant=n) for row, n in zip(grid, n_relevant)],
        )
    ideals = [list(row) + more for row, more in zip(grid, extra_grades)]  # rows of different lengths
    assert_same(
        rm.ndcg(grid, k=k, ideal=ideals),
        [rm.ndcg(row, k=k, ideal=ideal) for row, ideal in zip(grid, ideals)],
    )


@PROPERTY
@given(data=batches(), k=cutoff_k)
def test_means_are_means_of_the_batch(data, k):
    grid, extra, _ = data
    n_relevant = [int(np.count_nonzero(row > 0)) + e for row, e in zip(grid, extra)]
    assert rm.mean_average_precision(list(grid), k=k, n_relevant=n_relevant) == pytest.approx(
        float(np.mean(rm.average_precision(grid, k=k, n_relevant=n_relevant))), rel=1e-12, abs=1e-15
    )
    assert rm.mean_reciprocal_rank(list(grid), k=k) == pytest.approx(
        float(np.mean(rm.reciprocal_rank(grid, k=k))), rel=1e-12, abs=1e-15
    )


# --------------------------------------------------------------------------
# Form (a) equals form (b)
# --------------------------------------------------------------------------


@PROPERTY
@given(data=judged_ranking(), k=cutoff_k)
def test_grades_form_equals_ids_form(data, k):
    ranking, judged, listed, unlisted = data
    grades = [max(g, 0) for g in listed]  # -1 is non-relevant, no gain
    all_judged = grades + [max(g, 0) for g in unlisted]
    n_relevant = sum(1 for g in all_judged if g > 0)
    form_a = [
        rm.precision(grades, k=k),
        rm.recall(grades, k=k, n_relevant=n_relevant),
        rm.f1(grades, k=k, n_relevant=n_relevant),
        rm.hit_rate(grades, k=k),
        rm.reciprocal_rank(grades, k=k),
        rm.mean_rank(grades, k=k),
        rm.average_precision(grades, k=k, n_relevant=n_relevant),
        rm.dcg(grades, k=k),
        rm.dcg(grades, k=k, gain="exponential"),
        rm.ndcg(grades, k=k, ideal=all_judged),
        rm.ndcg(grades, k=k, ideal=all_judged, gain="exponential"),
    ]
    np.testing.assert_allclose(all_metrics_b(ranking, judged, k), form_a, rtol=1e-12, atol=0, equal_nan=True)


@PROPERTY
@given(mask=st.lists(st.booleans(), min_size=1, max_size=12), missing=st.integers(0, 3), k=cutoff_k)
def test_set_of_relevant_ids_equals_binary_grades(mask, missing, k):
    ranking = [f"item{i}" for i in range(len(mask))]
    relevant = {item for item, hit in zip(ranking, mask) if hit} | {f"lost{i}" for i in range(missing)}
    n_relevant = sum(mask) + missing
    ideal = [1] * n_relevant or [0]
    assert rm.recall(ranking, k=k, relevant=relevant) == rm.recall(mask, k=k, n_relevant=n_relevant)
    assert rm.average_precision(ranking, k=k, relevant=relevant) == pytest.approx(
        rm.average_precision(mask, k=k, n_relevant=n_relevant), rel=1e-12
    )
    assert rm.ndcg(ranking, k=k, relevant=relevant) == pytest.approx(
        rm.ndcg(mask, k=k, ideal=ideal), rel=1e-12
    )
    # and a list of ids is the same as a set
    assert rm.ndcg(ranking, k=k, relevant=sorted(relevant)) == rm.ndcg(ranking, k=k, relevant=relevant)


# --------------------------------------------------------------------------
# Counting and ranges
# --------------------------------------------------------------------------


@PROPERTY
@given(grades=grades_1d, k=st.integers(1, 15))
def test_precision_times_k_is_hits(grades, k):
    assert rm.precision(grades, k=k) * k == pytest.approx(hits_in_top(grades, k), rel=1e-12)
    # the whole list: k is its length
    assert rm.precision(grades) * len(grades) == pytest.approx(hits_in_top(grades, None), rel=1e-12)


@PROPERTY
@given(grades=grades_1d, k=cutoff_k, extra=st.integers(0, 5), more=st.lists(st.integers(0, 4), max_size=4))
def test_normalised_metrics_lie_in_unit_interval(grades, k, extra, more):
    n_relevant = hits_in_top(grades, None) + extra
    values = [
        rm.precision(grades, k=k),
        rm.recall(grades, k=k, n_relevant=n_relevant),
        rm.f1(grades, k=k, n_relevant=n_relevant),
        rm.hit_rate(grades, k=k),
        rm.reciprocal_rank(grades, k=k),
        rm.average_precision(grades, k=k, n_relevant=n_relevant),
        rm.ndcg(grades, k=k),
        rm.ndcg(grades, k=k, gain="exponential"),
        rm.ndcg(grades, k=k, ideal=grades + more),
    ]
    for value in values:
        assert 0.0 <= value <= 1.0
    assert rm.hit_rate(grades, k=k) in (0.0, 1.0)
    assert rm.dcg(grades, k=k) >= 0.0


@PROPERTY
@given(grades=grades_1d, k=cutoff_k)
def test_relations_between_metrics(grades, k):
    # HR@k is 1 exactly when RR@k is positive
    assert rm.hit_rate(grades, k=k) == float(rm.reciprocal_rank(grades, k=k) > 0)
    # F1 lies between P and R (the harmonic mean), and is 0 without a hit
    p, r, f = rm.precision(grades, k=k), rm.recall(grades, k=k), rm.f1(grades, k=k)
    assert min(p, r) - 1e-12 <= f <= max(p, r) + 1e-12
    # the mean rank of the hits lies between the first hit's rank and the cutoff
    mr = rm.mean_rank(grades, k=k)
    if rm.hit_rate(grades, k=k):
        first = 1 / rm.reciprocal_rank(grades, k=k)
        assert first - 1e-9 <= mr <= min(len(grades), k or len(grades))
    else:
        assert math.isnan(mr)
    # binary gain nDCG equals linear nDCG on 0/1 grades
    binary = [int(g > 0) for g in grades]
    assert rm.ndcg(grades, k=k, gain="binary") == pytest.approx(rm.ndcg(binary, k=k), rel=1e-12)
