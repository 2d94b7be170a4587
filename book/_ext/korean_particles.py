"""Check the built pages for a Korean particle that does not fit the number before it.

The book glues its numbers into the prose, and a particle typed after a glued number
is easy to get wrong: the author sees ``{glue:text}`key:.2f`로`` and not "0.80로"
(0.80 is read 영 점 팔 영, so it takes 으로). After an HTML build this extension reads
the text of every page (outside code, math and scripts), finds each number that a
particle follows directly, and warns when the particle is not the form
``bookstyle.with_particle`` chooses. Under ``-W`` the warning fails the build.

Only particles whose form depends on the word before are checked: 은/는, 이/가,
을/를, 과/와 and 으로/로 (with a tail such as 로는 or 과도), when no other Hangul
syllable follows ("2가지" and "3이상" are words, not particles). The copula (이다/다)
is left alone: "2이다" and "2다" are both written. A number glued to a Latin letter
(F1, log2, GPT-4) is read in English and skipped.
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # book/, for bookstyle
from bookstyle import with_particle

logger = logging.getLogger(__name__)

NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
PARTICLE = r"(?:으로|로)(?:는|도|서|써|부터)?|(?:과|와)(?:는|도)?|은|는|이|가|을|를"
NUMBER_AND_PARTICLE = re.compile(
    rf"(?<![A-Za-z0-9_.,/\-])(?P<number>(?:{NUMBER})%?)(?P<particle>{PARTICLE})(?![가-힣])"
)

SKIPPED_TAGS = {"script", "style", "pre", "code", "kbd", "samp", "math", "svg"}
SKIPPED_CLASSES = {"math", "highlight", "cell_output", "output", "MathJax"}
BLOCK_TAGS = {
    "p", "div", "li", "td", "th", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd", "br",
    "section", "caption", "figcaption",
}  # fmt: skip
VOID_TAGS = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
}  # fmt: skip


def particle_errors(text: str) -> list[tuple[str, str]]:
    """Each number + particle in ``text`` whose particle is wrong, with the right form.

    >>> particle_errors("평균은 0.80로 목표선에 걸리고, nDCG 0.88으로 적습니다. 정의 5.1는 ...")
    [('0.80로', '0.80으로'), ('0.88으로', '0.88로'), ('5.1는', '5.1은')]
    >>> particle_errors("0.906과 0.618로, 20%는 2가지, F1는 영어로 읽습니다.")
    []
    """
    found = []
    for match in NUMBER_AND_PARTICLE.finditer(text):
        written = match.group(0)
        expected = with_particle(match.group("number"), match.group("particle"))
        if expected != written:
            found.append((written, expected))
    return found


class _ProseText(HTMLParser):
    """The text a reader sees in the prose of a page: code, math and scripts left out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping: str | None = None  # the tag that opened the skipped element
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID_TAGS:
            if tag in BLOCK_TAGS:
                self.parts.append("\n")
            return
        if self._skipping is not None:
            self._depth += tag == self._skipping
            return
        classes = set((dict(attrs).get("class") or "").split())
        if tag in SKIPPED_TAGS or classes & SKIPPED_CLASSES:
            self._skipping, self._depth = tag, 1
        elif tag in BLOCK_TAGS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if self._skipping is not None:
            if tag == self._skipping:
                self._depth -= 1
                if self._depth == 0:
                    self._skipping = None
            return
        if tag in BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._skipping is None:
            self.parts.append(data)


def prose_text(html: str) -> str:
    """The prose of an HTML page as plain text, one block a line."""
    parser = _ProseText()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


def check_built_pages(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.builder.outdir)
    for docname in sorted(app.env.found_docs):
        page = outdir / f"{docname}.html"
        if not page.exists():
            continue
        for written, expected in particle_errors(prose_text(page.read_text(encoding="utf-8"))):
            logger.warning(
                f"조사가 앞의 수와 맞지 않습니다: {written!r} → {expected!r}",
                location=docname,
                type="korean",
                subtype="particle",
            )


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("build-finished", check_built_pages)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
