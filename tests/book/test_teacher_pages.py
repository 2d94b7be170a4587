"""The teacher's pages: a short top to the lesson plan, cards of one shape, a unit test with a separate key.

What counts as the teacher's reading before the lesson details (``words_before_details``): the
prose of ``lesson_plans.ipynb`` from its title down to the first "## 수업 N 자세히" heading, that is
every markdown cell and every visible cell's Markdown output (the lesson cards), with glued text
filled in from the notebook's stored glue values. A word is a whitespace-separated token with at
least one Hangul syllable (어절), the unit the outside review counted the page in: numbers, formulas,
metric names and link targets alone are not words; code, hidden cells and comment lines are not
read.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
import pytest

BOOK = Path(__file__).resolve().parents[2] / "book"
SHEETS = BOOK / "worksheets"
PLAN = nbformat.read(BOOK / "lesson_plans.ipynb", as_version=4)
TEACHER_PAGES = ("lesson_plans", "teachers", "worksheets", "appendix_lesson_rehearsal")
WORD_LIMIT = 2500

sys.path.insert(0, str(BOOK))
import lesson_cards  # book/lesson_cards.py: the notebooks import it from book/

HANGUL = re.compile(r"[\uac00-\ud7a3]")
FENCE = re.compile(r"^(`{3,}|~{3,})(?P<info>[^\n]*)\n.*?^\1[ \t]*$", re.DOTALL | re.MULTILINE)
GLUE_TEXT = re.compile(r"\{glue:text\}`([^`:]+)(?::[^`]*)?`")
DETAILS = re.compile(r"^## 수업 \d+ 자세히", re.MULTILINE)


def glued(nb) -> dict[str, str]:
    values = {}
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            name = out.get("metadata", {}).get("scrapbook", {}).get("name")
            if name:
                values[name] = str(out["data"].get("text/plain", "")).strip("'\"")
    return values


def words(text: str, values: dict[str, str]) -> int:
    text = FENCE.sub(lambda m: m.group(0) if m.group("info").lstrip().startswith("{") else " ", text)
    text = GLUE_TEXT.sub(lambda m: values.get(m.group(1), ""), text)
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("%"))
    return sum(1 for token in text.split() if HANGUL.search(token))


def reading(nb) -> list[str]:
    """What a reader of the page reads, in order: markdown cells and visible Markdown outputs."""
    parts = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            parts.append(cell.source)
        elif "remove-cell" not in cell.metadata.get("tags", []):
            parts += [
                o["data"]["text/markdown"]
                for o in cell.get("outputs", [])
                if "text/markdown" in o.get("data", {})
            ]
    return parts


def words_before_details(nb) -> int:
    values, count = glued(nb), 0
    for text in reading(nb):
        match = DETAILS.search(text)
        count += words(text[: match.start()] if match else text, values)
        if match:
            return count
    raise AssertionError("no '## 수업 N 자세히' heading: where do the lesson details begin?")


def test_the_teachers_top_reading_is_short():
    count = words_before_details(PLAN)
    assert 500 < count < WORD_LIMIT, f"{count} Hangul words before the lesson details"


def test_the_word_count_reads_cards_and_glue_and_skips_code():
    nb = nbformat.v4.new_notebook()
    glue_cell = nbformat.v4.new_code_cell("glue(...)", metadata={"tags": ["remove-cell"]})
    glue_cell.outputs = [
        nbformat.v4.new_output(
            "display_data", data={"text/plain": "'두 낱말'"}, metadata={"scrapbook": {"name": "k"}}
        )
    ]
    card = nbformat.v4.new_code_cell("display(...)", metadata={"tags": ["remove-input"]})
    card.outputs = [nbformat.v4.new_output("display_data", data={"text/markdown": "**목표**: 세 낱말 여기"})]
    nb.cells = [
        nbformat.v4.new_markdown_cell(
            "# 제목 P@K 0.5\n\n값은 {glue:text}`k`입니다.\n\n```python\n# 코드 주석\n```"
        ),
        glue_cell,
        card,
        nbformat.v4.new_markdown_cell("머리말 한 줄\n## 수업 1 자세히: 뒤\n\n세지 않는 글"),
    ]
    # 제목, 값은, 두, 낱말입니다. (the glued words joined to the particle after the role); **목표**:, 세, 낱말, 여기;
    # 머리말, 한, 줄. Not: P@K, 0.5, the code block's comment, the hidden cell, anything after the details heading.
    assert words_before_details(nb) == 4 + 4 + 3


# ------------------------------------------------------------------ the cards


def cards() -> list[str]:
    return [text for text in reading(PLAN) if text.startswith("**목표**")]


def test_each_card_has_every_part():
    found = cards()
    assert len(found) == 4
    for card in found:
        for part in (
            "**목표**",
            "**수업 전**",
            "**준비물**",
            "**늦어지면 뺄 것**",
            "**일찍 끝나면 더할 것**",
            "**판서 계획**",
            "**숙제**",
        ):
            assert card.count(part) == 1, part
        late = card.split("**늦어지면 뺄 것**", 1)[1].split("**일찍 끝나면", 1)[0]
        cuts = [line for line in late.splitlines() if line.startswith("- ")]
        assert cuts and all(re.search(r"\((\d+)분\)$", line) for line in cuts), cuts
        board = card.split("**판서 계획**", 1)[1].split("**숙제**", 1)[0]
        assert len([line for line in board.splitlines() if line.startswith("| ") and "---" not in line]) >= 4


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_the_printed_card_is_the_pages_card(number):
    """worksheets/lesson-N/card-N.html: the same timeline on one A4 page."""
    page = (SHEETS / f"lesson-{number}" / f"card-{number}.md").read_text(encoding="utf-8")
    html = (SHEETS / f"lesson-{number}" / f"card-{number}.html").read_text(encoding="utf-8")
    assert "@page { size: A4" in html and lesson_cards.CARD_CSS in html  # one sheet: the card's tighter style
    web = next(card for card in cards() if f"수업 {number} 자세히" in card)
    rows = [line for line in web.splitlines() if re.match(r"\| \d+–\d+분 \|", line)]
    printed = [line for line in page.splitlines() if re.match(r"\| \d+–\d+분 \|", line)]
    assert [row.replace("**", "") for row in rows] == printed
    assert "{" not in page and "`" not in page  # no MyST role left on paper


def lesson(**changes) -> lesson_cards.Lesson:
    fields = {
        "number": 9,
        "title": "시험",
        "details": "sec-x",
        "goal": "목표",
        "before": "읽기",
        "timeline": (
            lesson_cards.Step("도입", 10, "가"),
            lesson_cards.Step("본 활동", 27, "나"),
            lesson_cards.Step(lesson_cards.SLACK, 3),
            lesson_cards.Step("마무리", 10, "다"),
        ),
        "materials": ("종이",),
        "if_late": (lesson_cards.Cut("뺄 것", 2),),
        "if_early": ("더할 것",),
        "board": (("왼쪽", "식"),),
        "homework": "숙제",
    }
    return lesson_cards.Lesson(**{**fields, **changes})


def test_lesson_cards_hold_their_shape():
    lesson_cards.check(lesson())
    text = lesson_cards.card(lesson())
    assert "| 37–40분 | **여유**: " in text and "| | 합계 (여유 3분 포함) | 50 |" in text
    step = lesson_cards.Step
    bad = {
        "too little slack": {"timeline": (step("도입", 20, "가"), step("여유", 2), step("마무리", 28, "다"))},
        "not 50 minutes": {"timeline": (step("도입", 20, "가"), step("여유", 3), step("마무리", 20, "다"))},
        "slack last": {"timeline": (step("도입", 20, "가"), step("마무리", 27, "다"), step("여유", 3))},
        "no slack": {"timeline": (step("도입", 20, "가"), step("마무리", 30, "다"))},
        "nothing to cut": {"if_late": ()},
        "a cut saves nothing": {"if_late": (lesson_cards.Cut("뺄 것", 0),)},
        "no board plan": {"board": ()},
    }
    for why, changes in bad.items():
        with pytest.raises(AssertionError):
            lesson_cards.check(lesson(**changes))
            pytest.fail(why)


def test_plain_keeps_link_words():
    assert lesson_cards.plain("{ref}`5장 <ch-dcg_ndcg>`과 **굵게**") == "5장과 굵게"
    with pytest.raises(AssertionError):
        lesson_cards.plain("{ref}`ch-dcg_ndcg`")  # no words to keep on paper


# ------------------------------------------------------------------ the unit test


def key_answers(key: str) -> list[str]:
    """The answers in the key's summary table: | 1 | R@4 | 0.750 | 0.7500 |."""
    return [
        cell
        for row in re.findall(r"^\| \d+ \| [^|]+ \| ([\d.]+) \| ([\d.]+) \|$", key, re.MULTILINE)
        for cell in row
    ]


