"""Fixtures for the browser tests: the built book, a local web server, headless Chromium.

The book is served from ``_build/html`` on 127.0.0.1 and opened in Debian's
``chromium`` through Selenium and Debian's ``chromedriver`` (no browser download).
Every page listed in ``_toc.yml`` is visited once; what the page did (console
messages, network requests, images, math, dropdowns) is recorded in a report that
the tests in this folder check one aspect at a time.

If ``_build/html`` is missing or older than the book sources, the session builds it
first with ``jupyter-book build . -W -n --keep-going`` (as ``make book`` does).

Without Chromium the whole folder is skipped (under CI=true it fails); install it with
``apt-get install chromium chromium-driver``. These tests are the ``browser`` tier: make test-browser.

The test modules reach everything through fixtures: ``pages`` (and a ``page``
argument, which runs a test once per page of ``_toc.yml``), ``open_page``,
``set_viewport``, ``viewports``, ``screenshots_dir``, ``korean_search``, ``driver``,
``base_url``, ``book_html`` and ``page_report``.

Environment overrides (for development): ``BOOK_ROOT`` (folder with ``_toc.yml``),
``BOOK_TOC`` (another table of contents), ``BOOK_HTML`` (an already built ``html``
folder, e.g. from ``jupyter-book build --path-output``; used as is, never rebuilt),
``CHROMIUM`` and ``CHROMEDRIVER`` (executables).
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

HERE = Path(__file__).resolve().parent  # tests/browser
BOOK_ROOT = Path(os.environ.get("BOOK_ROOT", HERE.parents[1])).resolve()
HTML = Path(os.environ.get("BOOK_HTML", BOOK_ROOT / "_build" / "html")).resolve()
SCREENSHOTS = HTML.parent / "screenshots"  # _build/screenshots, out of git with _build/
ENABLE_HINT = (
    "to run them: sudo apt-get install chromium chromium-driver fonts-nanum "
    "(and pip install selenium, listed in requirements.txt)"
)

VIEWPORTS = {"desktop": (1280, 900), "phone": (390, 844), "laptop": (1366, 768)}
DESKTOP = VIEWPORTS["desktop"]


def toc_pages(toc: Path) -> list[str]:
    """Docnames in reading order from a jb-book ``_toc.yml`` (root, parts, chapters, sections).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "_toc.yml"
    >>> _ = path.write_text("root: book/intro\\nparts:\\n  - chapters:\\n      - file: book/a.ipynb\\n"
    ...                     "        sections:\\n          - file: book/b\\n      - url: https://x\\n")
    >>> toc_pages(path)
    ['book/intro', 'book/a', 'book/b']
    """
    data = yaml.safe_load(toc.read_text(encoding="utf-8"))
    pages: list[str] = []

    def add(entry: dict[str, Any]) -> None:
        if "file" in entry:
            pages.append(str(Path(entry["file"]).with_suffix("")))
        for key in ("parts", "chapters", "sections"):
            for child in entry.get(key, []) or []:
                add(child)

    pages.append(str(Path(data["root"]).with_suffix("")))
    add({k: v for k, v in data.items() if k != "root"})
    return list(dict.fromkeys(pages))


PAGES = toc_pages(Path(os.environ.get("BOOK_TOC", BOOK_ROOT / "_toc.yml")))


def page_id(page: str) -> str:
    return page.rsplit("/", 1)[-1]


# --- the browser and its driver ----------------------------------------------------------


def _executable(env: str, *names: str) -> str | None:
    if os.environ.get(env):
        return shutil.which(os.environ[env])
    return next((p for p in map(shutil.which, names) if p), None)


CHROMIUM = _executable("CHROMIUM", "chromium", "chromium-browser")
CHROMEDRIVER = _executable("CHROMEDRIVER", "chromedriver")


def missing_browser() -> str | None:
    missing = [name for name, path in (("chromium", CHROMIUM), ("chromedriver", CHROMEDRIVER)) if not path]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("the Python package selenium")
    if missing:
        return f"browser tests skipped: {' and '.join(missing)} not found; {ENABLE_HINT}"
    return None


MISSING = missing_browser()


# --- the built book --------------------------------------------------------------------


def newest_source() -> float:
    sources = [BOOK_ROOT / "_config.yml", BOOK_ROOT / "_toc.yml"]
    sources += [
        p
        for p in (BOOK_ROOT / "book").rglob("*")
        if p.is_file() and not {".ipynb_checkpoints", "__pycache__"} & set(p.parts)
    ]
    return max(p.stat().st_mtime for p in sources if p.exists())


def build_book() -> None:
    jb = Path(sys.executable).with_name("jupyter-book")
    cmd = [str(jb if jb.exists() else "jupyter-book"), "build", ".", "-W", "-n", "--keep-going"]
    done = subprocess.run(cmd, cwd=BOOK_ROOT, check=False, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        lines = (done.stdout + done.stderr).splitlines()
        problems = [ln for ln in lines if "WARNING" in ln or "ERROR" in ln or "Error" in ln] or lines[-30:]
        pytest.fail("the book did not build cleanly (" + " ".join(cmd) + "):\n" + "\n".join(problems[:40]))


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def _set_viewport(driver, size: tuple[int, int]) -> None:
    width, height = size
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )


WAIT_FOR_PAGE_JS = """
const done = arguments[arguments.length - 1];
const start = Date.now();
(async () => {
  while (document.readyState !== "complete") await new Promise(r => setTimeout(r, 50));
  // MathJax is loaded with `defer` only on pages with math; wait for its first typeset.
  const wantsMath = document.querySelector('script[src*="mathjax"]') !== null;
  while (wantsMath && !(window.MathJax && MathJax.startup && MathJax.startup.promise)) {
    if (Date.now() - start > 30000) return done("MathJax never started");
    await new Promise(r => setTimeout(r, 50));
  }
  if (wantsMath) await MathJax.startup.promise;
  // Images: do not let lazy loading hide a broken file below the fold.
  await Promise.all(Array.from(document.images).map(img => {
    img.loading = "eager";
    if (img.complete) return null;
    return new Promise(r => { img.addEventListener("load", r); img.addEventListener("error", r);
                              setTimeout(r, 15000); });
  }));
  done(null);
})().catch(e => done(String(e)));
"""


def _load(driver, url: str) -> None:
    """Open url and wait until the page, its images and its math are done."""
    driver.get(url)
    problem = driver.execute_async_script(WAIT_FOR_PAGE_JS)
    if problem:
        raise AssertionError(f"{url}: {problem}")


def drain_logs(driver) -> None:
    driver.get_log("browser")
    driver.get_log("performance")


def network_problems(driver, base: str) -> tuple[list[str], list[str]]:
    """(failed requests, requests that left 127.0.0.1) since the logs were last read."""
    urls: dict[str, str] = {}
    failed, external = [], []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        params = msg.get("params", {})
        if msg["method"] == "Network.requestWillBeSent":
            url = params["request"]["url"]
            urls[params["requestId"]] = url
            if url.startswith(("http:", "https:", "ws:", "wss:")) and not url.startswith(base):
                external.append(url)
        elif msg["method"] == "Network.responseReceived":
            status = params["response"]["status"]
            if status >= 400:
                failed.append(f"{status} {params['response']['url']}")
        elif msg["method"] == "Network.loadingFailed":
            failed.append(f"{params.get('errorText')} {urls.get(params['requestId'], params['requestId'])}")
    return failed, external


def console_errors(driver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


PAGE_FACTS_JS = r"""
const main = document.querySelector("main") || document.body;
const math = Array.from(main.querySelectorAll("span.math, div.math"));
const untypeset = math.filter(m => !m.querySelector("mjx-container")).map(m => m.textContent.slice(0, 80));
const errors = Array.from(main.querySelectorAll("mjx-merror, [data-mjx-error]"))
  .map(e => e.getAttribute("data-mjx-error") || e.textContent.slice(0, 80));
