"""The answer boxes under the exercises: the value comes from the build, the verdict from the page.

A right, a rounded and a wrong answer typed into three different exercises give the
three verdicts; the answers survive a reload (localStorage, per page) and
"다시 풀기" clears them. Every box's expected value is the package's.
"""

from __future__ import annotations

import ast
import json
import re

import pytest

import rankmetrics as rm


def boxes(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('.rm-answer-row')).map(row => ({"
        "id: row.querySelector('input').id, exercise: row.closest('.rm-answer').dataset.exercise,"
        "inExercise: !!row.closest('.exercise'), visible: row.checkVisibility(),"
        "exact: Number(row.dataset.exact), hand: row.dataset.hand || null, decimals: Number(row.dataset.decimals)}))"
    )


def answer(driver, field_id, text):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    box = driver.find_element(By.ID, field_id)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    box.clear()
    box.send_keys(text, Keys.ENTER)  # the keyboard is enough: Enter checks the exercise
    return driver.find_element(By.ID, field_id + "-verdict")


@pytest.fixture
def fresh(driver, open_page):
    def open_fresh(path):
        open_page(path)
        driver.execute_script("localStorage.clear()")
        open_page(path)

    yield open_fresh
    driver.execute_script("localStorage.clear()")


def test_three_exercises_three_verdicts(driver, fresh):
    fresh("book/04_map.html")
    rows = {row["id"]: row for row in boxes(driver)}
    assert rows and all(row["inExercise"] and row["visible"] for row in rows.values())
    # ex-map-1: AP of X O O X O, to three decimals
    ap = rm.average_precision([0, 1, 1, 0, 1])
    assert rows["rm-answer-ex-map-1-1"]["exact"] == ap
    right = answer(driver, "rm-answer-ex-map-1-1", f"{ap:.3f}")
    # ex-map-2: the rounded answer (two decimals instead of three)
    longer = rm.average_precision([1, 0, 1, 0, 1, 1], n_relevant=4)
    rounded = answer(driver, "rm-answer-ex-map-2-1", f"{longer:.2f}")
    # ex-map-4 (다): a wrong answer
    wrong = answer(driver, "rm-answer-ex-map-4-3", "0.5")
    assert right.text == "정답"
    assert rounded.text == f"반올림 차이: 소수 3자리로 반올림하면 {longer:.3f}"
    assert wrong.text == "오답"
    assert [v.get_attribute("data-verdict") for v in (right, rounded, wrong)] == [
        "정답",
        "반올림 차이",
        "오답",
    ]


def test_answers_are_kept_per_page_and_reset(driver, fresh, open_page):
    from selenium.webdriver.common.by import By

    fresh("book/quiz.html")
    verdict = answer(driver, "rm-answer-ex-quiz-2-1", "0.3")
    assert verdict.text == "정답"
    open_page("book/quiz.html")
    assert driver.find_element(By.ID, "rm-answer-ex-quiz-2-1").get_attribute("value") == "0.3"
    assert driver.find_element(By.ID, "rm-answer-ex-quiz-2-1-verdict").text == "정답"
    reset = driver.find_element(By.CSS_SELECTOR, '[data-exercise="ex-quiz-2"] .rm-answer-reset')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", reset)
    reset.click()
    assert driver.find_element(By.ID, "rm-answer-ex-quiz-2-1").get_attribute("value") == ""
    assert driver.switch_to.active_element.get_attribute("id") == "rm-answer-ex-quiz-2-1"
    open_page("book/quiz.html")
    assert driver.find_element(By.ID, "rm-answer-ex-quiz-2-1").get_attribute("value") == ""


def test_every_box_holds_the_package_value(driver, open_page, pages, book_html):
    """Each box's value is what its declaration computes with rankmetrics now."""
    declared = {}
    for path in sorted((book_html.parents[1] / "book").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        for label, body in re.findall(r"```\{answer-check\} (\S+)\n(.*?)```", text, re.DOTALL):
            lines = [ln for ln in body.splitlines() if ln.strip() and not ln.startswith(":")]
            declared.setdefault(label, []).extend(ln.rsplit(" = ", 1)[1] for ln in lines)
    seen = 0
    for page in pages:
        open_page(f"{page}.html")
        by_exercise: dict[str, list[dict]] = {}
        for row in boxes(driver):
            by_exercise.setdefault(row["exercise"], []).append(row)
        for label, rows in by_exercise.items():
            assert len(rows) == len(declared[label])
            for row, source in zip(rows, declared[label]):
                seen += 1
                if source.startswith("glue:"):
                    continue
                call = ast.parse(source, mode="eval").body
                args = [ast.literal_eval(a) for a in call.args]
                kwargs = {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords}
                assert row["exact"] == getattr(rm, call.func.id)(*args, **kwargs), (label, source)
    assert seen == sum(len(v) for v in declared.values()) >= 100
