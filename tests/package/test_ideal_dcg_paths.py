"""The ideal DCG has two routes (level counting for small integer grades, partition
otherwise); both must equal a plain full sort computed here by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import rankmetrics as rm
from rankmetrics.metrics.dcg import _dcg_rows, _ideal_top, _level_counts


def reference_ideal_dcg(row, k, gain):
    best = sorted(row, reverse=True)[:k]
    g = (lambda x: 2.0**x - 1.0) if gain == "exponential" else (lambda x: x)
    return sum(g(x) / math.log2(i + 2) for i, x in enumerate(best))


@settings(max_examples=150, deadline=None)
@given(
    grades=arrays(
        np.float64,
        st.tuples(st.integers(1, 6), st.integers(1, 12)),
        elements=st.one_of(st.integers(0, 20).map(float), st.floats(0, 20, width=32)),
    ),
    k=st.integers(1, 15),
    gain=st.sampled_from(["linear", "exponential"]),
)
def test_both_routes_match_a_full_sort(grades, k, gain):
    expected = [reference_ideal_dcg(row.tolist(), k, gain) for row in grades]
    assert _dcg_rows(_ideal_top(grades, k), gain) == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_perfect_rankings_score_exactly_one():
    # Counting route (integer grades) and partition route (fractions), lists of
    # lengths around the 8-wide blocks of numpy's pairwise summation.
    rng = np.random.default_rng(7)
    for n in (1, 5, 8, 9, 15, 16, 17, 40):
        ints = -np.sort(-rng.integers(0, 5, size=(50, n)).astype(float), axis=1)
        fracs = -np.sort(-rng.uniform(0, 4, size=(50, n)), axis=1)
        for batch in (ints, fracs):
            scores = rm.ndcg(batch[batch.sum(axis=1) > 0])
            assert np.all(scores == 1.0)


def test_route_selection():
    assert _level_counts(np.array([[3.0, 0.0, 2.0]])) is not None  # small integers: counting
    assert _level_counts(np.array([[2.5, 0.0, 2.0]])) is None  # a fraction: partition
    assert _level_counts(np.array([[17.0, 1.0]])) is None  # too many levels: partition


def test_fractional_grades_in_a_batch():
    # 0.5 / 1 + 1.5 / log2(3) vs ideal 1.5 / 1 + 0.5 / log2(3)
    dcg = 0.5 + 1.5 / math.log2(3)
    idcg = 1.5 + 0.5 / math.log2(3)
    got = rm.ndcg(np.array([[0.5, 1.5], [1.0, 0.0]]))
    assert got == pytest.approx([dcg / idcg, 1.0])


@pytest.mark.parametrize("width", [255, 256, 300])
def test_counting_route_across_blocks_and_wide_rows(width):
    # Rows of 255 grades count in bytes, rows of 256 or more in int64; 1,200 rows
    # span several of _level_counts' blocks, and grade 16 (the most levels counted)
    # first appears in the last block. The reference is a plain full sort.
    rng = np.random.default_rng(width)
    grades = rng.integers(0, 5, size=(1200, width)).astype(float)
    grades[-1, 7] = 16.0
    grades[3] = 0.0  # a row with nothing relevant
    assert _level_counts(grades) is not None  # the counting route is the one under test
    for k in (1, 10, width):
        expected = -np.sort(-grades, axis=1)[:, :k]
        assert np.array_equal(_ideal_top(grades, k), expected)
