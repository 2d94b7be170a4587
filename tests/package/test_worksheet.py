"""Worksheets: deterministic files, problems small enough for a hand, and a key the package agrees with."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from html.parser import HTMLParser

import numpy as np
import pytest

import rankmetrics as rm
from rankmetrics import make_worksheet
from rankmetrics.teaching.worksheet import MAX_COUNT

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
        hand = rm.explain(problem.metric, problem.x, problem.k, decimals=3, **problem.kwargs).rounded
        if problem.metric == "hit_rate":  # 0 or 1, asked and keyed as a whole number
            assert value in (0.0, 1.0) and exact == answer == str(int(value)) == str(int(hand))
        else:
            assert exact == f"{value:.4f}"
            # the hand answer is explain's student rounding of the same problem ...
            assert answer == f"{hand:.3f}"
        # ... which rounding each step keeps within a few thousandths of the exact value
        assert abs(float(answer) - value) <= 0.006
        assert f"답: {answer} (정확한 값 {exact})" in key


def test_the_sheet_does_not_show_the_answers():
    sheet = make_worksheet(7, 11, ALL)
    assert "정확한 값" not in sheet.problem_markdown and "규칙 │" not in sheet.problem_markdown
    assert "손 계산:" not in sheet.problem_markdown and "누적 정답 수 |\n|" in sheet.problem_markdown
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
        ({"seed": 1, "count": True}, "count must be a positive integer"),
        ({"seed": 1, "count": 2.0}, "count must be a positive integer"),
        # a sheet, not a book: range(10**400) used to run until the machine gave up
        ({"seed": 1, "count": 1001}, "count must be a positive integer up to 1000"),
        ({"seed": 1, "count": 10**400}, "count must be a positive integer up to 1000"),
        ({"seed": 1, "metrics": "ndcg,nope"}, "metrics must be chosen from"),
        ({"seed": 1, "metrics": []}, "metrics is empty"),
        # decimals: the shared check, 0 to 15 (28 crashed in Decimal rounding)
        ({"seed": 1, "decimals": -1}, "decimals must be a whole number from 0 to 15"),
        ({"seed": 1, "decimals": 16}, "decimals must be a whole number from 0 to 15"),
        ({"seed": 1, "decimals": 28}, "decimals must be a whole number from 0 to 15"),
        ({"seed": 1, "decimals": 2.5}, "decimals must be a whole number from 0 to 15"),
        ({"seed": 1, "decimals": None}, "decimals must be a whole number from 0 to 15"),
        ({"seed": 1, "label": 1}, "label must be one line of text"),
        ({"seed": 1, "label": "수업 1\n숙제"}, "label must be one line of text"),
    ],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        make_worksheet(**kwargs)


def test_count_is_bounded_and_the_bound_is_a_thousand():
    assert MAX_COUNT == 1000
    assert len(make_worksheet(1, MAX_COUNT, "rr").problems) == 1000  # the bound itself is allowed


# --- a whole-number sheet (decimals=0) --------------------------------------------


def test_a_whole_number_sheet():
    sheet = make_worksheet(7, 3, "ndcg,ap,rr", decimals=0)
    text = sheet.problem_markdown
    assert "중간값은 모두 정수로 반올림하며" in text and "소수 0자리" not in text
    # log2(2..7) = 1, 1.585, 2, 2.322, 2.585, 2.807 -> 1, 2, 2, 2, 3, 3
    assert "| 할인 | 1 | 2 | 2 | 2 | 3 | 3 |" in text
    # the exact values 0.2097, 0.1667, 0.3333 are 0 as whole numbers
    assert [r["verdict"] for r in sheet.grade([0, 0, 0]).rows] == ["정답"] * 3
    # nDCG@3 by hand: DCG = 0/1 + 1/2 + 1/2 -> 0 + 1 + 1 = 2 (0.5 rounds up), IDCG = 3/1 + 3/2 + 1/2
    # -> 3 + 2 + 1 = 6, 2/6 -> 0; so 1 is wrong. Three units of a whole number is no rounding slip.
    assert sheet.grade({1: 1}).rows[0]["verdict"] == "오답"


# --- grading: every answer is a number, a blank, or refused by position ----------


@pytest.fixture(scope="module")
def sheet7():
    # the key: nDCG@3 0.210 (exact 0.2097), AP 0.167 (0.1667), RR 0.333 (0.3333)
    return make_worksheet(7, 3, "ndcg,ap,rr")


@pytest.mark.parametrize(
    ("answers", "verdicts"),
    [
        # NaN is an empty spreadsheet cell (pandas): a blank, like None
        ([math.nan, None, float("nan")], ["빈칸", "빈칸", "빈칸"]),
        ({1: np.float64("nan")}, ["빈칸", "빈칸", "빈칸"]),
        # infinity and numbers beyond float range are numbers, just not the answer
        ([math.inf, -math.inf, 10**400], ["오답", "오답", "오답"]),
        ([1e30, Fraction(10**400, 3), Decimal("Infinity")], ["오답", "오답", "오답"]),
        # exact types a teacher may use: 21/100, 0.167, 0.333
        ([Fraction(21, 100), Decimal("0.167"), np.float32(0.333)], ["정답", "정답", "정답"]),
        # 0.1667 rounds to 0.167 on a three-decimal sheet; 0.33 is 0.3333 to two places
        ((x for x in [0.2097, 0.1667, 0.33]), ["정답", "정답", "반올림 차이"]),
    ],
)
def test_grading_odd_answers(sheet7, answers, verdicts):
    report = sheet7.grade(answers)
    assert [row["verdict"] for row in report.rows] == verdicts
    assert str(report).splitlines()[-1] == f"정답 {verdicts.count('정답')} / 3"  # the report prints


def test_a_huge_answer_prints_short(sheet7):
    assert str(sheet7.grade({3: 10**400})).splitlines()[4].split()[2] == "1e+400"


@pytest.mark.parametrize(
    ("answers", "message"),
    [
        (["0.21", 0.167, 0.333], r"answers\[0\] \(problem 1\) must be a number; got '0.21'"),
        ([None, True, None], r"answers\[1\] \(problem 2\) must be a number; got True"),
        ([None, None, [0.333]], r"answers\[2\] \(problem 3\) must be a number; got \[0.333\]"),
        ({3: "0.333"}, r"answers\[3\] must be a number; got '0.333'"),
        ({2: Decimal}, r"answers\[2\] must be a number"),
        # a skipped line would shift every later answer onto the wrong problem
        ([0.21, 0.167], "answers has 2 entries but the sheet has 3 problems"),
        ([0.21, 0.167, 0.333, 0.5], "answers has 4 entries but the sheet has 3 problems"),
        ({4: 0.5}, "answers has an answer for problem 4, but the sheet's problems are numbered 1 to 3"),
        ({0: 0.5}, "answers has an answer for problem 0"),
        ({"1": 0.21}, "answers has an answer for problem '1'"),
        ({True: 0.21}, "answers has an answer for problem True"),
        ("0.21 0.167 0.333", "not a string"),
        (None, "answers must be a list in problem order or a mapping"),
    ],
)
def test_grading_refuses_what_is_not_an_answer(sheet7, answers, message):
    with pytest.raises(ValueError, match=message):
        sheet7.grade(answers)


# --- writing: a worksheet never destroys a file ------------------------------------


def test_write_refuses_to_overwrite_unless_forced(tmp_path):
    sheet = make_worksheet(1, 2, "ndcg,rr")
    paths = sheet.write(tmp_path)
    paths[2].write_text("my notes")  # answers-seed1.md
    with pytest.raises(FileExistsError) as excinfo:
        sheet.write(tmp_path)
    assert excinfo.value.filename == str(paths[0]) and "force=True" in str(excinfo.value)
    assert paths[2].read_text() == "my notes"
    assert sheet.write(tmp_path, force=True) == paths
    assert paths[2].read_bytes() == sheet.answer_markdown.encode("utf-8")


def test_write_checks_every_name_before_writing_any(tmp_path):
    (tmp_path / "answers-seed1.html").write_text("keep")  # the last of the four
    with pytest.raises(FileExistsError):
        make_worksheet(1, 2, "ndcg").write(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["answers-seed1.html"]  # nothing half-written


@pytest.mark.parametrize("force", [False, True])
@pytest.mark.parametrize("dangling", [False, True])
def test_write_never_follows_a_link(tmp_path, force, dangling):
    outside = tmp_path / "outside.md"
    if not dangling:
        outside.write_text("keep")
    folder = tmp_path / "sheets"
    folder.mkdir()
    (folder / "answers-seed1.md").symlink_to(outside)
    with pytest.raises(ValueError, match="answers-seed1.md' is a symbolic link"):
        make_worksheet(1, 2, "ndcg").write(folder, force=force)
    assert outside.exists() != dangling and (dangling or outside.read_text() == "keep")
    assert [p.name for p in folder.iterdir()] == ["answers-seed1.md"]


@pytest.mark.parametrize("out", ["", "  ", None, 5, b"sheets"], ids=repr)
def test_write_refuses_a_missing_folder_name(tmp_path, monkeypatch, out):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match="^out "):
        make_worksheet(1, 1, "rr").write(out)
    assert list(tmp_path.iterdir()) == []  # in particular, not the current folder


def test_write_refuses_a_file_as_the_folder(tmp_path):
    (tmp_path / "notes").write_text("keep")
    with pytest.raises(NotADirectoryError):
        make_worksheet(1, 1, "rr").write(tmp_path / "notes", force=True)
    assert (tmp_path / "notes").read_text() == "keep"


# --- what the students hold: a name line, blank step tables, no seed ------------------


@pytest.mark.parametrize("seed", [7, 2026])
def test_the_seed_is_on_the_key_only(seed):
    sheet = make_worksheet(seed, 6, "dcg,ndcg,precision,rr")
    assert "seed" not in sheet.problem_markdown + sheet.problem_html
    assert "시드" not in sheet.problem_markdown + sheet.problem_html
    assert "씨앗" not in sheet.answer_markdown + sheet.answer_html  # the glossary's term is 시드
    assert sheet.problem_markdown.startswith("# 랭킹 지표 학습지: DCG@K · nDCG@K · P@K · RR\n")
    assert "<title>랭킹 지표 학습지: DCG@K · nDCG@K · P@K · RR</title>" in sheet.problem_html
    title = f"# 랭킹 지표 학습지 답안지 (교사용, 시드 {seed}): DCG@K · nDCG@K · P@K · RR\n"
    assert sheet.answer_markdown.startswith(title)
    assert f"<title>랭킹 지표 학습지 답안지 (교사용, 시드 {seed})" in sheet.answer_html


def test_a_label_heads_both_titles_and_changes_nothing_else():
    # three similar sheets in a teacher's hands: the lesson is printed on each, sheet and key
    plain, labelled = make_worksheet(7, 2, "dcg,ndcg"), make_worksheet(7, 2, "dcg,ndcg", label=" 수업 2 ")
    assert labelled.problem_markdown.startswith("# 수업 2 · 랭킹 지표 학습지: DCG@K · nDCG@K\n")
    assert "<title>수업 2 · 랭킹 지표 학습지: DCG@K · nDCG@K</title>" in labelled.problem_html
    assert labelled.answer_markdown.startswith("# 수업 2 · 랭킹 지표 학습지 답안지 (교사용, 시드 7): DCG@K")
    # below the title line the files are the unlabelled ones, byte for byte
    assert labelled.problem_markdown.split("\n", 1)[1] == plain.problem_markdown.split("\n", 1)[1]
    assert labelled.answer_markdown.split("\n", 1)[1] == plain.answer_markdown.split("\n", 1)[1]


def test_only_a_sheet_with_grades_says_what_a_grade_means():
    rule = "등급(관련도)이 0보다 크면 관련 항목입니다."
    assert rule not in make_worksheet(2026, 6, "precision,recall,hit-rate,f1").problem_markdown  # O/X only
    assert rule not in make_worksheet(11, 4, "rr,mrr").problem_markdown
    assert rule in make_worksheet(7, 2, "dcg,ndcg").problem_markdown


def test_an_ideal_below_the_cutoff_is_said_in_words():
    # seed 7, problem 2: D H E G F C graded 1 2 2 2 2 3, nDCG@4. C (grade 3) is in the list but
    # below the cutoff; "목록 밖에 관련 항목은 없습니다" was read as "nothing below rank 4 counts".
    problem = make_worksheet(7, 2, "dcg,ndcg").problems[1]
    assert problem.x == ["D", "H", "E", "G", "F", "C"] and problem.k == 4
    text = make_worksheet(7, 2, "dcg,ndcg").problem_markdown
    assert (
        "목록의 6개 항목 밖에는 관련 항목이 없습니다. 이상적 순서는 상위 4개 밖의 항목까지, "
        "판정된 모든 항목으로 만듭니다."
    ) in text
    # by hand: DCG@4 = 1 + 2/log2 3 + 2/2 + 2/log2 5; the ideal takes C: 3 + 2/log2 3 + 2/2 + 2/log2 5
    dcg = 1 + 2 / math.log2(3) + 1 + 2 / math.log2(5)
    idcg = 3 + 2 / math.log2(3) + 1 + 2 / math.log2(5)
    assert problem.exact == pytest.approx(dcg / idcg, abs=1e-12)
    # seed 0, problem 3: E G F C, nDCG@4 on all four items: nothing below the cutoff to explain
    whole = make_worksheet(0, 4, "ndcg")
    assert whole.problems[2].x == ["E", "G", "F", "C"] and whole.problems[2].k == 4
    part = whole.problem_markdown.split("## 문제 3.")[1].split("## 문제 4.")[0]
    assert "목록 밖에 관련 항목은 없습니다. 이상적 순서는 판정된 모든 항목으로 만듭니다." in part
    assert "밖의 항목까지" not in part


def test_the_sheet_has_a_name_and_class_line():
    sheet = make_worksheet(1, 2, "ndcg,rr")
    line = "이름: __________________    반: ______    번호: ______"
    assert sheet.problem_markdown.splitlines()[2] == line
    assert f'<p class="fields">{line}</p>' in sheet.problem_html
    assert "이름:" not in sheet.answer_markdown


def _blank_tables(markdown: str) -> list[tuple[str, list[str], list[list[str]]]]:
    """(caption, header, rows) of every blank step table on a sheet's Markdown."""
    found = []
    for caption, body in re.findall(
        r"^\*(.+)\* \(빈칸을 채우세요\)\n\n((?:\|.*\n)+)", markdown, re.MULTILINE
    ):
        lines = [[cell.strip() for cell in line.strip("|").split("|")] for line in body.splitlines()]
        found.append((caption, lines[0], lines[2:]))
    return found


