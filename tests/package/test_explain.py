"""Step tables (rankmetrics.explain): the documents' worked examples, row by row.

Every expected number is written out by hand in a comment next to it; the
table's own total is also checked against the public metric inside explain().
"""

from __future__ import annotations

import importlib
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankmetrics as rm
from rankmetrics import explain

LOG2_3 = math.log2(3)  # 1.58496...
LOG2_5 = math.log2(5)  # 2.32193...
LOG2_6 = math.log2(6)  # 2.58496...

MOVIES = ["분노의 질주", "노트북", "다이하드", "어벤져스", "타이타닉"]
MOVIE_GRADES = {"분노의 질주": 3, "노트북": 0, "다이하드": 3, "어벤져스": 2, "타이타닉": 0}
OX = [1, 0, 1, 0, 1]  # the RAG article's O X O X O


@pytest.fixture(autouse=True)
def korean():
    """The step tables' texts below are checked as the book shows them: in Korean."""
    with rm.use_language("ko"):
        yield


def test_the_python_default_is_english_and_the_numbers_do_not_change():
    # Outside the fixture's Korean: the API's default language. P@5 of X O X O X with
    # relevant {B, D, F, G}: 2 hits in 5 = 0.4; by hand to 2 decimals 0.40.
    with rm.use_language("en"):
        english = rm.explain("precision", list("ABCDE"), k=5, relevant={"B", "D", "F", "G"}, decimals=2)
    korean = rm.explain("precision", list("ABCDE"), k=5, relevant={"B", "D", "F", "G"}, decimals=2)
    assert english.steps == ["P@5 = hits ÷ k = 2 ÷ 5 = 0.4", "by hand: P@5 = 0.40"]
    assert korean.steps == ["P@5 = 정답 수 ÷ k = 2 ÷ 5 = 0.4", "손 계산: P@5 = 0.40"]
    assert english.card.startswith("rules │ gain: 1 if relevant, else 0")
    assert korean.card.startswith("규칙 │ 이득: 등급이 0보다 크면 관련 항목으로 보고 1, 아니면 0입니다")
    assert (english.value, english.rounded, english.rows) == (korean.value, korean.rounded, korean.rows)
    assert not any("\uac00" <= ch <= "\ud7a3" for ch in str(english))  # no Hangul in the English table


def column(rows, key):
    return [row[key] for row in rows]


# --- the NDCG article's movie list ("NDCG (Normalized Discounted Cumulative Gain) 완전 정복") ---


def test_movie_list_step_table():
    e = explain("ndcg", MOVIES, relevant=MOVIE_GRADES)
    assert column(e.rows, "rank") == [1, 2, 3, 4, 5]
    assert column(e.rows, "item") == MOVIES
    assert column(e.rows, "grade") == [3, 0, 3, 2, 0]
    assert column(e.rows, "gain") == [3, 0, 3, 2, 0]  # linear gain: the grade itself
    assert column(e.rows, "discount") == pytest.approx([1, LOG2_3, 2, LOG2_5, LOG2_6])
    # 3/1, 0/1.585, 3/2, 2/2.322, 0/2.585
    assert column(e.rows, "term") == pytest.approx([3, 0, 1.5, 2 / LOG2_5, 0])
    # running sums 3, 3, 4.5, 4.5 + 0.8614 = 5.3614, 5.3614
    assert column(e.rows, "running_sum") == pytest.approx([3, 3, 4.5, 4.5 + 2 / LOG2_5, 4.5 + 2 / LOG2_5])
    # the ideal order of the article: 분노의 질주 3, 다이하드 3, 어벤져스 2, 노트북 0, 타이타닉 0
    assert column(e.ideal_rows, "item") == ["분노의 질주", "다이하드", "어벤져스", "노트북", "타이타닉"]
    # 3/1 + 3/1.585 + 2/2 = 3 + 1.8928 + 1 = 5.8928
    assert e.ideal_rows[-1]["running_sum"] == pytest.approx(3 + 3 / LOG2_3 + 1)
    assert e.value == rm.ndcg(MOVIES, relevant=MOVIE_GRADES)
    assert round(e.value, 4) == 0.9098  # 5.3614 / 5.8928
    assert e.label == "nDCG"
    assert e.rounded is None and e.difference is None


