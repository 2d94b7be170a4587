"""What the student and the teacher see: a sheet and its key as blocks, rendered as Markdown and HTML.

A sheet is a list of blocks (``("h1", text)``, ``("p", text)``, ``("table", header, rows)``,
...), rendered twice, so the Markdown and the printable HTML always say the same thing.
The students' sheet has a name and class line, the rounding rule, a blank step table under
every problem and no seed; the seed is on the teacher's key only.

What a problem looks like follows from its metric's registration: the step-table family
(graded list, one O/X list, three queries) and the :class:`rankmetrics.registry.Exercise`
in ``worksheet=`` (cutoff, relevant items outside the list, the blank table's columns,
the line to fill in). The texts are message ids of the catalogue; the caller chooses the
language (:class:`~rankmetrics.teaching.worksheet.Worksheet` renders in its own).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from ...i18n import _, language
from ...metrics.conventions import discounts
from ...registry import METRICS
from ...tables import html_table
from ..catalogue import Exercise, entry, symbol
from ..explain import Explanation
from ..numbers import hand_text

if TYPE_CHECKING:
    from .sheet import Problem, Worksheet

BLANK = "______"
#: The queries of a problem of queries (MRR, MAP).
QUERIES = 3


def exercise(metric: str) -> Exercise:
    """The kind of problem worksheets set on ``metric``, from its registration."""
    return entry(metric).worksheet


def graded(metric: str) -> bool:
    """A graded list (gain, discount): DCG and nDCG."""
    return entry(metric).explain == "dcg"


def of_queries(metric: str) -> bool:
    """A problem of several queries: MRR and MAP."""
    return entry(metric).explain == "mean"


def whole(metric: str) -> bool:
    """The value of one list is 0 or 1 (HR@K): asked, and keyed, as a whole number."""
    return exercise(metric).whole


# ---------------------------------------------------------------------------
# the numbers on the key


def answer_text(problem: Problem, decimals: int) -> str:
    """The key's answer: the sheet's decimals, or a whole number for HR@K (0 or 1)."""
    if whole(problem.metric):
        return str(int(problem.answer))
    return f"{problem.answer:.{decimals}f}"


def exact_text(problem: Problem) -> str:
    if whole(problem.metric):
        return str(int(problem.exact))
    return f"{problem.exact:.4f}"


def places(decimals: int) -> str:
    """How the sheet names its rounding: "소수 3자리" ("3 decimals"), or "정수" for whole numbers."""
    return _("{places} decimals").format(places=decimals) if decimals else _("whole numbers")


# ---------------------------------------------------------------------------
# titles


def _topic(sheet: Worksheet) -> str:
    """The metrics of the sheet in the order they first appear: "P@K · R@K · HR@K"."""
    seen: list[str] = []
    for problem in sheet.problems:
        name = symbol(problem.metric) + ("@K" if problem.k is not None else "")
        if name not in seen:
            seen.append(name)
    return " · ".join(seen)


def _labelled(sheet: Worksheet, title: str) -> str:
    """The sheet's label, if any, in front of a title: "수업 1 · 랭킹 지표 학습지: ..."."""
    return f"{sheet.label} · {title}" if sheet.label else title


def sheet_title(sheet: Worksheet) -> str:
    """The students' title: the metrics only (no seed: the seed is the teacher's)."""
    return _labelled(sheet, _("Ranking metrics worksheet: {topic}").format(topic=_topic(sheet)))


def key_title(sheet: Worksheet) -> str:
    return _labelled(
        sheet,
        _("Ranking metrics worksheet, answer key (for the teacher, seed {seed}): {topic}").format(
            seed=sheet.seed, topic=_topic(sheet)
        ),
    )


# ---------------------------------------------------------------------------
# the two documents as blocks


