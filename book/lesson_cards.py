"""The lesson card: the one page a teacher reads before a lesson, in the same shape for every lesson.

A lesson is data, a :class:`Lesson`. :func:`card` writes it as MyST Markdown for the lesson-plan
page (a cell tagged ``remove-input`` shows it), and :func:`card_blocks` as the blocks of
:mod:`rankmetrics.teaching.worksheet.render`, so the same card prints on one A4 page.
:func:`check` holds the shape every card keeps:

* a timeline of exactly 50 minutes, in whole minutes, with one row of slack (여유) of at least
  3 minutes placed before the last activity, so that the exit ticket starts on time when an
  activity runs late;
* a goal, what students do before the lesson, the materials, what to cut when late (each cut
  with the minutes it saves), what to add when early, a board plan and the homework.

A new lesson adds one more ``Lesson(...)`` beside the others in the page's hidden cell, a
markdown cell with its heading and a ``remove-input`` cell that shows ``card(lesson)``; the tests
of the page read every card the page shows and hold each to this shape.

A lesson rehearsed with its slack in place (lesson 4 on) takes its minutes from the rehearsal
record, ``data/rehearsal.json``: :func:`rehearsed_timeline` builds the timeline from the record's
slots, and :func:`homework_minutes` reads the homework's planned minutes, so that the card, the
appendix and the record cannot disagree. Lessons 1–3 keep their typed minutes: their record holds
the slots as rehearsed, before the slack was added.

The card's text may use ``{ref}`` and ``{download}`` with explicit link text
(``{ref}`5장 <ch-dcg_ndcg>```); on paper the link text stays and the target goes.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from pathlib import Path

LESSON_MINUTES = 50
MIN_SLACK = 3
SLACK = "여유"
#: What the slack row says: the same words on every card.
SLACK_TEXT = "앞 활동이 늦어지면 여기서 씁니다. 남으면 아래의 '일찍 끝나면 더할 것'을 합니다."

_ROLE = re.compile(r"\{(?:ref|download|numref|doc)\}`([^`<]+?)\s*<[^>`]+>`")


@dataclass(frozen=True)
class Step:
    """One row of the timeline: an activity (도입, 본 활동 1, ...) or the slack."""

    name: str
    minutes: int
    what: str = ""


@dataclass(frozen=True)
class Cut:
    """Something to leave out when the lesson runs late, and the minutes that saves."""

    what: str
    minutes: int


@dataclass(frozen=True)
class Lesson:
    number: int
    title: str
    #: The label of the lesson's detailed section on the page (sec-lesson_plans-...).
    details: str
    goal: str
    before: str
    timeline: tuple[Step, ...]
    materials: tuple[str, ...]
    if_late: tuple[Cut, ...]
    if_early: tuple[str, ...]
    #: (place on the board, what is written there and when)
    board: tuple[tuple[str, str], ...]
    homework: str

    def slots(self) -> list[tuple[Step, int, int]]:
        """Each step with its start and end minute."""
        out, start = [], 0
        for step in self.timeline:
            out.append((step, start, start + step.minutes))
            start += step.minutes
        return out

    @property
    def slack(self) -> int:
        return sum(step.minutes for step in self.timeline if step.name == SLACK)


REHEARSAL = Path(__file__).resolve().parent / "data" / "rehearsal.json"


def rehearsal(number: int) -> dict:
    """Lesson ``number``'s entry in the rehearsal record."""
    record = json.loads(REHEARSAL.read_text(encoding="utf-8"))
    (entry,) = [lesson for lesson in record["lessons"] if lesson["lesson"] == number]
    return entry


def rehearsed_timeline(number: int, what: dict[str, str]) -> tuple[Step, ...]:
    """The timeline of a lesson rehearsed with its slack: the record's slots, the slack between them.

    ``what`` gives each activity's line by the record's key (``intro``, ``activity1``, ...).
    """
    entry = rehearsal(number)
    assert "slack" in entry, f"lesson {number} was not rehearsed with its slack; its minutes are typed"
    steps, end = [], 0
    for activity in entry["activities"]:
        if "slot" not in activity:  # the homework
            continue
        start, stop = activity["slot"]
        if start > end:
            assert [end, start] == entry["slack"], (number, activity["name"], end, start)
            steps.append(Step(SLACK, start - end))
        steps.append(Step(activity["name"], stop - start, what[activity["key"]]))
        end = stop
    return tuple(steps)