def test_movie_list_three_decimals_reproduces_the_article():
    # The article: DCG = 3 + 0 + 1.5 + 0.861 + 0 = 5.361; IDCG = 3 + 1.893 + 1 = 5.893; 0.910.
    e = explain("ndcg", [3, 0, 3, 2, 0], decimals=3)
    assert column(e.rows, "discount_rounded") == [1, 1.585, 2, 2.322, 2.585]
    assert column(e.rows, "term_rounded") == [3, 0, 1.5, 0.861, 0]  # 2 / 2.322 = 0.86133 -> 0.861
    assert e.rows[-1]["running_sum_rounded"] == 5.361
    assert column(e.ideal_rows, "term_rounded") == [3, 1.893, 1, 0, 0]  # 3 / 1.585 = 1.89274 -> 1.893
    assert e.ideal_rows[-1]["running_sum_rounded"] == 5.893
    assert e.rounded == 0.91  # 5.361 / 5.893 = 0.90972 -> 0.910
    assert "손 계산: nDCG = 5.361 ÷ 5.893 = 0.910" in e.steps
    assert e.difference is None  # every step agrees with the exact value rounded to 3 places


# --- the RAG article ("RAG 검색 개선기: 평가지표 선정"): O X O X O, 4 relevant in total ---


def test_ox_list_hand_rounded_as_in_the_article():
    # Its discount table has one decimal (1, 1.6, 2, 2.3, 2.6), its arithmetic two.
    e = explain("ndcg", OX, decimals=2, discount_decimals=1)
    assert column(e.rows, "discount_rounded") == [1, 1.6, 2, 2.3, 2.6]
    assert column(e.rows, "term_rounded") == [1, 0, 0.5, 0, 0.38]  # 1 / 2.6 = 0.3846 -> 0.38
    assert e.rows[-1]["running_sum_rounded"] == 1.88  # 1.0 + 0.5 + 0.38
    # 1 / 1.6 = 0.625 rounds half up to 0.63 (Python's round() would give 0.62)
    assert column(e.ideal_rows, "term_rounded") == [1, 0.63, 0.5, 0, 0]
    assert e.ideal_rows[-1]["running_sum_rounded"] == 2.13  # 1.0 + 0.63 + 0.5
    assert e.rounded == 0.88  # 1.88 / 2.13 = 0.8826 -> 0.88
    # The exact value: (1 + 1/2 + 1/log2 6) / (1 + 1/log2 3 + 1/2) = 1.8869 / 2.1309 = 0.8855
    exact = (1 + 0.5 + 1 / LOG2_6) / (1 + 1 / LOG2_3 + 0.5)
    assert e.value == pytest.approx(exact, rel=1e-12)
    assert round(e.value, 3) == 0.885
    # Where they part ways: rank 5, 1/2.6 = 0.38 on paper but 1/2.585 = 0.3869 -> 0.39.
    assert e.difference.startswith("처음 갈라지는 곳: [내 순위] 5위의 이득÷할인")
    assert "0.38" in e.difference and "0.39" in e.difference


def test_ox_list_two_decimal_table_gives_a_different_hand_result():
    # With a two-decimal discount table the last term is 1 / 2.58 = 0.3876 -> 0.39,
    # so DCG = 1.89 and 1.89 / 2.13 = 0.887 -> 0.89: the article's 0.88 needs its 1-decimal table.
    e = explain("ndcg", OX, decimals=2)
    assert column(e.rows, "discount_rounded") == [1, 1.58, 2, 2.32, 2.58]
    assert e.rows[-1]["running_sum_rounded"] == 1.89
    assert e.rounded == 0.89
    assert e.difference is None


def test_ox_list_ideal_with_all_four_relevant():
    # 1.8869 / (1 + 1/1.585 + 1/2 + 1/2.3219) = 1.8869 / 2.5616 = 0.7366
    e = explain("ndcg", OX, ideal=[1, 1, 1, 1])
    assert column(e.ideal_rows, "grade") == [1, 1, 1, 1, 0]
    assert e.ideal_rows[-1]["running_sum"] == pytest.approx(1 + 1 / LOG2_3 + 0.5 + 1 / LOG2_5)
    assert round(e.value, 4) == 0.7366
    assert e.conventions["ideal"] == "ideal로 준 등급 전체"


