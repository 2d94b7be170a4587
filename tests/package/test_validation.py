"""Every bad input of the contract raises ValueError naming the argument and its value.

Each case runs for every function it applies to. The messages come from one
module (rankmetrics/_validation.py), so the same mistake reads the same
everywhere; the tests check the start of the message (the argument's name) and
that the offending value is shown.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import rankmetrics as rm

WITH_N_RELEVANT = [rm.recall, rm.f1, rm.average_precision]
MEAN_METRICS = [rm.mean_average_precision, rm.mean_reciprocal_rank]
RATING_METRICS = [rm.mse, rm.mae, rm.rmse]


def ids(functions):
    return [f.__name__ for f in functions]


def check_message(excinfo, name, *shown):
    """The message starts with the argument's name and contains each shown text."""
    message = str(excinfo.value)
    assert message.startswith(name), message
    for text in shown:
        assert text in message, message
    return message


# --------------------------------------------------------------------------
# Empty input
# --------------------------------------------------------------------------


@pytest.mark.parametrize("empty", [[], (), np.array([]), [[]], np.zeros((2, 0))], ids=repr)
def test_empty_grades(ranking_metric, empty):
    with pytest.raises(ValueError) as excinfo:
        ranking_metric(empty)
    check_message(excinfo, "x is empty", "got ")


def test_empty_ranking_of_ids(ranking_metric):
    with pytest.raises(ValueError) as excinfo:
        ranking_metric([], relevant={"A"})
    check_message(excinfo, "ranking is empty", "got []")


@pytest.mark.parametrize("metric", MEAN_METRICS, ids=ids(MEAN_METRICS))
def test_empty_queries(metric):
    with pytest.raises(ValueError) as excinfo:
        metric([])
    check_message(excinfo, "queries is empty")


@pytest.mark.parametrize("metric", MEAN_METRICS, ids=ids(MEAN_METRICS))
def test_one_empty_query_is_named(metric):
    with pytest.raises(ValueError) as excinfo:
        metric([[1, 0], []])
    check_message(excinfo, "queries[1]: x is empty", "got []")


# --------------------------------------------------------------------------
# Non-finite, negative and non-numeric grades
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "shown"),
    [
        ([1, math.nan, 0], "nan"),
        ([1, math.inf, 0], "inf"),
        ([1, -math.inf, 0], "-inf"),
        ([[1, 0], [0, math.nan]], "nan"),
        (np.array([0.0, np.inf]), "inf"),
    ],
)
def test_non_finite_grade(ranking_metric, bad, shown):
    with pytest.raises(ValueError) as excinfo:
        ranking_metric(bad)
    check_message(excinfo, "x must be finite", f"found {shown}")


@pytest.mark.parametrize(("bad", "shown"), [([1, -1, 0], "-1"), ([[1, 0], [0, -0.5]], "-0.5")])
def test_negative_grade_in_grades_form(ranking_metric, bad, shown):
    with pytest.raises(ValueError) as excinfo:
        ranking_metric(bad)
    message = check_message(excinfo, "x must not contain negative grades", f"found {shown}")
    assert "relevant=" in message  # says where TREC's -1 is accepted


@pytest.mark.parametrize(
    ("bad", "shown"),
    [
        ([1, "a", 0], "found 'a'"),  # the offending item itself, not numpy's string copy of 1
        ([[1, 0], [1, "a"]], "found 'a'"),
        ([None, 1], "found None"),
        (["A", "B"], "found 'A'"),  # ids without relevant=
        ([1, 1j], "found 1j"),
    ],
)
def test_non_numeric_grade(ranking_metric, bad, shown):
    with pytest.raises(ValueError) as excinfo:
        ranking_metric(bad)
    check_message(excinfo, "x must contain only numbers", shown)


