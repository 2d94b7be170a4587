"""The page's JavaScript step tables (book/_static/rankexplain.js) against the package.

The port runs in Chromium on the checker page; rankmetrics, the reference, runs
here. Random inputs cover every option the checker offers (each metric, grades,
O/X and item ids, k, gain, ideal, decimals, discount decimals); every value, hand
result, table cell, formula line, summary and convention card must agree, and bad
input must give the command line's own message.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rankmetrics as rm

from .rankexplain_cases import (
    JS_GRADES,
    JS_METRICS,
    JS_RESULTS,
    assert_agree,
    assert_registered,
    blank_form,
    compare,
    comparison_forms,
    differences,
    grade_cases,
    reference,
)

BATCH = 400
CHECKER = "book/checker.html"


@pytest.fixture(scope="module")
def checker(driver, open_page):
    open_page(CHECKER)
    assert driver.execute_script("return typeof window.RankExplain") == "object"
    return driver


def run(driver, forms):
    out = []
    for start in range(0, len(forms), BATCH):
        out += driver.execute_script(JS_RESULTS, forms[start : start + BATCH])
    return out


def test_port_matches_the_package_on_random_inputs(checker, book_html: Path):
    # A sample: every 8th random form and every bad input (V8 compares all 12,032 in make test).
    forms = comparison_forms(every=8)
    assert len(forms) == 1_500 + 32
    report = compare(forms, run(checker, forms))
    summary = {"cases": len(forms), "refused": report["refused"], "largest_difference": report["largest"]}
    (book_html.parent / "rankexplain_port.json").write_text(json.dumps(summary))
    print(
        f"\nrankexplain.js vs rankmetrics: {len(forms)} inputs ({report['refused']} refused), "
        f"largest difference {report['largest']:g}"
    )
    assert_agree(report, forms)


def test_document_examples(checker):
    """The movie list (NDCG 완전 정복) to 3 places, the RAG article's O/X list with a one-decimal table."""
    movie, ox = run(
        checker,
        [
            blank_form("ndcg", "3 0 3 2 0", decimals="3"),
            blank_form("ndcg", "O X O X O", decimals="2", discountDecimals="1"),
        ],
    )
    with rm.use_language("ko"):
        e = rm.explain("ndcg", [3, 0, 3, 2, 0], decimals=3)
    assert movie["rounded"] == e.rounded == 0.910
    assert movie["tables"][0]["lines"][-1].endswith("= 5.361")
    assert movie["tables"][1]["lines"][-1].endswith("= 5.893")
    assert movie["tables"][2]["lines"][-1] == "손 계산: nDCG = 5.361 ÷ 5.893 = 0.910"
    assert ox["tables"][0]["lines"][-1].endswith("= 1.88") and ox["tables"][1]["lines"][-1].endswith("= 2.13")
    assert ox["rounded"] == 0.88
    assert [row["discount_rounded"] for row in ox["rows"]] == [1.0, 1.6, 2.0, 2.3, 2.6]
    assert differences(movie, reference(blank_form("ndcg", "3 0 3 2 0", decimals="3")))[0] == []


def test_the_port_lists_the_registered_metrics(checker):
    assert_registered(checker.execute_script(JS_METRICS))


def test_grade_follows_worksheet_grade(checker):
    """RankExplain.grade marks answers as Worksheet.grade does: 정답, 반올림 차이, 오답, 빈칸."""
    inputs, expected = grade_cases()
    got = checker.execute_script(JS_GRADES, inputs)
    assert [(c, g, e) for c, g, e in zip(inputs, got, expected) if g != e] == []


def test_checker_page_shows_the_step_table_and_the_verdict(checker, open_page):
    """Typing into the form: the value, the table, a verdict, and a bad input's message."""
    from selenium.webdriver.common.by import By

    open_page(CHECKER)
    d = checker

    def fill(name, text):
        box = d.find_element(By.CSS_SELECTOR, f".rm-checker-form [name={name}]")
        box.clear()
        if text:
            box.send_keys(text)

    fill("list", "O X O X O")
    fill("decimals", "2")
    fill("discountDecimals", "1")
    fill("answer", "0.88")
    d.execute_script("document.querySelector('.rm-checker').rmUpdate()")
    out = d.find_element(By.CSS_SELECTOR, ".rm-checker-out").text
    assert "nDCG = 0.8855" in out and "손 계산 (소수 2자리) 0.88" in out
    assert "내 답 0.88: 정답" in out and "처음 갈라지는 곳: [내 순위] 5위의 이득÷할인" in out
    assert "rankmetrics ndcg O X O X O --explain --decimals 2 --discount-decimals 1" in out
    fill("answer", "0.89")
    d.execute_script("document.querySelector('.rm-checker').rmUpdate()")
    assert (
        "내 답 0.89: 정답" in d.find_element(By.CSS_SELECTOR, ".rm-checker-out").text
    )  # the exact value, rounded
    fill("answer", "0.9")
    d.execute_script("document.querySelector('.rm-checker').rmUpdate()")
    assert "내 답 0.9: 반올림 차이" in d.find_element(By.CSS_SELECTOR, ".rm-checker-out").text
    fill("list", "O 2 X")
    d.execute_script("document.querySelector('.rm-checker').rmUpdate()")
    error = d.find_element(By.CSS_SELECTOR, ".rm-error").text
    assert error == "오류: " + reference(blank_form("ndcg", "O 2 X"))["error"]
