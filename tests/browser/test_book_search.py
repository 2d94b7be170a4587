"""Korean search in the browser: a term finds the chapter that defines it, first.

The search language is book/_ext/korean_search.py; these tests run the real
search page (Sphinx's searchtools.js with the generated language_data.js).
"""

from __future__ import annotations

import re
import time
import urllib.parse

import pytest

# term -> the chapter that defines it (the planned file names of _toc.yml)
DEFINED_IN = {
    "정밀도": "book/02_precision_recall",
    "재현율": "book/02_precision_recall",
    "할인": "book/05_dcg_ndcg",
    "이상적": "book/05_dcg_ndcg",
    "nDCG": "book/05_dcg_ndcg",
}

RESULTS_JS = """
const done = arguments[arguments.length - 1];
const start = Date.now();
(function poll() {
  const status = document.querySelector("#search-results .search-summary");
  // Sphinx writes the summary line after the last result is shown.
  if (status && status.textContent.trim() !== "") {
    return done(Array.from(document.querySelectorAll("#search-results ul.search > li > a"))
      .map(a => a.getAttribute("href")));
  }
  if (Date.now() - start > 20000) return done(null);
  setTimeout(poll, 50);
})();
"""


def search(driver, open_page, query: str) -> list[str]:
    """Run the book's search page for query; the result links as page paths, best first."""
    open_page(f"search.html?q={urllib.parse.quote(query)}")
    hrefs = driver.execute_async_script(RESULTS_JS)
    assert hrefs is not None, f"search for {query!r} never finished"
    return [re.sub(r"\.html.*$", "", h) for h in hrefs]


@pytest.mark.parametrize("term", DEFINED_IN)
def test_term_finds_its_defining_chapter_first(term, driver, open_page, pages, book_html):
    expected = DEFINED_IN[term]
    if expected not in pages or not (book_html / f"{expected}.html").exists():
        pytest.skip(f"{expected}.ipynb is not in the built book yet")
    results = search(driver, open_page, term)
    assert results, f"no result for {term!r}"
    assert results[0] == expected, f"{term!r}: {results}"


@pytest.mark.parametrize(
    ("query", "term"), [("정밀도는", "정밀도"), ("재현율을", "재현율"), ("nDCG를", "nDCG")]
)
def test_term_with_a_particle_still_finds_the_chapter(query, term, driver, open_page, pages, book_html):
    expected = DEFINED_IN[term]
    if expected not in pages or not (book_html / f"{expected}.html").exists():
        pytest.skip(f"{expected}.ipynb is not in the built book yet")
    assert expected in search(driver, open_page, query)


QUERIES = [
    "정밀도",
    "정밀도는",
    "nDCG를 구하면",
    "이상적인 순서",
    "할인율",
    "항목들에서는",
    "Precision@K와 MRR",
    "값이 0.5",
]


def test_javascript_reads_queries_like_python(driver, open_page, korean_search):
    """The search page splits and stems a query exactly as korean_search.query_words does."""
    open_page("search.html")
    js = driver.execute_script(
        """
        const stemmer = new Stemmer();
        return arguments[0].map(q => splitQuery(q.trim())
          .map(w => w.toLowerCase())
          .filter(w => stopwords.indexOf(w) === -1 && !w.match(/^\\d+$/))
          .map(w => stemmer.stemWord(w)));
        """,
        QUERIES,
    )
    assert js == [korean_search.query_words(q) for q in QUERIES]


def test_search_box_speaks_korean_and_searches(driver, open_page, pages):
    """The header search field has Korean text; typing a term and Enter shows results."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    open_page(f"{pages[0]}.html")
    driver.find_element(By.CSS_SELECTOR, "button.search-button__button").click()
    box = driver.find_element(By.CSS_SELECTOR, "#pst-search-dialog input[name=q]")
    deadline = time.monotonic() + 5
    while not box.is_displayed() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert re.search("[가-힣]", box.get_attribute("placeholder")), box.get_attribute("placeholder")
    box.send_keys("순위", Keys.ENTER)
    deadline = time.monotonic() + 10
    while "search.html" not in driver.current_url and time.monotonic() < deadline:
        time.sleep(0.05)
    hrefs = driver.execute_async_script(RESULTS_JS)
    assert hrefs, "typing 순위 in the search box found nothing"