@pytest.mark.parametrize(
    ("bad", "start", "shown"),
    [
        ("10110", "x must be a sequence of numbers", "'10110'"),
        ({1, 0}, "x must be an ordered sequence", "set"),
        ({"A": 1}, "x must be an ordered sequence", "dict"),
        (3, "x must be a sequence of grades", "got 3"),
    ],
)
def test_not_a_sequence_of_grades(ranking_metric, bad, start, shown):
    with pytest.raises(ValueError) as excinfo:
        ranking_metric(bad)
    check_message(excinfo, start, shown)


def test_booleans_are_grades():
    # True/False are allowed in the grades form: the same as 1/0
    assert rm.precision([True, False, True]) == rm.precision([1, 0, 1])
    assert rm.ndcg(np.array([[False, True], [True, False]])).tolist() == rm.ndcg([[0, 1], [1, 0]]).tolist()


# --------------------------------------------------------------------------
# k
# --------------------------------------------------------------------------

BAD_K = [0, -1, 2.5, True, False, "3", 3.0, np.float64(2.0), [2]]


@pytest.mark.parametrize("k", BAD_K, ids=repr)
def test_bad_k(metric_with_k, k):
    x = [[1, 0, 1]] if metric_with_k in MEAN_METRICS else [1, 0, 1]
    with pytest.raises(ValueError) as excinfo:
        metric_with_k(x, k=k)
    check_message(excinfo, "k must be a positive integer", f"got {k!r}")


def test_relevant_passed_as_k_gets_a_hint(ranking_metric):
    # metric(ranking, {"B"}) puts the judgements into k by position
    with pytest.raises(ValueError) as excinfo:
        ranking_metric(list("ABC"), {"B"})
    check_message(excinfo, "k must be a positive integer", "got {'B'}", "relevant=")


@pytest.mark.parametrize("k", [1, np.int64(2), 7])
def test_good_k(ranking_metric, k):
    # numpy integers and k beyond the list are fine
    value = ranking_metric([1, 0, 1], k=k)
    assert type(value) is float


# --------------------------------------------------------------------------
# n_relevant
# --------------------------------------------------------------------------


@pytest.mark.parametrize("metric", WITH_N_RELEVANT, ids=ids(WITH_N_RELEVANT))
@pytest.mark.parametrize(("n", "shown"), [(-1, "got -1"), (2.5, "got 2.5"), (math.nan, "nan")])
def test_n_relevant_not_a_count(metric, n, shown):
    with pytest.raises(ValueError) as excinfo:
        metric([0, 0, 0], n_relevant=n)
    check_message(excinfo, "n_relevant must be", shown)


@pytest.mark.parametrize("metric", WITH_N_RELEVANT, ids=ids(WITH_N_RELEVANT))
def test_n_relevant_smaller_than_present(metric):
    # two relevant grades are listed, so there are at least 2 relevant items
    with pytest.raises(ValueError) as excinfo:
        metric([1, 0, 1], n_relevant=1)
    check_message(excinfo, "n_relevant=1 is smaller than the 2 relevant items")


@pytest.mark.parametrize("metric", WITH_N_RELEVANT, ids=ids(WITH_N_RELEVANT))
def test_n_relevant_smaller_in_a_batch(metric):
    with pytest.raises(ValueError) as excinfo:
        metric([[1, 0, 1], [1, 1, 1]], n_relevant=[2, 2])
    check_message(excinfo, "n_relevant=2 is smaller than the 3 relevant items")


@pytest.mark.parametrize("metric", WITH_N_RELEVANT, ids=ids(WITH_N_RELEVANT))
def test_n_relevant_wrong_count_for_batch(metric):
    with pytest.raises(ValueError) as excinfo:
        metric([[1, 0], [0, 1]], n_relevant=[2, 2, 2])
    check_message(excinfo, "n_relevant must give one number per query (2)", "[2, 2, 2]")


@pytest.mark.parametrize("metric", WITH_N_RELEVANT, ids=ids(WITH_N_RELEVANT))
def test_n_relevant_equal_to_present_is_fine(metric):
    assert metric([1, 0, 1], n_relevant=2) == metric([1, 0, 1])


def test_map_n_relevant_per_query():
    with pytest.raises(ValueError) as excinfo:
        rm.mean_average_precision([[1, 0], [0, 1]], n_relevant=3)  # one number, two queries
    check_message(excinfo, "n_relevant must give one entry per query (2 queries)", "got 3")
    with pytest.raises(ValueError) as excinfo:
        rm.mean_average_precision([[1, 0], [1, 1]], n_relevant=[4, 1])
    check_message(excinfo, "queries[1]: n_relevant=1 is smaller than the 2 relevant items")


@pytest.mark.parametrize("metric", MEAN_METRICS, ids=ids(MEAN_METRICS))
def test_mean_relevant_per_query(metric):
    with pytest.raises(ValueError) as excinfo:
        metric([list("AB"), list("BC")], relevant={"B"})  # one set for two queries
    check_message(excinfo, "relevant must give one entry per query (2 queries)", "{'B'}")


# --------------------------------------------------------------------------
# Ids: duplicates, unhashable, strings
# --------------------------------------------------------------------------


def test_duplicate_ids(ranking_metric):
    with pytest.raises(ValueError) as excinfo:
        ranking_metric(["A", "B", "C", "A"], relevant={"A"})
    check_message(excinfo, "ranking contains the id 'A' twice", "ranks 1 and 4")


def test_ranking_given_as_one_string(ranking_metric):
    with pytest.raises(ValueError) as excinfo:
        ranking_metric("ABCDE", relevant={"B"})
    check_message(excinfo, "ranking must be a sequence of item ids", "'ABCDE'", "list('ABCDE')")


def test_unhashable_id(ranking_metric):
    with pytest.raises(ValueError) as excinfo:
        ranking_metric([["A"], "B"], relevant={"B"})
    check_message(excinfo, "ranking contains an unhashable id", "['A']", "rank 1")


@pytest.mark.parametrize(
    ("relevant", "start", "shown"),
    [
        ({"B": math.nan}, "relevant['B'] must be finite", "nan"),
        ({"B": math.inf}, "relevant['B'] must be finite", "inf"),
        ({"B": "high"}, "relevant['B'] must be a number", "'high'"),
        ("B", "relevant must be a collection of ids", "'B'"),
        (5, "relevant must be a collection of ids", "5"),
    ],
)
def test_bad_judgements(ranking_metric, relevant, start, shown):
    with pytest.raises(ValueError) as excinfo:
        ranking_metric(list("ABC"), relevant=relevant)
    check_message(excinfo, start, shown)


# --------------------------------------------------------------------------
# Shape: 3-D input and ragged lists
# --------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [np.zeros((2, 2, 2)), [[[1, 0]], [[0, 1]]]], ids=["array", "lists"])
def test_three_dimensional(ranking_metric, bad):
    with pytest.raises(ValueError) as excinfo:
        ranking_metric(bad)
    check_message(excinfo, "x must be 1-D (one query) or 2-D (one query per row)", "shape (2, ")


def test_ranking_of_ids_must_be_one_dimensional(ranking_metric):
    with pytest.raises(ValueError) as excinfo:
        ranking_metric(np.array([["A", "B"], ["C", "D"]]), relevant={"A"})
    check_message(excinfo, "ranking must be 1-D", "shape (2, 2)")


def test_ragged_batch_says_what_to_do(ranking_metric):
    with pytest.raises(ValueError) as excinfo:
        ranking_metric([[1, 0, 1], [0, 1]])
    message = check_message(excinfo, "x is a ragged nested list", "[[1, 0, 1], [0, 1]]")
    # how to pass such queries instead
    assert "pad each row with zeros" in message
    assert "mean_average_precision" in message
    assert "once per query" in message


@pytest.mark.parametrize("metric", MEAN_METRICS, ids=ids(MEAN_METRICS))
def test_mean_metrics_accept_ragged_queries(metric):
    # what the ragged-list message recommends must work: rankings of any lengths
    queries = [[1, 0, 1], [0, 1], [0, 0, 0, 1]]
    expected = {
        # AP: (1 + 2/3)/2, 1/2, 1/4
        "mean_average_precision": ((1 + 2 / 3) / 2 + 1 / 2 + 1 / 4) / 3,
        # RR: 1, 1/2, 1/4
        "mean_reciprocal_rank": (1 + 1 / 2 + 1 / 4) / 3,
    }[metric.__name__]
    assert metric(queries) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("metric", MEAN_METRICS, ids=ids(MEAN_METRICS))
def test_mean_metrics_refuse_a_nested_query(metric):
    with pytest.raises(ValueError) as excinfo:
        metric([[1, 0], [[1, 0], [0, 1]]])
    check_message(excinfo, "queries[1] must be one ranking (1-D)")


@pytest.mark.parametrize("metric", MEAN_METRICS, ids=ids(MEAN_METRICS))
def test_mean_metrics_refuse_one_flat_ranking(metric):
    # a flat list is one ranking, not a list of them: the first "query" is a number
    with pytest.raises(ValueError) as excinfo:
        metric([1, 0, 1])
    check_message(excinfo, "queries[0]: x must be a sequence of grades", "got 1")


@pytest.mark.parametrize("metric", MEAN_METRICS, ids=ids(MEAN_METRICS))
def test_mean_metrics_name_the_bad_query(metric):
    with pytest.raises(ValueError) as excinfo:
        metric([[1, 0], [0, -1]])
    check_message(excinfo, "queries[1]: x must not contain negative grades", "found -1")


# --------------------------------------------------------------------------
# gain
# --------------------------------------------------------------------------


@pytest.mark.parametrize("metric", [rm.dcg, rm.ndcg], ids=["dcg", "ndcg"])
@pytest.mark.parametrize("gain", ["exp", "Linear", "2^rel-1", None, 2])
def test_unknown_gain(metric, gain):
    with pytest.raises(ValueError) as excinfo:
        metric([3, 2, 1], gain=gain)
    check_message(excinfo, "gain must be one of", "'linear'", "'exponential'", f"got {gain!r}")


# --------------------------------------------------------------------------
# ideal
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "ideal", "start", "shown"),
    [
        # the listed 3 has no partner >= 3 in the ideal
        (
            [3, 0],
            [2, 1],
            "ideal must contain the grades of every judged item",
            "[3.0] but ideal is [2.0, 1.0]",
        ),
        # two listed relevant items, only one in the ideal
        (
            [1, 0, 1],
            [1],
            "ideal must contain the grades of every judged item",
            "[1.0, 1.0] but ideal is [1.0]",
        ),
        # a batch names the row
        (
            [[1, 0], [1, 1]],
            [[1, 1], [1]],
            "ideal[1] must contain the grades of every judged item",
            "[1.0, 1.0] but ideal[1] is [1.0]",
        ),
    ],
)
def test_ideal_lacking_listed_grades(x, ideal, start, shown):
    with pytest.raises(ValueError) as excinfo:
        rm.ndcg(x, ideal=ideal)
    check_message(excinfo, start, shown)


@pytest.mark.parametrize(
    ("ideal", "start", "shown"),
    [
        ([1, math.nan], "ideal must be finite", "nan"),
        ([1, -1], "ideal must not contain negative grades", "-1"),
        ([], "ideal is empty", "[]"),
        ([[1, 1], [1, 1]], "ideal must be 1-D", "(2, 2)"),
    ],
)
def test_bad_ideal_values(ideal, start, shown):
    with pytest.raises(ValueError) as excinfo:
        rm.ndcg([1, 0], ideal=ideal)
    check_message(excinfo, start, shown)


def test_ideal_rows_must_match_the_batch():
    with pytest.raises(ValueError) as excinfo:
        rm.ndcg([[1, 0], [0, 1]], ideal=[[1, 1]])
    check_message(excinfo, "ideal must give one row of judged grades per query (2)", "got 1")


def test_ideal_with_more_judged_items_is_fine():
    # 1 / (1 + 1/log2(3)) with two judged relevant items, one listed at rank 1
    assert rm.ndcg([1, 0], ideal=[1, 1, 0]) == pytest.approx(1 / (1 + 1 / math.log2(3)), rel=1e-12)


# --------------------------------------------------------------------------
# relevant= combined with the grades-form keywords
# --------------------------------------------------------------------------


@pytest.mark.parametrize("metric", WITH_N_RELEVANT, ids=ids(WITH_N_RELEVANT))
def test_relevant_with_n_relevant(metric):
    with pytest.raises(ValueError) as excinfo:
        metric(list("ABC"), relevant={"B"}, n_relevant=4)
    check_message(excinfo, "n_relevant cannot be combined with relevant=", "n_relevant=4")


def test_relevant_with_ideal_grades():
    with pytest.raises(ValueError) as excinfo:
        rm.ndcg(list("ABC"), relevant={"B"}, ideal=[1, 1])
    check_message(excinfo, "ideal cannot be combined with relevant=", "ideal=[1, 1]")


# --------------------------------------------------------------------------
# TREC's -1: legal in the judgements, counted as non-relevant
# --------------------------------------------------------------------------


def test_trec_minus_one_is_non_relevant():
    ranking = ["A", "B", "C"]
    judged = {"A": -1, "B": 1, "C": 0}
    # only B (rank 2) is relevant; A's -1 neither counts as relevant nor subtracts gain
    assert rm.precision(ranking, relevant=judged) == pytest.approx(1 / 3, rel=1e-12)
    assert rm.recall(ranking, relevant=judged) == 1.0  # 1 relevant in total, found
    assert rm.hit_rate(ranking, k=1, relevant=judged) == 0.0
    assert rm.reciprocal_rank(ranking, relevant=judged) == 0.5
    assert rm.mean_rank(ranking, relevant=judged) == 2.0
    assert rm.average_precision(ranking, relevant=judged) == 0.5  # (1/2) / 1
    # DCG = 1/log2(3) = 0.63093; IDCG = 1 (B first): the -1 is not a negative gain
    assert rm.dcg(ranking, relevant=judged) == pytest.approx(1 / math.log2(3), rel=1e-12)
    assert rm.ndcg(ranking, relevant=judged) == pytest.approx(1 / math.log2(3), rel=1e-12)
    assert rm.ndcg(ranking, relevant=judged, gain="exponential") == pytest.approx(1 / math.log2(3), rel=1e-12)
    # the same as marking A 0
    assert rm.ndcg(ranking, relevant={"A": 0, "B": 1, "C": 0}) == rm.ndcg(ranking, relevant=judged)


def test_trec_minus_one_unretrieved_does_not_count():
    # D judged -1 and not listed: it must not enter R
    assert rm.recall(["A", "B"], relevant={"B": 1, "D": -1}) == 1.0
    assert rm.average_precision(["A", "B"], relevant={"B": 1, "D": -1}) == 0.5


# --------------------------------------------------------------------------
# mse, mae, rmse
# --------------------------------------------------------------------------


@pytest.mark.parametrize("metric", RATING_METRICS, ids=ids(RATING_METRICS))
def test_ratings_of_different_lengths(metric):
    with pytest.raises(ValueError) as excinfo:
        metric([5, 4, 3], [4, 5])
    check_message(excinfo, "y_true and y_pred must have the same length", "got 3 and 2")


@pytest.mark.parametrize("metric", RATING_METRICS, ids=ids(RATING_METRICS))
@pytest.mark.parametrize(
    ("y_true", "y_pred", "name"), [([], [1], "y_true"), ([1], [], "y_pred"), ([], [], "y_true")]
)
def test_ratings_empty(metric, y_true, y_pred, name):
    with pytest.raises(ValueError) as excinfo:
        metric(y_true, y_pred)
    check_message(excinfo, f"{name} is empty", "got []")


