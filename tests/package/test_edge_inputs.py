"""Awkward but real inputs: no silent wrong number, every bad input a clear error.

Four classes, each checked against values worked out independently of the
package (by hand in a comment, or with exact arithmetic from ``fractions``):

1. overflow: huge grades, gains and errors give the right value where it is a
   float, and a ValueError naming the argument where it is not;
2. compare(): differences without spread make the t-test undefined (nan),
   not significant; the permutation test stays exact;
3. the Python API: every public function, given each awkward value, returns a
   finite number or raises a ValueError that names the argument; on generated
   lists each metric's value equals its brute-force textbook definition;
4. one query gives a plain Python ``float``.
"""

from __future__ import annotations

import itertools
import math
import warnings
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankmetrics as rm

L3, L5 = math.log2(3), math.log2(5)


def exact_dcg(grades, gain="linear"):
    """DCG in exact rational arithmetic: each grade and each float discount as a Fraction."""
    total = Fraction(0)
    for rank, grade in enumerate(grades, start=1):
        g = Fraction(grade)
        value = 2 ** int(g) - 1 if gain == "exponential" else g  # integer grades in these tests
        total += Fraction(value) / Fraction(math.log2(rank + 1))
    return total


def exact_ndcg(grades, gain="linear"):
    return float(exact_dcg(grades, gain) / exact_dcg(sorted(grades, reverse=True), gain))


# --------------------------------------------------------------------------
# 1. Overflow: the right number where it is a float, an error where it is not
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("grades", "expected"),
    [
        ([1024, 0], 1.0),  # 2**1024 - 1 overflows a float; the ideal is the list itself
        ([0, 1024], 1 / L3),  # (2**1024 - 1)/log2(3) over (2**1024 - 1)/1
        ([1023, 1024], exact_ndcg([1023, 1024], "exponential")),
        ([0, 2000, 1999, 0, 1], exact_ndcg([0, 2000, 1999, 0, 1], "exponential")),
    ],
)
def test_ndcg_exponential_gain_of_huge_grades(grades, expected):
    assert rm.ndcg(grades, gain="exponential") == pytest.approx(expected, rel=1e-13)


def test_ndcg_exponential_huge_grades_in_every_form():
    expected = exact_ndcg([1023, 1024], "exponential")
    batch = rm.ndcg([[1023, 1024], [1, 0]], gain="exponential")
    assert batch.tolist() == pytest.approx([expected, 1.0], rel=1e-13)
    by_ids = rm.ndcg(["a", "b"], relevant={"a": 1023, "b": 1024}, gain="exponential")
    assert by_ids == pytest.approx(expected, rel=1e-13)
    # The ideal holds a third judged item of grade 1024 that was not listed; uncut, it has all three.
    with_ideal = rm.ndcg([1023, 1024], ideal=[1024, 1024, 1023], gain="exponential")
    assert with_ideal == pytest.approx(
        float(exact_dcg([1023, 1024], "exponential") / exact_dcg([1024, 1024, 1023], "exponential")),
        rel=1e-13,
    )


def test_ndcg_linear_sum_beyond_float_range():
    # IDCG = 1e308 * (1 + 1/log2 3 + 1/2) = 2.13e308 overflowed, and nDCG read 0.0.
    grades = [0, 1e308, 1e308, 1e308]
    expected = exact_ndcg(grades)
    # By hand, the grade 1e308 cancels: (1/log2 3 + 1/2 + 1/log2 5) / (1 + 1/log2 3 + 1/2) = 0.7328
    assert expected == pytest.approx((1 / L3 + 1 / 2 + 1 / L5) / (1 + 1 / L3 + 1 / 2), rel=1e-15)
    assert rm.ndcg(grades) == pytest.approx(expected, rel=1e-15)
    assert rm.ndcg([grades, [1, 0, 0, 0]]).tolist() == pytest.approx([expected, 1.0], rel=1e-15)


def test_ndcg_of_denormal_grades():
    # 5e-324 / log2(3) rounded back up to 5e-324, so the list scored 1.0; it is 1/log2(3).
    assert rm.ndcg([0, 5e-324]) == pytest.approx(1 / L3, rel=1e-15)


def test_dcg_just_inside_the_float_range():
    # (2**1024 - 1) / log2(3) = 1.134e308: a float, although 2**1024 is not.
    expected = float(exact_dcg([0, 1024], "exponential"))
    assert expected == pytest.approx(1.1342e308, rel=1e-4)
    assert rm.dcg([0, 1024], gain="exponential") == pytest.approx(expected, rel=1e-15)


@pytest.mark.parametrize(
    ("call", "shown"),
    [
        (lambda: rm.dcg([2000], gain="exponential"), "about 1.15e+602"),  # 2**2000 = 1.148e602
        (lambda: rm.dcg([1e308, 1e308, 1e308]), "about 2.13e+308"),  # 1e308 * (1 + 0.631 + 0.5)
        (lambda: rm.dcg(["a"], relevant={"a": 1100}, gain="exponential"), "about 1.36e+331"),
    ],
)
def test_dcg_beyond_the_float_range_is_an_error(call, shown):
    with pytest.raises(ValueError, match=r"^x: the DCG \(gain=") as excinfo:
        call()
    assert shown in str(excinfo.value) and "beyond the float range" in str(excinfo.value)


def test_dcg_batch_names_the_query_beyond_the_float_range():
    with pytest.raises(ValueError, match=r"^x: the DCG \(gain='linear'\) \(query 1\) is about 2\.13e\+308"):
        rm.dcg([[1, 0, 0], [1e308, 1e308, 1e308]])


def test_rating_errors_scaled_like_hypot():
    # RMSE of one error of 1e200 is 1e200 (its square 1e400 is not a float).
    assert rm.rmse([0], [1e200]) == 1e200
    # Errors 3e200 and 4e200: sqrt((9 + 16) / 2) * 1e200, via math.hypot's own scaling.
    assert rm.rmse([0, 0], [3e200, 4e200]) == pytest.approx(
        math.hypot(3e200, 4e200) / math.sqrt(2), rel=1e-15
    )
    # An error of 2e308 (1e308 - (-1e308)) is beyond float range, but the mean of it and 0 is not.
    expected = float((Fraction(1e308) - Fraction(-1e308) + 0) / 2)
    assert rm.mae([-1e308, 0], [1e308, 0]) == expected == 1e308
    # By hand: sqrt(((2e308)**2 + 0) / 2) = sqrt(2) * 1e308 = 1.414e308.
    assert rm.rmse([-1e308, 0], [1e308, 0]) == pytest.approx(math.sqrt(2) * 1e308, rel=1e-15)
    # The smallest denormal: its square underflows to 0, so RMSE read 0.0.
    assert rm.rmse([5e-324], [0]) == 5e-324
    assert rm.mae([5e-324], [0]) == 5e-324


@pytest.mark.parametrize(
    ("metric", "y_true", "y_pred", "shown"),
    [
        (rm.mse, [0], [1e200], "the mean squared error is about 1e+400"),
        (rm.mse, [0, 0], [1e155, 1e155], "the mean squared error is about 1e+310"),
        (rm.mae, [-1e308], [1e308], "the mean absolute error is about 2e+308"),
        (rm.rmse, [-1e308], [1e308], "the root mean squared error is about 2e+308"),
    ],
)
def test_rating_error_beyond_the_float_range_is_an_error(metric, y_true, y_pred, shown):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning on the way either
        with pytest.raises(ValueError) as excinfo:
            metric(y_true, y_pred)
    message = str(excinfo.value)
    assert message.startswith("y_true, y_pred: ") and shown in message and "beyond the float range" in message


def test_counts_that_cannot_overflow_still_have_a_bound():
    # A recall denominator of 2**62 is a float exactly: 1 / 2**62.
    assert rm.recall([1, 0], n_relevant=2**62) == 2.0**-62
    for metric in (rm.recall, rm.average_precision, rm.r_precision):
        with pytest.raises(ValueError, match=r"^n_relevant must be at most 2\*\*63 - 1"):
            metric([1, 0], n_relevant=2**64)


def test_explain_tables_beyond_the_float_range_say_so():
    # The metric has a value (nDCG 1.0, RMSE 1e200); a hand table of 2**1024 or 1e400 does not.
    with pytest.raises(ValueError, match=r"^x: the step table would hold numbers beyond the float range"):
        rm.explain("ndcg", [1024, 0], gain="exponential")
    with pytest.raises(ValueError, match=r"^y_true, y_pred: the step table would hold numbers beyond"):
        rm.explain("rmse", [0], y_pred=[1e200])


def test_explain_rounds_large_values():
    # Rounding 1e20 to 10 places needs 31 digits, beyond Decimal's default 28.
    assert rm.explain("dcg", [1e20, 0], decimals=10).rounded == 1e20


# --------------------------------------------------------------------------
# 2. compare(): no significance from differences without spread
# --------------------------------------------------------------------------


def runs_with_reciprocal_ranks(rr_a, rr_b):
    qrels, run_a, run_b = {}, {}, {}
    for i, (a, b) in enumerate(zip(rr_a, rr_b)):
        q = f"q{i}"
        qrels[q] = {"rel": 1}
        for run, rr in ((run_a, a), (run_b, b)):
            rank = round(1 / rr)
            run[q] = {**{f"n{j}": 10.0 - j for j in range(rank - 1)}, "rel": 10.0 - rank}
    return qrels, run_a, run_b


def exact_sign_flip_p(d, alternative):
    """Every one of the 2**n sign flips, counted exactly."""
    observed = sum(d)
    sums = [sum(s * x for s, x in zip(signs, d)) for signs in itertools.product([1, -1], repeat=len(d))]
    greater = Fraction(sum(s >= observed for s in sums), len(sums))
    less = Fraction(sum(s <= observed for s in sums), len(sums))
    return {"greater": greater, "less": less, "two-sided": min(Fraction(1), 2 * min(greater, less))}[
        alternative
    ]


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize(
    ("rr_a", "rr_b"),
    [
        ([1 / 2] * 4, [1.0] * 4),  # every query +1/2
        ([1.0] * 3, [1 / 4] * 3),  # every query -3/4
        ([1 / 3, 1 / 2, 1.0], [1 / 3, 1 / 2, 1.0]),  # identical runs: every difference 0
    ],
)
def test_compare_differences_without_spread(alternative, rr_a, rr_b):
    qrels, run_a, run_b = runs_with_reciprocal_ranks(rr_a, rr_b)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        row = rm.compare(run_a, run_b, qrels, "mrr", alternative=alternative, n_resamples=100)["mrr"]
    d = [Fraction(b).limit_denominator(10) - Fraction(a).limit_denominator(10) for a, b in zip(rr_a, rr_b)]
    assert math.isnan(row.t_statistic) and math.isnan(row.p_ttest) and math.isnan(row.p_ttest_holm)
    assert row.p_permutation == pytest.approx(float(exact_sign_flip_p(d, alternative)))
    assert row.ci_low == row.ci_high == row.difference == pytest.approx(float(d[0]))


# --------------------------------------------------------------------------
# 3. The Python API: a table of awkward inputs for every public function
# --------------------------------------------------------------------------

AWKWARD = {
    "True": True,
    "False": False,
    "np.int64(3)": np.int64(3),
    "np.float32(0.5)": np.float32(0.5),
    "np.bool_": np.True_,
    "10**30": 10**30,
    "10**400": 10**400,
    "Fraction(1, 2)": Fraction(1, 2),
    "Decimal('0.5')": Decimal("0.5"),
    "Decimal('sNaN')": Decimal("sNaN"),
    "nan": math.nan,
    "inf": math.inf,
    "-inf": -math.inf,
    "None": None,
    "-1": -1,
    "0": 0,
    "2.5": 2.5,
    "5e-324": 5e-324,
    "1e308": 1e308,
    "'3'": "3",
    "''": "",
    "[]": [],
    "[[]]": [[]],
    "ragged": [[1, 0], [1]],
    "object array": np.array([1, 0, Fraction(1, 2)], dtype=object),
    "[huge ints]": [10**30, 0, 10**30],
    "[10**400, 0]": [10**400, 0],
    "[1e308] * 3": [1e308] * 3,
    "[5e-324, 0]": [5e-324, 0],
    "[nan, 1]": [math.nan, 1],
    "[O, 2, X]": ["O", 2, "X"],
    "[None, 1]": [None, 1],
    "[True, False]": [True, False],
    "[Fractions]": [Fraction(1, 3), 0, Fraction(2, 3)],
    "[Decimals]": [Decimal("0.5"), Decimal(0), Decimal("1.5")],
    "[-1, 1]": [-1, 1],
    "3-D": np.zeros((2, 2, 2)),
    "{'a'}": {"a"},
    "{'a': 1}": {"a": 1},
    "{'a': Fraction}": {"a": Fraction(1, 2)},
    "{'a': 10**400}": {"a": 10**400},
    "{'a': nan}": {"a": math.nan},
    "{'a': '1'}": {"a": "1"},
}