@pytest.mark.parametrize(
    ("k", "precision", "recall"),
    [(1, 1.0, 0.25), (3, 2 / 3, 0.5), (5, 0.6, 0.75)],  # 1/1, 2/3, 3/5 and 1/4, 2/4, 3/4
)
def test_ox_list_precision_and_recall(k, precision, recall):
    p = explain("precision", OX, k)
    r = explain("recall", OX, k, n_relevant=4)
    assert p.value == pytest.approx(precision) and r.value == pytest.approx(recall)
    assert column(p.rows, "mark") == ["O", "X", "O", "X", "O"][:k]
    assert column(p.rows, "hits") == [1, 1, 2, 2, 3][:k]
    assert p.label == f"P@{k}" and r.label == f"R@{k}"
    assert r.conventions["denominator"] == "전체 관련 항목 수 R = 4: n_relevant로 준 수를 씁니다"


def test_ox_list_average_precision_rows():
    e = explain("average_precision", OX, decimals=2)
    # precision at the relevant ranks 1, 3, 5: 1/1, 2/3, 3/5; blank at the misses
    assert column(e.rows, "precision") == pytest.approx([1, None, 2 / 3, None, 0.6])
    assert [row.get("precision_rounded") for row in e.rows] == [1, None, 0.67, None, 0.6]
    assert e.value == pytest.approx((1 + 2 / 3 + 0.6) / 3)  # 0.7556
    assert e.rounded == 0.76  # (1 + 0.67 + 0.60) / 3 = 2.27 / 3 = 0.7567 -> 0.76
    assert "손 계산: AP = (1 + 0.67 + 0.60) ÷ 3 = 2.27 ÷ 3 = 0.76" in e.steps
    four = explain("average_precision", OX, n_relevant=4)
    assert four.value == pytest.approx((1 + 2 / 3 + 0.6) / 4)  # 0.5667


def test_mrr_of_three_queries_hand_rounded():
    # First hits at ranks 1, 3, 2: (1.00 + 0.33 + 0.50) / 3 = 1.83 / 3 = 0.61 (the RAG article)
    e = explain("mean_reciprocal_rank", [[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0]], decimals=2)
    assert column(e.rows, "value") == pytest.approx([1, 1 / 3, 0.5])
    assert column(e.rows, "value_rounded") == [1, 0.33, 0.5]
    assert e.rounded == 0.61
    assert round(e.value, 4) == 0.6111
    assert len(e.parts) == 3 and e.parts[1].steps[0] == "RR = 1 ÷ 3 = 0.3333"


def test_map_of_three_queries():
    queries = [[1, 0, 1, 0, 1], [0, 1, 0, 1, 0], [1, 1, 0, 0, 0]]
    e = explain("mean_average_precision", queries)
    # AP: (1 + 2/3 + 3/5)/3 = 0.7556, (1/2 + 2/4)/2 = 0.5, (1 + 1)/2 = 1
    assert column(e.rows, "value") == pytest.approx([(1 + 2 / 3 + 0.6) / 3, 0.5, 1.0])
    assert round(e.value, 4) == 0.7519
    assert e.value == rm.mean_average_precision(queries)


# --- the recommender article (quiz C1-C3): list A-E ---


def test_a_to_e_with_b_and_d():
    ranking = list("ABCDE")
    e = explain("ndcg", ranking, 5, relevant={"B", "D"})
    # 0/1 + 1/1.585 + 0/2 + 1/2.3219 + 0/2.585 = 0.6309 + 0.4307 = 1.0616
    assert column(e.rows, "term") == pytest.approx([0, 1 / LOG2_3, 0, 1 / LOG2_5, 0])
    assert e.rows[-1]["running_sum"] == pytest.approx(1 / LOG2_3 + 1 / LOG2_5)
    assert column(e.ideal_rows, "item") == ["B", "D", "—", "—", "—"]  # ideal [B, D, ...]
    assert e.ideal_rows[-1]["running_sum"] == pytest.approx(1 + 1 / LOG2_3)  # 1.6309
    assert round(e.value, 4) == 0.6509  # 1.0616 / 1.6309
    assert e.label == "nDCG@5"
    mr = explain("mean_rank", ranking, relevant={"B", "D"})
    assert [row["rank"] for row in mr.rows if row["hit"]] == [2, 4]
    assert mr.value == 3.0 and mr.steps == ["MR = (2 + 4) ÷ 2 = 3"]
    rr = explain("reciprocal_rank", ranking, relevant={"B", "D"})
    assert rr.value == 0.5 and rr.steps == ["RR = 1 ÷ 2 = 0.5"]


