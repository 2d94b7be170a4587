"""What the student and the teacher see: a sheet and its key as blocks, rendered as Markdown and HTML.

A sheet is a list of blocks (``("h1", text)``, ``("p", text)``, ``("table", header, rows)``,
...), rendered twice, so the Markdown and the printable HTML always say the same thing.
The students' sheet has a name and class line, the rounding rule, a blank step table under
every problem and no seed; the seed is on the teacher's key only.
"""

from __future__ import annotations

import dataclasses
import html
from typing import TYPE_CHECKING

from ...metrics.conventions import discounts
from ...registry import METRICS
from ...tables import html_table
from ..explain import Explanation
from ..explain.steps import hand_text

if TYPE_CHECKING:
    from .sheet import Problem, Worksheet

# The problem kinds follow from each metric's registration: its step-table family and keywords.
_ON_SHEETS = [m for m in METRICS.values() if m.worksheet]
#: Graded lists (gain, discount): DCG and nDCG.
GRADED = tuple(m.name for m in _ON_SHEETS if m.explain == "dcg")
#: Problems of three queries: MRR and MAP.
MEANS = tuple(m.name for m in _ON_SHEETS if m.explain == "mean")
#: One O/X list whose denominator sees relevant items outside the list (they take ``n_relevant``).
WITH_UNLISTED = tuple(m.name for m in _ON_SHEETS if m.explain == "hits" and "n_relevant" in m.keywords)
#: Metrics whose value for one list is 0 or 1: asked, and keyed, as a whole number.
WHOLE = ("hit_rate",)
#: The metrics whose step table needs the precision at each relevant rank; the key of any
#: other problem leaves that column out (a P@K sheet for lesson 1 does not teach AP).
_USES_PRECISION_AT_HITS = ("average_precision", "mean_average_precision")
_BLANK = "______"


# ---------------------------------------------------------------------------
# the numbers on the key


def answer_text(problem: Problem, decimals: int) -> str:
    """The key's answer: the sheet's decimals, or a whole number for HR@K (0 or 1)."""
    if problem.metric in WHOLE:
        return str(int(problem.answer))
    return f"{problem.answer:.{decimals}f}"


def exact_text(problem: Problem) -> str:
    if problem.metric in WHOLE:
        return str(int(problem.exact))
    return f"{problem.exact:.4f}"


def places(decimals: int) -> str:
    """How the sheet names its rounding: "소수 3자리", or "정수" for whole numbers."""
    return f"소수 {decimals}자리" if decimals else "정수"


# ---------------------------------------------------------------------------
# titles


def _topic(sheet: Worksheet) -> str:
    """The metrics of the sheet in the order they first appear: "P@K · R@K · HR@K"."""
    seen: list[str] = []
    for problem in sheet.problems:
        name = METRICS[problem.metric].symbol + ("@K" if problem.k is not None else "")
        if name not in seen:
            seen.append(name)
    return " · ".join(seen)


def _labelled(sheet: Worksheet, title: str) -> str:
    """The sheet's label, if any, in front of a title: "수업 1 · 랭킹 지표 학습지: ..."."""
    return f"{sheet.label} · {title}" if sheet.label else title


def sheet_title(sheet: Worksheet) -> str:
    return _labelled(sheet, f"랭킹 지표 학습지: {_topic(sheet)}")


def key_title(sheet: Worksheet) -> str:
    return _labelled(sheet, f"랭킹 지표 학습지 답안지 (교사용, 씨앗 {sheet.seed}): {_topic(sheet)}")


# ---------------------------------------------------------------------------
# the two documents as blocks


def sheet_blocks(sheet: Worksheet) -> list[tuple]:
    d = sheet.decimals
    rule = f"중간값은 모두 {places(d)}로 반올림하며(5 이상은 올림) 계산하고, 답도 {places(d)}로 적으세요."
    if any(p.metric in GRADED for p in sheet.problems):  # an O/X sheet has no grades to read
        rule += " 등급(관련도)이 0보다 크면 관련 항목입니다."
    if any(p.metric in WHOLE for p in sheet.problems):
        rule += " HR@K(적중률)는 0 또는 1이므로 답을 0이나 1로 적으세요."
    blocks: list[tuple] = [
        ("h1", sheet_title(sheet)),
        ("fields", f"이름: {_BLANK * 3}    반: {_BLANK}    번호: {_BLANK}"),
        ("p", rule),
        ("p", "문제마다 아래의 빈 단계표와 빈칸을 한 줄씩 채운 뒤 답을 적으세요."),
    ]
    warning = _denominator_warning(sheet.problems)
    if warning:
        blocks.append(("warn", warning))
    if any(p.metric in GRADED for p in sheet.problems):
        blocks.append(("p", f"할인표 log2(순위 + 1), {places(d)}:"))
        blocks.append(
            (
                "table",
                ["순위"] + [str(i) for i in range(1, 7)],
                [["할인"] + [hand_text(value, d) for value in discounts(6)]],
            )
        )
    for problem in sheet.problems:
        blocks.append(("h2", f"문제 {problem.number}. {problem.label}"))
        blocks.extend(_problem_blocks(problem))
        blocks.extend(_blank_blocks(problem))
        blocks.append(("p", "답: ____________"))
    return blocks


