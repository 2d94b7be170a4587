"""Check the built pages' code-cell outputs for English sentences.

The book speaks Korean: its chapters call ``bookstyle.setup()``, which sets rankmetrics'
language to Korean, so every table header, footer, warning and refusal a cell prints comes
from the Korean catalogue. An English sentence in an output means a text that escaped the
catalogue (or a notebook executed before it). After an HTML build this extension reads
the outputs of every page (myst-nb's ``cell_output`` blocks, text and HTML alike) and warns
for each English run it finds; under ``-W`` the warning fails the build.

Two checks, both line by line:

1. A text of rankmetrics' catalogue in its English form (:func:`catalogue_patterns`): an
   English message id with at least two words of its own, its ``{fields}`` matching
   anything (``1 queries; relevance_level=1, ...`` is ``{count} queries; ...``), or a
   one-word id standing alone in a table cell (the headers ``query``, ``metric``).
2. Any other English run: three or more consecutive words of lowercase ASCII letters (a
   word may end in ``,``, ``;``, ``:`` or ``.``). Not words, and so never part of a run:

- code and names: a token with a digit, ``_``, ``=``, ``@``, ``(``, ``/``, ``'`` or a
  capital letter (``n_relevant``, ``nDCG@10``, ``P_5``, ``Holm``);
- the names of metrics, their trec_eval and ir_measures names and the command line's
  commands (:func:`metric_words`, read from rankmetrics' registry), and the words a table
  of conventions shows as values (:data:`VALUE_WORDS`);
- lines of trec_eval's drop-in output, which the book shows byte for byte on purpose:
  ``measure<TAB>query<TAB>value`` result lines and the lines of trec_eval's own help
  (:data:`TREC_EVAL_LINES`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

MIN_WORDS = 3
# A word has two letters at least: single letters in a row are item ids ("a b b"), not a sentence.
WORD = re.compile(r"[a-z]{2,}[,;:.]?")

# Values that convention tables and result tables print as words (settings' values).
VALUE_WORDS = frozenset(
    [
        "all",
        "skip",
        "zero",
        "error",
        "keep",
        "truncate",
        "linear",
        "exponential",
        "binary",
        "judged",
        "listed",
        "average",
        "none",
        "less",
        "greater",
        "percentile",
        "bca",
        "basic",
    ]
)

# trec_eval's result lines: measure, query id (or "all"), value, separated by a tab.
TREC_EVAL_RESULT = re.compile(r"^\s*\S+\s*\t\s*\S+\s*\t\s*\S+\s*$")
# The drop-in's own help text (trec_eval -h), shown as trec_eval prints it.
TREC_EVAL_LINES = re.compile(
    r"^(Usage: trec_eval|\s*-[A-Za-z]\b|\s*--[a-z_]+|trec_eval: |Full Usage:|Standard measures)"
)
_FIELD = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[rsd]|%[rsd]")


def catalogue_patterns() -> tuple[list[re.Pattern[str]], frozenset[str]]:
    """rankmetrics' English message ids as patterns, and its one-word ids (table headers)."""
    from babel.messages.pofile import read_po

    from rankmetrics import i18n
    from rankmetrics.trec.conventions import Conventions

    po = i18n.LOCALE_DIR / "ko" / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    with po.open("rb") as f:
        catalog = read_po(f)
    patterns, single = [], set()
    for message in catalog:
        for english in message.id if isinstance(message.id, tuple) else (message.id,):
            if not english:
                continue
            literals = [part.replace("{{", "{").replace("}}", "}").strip() for part in _FIELD.split(english)]
            literals = [part for part in literals if part]
            if literals and max(len(re.findall(r"[a-z]+", part)) for part in literals) >= 2:
                patterns.append(re.compile(".+?".join(re.escape(part) for part in literals)))
            elif re.fullmatch(r"[a-z]+", english) and english not in VALUE_WORDS:
                single.add(english)
    # A convention's name (denominator, gain) is a name in a table, not a word.
    return patterns, frozenset(single - set(Conventions.resolve(None)))


def catalogue_texts(text: str, patterns: list[re.Pattern[str]], single: frozenset[str]) -> list[str]:
    """The English catalogue texts in ``text``: a pattern's match, or a one-word id alone in a cell.

    >>> patterns = [re.compile("queries; relevance_level=.+?, ties=.+?, missing=")]
    >>> catalogue_texts("query\\tmap\\n1 queries; relevance_level=1, ties=t, missing=skip", patterns, {"query"})
    ['query', 'queries; relevance_level=1, ties=t, missing=']
    >>> catalogue_texts("질의\\tmap\\n질의 1개; relevance_level=1, ties=t, missing=skip", patterns, {"query"})
    []
    """
    found = []
    for line in text.splitlines():
        if TREC_EVAL_RESULT.match(line) or TREC_EVAL_LINES.match(line):
            continue
        found += [cell.strip() for cell in re.split(r"\t|\s{2,}", line) if cell.strip() in single]
        found += [match.group(0) for pattern in patterns for match in [pattern.search(line)] if match]
    return found


