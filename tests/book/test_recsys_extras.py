"""The pages around the recommender chapters (issue 29): glossary, quiz, cheat sheet, misconceptions.

Each test reads the committed pages (their prose and the values their hidden cells glue) and
recomputes the number the prose rests on by a second route: by hand in a comment, with plain
``math`` (the hypergeometric sum), or from the recorded library values.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from .test_learner_path import glued, markdown

BOOK = Path(__file__).resolve().parents[2] / "book"
RECORDED = BOOK.parent / "tests" / "package" / "data" / "recsys_library_values.json"
RECOMMENDER_CHAPTERS = [
    "13_recsys_protocol.ipynb",
    "14_sampled_evaluation.ipynb",
    "15_beyond_accuracy.ipynb",
    "16_recsys_libraries_online.ipynb",
]


def glossary_rows() -> dict[str, str]:
    text = markdown("appendix_glossary.md")
    return {line.split("|")[1].strip(): line for line in text.splitlines() if line.startswith("| ")}


def chapter_labels() -> set[str]:
    labels = set()
    for name in RECOMMENDER_CHAPTERS + ["08_many_queries.ipynb"]:
        labels |= set(re.findall(r"^\((ch-[\w-]+)\)=", markdown(name), re.MULTILINE))
    return labels


# ---------------------------------------------------------------- glossary

TERMS = [
    "보류 항목", "네거티브", "전체 순위", "표본 속 순위", "초기하분포", "한 개 남기기", "데이터 누수",
    "무작위 분할", "시간 기준 분할", "콜드 스타트", "미시 평균", "사용자별 평균", "A/B 테스트",
    "표본 비율 불일치", "가드레일", "인터리빙", "팀 드래프트", "역성향 가중", "자기 정규화 추정",
    "노출 편향", "커버리지", "새로움", "목록 내 다양성", "평균 인기도", "롱테일 비율", "지니 계수",
    "엔트로피", "캘리브레이션", "노출",
]  # fmt: skip


def test_glossary_has_each_recommender_term_with_its_chapter():
    rows, labels = glossary_rows(), chapter_labels()
    assert "ch-recsys_protocol" in labels and "ch-recsys_libraries_online" in labels  # the labels were read
    for term in TERMS:
        row = rows[term]
        assert len(row.strip().strip("|").split("|")) == 4, term  # the table keeps its four columns
        cited = re.findall(r"\{numref\}`%s장 <([\w-]+)>`", row.split("정의:")[-1])
        assert cited and set(cited) <= labels, (term, cited)
    assert "SNIPS" in rows["자기 정규화 추정"] and "IPS" in rows["역성향 가중"]
    assert (
        "SRM" in rows["표본 비율 불일치"] and "ARP" in rows["평균 인기도"] and "ILD" in rows["목록 내 다양성"]
    )


def test_the_chapters_use_the_glossarys_spelling():
    # One term per concept: the chapters' words are the glossary's, its synonyms stay in the glossary.
    rows = glossary_rows()
    assert "리브 원 아웃" in rows["한 개 남기기"] and "참신성" in rows["새로움"]
    prose = "\n".join(markdown(name) for name in RECOMMENDER_CHAPTERS)
    for chosen in ("한 개 남기기", "새로움", "캘리브레이션", "보류 항목", "표본 속 순위", "초기하분포"):
        assert chosen in prose, chosen
    for synonym in ("리브 원 아웃", "참신성", "부정 표본"):
        assert synonym not in prose, synonym


# ---------------------------------------------------------------- quiz


def sampled_hit_rate(full_rank: int, n_items: int, n_negatives: int, k: int) -> float:
    """P(at most k - 1 of the full_rank - 1 items above are drawn): the hypergeometric sum."""
    above, below = full_rank - 1, n_items - full_rank
    total = math.comb(n_items - 1, n_negatives)
    return sum(math.comb(above, x) * math.comb(below, n_negatives - x) for x in range(k)) / total


def test_quiz_21_sampled_against_exact_hit_rate():
    values = glued("quiz.ipynb")
    assert values["quiz_ex21_exact"] == 0.0  # rank 30 is outside the top 10
    assert abs(values["quiz_ex21_sampled"] - sampled_hit_rate(30, 1000, 100, 10)) < 1e-12
    assert abs(values["quiz_ex21_mean_above"] - 100 * 29 / 999) < 1e-12
    half = values["quiz_ex21_half"]
    assert sampled_hit_rate(int(half), 1000, 100, 10) < 0.5 <= sampled_hit_rate(int(half) - 1, 1000, 100, 10)


def test_quiz_22_which_users_enter_the_mean():
    # One hit (u1); two users with list and truth, a third with truth only, a fourth with list only.
    values = glued("quiz.ipynb")
    assert values["quiz_ex22_skip_skip"] == 1 / 2
    assert values["quiz_ex22_zero_skip"] == values["quiz_ex22_skip_zero"] == 1 / 3
    assert values["quiz_ex22_zero_zero"] == 1 / 4


def test_quiz_23_seen_items_are_removed_before_the_cut():
    # [a, b, c, d, e] with a, b seen and c held out: P@2 is 0/2 as it is, 1/2 on [c, d, e].
    values = glued("quiz.ipynb")
    assert values["quiz_ex23_as_is"] == 0.0 and values["quiz_ex23_filtered"] == 0.5


def test_quiz_24_rectools_divides_by_k_ones():
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))["libraries"]
    values = glued("quiz.ipynb")
    dcg = 1 / math.log2(3) + 1 / math.log2(5)  # hits at ranks 2 (B) and 4 (D)
    four_ones = sum(1 / math.log2(i + 1) for i in range(1, 5))  # min(k, |R|) = 4
    five_ones = sum(1 / math.log2(i + 1) for i in range(1, 6))  # k = 5
    assert (
        abs(recorded["rectools"]["values"]["seed_list"]["nDCG@5"]["per_user"]["u1"] - dcg / five_ones) < 1e-9
    )
    assert abs(values["quiz_ex24_rectools"] - dcg / five_ones) < 1e-9
    assert abs(values["quiz_ex24_common"] - dcg / four_ones) < 1e-9
    assert values["quiz_ex24_common_count"] >= 5  # most of the ten libraries
    prose = markdown("quiz.ipynb")
    assert "0.3601" not in prose and "0.4144" not in prose  # glued, not typed


# ---------------------------------------------------------------- cheat sheet and misconceptions


def test_cheatsheet_ips_and_snips_by_hand():
    # Weights 0.2/0.8 = 1/4 on rounds 1, 2, 4, 6 and 0.8/0.2 = 4 on rounds 3, 5; clicks on 1, 2, 3.
    values = glued("cheatsheet.ipynb")
    weighted = 1 / 4 + 1 / 4 + 4  # 4.5
    assert values["cheatsheet_ips"] == weighted / 6
    assert values["cheatsheet_snips"] == weighted / (4 * (1 / 4) + 2 * 4)
    assert abs(values["cheatsheet_sampled_hr10"] - sampled_hit_rate(40, 1000, 100, 10)) < 1e-12
    assert abs(values["cheatsheet_coverage"] - 5 / 6) < 1e-12  # a to e of a to f


def test_misconception_counter_examples():
    values = glued("misconceptions.ipynb")
    assert values["misconceptions_sampled_exact"] == 0.0 and values["misconceptions_sampled_once"] > 0.9
    # implicit: hits 1 + 1 over min(5, 1) + min(5, 10); the usual P@5 is (1/5 + 1/5) / 2.
    assert abs(values["misconceptions_implicit_p5"] - 2 / 6) < 1e-12
    assert abs(values["misconceptions_implicit_usual"] - 1 / 5) < 1e-12
    # Six items in six slots: full coverage, even counts (Gini 0), one genre per list (ILD 0).
    assert values["misconceptions_split_coverage"] == 1.0 and values["misconceptions_split_gini"] == 0.0
    assert values["misconceptions_split_ild"] == 0.0
    assert (
        abs(values["misconceptions_mixed_coverage"] - 2 / 6) < 1e-12
        and values["misconceptions_mixed_ild"] == 1.0
    )
