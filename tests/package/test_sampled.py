"""Sampled metrics: the exact expectation and Krichene & Rendle's correction, each against a second method.

The second methods: enumerating every possible sample on a tiny catalogue (itertools),
exact rational arithmetic (math.comb and fractions), scipy.stats' hypergeometric and
binomial distributions, a Monte Carlo that draws its own negatives, and the least-squares
solution of the whole matrix A held at once.
"""

from __future__ import annotations

import itertools
import math
import tracemalloc
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

import rankmetrics as rm
from rankmetrics.metrics import sampled

# The metric of one held-out item at rank r among n candidates, written out again here
# from the definitions (issue text and docstring), not taken from the module.
DEFINITIONS = {
    "HR@3": lambda r, n: float(r <= 3),
    "nDCG@3": lambda r, n: 1 / math.log2(1 + r) if r <= 3 else 0.0,
    "MRR": lambda r, n: 1 / r,
    "MRR@2": lambda r, n: 1 / r if r <= 2 else 0.0,
    "P@2": lambda r, n: (r <= 2) / 2,
    "AP": lambda r, n: 1 / r,
    "AUC": lambda r, n: (n - r) / (n - 1),
}


def enumerated_distribution(n_items: int, n_negatives: int, replace: bool) -> np.ndarray:
    """P(sampled rank r | full rank R) by listing every possible sample of the other items.

    The other items are numbered 0..n_items - 2 in full-rank order: for full rank R the
    items 0..R - 2 are above the held-out item. Without replacement every set of
    n_negatives of them is equally likely; with replacement every ordered tuple.
    """
    others = range(n_items - 1)
    if replace:
        samples = list(itertools.product(others, repeat=n_negatives))
    else:
        samples = list(itertools.combinations(others, n_negatives))
    table = np.zeros((n_items, n_negatives + 1))
    for full_rank in range(1, n_items + 1):
        for sample in samples:
            above = sum(item < full_rank - 1 for item in sample)
            table[full_rank - 1, above] += 1
    return table / len(samples)


@pytest.mark.parametrize("replace", [False, True])
def test_the_distribution_matches_every_sample_listed(replace):
    # 8 items, 3 negatives: C(7, 3) = 35 sets, or 7**3 = 343 tuples with replacement
    expected = enumerated_distribution(8, 3, replace)
    np.testing.assert_allclose(rm.sampled_rank_probabilities(8, 3, replace=replace), expected, atol=1e-15)


@pytest.mark.parametrize("replace", [False, True])
@pytest.mark.parametrize("metric", list(DEFINITIONS))
def test_the_expectation_matches_every_sample_listed(metric, replace):
    n_items, n_negatives = 8, 3
    table = enumerated_distribution(n_items, n_negatives, replace)
    values = [DEFINITIONS[metric](r, n_negatives + 1) for r in range(1, n_negatives + 2)]
    ranks = [1, 2, 5, 8, 8, 3]
    expected = [table[rank - 1] @ values for rank in ranks]
    got = rm.sampled_expectation(metric, ranks, n_items, n_negatives, replace=replace)
    assert isinstance(got, np.ndarray) and got.shape == (6,)
    np.testing.assert_allclose(got, expected, atol=1e-14)


@pytest.mark.parametrize(("n_items", "n_negatives"), [(1000, 100), (50, 49), (100_000, 1000), (20, 1)])
def test_the_distribution_matches_scipy(n_items, n_negatives):
    ranks = np.unique(np.linspace(1, n_items, 200 if n_negatives < 1000 else 6).astype(int))
    x = np.arange(n_negatives + 1)[None, :]
    hyper = stats.hypergeom.pmf(x, n_items - 1, ranks[:, None] - 1, n_negatives)
    binom = stats.binom.pmf(x, n_negatives, (ranks[:, None] - 1) / (n_items - 1))
    np.testing.assert_allclose(rm.sampled_rank_probabilities(n_items, n_negatives, ranks), hyper, atol=1e-13)
    np.testing.assert_allclose(
        rm.sampled_rank_probabilities(n_items, n_negatives, ranks, replace=True), binom, atol=1e-13
    )


