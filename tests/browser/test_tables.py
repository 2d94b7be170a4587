"""Every table on every page reads at 390 px (a phone) and at 1366 px (a laptop).

For each visible table in the article, with every dropdown opened:

* no cell is broken one character per line (half its lines or more hold a single
  character), and no name such as ``nDCG@K`` or ``RMSE`` is split over two lines
  (formulas are left to MathJax);
* a table wider than its place scrolls inside a box whose scroll bar shows, and that
  box stays inside the window (the page itself never scrolls sideways);
* in a step table (``bookstyle.show_table`` with a rank or K column, the checker's and
  ``rm.explain``'s tables) the first column (the rank) and the last (the running sum)
  are in view in every row, before and after the box is scrolled to its end.

The checker's choice lists are tested at both widths too: the longest choice of each
fits in its box (the gain choice "2^등급 − 1 (exponential)" was cut at 390 px).

The ``rm.explain`` step tables that chapters show (a cell ending with the explanation)
are tested by name: each page shows as many of them as its notebook stores, and at
both widths the rank column and the running sum (누적 합, or 누적 정답 수 in the
tables of hits, where the last column is the precision at each hit) are in view in
every row at both ends of the table's scroll, and so is the table's caption (내 순위,
이상적 순서); nothing of the explanation (its formula lines, its summary, its convention
card) sticks out of the window or hides its end in a box that scrolls.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import BOOK_ROOT, PAGES

WIDTHS = ["phone", "laptop"]

OPEN_EVERYTHING_JS = r"""
const main = document.querySelector("main") || document.body;
main.querySelectorAll("details").forEach(d => { d.open = true; });
main.querySelectorAll(".toggle-hidden").forEach(el => el.classList.remove("toggle-hidden"));
main.querySelectorAll(".admonition.dropdown").forEach(el => el.classList.remove("toggle-hidden"));
"""

TABLE_PROBLEMS_JS = r"""
const viewport = document.documentElement.clientWidth;
const main = document.querySelector("article") || document.querySelector("main") || document.body;
const problems = [];
const STEP = "table.rm-step-table, table.rm-steps, .rankmetrics-explain table";
const name = t => {
  const cap = t.querySelector("caption, th, td");
  return (t.className ? "table." + t.className.trim().split(/\s+/).join(".") : "table")
    + " «" + (cap ? cap.textContent.trim().slice(0, 30) : "") + "»";
};
const scroller = t => {
  for (let el = t; el && el !== document.body; el = el.parentElement) {
    if (["auto", "scroll"].includes(getComputedStyle(el).overflowX)) return el;
  }
  return null;
};
// The line of every character of a cell: how many lines it takes and where each word sits.
const lines = cell => {
  const tops = [];
  // Formulas are MathJax's business: their sub- and superscripts sit on other lines by
  // design, and the hidden copy for screen readers (mjx-assistive-mml) has no layout.
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT, {acceptNode: n =>
    n.parentElement.closest("mjx-container, .math") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    for (let i = 0; i < n.data.length; i++) {
      const range = document.createRange();
      range.setStart(n, i); range.setEnd(n, i + 1);
      const r = range.getClientRects()[0];
      tops.push({ch: n.data[i], rect: r});
    }
  }
  // A character starts a new line when its middle lies below the line so far (code and
  // text on one line have tops a few pixels apart).
  let line = -1, bottom = -Infinity;
  for (const c of tops) {
    if (!c.rect) { c.top = null; continue; }
    const middle = (c.rect.top + c.rect.bottom) / 2;
    if (middle > bottom) { line += 1; bottom = c.rect.bottom; }
    else bottom = Math.max(bottom, c.rect.bottom);
    c.top = line;
  }
  return tops;
};
const tables = Array.from(main.querySelectorAll("table")).filter(t => t.checkVisibility());
for (const table of tables) {
  const label = name(table);
  // 1. cells: not one character per line, no name split over two lines
  for (const cell of table.querySelectorAll("th, td")) {
    const all = lines(cell);
    const chars = all.filter(c => c.top !== null && c.ch.trim() !== "");
    const perLine = new Map();
    for (const c of chars) perLine.set(c.top, (perLine.get(c.top) || 0) + 1);
    const rows = perLine.size, single = [...perLine.values()].filter(n => n === 1).length;
    if (rows >= 3 && single * 2 >= rows) {
      problems.push(`${label}: cell «${cell.textContent.trim().slice(0, 20)}» is ${rows} lines, `
                    + `${single} of them one character`);
      continue;
    }
    let word = [];
    for (const c of [...all, {ch: " ", top: null}]) {
      if (/[A-Za-z0-9@]/.test(c.ch) && c.top !== null) { word.push(c); continue; }
      if (word.length >= 2 && word.length <= 20 && new Set(word.map(w => w.top)).size > 1) {
        problems.push(`${label}: «${word.map(w => w.ch).join("")}» is split over two lines`);
      }
      word = [];
    }
  }
  // 2. wider than its place: a scroll box with a scroll bar that shows, inside the window
  const box = scroller(table);
  const rect = table.getBoundingClientRect();
  const clipped = box && box.scrollWidth > box.clientWidth + 1;
  if (!box || !clipped) {
    if (rect.right > viewport + 1 || rect.left < -1) {
      problems.push(`${label}: ${Math.round(rect.width)} px wide, sticks out of the ${viewport} px window`);
    }
  } else {
    const style = getComputedStyle(box);
    const bar = box.offsetHeight - box.clientHeight
                - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth);
    if (bar < 3) problems.push(`${label}: scrolls sideways, but its scroll bar does not show`);
    const b = box.getBoundingClientRect();
    if (b.right > viewport + 1 || b.left < -1) {
      problems.push(`${label}: its scroll box (${Math.round(b.left)}..${Math.round(b.right)} px) `
                    + `is not inside the ${viewport} px window`);
    }
  }
  // 3. step tables: first and last column in view, scrolled to the start and to the end
  if (table.matches(STEP) && box) {
    for (const end of [0, box.scrollWidth]) {
      box.scrollLeft = end;
      const b = box.getBoundingClientRect();
      const left = Math.max(b.left, 0), right = Math.min(b.left + box.clientWidth, viewport);
      for (const row of table.rows) {
        const cells = [row.cells[0], row.cells[row.cells.length - 1]];
        for (const [which, cell] of [["first", cells[0]], ["last", cells[1]]]) {
          const r = cell.getBoundingClientRect();
          if (r.left < left - 1 || r.right > right + 1) {
            problems.push(`${label}: the ${which} column («${cell.textContent.trim().slice(0, 12)}») is out `
                          + `of view with the box scrolled to ${end ? "the end" : "the start"}`);
            break;
          }
        }
      }
      box.scrollLeft = 0;
    }
  }
}
return {tables: tables.length, problems: [...new Set(problems)].slice(0, 12)};
"""

SELECT_FIT_JS = r"""
const canvas = document.createElement("canvas").getContext("2d");
return Array.from(document.querySelectorAll("main select")).filter(s => s.checkVisibility()).map(s => {
  const style = getComputedStyle(s);
  canvas.font = style.font;
  const widest = Math.max(...Array.from(s.options).map(o => canvas.measureText(o.text).width));
  const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const longest = Array.from(s.options).reduce((a, o) => o.text.length > a.length ? o.text : a, "");
  return {name: s.name || s.id, widest: Math.ceil(widest), room: Math.floor(room), longest};
});
"""


@pytest.mark.parametrize("width_name", WIDTHS)
def test_every_table_reads(page, width_name, driver, open_page, viewports):
    open_page(f"{page}.html", width_name)
    driver.execute_script(OPEN_EVERYTHING_JS)
    found = driver.execute_script(TABLE_PROBLEMS_JS)
    width = viewports[width_name][0]
    assert found["problems"] == [], f"{page} at {width} px ({found['tables']} tables)"


@pytest.mark.parametrize("width_name", WIDTHS)
def test_checker_choices_fit(width_name, driver, open_page, viewports):
    open_page("book/checker.html", width_name)
    selects = driver.execute_script(SELECT_FIT_JS)
    assert selects, "the checker drew no choice lists"
    cut = [s for s in selects if s["widest"] > s["room"]]
    assert cut == [], f"choices cut at {viewports[width_name][0]} px"


def stored_explanations(page: str) -> int:
    """Tables of rm.explain HTML in the outputs the page's notebook stores (0: no notebook).

    Cells whose output the book removes (``remove-output``, ``remove-cell``) do not count.
    """
    path = (BOOK_ROOT / page).with_suffix(".ipynb")
    if not path.exists():
        return 0
    tables = 0
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] != "code" or {"remove-output", "remove-cell"} & set(tags):
            continue
        for out in cell.get("outputs", []):
            html = "".join(out.get("data", {}).get("text/html", ""))
            if 'class="rankmetrics-explain"' in html:
                tables += html.count("<table")
    return tables


EXPLAIN_PAGES = [page for page in PAGES if stored_explanations(page)]

EXPLAIN_PROBLEMS_JS = r"""
const viewport = document.documentElement.clientWidth;
const main = document.querySelector("article") || document.querySelector("main") || document.body;
const problems = [];
const explanations = Array.from(main.querySelectorAll(".rankmetrics-explain"))
  .filter(e => !e.closest(".rm-checker") && e.checkVisibility());