def key_blocks(sheet: Worksheet) -> list[tuple]:
    d = sheet.decimals
    blocks: list[tuple] = [
        ("h1", key_title(sheet)),
        (
            "p",
            (
                f"답은 손 계산(중간값을 {places(d)}로 반올림)의 결과이고, 정확한 값은 "
                "반올림 없이 계산한 값입니다. 둘 중 어느 것과 같아도 정답으로 봅니다. "
                f"같은 학습지를 다시 만드는 씨앗: {sheet.seed}."
            ),
        ),
        (
            "table",
            ["문제", "지표", "답", "정확한 값"],
            [[str(p.number), p.label, answer_text(p, d), exact_text(p)] for p in sheet.problems],
        ),
    ]
    warning = _denominator_warning(sheet.problems)
    if warning:
        blocks.append(("warn", warning))
    for problem in sheet.problems:
        blocks.append(("h2", f"문제 {problem.number}. {problem.label}"))
        blocks.extend(_problem_blocks(problem))
        blocks.append(("p", f"답: {answer_text(problem, d)} (정확한 값 {exact_text(problem)})"))
        blocks.append(("explanation", key_explanation(problem)))
    return blocks


def key_explanation(problem: Problem) -> Explanation:
    """The step table for the key, without the columns the problem's metric does not use."""
    e = problem.explanation
    if problem.metric in _USES_PRECISION_AT_HITS:
        return e
    sections = [
        dataclasses.replace(s, columns=[c for c in s.columns if c.key != "precision"]) for s in e.sections
    ]
    return dataclasses.replace(e, sections=sections)


def _denominator_warning(problems: tuple[Problem, ...]) -> str | None:
    """AP and MAP on one sheet: say where the two denominators come from, before anyone divides."""
    ap = [p for p in problems if p.metric == "average_precision"]
    maps = [p for p in problems if p.metric == "mean_average_precision"]
    if not ap or not maps:
        return None
    outside = [p for p in ap if any(item not in p.x for item in p.kwargs["relevant"])]
    text = "AP의 분모는 언제나 그 질의의 전체 정답 수입니다."
    if outside:
        numbers = ", ".join(str(p.number) for p in outside)
        text += (
            f" AP 문제({numbers})에는 목록 밖에도 정답이 있으므로, 목록 안의 O 개수가 아니라 "
            "문제에 적힌 전체 정답 수로 나눕니다."
        )
    numbers = ", ".join(str(p.number) for p in maps)
    text += f" MAP 문제({numbers})는 정답이 모두 목록 안에 있어, 질의마다 목록 안의 O 개수로 나눕니다."
    return text


