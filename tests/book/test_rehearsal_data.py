"""The lesson plan's minutes: the cards at the top, the scripts below, and the rehearsal record.

The plan states each activity's minutes twice: in the lesson's card at the top of
``lesson_plans.ipynb`` (a timeline rendered from ``lesson_cards.Lesson`` data, with one row of
slack before the exit ticket) and in the lesson's details below ("### 도입(0–9분)" headings and
"모두 9분입니다" under each activity's minute breakdown). These tests bind the two.

The minutes measured in the two rehearsals have one home, ``book/data/rehearsal.json``, shown by
the authors' appendix ``appendix_lesson_rehearsal.ipynb``. Its slots are the plan's as rehearsed
(round 2): for lessons 1–3 before the slack was added; lesson 4 was rehearsed with its slack, and
its card reads its timeline from the file (``lesson_cards.rehearsed_timeline``). The tests check
the file's shape and that the appendix and the cards show the file as it is now (not a stale
execution).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import nbformat
import pytest

BOOK = Path(__file__).resolve().parents[2] / "book"
DATA = json.loads((BOOK / "data" / "rehearsal.json").read_text(encoding="utf-8"))
PLAN = nbformat.read(BOOK / "lesson_plans.ipynb", as_version=4)
APPENDIX = nbformat.read(BOOK / "appendix_lesson_rehearsal.ipynb", as_version=4)
sys.path.insert(0, str(BOOK))
import lesson_cards  # book/lesson_cards.py: the notebooks import it from book/

ACTIVITIES = ("도입", "본 활동 1", "본 활동 2", "마무리")
SLACK = "여유"
TIMELINE_ROW = re.compile(r"^\| (\d+)–(\d+)분 \| (?:\*\*)?([^:*|]+?)(?:\*\*)?: .*\| (\d+) \|$", re.MULTILINE)
LESSON_OF_CARD = re.compile(r"\{ref\}`수업 (\d+) 자세히 <([\w-]+)>`")


def cards() -> dict[int, str]:
    """Lesson number -> the card's Markdown, as the page shows it (a visible cell's output)."""
    found = {}
    for cell in PLAN.cells:
        if cell.cell_type != "code" or "remove-cell" in cell.metadata.get("tags", []):
            continue
        for out in cell.get("outputs", []):
            text = out.get("data", {}).get("text/markdown", "")
            if text.startswith("**목표**"):
                (number, _label), *_ = LESSON_OF_CARD.findall(text)
                found[int(number)] = text
    return found


def timeline(card: str) -> list[tuple[str, int, int, int]]:
    """(name, start, end, minutes) for each row of a card's timeline."""
    return [(name.strip(), int(a), int(b), int(m)) for a, b, name, m in TIMELINE_ROW.findall(card)]


def lesson_text(lesson: int) -> str:
    """The Markdown of lesson N's details: from "## 수업 N 자세히" to the next level-2 heading."""
    text = "\n".join(cell.source for cell in PLAN.cells if cell.cell_type == "markdown")
    start = text.index(f"\n## 수업 {lesson} 자세히")
    following = re.search(r"\n## ", text[start + 1 :])
    return text[start : start + 1 + following.start()] if following else text[start:]


def activity_text(section: str, name: str) -> str:
    """One activity's part of a lesson's details: from its "### name(" heading to the next "###"."""
    start = section.index(f"\n### {name}(")
    following = section.find("\n### ", start + 1)
    return section[start : following if following > 0 else len(section)]


def test_every_lesson_has_a_card():
    assert sorted(cards()) == [lesson["lesson"] for lesson in DATA["lessons"]] == [1, 2, 3, 4]


@pytest.mark.parametrize("lesson", [1, 2, 3, 4], ids=lambda n: f"lesson{n}")
def test_the_card_timeline_is_50_minutes_with_slack_before_the_exit(lesson):
    rows = timeline(cards()[lesson])
    names = [name for name, *_ in rows]
    assert names == [*ACTIVITIES[:3], SLACK, ACTIVITIES[3]], names
    assert rows[0][1] == 0 and rows[-1][2] == 50
    assert all(end - start == minutes for _name, start, end, minutes in rows)
    assert all(rows[i][2] == rows[i + 1][1] for i in range(len(rows) - 1))  # the rows tile 0–50
    slack = rows[names.index(SLACK)][3]
    assert slack >= 3
    assert f"| | 합계 (여유 {slack}분 포함) | 50 |" in cards()[lesson]


@pytest.mark.parametrize("lesson", [1, 2, 3, 4], ids=lambda n: f"lesson{n}")
def test_the_details_keep_the_cards_minutes(lesson):
    section = lesson_text(lesson)
    for name, start, end, minutes in timeline(cards()[lesson]):
        if name == SLACK:
            continue
        assert f"\n### {name}({start}–{end}분)" in section, (name, start, end)
        totals = re.findall(r"모두 (\d+)분입니다", activity_text(section, name))
        assert totals == [str(minutes)], (name, totals)


@pytest.mark.parametrize("lesson", DATA["lessons"], ids=lambda lesson: f"lesson{lesson['lesson']}")
def test_homework_minutes_agree(lesson):
    planned = next(a["plan"] for a in lesson["activities"] if a["name"] == "숙제")
    assert re.findall(r"\*\*숙제\(약 (\d+)분\)\*\*", lesson_text(lesson["lesson"])) == [str(planned)]
    card = cards()[lesson["lesson"]]
    homework = next(line for line in card.splitlines() if line.startswith("**숙제**"))
    assert re.findall(r"약 (\d+)분", homework) == [str(planned)]