def test_a_to_e_with_b_d_f_g():
    ranking, relevant = list("ABCDE"), {"B", "D", "F", "G"}
    p = explain("precision", ranking, 5, relevant=relevant)
    assert p.steps == ["P@5 = 정답 수 ÷ k = 2 ÷ 5 = 0.4"]
    r = explain("recall", ranking, 5, relevant=relevant)
    assert r.steps == ["R@5 = 정답 수 ÷ 전체 관련 항목 수 = 2 ÷ 4 = 0.5"]  # F, G count though unlisted
    assert explain("hit_rate", ranking, 5, relevant=relevant).value == 1.0
    f = explain("f1", ranking, 5, relevant=relevant)
    assert f.value == pytest.approx(2 * 0.4 * 0.5 / 0.9)  # 0.4444


def test_quiz_c2():
    ranking, relevant = list("XYZW"), {"Z"}
    assert explain("precision", ranking, 4, relevant=relevant).value == 0.25  # 1 / 4
    assert explain("recall", ranking, 4, relevant=relevant).value == 1.0  # 1 / 1
    assert explain("reciprocal_rank", ranking, relevant=relevant).value == pytest.approx(1 / 3)
    e = explain("ndcg", ranking, 4, relevant=relevant)
    assert column(e.rows, "term") == pytest.approx([0, 0, 0.5, 0])  # 1 / log2(4) = 0.5
    assert e.ideal_rows[0]["item"] == "Z" and e.ideal_rows[-1]["running_sum"] == 1.0  # 1 / log2(2)
    assert e.value == 0.5


# --- other metrics and conventions ---


def test_rating_errors():
    e = explain("mse", [5, 4, 3, 2, 1], y_pred=[4, 5, 2, 1, 5])
    assert column(e.rows, "error") == [-1, 1, -1, -1, 4]
    assert column(e.rows, "squared") == [1, 1, 1, 1, 16]
    assert e.steps == ["MSE = (1 + 1 + 1 + 1 + 16) ÷ 5 = 20 ÷ 5 = 4"]
    assert explain("mae", [5, 4, 3, 2, 1], y_pred=[4, 5, 2, 1, 5]).value == 1.6  # 8 / 5
    assert explain("rmse", [5, 4, 3, 2, 1], y_pred=[4, 5, 2, 1, 5]).steps[-1] == "RMSE = √4 = 2"


def test_exponential_gain_hand_rounding_can_flip_the_last_digit():
    # gains 7, 3, 7, 0, 1. On paper (3 decimals): DCG = 7 + 1.893 + 3.5 + 0 + 0.387 = 12.780,
    # IDCG = 7 + 4.416 + 1.5 + 0.431 = 13.347, 12.780 / 13.347 = 0.95752 -> 0.958,
    # while the exact 0.95745 rounds to 0.957. 7 / 1.585 = 4.4164 but 7 / 1.58496 = 4.4165.
    e = explain("ndcg", [3, 2, 3, 0, 1], gain="exponential", decimals=3)
    assert column(e.rows, "gain") == [7, 3, 7, 0, 1]
    assert e.rows[-1]["running_sum_rounded"] == 12.78
    assert e.ideal_rows[-1]["running_sum_rounded"] == 13.347
    assert e.rounded == 0.958 and round(e.value, 3) == 0.957
    assert "[이상적 순서] 2위의 이득÷할인" in e.difference


def test_ap_denominator_conventions():
    judged = {"d1": 3, "d3": 3, "d4": 2, "d6": 1}
    ranking = ["d1", "d2", "d3", "d4", "d5"]
    # precision at the hits: 1/1, 2/3, 3/4; sum 2.4167
    assert round(explain("average_precision", ranking, relevant=judged).value, 4) == 0.6042  # / 4
    e = explain("average_precision", ranking, relevant=judged, denominator="retrieved_relevant")
    assert round(e.value, 4) == 0.8056  # / 3
    assert "denominator='retrieved_relevant'" in e.card


def test_ideal_listed_with_item_ids():
    judged = {"d1": 3, "d3": 3, "d4": 2, "d6": 1}
    ranking = ["d1", "d2", "d3", "d4", "d5"]
    e = explain("ndcg", ranking, 5, relevant=judged, ideal="listed")
    assert column(e.ideal_rows, "item") == ["d1", "d3", "d4", "d2", "d5"]
    assert round(e.value, 4) == 0.9098
    assert round(explain("ndcg", ranking, 5, relevant=judged).value, 4) == 0.8479