def _problem_blocks(problem: Problem) -> list[tuple]:
    metric, x, k = problem.metric, problem.x, problem.k
    if metric in MEANS:
        width = max(len(q) for q in x)
        rows = [[f"질의 {i}"] + ["O" if g else "X" for g in q] for i, q in enumerate(x, start=1)]
        what = (
            "첫 정답 순위의 역수"
            if metric == "mean_reciprocal_rank"
            else "평균 정밀도(정답이 모두 목록 안에 있으므로 분모는 그 질의의 O 개수)"
        )
        return [
            ("table", ["순위"] + [str(r) for r in range(1, width + 1)], rows),
            ("p", f"세 질의의 결과입니다 (O는 정답, X는 오답). 질의마다 {what}를 구해 평균하세요."),
            ("p", f"구할 값: {problem.label}"),
        ]
    relevant = problem.kwargs["relevant"]
    ranks = ["순위"] + [str(i) for i in range(1, len(x) + 1)]
    items = ["항목"] + list(x)
    unlisted = [item for item in relevant if item not in x]
    blocks: list[tuple] = []
    if metric in GRADED:
        grades = ["등급"] + [str(relevant.get(item, 0)) for item in x]
        blocks.append(("table", ranks, [items, grades]))
        gain = problem.kwargs.get("gain", "linear")
        gain_words = "등급 그대로" if gain == "linear" else "2^등급 − 1"
        text = f"이득은 {gain_words}, 할인은 log2(순위 + 1)입니다."
        if metric == "ndcg":
            if unlisted:
                extra = ", ".join(f"{item}(등급 {relevant[item]})" for item in unlisted)
                text += f" 목록 밖에도 판정된 항목이 있습니다: {extra}. 이상적 순서는 판정된 모든 항목으로 만듭니다."
            elif k is not None and k < len(x):
                # "목록 밖" was read as "outside the top k": say that the ideal takes the items below k too
                text += (
                    f" 목록의 {len(x)}개 항목 밖에는 관련 항목이 없습니다. 이상적 순서는 "
                    f"상위 {k}개 밖의 항목까지, 판정된 모든 항목으로 만듭니다."
                )
            else:
                text += " 목록 밖에 관련 항목은 없습니다. 이상적 순서는 판정된 모든 항목으로 만듭니다."
        blocks.append(("p", text))
    else:
        marks = ["정답"] + ["O" if item in relevant else "X" for item in x]
        blocks.append(("table", ranks, [items, marks]))
        if metric in WITH_UNLISTED:
            extra = ", ".join(unlisted) if unlisted else "없음"
            text = f"전체 정답은 {len(relevant)}개입니다 (목록 밖 정답: {extra})."
            if metric == "average_precision":
                text += f" AP의 분모는 전체 정답 수 {len(relevant)}입니다."
            blocks.append(("p", text))
    cutoff = f" (상위 {k}개까지 봅니다)" if k is not None else ""
    whole = ". 답은 0 또는 1입니다." if metric in WHOLE else ""
    blocks.append(("p", f"구할 값: {problem.label}{cutoff}{whole}"))
    return blocks


def _blank_blocks(problem: Problem) -> list[tuple]:
    """The empty step table the student fills in, row by row, and the last line of the formula."""
    metric, x, k, label = problem.metric, problem.x, problem.k, problem.label
    depth = k if k is not None else (len(x) if metric not in MEANS else 0)
    ranks = [[str(r)] for r in range(1, depth + 1)]
    queries = [[f"질의 {q}"] for q in range(1, len(x) + 1)] if metric in MEANS else []
    at = label[len(METRICS[metric].symbol) :]  # "@4" or ""
    b = _BLANK
    if metric in GRADED:
        columns = ["이득", "할인", "이득÷할인", "누적 합"]
        blocks = [("blank", "내 순위", ["순위", *columns], ranks)]
        if metric == "ndcg":
            blocks.append(("blank", "이상적 순서", ["순위", "등급", *columns], ranks))
            line = f"DCG{at} = {b}    IDCG{at} = {b}    nDCG{at} = DCG ÷ IDCG = {b} ÷ {b} = {b}"
        else:
            line = f"DCG{at} = 누적 합의 마지막 값 = {b}"
        return [*blocks, ("p", line)]
    if metric in ("precision", "recall", "f1"):
        line = {
            "precision": f"{label} = 정답 수 {b} ÷ k {b} = {b}",
            "recall": f"{label} = 정답 수 {b} ÷ 전체 정답 수 {b} = {b}",
            "f1": f"P{at} = {b}    R{at} = {b}    {label} = 2 × P × R ÷ (P + R) = {b}",
        }[metric]
        return [("blank", "단계표", ["순위", "누적 정답 수"], ranks), ("p", line)]
    if metric == "hit_rate":
        return [("p", f"상위 {k}개 안의 정답 수 {b} → {label} = {b} (있으면 1, 없으면 0)")]
    if metric == "reciprocal_rank":
        return [("p", f"첫 정답의 순위 {b} → {label} = 1 ÷ {b} = {b}")]
    if metric == "mean_rank":
        return [("p", f"정답들의 순위 {b * 2} → {label} = 순위의 합 {b} ÷ 정답 수 {b} = {b}")]
    if metric == "average_precision":
        return [
            ("blank", "단계표", ["순위", "누적 정답 수", "정답 위치의 정밀도"], ranks),
            ("p", f"{label} = 정밀도의 합 {b} ÷ 전체 정답 수 {b} = {b}"),
        ]
    if metric == "mean_reciprocal_rank":
        return [
            ("blank", "단계표", ["질의", "첫 정답의 순위", "RR"], queries),
            ("p", f"{label} = RR의 합 {b} ÷ 질의 수 3 = {b}"),
        ]
    if metric == "mean_average_precision":
        return [
            ("blank", "단계표", ["질의", "정답 위치의 정밀도들", "정답 수", "AP"], queries),
            ("p", f"{label} = AP의 합 {b} ÷ 질의 수 3 = {b}"),
        ]
    # A metric registered with worksheet=True needs its own template here, not a neighbour's.
    raise NotImplementedError(f"worksheets have no blank step table for {metric!r}; add one in render.py")