def sheet_blocks(sheet: Worksheet) -> list[tuple]:
    d = sheet.decimals
    rule = _(
        "Round every intermediate value to {places} (5 and up rounds up), and write the answer to {places} too."
    ).format(places=places(d))
    if any(graded(p.metric) for p in sheet.problems):  # an O/X sheet has no grades to read
        rule += " " + _("An item whose grade (relevance) is above 0 is relevant.")
    for metric in dict.fromkeys(p.metric for p in sheet.problems if whole(p.metric)):
        taught = entry(metric)
        # The Korean name is the glossary's (the entry's Reference); other languages use the label.
        name = taught.reference.korean if language() == "ko" and taught.reference else METRICS[metric].label
        rule += " " + _("{symbol}@K ({name}) is 0 or 1, so write 0 or 1 as the answer.").format(
            symbol=taught.symbol, name=name
        )
    blocks: list[tuple] = [
        ("h1", sheet_title(sheet)),
        ("fields", _("Name: {long}    Class: {blank}    No.: {blank}").format(long=BLANK * 3, blank=BLANK)),
        ("p", rule),
        (
            "p",
            _(
                "For each problem fill in the blank step table below, row by row, and the blanks, then write the answer."
            ),
        ),
    ]
    warning = _denominator_warning(sheet.problems)
    if warning:
        blocks.append(("warn", warning))
    if any(graded(p.metric) for p in sheet.problems):
        blocks.append(("p", _("Discount table log2(rank + 1), {places}:").format(places=places(d))))
        blocks.append(
            (
                "table",
                [_("rank")] + [str(i) for i in range(1, 7)],
                [[_("discount")] + [hand_text(value, d) for value in discounts(6)]],
            )
        )
    for problem in sheet.problems:
        blocks.append(("h2", _problem_title(problem)))
        blocks.extend(_problem_blocks(problem))
        blocks.extend(_blank_blocks(problem))
        blocks.append(("p", _("Answer: {blank}").format(blank="____________")))
    return blocks


def _problem_title(problem: Problem) -> str:
    return _("Problem {number}. {label}").format(number=problem.number, label=problem.label)


def key_blocks(sheet: Worksheet) -> list[tuple]:
    d = sheet.decimals
    blocks: list[tuple] = [
        ("h1", key_title(sheet)),
        (
            "p",
            _(
                "The answer is the hand calculation's (intermediate values rounded to {places}); the "
                "exact value is computed without rounding. An answer equal to either is right. "
                "The seed that makes the same sheet again: {seed}."
            ).format(places=places(d), seed=sheet.seed),
        ),
        (
            "table",
            [_("problem"), _("metric"), _("answer"), _("exact value")],
            [[str(p.number), p.label, answer_text(p, d), exact_text(p)] for p in sheet.problems],
        ),
    ]
    warning = _denominator_warning(sheet.problems)
    if warning:
        blocks.append(("warn", warning))
    for problem in sheet.problems:
        blocks.append(("h2", _problem_title(problem)))
        blocks.extend(_problem_blocks(problem))
        blocks.append(
            (
                "p",
                _("Answer: {answer} (exact value {exact})").format(
                    answer=answer_text(problem, d), exact=exact_text(problem)
                ),
            )
        )
        blocks.append(("explanation", key_explanation(problem)))
    return blocks


def key_explanation(problem: Problem) -> Explanation:
    """The step table for the key: the problem's own (only AP's and MAP's show precision at each hit)."""
    return problem.explanation


def _denominator_warning(problems: tuple[Problem, ...]) -> str | None:
    """AP and MAP on one sheet: say where the two denominators come from, before anyone divides."""
    ap = [p for p in problems if p.metric == "average_precision"]
    maps = [p for p in problems if p.metric == "mean_average_precision"]
    if not ap or not maps:
        return None
    outside = [p for p in ap if any(item not in p.x for item in p.kwargs["relevant"])]
    text = _("AP's denominator is always the query's number of all relevant items.")
    if outside:
        numbers = ", ".join(str(p.number) for p in outside)
        text += " " + _(
            "The AP problems ({numbers}) have relevant items outside the list too, so divide by the "
            "number of all relevant items the problem gives, not by the O in the list."
        ).format(numbers=numbers)
    numbers = ", ".join(str(p.number) for p in maps)
    text += " " + _(
        "In the MAP problems ({numbers}) every relevant item is in the list, so each query divides by "
        "its number of O in the list."
    ).format(numbers=numbers)
    return text


