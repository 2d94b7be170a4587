"""Worksheets: deterministic files, problems small enough for a hand, and a key the package agrees with."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html.parser import HTMLParser

import pytest

import rankmetrics as rm
from rankmetrics import make_worksheet

ALL = "ndcg,dcg,precision,recall,f1,hit-rate,rr,ap,mr,mrr,map"


def test_same_seed_same_bytes_different_seed_different(tmp_path):
    first = make_worksheet(11, 8, ALL).write(tmp_path / "a")
    second = make_worksheet(11, 8, ALL).write(tmp_path / "b")
    other = make_worksheet(12, 8, ALL).write(tmp_path / "c")
    for a, b, c in zip(first, second, other):
        assert a.name == b.name and a.read_bytes() == b.read_bytes()
        assert a.read_bytes() != c.read_bytes()


def test_byte_identical_across_processes_and_hash_seeds(tmp_path):
    # Set iteration order changes with PYTHONHASHSEED; the files must not.
    for name, hash_seed in (("one", "1"), ("two", "2")):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        command = [sys.executable, "-m", "rankmetrics", "worksheet", "--seed", "5", "--count", "11",
                   "--metrics", ALL, "--out", str(tmp_path / name)]  # fmt: skip
        subprocess.run(command, check=True, env=env, capture_output=True)
    for path in sorted((tmp_path / "one").iterdir()):
        assert path.read_bytes() == (tmp_path / "two" / path.name).read_bytes(), path.name


def test_problems_are_small_enough_for_a_hand():
    sheet = make_worksheet(2026, 40, ALL)
    names = [p.metric for p in sheet.problems]
    assert names[:11] == [
        "ndcg",
        "dcg",
        "precision",
        "recall",
        "f1",
        "hit_rate",
        "reciprocal_rank",
        "average_precision",
        "mean_rank",
        "mean_reciprocal_rank",
        "mean_average_precision",
    ]  # fmt: skip  (the metrics in turn)
    for problem in sheet.problems:
        if problem.metric in ("mean_reciprocal_rank", "mean_average_precision"):
            assert len(problem.x) == 3 and all(len(q) == 4 and set(q) <= {0, 1} and any(q) for q in problem.x)
            continue
        assert 4 <= len(problem.x) <= 6
        grades = [problem.kwargs["relevant"].get(item, 0) for item in problem.x]
        assert set(grades) <= {0, 1, 2, 3} and any(grades)
        assert set(problem.kwargs["relevant"].values()) <= {1, 2, 3}
        if problem.k is not None:
            assert 3 <= problem.k <= len(problem.x)


def test_every_key_value_is_recomputed_by_the_package():
    sheet = make_worksheet(7, 22, ALL, decimals=3)
    key = sheet.answer_markdown
    # the summary table of the key: | number | label | hand answer | exact |
    table = re.findall(r"^\| (\d+) \| ([^|]+) \| ([0-9.]+) \| ([0-9.]+) \|$", key, flags=re.MULTILINE)
    assert [int(row[0]) for row in table] == list(range(1, 23))
    for problem, (number, label, answer, exact) in zip(sheet.problems, table):
        # straight from the public function, not through the worksheet or explain
        value = getattr(rm, problem.metric)(problem.x, problem.k, **problem.kwargs)
        assert label == problem.label
        assert exact == f"{value:.4f}"
        # the hand answer is explain's student rounding of the same problem ...
        hand = rm.explain(problem.metric, problem.x, problem.k, decimals=3, **problem.kwargs).rounded
        assert answer == f"{hand:.3f}"
        # ... which rounding each step keeps within a few thousandths of the exact value
        assert abs(float(answer) - value) <= 0.006
        assert f"답: {answer} (정확한 값 {exact})" in key


def test_the_sheet_does_not_show_the_answers():
    sheet = make_worksheet(7, 11, ALL)
    assert "정확한 값" not in sheet.problem_markdown and "단계표" not in sheet.problem_markdown
    assert sheet.problem_markdown.count("답: ____________") == 11
    assert "할인표 log2(순위 + 1), 소수 3자리:" in sheet.problem_markdown
    assert "| 할인 | 1 | 1.585 | 2 | 2.322 | 2.585 | 2.807 |" in sheet.problem_markdown


def test_key_contains_the_step_tables():
    sheet = make_worksheet(7, 3, "ndcg,ap,rr")
    assert (
        sheet.answer_markdown.count("단계표") == 0
    )  # the Markdown key shows the tables without a title line
    assert (
        sheet.answer_markdown.count("**내 순위**") == 1
        and sheet.answer_markdown.count("**이상적 순서**") == 1
    )
    assert sheet.answer_markdown.count("**순위별 정답**") == 2
    assert sheet.answer_markdown.count("규칙 │ 이득:") == 3


class _Checker(HTMLParser):
    VOID = frozenset({"meta", "br"})

    def __init__(self):
        super().__init__()
        self.stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1:]}>"
        self.stack.pop()


@pytest.mark.parametrize("which", ["problem_html", "answer_html"])
def test_html_is_a_balanced_printable_page(which):
    page = getattr(make_worksheet(4, 11, ALL), which)
    assert page.startswith('<!DOCTYPE html>\n<html lang="ko">') and '<meta charset="utf-8">' in page
    assert "@media print" in page and "page-break-inside: avoid" in page
    checker = _Checker()
    checker.feed(page)
    assert checker.stack == []
    assert page.count('<section class="problem">') == 11
    assert "None" not in page


def test_grading_a_students_answers():
    sheet = make_worksheet(7, 3, "ndcg,ap,rr")
    # the key: nDCG@3 0.210 (exact 0.2097), AP 0.167 (0.1667), RR 0.333 (0.3333)
    assert [p.answer for p in sheet.problems] == [0.21, 0.167, 0.333]
    report = sheet.grade({1: 0.2097, 2: 0.17})
    assert [row["verdict"] for row in report.rows] == [
        "정답",
        "반올림 차이",
        "빈칸",
    ]  # 0.17: 0.1667 to 2 places
    assert report.score == 1
    assert [r["verdict"] for r in sheet.grade([0.21, 0.5, 0.333]).rows] == ["정답", "오답", "정답"]
    text = str(report).splitlines()
    assert text[0].split() == ["문제", "지표", "학생", "답", "답안", "정확한", "값", "판정"]
    assert text[-1] == "정답 1 / 3"
    with pytest.raises(ValueError, match=r"answers\[1\] must be a number"):
        sheet.grade({1: "0.21"})


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seed": -1}, "seed must be a non-negative integer"),
        ({"seed": 1.5}, "seed must be a non-negative integer"),
        ({"seed": 1, "count": 0}, "count must be a positive integer"),
        ({"seed": 1, "metrics": "ndcg,nope"}, "metrics must be chosen from"),
        ({"seed": 1, "metrics": []}, "metrics is empty"),
        ({"seed": 1, "decimals": 0}, "decimals must be a positive integer"),
    ],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        make_worksheet(**kwargs)