def test_the_unit_test_and_its_key_are_separate_pages():
    test = (SHEETS / "unit-test" / "unit-test.md").read_text(encoding="utf-8")
    key = (SHEETS / "unit-test" / "unit-test-key.md").read_text(encoding="utf-8")
    for name in ("unit-test.html", "unit-test-key.html"):
        assert "@page { size: A4" in (SHEETS / "unit-test" / name).read_text(encoding="utf-8")
    assert test.startswith("# 단원 평가") and "이름:" in test
    assert key.startswith("# 단원 평가") and "답안지 (교사용)" in key.splitlines()[0]
    numbers = [int(n) for n in re.findall(r"^## 문제 (\d+)\.", test, re.MULTILINE)]
    assert (
        numbers == list(range(1, 7)) == [int(n) for n in re.findall(r"^## 문제 (\d+)\.", key, re.MULTILINE)]
    )
    answers = key_answers(key)
    assert len(answers) == 6
    assert not [a for a in answers if a in test], "the test prints an answer of its key"
    assert "시드" not in test and "시드" in key
    assert key.count("3점:") == 3  # every written problem has its marking rule


def test_the_plan_links_both_unit_test_pages():
    text = "\n".join(reading(PLAN))
    assert "worksheets/unit-test/unit-test.html" in text and "worksheets/unit-test/unit-test-key.html" in text