# ---------------------------------------------------------------------------
# rendering


def _md_table(header: list[str], rows: list[list[str]], aligns: list[str] | None = None) -> list[str]:
    aligns = aligns or ["left", *["right"] * (len(header) - 1)]
    out = ["| " + " | ".join(header) + " |"]
    out.append("|" + "|".join(":---" if side == "left" else "---:" for side in aligns) + "|")
    out += ["| " + " | ".join(row + [" "] * (len(header) - len(row))) + " |" for row in rows]
    return [*out, ""]


def markdown(blocks: list[tuple]) -> str:
    out: list[str] = []
    for block in blocks:
        kind = block[0]
        if kind == "h1":
            out += [f"# {block[1]}", ""]
        elif kind == "h2":
            out += [f"## {block[1]}", ""]
        elif kind in ("p", "fields"):
            out += [block[1], ""]
        elif kind == "warn":
            out += [f"> **분모에 주의하세요.** {block[1]}", ""]
        elif kind == "table":  # ("table", header, rows) or ("table", header, rows, aligns)
            out += _md_table(*block[1:])
        elif kind == "blank":
            out += [f"*{block[1]}* (빈칸을 채우세요)", ""]
            out += _md_table(block[2], block[3])
        elif kind == "explanation":
            out += [block[1].to_markdown()]
    return "\n".join(out).rstrip("\n") + "\n"


# A4 is the paper of Korean schools; @page sets it for every sheet, whoever prints it.
_CSS = """
@page { size: A4; margin: 15mm; }
body { font-family: "Noto Sans KR", "NanumGothic", "Malgun Gothic", sans-serif; max-width: 48em;
       margin: 2em auto; padding: 0 1em; line-height: 1.5; }
table { border-collapse: collapse; margin: .5em 0 1em; }
th, td { border: 1px solid #888; padding: .15em .6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
caption { text-align: left; font-weight: bold; }
table.blank td { height: 1.9em; min-width: 5.5em; }
table.blank td:first-child { min-width: 2.5em; }
p.fields { font-size: 1.1em; margin: .2em 0 1em; }
p.warn { border: 2px solid #b45309; background: #fff7ed; padding: .4em .7em; }
pre { white-space: pre-wrap; }
section.problem { break-inside: avoid; page-break-inside: avoid; }
@media print { body { margin: 0; max-width: none; } a { color: inherit; } }
""".strip()


def html_page(title: str, blocks: list[tuple]) -> str:
    body: list[str] = []
    open_section = False
    for block in blocks:
        kind = block[0]
        if kind == "h1":
            body.append(f"<h1>{html.escape(block[1])}</h1>")
        elif kind == "h2":
            if open_section:
                body.append("</section>")
            body.append(f'<section class="problem"><h2>{html.escape(block[1])}</h2>')
            open_section = True
        elif kind == "p":
            body.append(f"<p>{html.escape(block[1])}</p>")
        elif kind == "fields":
            body.append(f'<p class="fields">{html.escape(block[1])}</p>')
        elif kind == "warn":
            body.append(f'<p class="warn"><strong>분모에 주의하세요.</strong> {html.escape(block[1])}</p>')
        elif kind == "table":
            body.append(html_table(*block[1:]))
        elif kind == "blank":
            header, rows = block[2], block[3]
            filled = [row + [""] * (len(header) - len(row)) for row in rows]
            body.append(html_table(header, filled, caption=block[1], css_class="blank"))
        elif kind == "explanation":
            body.append(block[1]._repr_html_())
    if open_section:
        body.append("</section>")
    return (
        '<!DOCTYPE html>\n<html lang="ko">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>\n{_CSS}\n</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )
