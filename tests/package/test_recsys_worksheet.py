"""The two recommender worksheets: sampled vs exact HR@k, and coverage, novelty and ARP.

The key's values are the package's; the hand calculation the key prints (ways of drawing the
negatives; counts and whole bits) is checked here against the package and against a count of
every draw.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from test_worksheet import _Checker  # the ranking sheets' tag checker

import rankmetrics as rm
from rankmetrics.teaching.worksheet import make_recsys_worksheet
from rankmetrics.teaching.worksheet.recsys import KINDS


@pytest.mark.parametrize("kind", KINDS)
def test_same_seed_same_bytes_different_seed_different(kind, tmp_path):
    first = make_recsys_worksheet(3, kind).write(tmp_path / "a")
    second = make_recsys_worksheet(3, kind).write(tmp_path / "b")
    other = make_recsys_worksheet(4, kind).write(tmp_path / "c")
    names = ["worksheet-seed3.md", "worksheet-seed3.html", "answers-seed3.md", "answers-seed3.html"]
    assert [p.name for p in first] == names
    for a, b, c in zip(first, second, other):
        assert a.read_bytes() == b.read_bytes() != c.read_bytes()


def every_draw(problem):
    """Sampled HR@k by listing every draw of the negatives: items 1..N in the model's order."""
    others = [item for item in range(1, problem.n_items + 1) if item != problem.rank]
    hits = total = 0
    for sample in itertools.combinations(others, problem.n_negatives):
        above = sum(item < problem.rank for item in sample)
        hits += 1 + above <= problem.k
        total += 1
    return Fraction(hits, total)


@pytest.mark.parametrize("seed", [1, 4, 11, 2026])
def test_sampled_key_is_the_package_and_the_hand_count_agrees(seed):
    sheet = make_recsys_worksheet(seed, "sampled", count=5)
    for p in sheet.problems:
        assert 8 <= p.n_items <= 12 and 3 <= p.n_negatives <= 4 and 1 <= p.k <= 2
        assert p.k < p.rank <= p.n_items - p.n_negatives  # exact HR@k is 0; x = 0 is possible
        assert p.exact == rm.hit_rate([0] * (p.rank - 1) + [1], k=p.k) == 0.0
        assert p.sampled == rm.sampled_expectation(f"HR@{p.k}", [p.rank], p.n_items, p.n_negatives)[0]
        # the hand table: ways / draws is the package's probability of sampled rank 1 + x
        probabilities = rm.sampled_rank_probabilities(p.n_items, p.n_negatives, [p.rank])[0]
        for x in range(p.k):
            assert p.ways(x) / p.draws == pytest.approx(probabilities[x], abs=1e-12)
        assert p.draws == math.comb(p.n_items - 1, p.n_negatives) <= 330  # C(11, 4): a calculator's work
        # a third way: count every draw
        assert Fraction(p.hits(), p.draws) == every_draw(p)
        assert p.sampled == pytest.approx(float(every_draw(p)), abs=1e-12)
        assert p.sampled > 0


def test_one_sampled_problem_by_hand():
    # seed 4, problem 1: N = 11, R = 5, n = 4, k = 2. Four items above, six below, C(10, 4) = 210 draws.
    # x = 0: C(4, 0) C(6, 4) = 15; x = 1: C(4, 1) C(6, 3) = 80; sampled HR@2 = 95 / 210 = 0.452.
    p = make_recsys_worksheet(4, "sampled").problems[0]
    assert (p.n_items, p.rank, p.n_negatives, p.k) == (11, 5, 4, 2)
    assert (p.ways(0), p.ways(1), p.draws) == (15, 80, 210)
    assert round(p.sampled, 3) == 0.452
    key = make_recsys_worksheet(4, "sampled").answer_markdown
    assert "C(4, 1) × C(6, 3) = 80" in key and "샘플링 HR@2 = 95 ÷ 210" in key


@pytest.mark.parametrize("seed", [1, 5, 7, 2026])
def test_beyond_key_is_the_package_and_the_hand_bits_agree(seed):
    sheet = make_recsys_worksheet(seed, "beyond", count=4)
    for p in sheet.problems:
        assert p.total == 16 and len(p.catalog) - len(p.counts) in (0, 1)  # at most one item nobody saw
        recommended = {item for items in p.lists.values() for item in items}
        assert p.coverage == len(recommended) / len(p.catalog)
        # novelty and ARP by the hand route: whole bits and counts, each list's mean, then the users' mean
        novelty = sum(Fraction(sum(p.bits(i) for i in items), len(items)) for items in p.lists.values()) / 3
        arp = sum(Fraction(sum(p.counts[i] for i in items), len(items)) for items in p.lists.values()) / 3
        assert p.novelty == pytest.approx(float(novelty), abs=1e-12)
        assert p.arp == pytest.approx(float(arp), abs=1e-12)
        for item in recommended:
            assert 2 ** -p.bits(item) == p.counts[item] / 16
        assert all(2 <= len(items) <= 3 and len(set(items)) == len(items) for items in p.lists.values())


def test_one_beyond_problem_by_hand():
    # seed 5, problem 1: counts A 1, B 8, C 2, D 2, E 2, F 1, G 0 (16 in all); lists
    # u1 B, A, C; u2 F, C; u3 B, F, E. Recommended A B C E F: 5 of 7 = 0.714.
    # bits: B 1, A 4, C 3, F 4, E 3 -> u1 8/3, u2 7/2, u3 8/3 -> novelty 53/18 = 2.944.
    # counts: u1 11/3, u2 3/2, u3 11/3 -> ARP 53/18 = 2.944 as well.
    p = make_recsys_worksheet(5, "beyond").problems[0]
    assert p.lists == {"u1": ["B", "A", "C"], "u2": ["F", "C"], "u3": ["B", "F", "E"]}
    assert p.coverage == 5 / 7
    assert p.novelty == pytest.approx(53 / 18) and p.arp == pytest.approx(53 / 18)


@pytest.mark.parametrize("kind", KINDS)
def test_the_sheet_shows_no_answer_and_no_seed(kind):
    sheet = make_recsys_worksheet(2026, kind, label="수업 4")
    printed = sheet.problem_markdown
    assert printed.startswith("# 수업 4 · 추천 평가 학습지") and "이름:" in printed
    assert "시드" not in printed and "시드 2026" in sheet.answer_markdown
    for p in sheet.problems:
        for value in p.answers().values():
            if value not in (0.0, 1.0):
                assert f"{value:.3f}" not in printed
                assert (
                    f"{value:.3f}" in sheet.answer_markdown
                    or f"{round(value, 3):.3f}" in sheet.answer_markdown
                )
    assert "@page { size: A4" in sheet.problem_html and '<html lang="ko">' in sheet.answer_html


def test_english_when_told():
    sheet = make_recsys_worksheet(1, "beyond", language="en")
    assert sheet.problem_markdown.startswith("# Recommender evaluation worksheet: coverage · novelty · ARP")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": "ndcg"}, "kind"),
        ({"seed": -1}, "seed"),
        ({"seed": True}, "seed"),
        ({"count": 0}, "count"),
        ({"label": "a\nb"}, "label"),
        ({"language": "fr"}, "language"),
    ],
)
def test_bad_arguments(kwargs, message):
    arguments = {"seed": 1, **kwargs}
    with pytest.raises(ValueError, match=message):
        make_recsys_worksheet(**arguments)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("which", ["problem_html", "answer_html"])
def test_html_is_a_balanced_printable_page(kind, which):
    page = getattr(make_recsys_worksheet(6, kind, count=4), which)
    assert page.startswith('<!DOCTYPE html>\n<html lang="ko">') and "page-break-inside: avoid" in page
    checker = _Checker()
    checker.feed(page)
    assert checker.stack == []
    assert page.count('<section class="problem">') == 4 and "None" not in page


def test_grading_marks_each_asked_value():
    sheet = make_recsys_worksheet(4, "sampled")  # keys: (0, 0.452), (0, 0.891), (0, 0.278)
    report = sheet.grade({1: [0, 0.452], 2: [0, 0.89], 3: None})
    assert [(row["number"], row["label"]) for row in report.rows][:2] == [
        (1, "정확한 HR@2"),
        (1, "샘플링 HR@2"),
    ]
    # 0.89 is the exact 0.8909 rounded to two decimals: a rounding slip; problem 3 left blank
    assert [row["verdict"] for row in report.rows] == ["정답", "정답", "정답", "반올림 차이", "빈칸", "빈칸"]
    assert report.score == 3
    same = sheet.grade([[0, 95 / 210], [1, 0.891], [None, 0.278]])  # unrounded 95/210 is right too
    assert [row["verdict"] for row in same.rows] == ["정답", "정답", "오답", "정답", "빈칸", "정답"]


@pytest.mark.parametrize(
    ("answers", "message"),
    [
        ({1: [0]}, r"answers\[1\] must be a list of 2 values"),
        ([[0, "0.5"], None, None], r"answers\[0\]\[1\] must be a number"),
        ({5: [0, 0]}, "problem 5"),
        ("0, 0.452", "not a string"),
        ([[0, 0.452]], "1 entries but the sheet has 3 problems"),
    ],
)
def test_grading_refuses_what_is_not_an_answer(answers, message):
    with pytest.raises(ValueError, match=message):
        make_recsys_worksheet(4, "sampled").grade(answers)