// TeX left as text outside code and math: a formula that was never marked as math.
const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT, {acceptNode: n =>
  n.parentElement.closest("pre, code, .math, mjx-container, script, style, .highlight, .cell_output")
    ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
const rawTex = [];
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  const t = n.textContent;
  if (/\$\$|\\\(|\\\[|\\(frac|sum|log|cdot|mathrm|text|left|right)\b/.test(t)) rawTex.push(t.trim().slice(0, 80));
}
const images = Array.from(document.images).map(img => ({src: img.getAttribute("src"),
  ok: img.complete && img.naturalWidth > 0}));
return {
  title: document.title,
  mathNodes: math.length,
  mjxContainers: main.querySelectorAll("mjx-container").length,
  untypeset, mathErrors: errors, rawTex, images,
  hasMathJax: document.querySelector('script[src*="mathjax"]') !== null,
  mathjaxSrc: Array.from(document.querySelectorAll('script[src*="mathjax"]')).map(s => s.src),
};
"""

DROPDOWNS_JS = r"""
// Every dropdown on the page: sphinx-togglebutton admonitions (exercise solutions, hints)
// and <details> (sphinx-design dropdowns, hidden code cells).
// checkVisibility() also sees the content of a closed <details> as hidden.
const visible = el => !!el && el.checkVisibility({visibilityProperty: true});
return Array.from(document.querySelectorAll("main .admonition.dropdown, main details")).map((el, i) => {
  el.dataset.browserTest = String(i);
  const body = el.tagName === "DETAILS"
    ? Array.from(el.children).find(c => c.tagName !== "SUMMARY")
    : Array.from(el.children).find(c => !c.classList.contains("admonition-title"));
  return {index: i, kind: el.tagName === "DETAILS" ? "details" : el.className,
          title: (el.querySelector("summary, .admonition-title") || el).textContent.trim().slice(0, 60),
          hiddenBefore: !visible(body)};
});
"""

DROPDOWN_STEP_JS = r"""
// One step for dropdown number arguments[0]: report whether its body shows now, scroll
// its title to the middle of the window, and return what a reader would click next:
// the words of the title (its first child element, e.g. the link in a solution's title)
// to open it, its own toggle button (or the summary) to close it.
const [index, next] = arguments;
const el = document.querySelector(`[data-browser-test="${index}"]`);
const body = el.tagName === "DETAILS"
  ? Array.from(el.children).find(c => c.tagName !== "SUMMARY")
  : Array.from(el.children).find(c => !c.classList.contains("admonition-title"));
const title = el.querySelector(":scope > summary, :scope > .admonition-title");
title.scrollIntoView({block: "center"});
const target = next === "words"
  ? (title.querySelector(":scope > :not(.toggle-button)") || title)
  : (title.querySelector(":scope > .toggle-button") || title);
return [!!body && body.checkVisibility({visibilityProperty: true}), target];
"""


def exercise_dropdowns(driver) -> list[dict[str, Any]]:
    """Open every dropdown by clicking its title text, close it again with its own button.

    A reader clicks the words of a title, so the click goes to the title's first child
    element (the link to the exercise in a solution's title) when there is one. The
    clicks are real mouse clicks (WebDriver), so whatever covers the title gets them.
    """
    found = driver.execute_script(DROPDOWNS_JS)
    for d in found:
        _, words = driver.execute_script(DROPDOWN_STEP_JS, d["index"], "words")
        words.click()
        d["openAfterClick"], button = driver.execute_script(DROPDOWN_STEP_JS, d["index"], "button")
        button.click()
        shown, _ = driver.execute_script(DROPDOWN_STEP_JS, d["index"], "button")
        d["closedAgain"] = not shown
    return found


def _in_this_folder(item: pytest.Item) -> bool:
    return HERE in Path(item.path).resolve().parents


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "page" in metafunc.fixturenames:
        metafunc.parametrize("page", PAGES, ids=page_id)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _in_this_folder(item):
            item.add_marker(pytest.mark.browser)
            if MISSING and os.environ.get("CI") == "true":
                item.add_marker(pytest.mark.usefixtures("browser_missing"))
            elif MISSING:
                item.add_marker(pytest.mark.skip(reason=MISSING))


@pytest.fixture
def browser_missing() -> None:
    """Under CI=true a missing browser fails the tier instead of skipping it."""
    pytest.fail(MISSING.replace("browser tests skipped", "browser tests cannot run under CI=true"))


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
            _set_viewport(driver, DESKTOP)
            drain_logs(driver)
            _load(driver, url)
            facts = driver.execute_script(PAGE_FACTS_JS)
            facts["url"] = url
            facts["dropdowns"] = exercise_dropdowns(driver)
            time.sleep(0.2)  # let anything a click started report its errors
            facts["failedRequests"], facts["externalRequests"] = network_problems(driver, base_url)
            facts["consoleErrors"] = console_errors(driver)
            reports[page] = facts
        return reports[page]

    return report


# --- what the test modules use -----------------------------------------------------------


@pytest.fixture(scope="session")
def pages() -> list[str]:
    """Every page of ``_toc.yml`` in reading order, as docnames (``book/05_dcg_ndcg``)."""
    return PAGES


@pytest.fixture(scope="session")
def viewports() -> dict[str, tuple[int, int]]:
    """Window sizes by name: ``desktop``, ``phone`` and ``laptop``."""
    return VIEWPORTS


@pytest.fixture(scope="session")
def set_viewport(driver):
    """set_viewport(name): make the window the named size (``desktop``, ``phone``, ``laptop``)."""

    def set_to(name: str) -> None:
        _set_viewport(driver, VIEWPORTS[name])

    return set_to


@pytest.fixture(scope="session")
def open_page(driver, base_url: str):
    """open_page(path, viewport="desktop"): open a path of the book and wait until its
    images and math are done (path as in ``book/intro.html`` or ``search.html?q=...``)."""

    def open_at(path: str, viewport: str = "desktop") -> None:
        _set_viewport(driver, VIEWPORTS[viewport])
        _load(driver, base_url + path)

    return open_at


@pytest.fixture(scope="session")
def screenshots_dir() -> Path:
    """``_build/screenshots``, next to the built book and out of git with it."""
    return SCREENSHOTS
