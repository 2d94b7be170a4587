"""Every page of _toc.yml, opened in headless Chromium: what a reader sees first.

Each page is opened once (see ``page_report`` in conftest.py); each test checks one
aspect, so a failure names the page and what went wrong there.
"""

from __future__ import annotations

import pytest


def test_no_console_errors(page, page_report):
    assert page_report(page)["consoleErrors"] == []


def test_no_failed_or_external_requests(page, page_report):
    """Everything loads from the book itself: the book must work without a network."""
    report = page_report(page)
    assert report["failedRequests"] == []
    assert report["externalRequests"] == []


def test_every_image_loaded(page, page_report):
    broken = [img["src"] for img in page_report(page)["images"] if not img["ok"]]
    assert broken == []


def test_math_typeset_by_local_mathjax(page, page_report, base_url):
    report = page_report(page)
    assert report["mathErrors"] == [], "MathJax could not typeset these formulas"
    assert report["rawTex"] == [], "TeX shown as plain text (not marked as math)"
    if report["mathNodes"]:
        assert report["untypeset"] == []
        assert report["mjxContainers"] >= report["mathNodes"] > 0
        assert report["mathjaxSrc"] and all(src.startswith(base_url) for src in report["mathjaxSrc"])


def test_dropdowns_open_on_click(page, page_report):
    dropdowns = page_report(page)["dropdowns"]
    open_at_start = [d["title"] for d in dropdowns if not d["hiddenBefore"]]
    not_opened = [d["title"] for d in dropdowns if not d["openAfterClick"]]
    not_closed = [d["title"] for d in dropdowns if not d["closedAgain"]]
    assert open_at_start == [], "these dropdowns were open before any click"
    assert not_opened == [], "a click on the title did not open these"
    assert not_closed == [], "a second click did not close these"


def test_the_book_has_math_solutions_and_images(page_report, pages):
    """The per-page checks above must have had something to check."""
    reports = [page_report(p) for p in pages]
    assert sum(r["mathNodes"] for r in reports) > 0
    assert sum(len(r["images"]) for r in reports) > 0
    solutions = sum("solution" in d["kind"] for r in reports for d in r["dropdowns"])
    if solutions == 0:
        pytest.skip("no exercise solution in the book yet")


def test_dark_mode_toggle(driver, open_page, pages):
    """The header button switches the page to the dark theme and back."""
    from selenium.webdriver.common.by import By

    open_page(f"{pages[min(1, len(pages) - 1)]}.html")
    theme = "return [document.documentElement.dataset.theme, getComputedStyle(document.body).backgroundColor]"
    try:
        before, background_before = driver.execute_script(theme)
        assert before == "light"  # headless Chromium prefers light
        button = next(
            b for b in driver.find_elements(By.CSS_SELECTOR, ".theme-switch-button") if b.is_displayed()
        )
        seen = []
        for _ in range(3):  # the button cycles through auto, dark and light
            button.click()
            seen.append(driver.execute_script(theme))
            if seen[-1][0] == "dark":
                break
        assert seen[-1][0] == "dark", seen
        assert seen[-1][1] != background_before
    finally:
        driver.execute_script("localStorage.clear()")  # later pages open in the default theme