def test_r_precision():
    e = explain("r_precision", list("ABCDE"), relevant={"B", "D", "F", "G"})
    assert len(e.rows) == 4  # cut at R = 4
    assert e.value == 0.5 and e.steps == ["R-Prec = 상위 R개 중 정답 수 ÷ R = 2 ÷ 4 = 0.5"]


def test_empty_cases():
    assert explain("mean_rank", [0, 0, 0]).steps == [
        "MR = nan (관련 항목이 없으면 평균 순위를 정할 수 없습니다)"
    ]
    assert math.isnan(explain("mean_rank", [0, 0, 0]).value)
    assert explain("ndcg", [0, 0, 0], decimals=2).rounded == 0.0
    assert explain("reciprocal_rank", [0, 0], decimals=2).rounded == 0.0
    assert explain("precision", [1, 1, 1], 10).steps == ["P@10 = 정답 수 ÷ k = 3 ÷ 10 = 0.3"]


# --- the card, the renderings, the guard ---

ALL_CALLS = [
    ("ndcg", OX, {}),
    ("dcg", OX, {}),
    ("precision", OX, {}),
    ("recall", OX, {}),
    ("f1", OX, {}),
    ("hit_rate", OX, {}),
    ("r_precision", OX, {}),
    ("reciprocal_rank", OX, {}),
    ("mean_rank", OX, {}),
    ("average_precision", OX, {}),
    ("mean_reciprocal_rank", [OX, [0, 1]], {}),
    ("mean_average_precision", [OX, [0, 1]], {}),
    ("mse", [1, 2], {"y_pred": [2, 2]}),
    ("mae", [1, 2], {"y_pred": [2, 2]}),
    ("rmse", [1, 2], {"y_pred": [2, 2]}),
]


@pytest.mark.parametrize(("metric", "x", "kwargs"), ALL_CALLS, ids=[c[0] for c in ALL_CALLS])
def test_every_metric_has_the_same_card_words_and_renders(metric, x, kwargs):
    e = explain(metric, x, decimals=2, **kwargs)
    assert e.card.startswith("규칙 │ 이득: ")
    positions = [e.card.index(f"{word}: ") for word in ("이득", "할인", "이상적 순서", "분모", "컷오프")]
    assert positions == sorted(positions)
    text = str(e)
    assert text.splitlines()[0] == f"{e.label} 단계표"
    assert text.splitlines()[-1] == e.card
    html = e._repr_html_()
    assert html.startswith('<div class="rankmetrics-explain">') and "<table>" in html
    assert e.to_markdown().count("|---:|") >= 1
    value = rm.__dict__[metric](x, **kwargs) if metric in ("mse", "mae", "rmse") else rm.__dict__[metric](x)
    assert e.value == value or (math.isnan(e.value) and math.isnan(value))


def test_plain_text_golden_ox_table():
    lines = str(explain("ndcg", OX, decimals=2, discount_decimals=1)).splitlines()
    assert lines[3:10] == [
        "[내 순위]",
        "순위  등급  이득(=등급)  할인 log2(순위+1)      이득÷할인        누적 합",
        "----  ----  -----------  -----------------  -------------  -------------",
        "   1     1            1                  1              1              1",
        "   2     0            0        1.6 (1.585)              0              1",
        "   3     1            1                  2           0.50           1.50",
        "   4     0            0       2.3 (2.3219)              0           1.50",
    ]
    assert lines[10] == "   5     1            1        2.6 (2.585)  0.38 (0.3869)  1.88 (1.8869)"


def test_a_displayed_explanation_carries_the_html_and_the_text_tables():
    # A notebook cell ending with the explanation: the web book shows text/html, the printed
    # book (myst-nb's LaTeX builder takes text/plain, never text/html) shows text/plain.
    formatter = pytest.importorskip("IPython.core.formatters").DisplayFormatter()
    e = explain("average_precision", [1, 0, 1, 0, 1], n_relevant=4)
    data, _ = formatter.format(e)
    assert data["text/html"] == e._repr_html_()
    text = data["text/plain"].splitlines()
    # AP over R = 4: precisions at the hits 1/1, 2/3, 3/5; (1 + 0.6667 + 0.6) / 4 = 0.5667
    assert text[0] == "AP 단계표"
    assert text[3:5] == [
        "순위  등급  정답  누적 정답 수  정답 위치의 정밀도",
        "----  ----  ----  ------------  ------------------",
    ]
    assert text[7] == "   3     1  O                2              0.6667"
    assert "AP = (1 + 0.6667 + 0.6) ÷ 4 = 2.2667 ÷ 4 = 0.5667" in text
    assert text[-1] == e.card
    assert repr(e) == "<Explanation AP = 0.5667>"  # repr() itself stays one line


