"""The rehearsal minutes have one home, ``book/data/rehearsal.json``, and the lesson plans agree with it.

The plan's minute slots are written in the plan's prose (each lesson's schedule table, the
"### 도입(0–10분)" headings, "모두 15분입니다" under each activity and "**숙제(약 20분)**"); the
data file repeats them beside the measured minutes. These tests bind the two, and check that the
table the plan shows is the one built from the file as it is now (not a stale execution).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

BOOK = Path(__file__).resolve().parents[2] / "book"
DATA = json.loads((BOOK / "data" / "rehearsal.json").read_text(encoding="utf-8"))
PLAN = nbformat.read(BOOK / "lesson_plans.ipynb", as_version=4)
ACTIVITIES = ("도입", "본 활동 1", "본 활동 2", "마무리")


def lesson_text(lesson: int) -> str:
    """The Markdown of lesson N's section: from its "## 수업 N." heading to the next level-2 heading."""
    text = "\n".join(cell.source for cell in PLAN.cells if cell.cell_type == "markdown")
    start = text.index(f"\n## 수업 {lesson}.")
    following = re.search(r"\n## ", text[start + 1 :])
    return text[start : start + 1 + following.start()] if following else text[start:]


def activity_text(section: str, name: str) -> str:
    """One activity's part of a lesson section: from its "### name(" heading to the next "###"."""
    start = section.index(f"\n### {name}(")
    following = section.find("\n### ", start + 1)
    return section[start : following if following > 0 else len(section)]


@pytest.mark.parametrize("lesson", DATA["lessons"], ids=lambda lesson: f"lesson{lesson['lesson']}")
def test_slots_in_the_data_file_are_the_plans_slots(lesson):
    section = lesson_text(lesson["lesson"])
    by_name = {activity["name"]: activity for activity in lesson["activities"]}
    assert set(by_name) == {*ACTIVITIES, "숙제"}
    for name in ACTIVITIES:
        start, end = by_name[name]["slot"]
        # the schedule table at the top of the lesson: "| 0–10분 | 도입: ..."
        assert re.search(rf"^\| {start}–{end}분 \| {name}", section, re.MULTILINE), (name, start, end)
        # the activity's own heading and the sum of its minute breakdown
        assert f"\n### {name}({start}–{end}분)" in section
        totals = re.findall(r"모두 (\d+)분입니다", activity_text(section, name))
        assert totals == [str(end - start)], (name, totals)
    # the schedule table has exactly these four rows, and they tile 0–50 minutes
    rows = re.findall(r"^\| (\d+)–(\d+)분 \|", section, re.MULTILINE)
    assert [(int(a), int(b)) for a, b in rows] == [tuple(by_name[name]["slot"]) for name in ACTIVITIES]
    assert rows[0][0] == "0" and rows[-1][1] == "50"
    assert all(rows[i][1] == rows[i + 1][0] for i in range(len(rows) - 1))
    homework = re.findall(r"\*\*숙제\(약 (\d+)분\)\*\*", section)
    assert homework == [str(by_name["숙제"]["plan"])]


def test_measured_minutes_are_well_formed():
    keys = ("round1_student", "round2_student", "round1_teacher", "round2_teacher")
    assert set(DATA["rounds"]) == {"round1", "round2"}
    for about in DATA["rounds"].values():
        assert {"who", "student_rule", "teacher_rule"} <= set(about)
    for lesson in DATA["lessons"]:
        for activity in lesson["activities"]:
            for key in keys:
                value = activity[key]
                if isinstance(value, list):
                    low, high = value
                    assert 0 < low < high, (lesson["lesson"], activity["name"], key)
                elif value is not None:
                    assert value > 0, (lesson["lesson"], activity["name"], key)
            # a round's student minutes are measured in every activity of every lesson
            assert activity["round1_student"] is not None and activity["round2_student"] is not None


def shown(value) -> str:
    """How the plan's table prints one value (the notebook's own formatting, restated)."""
    if value is None:
        return "–"
    if isinstance(value, list):
        return "–".join(f"{v:g}" for v in value)
    return f"{value:g}"


def test_the_plan_shows_the_minutes_of_the_data_file():
    cell = next(c for c in PLAN.cells if c.cell_type == "code" and "data/rehearsal.json" in c.source)
    text = next(o["data"]["text/plain"] for o in cell.outputs if "text/html" in o.get("data", {}))
    lines = [re.split(r"\s{2,}", line.strip()) for line in text.splitlines()[2:]]
    expected = []
    for lesson in DATA["lessons"]:
        for activity in lesson["activities"]:
            slot = activity.get("slot")
            expected.append(
                [
                    f"수업 {lesson['lesson']}",
                    activity["name"],
                    f"{slot[0]}–{slot[1]}분" if slot else f"약 {activity['plan']}분",
                    *(
                        shown(activity[k])
                        for k in ("round1_student", "round2_student", "round1_teacher", "round2_teacher")
                    ),
                ]
            )
    assert lines == expected
    # e.g. lesson 2, activity 2, round 2: the DCG role and the IDCG role, printed as a range
    assert ["수업 2", "본 활동 2", "25–40분", "9.1", "10.6–11.3", "18", "15.1"] in lines
