"""Fixtures for the browser tests: the built book, a local web server, headless Chromium.

The book is served from ``_build/html`` on 127.0.0.1 and opened in Debian's
``chromium`` through Selenium and Debian's ``chromedriver`` (no browser download).
Every page listed in ``_toc.yml`` is visited once; what the page did (console
messages, network requests, images, math, dropdowns) is recorded in a report that
the tests in this folder check one aspect at a time.

If ``_build/html`` is missing or older than the book sources, the session builds it
first with ``jupyter-book build . -W -n --keep-going`` (as ``make book`` does).

Without Chromium the whole folder is skipped; install it with
``apt-get install chromium chromium-driver``.

Environment overrides (for development): ``BOOK_ROOT`` (folder with ``_toc.yml``),
``BOOK_TOC`` (another table of contents), ``BOOK_HTML`` (an already built ``html``
folder, e.g. from ``jupyter-book build --path-output``; used as is, never rebuilt),
``CHROMIUM`` and ``CHROMEDRIVER`` (executables).
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from bookbrowser import (
    CHROMEDRIVER,
    CHROMIUM,
    DESKTOP,
    HERE,
    HTML,
    MISSING,
    PAGE_FACTS_JS,
    QuietHandler,
    build_book,
    console_errors,
    drain_logs,
    exercise_dropdowns,
    load,
    network_problems,
    newest_source,
    set_viewport,
)


def _in_this_folder(item: pytest.Item) -> bool:
    return HERE in Path(item.path).resolve().parents


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "browser: opens the built book in Chromium (deselect: -m 'not browser')"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _in_this_folder(item):
            item.add_marker(pytest.mark.browser)
            if MISSING:
                item.add_marker(pytest.mark.skip(reason=MISSING))


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    """Say why the browser tests were skipped and how to run them, even without -rs."""
    skipped = terminalreporter.stats.get("skipped", [])
    if MISSING and any(getattr(r, "longrepr", None) and MISSING in str(r.longrepr) for r in skipped):
        terminalreporter.write_line(MISSING, yellow=True)


# --- the built book --------------------------------------------------------------------


@pytest.fixture(scope="session")
def book_html() -> Path:
    """``_build/html``, built first when missing or older than the sources."""
    index = HTML / "searchindex.js"
    if "BOOK_HTML" in os.environ:
        if not index.exists():
            pytest.fail(f"BOOK_HTML={HTML} holds no built book")
        return HTML
    if not index.exists() or index.stat().st_mtime < newest_source():
        build_book()
    return HTML


# --- a local web server ------------------------------------------------------------------


@pytest.fixture(scope="session")
def base_url(book_html: Path):
    handler = functools.partial(QuietHandler, directory=str(book_html))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
    thread.join()


# --- the browser -------------------------------------------------------------------------


@pytest.fixture(scope="session")
def driver(tmp_path_factory: pytest.TempPathFactory):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--lang=ko-KR",
        f"--window-size={DESKTOP[0]},{DESKTOP[1]}",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    browser = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    browser.set_page_load_timeout(60)
    browser.set_script_timeout(60)
    yield browser
    browser.quit()


@pytest.fixture(scope="session")
def page_report(driver, base_url: str):
    """page -> what happened when it was opened at desktop width (each page opened once)."""
    reports: dict[str, dict[str, Any]] = {}

    def report(page: str) -> dict[str, Any]:
        if page not in reports:
            url = f"{base_url}{page}.html"
            set_viewport(driver, DESKTOP)
            drain_logs(driver)
            load(driver, url)
            facts = driver.execute_script(PAGE_FACTS_JS)
            facts["url"] = url
            facts["dropdowns"] = exercise_dropdowns(driver)
            time.sleep(0.2)  # let anything a click started report its errors
            facts["failedRequests"], facts["externalRequests"] = network_problems(driver, base_url)
            facts["consoleErrors"] = console_errors(driver)
            reports[page] = facts
        return reports[page]

    return report