GRADES = [3, 0, 2, 1]
IDS = ["a", "b", "c"]
JUDGED = {"a": 2, "c": 1, "d": 1}
QRELS = {"q1": {"d1": 1, "d2": 1}, "q2": {"d1": 1}, "q3": {"d2": 1}}
RUN_A = {"q1": {"d1": 0.2, "d2": 0.9}, "q2": {"d1": 0.5, "d3": 0.9}, "q3": {"d2": 0.9}}
RUN_B = {"q1": {"d1": 0.9, "d2": 0.2}, "q2": {"d1": 0.9}, "q3": {"d3": 0.9, "d2": 0.1}}


def _call(function, *args, **kwargs):
    return lambda value, slot: function(
        *[value if a is slot else a for a in args],
        **{name: (value if v is slot else v) for name, v in kwargs.items()},
    )


SLOT = object()  # where the awkward value goes

# (label, argument name, call). Each varies one argument; the others are valid.
CALLS = []
for f in (rm.precision, rm.hit_rate, rm.reciprocal_rank, rm.mean_rank, rm.dcg, rm.ndcg):
    CALLS += [(f"{f.__name__}(x)", "x", _call(f, SLOT)), (f"{f.__name__}(k)", "k", _call(f, GRADES, SLOT))]
    CALLS += [(f"{f.__name__}(relevant)", "relevant", _call(f, IDS, relevant=SLOT))]
for f in (rm.recall, rm.f1, rm.average_precision):
    CALLS += [
        (f"{f.__name__}(x)", "x", _call(f, SLOT)),
        (f"{f.__name__}(k)", "k", _call(f, GRADES, SLOT)),
        (f"{f.__name__}(n_relevant)", "n_relevant", _call(f, GRADES, n_relevant=SLOT)),
        (f"{f.__name__}(relevant)", "relevant", _call(f, IDS, relevant=SLOT)),
    ]
CALLS += [
    ("r_precision(x)", "x", _call(rm.r_precision, SLOT)),
    ("r_precision(n_relevant)", "n_relevant", _call(rm.r_precision, GRADES, n_relevant=SLOT)),
    ("r_precision(relevant)", "relevant", _call(rm.r_precision, IDS, relevant=SLOT)),
    ("dcg(gain)", "gain", _call(rm.dcg, GRADES, gain=SLOT)),
    ("ndcg(gain)", "gain", _call(rm.ndcg, GRADES, gain=SLOT)),
    ("ndcg(ideal)", "ideal", _call(rm.ndcg, GRADES, ideal=SLOT)),
    ("average_precision(denominator)", "denominator", _call(rm.average_precision, GRADES, denominator=SLOT)),
    ("mean_average_precision(queries)", "queries", _call(rm.mean_average_precision, SLOT)),
    ("mean_average_precision(k)", "k", _call(rm.mean_average_precision, [GRADES, [0, 1]], SLOT)),
    (
        "mean_average_precision(n_relevant)",
        "n_relevant",
        _call(rm.mean_average_precision, [GRADES, [0, 1]], n_relevant=SLOT),
    ),
    ("mean_reciprocal_rank(queries)", "queries", _call(rm.mean_reciprocal_rank, SLOT)),
    ("mean_reciprocal_rank(k)", "k", _call(rm.mean_reciprocal_rank, [GRADES, [0, 1]], SLOT)),
    ("mse(y_true)", "y_true", _call(rm.mse, SLOT, [1, 2, 3])),
    ("mae(y_pred)", "y_pred", _call(rm.mae, [1, 2, 3], SLOT)),
    ("rmse(y_true)", "y_true", _call(rm.rmse, SLOT, [1, 2, 3])),
    ("order_by_score(grades)", "grades", _call(rm.order_by_score, SLOT, [0.3, 0.1, 0.2])),
    ("order_by_score(scores)", "scores", _call(rm.order_by_score, [3, 0, 1], SLOT)),
    ("holm(p_values)", "p_values", _call(rm.holm, SLOT)),
    ("explain(decimals)", "decimals", _call(lambda d: rm.explain("ndcg", GRADES, decimals=d).value, SLOT)),
    ("explain(k)", "k", _call(lambda k: rm.explain("average_precision", GRADES, k).value, SLOT)),
    ("explain(x)", "x", _call(lambda x: rm.explain("precision", x).value, SLOT)),
]