def test_dcg_problems_get_blank_step_tables_with_one_row_per_rank():
    sheet = make_worksheet(7, 6, "dcg,ndcg")
    tables = _blank_tables(sheet.problem_markdown)
    # three DCG problems (one table each) and three nDCG problems (mine and the ideal ordering)
    assert [caption for caption, _, _ in tables] == ["내 순위", "내 순위", "이상적 순서"] * 3
    expected_rows = []
    for problem in sheet.problems:
        expected_rows += [problem.k] * (1 if problem.metric == "dcg" else 2)
    for (caption, header, rows), depth in zip(tables, expected_rows):
        columns = ["이득", "할인", "이득÷할인", "누적 합"]
        assert header == (["순위", *columns] if caption == "내 순위" else ["순위", "등급", *columns])
        assert [row[0] for row in rows] == [str(r) for r in range(1, depth + 1)]
        assert all(cell == "" for row in rows for cell in row[1:])  # nothing filled in but the rank
    assert "nDCG@4 = DCG ÷ IDCG = ______ ÷ ______ = ______" in sheet.problem_markdown
    assert sheet.problem_html.count('<table class="blank">') == 9
    assert "table.blank td { height: 1.9em;" in sheet.problem_html


def test_every_problem_has_somewhere_to_write_each_step():
    sheet = make_worksheet(3, 11, ALL)
    text = sheet.problem_markdown
    for line in (
        "첫 정답의 순위 ______ → RR = 1 ÷ ______ = ______",
        "MRR = RR의 합 ______ ÷ 질의 수 3 = ______",
        "MAP = AP의 합 ______ ÷ 질의 수 3 = ______",
        "AP = 정밀도의 합 ______ ÷ 전체 정답 수 ______ = ______",
    ):
        assert line in text
    headers = [header for _, header, _ in _blank_tables(text)]
    assert ["질의", "첫 정답의 순위", "RR"] in headers
    assert ["순위", "누적 정답 수", "정답 위치의 정밀도"] in headers