def _problem_blocks(problem: Problem) -> list[tuple]:
    metric, x, k = problem.metric, problem.x, problem.k
    sheet = exercise(metric)
    mark = {True: "O", False: "X"}
    if of_queries(metric):
        width = max(len(q) for q in x)
        rows = [
            [_("query {number}").format(number=i)] + [mark[bool(g)] for g in q] for i, q in enumerate(x, 1)
        ]
        return [
            ("table", [_("rank")] + [str(r) for r in range(1, width + 1)], rows),
            ("p", _(sheet.note).format(relevant="")),
            ("p", _("Find: {label}").format(label=problem.label)),
        ]
    relevant = problem.kwargs["relevant"]
    ranks = [_("rank")] + [str(i) for i in range(1, len(x) + 1)]
    items = [_("item")] + list(x)
    unlisted = [item for item in relevant if item not in x]
    blocks: list[tuple] = []
    if graded(metric):
        grades = [_("grade")] + [str(relevant.get(item, 0)) for item in x]
        blocks.append(("table", ranks, [items, grades]))
        gain = problem.kwargs.get("gain", "linear")
        gain_words = _("the grade itself") if gain == "linear" else _("2^grade − 1")
        text = _("The gain is {gain}, the discount log2(rank + 1).").format(gain=gain_words)
        if "ideal" in METRICS[metric].keywords:
            every = _("The ideal ordering is made from every judged item.")
            if unlisted:
                extra = ", ".join(
                    _("{item} (grade {grade})").format(item=item, grade=relevant[item]) for item in unlisted
                )
                text += (
                    " "
                    + _("Judged items lie outside the list too: {items}.").format(items=extra)
                    + " "
                    + every
                )
            elif k is not None and k < len(x):
                # "outside the list" was read as "outside the top k": say that the ideal uses the items below k too
                text += " " + _(
                    "No relevant item lies outside the list's {n} items. The ideal ordering is made from every "
                    "judged item, those below the top {k} included."
                ).format(n=len(x), k=k)
            else:
                text += " " + _("No relevant item lies outside the list.") + " " + every
        blocks.append(("p", text))
    else:
        marks = [_("relevant")] + [mark[item in relevant] for item in x]
        blocks.append(("table", ranks, [items, marks]))
        if sheet.unlisted:
            extra = ", ".join(unlisted) if unlisted else _("none")
            text = _("There are {relevant} relevant items in all (outside the list: {unlisted}).").format(
                relevant=len(relevant), unlisted=extra
            )
            if sheet.note:
                text += " " + _(sheet.note).format(relevant=len(relevant))
            blocks.append(("p", text))
    ask = _("Find: {label}").format(label=problem.label)
    if k is not None:
        ask += _(" (look at the top {k})").format(k=k)
    if sheet.whole:
        ask += _(". The answer is 0 or 1.")
    blocks.append(("p", ask))
    return blocks


def _blank_blocks(problem: Problem) -> list[tuple]:
    """The empty step table the student fills in, row by row, and the last line of the formula."""
    metric, x, k, label = problem.metric, problem.x, problem.k, problem.label
    sheet = exercise(metric)
    at = label[len(symbol(metric)) :]  # "@4" or ""
    line = _(sheet.line).format(label=label, at=at, k=k, blank=BLANK, queries=len(x))
    blocks: list[tuple] = []
    if sheet.columns:
        columns = [_(column) for column in sheet.columns]
        if of_queries(metric):
            rows = [[_("query {number}").format(number=q)] for q in range(1, len(x) + 1)]
            blocks.append(("blank", _("step table"), [_("query"), *columns], rows))
        else:
            depth = k if k is not None else len(x)
            rows = [[str(r)] for r in range(1, depth + 1)]
            if graded(metric):
                blocks.append(("blank", _("my ranking"), [_("rank"), *columns], rows))
                if "ideal" in METRICS[metric].keywords:
                    blocks.append(("blank", _("ideal ordering"), [_("rank"), _("grade"), *columns], rows))
            else:
                blocks.append(("blank", _("step table"), [_("rank"), *columns], rows))
    return [*blocks, ("p", line)]


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
            out += ["> **" + _("Mind the denominator.") + f"** {block[1]}", ""]
        elif kind == "table":  # ("table", header, rows) or ("table", header, rows, aligns)
            out += _md_table(*block[1:])
        elif kind == "blank":
            out += [f"*{block[1]}* " + _("(fill in the blanks)"), ""]
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


def html_page(title: str, blocks: list[tuple], lang: str = "ko") -> str:
    """A printable page of blocks; ``lang`` is the page's language (worksheets are Korean unless told)."""
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
            warning = html.escape(_("Mind the denominator."))
            body.append(f'<p class="warn"><strong>{warning}</strong> {html.escape(block[1])}</p>')
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
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>\n{_CSS}\n</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )
