"""Other libraries' conventions, reached by rankmetrics' arguments.

The toy query of the library-differences chapter: the system ranks d1..d5; the judgements
are d1:3, d3:3, d4:2 and d6:1, and d6 was never retrieved. The known values were measured
by running each library; each is reproduced here by switching one convention, and
scikit-learn is run live for the ones it computes.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import rankmetrics as rm

RANKING = ["d1", "d2", "d3", "d4", "d5"]
JUDGED = {"d1": 3, "d3": 3, "d4": 2, "d6": 1}
GRADES = [3, 0, 3, 2, 0]  # the same ranking as grades
L3, L5 = math.log2(3), math.log2(5)  # discounts of ranks 2 and 4 (rank 3's is 2)


# ---------------------------------------------------------------- nDCG@5


def test_trec_eval_ideal_from_every_judged_item():
    # (3 + 3/2 + 2/log2 5) / (3 + 3/log2 3 + 2/2 + 1/log2 5): trec_eval, pytrec_eval, ir_measures, ranx
    expected = (3 + 3 / 2 + 2 / L5) / (3 + 3 / L3 + 1 + 1 / L5)
    got = rm.ndcg(RANKING, k=5, relevant=JUDGED)
    assert got == pytest.approx(expected)
    assert got == pytest.approx(0.8479, abs=5e-5)  # the libraries' printed value
    assert rm.ndcg(GRADES, k=5, ideal=[3, 3, 2, 1]) == pytest.approx(expected)


def test_listed_ideal_of_scikit_learn_and_torchmetrics():
    # Only the five retrieved items: the ideal is 3, 3, 2, 0, 0 and d6 is forgotten.
    expected = (3 + 3 / 2 + 2 / L5) / (3 + 3 / L3 + 2 / 2)
    got = rm.ndcg(RANKING, k=5, relevant=JUDGED, ideal="listed")
    assert got == pytest.approx(expected)
    assert got == pytest.approx(0.9098, abs=5e-5)  # the libraries' printed value
    assert rm.ndcg(GRADES, k=5) == pytest.approx(expected)  # the grades form's default


def test_binary_gain_of_recommender_libraries():
    # Microsoft Recommenders, RecBole, cornac: every relevant item gains 1; ideal = min(|R|, k) ones.
    expected = (1 + 1 / 2 + 1 / L5) / (1 + 1 / L3 + 1 / 2 + 1 / L5)
    got = rm.ndcg(RANKING, k=5, relevant=JUDGED, gain="binary")
    assert got == pytest.approx(expected)
    assert got == pytest.approx(0.7537, abs=5e-5)  # the libraries' printed value


def test_binary_gain_ideal_is_capped_at_k():
    # |R| = 6 > k = 3: the ideal is three ones, so a top 3 of hits scores 1.
    judged = {f"r{i}": 1 for i in range(6)}
    assert rm.ndcg(["r0", "r1", "r2", "x"], k=3, relevant=judged, gain="binary") == 1.0
    assert rm.ndcg(["r0", "x", "r2"], k=3, relevant=judged, gain="binary") == pytest.approx(
        (1 + 1 / 2) / (1 + 1 / L3 + 1 / 2)
    )


def test_exponential_gain_of_ranx_ndcg_burges_and_gdeval():
    # gains 2**g - 1: 7, 0, 7, 3, 0 against the ideal 7, 7, 3, 1
    expected = (7 + 7 / 2 + 3 / L5) / (7 + 7 / L3 + 3 / 2 + 1 / L5)
    got = rm.ndcg(RANKING, k=5, relevant=JUDGED, gain="exponential")
    assert got == pytest.approx(expected)
    assert got == pytest.approx(0.8835, abs=5e-5)  # the libraries' printed value


# ---------------------------------------------------------------- AP


def test_ap_divided_by_all_relevant():
    # (1/1 + 2/3 + 3/4) / |R| with |R| = 4: trec_eval's map
    assert rm.average_precision(RANKING, relevant=JUDGED) == pytest.approx((1 + 2 / 3 + 3 / 4) / 4)
    assert rm.average_precision(RANKING, relevant=JUDGED) == pytest.approx(0.6042, abs=5e-5)


def test_ap_divided_by_relevant_in_the_row():
    # scikit-learn's average_precision_score on the five retrieved items: / 3
    expected = (1 + 2 / 3 + 3 / 4) / 3
    got = rm.average_precision(RANKING, relevant=JUDGED, denominator="retrieved_relevant")
    assert got == pytest.approx(expected)
    assert got == pytest.approx(0.8056, abs=5e-5)  # scikit-learn's printed value
    assert rm.average_precision(GRADES) == pytest.approx(expected)  # the grades form's default


def test_ap_over_the_full_list_with_d6_at_rank_6():
    # Giving the library every judged item (d6 scored lowest) puts d6 at rank 6: + 4/6, / 4
    expected = (1 + 2 / 3 + 3 / 4 + 4 / 6) / 4
    got = rm.average_precision([*RANKING, "d6"], relevant=JUDGED)
    assert got == pytest.approx(expected)
    assert got == pytest.approx(0.7708, abs=5e-5)  # the library's printed value


@pytest.mark.parametrize(
    ("denominator", "divisor"),
    [("all_relevant", 4), ("min_k_relevant", 3), ("retrieved_relevant", 2)],
)
def test_ap_at_3_denominators(denominator, divisor):
    # Top 3: hits at ranks 1 and 3, so the sum is 1 + 2/3. |R| = 4, k = 3, 2 hits.
    got = rm.average_precision(RANKING, k=3, relevant=JUDGED, denominator=denominator)
    assert got == pytest.approx((1 + 2 / 3) / divisor)


def test_min_k_relevant_lets_a_perfect_top_k_score_one():
    judged = {f"r{i}": 1 for i in range(10)}
    ranking = ["r0", "r1", "r2", "x"]
    assert rm.average_precision(ranking, k=3, relevant=judged, denominator="min_k_relevant") == 1.0
    assert rm.average_precision(ranking, k=3, relevant=judged) == pytest.approx(0.3)


def test_mean_average_precision_takes_the_denominator():
    queries = [RANKING, ["d4", "d9"]]
    relevant = [JUDGED, JUDGED]
    got = rm.mean_average_precision(queries, relevant=relevant, denominator="retrieved_relevant")
    assert got == pytest.approx(((1 + 2 / 3 + 3 / 4) / 3 + 1.0) / 2)


# ---------------------------------------------------------------- scikit-learn, live


def test_scikit_learn_live():
    sk = pytest.importorskip("sklearn.metrics")
    scores = [5, 4, 3, 2, 1]  # any decreasing scores give the ranking d1..d5
    assert sk.ndcg_score([GRADES], [scores], k=5) == pytest.approx(
        rm.ndcg(RANKING, k=5, relevant=JUDGED, ideal="listed")
    )
    binary = [int(JUDGED.get(d, 0) > 0) for d in RANKING]
    assert sk.average_precision_score(binary, scores) == pytest.approx(
        rm.average_precision(RANKING, relevant=JUDGED, denominator="retrieved_relevant")
    )
    # Given d6 too (scored lowest), scikit-learn agrees with trec_eval's nDCG@5 ...
    assert sk.ndcg_score([[*GRADES, 1]], [[*scores, 0]], k=5) == pytest.approx(
        rm.ndcg(RANKING, k=5, relevant=JUDGED)
    )
    # ... and its AP becomes the full-list value.
    assert sk.average_precision_score([*binary, 1], [*scores, 0]) == pytest.approx(
        rm.average_precision([*RANKING, "d6"], relevant=JUDGED)
    )


def test_scikit_learn_averages_tied_items():
    # d2 and d3 tied: scikit-learn's dcg averages their gains over ranks 2 and 3, which for
    # two items equals the mean of the two orders' nDCGs. rankmetrics orders ties explicitly.
    sk = pytest.importorskip("sklearn.metrics")
    tied = sk.ndcg_score([GRADES], [[5, 3, 3, 2, 1]], k=5)
    one = rm.ndcg([3, 0, 3, 2, 0], k=5)
    other = rm.ndcg([3, 3, 0, 2, 0], k=5)
    assert tied == pytest.approx((one + other) / 2)
    assert sk.ndcg_score([GRADES], [[5, 3, 3, 2, 1]], k=5, ignore_ties=True) in (
        pytest.approx(one),
        pytest.approx(other),
    )


# ---------------------------------------------------------------- ties in trec_eval


def test_trec_eval_tie_rule_depends_on_the_ids():
    # d2 (not relevant) and d3 (relevant, grade 3) get the same score.
    qrels = {"q": JUDGED}
    run = {"q": {"d1": 0.9, "d2": 0.5, "d3": 0.5, "d4": 0.3, "d5": 0.1}}
    before = rm.evaluate(qrels, run, "ndcg@5").summary["ndcg@5"]
    # "d3" > "d2": d3 is ranked first of the pair, the order d1, d3, d2, d4, d5
    assert before == pytest.approx(rm.ndcg([3, 3, 0, 2, 0], k=5, ideal=[3, 3, 2, 1]))
    # Rename d3 to a3: now "d2" > "a3", d2 goes first, and nDCG drops with nothing else changed.
    renamed_qrels = {"q": {"d1": 3, "a3": 3, "d4": 2, "d6": 1}}
    renamed_run = {"q": {"d1": 0.9, "d2": 0.5, "a3": 0.5, "d4": 0.3, "d5": 0.1}}
    after = rm.evaluate(renamed_qrels, renamed_run, "ndcg@5").summary["ndcg@5"]
    assert after == pytest.approx(0.8479, abs=5e-5)
    assert before > after


# ---------------------------------------------------------------- validation of the new arguments


def test_ideal_judged_needs_judgements():
    with pytest.raises(ValueError, match=r"ideal='judged' needs the judgements"):
        rm.ndcg(GRADES, ideal="judged")


def test_ideal_must_be_a_known_source():
    with pytest.raises(ValueError, match=r"ideal must be one of 'judged', 'listed'; got 'retrieved'"):
        rm.ndcg(RANKING, relevant=JUDGED, ideal="retrieved")


def test_ideal_grades_still_refused_with_relevant():
    with pytest.raises(ValueError, match=r"ideal cannot be combined with relevant=.*ideal='listed'"):
        rm.ndcg(RANKING, relevant=JUDGED, ideal=[3, 3, 2, 1])


def test_unknown_denominator():
    with pytest.raises(ValueError, match=r"denominator must be one of 'all_relevant', 'min_k_relevant'"):
        rm.average_precision(GRADES, denominator="k")
    with pytest.raises(ValueError, match=r"denominator must be one of"):
        rm.mean_average_precision([GRADES], denominator=None)


def test_defaults_are_unchanged():
    # The new arguments default to the previous behaviour (trec_eval in the ids form).
    assert rm.ndcg(RANKING, k=5, relevant=JUDGED) == rm.ndcg(RANKING, k=5, relevant=JUDGED, ideal="judged")
    assert rm.ndcg(GRADES) == rm.ndcg(GRADES, ideal="listed")
    batch = np.array([GRADES, [0, 1, 0, 1, 0]])
    np.testing.assert_array_equal(
        rm.average_precision(batch, n_relevant=[4, 3]),
        rm.average_precision(batch, n_relevant=[4, 3], denominator="all_relevant"),
    )