@pytest.mark.parametrize("metric", RATING_METRICS, ids=ids(RATING_METRICS))
@pytest.mark.parametrize(
    ("y_true", "y_pred", "name", "shown"),
    [
        ([5, math.nan], [4, 5], "y_true", "nan"),
        ([5, 4], [4, math.inf], "y_pred", "inf"),
        ([5, 4], [-math.inf, 5], "y_pred", "-inf"),
    ],
)
def test_ratings_non_finite(metric, y_true, y_pred, name, shown):
    with pytest.raises(ValueError) as excinfo:
        metric(y_true, y_pred)
    check_message(excinfo, f"{name} must be finite", f"found {shown}")


@pytest.mark.parametrize("metric", RATING_METRICS, ids=ids(RATING_METRICS))
@pytest.mark.parametrize(
    ("y_true", "y_pred", "start", "shown"),
    [
        ([5, "4"], [4, 5], "y_true must contain only numbers", "'4'"),
        ([5, 4], [4, None], "y_pred must contain only numbers", "None"),
        ([[5, 4]], [[4, 5]], "y_true must be 1-D", "(1, 2)"),
        ("54", [4, 5], "y_true must be a sequence of numbers", "'54'"),
    ],
)
def test_ratings_wrong_kind(metric, y_true, y_pred, start, shown):
    with pytest.raises(ValueError) as excinfo:
        metric(y_true, y_pred)
    check_message(excinfo, start, shown)


def test_ratings_may_be_negative():
    # ratings are values, not grades: a negative rating is fine
    assert rm.mse([-1, 1], [1, 1]) == 2.0  # (4 + 0) / 2


# --------------------------------------------------------------------------
# order_by_score
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("grades", "scores", "start", "shown"),
    [
        ([3, 0, 2], [0.1, 0.2], "scores must have the same shape as grades", "(2,)"),
        ([3, 0, 2], [0.1, math.nan, 0.3], "scores must be finite", "nan"),
        ([3, 0, 2], [0.1, "high", 0.3], "scores must contain only numbers", "'high'"),
        ([], [], "grades is empty", "[]"),
        ([3, -1], [0.1, 0.2], "grades must not contain negative grades", "-1"),
        (np.zeros((2, 2, 2)), np.zeros((2, 2, 2)), "grades must be 1-D", "(2, 2, 2)"),
    ],
)
def test_order_by_score_bad_input(grades, scores, start, shown):
    with pytest.raises(ValueError) as excinfo:
        rm.order_by_score(grades, scores)
    check_message(excinfo, start, shown)


# --------------------------------------------------------------------------
# One wording everywhere
# --------------------------------------------------------------------------


def test_same_mistake_same_message(ranking_metrics):
    messages = set()
    for metric in ranking_metrics:
        with pytest.raises(ValueError) as excinfo:
            metric([1, math.nan])
        messages.add(str(excinfo.value))
    assert len(messages) == 1
    (message,) = messages
    assert re.fullmatch(r"x must be finite numbers; found nan in \[1, nan\]", message)


# --------------------------------------------------------------------------
# Decimal places (explain, worksheet): 0 .. 15, whole numbers only
# --------------------------------------------------------------------------


@pytest.mark.parametrize("good", [0, 1, 15, np.int64(3), np.int8(0)], ids=repr)
def test_check_decimals_accepts_whole_numbers(good):
    from rankmetrics import _validation as v

    assert v.check_decimals(good) == int(good)
    assert type(v.check_decimals(good)) is int


@pytest.mark.parametrize("bad", [True, False, np.True_, 2.5, -1, 16, 10**400, None, "2"], ids=repr)
def test_check_decimals_refuses(bad):
    from rankmetrics import _validation as v

    with pytest.raises(ValueError) as excinfo:
        v.check_decimals(bad, "places")
    check_message(excinfo, "places must be a whole number from 0 to 15", "got ")