# ------------------------------------------------------------------ terms (issue 28)


def page_text(name: str) -> str:
    nb = nbformat.read(BOOK / f"{name}.ipynb", as_version=4)
    outputs = [
        str(value)
        for cell in nb.cells
        for out in cell.get("outputs", [])
        for value in [*out.get("data", {}).values(), out.get("text", "")]
    ]
    return "\n".join([c.source for c in nb.cells] + outputs)


def printed_sheets() -> list[Path]:
    return sorted(p for p in SHEETS.rglob("*") if p.suffix in (".md", ".html"))


@pytest.mark.parametrize("name", TEACHER_PAGES)
def test_teacher_pages_use_the_books_terms(name):
    text = page_text(name)
    assert "씨앗" not in text  # 시드
    assert "분수로 끝까지" not in text  # log₂3 has no fraction: "반올림하지 않고 끝까지"
    assert not re.search(r"Hit ?Rate@", text)  # the glossary's HR@K


def test_printed_sheets_use_the_books_terms():
    for path in printed_sheets():
        text = path.read_text(encoding="utf-8")
        assert "씨앗" not in text and "분수로 끝까지" not in text and not re.search(r"Hit ?Rate@", text), path


def test_lesson_three_says_relevant_documents_for_graded_lists():
    """정답 is for the O/X exercises; lesson 3's lists are graded documents."""
    sheet = (SHEETS / "lesson-3" / "activity-3.md").read_text(encoding="utf-8")
    rule_line = next(line for line in sheet.splitlines() if line.startswith("중간값"))
    assert sheet.replace(rule_line, "").count("정답") == 0
    assert "관련 문서로 셉니다" in sheet


UNDATED = "연도 미상"


def undated_keys() -> set[str]:
    bib = (BOOK / "references.bib").read_text(encoding="utf-8")
    entries = re.findall(r"@\w+\{([^,]+),(.*?)\n\}", bib, re.DOTALL)
    return {key for key, body in entries if UNDATED in body}


@pytest.mark.parametrize("name", TEACHER_PAGES)
def test_no_undated_year_in_inline_citations(name):
    """A citation of a source without a year names the source only ({cite:authorpar}), no "연도 미상"."""
    keys = undated_keys()
    text = page_text(name)
    for role, cited in re.findall(r"\{cite(:[\w]+)?\}`([^`]+)`", text):
        if keys & {key.strip() for key in cited.split(",")}:
            assert role in (":authorpar", ":author"), (role, cited)
    assert UNDATED not in text