def metric_words() -> frozenset[str]:
    """Every metric's names (ours, trec_eval's, ir_measures'), commands and their parts, lowercase."""
    from rankmetrics.registry import METRICS

    words: set[str] = set()
    for metric in METRICS.values():
        for name in (metric.name, *metric.names, metric.command, metric.trec_name, metric.trec_cutoff_name):
            if name:
                words.update(part for part in re.split(r"[^a-z]+", name.lower()) if part)
    return frozenset(words)


def english_runs(text: str, names: Iterable[str] = ()) -> list[str]:
    """The runs of at least :data:`MIN_WORDS` English words in ``text``, line by line.

    >>> english_runs("질의 1개; relevance_level=1, ties=docno_descending, missing=skip")
    []
    >>> english_runs("query   map\\n2 judged queries absent from the run (skipped)")
    ['queries absent from the run']
    >>> english_runs("ndcg precision recall\\nmap\\tall\\t0.1785", {"ndcg", "precision", "recall", "map"})
    []
    """
    skipped = set(names) | VALUE_WORDS
    runs = []
    for line in text.splitlines():
        if TREC_EVAL_RESULT.match(line) or TREC_EVAL_LINES.match(line):
            continue
        current: list[str] = []
        for token in [*line.split(), ""]:
            word = WORD.fullmatch(token) is not None and token.rstrip(",;:.") not in skipped
            if word:
                current.append(token)
            if not word or token[-1:] in ",;:.":
                if len(current) >= MIN_WORDS:
                    runs.append(" ".join(current))
                current = []
    return runs


class _OutputText(HTMLParser):
    """The text of a page's code-cell outputs (myst-nb's ``cell_output`` blocks), one block a line.

    Left out: ``<style>`` and ``<script>``, and a code listing an output shows as HTML
    (IPython's ``Code``: a ``highlight`` block inside an HTML output), which is code, not prose.
    """

    BLOCK_TAGS = frozenset({"p", "div", "li", "td", "th", "tr", "br", "pre", "caption", "table"})
    VOID_TAGS = frozenset({"br", "img", "hr", "input", "meta", "link", "wbr", "col", "source"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._open: list[set[str]] = []  # the classes of each open tag inside the current output
        self._skipping = 0  # open tags inside a skipped element (0: not skipping)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID_TAGS:
            if self._open and not self._skipping and tag == "br":
                self.parts.append("\n")
            return
        classes = set((dict(attrs).get("class") or "").split())
        if not self._open:
            if "cell_output" in classes:
                self._open.append(classes)
                self.parts.append("\n")
            return
        in_html = any("text_html" in c for c in self._open)
        self._open.append(classes)
        if self._skipping:
            self._skipping += 1
        elif tag in ("style", "script") or (in_html and "highlight" in classes):
            self._skipping = 1
        elif tag in ("td", "th"):
            self.parts.append("\t")
        elif tag in self.BLOCK_TAGS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID_TAGS or not self._open:
            return
        self._open.pop()
        if self._skipping:
            self._skipping -= 1
        elif tag in self.BLOCK_TAGS and tag not in ("td", "th"):
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._open and not self._skipping:
            self.parts.append(data)


def output_text(html: str) -> str:
    """The text of every code-cell output of an HTML page (a table's cells separated by tabs)."""
    parser = _OutputText()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


def check_built_pages(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    for docname, text in english_in_outputs(app):
        logger.warning(
            f"코드 셀 출력에 영어 문장이 있습니다: {text!r}",
            location=docname,
            type="korean",
            subtype="english_output",
        )


def english_in_outputs(app: Sphinx) -> list[tuple[str, str]]:
    """(page, English text) for every built page's outputs: catalogue texts first, then other runs."""
    names = metric_words()
    patterns, single = catalogue_patterns()
    outdir = Path(app.builder.outdir)
    found = []
    for docname in sorted(app.env.found_docs):
        page = outdir / f"{docname}.html"
        if not page.exists():
            continue
        text = output_text(page.read_text(encoding="utf-8"))
        texts = catalogue_texts(text, patterns, single) + english_runs(text, names)
        found += [(docname, t) for t in dict.fromkeys(texts)]
    return found


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("build-finished", check_built_pages)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