#: The rehearsals' teacher rule: a script is read aloud at about 270 syllables a minute (250–300).
SYLLABLES_PER_MINUTE = 270
_SPOKEN = re.compile(r"[\uac00-\ud7a3]|\d")  # a Hangul syllable or a digit: what the rule counts
_TEACHER_LINE = re.compile(r"^- \*\*교사\*\*(?:\([^)]*\))?: (.*)$", re.MULTILINE)
_QUOTED = re.compile(r'"([^"]*)"')


def spoken_syllables(text: str) -> int:
    """The Hangul syllables and digits of ``text``: "C(9, 3)을 구해 보세요" has 6 + 2."""
    return len(_SPOKEN.findall(text))


def teacher_words(activity: str) -> str:
    """What a teacher reads aloud in one activity of a lesson's details: the quoted parts of its **교사** lines.

    The lines between the quotes say what the teacher does (writes, listens) and are not read.
    """
    return " ".join(quote for line in _TEACHER_LINE.findall(activity) for quote in _QUOTED.findall(line))


_GLUE = re.compile(r"\{glue:text\}`([^`:]+)(?::([^`]*))?`")


def spoken_by_activity(plan, label: str) -> list[tuple[str, int]]:
    """(heading, syllables read aloud) for each "###" activity of the section ``(label)=`` of the executed ``plan``.

    ``plan`` is the lesson-plan notebook (nbformat) with its outputs: each ``{glue:text}`` role in a
    script is filled in with the value the page shows, so a glued instruction read aloud is counted.
    The last activity (마무리) includes the homework announcement that follows it.
    """
    glued = {}
    for cell in plan.cells:
        for out in cell.get("outputs", []):
            name = out.get("metadata", {}).get("scrapbook", {}).get("name")
            if name:
                glued[name] = ast.literal_eval(next(iter(out["data"].values())))
    section = next(cell.source for cell in plan.cells if cell.source.startswith(f"({label})="))
    section = _GLUE.sub(lambda m: format(glued[m.group(1)], m.group(2) or ""), section)
    return [
        (part.splitlines()[0], spoken_syllables(teacher_words(part)))
        for part in re.split(r"\n### ", section)[1:]
    ]


def homework_minutes(number: int) -> int:
    """The minutes the plan gives lesson ``number``'s homework, as the record holds them."""
    return next(a["plan"] for a in rehearsal(number)["activities"] if a["key"] == "homework")


def check(lesson: Lesson) -> None:
    """Raise AssertionError when the card leaves its shape (see the module's docstring)."""
    where = f"lesson {lesson.number}"
    assert all(isinstance(s.minutes, int) and s.minutes > 0 for s in lesson.timeline), where
    assert sum(s.minutes for s in lesson.timeline) == LESSON_MINUTES, (where, "timeline is not 50 minutes")
    names = [s.name for s in lesson.timeline]
    assert names.count(SLACK) == 1, (where, "one slack row")
    assert lesson.slack >= MIN_SLACK, (where, f"slack {lesson.slack} < {MIN_SLACK}")
    assert names.index(SLACK) == len(names) - 2, (where, "the slack comes just before the last activity")
    assert len(set(names)) == len(names), (where, "activity names repeat")
    assert all(s.what for s in lesson.timeline if s.name != SLACK), (where, "an activity without a line")
    for field in ("title", "details", "goal", "before", "homework"):
        assert getattr(lesson, field).strip(), (where, field)
    for field in ("materials", "if_late", "if_early", "board"):
        assert getattr(lesson, field), (where, field)
    assert all(c.minutes > 0 and c.what for c in lesson.if_late), where
    assert all(place and what for place, what in lesson.board), where


def _minutes(start: int, end: int) -> str:
    return f"{start}–{end}분"


def _timeline_rows(lesson: Lesson) -> list[list[str]]:
    rows = []
    for step, start, end in lesson.slots():
        what = f"**{SLACK}**: {SLACK_TEXT}" if step.name == SLACK else f"{step.name}: {step.what}"
        rows.append([_minutes(start, end), what, str(step.minutes)])
    return rows