def test_the_reversal_of_issue_31():
    # 1,000 items, 100 negatives. Model A: rank 5 for 30 % of users, 500 for the rest;
    # model B: rank 40 for everyone.
    model_a = np.array([5] * 300 + [500] * 700)
    model_b = np.array([40] * 1000)
    assert np.mean(model_a <= 10) == 0.3 and np.mean(model_b <= 10) == 0.0  # exact HR@10

    def hit_probability(rank):
        # P(at most 9 of the 100 negatives are among the rank - 1 items above), in exact fractions
        above, below = rank - 1, 999 - (rank - 1)
        hits = sum(math.comb(above, x) * math.comb(below, 100 - x) for x in range(10))
        return Fraction(hits, math.comb(999, 100))

    assert hit_probability(5) == 1  # only 4 items above: always a sampled hit
    expected_a = float(Fraction(3, 10) + Fraction(7, 10) * hit_probability(500))
    expected_b = float(hit_probability(40))
    got_a = rm.sampled_expectation("HR@10", model_a, 1000, 100).mean()
    got_b = rm.sampled_expectation("HR@10", model_b, 1000, 100).mean()
    assert got_a == pytest.approx(expected_a, abs=1e-15)
    assert got_b == pytest.approx(expected_b, rel=1e-12)
    assert round(got_a, 2) == 0.30 and round(got_b, 4) == 0.9966  # the issue's numbers

    # A Monte Carlo that draws its own negatives: 4,000 users at rank 40, 100 of 999 others each
    rng = np.random.default_rng(31)
    above = [np.count_nonzero(rng.permutation(999)[:100] < 39) for _ in range(4000)]
    share = np.mean(np.array(above) + 1 <= 10)
    assert share == pytest.approx(got_b, abs=4 * math.sqrt(got_b * (1 - got_b) / 4000) + 1e-3)


def test_expected_sampled_auc_is_the_full_auc():
    # E[(n - X) / n] = 1 - E[X] / n = 1 - (R - 1) / (n_items - 1): AUC is unbiased, with or
    # without replacement, which is what every sampled metric drifts towards
    ranks = np.arange(1, 301)
    full = (300 - ranks) / 299
    for replace in (False, True):
        np.testing.assert_allclose(rm.sampled_expectation("AUC", ranks, 300, 7, replace=replace), full)
    # with one negative, sampled HR@1 is the share of pairs won: the AUC
    np.testing.assert_allclose(rm.sampled_expectation("HR@1", ranks, 300, 1), full)


@pytest.mark.parametrize("metric", list(DEFINITIONS))
def test_with_one_negative_every_metric_is_a_line_in_the_auc(metric):
    # sampled rank 1 with probability AUC, else 2: E[M] = M(2) + (M(1) - M(2)) * AUC
    ranks = np.array([1, 2, 37, 150, 299, 300])
    auc = (300 - ranks) / 299
    values = [DEFINITIONS[metric](r, 2) for r in (1, 2)]
    expected = values[1] + (values[0] - values[1]) * auc
    np.testing.assert_allclose(rm.sampled_expectation(metric, ranks, 300, 1), expected, atol=1e-14)


def test_many_users_and_names_read_case_insensitively():
    ranks = np.random.default_rng(0).integers(1, 1_000_001, size=20_000)
    got = rm.sampled_expectation("hr@10", ranks, 1_000_000, 1000)
    x = np.arange(10)[None, :]
    first = ranks[:50, None] - 1
    expected = stats.hypergeom.pmf(x, 999_999, first, 1000).sum(axis=1)
    np.testing.assert_allclose(got[:50], expected, atol=1e-12)
    np.testing.assert_array_equal(got, rm.sampled_expectation("HR@10", ranks, 1_000_000, 1000))


# ---------------------------------------------------------------- the correction


def full_system(metric: str, n_items: int, n_negatives: int):
    matrix = rm.sampled_rank_probabilities(n_items, n_negatives)
    exact = np.array([DEFINITIONS[metric](rank, n_items) for rank in range(1, n_items + 1)])
    return matrix, exact


def test_rows_of_a_sum_to_one():
    for replace in (False, True):
        matrix = rm.sampled_rank_probabilities(1000, 100, replace=replace)
        assert matrix.shape == (1000, 101)
        np.testing.assert_allclose(matrix.sum(axis=1), 1, atol=1e-14)
        assert matrix.min() >= 0


@pytest.mark.parametrize("replace", [False, True])
def test_blocked_sums_equal_the_whole_matrix(replace):
    matrix, exact = full_system("nDCG@3", 60, 9)
    if replace:
        matrix = rm.sampled_rank_probabilities(60, 9, replace=True)
    for rows in (1, 7, 60):
        gram, right, column_sums = sampled._normal_equations("nDCG", 3, 60, 9, replace, rows=rows)
        np.testing.assert_allclose(gram, matrix.T @ matrix, atol=1e-13)
        np.testing.assert_allclose(right, matrix.T @ exact, atol=1e-13)
        np.testing.assert_allclose(column_sums, matrix.sum(axis=0), atol=1e-13)


def test_bv_with_gamma_zero_is_the_least_squares_solution():
    # 8 items, 3 negatives: A is 8 x 4 of full column rank, so least squares has one solution
    matrix, exact = full_system("HR@3", 8, 3)
    assert np.linalg.matrix_rank(matrix) == 4
    least_squares = np.linalg.lstsq(matrix, exact, rcond=None)[0]
    np.testing.assert_allclose(rm.sampled_correction("HR@3", 8, 3, gamma=0), least_squares, atol=1e-10)
    np.testing.assert_allclose(rm.sampled_correction("HR@3", 8, 3, method="bias"), least_squares, atol=1e-10)


def test_bv_with_gamma_one_averages_the_exact_metric_over_each_sampled_rank():
    # gamma = 1: diag(Aᵀ1) M~ = AᵀM, so M~(r) = sum_R A[R, r] M(R) / sum_R A[R, r]
    matrix, exact = full_system("MRR", 40, 5)
    expected = (matrix.T @ exact) / matrix.sum(axis=0)
    np.testing.assert_allclose(rm.sampled_correction("MRR", 40, 5, gamma=1), expected, atol=1e-13)


def test_bv_solves_its_normal_equations():
    matrix, exact = full_system("nDCG@3", 200, 20)
    gamma = 0.1
    corrected = rm.sampled_correction("nDCG@3", 200, 20, gamma=gamma)
    # the objective's gradient is zero: bias^2 + gamma * variance, summed over full ranks
    left = (1 - gamma) * matrix.T @ matrix @ corrected + gamma * matrix.sum(axis=0) * corrected
    np.testing.assert_allclose(left, matrix.T @ exact, atol=1e-12)


def test_bias_is_unstable_where_the_docstring_says():
    matrix, _ = full_system("HR@3", 1000, 100)
    assert np.linalg.cond(matrix.T @ matrix) > 1e16  # "about 1e17" in sampled_correction's docstring
    bias = rm.sampled_correction("HR@10", 1000, 100, method="bias")
    assert np.abs(bias).max() > 100  # values far outside [0, 1]
    assert np.abs(rm.sampled_correction("HR@10", 1000, 100)).max() < 2


def test_corrected_metric_is_the_mean_of_the_correction_at_the_sampled_ranks():
    corrected = rm.sampled_correction("HR@10", 1000, 100, gamma=0.2)
    value = rm.corrected_sampled_metric("HR@10", [1, 4, 4, 101], 1000, 100, gamma=0.2)
    assert type(value) is float
    assert value == pytest.approx((corrected[0] + 2 * corrected[3] + corrected[100]) / 4, abs=1e-15)


def test_the_correction_recovers_the_full_metric_on_a_simulated_catalogue():
    # 2,000 users, full ranks spread over 5,000 items; 100 negatives each
    rng = np.random.default_rng(7)
    ranks = np.minimum(5000, np.ceil(rng.lognormal(mean=4, sigma=1.5, size=2000))).astype(int)
    result = rm.simulate_sampled_metric("HR@10", ranks, 5000, 100, seed=1)
    assert result["exact"] == np.mean(ranks <= 10)
    assert abs(result["sampled"] - result["exact"]) > 0.3  # the sampled metric is far off
    assert abs(result["corrected"] - result["exact"]) < 0.1 * abs(result["sampled"] - result["exact"])


def with_peak_memory(call):
    """(what ``call()`` returns, the most memory numpy and Python held meanwhile, in bytes)."""
    tracemalloc.start()
    try:
        return call(), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_big_catalogue_in_blocks_small_memory():
    corrected, peak = with_peak_memory(lambda: rm.sampled_correction("nDCG@10", 300_000, 50))
    assert peak < 40e6  # the whole A would be 300,000 x 51 floats: 122 MB
    assert corrected.shape == (51,) and np.isfinite(corrected).all()


@pytest.mark.scripts  # about 25 s of processor time: the slow tier (make test-scripts)
def test_a_million_items_and_a_thousand_negatives():
    corrected, peak = with_peak_memory(lambda: rm.sampled_correction("HR@10", 1_000_000, 1000))
    assert peak < 300e6  # the whole A would be 8 GB
    assert corrected.shape == (1001,) and np.isfinite(corrected).all()


# ---------------------------------------------------------------- simulation


def test_sample_ranks_is_seeded_and_matches_the_distribution():
    ranks = [40] * 3000
    first = rm.sample_ranks(ranks, 1000, 100, seed=5)
    np.testing.assert_array_equal(first, rm.sample_ranks(ranks, 1000, 100, seed=5))
    assert not np.array_equal(first, rm.sample_ranks(ranks, 1000, 100, seed=6))
    # the observed shares of each sampled rank against P(r | R = 40), chi-square
    probabilities = rm.sampled_rank_probabilities(1000, 100, [40])[0]
    counts = np.bincount(first - 1, minlength=101)
    keep = probabilities * 3000 >= 5
    observed = np.append(counts[keep], counts[~keep].sum())
    expected = np.append(probabilities[keep], probabilities[~keep].sum()) * 3000
    assert stats.chisquare(observed, expected).pvalue > 1e-4
    with_replacement = rm.sample_ranks([1, 1000], 1000, 100, seed=0, replace=True)
    np.testing.assert_array_equal(with_replacement, [1, 101])