# --- the problems themselves -----------------------------------------------------


def _first_hit_rr(problem) -> float:
    """RR by hand: 1 over the rank of the first listed relevant item."""
    for rank, item in enumerate(problem.x, start=1):
        if item in problem.kwargs["relevant"]:
            return 1 / rank
    return 0.0


@pytest.mark.parametrize("seed", range(12))
def test_problems_of_one_metric_have_different_answers(seed):
    sheet = make_worksheet(seed, 8, "rr,ap,mrr,map")
    rr = [p for p in sheet.problems if p.metric == "reciprocal_rank"]
    assert [p.exact for p in rr] == [_first_hit_rr(p) for p in rr]
    for metric in ("reciprocal_rank", "average_precision", "mean_reciprocal_rank", "mean_average_precision"):
        answers = [f"{p.exact:.3f}" for p in sheet.problems if p.metric == metric]
        assert len(answers) == 2 and len(set(answers)) == 2, (metric, answers)


def test_the_lesson_three_sheet_no_longer_repeats_rr_half():
    # seed 11 drew RR = 1/2 twice (F G B H with G relevant, then F A H C with A relevant)
    sheet = make_worksheet(11, 6, "rr,ap,mrr,map")
    rr = [p for p in sheet.problems if p.metric == "reciprocal_rank"]
    assert rr[0].x == ["F", "G", "B", "H"] and rr[0].exact == 0.5
    assert rr[1].exact != 0.5 and rr[1].exact == _first_hit_rr(rr[1])