@pytest.mark.parametrize("lesson", DATA["lessons"], ids=lambda lesson: f"lesson{lesson['lesson']}")
def test_rehearsed_slots_tiled_the_lesson(lesson):
    slots = [tuple(a["slot"]) for a in lesson["activities"] if a.get("slot")]
    assert [a["name"] for a in lesson["activities"] if a.get("slot")] == list(ACTIVITIES)
    if "slack" in lesson:  # rehearsed with its slack: the slack lies just before the exit ticket
        slots.insert(-1, tuple(lesson["slack"]))
        assert lesson["slack"][1] - lesson["slack"][0] >= 3
    assert slots[0][0] == 0 and slots[-1][1] == 50
    assert all(slots[i][1] == slots[i + 1][0] for i in range(len(slots) - 1))


def test_a_card_rehearsed_with_its_slack_reads_its_minutes_from_the_record():
    """Lesson 4's card has no typed minutes: its rows are the record's slots and the slack between them."""
    lesson = next(lesson for lesson in DATA["lessons"] if lesson["lesson"] == 4)
    expected = [
        (a["name"], *a["slot"], a["slot"][1] - a["slot"][0]) for a in lesson["activities"] if "slot" in a
    ]
    start, end = lesson["slack"]
    expected.insert(-1, (SLACK, start, end, end - start))
    assert timeline(cards()[4]) == expected
    source = next(c.source for c in PLAN.cells if "number=4," in c.source)
    lesson_4 = source.split("number=4,", 1)[1]
    assert "rehearsed_timeline(" in lesson_4 and "homework_minutes(4)" in lesson_4
    assert not re.search(r"Step\(", lesson_4), "lesson 4's steps come from the record, not typed"


def test_measured_minutes_are_well_formed():
    keys = ("round1_student", "round2_student", "round1_teacher", "round2_teacher")
    assert set(DATA["rounds"]) == {"round1", "round2"}
    own_rounds = [lesson["rounds"] for lesson in DATA["lessons"] if "rounds" in lesson]  # lesson 4's own
    assert len(own_rounds) == 1
    for about in [*DATA["rounds"].values(), *(r for rounds in own_rounds for r in rounds.values())]:
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
    """How the appendix's table prints one value (the notebook's own formatting, restated)."""
    if value is None:
        return "–"
    if isinstance(value, list):
        return "–".join(f"{v:g}" for v in value)
    return f"{value:g}"


def test_the_appendix_shows_the_minutes_of_the_data_file():
    cell = next(c for c in APPENDIX.cells if c.cell_type == "code" and "show_table" in c.source)
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


def test_the_rehearsal_logs_left_the_teachers_page():
    """The change-logs are notes for authors: on the appendix, not in the plan a teacher reads."""
    plan = "\n".join(c.source for c in PLAN.cells if c.cell_type == "markdown")
    appendix = "\n".join(c.source for c in APPENDIX.cells if c.cell_type == "markdown")
    for heading in ("## 1차 리허설에서 드러난 문제와 고친 것", "## 2차 리허설에서 드러난 문제와 고친 것"):
        assert heading in appendix and heading.lstrip("#").strip() not in plan
    assert "rehearsal.json" not in "\n".join(c.source for c in PLAN.cells)


def test_the_teachers_reading_time_counts_syllables_and_digits_in_quotes():
    # 칠, 판, 에 (3) and 1, 0 (2); the parentheses, the comma and "HR@" are not read as syllables
    assert lesson_cards.spoken_syllables("칠판에 HR@10, (") == 5
    section = (
        '- **교사**: "하나 둘" 하고 칠판에 적습니다. "셋 4"\n'
        '- **학생**: "읽지 않음"\n'
        '- **교사**(정리): "다섯"'
    )
    assert lesson_cards.teacher_words(section) == "하나 둘 셋 4 다섯"  # only the teacher's quoted words
    assert lesson_cards.spoken_syllables(lesson_cards.teacher_words(section)) == 2 + 1 + 1 + 1 + 2


def test_the_appendix_times_lesson_four_scripts_at_the_rule_rate():
    cell = next(c for c in APPENDIX.cells if c.cell_type == "code" and "spoken_rows," in c.source)
    text = next(o["data"]["text/plain"] for o in cell.outputs if "text/html" in o.get("data", {}))
    rows = [re.split(r"\s{2,}", line.strip()) for line in text.splitlines()[2:]]
    lesson = next(lesson for lesson in DATA["lessons"] if lesson["lesson"] == 4)
    timed = [a for a in lesson["activities"] if "slot" in a]
    assert [row[0] for row in rows] == [a["name"] for a in timed]
    # the plan as it is now: a plan whose scripts changed after the appendix ran shows a stale table
    recount = lesson_cards.spoken_by_activity(PLAN, "sec-lesson_plans-recsys")
    assert [int(row[1]) for row in rows] == [syllables for _heading, syllables in recount]
    for (name, syllables, spoken, teacher), activity in zip(rows, timed):
        assert float(spoken) == round(int(syllables) / 270, 1)
        assert shown(activity["round2_teacher"]) == teacher
        assert 100 < int(syllables) and float(spoken) < float(teacher.split("–")[-1])