def test_simulation_reports_the_four_values():
    ranks = [5] * 300 + [500] * 700
    result = rm.simulate_sampled_metric("HR@10", ranks, 1000, 100, seed=3)
    assert set(result) == {"exact", "expected", "sampled", "corrected"}
    assert all(type(value) is float for value in result.values())
    assert result["exact"] == 0.3
    assert result["expected"] == pytest.approx(0.3, abs=1e-12)
    assert result["sampled"] == 0.3  # ranks 5 always hit, ranks 500 (about 50 above) never do
    sampled_ranks = rm.sample_ranks(ranks, 1000, 100, seed=3)
    assert result["corrected"] == rm.corrected_sampled_metric("HR@10", sampled_ranks, 1000, 100)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: rm.sampled_expectation("HR@10", [5], 100, 100), "n_negatives must be smaller than n_items"),
        (lambda: rm.sampled_expectation("HR@10", [5], 100, 0), "n_negatives must be a whole number of at least 1; got 0"),
        (lambda: rm.sampled_expectation("HR@10", [5], 1, 1), "n_items must be a whole number of at least 2; got 1"),
        (lambda: rm.sampled_expectation("HR@10", [5], 100.0, 10), "n_items must be a whole number of at least 2; got 100.0"),
        (lambda: rm.sampled_expectation("HR@10", [5, 101], 100, 10), "ranks must lie between 1 and 100; found 101"),
        (lambda: rm.sampled_expectation("HR@10", [0], 100, 10), "ranks must lie between 1 and 100; found 0"),
        (lambda: rm.sampled_expectation("HR@10", [2.5], 100, 10), "ranks must be whole numbers (ranks); found 2.5"),
        (lambda: rm.sampled_expectation("HR@10", [float("nan")], 100, 10), "ranks must be whole numbers (ranks); found nan"),
        (lambda: rm.sampled_expectation("HR@10", [True], 100, 10), "ranks must be whole numbers from 1 to 100, not True/False"),
        (lambda: rm.sampled_expectation("HR@10", [], 100, 10), "ranks must be a non-empty 1-D sequence"),
        (lambda: rm.sampled_expectation("HR@10", [[1, 2]], 100, 10), "ranks must be a non-empty 1-D sequence"),
        (lambda: rm.sampled_expectation("HR@10", ["a"], 100, 10), "ranks must contain only numbers"),
        (lambda: rm.sampled_expectation("Recall@10", [5], 100, 10), "metric 'Recall@10' is not a sampled metric"),
        (lambda: rm.sampled_expectation(10, [5], 100, 10), "metric must be a string such as 'HR@10'"),
        (lambda: rm.sampled_expectation("HR", [5], 100, 10), "metric 'HR' needs a cutoff: write HR@k"),
        (lambda: rm.sampled_expectation("AUC@10", [5], 100, 10), "metric 'AUC@10' takes no cutoff; write AUC"),
        (lambda: rm.sampled_expectation("HR@0", [5], 100, 10), "the cutoff k in metric 'HR@0' must be a positive integer; got '0'"),
        (lambda: rm.sampled_expectation("nDCG@-1", [5], 100, 10), "must be a positive integer; got '-1'"),
        (lambda: rm.sampled_expectation("P@ten", [5], 100, 10), "must be a positive integer; got 'ten'"),
        (lambda: rm.sampled_correction("HR@10", 100, 10, gamma=1.5), "gamma must be a number from 0 to 1; got 1.5"),
        (lambda: rm.sampled_correction("HR@10", 100, 10, gamma=-0.1), "gamma must be a number from 0 to 1; got -0.1"),
        (lambda: rm.sampled_correction("HR@10", 100, 10, method="unbiased"), "method must be one of 'bv', 'bias'"),
        (lambda: rm.sampled_correction("HR@10", 10**7, 6000), "n_negatives must be at most 5000"),
        (lambda: rm.corrected_sampled_metric("HR@10", [12], 100, 10), "sampled_ranks must lie between 1 and 11; found 12"),
        (lambda: rm.sample_ranks([5], 4, 4), "got n_negatives=4, n_items=4"),
    ],
)  # fmt: skip
def test_bad_input_is_refused_by_name(call, message):
    with pytest.raises(ValueError) as error:
        call()
    assert message in str(error.value)


def test_refusals_speak_korean():
    with rm.use_language("ko"), pytest.raises(ValueError) as error:
        rm.sampled_expectation("HR@10", [5], 100, 100)
    assert str(error.value) == (
        "n_negatives는 n_items보다 작아야 합니다(네거티브 항목은 나머지 n_items - 1개에서 뽑습니다); "
        "받은 값: n_negatives=100, n_items=100"
    )