def test_hit_rate_is_asked_and_keyed_as_zero_or_one():
    sheet = make_worksheet(2026, 6, "precision,recall,hit-rate,f1")
    hr = sheet.problems[2]
    assert hr.metric == "hit_rate" and hr.exact == 1.0  # E, the third item, is relevant and k = 3
    assert "HR@K(적중률)는 0 또는 1이므로 답을 0이나 1로 적으세요." in sheet.problem_markdown
    assert "구할 값: HR@3 (상위 3개까지 봅니다). 답은 0 또는 1입니다." in sheet.problem_markdown
    assert "| 3 | HR@3 | 1 | 1 |" in sheet.answer_markdown and "답: 1 (정확한 값 1)" in sheet.answer_markdown
    assert "1.000" not in sheet.answer_markdown.split("## 문제 3.")[1].split("## 문제 4.")[0]
    assert [r["verdict"] for r in sheet.grade({3: 1}).rows][2] == "정답"
    assert [r["verdict"] for r in sheet.grade({3: 0}).rows][2] == "오답"


def test_ap_and_map_on_one_sheet_carry_a_denominator_warning():
    sheet = make_worksheet(11, 6, "rr,ap,mrr,map")
    ap = [p for p in sheet.problems if p.metric == "average_precision"]
    outside = [p.number for p in ap if any(item not in p.x for item in p.kwargs["relevant"])]
    assert outside == [2, 6]
    warning = (
        "> **분모에 주의하세요.** AP의 분모는 언제나 그 질의의 전체 정답 수입니다. AP 문제(2, 6)에는 "
        "목록 밖에도 정답이 있으므로, 목록 안의 O 개수가 아니라 문제에 적힌 전체 정답 수로 나눕니다. "
        "MAP 문제(4)는 정답이 모두 목록 안에 있어, 질의마다 목록 안의 O 개수로 나눕니다."
    )
    assert warning in sheet.problem_markdown and warning in sheet.answer_markdown
    assert '<p class="warn"><strong>분모에 주의하세요.</strong>' in sheet.problem_html
    # problem 2: H C G B F D, only D (6th) relevant in the list, A and E outside: AP = (1/6) / 3
    assert sheet.problems[1].x == ["H", "C", "G", "B", "F", "D"] and sheet.problems[1].exact == 1 / 6 / 3
    assert "전체 정답은 3개입니다 (목록 밖 정답: A, E). AP의 분모는 전체 정답 수 3입니다." in (
        sheet.problem_markdown
    )
    assert "분모에 주의하세요" not in make_worksheet(11, 4, "rr,ap").problem_markdown  # no MAP: no warning