def card(lesson: Lesson) -> str:
    """The card as MyST Markdown (a cell's ``text/markdown`` output, ``markdown_format: myst``)."""
    check(lesson)
    out = [f"**목표**: {lesson.goal}", "", f"**수업 전**: {lesson.before}", ""]
    out += ["| 시간 | 활동 | 분 |", "|---|---|---:|"]
    out += ["| " + " | ".join(row) + " |" for row in _timeline_rows(lesson)]
    out += [f"| | 합계 (여유 {lesson.slack}분 포함) | {LESSON_MINUTES} |", ""]
    out += ["**준비물**", ""] + [f"- {item}" for item in lesson.materials] + [""]
    out += ["**늦어지면 뺄 것** (괄호 안은 아끼는 시간)", ""]
    out += [f"- {cut.what} ({cut.minutes}분)" for cut in lesson.if_late] + [""]
    out += ["**일찍 끝나면 더할 것**", ""] + [f"- {item}" for item in lesson.if_early] + [""]
    out += ["**판서 계획**", "", "| 칠판의 자리 | 적는 것 |", "|---|---|"]
    out += [f"| {place} | {what} |" for place, what in lesson.board] + [""]
    out += [f"**숙제**: {lesson.homework}", ""]
    out += [
        f"활동마다의 대본과 예상 답, 채점 기준은 {{ref}}`수업 {lesson.number} 자세히 <{lesson.details}>`에 있습니다."
    ]
    return "\n".join(out) + "\n"


def plain(text: str) -> str:
    """Text for paper: a link keeps its words, ``**`` goes."""
    text = _ROLE.sub(r"\1", text).replace("**", "")
    assert "{" not in text and "`" not in text, text  # a role without link text cannot print
    return text


#: The card is one sheet: the worksheet page's style, tighter (a worksheet may run over several pages).
CARD_CSS = (
    "body { font-size: 10pt; line-height: 1.35; margin: 0 auto; } h1 { font-size: 1.35em; margin: 0 0 .3em; } "
    "h2 { font-size: 1.05em; margin: .5em 0 .15em; } p { margin: .15em 0; } table { margin: .2em 0 .4em; } "
    "th, td { padding: .05em .4em !important; } "
    "section.problem { break-inside: auto; page-break-inside: auto; }"
)


def card_html(lesson: Lesson) -> str:
    """The printable card: :func:`card_blocks` on the worksheet renderer's A4 page, in the card's tighter style."""
    from rankmetrics.teaching.worksheet.render import html_page

    page = html_page(f"수업 {lesson.number} 한눈에", card_blocks(lesson))
    assert page.count("</style>") == 1
    return page.replace("</style>", CARD_CSS + "\n</style>")


def card_blocks(lesson: Lesson) -> list[tuple]:
    """The card as blocks of the worksheet renderer: one printable A4 page."""
    check(lesson)
    blocks: list[tuple] = [
        ("h1", f"수업 {lesson.number} 한눈에: {plain(lesson.title)}"),
        ("p", f"목표: {plain(lesson.goal)}"),
        ("p", f"수업 전: {plain(lesson.before)}"),
        (
            "table",
            ["시간", "활동", "분"],
            [[a, plain(b), c] for a, b, c in _timeline_rows(lesson)]
            + [["", f"합계 (여유 {lesson.slack}분 포함)", str(LESSON_MINUTES)]],
            ["left", "left", "right"],
        ),
        ("h2", "준비물"),
        *(("p", f"• {plain(item)}") for item in lesson.materials),
        ("h2", "늦어지면 뺄 것 (괄호 안은 아끼는 시간)"),
        *(("p", f"• {plain(cut.what)} ({cut.minutes}분)") for cut in lesson.if_late),
        ("h2", "일찍 끝나면 더할 것"),
        *(("p", f"• {plain(item)}") for item in lesson.if_early),
        ("h2", "판서 계획"),
        (
            "table",
            ["칠판의 자리", "적는 것"],
            [[plain(p), plain(w)] for p, w in lesson.board],
            ["left", "left"],
        ),
        ("p", f"숙제: {plain(lesson.homework)}"),
    ]
    return blocks
