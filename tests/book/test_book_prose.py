"""Guard: a computed result in a chapter's prose must be glued from code, not typed.

The book's rule is that every result number in a markdown cell comes from a code
cell through myst-nb glue ({glue:text}`dcg_ndcg_ndcg:.3f`), so the text cannot drift
from the code. A decimal with three or more digits after the point (0.9098, 5.361)
is always such a result: problem data, grades, cutoffs and the numbers a source
document prints have at most two. This test fails when one is typed by hand in a
markdown cell outside math ($...$, $$...$$), code (`...`, fenced blocks) and MyST
roles ({glue:text}, {ref}, {cite}, ...).
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat

CODE_FENCE = re.compile(r"^(`{3,}|~{3,})(?P<info>[^\n]*)\n.*?^\1[ \t]*$", re.DOTALL | re.MULTILINE)
FENCE_MARKER = re.compile(
    r"^(`{3,}|~{3,})(\{[^}\n]*\})?", re.MULTILINE
)  # ```{exercise} title: keep the title
DISPLAY_MATH = re.compile(r"\$\$.*?\$\$", re.DOTALL)
ROLE = re.compile(r"\{[\w:.-]+\}`[^`]*`")  # {glue:text}`key:.3f`, {ref}`label`, {cite}`key`
CODE_SPAN = re.compile(r"`[^`\n]*`")
INLINE_MATH = re.compile(r"(?<!\\)\$[^$\n]+?(?<!\\)\$")
DIRECTIVE_OPTION = re.compile(r"^:[\w-]+:.*$", re.MULTILINE)  # :label: ex-dcg_ndcg-1
# ASCII-only boundaries, because a Korean particle may follow a number directly ("5.361은").
LONG_DECIMAL = re.compile(r"(?<![0-9A-Za-z_.])\d+\.\d{3,}(?![0-9A-Za-z_]|\.\d)")


def prose(markdown: str) -> str:
    """The markdown with math, code and roles blanked out; directive bodies stay (they are prose)."""

    def drop_code(match: re.Match) -> str:
        return match.group(0) if match.group("info").lstrip().startswith("{") else " "

    text = CODE_FENCE.sub(drop_code, markdown)
    text = FENCE_MARKER.sub(" ", text)
    for pattern in (DISPLAY_MATH, ROLE, CODE_SPAN, INLINE_MATH, DIRECTIVE_OPTION):
        text = pattern.sub(" ", text)
    return text


def typed_results(markdown: str) -> list[str]:
    return LONG_DECIMAL.findall(prose(markdown))


def problems(path: Path) -> list[str]:
    nb = nbformat.read(path, as_version=4)
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            for number in typed_results(cell.source):
                found.append(f"cell {i}: {number} is typed by hand; glue it from the cell that computes it")
    return found


def test_no_computed_number_typed_in_prose(notebook):
    assert problems(notebook) == []


def test_guard_finds_typed_results():
    text = "DCG는 5.361이고 nDCG는 0.9098입니다. 정밀도는 (0.667)."
    assert typed_results(text) == ["5.361", "0.9098", "0.667"]


def test_guard_skips_glue_math_code_and_short_numbers():
    text = """nDCG는 {glue:text}`dcg_ndcg_ndcg:.3f`이고 글의 값은 0.88, 할인표는 1.6입니다.
수식 $\\log_2 3 \\approx 1.585$와 코드 `round(0.9098, 2)`, 역할 {ref}`fig-1.234`.
$$
2.3219
$$
```text
0.8855
```
```{exercise} 제목 0.25
:label: ex-demo-1.005
본문 1.5
```
"""
    assert typed_results(text) == []


def test_guard_reads_exercise_bodies():
    assert typed_results("```{exercise} 문제\n:label: ex-demo-1\n\n정답은 0.7519입니다.\n```") == ["0.7519"]
