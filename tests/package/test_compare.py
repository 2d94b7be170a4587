"""compare(): paired tests between two runs, and Holm's adjustment.

The permutation p-values are checked against a brute-force enumeration of every
sign flip written here, the t-test against its textbook formula, and Holm against
values worked out by hand.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import warnings

import numpy as np
import pytest
from scipy import stats

import rankmetrics as rm
from rankmetrics.trec import evaluation

# ---------------------------------------------------------------- Holm


@pytest.mark.parametrize(
    ("p", "adjusted"),
    [
        # sorted 0.01, 0.03, 0.04 -> 3*0.01, 2*0.03, max(1*0.04, 0.06)
        ([0.01, 0.04, 0.03], [0.03, 0.06, 0.06]),
        # sorted 0.001, 0.03, 0.04, 0.2 -> 0.004, 0.09, max(0.08, 0.09), max(0.2, 0.09)
        ([0.001, 0.2, 0.04, 0.03], [0.004, 0.2, 0.09, 0.09]),
        ([0.5, 0.9], [1.0, 1.0]),  # 2*0.5 = 1.0 caps the rest
        ([0.02], [0.02]),  # one test: nothing to adjust
    ],
)
def test_holm_by_hand(p, adjusted):
    assert rm.holm(p) == pytest.approx(adjusted)


def test_holm_lies_between_raw_and_bonferroni():
    p = np.random.default_rng(0).uniform(0, 0.2, 12)
    adjusted = rm.holm(p)
    assert np.all(adjusted >= p) and np.all(adjusted <= np.minimum(1, 12 * p) + 1e-15)
    assert np.all(np.diff(adjusted[np.argsort(p)]) >= 0)  # the order of the p-values is kept


@pytest.mark.parametrize("bad", [[], [[0.1]], [-0.1], [1.2], ["a"]])
def test_holm_refuses_bad_input(bad):
    with pytest.raises(ValueError, match="p_values"):
        rm.holm(bad)


# ---------------------------------------------------------------- compare


def make_runs(rr_a, rr_b):
    """Queries whose reciprocal ranks are exactly rr_a and rr_b (each 1/rank)."""
    qrels, run_a, run_b = {}, {}, {}
    for i, (a, b) in enumerate(zip(rr_a, rr_b)):
        q = f"q{i:02d}"
        qrels[q] = {"rel": 1}
        for run, rr in ((run_a, a), (run_b, b)):
            rank = round(1 / rr)
            docs = {f"n{j}": 10.0 - j for j in range(rank - 1)}  # non-relevant above it
            docs["rel"] = 10.0 - rank
            run[q] = docs
    return qrels, run_a, run_b


def sign_flip_p(d, alternative="two-sided"):
    """Exact paired randomization test by enumerating every one of the 2**n sign flips."""
    observed = d.mean()
    flips = np.array(list(itertools.product([1, -1], repeat=d.size)))
    null = (flips * d).mean(axis=1)
    eps = 1e-12
    if alternative == "greater":
        return np.mean(null >= observed - eps)
    if alternative == "less":
        return np.mean(null <= observed + eps)
    return min(1.0, 2 * min(np.mean(null >= observed - eps), np.mean(null <= observed + eps)))


RR_A = [1 / 2, 1 / 3, 1, 1 / 4, 1 / 2, 1 / 5, 1, 1 / 2]
RR_B = [1, 1 / 2, 1, 1 / 2, 1 / 3, 1, 1, 1]


@pytest.fixture(scope="module")
def result():
    qrels, run_a, run_b = make_runs(RR_A, RR_B)
    return rm.compare(run_a, run_b, qrels, ["mrr", "p@1", "map"], n_resamples=2000)


def test_mean_difference_and_counts(result):
    d = np.array(RR_B) - np.array(RR_A)
    row = result["mrr"]
    assert (row.mean_a, row.mean_b) == (pytest.approx(np.mean(RR_A)), pytest.approx(np.mean(RR_B)))
    assert row.difference == pytest.approx(d.mean())
    assert (row.wins, row.ties, row.losses) == (5, 2, 1)
    np.testing.assert_allclose(result.differences("mrr"), d)


def test_t_test_matches_the_formula(result):
    d = np.array(RR_B) - np.array(RR_A)
    t = d.mean() / (d.std(ddof=1) / math.sqrt(d.size))
    p = 2 * stats.t.sf(abs(t), df=d.size - 1)
    assert result["mrr"].t_statistic == pytest.approx(t)
    assert result["mrr"].p_ttest == pytest.approx(p)


def test_permutation_p_is_exact_for_few_queries(result):
    # 8 queries: 2**8 = 256 <= n_resamples, so SciPy enumerates every sign flip.
    d = np.array(RR_B) - np.array(RR_A)
    assert result["mrr"].p_permutation == pytest.approx(sign_flip_p(d))


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_one_sided_alternatives(alternative):
    qrels, run_a, run_b = make_runs(RR_A, RR_B)
    row = rm.compare(run_a, run_b, qrels, "mrr", alternative=alternative, n_resamples=500)["mrr"]
    d = np.array(RR_B) - np.array(RR_A)
    assert row.p_permutation == pytest.approx(sign_flip_p(d, alternative))
    two_sided = stats.ttest_rel(RR_B, RR_A).pvalue
    assert row.p_ttest == pytest.approx(two_sided / 2 if alternative == "greater" else 1 - two_sided / 2)


def test_permutation_with_random_resamples_is_close_to_exact():
    rng = np.random.default_rng(1)
    rr_a = 1 / rng.integers(1, 6, 14)
    rr_b = 1 / rng.integers(1, 4, 14)
    qrels, run_a, run_b = make_runs(rr_a, rr_b)
    row = rm.compare(run_a, run_b, qrels, "mrr", n_resamples=4000)["mrr"]  # 2**14 > 4000: sampled
    exact = sign_flip_p(np.array(rr_b) - np.array(rr_a))
    assert row.p_permutation == pytest.approx(exact, abs=0.03)


def test_holm_columns_adjust_across_metrics(result):
    raw = [result[m].p_permutation for m in ("mrr", "p@1", "map")]
    assert [result[m].p_permutation_holm for m in ("mrr", "p@1", "map")] == pytest.approx(rm.holm(raw))
    raw_t = [result[m].p_ttest for m in ("mrr", "p@1", "map")]
    assert [result[m].p_ttest_holm for m in ("mrr", "p@1", "map")] == pytest.approx(rm.holm(raw_t))


def test_bootstrap_interval_is_seeded_and_brackets_the_mean(result):
    row = result["mrr"]
    assert row.ci_low < row.difference < row.ci_high
    qrels, run_a, run_b = make_runs(RR_A, RR_B)
    again = rm.compare(run_a, run_b, qrels, ["mrr", "p@1", "map"], n_resamples=2000)["mrr"]
    assert again == row  # same seed, same numbers
    other = rm.compare(run_a, run_b, qrels, "mrr", n_resamples=2000, random_state=7)["mrr"]
    assert (other.ci_low, other.ci_high) != (row.ci_low, row.ci_high)


def test_a_metric_does_not_change_when_others_are_added(result):
    qrels, run_a, run_b = make_runs(RR_A, RR_B)
    alone = rm.compare(run_a, run_b, qrels, "map", n_resamples=2000)["map"]
    assert (alone.ci_low, alone.ci_high, alone.p_permutation) == (
        result["map"].ci_low,
        result["map"].ci_high,
        result["map"].p_permutation,
    )


def test_percentile_interval_from_the_same_resamples_differs_from_bca():
    qrels, run_a, run_b = make_runs(RR_A, RR_B)
    bca = rm.compare(run_a, run_b, qrels, "mrr", n_resamples=2000)["mrr"]
    pct = rm.compare(run_a, run_b, qrels, "mrr", n_resamples=2000, ci_method="percentile")["mrr"]
    assert (bca.ci_low, bca.ci_high) != (pct.ci_low, pct.ci_high)
    assert pct.ci_low < pct.difference < pct.ci_high


def test_identical_runs_give_no_difference_without_warnings():
    qrels, run_a, _ = make_runs(RR_A, RR_A)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        row = rm.compare(run_a, run_a, qrels, "mrr", n_resamples=500)["mrr"]
    assert (row.difference, row.ci_low, row.ci_high) == (0.0, 0.0, 0.0)
    # Every difference is 0: t = 0/0 is undefined, so no t-test p-value; every one of
    # the sign flips gives mean 0, as extreme as the observed 0, so p (perm.) = 1.
    assert math.isnan(row.p_ttest) and math.isnan(row.t_statistic) and math.isnan(row.p_ttest_holm)
    assert row.p_permutation == 1.0
    assert row.ties == len(RR_A)


def test_a_constant_shift():
    # Every query goes from P@1 = 0 to 1: the spread of the differences is 0, so the t
    # statistic is 1/0 and the t-test undefined (nan, not a p of 0); the interval is a point.
    qrels, run_a, run_b = make_runs([1 / 2] * 5, [1.0] * 5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        row = rm.compare(run_a, run_b, qrels, "p@1", n_resamples=500)["p@1"]
    assert (row.difference, row.ci_low, row.ci_high) == (1.0, 1.0, 1.0)
    assert math.isnan(row.p_ttest) and math.isnan(row.t_statistic) and math.isnan(row.p_ttest_holm)
    assert row.p_permutation == pytest.approx(2 / 2**5)  # all +1 or all -1 of 32 flips


def test_undefined_t_test_is_explained_and_left_out_of_holm():
    # Each query's relevant item goes from rank 2, 3, 4, 2 to rank 1: P@1 rises by exactly 1
    # everywhere (no spread: t undefined), RR by 1/2, 2/3, 3/4, 1/2 (a t-test applies).
    qrels, run_a, run_b = make_runs([1 / 2, 1 / 3, 1 / 4, 1 / 2], [1.0] * 4)
    result = rm.compare(run_a, run_b, qrels, ["mrr", "p@1"], n_resamples=200)
    mrr, p1 = result["mrr"], result["p@1"]
    assert math.isnan(p1.p_ttest) and math.isnan(p1.p_ttest_holm)
    d = np.array([1 / 2, 2 / 3, 3 / 4, 1 / 2])
    textbook = stats.t.sf(d.mean() / (d.std(ddof=1) / 2), df=3) * 2  # sqrt(n) = 2
    assert mrr.p_ttest == pytest.approx(textbook)
    # Holm over the one t-test computed: nothing to adjust (not doubled for the n/a one).
    assert mrr.p_ttest_holm == pytest.approx(mrr.p_ttest)
    text = str(result)
    p1_line = next(line for line in text.splitlines() if line.startswith("p@1"))
    assert " n/a " in p1_line
    assert "Note for p@1: p (t) n/a: every query's difference is the same" in text
    assert "n/a" in result._repr_html_()


def test_holm_leaves_nan_out_and_adjusts_over_the_tests_computed():
    # Two tests computed: sorted 0.01, 0.04 -> 2*0.01 = 0.02, max(1*0.04, 0.02) = 0.04.
    adjusted = rm.holm([0.04, math.nan, 0.01])
    assert math.isnan(adjusted[1])
    assert adjusted[[0, 2]].tolist() == pytest.approx([0.04, 0.02])
    assert np.isnan(rm.holm([math.nan, math.nan])).all()


def test_three_queries_can_never_reach_five_percent():
    # The smallest two-sided p of an exact sign-flip test on n queries is 2 / 2**n.
    qrels, run_a, run_b = make_runs([1 / 5, 1 / 4, 1 / 5], [1, 1, 1])
    row = rm.compare(run_a, run_b, qrels, "mrr", n_resamples=500)["mrr"]
    assert row.p_permutation == pytest.approx(0.25)


def test_different_query_sets_are_refused_unless_missing_zero():
    qrels = {"q1": {"a": 1}, "q2": {"a": 1}, "q3": {"a": 1}}
    run_a = {"q1": {"a": 1.0}, "q2": {"a": 1.0}, "q3": {"a": 1.0}}
    run_b = {"q1": {"a": 1.0}, "q2": {"b": 1.0, "a": 0.5}}
    with (
        pytest.warns(UserWarning, match="q3"),
        pytest.raises(ValueError, match=r"different queries \(only run_a: q3; only run_b: none\)"),
    ):
        rm.compare(run_a, run_b, qrels, "mrr")
    row = rm.compare(run_a, run_b, qrels, "mrr", missing="zero", n_resamples=100)["mrr"]
    assert row.mean_b == pytest.approx((1 + 0.5 + 0) / 3)


def test_one_query_is_not_enough():
    with pytest.raises(ValueError, match="at least 2 queries; got 1"):
        rm.compare({"q": {"a": 1.0}}, {"q": {"a": 2.0}}, {"q": {"a": 1}}, "map")


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ({"n_resamples": 0}, r"n_resamples must be a positive integer"),
        ({"confidence_level": 1.5}, r"confidence_level must be a number between 0 and 1"),
        ({"confidence_level": True}, r"confidence_level must be a number between 0 and 1"),
        ({"alternative": "bigger"}, r"alternative must be one of 'two-sided', 'greater', 'less'"),
        ({"ci_method": "normal"}, r"ci_method must be one of 'BCa', 'percentile', 'basic'"),
        ({"random_state": -1}, r"random_state must be a non-negative integer seed"),
        ({"ties": "random"}, r"ties must be one of"),
    ],
)
def test_bad_options(option, message):
    qrels, run_a, run_b = make_runs(RR_A, RR_B)
    with pytest.raises(ValueError, match=message):
        rm.compare(run_a, run_b, qrels, "mrr", **option)


def test_result_views(result):
    text = str(result)
    assert text.splitlines()[0].split()[:4] == ["metric", "a", "b", "b"]
    assert text.splitlines()[2].startswith("mrr")
    assert "Holm across 3 metrics" in text
    assert result._repr_html_().startswith('<table class="rankmetrics-comparison">')
    data = result.to_dict()
    assert set(data) == {"mrr", "p@1", "map"}
    assert data["mrr"]["wins"] == 5 and isinstance(data["mrr"]["p_ttest"], float)
    assert result.queries == tuple(f"q{i:02d}" for i in range(8))
    with pytest.raises(KeyError, match="'ndcg' was not compared"):
        result["ndcg"]


# ------------------------------------------- each measure's own summary (issue 30)


def runs_from_hits(hits_a, hits_b, n_relevant):
    """Queries whose ranked lists are the given 0/1 hit lists; query i has n_relevant[i] relevant docs."""
    qrels, run_a, run_b = {}, {}, {}
    for i, (a, b, r) in enumerate(zip(hits_a, hits_b, n_relevant)):
        q = f"q{i}"
        qrels[q] = {f"rel{j}": 1 for j in range(r)}
        for run, hits in ((run_a, a), (run_b, b)):
            relevant, other, docs = iter(range(r)), iter(range(len(hits))), {}
            for rank, hit in enumerate(hits):
                doc = f"rel{next(relevant)}" if hit else f"non{next(other)}"
                docs[doc] = 10.0 - rank
            run[q] = docs
    return qrels, run_a, run_b


# AP of each list by hand (sum of precision at each hit / relevant docs), and hits retrieved.
HITS_A = [[0, 1, 0], [0, 0, 0], [1, 1, 0], [0, 0, 1], [1, 0, 0]]
HITS_B = [[1, 0, 0], [0, 1, 1], [1, 0, 0], [0, 1, 0], [1, 0, 1]]
N_RELEVANT = [1, 2, 2, 3, 2]
AP_A = [1 / 2, 0.0, 1.0, (1 / 3) / 3, 1 / 2]
AP_B = [1.0, (1 / 2 + 2 / 3) / 2, 1 / 2, (1 / 2) / 3, (1 + 2 / 3) / 2]
RET_A, RET_B = [1, 0, 2, 1, 1], [1, 2, 1, 1, 2]


@pytest.fixture(scope="module")
def summaries():
    qrels, run_a, run_b = runs_from_hits(HITS_A, HITS_B, N_RELEVANT)
    names = ["map", "gm_map", "num_rel_ret", "AP"]  # AP is map again, under another name
    return (
        rm.compare(run_a, run_b, qrels, names),
        rm.evaluate(qrels, run_a, names),
        rm.evaluate(qrels, run_b, names),
    )


def test_each_row_shows_the_summary_evaluate_shows(summaries):
    result, a, b = summaries
    for name in ("map", "gm_map", "num_rel_ret", "AP"):
        assert (result[name].mean_a, result[name].mean_b) == (a.summary[name], b.summary[name])
    # gm_map by hand: trec_eval floors AP at 1e-5 before the geometric mean; a count is summed.
    gm = lambda values: math.exp(sum(math.log(max(x, 1e-5)) for x in values) / len(values))
    assert result["gm_map"].mean_a == pytest.approx(gm(AP_A)) and result["gm_map"].mean_a < 0.05
    assert result["gm_map"].difference == pytest.approx(gm(AP_B) - gm(AP_A))
    assert (result["num_rel_ret"].mean_a, result["num_rel_ret"].mean_b) == (sum(RET_A), sum(RET_B))
    assert result["num_rel_ret"].difference == sum(RET_B) - sum(RET_A)
    for name in ("gm_map", "num_rel_ret"):  # each interval is of the difference shown
        assert result[name].ci_low < result[name].difference < result[name].ci_high


def test_a_geometric_mean_is_tested_on_the_logarithms(summaries):
    result, _a, _b = summaries
    log_a, log_b = (np.log(np.maximum(ap, 1e-5)) for ap in (AP_A, AP_B))
    row = result["gm_map"]
    assert row.t_statistic == pytest.approx(stats.ttest_rel(log_b, log_a).statistic)
    assert row.p_permutation == pytest.approx(sign_flip_p(log_b - log_a))  # 2**5 flips: exact
    assert row.p_permutation != pytest.approx(result["map"].p_permutation)  # not map's test again


def test_the_geometric_floor_has_one_home(monkeypatch):
    # evaluate's summary and compare's row read one floor: moved to 0.25 (above two of run a's
    # APs, 0 and 1/9), both follow it. By hand: exp(mean(ln(max(AP, 0.25)))), added in query order.
    monkeypatch.setattr(evaluation, "GM_FLOOR", 0.25)
    qrels, run_a, run_b = runs_from_hits(HITS_A, HITS_B, N_RELEVANT)
    by_hand = math.exp(sum(math.log(max(x, 0.25)) for x in AP_A) / len(AP_A))
    assert rm.evaluate(qrels, run_a, "gm_map").summary["gm_map"] == pytest.approx(by_hand, rel=1e-15)
    assert rm.compare(run_a, run_b, qrels, "gm_map")["gm_map"].mean_a == pytest.approx(by_hand, rel=1e-15)


def test_one_measure_under_two_names_is_one_hypothesis_for_holm(summaries):
    result, _a, _b = summaries
    assert result["AP"] == dataclasses.replace(result["map"], metric="AP")
    raw = [result[m].p_permutation for m in ("map", "gm_map", "num_rel_ret")]  # three hypotheses
    assert [result[m].p_permutation_holm for m in ("map", "gm_map", "num_rel_ret")] == pytest.approx(
        rm.holm(raw)
    )
    assert "Holm across 3 metrics" in str(result)


# ------------------------------------------- permutation p-values on a grid of values (issue 30)


def exact_sign_flip_p(whole, alternative):
    """The exact paired randomization p-value of integer differences: every one of the 2**n sign flips."""
    flips = np.array(list(itertools.product([1, -1], repeat=len(whole))))
    null, observed = flips @ np.array(whole), sum(whole)  # sums of integers: no rounding anywhere
    greater, less = np.mean(null >= observed), np.mean(null <= observed)
    return {"greater": greater, "less": less, "two-sided": min(1.0, 2 * min(greater, less))}[alternative]


# P@5 of ten queries: hits in the top 5 for a and b. The differences of P@5 are
# 0.4, -0.4, 0.2, -0.2, -0.2, -0.2, 0.2, 0.2, 0, 0: their mean is exactly 0, but in floats
# 3/5 - 1/5 and the like leave a mean of about -1.7e-17 (two-sided p was 0.859, not 1).
HITS_5_A = [1, 2, 0, 1, 1, 2, 2, 2, 1, 2]
HITS_5_B = [3, 0, 1, 0, 0, 1, 3, 3, 1, 2]


@pytest.mark.parametrize(
    ("alternative", "exact"), [("two-sided", 1.0), ("greater", 616 / 1024), ("less", 616 / 1024)]
)
def test_permutation_p_on_a_grid_is_exact(alternative, exact):
    whole = [b - a for a, b in zip(HITS_5_A, HITS_5_B)]  # the differences times 5: integers
    assert exact_sign_flip_p(whole, alternative) == exact  # 616 of the 1,024 sums are >= 0
    top = [[1] * h + [0] * (5 - h) for h in HITS_5_A], [[1] * h + [0] * (5 - h) for h in HITS_5_B]
    qrels, run_a, run_b = runs_from_hits(*top, [5] * 10)
    row = rm.compare(run_a, run_b, qrels, "P_5", alternative=alternative)["P_5"]  # 2**10 < 9999: exact
    np.testing.assert_allclose(rm.compare(run_a, run_b, qrels, "P_5").differences("P_5"), np.array(whole) / 5)
    assert row.p_permutation == pytest.approx(exact, abs=1e-12)


def test_permutation_p_on_random_grids_equals_the_enumeration():
    rng = np.random.default_rng(7)
    for _ in range(15):
        hits_a, hits_b = rng.integers(0, 6, 8), rng.integers(0, 6, 8)
        top = [[[1] * h + [0] * (5 - h) for h in hits] for hits in (hits_a, hits_b)]
        qrels, run_a, run_b = runs_from_hits(*top, [5] * 8)
        row = rm.compare(run_a, run_b, qrels, "P_5", n_resamples=300)["P_5"]  # 2**8 = 256 flips: exact
        assert row.p_permutation == pytest.approx(
            exact_sign_flip_p(list(hits_b - hits_a), "two-sided"), abs=1e-12
        )


def test_a_summary_not_made_from_the_per_query_values_is_refused():
    # averaging="micro": recall@3 as the hits summed over the relevant documents summed (run a:
    # 5 of 10), not the mean of the recalls (1, 0, 1, 1/3, 1/2: 0.567). The per-query
    # differences would test the mean while the row showed the micro value.
    qrels, run_a, run_b = runs_from_hits(HITS_A, HITS_B, N_RELEVANT)
    micro = rm.evaluate(qrels, run_a, "recall@3", averaging="micro")
    assert micro.summary["recall@3"] == pytest.approx(sum(RET_A) / sum(N_RELEVANT))  # 5 / 10
    assert micro.per_query["recall@3"].mean() != pytest.approx(0.5)
    with pytest.raises(ValueError, match=r"cannot test recall@3: .*averaging='micro'"):
        rm.compare(run_a, run_b, qrels, ["map", "recall@3"], averaging="micro")
    # P@3's denominators are all 3: its micro value is the mean, and it is compared.
    row = rm.compare(run_a, run_b, qrels, "P@3", averaging="micro")["P@3"]
    assert (row.mean_a, row.mean_b) == (pytest.approx(sum(RET_A) / 15), pytest.approx(sum(RET_B) / 15))