def check_outcome(label, name, call, value):
    """A finite float (or finite array), or a ValueError whose message names the argument."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            result = call(value, SLOT)
    except ValueError as error:
        message = str(error)
        if name == "relevant" and value is None:  # no judgements: the ids are read as grades
            name = "x"
            assert "relevant={...}" in message, message
        # mean_* prefix the query: "queries[0]: n_relevant must ..."
        assert name in message.split(":")[0] or message.startswith("queries[") and name in message, (
            f"{label} with {value!r}: the message does not name {name!r}: {message}"
        )
        return None
    if isinstance(result, np.ndarray):
        allowed_nan = label.startswith("mean_rank") or (
            label.startswith("holm") and np.isnan(np.asarray(value, float)).any()
        )
        finite = np.isfinite(result) | (np.isnan(result) if allowed_nan else False)
        assert result.dtype == float and finite.all(), f"{label} with {value!r} gave {result!r}"
    else:
        assert type(result) is float, f"{label} with {value!r} gave a {type(result).__name__}: {result!r}"
        # mean_rank is documented to be nan when nothing relevant is listed.
        assert math.isfinite(result) or (label.startswith("mean_rank") and math.isnan(result)), (
            f"{label} with {value!r} gave {result!r}"
        )
    return result


@pytest.mark.parametrize(("label", "name", "call"), CALLS, ids=[c[0] for c in CALLS])
def test_awkward_input_gives_a_finite_value_or_names_the_argument(label, name, call):
    # Every awkward value, one call (argument) per test: an error names the argument; the
    # values themselves are checked against the brute-force definitions below.
    for value in AWKWARD.values():
        check_outcome(label, name, call, value)


def brute_force(grades, k, gain="linear"):
    """Every ranking metric of one list by its textbook definition, one rank at a time.

    Relevant means a grade above 0; R is the number of relevant items in the list; the
    cutoff k (None: the whole list) divides P@k even when the list is shorter.
    """
    top = grades if k is None else grades[:k]
    depth = len(grades) if k is None else k
    relevant = [1 if g > 0 else 0 for g in grades]
    n_relevant = sum(relevant)
    hits = sum(relevant[: len(top)])
    p = hits / depth
    r = hits / n_relevant if n_relevant else 0.0
    ranks = [i + 1 for i in range(len(top)) if relevant[i]]

    def dcg(listed):
        gains = [2**g - 1 if gain == "exponential" else g for g in listed]
        return sum(value / math.log2(rank + 1) for rank, value in enumerate(gains, start=1))

    ideal = dcg(sorted(grades, reverse=True)[: len(top)])
    return {
        "precision": p,
        "recall": r,
        "f1": 2 * p * r / (p + r) if p + r else 0.0,
        "hit_rate": float(hits > 0),
        "reciprocal_rank": 1 / ranks[0] if ranks else 0.0,
        "mean_rank": sum(ranks) / len(ranks) if ranks else math.nan,
        "average_precision": sum(sum(relevant[:rank]) / rank for rank in ranks) / n_relevant
        if n_relevant
        else 0.0,
        "dcg": dcg(top),
        "ndcg": dcg(top) / ideal if ideal else 0.0,
    }


lists_of_grades = st.lists(st.integers(0, 3), min_size=1, max_size=12)
cutoffs = st.none() | st.integers(1, 15)


@settings(max_examples=300, deadline=None)
@given(grades=lists_of_grades, k=cutoffs, gain=st.sampled_from(["linear", "exponential"]))
def test_each_ranking_metric_equals_its_brute_force_definition(grades, k, gain):
    expected = brute_force(grades, k, gain)
    got = {name: getattr(rm, name)(grades, k) for name in expected if name not in ("dcg", "ndcg")}
    got |= {name: getattr(rm, name)(grades, k, gain=gain) for name in ("dcg", "ndcg")}
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-15, nan_ok=True)
    # R-precision: P@R with R the relevant items in the list.
    n_relevant = sum(g > 0 for g in grades)
    r_precision = brute_force(grades, n_relevant)["precision"] if n_relevant else 0.0
    assert rm.r_precision(grades) == pytest.approx(r_precision, rel=1e-12)


@settings(max_examples=150, deadline=None)
@given(queries=st.lists(lists_of_grades, min_size=1, max_size=5), k=cutoffs)
def test_map_and_mrr_are_means_of_the_brute_force_values(queries, k):
    values = [brute_force(grades, k) for grades in queries]
    assert rm.mean_average_precision(queries, k) == pytest.approx(
        sum(v["average_precision"] for v in values) / len(values), rel=1e-12, abs=1e-15
    )
    assert rm.mean_reciprocal_rank(queries, k) == pytest.approx(
        sum(v["reciprocal_rank"] for v in values) / len(values), rel=1e-12, abs=1e-15
    )


@settings(max_examples=150, deadline=None)
@given(
    pairs=st.lists(
        st.tuples(st.integers(-5, 5), st.floats(-5, 5, allow_nan=False)).map(
            lambda t: (t[0], round(t[1], 2))
        ),
        min_size=1,
        max_size=10,
    )
)
def test_rating_errors_equal_their_definitions(pairs):
    errors = [Fraction(p) - Fraction(t) for t, p in pairs]  # exact differences
    y_true, y_pred = [t for t, _ in pairs], [p for _, p in pairs]
    mse = sum(e * e for e in errors) / len(errors)
    assert rm.mse(y_true, y_pred) == pytest.approx(float(mse), rel=1e-12, abs=1e-15)
    assert rm.mae(y_true, y_pred) == pytest.approx(
        float(sum(abs(e) for e in errors) / len(errors)), rel=1e-12
    )
    assert rm.rmse(y_true, y_pred) == pytest.approx(math.sqrt(mse), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("confidence_level", value)
        for value in (True, np.True_, 0, 1, 1.5, math.nan, "0.9", None, 10**400, Decimal("sNaN"))
    ]
    + [("n_resamples", value) for value in (True, 0, -1, 2.5, None, 10**400, "100")]
    + [("random_state", value) for value in (True, -1, 2.5, None, "0")]
    + [("alternative", value) for value in (None, 1, "bigger")],
    ids=lambda value: repr(value)[:20],
)
def test_compare_refuses_awkward_options_by_name(option, value):
    with pytest.raises(ValueError) as excinfo:
        rm.compare(RUN_A, RUN_B, QRELS, "mrr", **{option: value})
    assert str(excinfo.value).startswith(option), str(excinfo.value)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("confidence_level", np.float32(0.9)),
        ("confidence_level", Fraction(9, 10)),
        ("confidence_level", Decimal("0.9")),
        ("n_resamples", np.int64(50)),
        ("random_state", np.int64(3)),
        ("random_state", 10**30),
    ],
    ids=repr,
)
def test_compare_accepts_plain_numbers_of_any_type(option, value):
    settings = {"n_resamples": 50, option: value}
    row = rm.compare(RUN_A, RUN_B, QRELS, "mrr", **settings)["mrr"]
    assert type(row.p_permutation) is float and 0 <= row.p_permutation <= 1


# The specific decisions behind the table, each with its expected value.


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        # A Fraction or Decimal is a plain number: judged grade 1/2 of item "a" at rank 1, nothing else.
        (lambda: rm.ndcg(["a", "b"], relevant={"a": Fraction(1, 2)}), 1.0),
        (lambda: rm.dcg(["b", "a"], relevant={"a": Decimal("0.5")}), 0.5 / L3),
        (lambda: rm.dcg([Fraction(1, 2), 0, Fraction(3, 2)]), 0.5 + 1.5 / 2),
        (lambda: rm.dcg(np.array([1, 0, Fraction(1, 2)], dtype=object)), 1 + 0.5 / 2),
        (lambda: rm.recall([1, 0, 1], n_relevant=Fraction(4)), 2 / 4),
        (lambda: rm.recall([1, 0, 1], n_relevant=np.int64(4)), 2 / 4),
        (lambda: rm.precision([1, 0, 1], k=np.int64(2)), 1 / 2),
        # An int beyond int64 whose value is a float: 2**70 at rank 1, 2**70 at rank 3.
        (lambda: rm.ndcg([2**70, 0, 2**70]), (1 + 1 / 2) / (1 + 1 / L3)),
        (lambda: rm.mse([Fraction(1, 2)], [Decimal("1.5")]), 1.0),
        (lambda: rm.explain("precision", [1, 0, 1, 1], decimals=0).rounded, 1.0),  # 3/4 rounds half up to 1
        (lambda: rm.explain("precision", [1, 0, 1, 1], decimals=np.int64(1)).rounded, 0.8),  # 0.75 -> 0.8
    ],
)
def test_plain_numbers_of_any_type_are_accepted(call, expected):
    assert call() == pytest.approx(expected, rel=1e-15)


@pytest.mark.parametrize(
    ("call", "start"),
    [
        (lambda: rm.recall([1, 0], n_relevant=True), "n_relevant must be a whole number (a count), not True"),
        (lambda: rm.recall([[1, 0], [0, 1]], n_relevant=[2, True]), "n_relevant must be a whole number"),
        (
            lambda: rm.recall([[1, 0], [0, 1]], n_relevant=np.array([True, True])),
            "n_relevant must be a whole",
        ),
        (lambda: rm.mean_average_precision([[1, 0]], n_relevant=[True]), "queries[0]: n_relevant must be"),
        (lambda: rm.precision([1, 0], k=True), "k must be a positive integer or None; got True"),
        (lambda: rm.precision([1, 0], k=np.True_), "k must be a positive integer or None"),
        (lambda: rm.explain("ndcg", [1, 0], decimals=True), "decimals must be a whole number from 0 to 15"),
        # k: a cutoff beyond 2**63 - 1 is refused (k=None says "the whole list"), not an OverflowError.
        (lambda: rm.precision([1, 0], k=10**400), "k must be at most 2**63 - 1"),
        (lambda: rm.average_precision([1, 0], 10**30, denominator="min_k_relevant"), "k must be at most"),
        (lambda: rm.explain("ndcg", [1, 0], decimals=28), "decimals must be a whole number from 0 to 15"),
        (lambda: rm.ndcg([10**400, 0]), "x has 10000"),
        (lambda: rm.ndcg(["a"], relevant={"a": 10**400}), "relevant['a'] has 10000"),
        (lambda: rm.ndcg([Decimal("1e400"), 0]), "x has Decimal('1E+400')"),
        (lambda: rm.ndcg(["O", 2, "X"]), "x must contain only numbers"),
        (lambda: rm.holm([0.5, 1.5]), "p_values must lie in [0, 1]"),
    ],
)
def test_refused_with_a_message_naming_the_argument(call, start):
    with pytest.raises(ValueError) as excinfo:
        call()
    assert str(excinfo.value).startswith(start), str(excinfo.value)


def test_o_x_marks_point_to_the_python_spelling():
    with pytest.raises(
        ValueError, match=r"found 'O' in \['O', 2, 'X'\] \(O/X marks are read by the command line"
    ):
        rm.precision(["O", 2, "X"])


# --------------------------------------------------------------------------
# 4. One query gives a plain Python float
# --------------------------------------------------------------------------

SINGLE_QUERY = [
    lambda: rm.precision(GRADES, 2),
    lambda: rm.recall(GRADES, 2, n_relevant=4),
    lambda: rm.f1(GRADES, 2),
    lambda: rm.hit_rate(GRADES, 2),
    lambda: rm.r_precision(GRADES),
    lambda: rm.reciprocal_rank(GRADES),
    lambda: rm.mean_rank(GRADES),
    lambda: rm.average_precision(GRADES),
    lambda: rm.dcg(GRADES),
    lambda: rm.ndcg(GRADES),
    lambda: rm.ndcg(IDS, relevant=JUDGED),
    lambda: rm.dcg(np.array(GRADES, dtype=np.float32)),
    lambda: rm.ndcg(np.array(GRADES, dtype=object)),
    lambda: rm.mean_average_precision([GRADES, [0, 1]]),
    lambda: rm.mean_reciprocal_rank([GRADES, [0, 1]]),
    lambda: rm.mse(np.array([1, 2], dtype=np.float32), [2, 2]),
    lambda: rm.mae([1, 2], [2, 2]),
    lambda: rm.rmse([1, 2], [2, 2]),
    lambda: rm.explain("ndcg", GRADES).value,
    lambda: rm.explain("ndcg", GRADES, decimals=2).rounded,
    lambda: rm.compare(RUN_A, RUN_B, QRELS, "mrr", n_resamples=20)["mrr"].p_permutation,
]


@pytest.mark.parametrize("call", SINGLE_QUERY, ids=range(len(SINGLE_QUERY)))
def test_one_query_gives_a_plain_float(call):
    result = call()
    assert type(result) is float, type(result)
