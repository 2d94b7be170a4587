"""The ranking playground in chapters 2-5: after scripted moves its values are the package's."""

from __future__ import annotations

import json
import re

import pytest

import rankmetrics as rm

CHAPTERS = ["book/02_precision_recall", "book/03_rank_position", "book/04_map", "book/05_dcg_ndcg"]


def state(driver):
    root = driver.find_element("css selector", ".rm-playground")
    return json.loads(root.get_attribute("data-grades")), json.loads(root.get_attribute("data-values"))


def shown(driver):
    """The values as the page prints them, by metric."""
    return driver.execute_script(
        "return Object.fromEntries(Array.from(document.querySelectorAll('.rm-values li'))"
        ".map(li => [li.dataset.metric, li.querySelector('strong').textContent]))"
    )


def relevant_in_all(driver):
    """R, the query's relevant items as the page's field holds it (those outside the list too)."""
    return int(driver.find_element("css selector", ".rm-playground").get_attribute("data-relevant"))


def expected(grades, k, total):
    # Relevant items outside the list count in R and enter the ideal ordering at grade 1.
    unlisted = total - sum(g > 0 for g in grades)
    return {
        "precision": rm.precision(grades, k),
        "recall": rm.recall(grades, k, n_relevant=total or None),
        "reciprocal_rank": rm.reciprocal_rank(grades, k),
        "average_precision": rm.average_precision(grades, k, n_relevant=total or None),
        "ndcg": rm.ndcg(grades, k, ideal=list(grades) + [1] * unlisted),
    }


def check(driver, k):
    from rankmetrics.teaching.explain.steps import exact_text

    grades, values = state(driver)
    want = expected(grades, k, relevant_in_all(driver))
    for metric, value in want.items():
        assert abs(values[metric] - value) <= 1e-12, (metric, grades)
    assert shown(driver) == {metric: exact_text(value) for metric, value in want.items()}
    return grades


def cards(driver):
    return driver.find_elements("css selector", ".rm-card-item")


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.rsplit("/", 1)[-1])
def test_playground_values_follow_moves(driver, open_page, chapter):
    from selenium.webdriver.common.keys import Keys

    open_page(f"{chapter}.html")
    config = json.loads(driver.find_element("css selector", ".rm-playground").get_attribute("data-config"))
    k = config["k"]
    start = check(driver, k)
    assert start == config["grades"]
    # click: toggle (or raise the grade of) the last card
    last = cards(driver)[-1]
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", last)
    last.click()
    grades = check(driver, k)
    assert grades[-1] == 1 and grades[:-1] == start[:-1]
    # keyboard: the first card two places down with the arrow key, focus staying on it
    first = cards(driver)[0]
    driver.execute_script("arguments[0].focus()", first)
    first.send_keys(Keys.ARROW_DOWN)
    driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    moved = check(driver, k)
    assert moved[2] == start[0] and "항목 A" in driver.switch_to.active_element.text
    # the ▲ button of the last card
    up = driver.find_elements("css selector", ".rm-move button:first-child")[-1]
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", up)
    up.click()
    check(driver, k)
    # the bars: each rank's share of nDCG@k (read by a screen reader from the card) adds up to nDCG@k
    grades, values = state(driver)
    labels = driver.execute_script(
        "return Array.from(document.querySelectorAll('.rm-card-item')).map(b => b.getAttribute('aria-label'))"
    )
    shares = [float(re.search(r"에 ([0-9.]+) 기여", label).group(1)) for label in labels if "기여" in label]
    assert len(labels) == len(grades) and len(shares) == k
    assert abs(sum(shares) - values["ndcg"]) <= 0.00005 * k
    # back to the start
    reset = driver.find_element(
        "xpath", "//div[contains(@class,'rm-playground')]//button[text()='처음 상태로']"
    )
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", reset)
    reset.click()
    assert check(driver, k) == start


def test_try_this_moves_in_the_dcg_chapter(driver, open_page):
    """The first suggested move in chapter 5: swap ranks 2 and 4, the best single swap."""
    open_page("book/05_dcg_ndcg.html")
    fourth_up = driver.find_elements("css selector", ".rm-move button:first-child")[3]
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", fourth_up)
    fourth_up.click()  # rank 4 -> 3
    driver.find_elements("css selector", ".rm-move button:first-child")[2].click()  # 3 -> 2
    driver.find_elements("css selector", ".rm-move button:last-child")[2].click()  # old rank 2 (now 3) -> 4
    grades = check(driver, 5)
    assert grades == [3, 2, 3, 0, 0]
    assert state(driver)[1]["ndcg"] == rm.ndcg([3, 2, 3, 0, 0], 5)


def test_playground_fits_a_phone(driver, open_page):
    open_page("book/05_dcg_ndcg.html", viewport="phone")
    width = driver.execute_script(
        "const p = document.querySelector('.rm-playground'); p.scrollIntoView();"
        "return [p.scrollWidth, p.clientWidth, document.documentElement.scrollWidth, window.innerWidth]"
    )
    assert width[0] <= width[1] and width[2] <= width[3], width


def test_relevant_items_in_all_field(driver, open_page):
    """Chapter 2 starts at R = 4 (one relevant item outside the list); raising R lowers R@5 and AP."""
    open_page("book/02_precision_recall.html")
    assert relevant_in_all(driver) == 4
    assert check(driver, 5) == [1, 0, 1, 0, 1, 0, 0, 0, 0, 0]
    assert state(driver)[1]["recall"] == 0.75  # 3 of the 4 relevant items in the top 5
    field = driver.find_element("css selector", ".rm-playground .rm-total input")
    driver.execute_script("arguments[0].value = '5'; arguments[0].dispatchEvent(new Event('change'))", field)
    assert relevant_in_all(driver) == 5
    check(driver, 5)  # recall 3/5, AP (1 + 2/3 + 3/5) / 5, the ideal with two unlisted items at grade 1
    # R cannot fall below the relevant cards in the list
    driver.execute_script("arguments[0].value = '1'; arguments[0].dispatchEvent(new Event('change'))", field)
    assert relevant_in_all(driver) == 3
    check(driver, 5)