def test_the_key_shows_precision_at_hits_only_where_the_metric_uses_it():
    sheet = make_worksheet(2, 11, ALL)
    for problem in sheet.problems:
        start = sheet.answer_markdown.index(f"## 문제 {problem.number}.")
        end = sheet.answer_markdown.find("## 문제", start + 1)
        part = sheet.answer_markdown[start : end if end > 0 else None]
        uses = problem.metric in ("average_precision", "mean_average_precision")
        assert ("정답 위치의 정밀도" in part) == uses, problem.label


def test_printable_pages_are_a4():
    sheet = make_worksheet(1, 1, "rr")
    for page in (sheet.problem_html, sheet.answer_html):
        assert "@page { size: A4; margin: 15mm; }" in page


def test_the_public_names_and_import_paths_stay():
    from rankmetrics.teaching import worksheet
    from rankmetrics.teaching.worksheet import GradeReport, Problem, Worksheet, sheet_metrics

    assert rm.make_worksheet is worksheet.make_worksheet and rm.Worksheet is Worksheet
    accepted = sheet_metrics()
    assert accepted["hit-rate"] == "hit_rate" and accepted["average_precision"] == "average_precision"
    sheet = make_worksheet(7, 3, "ndcg,ap,rr")
    assert isinstance(sheet.problems[0], Problem) and isinstance(sheet.grade([None] * 3), GradeReport)


def test_hit_rate_answers_are_right_and_redrawn_towards_both_values():
    # HR@K = 0 is rare (four in ten items relevant, k >= 3): twelve redraws find it on some
    # sheets, and a sheet where they do not simply repeats 1
    firsts = []
    for seed in range(6):
        sheet = make_worksheet(seed, 2, "hit-rate")
        by_hand = [float(any(item in p.kwargs["relevant"] for item in p.x[: p.k])) for p in sheet.problems]
        assert [p.exact for p in sheet.problems] == by_hand
        firsts.append(by_hand)
    assert [0.0, 1.0] in [sorted(pair) for pair in firsts]


def test_worksheets_are_korean_unless_told():
    # The Python API speaks English by default; a worksheet is Korean all the same, and English
    # when asked. Seed 7, ndcg,ap,rr: the key's answers 0.210, 0.167, 0.333 (as above).
    with rm.use_language("en"):
        korean = make_worksheet(7, 3, "ndcg,ap,rr")
        english = make_worksheet(7, 3, "ndcg,ap,rr", language="en")
        assert korean.problem_markdown.startswith("# 랭킹 지표 학습지: nDCG@K · AP · RR\n")
        assert english.problem_markdown.startswith("# Ranking metrics worksheet: nDCG@K · AP · RR\n")
        assert '<html lang="ko">' in korean.problem_html and '<html lang="en">' in english.answer_html
        assert [r["verdict"] for r in korean.grade([0.21, 0.17, None]).rows] == [
            "정답",
            "반올림 차이",
            "빈칸",
        ]
        assert [r["verdict"] for r in english.grade([0.21, 0.17, None]).rows] == [
            "right",
            "rounding slip",
            "blank",
        ]
        assert str(english.grade([0.21, 0.17, None])).splitlines()[-1] == "right 1 / 3"
    # the same problems and answers in either language
    assert [p.answer for p in english.problems] == [p.answer for p in korean.problems] == [0.21, 0.167, 0.333]
    assert "answer key (for the teacher, seed 7)" in english.answer_markdown
    assert not re.search("[\uac00-\ud7a3]", english.problem_markdown + english.answer_markdown)
    with pytest.raises(ValueError, match=r"^language must be one of en, ko; got .fr.$"):
        make_worksheet(7, 3, language="fr")