def test_html_escapes_item_ids():
    html = explain("precision", ["<b>", "x&y"], relevant={"<b>"})._repr_html_()
    assert "&lt;b&gt;" in html and "x&amp;y" in html
    assert "<b>" not in html
    assert '<td style="text-align:left;padding:0 .6em">&lt;b&gt;</td>' in html


def test_the_guard_catches_a_table_that_drifts(monkeypatch):
    # The DCG step table checks its total against the ndcg it imported; the module is
    # reached through importlib (rankmetrics.explain is the function).
    module = importlib.import_module("rankmetrics.teaching.explain.dcg_steps")
    monkeypatch.setattr(module, "ndcg", lambda *args, **kwargs: 0.5)
    with pytest.raises(
        AssertionError, match=r"^nDCG의 단계표 합계는 0\.885.*인데 지표 함수의 값은 0\.5입니다$"
    ):
        explain("ndcg", OX)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: explain("ndgc", OX), "metric must be one of"),
        (lambda: explain("ndcg", [[1, 0], [0, 1]]), "explain shows one query at a time; x has 2 rows"),
        (lambda: explain("precision", OX, n_relevant=4), "precision has no keyword 'n_relevant'"),
        (lambda: explain("ndcg", OX, decimals=2.5), "decimals must be a whole number from 0 to 15"),
        (lambda: explain("ndcg", OX, decimals=-1), "decimals must be a whole number from 0 to 15"),
        (lambda: explain("ndcg", OX, discount_decimals=1), "discount_decimals only applies with decimals"),
        (lambda: explain("mse", [1, 2]), "needs the predictions as y_pred="),
        (lambda: explain("mse", [1, 2], 2, y_pred=[1, 2]), "k does not apply to mse"),
        (lambda: explain("r_precision", OX, 3), "k does not apply to r_precision"),
        (lambda: explain("ndcg", OX, gain="log"), "gain must be one of"),
        (lambda: explain("ndcg", [1, -1]), "x must not contain negative grades"),
        (lambda: explain("ndcg", OX, 0), "k must be a positive integer"),
    ],
)
def test_bad_input_names_the_argument(call, message):
    # Refusals speak the API's language (English by default), whatever the tables are shown in.
    with rm.use_language("en"), pytest.raises(ValueError, match=message):
        call()


def test_a_refusal_in_korean():
    # explain shows one query: x has 2 rows (the batch [[1, 0], [0, 1]])
    with pytest.raises(ValueError, match=r"^explain은 질의를 하나씩 보여 줍니다; x에 행이 2개 있습니다"):
        explain("precision", [[1, 0], [0, 1]], k=1)


@settings(max_examples=60, deadline=None)
@given(
    grades=st.lists(st.integers(0, 3), min_size=1, max_size=8),
    k=st.one_of(st.none(), st.integers(1, 10)),
    metric=st.sampled_from(
        [
            "ndcg",
            "dcg",
            "precision",
            "recall",
            "f1",
            "hit_rate",
            "reciprocal_rank",
            "mean_rank",
            "average_precision",
        ]
    ),
    decimals=st.one_of(st.none(), st.integers(1, 4)),
)
def test_value_always_equals_the_metric(grades, k, metric, decimals):
    e = explain(metric, grades, k, decimals=decimals)
    expected = getattr(rm, metric)(grades, k)
    assert e.value == expected or (math.isnan(e.value) and math.isnan(expected))
    if decimals is not None and not math.isnan(expected):
        # Rounding each step (gains up to 3, discounts >= 1) moves each term by a few units of
        # the last decimal at most, so the hand result stays near the exact one.
        assert abs(e.rounded - expected) <= 4 * len(grades) * 10.0**-decimals


def test_uncut_ndcg_ideal_longer_than_the_list():
    # Without k, ndcg cuts neither side: the ideal keeps every judged item, even when
    # more items are judged than listed. The step table used to cut the ideal at the
    # list's length and then failed its own guard.
    e = explain("ndcg", ["A"], relevant={"A", "B"}, decimals=2)
    assert e.value == rm.ndcg(["A"], relevant={"A", "B"})
    assert [row["item"] for row in e.ideal_rows] == ["A", "B"]
    assert explain("ndcg", [1, 0], ideal=[1, 1, 1]).value == rm.ndcg([1, 0], ideal=[1, 1, 1])