const scroller = t => {
  for (let el = t; el && el !== document.body; el = el.parentElement) {
    if (["auto", "scroll"].includes(getComputedStyle(el).overflowX)) return el;
  }
  return null;
};
let tables = 0, scrolled = 0;
for (const explanation of explanations) {
  const title = explanation.querySelector("strong").textContent.trim();
  for (const table of explanation.querySelectorAll("table")) {
    tables += 1;
    const label = `${title} «${(table.caption || {}).textContent || ""}»`;
    const heads = Array.from(table.rows[0].cells).map(c => c.textContent.trim());
    // A table over ranks keeps its rank and running-sum columns in view; a table over users or
    // item pairs (coverage, ILD, ...) has neither and keeps its first and last columns in view.
    const byRank = heads.findIndex(h => h.startsWith("순위"));
    const bySum = heads.findLastIndex(h => h.startsWith("누적"));
    if ((byRank < 0) !== (bySum < 0)) {
      problems.push(`${label}: a rank column without a running sum, or the reverse, in ${JSON.stringify(heads)}`);
      continue;
    }
    const rank = byRank < 0 ? 0 : byRank;
    const running = bySum < 0 ? heads.length - 1 : bySum;
    const box = scroller(table);
    if (box && box.scrollWidth > box.clientWidth + 1) scrolled += 1;
    for (const end of [0, box ? box.scrollWidth : 0]) {
      if (box) box.scrollLeft = end;
      const b = box ? box.getBoundingClientRect() : {left: 0};
      const left = Math.max(b.left, 0);
      const right = Math.min(box ? b.left + box.clientWidth : viewport, viewport);
      for (const row of table.rows) {
        for (const j of [rank, running]) {
          const r = row.cells[j].getBoundingClientRect();
          if (r.width === 0 || r.left < left - 1 || r.right > right + 1) {
            problems.push(`${label}: «${heads[j]}» («${row.cells[j].textContent.trim()}») is out of view `
                          + `with the table scrolled to ${end ? "the end" : "the start"}`);
          }
        }
      }
      let caption = null;  // where the caption's words are (its box may be as wide as the table)
      if (table.caption) {
        const words = document.createRange();
        words.selectNodeContents(table.caption);
        caption = words.getBoundingClientRect();
      }
      if (caption && (caption.left < left - 1 || caption.right > right + 1)) {
        problems.push(`${label}: its caption is out of view with the table scrolled to `
                      + `${end ? "the end" : "the start"}`);
      }
      if (box) box.scrollLeft = 0;
    }
  }
  // Nothing else of the explanation leaves the window: formula lines and text either fit
  // or scroll inside a box of their own that shows its scroll bar.
  for (const el of explanation.querySelectorAll(":scope > :not(table)")) {
    const what = `${title}: «${el.textContent.trim().slice(0, 30)}»`;
    const r = el.getBoundingClientRect();
    if (el.scrollWidth > el.clientWidth + 1) {
      const style = getComputedStyle(el);
      const bar = el.offsetHeight - el.clientHeight
                  - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth);
      if (!["auto", "scroll"].includes(style.overflowX)) problems.push(`${what} is cut: it overflows, unscrolled`);
      else if (bar < 3) problems.push(`${what} scrolls sideways, but its scroll bar does not show`);
    }
    if (r.right > viewport + 1 || r.left < -1) {
      problems.push(`${what} (${Math.round(r.left)}..${Math.round(r.right)} px) sticks out of the ${viewport} px window`);
    }
  }
}
return {tables, scrolled, problems: [...new Set(problems)].slice(0, 12)};
"""


@pytest.mark.parametrize("width_name", WIDTHS)
@pytest.mark.parametrize("explain_page", EXPLAIN_PAGES, ids=lambda p: Path(p).name)
def test_explain_step_tables_keep_rank_and_running_sum_in_view(
    explain_page, width_name, driver, open_page, viewports
):
    page = explain_page  # not `page`: conftest runs a test that takes `page` over every page
    open_page(f"{page}.html", width_name)
    driver.execute_script(OPEN_EVERYTHING_JS)
    found = driver.execute_script(EXPLAIN_PROBLEMS_JS)
    width = viewports[width_name][0]
    assert found["tables"] == stored_explanations(page), f"{page}: step tables on the page vs in the notebook"
    assert found["problems"] == [], f"{page} at {width} px ({found['tables']} step tables)"


def test_the_pages_show_their_explanations():
    """The chapters that used to print their step tables as text now store them as HTML."""
    names = {Path(page).name for page in EXPLAIN_PAGES}
    assert {"intro", "04_map", "05_dcg_ndcg", "misconceptions", "teachers"} <= names
