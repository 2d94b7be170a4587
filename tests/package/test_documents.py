"""Every worked-example number of the four source documents, from the package.

Each test shows the hand arithmetic in a comment and compares the package with
a 4-decimal value (``abs=5e-5``) or an exact fraction. The documents are named
by title:

- "랭킹 모델 평가: NDCG·MAP·MRR 이해하기" (the NDCG/MAP/MRR article)
- the recommender-evaluation article with quiz C1–C3
- "RAG 검색 개선기: 평가지표 선정" (the RAG article)
- "NDCG (Normalized Discounted Cumulative Gain) 완전 정복" (the NDCG article)

Discounts used below: log2(2) = 1, log2(3) = 1.58496, log2(4) = 2,
log2(5) = 2.32193, log2(6) = 2.58496, log2(7) = 2.80735, log2(8) = 3.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.metrics import ndcg_score

import rankmetrics as rm


def approx4(value):
    """A value printed to 4 decimals."""
    return pytest.approx(value, abs=5e-5)


# --------------------------------------------------------------------------
# "NDCG (Normalized Discounted Cumulative Gain) 완전 정복": the movie list
# --------------------------------------------------------------------------

MOVIES = [3, 0, 3, 2, 0]  # 분노의 질주, 노트북, 다이하드, 어벤져스, 타이타닉


def test_movie_list_dcg():
    # 3/1 + 0/1.585 + 3/2 + 2/2.322 + 0/2.585 = 3 + 0 + 1.5 + 0.86135 + 0 = 5.36135
    assert rm.dcg(MOVIES) == approx4(5.3614)
    assert rm.dcg(MOVIES) == pytest.approx(3 + 3 / 2 + 2 / math.log2(5), rel=1e-12)


def test_movie_list_ideal_dcg():
    # ideal order [3, 3, 2, 0, 0]: 3/1 + 3/1.585 + 2/2 = 3 + 1.89279 + 1 = 5.89279
    assert rm.dcg([3, 3, 2, 0, 0]) == approx4(5.8928)
    assert rm.dcg(sorted(MOVIES, reverse=True)) == pytest.approx(3 + 3 / math.log2(3) + 1, rel=1e-12)


def test_movie_list_ndcg():
    # 5.36135 / 5.89279 = 0.90981; the article prints 0.910 (the same value to 3 places)
    assert rm.ndcg(MOVIES) == approx4(0.9098)
    assert round(rm.ndcg(MOVIES), 3) == 0.910
    # the article's own rounded steps 5.361 / 5.893 give 0.90973, also 0.910
    printed = round(rm.dcg(MOVIES), 3), round(rm.dcg(sorted(MOVIES, reverse=True)), 3)
    assert printed == (5.361, 5.893)
    assert round(printed[0] / printed[1], 3) == 0.910


def test_movie_list_by_title_and_judgements():
    # The same list as item ids with graded judgements (form b): same numbers,
    # because every judged movie is in the list.
    ranking = ["분노의 질주", "노트북", "다이하드", "어벤져스", "타이타닉"]
    judged = {"분노의 질주": 3, "노트북": 0, "다이하드": 3, "어벤져스": 2, "타이타닉": 0}
    assert rm.dcg(ranking, relevant=judged) == approx4(5.3614)
    assert rm.ndcg(ranking, relevant=judged) == approx4(0.9098)


# Netflix example: A = 인셉션 5, 다크나이트 5, 하울의 움직이는 성 1, 인터스텔라 4;
# B = 인셉션 5, 다크나이트 5, 인터스텔라 4, 프레스티지 4. The article states
# NDCG@4 = 0.95 for A and 0.99 for B without showing the computation.
NETFLIX_A = [5, 5, 1, 4]
NETFLIX_B = [5, 5, 4, 4]


def test_netflix_a_not_reproduced():
    # linear, ideal from the list [5, 5, 4, 1]:
    #   DCG  = 5 + 5/1.585 + 1/2 + 4/2.322 = 5 + 3.15465 + 0.5 + 1.72271 = 10.37736
    #   IDCG = 5 + 3.15465 + 4/2 + 1/2.322 = 5 + 3.15465 + 2 + 0.43068   = 10.58533
    #   nDCG = 0.98035
    assert rm.ndcg(NETFLIX_A, k=4) == approx4(0.9804)
    # exponential (2^rel - 1): gains 31, 31, 1, 15
    #   DCG  = 31 + 19.55881 + 0.5 + 6.46015 = 57.51896
    #   IDCG = 31 + 19.55881 + 7.5 + 0.43068 = 58.48949 -> 0.98341
    assert rm.ndcg(NETFLIX_A, k=4, gain="exponential") == approx4(0.9834)
    # ideal from every movie the article grades (adds 프레스티지 4): ideal [5, 5, 4, 4]
    #   IDCG = 5 + 3.15465 + 2 + 1.72271 = 11.87736 -> 10.37736 / 11.87736 = 0.87371
    assert rm.ndcg(NETFLIX_A, k=4, ideal=[5, 5, 1, 4, 4]) == approx4(0.8737)
    # exponential with that ideal: 57.51896 / (31 + 19.55881 + 7.5 + 6.46015) = 0.89151
    assert rm.ndcg(NETFLIX_A, k=4, ideal=[5, 5, 1, 4, 4], gain="exponential") == approx4(0.8915)
    # None of these is the article's 0.95 (each is pinned to 4 decimals above).


def test_netflix_b_not_reproduced():
    # B is already sorted high to low, so its DCG is its own ideal DCG: nDCG@4 = 1
    # under every gain, and also with the union ideal [5, 5, 4, 4, 1]. The article
    # says 0.99; that would need an unlisted item with a grade above 4.
    for gain in ("linear", "exponential", "binary"):
        assert rm.ndcg(NETFLIX_B, k=4, gain=gain) == 1.0
        assert rm.ndcg(NETFLIX_B, k=4, gain=gain, ideal=[5, 5, 4, 4, 1]) == 1.0


def test_youtube_not_reproduced():
    # [5, 5, 1, 4, 3], ideal from the list [5, 5, 4, 3, 1]; the article states 0.92.
    # linear: DCG  = 5 + 3.15465 + 0.5 + 4/2.322 + 3/2.585 = 5 + 3.15465 + 0.5 + 1.72271 + 1.16055 = 11.53791
    #         IDCG = 5 + 3.15465 + 4/2 + 3/2.322 + 1/2.585 = 5 + 3.15465 + 2 + 1.29203 + 0.38685 = 11.83353
    #         nDCG = 0.97502
    assert rm.ndcg([5, 5, 1, 4, 3], k=5) == approx4(0.9750)
    # exponential: gains 31, 31, 1, 15, 7
    #   DCG  = 31 + 19.55881 + 0.5 + 6.46015 + 2.70796 = 60.22692
    #   IDCG = 31 + 19.55881 + 7.5 + 3.01472 + 0.38685 = 61.46038 -> 0.97993
    assert rm.ndcg([5, 5, 1, 4, 3], k=5, gain="exponential") == approx4(0.9799)
    assert round(rm.ndcg([5, 5, 1, 4, 3], k=5), 2) != 0.92
    assert round(rm.ndcg([5, 5, 1, 4, 3], k=5, gain="exponential"), 2) != 0.92


def test_coupang_ndcg_at_10():
    # [4, 5, 4, 1] with k = 10 (only 4 items; the article gives no value, only the
    # target "> 0.85"). Ideal from the list [5, 4, 4, 1].
    # linear: DCG  = 4 + 5/1.585 + 4/2 + 1/2.322 = 4 + 3.15465 + 2 + 0.43068 = 9.58533
    #         IDCG = 5 + 4/1.585 + 2 + 0.43068 = 5 + 2.52372 + 2 + 0.43068 = 9.95440 -> 0.96292
    assert rm.ndcg([4, 5, 4, 1], k=10) == approx4(0.9629)
    # exponential: gains 15, 31, 15, 1
    #   DCG  = 15 + 19.55881 + 7.5 + 0.43068 = 42.48949
    #   IDCG = 31 + 9.46395 + 7.5 + 0.43068 = 48.39463 -> 0.87798
    assert rm.ndcg([4, 5, 4, 1], k=10, gain="exponential") == approx4(0.8780)


# --------------------------------------------------------------------------
# "랭킹 모델 평가: NDCG·MAP·MRR 이해하기"
# --------------------------------------------------------------------------

GRADED = [3, 2, 3, 0, 1]


def test_graded_list_exponential_dcg():
    # the article's code: gains 2^rel - 1 = 7, 3, 7, 0, 1
    # 7/1 + 3/1.585 + 7/2 + 0 + 1/2.585 = 7 + 1.89279 + 3.5 + 0.38685 = 12.77964
    assert rm.dcg(GRADED, k=5, gain="exponential") == approx4(12.7796)


def test_graded_list_exponential_ndcg():
    # ideal [3, 3, 2, 1, 0], gains 7, 7, 3, 1, 0:
    # 7 + 7/1.585 + 3/2 + 1/2.322 = 7 + 4.41650 + 1.5 + 0.43068 = 13.34718
    # 12.77964 / 13.34718 = 0.95748
    assert rm.ndcg(GRADED, k=5, gain="exponential") == approx4(0.9575)


def test_graded_list_linear_ndcg_equals_sklearn():
    # linear: DCG  = 3 + 2/1.585 + 3/2 + 0 + 1/2.585 = 3 + 1.26186 + 1.5 + 0.38685 = 6.14871
    #         IDCG = 3 + 3/1.585 + 2/2 + 1/2.322       = 3 + 1.89279 + 1 + 0.43068   = 6.32347
    #         nDCG = 0.97236 -- what the article's sklearn call prints, not 0.9575
    value = rm.ndcg(GRADED, k=5)
    assert value == approx4(0.9724)
    y_score = [0.9, 0.8, 0.7, 0.4, 0.3]  # the article's scores, already descending
    assert value == pytest.approx(ndcg_score([GRADED], [y_score], k=5), rel=1e-12)
    assert rm.ndcg(rm.order_by_score(GRADED, y_score), k=5) == value


def test_three_query_map():
    # query 1 O X O X O: (1/1 + 2/3 + 3/5) / 3 = 2.26667 / 3 = 0.75556
    # query 2 X O X O X: (1/2 + 2/4) / 2 = 0.5
    # query 3 O O X X X: (1/1 + 2/2) / 2 = 1.0
    # MAP = (0.75556 + 0.5 + 1.0) / 3 = 0.75185
    results = [
        [True, False, True, False, True],
        [False, True, False, True, False],
        [True, True, False, False, False],
    ]
    assert rm.average_precision(results[0]) == pytest.approx((1 + 2 / 3 + 3 / 5) / 3, rel=1e-12)
    assert rm.average_precision(results[0]) == approx4(0.7556)
    assert rm.average_precision(results[1]) == 0.5
    assert rm.average_precision(results[2]) == 1.0
    assert rm.mean_average_precision(results) == approx4(0.7519)
    # the article's R is "all relevant documents", but its code divides by those
    # found; with nothing unretrieved the two agree (the default n_relevant)
    assert rm.mean_average_precision(results, n_relevant=[3, 2, 2]) == approx4(0.7519)


def test_three_query_mrr_article_code():
    # first relevant at ranks 1, 3, 2: (1 + 1/3 + 1/2) / 3 = 1.83333 / 3 = 0.61111
    queries = [
        [True, False, False, False],
        [False, False, True, False],
        [False, True, False, False],
    ]
    assert [rm.reciprocal_rank(q) for q in queries] == pytest.approx([1.0, 1 / 3, 0.5], rel=1e-12)
    assert rm.mean_reciprocal_rank(queries) == approx4(0.6111)
    assert round(rm.mean_reciprocal_rank(queries), 3) == 0.611  # the article's comment


# The two-model comparison: grades of 10 documents and two models' scores.
AB_TRUE = [3, 0, 2, 1, 3, 0, 2, 1, 0, 3]
AB_SCORES_A = [0.95, 0.10, 0.88, 0.60, 0.92, 0.15, 0.75, 0.55, 0.20, 0.90]
AB_SCORES_B = [0.80, 0.40, 0.70, 0.60, 0.50, 0.30, 0.85, 0.55, 0.20, 0.45]


def test_two_models_orderings():
    # A by score: .95(3) .92(3) .90(3) .88(2) .75(2) .60(1) .55(1) .20(0) .15(0) .10(0)
    assert rm.order_by_score(AB_TRUE, AB_SCORES_A).tolist() == [3, 3, 3, 2, 2, 1, 1, 0, 0, 0]
    # B by score: .85(2) .80(3) .70(2) .60(1) .55(1) .50(3) .45(3) .40(0) .30(0) .20(0)
    assert rm.order_by_score(AB_TRUE, AB_SCORES_B).tolist() == [2, 3, 2, 1, 1, 3, 3, 0, 0, 0]


@pytest.mark.parametrize(
    ("k", "expected_b"),
    [
        # k=3:  DCG = 2 + 3/1.585 + 2/2 = 4.89279; IDCG = 3 + 1.89279 + 3/2 = 6.39279 -> 0.76536
        (3, 0.7654),
        # k=5:  DCG = 4.89279 + 1/2.322 + 1/2.585 = 5.71032
        #       IDCG = 6.39279 + 2/2.322 + 2/2.585 = 8.02785 -> 0.71131
        (5, 0.7113),
        # k=10: DCG = 5.71032 + 3/2.807 + 3/3 = 7.77895
        #       IDCG = 8.02785 + 1/2.807 + 1/3 = 8.71739 -> 0.89235
        (10, 0.8923),
    ],
)
def test_two_models_ndcg(k, expected_b):
    # A puts the grades in exactly the ideal order: 1.0 at every k.
    ranked_a = rm.order_by_score(AB_TRUE, AB_SCORES_A)
    ranked_b = rm.order_by_score(AB_TRUE, AB_SCORES_B)
    assert rm.ndcg(ranked_a, k=k) == 1.0
    assert rm.ndcg(ranked_b, k=k) == approx4(expected_b)
    # the article computes these with sklearn's ndcg_score (linear gain, ideal from the row)
    assert rm.ndcg(ranked_a, k=k) == pytest.approx(ndcg_score([AB_TRUE], [AB_SCORES_A], k=k), rel=1e-12)
    assert rm.ndcg(ranked_b, k=k) == pytest.approx(ndcg_score([AB_TRUE], [AB_SCORES_B], k=k), rel=1e-12)


def test_two_models_as_one_batch():
    # the 2-D form: both models at once, one row each
    batch = rm.order_by_score([AB_TRUE, AB_TRUE], [AB_SCORES_A, AB_SCORES_B])
    assert rm.ndcg(batch, k=5) == pytest.approx([1.0, 0.7113], abs=5e-5)


# --------------------------------------------------------------------------
# The recommender-evaluation article (quiz C1–C3)
# --------------------------------------------------------------------------

RATINGS_TRUE = [5, 4, 3, 2, 1]
RATINGS_PRED = [4, 5, 2, 1, 5]


def test_rating_errors():
    # errors 1, 1, 1, 1, 4
    assert rm.mse(RATINGS_TRUE, RATINGS_PRED) == 4.0  # (1 + 1 + 1 + 1 + 16) / 5
    assert rm.mae(RATINGS_TRUE, RATINGS_PRED) == pytest.approx(1.6, rel=1e-12)  # (1 + 1 + 1 + 1 + 4) / 5
    assert rm.rmse(RATINGS_TRUE, RATINGS_PRED) == 2.0  # sqrt(4)


ABCDE = list("ABCDE")


def test_list_with_four_relevant():
    relevant = {"B", "D", "F", "G"}
    assert rm.precision(ABCDE, k=5, relevant=relevant) == pytest.approx(2 / 5)  # 2 of the 5 listed
    assert rm.recall(ABCDE, k=5, relevant=relevant) == pytest.approx(2 / 4)  # 2 of the 4 relevant
    assert rm.hit_rate(ABCDE, k=5, relevant=relevant) == 1.0  # at least one
    # F1@5 = 2 * 0.4 * 0.5 / (0.4 + 0.5) = 0.4 / 0.9 = 0.44444
    assert rm.f1(ABCDE, k=5, relevant=relevant) == pytest.approx(4 / 9, rel=1e-12)


def test_list_with_two_relevant():
    relevant = {"B", "D"}  # B at rank 2, D at rank 4
    assert rm.mean_rank(ABCDE, relevant=relevant) == 3.0  # (2 + 4) / 2
    assert rm.reciprocal_rank(ABCDE, relevant=relevant) == 0.5  # 1 / 2
    # DCG@5 = 1/log2(3) + 1/log2(5) = 0.63093 + 0.43068 = 1.06161 (the article prints 1.062
    # and writes "lg", but the values are base-2 logarithms)
    assert rm.dcg(ABCDE, k=5, relevant=relevant) == approx4(1.0616)
    # IDCG@5 = 1/log2(2) + 1/log2(3) = 1 + 0.63093 = 1.63093 (printed 1.631)
    assert rm.dcg(["B", "D", "A", "C", "E"], k=5, relevant=relevant) == approx4(1.6309)
    # nDCG@5 = 1.06161 / 1.63093 = 0.65093 (printed 0.651)
    assert rm.ndcg(ABCDE, k=5, relevant=relevant) == approx4(0.6509)
    assert rm.ndcg([0, 1, 0, 1, 0], k=5) == approx4(0.6509)  # the same in the grades form


def test_rr_ignores_later_hits():
    # the article's point: {B, D} and {B} both give RR 0.5
    assert rm.reciprocal_rank(ABCDE, relevant={"B", "D"}) == 0.5
    assert rm.reciprocal_rank(ABCDE, relevant={"B"}) == 0.5


def test_quiz_c2():
    ranking, relevant = list("XYZW"), {"Z"}
    assert rm.precision(ranking, k=4, relevant=relevant) == 0.25  # 1 / 4
    assert rm.recall(ranking, k=4, relevant=relevant) == 1.0  # 1 / 1
    assert rm.reciprocal_rank(ranking, relevant=relevant) == pytest.approx(1 / 3, rel=1e-12)  # Z at rank 3
    # nDCG@4 = (1/log2 4) / (1/log2 2) = 0.5 / 1 = 0.5 exactly
    assert rm.ndcg(ranking, k=4, relevant=relevant) == 0.5
    # the article's formula uses 2^rel - 1; on 0/1 grades it is the same
    assert rm.ndcg(ranking, k=4, relevant=relevant, gain="exponential") == 0.5


# --------------------------------------------------------------------------
# "RAG 검색 개선기: 평가지표 선정": O X O X O, 4 correct documents in total
# --------------------------------------------------------------------------

OXOXO = [1, 0, 1, 0, 1]


@pytest.mark.parametrize(
    ("k", "p", "r"),
    [
        (1, 1 / 1, 1 / 4),  # P@1 = 1/1 = 1.00, R@1 = 1/4 = 0.25
        (3, 2 / 3, 2 / 4),  # P@3 = 2/3 = 0.67, R@3 = 2/4 = 0.50
        (5, 3 / 5, 3 / 4),  # P@5 = 3/5 = 0.60, R@5 = 3/4 = 0.75
    ],
)
def test_rag_precision_recall_hit(k, p, r):
    assert rm.precision(OXOXO, k=k) == pytest.approx(p, rel=1e-12)
    assert rm.recall(OXOXO, k=k, n_relevant=4) == pytest.approx(r, rel=1e-12)
    assert rm.hit_rate(OXOXO, k=k) == 1.0  # rank 1 is already correct


def test_rag_printed_two_decimals():
    assert [round(rm.precision(OXOXO, k=k), 2) for k in (1, 3, 5)] == [1.0, 0.67, 0.6]
    assert [rm.recall(OXOXO, k=k, n_relevant=4) for k in (1, 3, 5)] == [0.25, 0.5, 0.75]


def test_rag_first_hit_at_rank_four():
    # "if the first O were at rank 4: Hit@1 = 0, Hit@3 = 0, Hit@5 = 1"
    late = [0, 0, 0, 1, 0]
    assert [rm.hit_rate(late, k=k) for k in (1, 3, 5)] == [0.0, 0.0, 1.0]


def test_rag_reciprocal_rank_examples():
    assert rm.reciprocal_rank(OXOXO) == 1.0  # first O at rank 1
    assert rm.reciprocal_rank([0, 1, 0]) == 0.5  # 1 / 2
    assert rm.reciprocal_rank([0, 0, 1]) == pytest.approx(1 / 3, rel=1e-12)  # 1 / 3 = 0.33


def test_rag_mrr():
    # first hits at ranks 1, 3, 2: (1/1 + 1/3 + 1/2) / 3 = 0.61111; the article prints 0.61
    queries = [[1, 0, 0], [0, 0, 1], [0, 1, 0]]
    assert rm.mean_reciprocal_rank(queries) == approx4(0.6111)
    assert round(rm.mean_reciprocal_rank(queries), 2) == 0.61


def test_rag_one_relevant_hit_rate_equals_recall():
    # "with one correct document per query, Hit Rate and Recall are the same value"
    for grades in ([1, 0, 0], [0, 0, 1], [0, 1, 0], [0, 0, 0, 0, 1]):
        for k in (1, 2, 3):
            assert rm.hit_rate(grades, k=k) == rm.recall(grades, k=k, n_relevant=1)


def test_rag_discount_table():
    # the article's table divides rank i by 1, 1.6, 2, 2.3, 2.6: log2(i + 1) to one decimal
    one_hot = np.eye(5)
    divisors = [1 / value for value in rm.dcg(one_hot)]
    assert [round(d, 1) for d in divisors] == [1.0, 1.6, 2.0, 2.3, 2.6]
    assert divisors == pytest.approx([math.log2(i + 1) for i in range(1, 6)], rel=1e-12)


def test_rag_ndcg_ideal_from_list():
    # DCG  = 1/1 + 1/2 + 1/2.585 = 1 + 0.5 + 0.38685 = 1.88685   (article: 1.88)
    # IDCG = 1/1 + 1/1.585 + 1/2 = 1 + 0.63093 + 0.5 = 2.13093    (article: 2.13)
    # the article's ideal holds the 3 listed O's only
    assert rm.dcg(OXOXO) == approx4(1.8869)
    assert rm.dcg([1, 1, 1, 0, 0]) == approx4(2.1309)
    assert rm.ndcg(OXOXO) == approx4(0.8855)  # 1.88685 / 2.13093 = 0.88546


def test_rag_ndcg_hand_rounding():
    # The article prints DCG 1.88 and IDCG 2.13 (1.88685 and 2.13093 cut after two
    # decimals) and divides those: 1.88 / 2.13 = 0.88263 -> "0.88".
    # The exact ratio 0.88546 rounds to 0.89: the 0.88 comes from rounding too early.
    printed = [math.floor(value * 100) / 100 for value in (rm.dcg(OXOXO), rm.dcg([1, 1, 1, 0, 0]))]
    assert printed == [1.88, 2.13]
    assert round(printed[0] / printed[1], 2) == 0.88
    assert round(rm.ndcg(OXOXO), 2) == 0.89


def test_rag_ndcg_all_four_relevant():
    # The article says 4 correct documents exist; an ideal with all of them is
    # [1, 1, 1, 1, 0]: IDCG = 2.13093 + 1/2.322 = 2.13093 + 0.43068 = 2.56161
    # nDCG = 1.88685 / 2.56161 = 0.73659
    assert rm.ndcg(OXOXO, ideal=[1, 1, 1, 1]) == approx4(0.7366)
    # the same through item ids, where the ideal always uses every judged item
    ranking = ["d1", "d2", "d3", "d4", "d5"]
    relevant = {"d1", "d3", "d5", "d9"}  # d9 was not retrieved
    assert rm.ndcg(ranking, relevant=relevant) == approx4(0.7366)
    assert rm.recall(ranking, k=5, relevant=relevant) == 0.75


def test_rag_average_precision_with_four_relevant():
    # (1/1 + 2/3 + 3/5) / 4 = 2.26667 / 4 = 0.56667 (one relevant never retrieved)
    assert rm.average_precision(OXOXO, n_relevant=4) == approx4(0.5667)
    assert rm.average_precision(OXOXO, n_relevant=4) == pytest.approx((1 + 2 / 3 + 3 / 5) / 4, rel=1e-12)
    assert rm.average_precision(["d1", "d2", "d3", "d4", "d5"], relevant={"d1", "d3", "d5", "d9"}) == approx4(
        0.5667
    )


# --------------------------------------------------------------------------
# Return types: a single query gives a plain float
# --------------------------------------------------------------------------

SINGLE_CALLS = [
    ("precision", lambda: rm.precision(OXOXO, k=3)),
    ("recall", lambda: rm.recall(OXOXO, k=3, n_relevant=4)),
    ("f1", lambda: rm.f1(ABCDE, k=5, relevant={"B", "D"})),
    ("hit_rate", lambda: rm.hit_rate(OXOXO, k=1)),
    ("reciprocal_rank", lambda: rm.reciprocal_rank(ABCDE, relevant={"B"})),
    ("mean_rank", lambda: rm.mean_rank(OXOXO)),
    ("mean_rank_nan", lambda: rm.mean_rank([0, 0])),
    ("average_precision", lambda: rm.average_precision(OXOXO)),
    ("dcg", lambda: rm.dcg(MOVIES)),
    ("ndcg", lambda: rm.ndcg(MOVIES, k=3, gain="exponential")),
    ("ndcg_zero", lambda: rm.ndcg([0, 0, 0])),
    ("ndcg_ids", lambda: rm.ndcg(ABCDE, relevant={"B": 2, "Q": -1})),
    ("mean_average_precision", lambda: rm.mean_average_precision([[1, 0], [0, 1, 1]])),
    ("mean_reciprocal_rank", lambda: rm.mean_reciprocal_rank([[1, 0], [0, 1, 1]])),
    ("mse", lambda: rm.mse(RATINGS_TRUE, RATINGS_PRED)),
    ("mae", lambda: rm.mae(RATINGS_TRUE, RATINGS_PRED)),
    ("rmse", lambda: rm.rmse(RATINGS_TRUE, RATINGS_PRED)),
]


@pytest.mark.parametrize("call", [c for _, c in SINGLE_CALLS], ids=[n for n, _ in SINGLE_CALLS])
def test_single_query_returns_plain_float(call):
    assert type(call()) is float


def test_mean_rank_without_hits_is_nan():
    assert math.isnan(rm.mean_rank([0, 0, 0]))
