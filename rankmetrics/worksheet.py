"""Worksheets for the classroom: small problems to do by hand, and an answer key with step tables.

``make_worksheet(seed, count, metrics)`` draws problems with
``numpy.random.default_rng(seed)``: ranked lists of 4–6 items, grades 0–3 for
DCG/nDCG and O/X for the hit-based metrics. The answer key holds, for each
problem, the hand-rounded answer, the exact value and the step table of
:func:`rankmetrics.explain`. The same seed always gives byte-identical files (no
dates, no set iteration order). Answers are computed by the package's public
functions, never by this module.
"""

from __future__ import annotations

import html
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np

from . import _validation as v
from ._conventions import discounts
from .explain import _FUNCTIONS, Explanation, _hand, _join, _round, _width, explain

__all__ = ["SHEET_METRICS", "Problem", "Worksheet", "make_worksheet"]

#: Names accepted in ``metrics`` (command-line names and function names) -> function name.
SHEET_METRICS: dict[str, str] = {
    "ndcg": "ndcg",
    "dcg": "dcg",
    "precision": "precision",
    "recall": "recall",
    "f1": "f1",
    "hit-rate": "hit_rate",
    "hit_rate": "hit_rate",
    "rr": "reciprocal_rank",
    "reciprocal_rank": "reciprocal_rank",
    "ap": "average_precision",
    "average_precision": "average_precision",
    "mr": "mean_rank",
    "mean_rank": "mean_rank",
    "mrr": "mean_reciprocal_rank",
    "mean_reciprocal_rank": "mean_reciprocal_rank",
    "map": "mean_average_precision",
    "mean_average_precision": "mean_average_precision",
}

_TITLES = {
    "ndcg": "nDCG",
    "dcg": "DCG",
    "precision": "Precision",
    "recall": "Recall",
    "f1": "F1",
    "hit_rate": "Hit rate",
    "reciprocal_rank": "RR (역순위)",
    "average_precision": "AP (평균 정밀도)",
    "mean_rank": "MR (평균 순위)",
    "mean_reciprocal_rank": "MRR (평균 역순위)",
    "mean_average_precision": "MAP (평균 AP)",
}
_WITH_CUTOFF = ("ndcg", "dcg", "precision", "recall", "f1", "hit_rate")
_WITH_UNLISTED = ("recall", "f1", "average_precision")  # metrics whose denominator sees unlisted items
_POOL = "ABCDEFGH"


@dataclass(frozen=True)
class Problem:
    """One problem: the inputs, the key, and the step table.

    ``recompute()`` calls the public metric again, which is what the tests of
    the answer key do.
    """

    number: int
    metric: str
    x: Any
    k: int | None
    kwargs: dict[str, Any]
    explanation: Explanation = field(repr=False)

    @property
    def answer(self) -> float:
        """The hand-rounded answer, as on the key."""
        return self.explanation.rounded

    @property
    def exact(self) -> float:
        return self.explanation.value

    @property
    def label(self) -> str:
        return self.explanation.label

    def recompute(self) -> float:
        return _FUNCTIONS[self.metric](self.x, self.k, **self.kwargs)


@dataclass(frozen=True)
class Worksheet:
    """A problem sheet and its answer key, as Markdown and as printable HTML."""

    seed: int
    decimals: int
    problems: tuple[Problem, ...]

    # -- the two documents as blocks, rendered twice -------------------------
    def _sheet_blocks(self) -> list[tuple]:
        blocks: list[tuple] = [
            ("h1", f"랭킹 지표 학습지 (seed {self.seed})"),
            (
                "p",
                (
                    f"중간값은 모두 소수 {self.decimals}자리로 반올림하며(5 이상은 올림) 계산하고, 답도 "
                    f"소수 {self.decimals}자리로 적으세요. 등급(관련도)이 0보다 크면 관련 항목입니다."
                ),
            ),
        ]
        if any(p.metric in ("ndcg", "dcg") for p in self.problems):
            table = discounts(6)
            blocks.append(("p", f"할인표 log2(순위 + 1), 소수 {self.decimals}자리:"))
            blocks.append(
                (
                    "table",
                    ["순위"] + [str(i) for i in range(1, 7)],
                    [["할인"] + [_hand(d, self.decimals) for d in table]],
                )
            )
        for problem in self.problems:
            blocks.append(("h2", f"문제 {problem.number}. {problem.label}"))
            blocks.extend(_problem_blocks(problem))
            blocks.append(("p", "답: ____________"))
        return blocks

    def _key_blocks(self) -> list[tuple]:
        blocks: list[tuple] = [
            ("h1", f"랭킹 지표 학습지 답안지 (seed {self.seed})"),
            (
                "p",
                (
                    f"답은 손 계산(중간값을 소수 {self.decimals}자리로 반올림)의 결과이고, 정확한 값은 "
                    "반올림 없이 계산한 값입니다. 둘 중 어느 것과 같아도 정답으로 봅니다."
                ),
            ),
            (
                "table",
                ["문제", "지표", "답", "정확한 값"],
                [
                    [str(p.number), p.label, f"{p.answer:.{self.decimals}f}", _exact4(p.exact)]
                    for p in self.problems
                ],
            ),
        ]
        for problem in self.problems:
            blocks.append(("h2", f"문제 {problem.number}. {problem.label}"))
            blocks.extend(_problem_blocks(problem))
            blocks.append(
                (
                    "p",
                    f"답: {problem.answer:.{self.decimals}f} (정확한 값 {_exact4(problem.exact)})",
                )
            )
            blocks.append(("explanation", problem.explanation))
        return blocks

    @property
    def problem_markdown(self) -> str:
        return _markdown(self._sheet_blocks())

    @property
    def answer_markdown(self) -> str:
        return _markdown(self._key_blocks())

    @property
    def problem_html(self) -> str:
        return _html_page(f"학습지 (seed {self.seed})", self._sheet_blocks())

    @property
    def answer_html(self) -> str:
        return _html_page(f"답안지 (seed {self.seed})", self._key_blocks())

    def files(self) -> dict[str, str]:
        """File name -> content, for the four files :meth:`write` writes."""
        stem = f"seed{self.seed}"
        return {
            f"worksheet-{stem}.md": self.problem_markdown,
            f"worksheet-{stem}.html": self.problem_html,
            f"answers-{stem}.md": self.answer_markdown,
            f"answers-{stem}.html": self.answer_html,
        }

    def write(self, out: str | Path) -> list[Path]:
        """Write the problem sheet and the answer key (Markdown and HTML) into folder ``out``."""
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        paths = []
        for name, text in self.files().items():
            path = folder / name
            path.write_bytes(text.encode("utf-8"))  # bytes: the same on every platform
            paths.append(path)
        return paths

    def grade(self, answers: Mapping[int, Any] | Sequence[Any]) -> GradeReport:
        """Mark a student's answers: {problem number: value} or a list in problem order.

        An answer is right when it equals the key's hand-rounded answer or the
        exact value rounded to the sheet's decimals. It is a rounding slip (check
        the step table) when it is the exact value rounded to fewer decimals, or
        within three units of the last decimal; otherwise it is wrong.
        """
        if isinstance(answers, Mapping):
            given = dict(answers)
        else:
            given = {i + 1: a for i, a in enumerate(answers)}
        d = self.decimals
        rows = []
        for problem in self.problems:
            answer = given.get(problem.number)
            if answer is None:
                verdict = "빈칸"
            else:
                if isinstance(answer, bool) or not isinstance(answer, numbers.Real):
                    raise ValueError(f"answers[{problem.number}] must be a number; got {v._show(answer)}")
                mine = _round(answer, d)
                if mine in (_round(problem.answer, d), _round(problem.exact, d)):
                    verdict = "정답"
                elif _rounding_slip(answer, problem.exact, d):
                    verdict = "반올림 차이"
                else:
                    verdict = "오답"
            rows.append(
                {
                    "number": problem.number,
                    "label": problem.label,
                    "answer": answer,
                    "key": problem.answer,
                    "exact": problem.exact,
                    "verdict": verdict,
                }
            )
        return GradeReport(rows, d)


def _rounding_slip(answer: float, exact: float, decimals: int) -> bool:
    given = Decimal(repr(float(answer)))
    if any(given == _round(exact, places) for places in range(decimals)):
        return True
    return abs(given - Decimal(repr(float(exact)))) <= 3 * Decimal(10) ** -decimals


@dataclass(frozen=True)
class GradeReport:
    """Marks for one student: one row per problem."""

    rows: list[dict[str, Any]]
    decimals: int

    @property
    def score(self) -> int:
        return sum(row["verdict"] == "정답" for row in self.rows)

    def _cells(self) -> tuple[list[str], list[list[str]]]:
        headers = ["문제", "지표", "학생 답", "답안", "정확한 값", "판정"]
        cells = [
            [
                str(r["number"]),
                r["label"],
                "" if r["answer"] is None else f"{r['answer']:g}",
                _hand(r["key"], self.decimals),
                _exact4(r["exact"]),
                r["verdict"],
            ]
            for r in self.rows
        ]
        return headers, cells

    def __str__(self) -> str:
        headers, cells = self._cells()
        widths = [max([_width(h)] + [_width(row[i]) for row in cells]) for i, h in enumerate(headers)]
        aligns = ["right", "left", "right", "right", "right", "left"]
        lines = [_join(headers, widths, aligns).rstrip(), "  ".join("-" * w for w in widths)]
        lines += [_join(row, widths, aligns).rstrip() for row in cells]
        lines.append(f"정답 {self.score} / {len(self.rows)}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        headers, cells = self._cells()
        return _html_table(headers, cells) + f"<p>정답 {self.score} / {len(self.rows)}</p>"


# ---------------------------------------------------------------------------
# drawing problems


def make_worksheet(
    seed: int,
    count: int = 6,
    metrics: Sequence[str] | str = ("ndcg", "ap", "rr"),
    *,
    decimals: int = 3,
) -> Worksheet:
    """Draw a worksheet of ``count`` problems, cycling through ``metrics``.

    Parameters
    ----------
    seed : non-negative int
        The same seed gives the same problems and byte-identical files.
    count : positive int
        Number of problems.
    metrics : list of names or a comma-separated string
        ``ndcg, dcg, precision, recall, f1, hit-rate, rr, ap, mr, mrr, map``
        (function names such as ``average_precision`` work too).
    decimals : positive int
        Decimals of the hand calculation and of the answers.

    Returns
    -------
    Worksheet
        ``.problems``, ``.problem_markdown``, ``.answer_markdown``, ``.problem_html``,
        ``.answer_html``, ``.write(folder)``, ``.grade(answers)``.

    Examples
    --------
    >>> sheet = make_worksheet(seed=7, count=3, metrics="ndcg,ap,rr")
    >>> [p.label for p in sheet.problems]
    ['nDCG@3', 'AP', 'RR']
    >>> all(p.recompute() == p.exact for p in sheet.problems)
    True
    >>> [p.answer for p in sheet.problems]  # hand-rounded to 3 decimals, as on the key
    [0.21, 0.167, 0.333]
    >>> [row["verdict"] for row in sheet.grade({1: 0.21, 2: 0.17, 3: 0.5}).rows]
    ['정답', '반올림 차이', '오답']
    """
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer; got {v._show(seed)}")
    count = v.check_k(count, "count")
    if count is None:
        raise ValueError("count must be a positive integer; got None")
    decimals = v.check_k(decimals, "decimals")
    if decimals is None:
        raise ValueError("decimals must be a positive integer; got None")
    names = [m.strip() for m in metrics.split(",")] if isinstance(metrics, str) else list(metrics)
    if not names:
        raise ValueError("metrics is empty; name at least one metric, e.g. 'ndcg,ap,rr'")
    chosen = []
    for name in names:
        if not isinstance(name, str) or name not in SHEET_METRICS:
            choices = "ndcg, dcg, precision, recall, f1, hit-rate, rr, ap, mr, mrr, map"
            raise ValueError(f"metrics must be chosen from {choices}; got {v._show(name)}")
        chosen.append(SHEET_METRICS[name])
    rng = np.random.default_rng(int(seed))
    problems = tuple(_draw(i + 1, chosen[i % len(chosen)], rng, decimals) for i in range(count))
    return Worksheet(int(seed), decimals, problems)


def _draw(number: int, metric: str, rng: np.random.Generator, decimals: int) -> Problem:
    if metric in ("mean_reciprocal_rank", "mean_average_precision"):
        queries = []
        for _ in range(3):
            hits = rng.random(4) < 0.35
            if not hits.any():
                hits[int(rng.integers(4))] = True
            queries.append([int(h) for h in hits])
        x: Any = queries
        k = None
        kwargs: dict[str, Any] = {}
    else:
        n = int(rng.integers(4, 7))
        pool = [str(item) for item in rng.permutation(list(_POOL))]
        ranking, unlisted = pool[:n], pool[n:]
        kwargs = {}
        if metric in ("ndcg", "dcg"):
            grades = [int(g) for g in rng.integers(0, 4, size=n)]
            if not any(grades):
                grades[int(rng.integers(n))] = int(rng.integers(1, 4))
            relevant = {item: g for item, g in zip(ranking, grades) if g > 0}
            if metric == "ndcg" and rng.random() < 1 / 3:
                relevant[unlisted[0]] = int(rng.integers(1, 4))
            if rng.random() < 0.25:
                kwargs["gain"] = "exponential"
        else:
            hits = rng.random(n) < 0.4
            if not hits.any():
                hits[int(rng.integers(n))] = True
            relevant = {item: 1 for item, h in zip(ranking, hits) if h}
            if metric in _WITH_UNLISTED:
                for item in unlisted[: int(rng.integers(0, 3))]:
                    relevant[item] = 1
        kwargs = {"relevant": relevant, **kwargs}
        x = ranking
        k = int(rng.integers(3, n + 1)) if metric in _WITH_CUTOFF else None
    explanation = explain(metric, x, k, decimals=decimals, **kwargs)
    return Problem(number, metric, x, k, kwargs, explanation)


# ---------------------------------------------------------------------------
# what the student sees


def _problem_blocks(problem: Problem) -> list[tuple]:
    metric, x, k = problem.metric, problem.x, problem.k
    if metric in ("mean_reciprocal_rank", "mean_average_precision"):
        width = max(len(q) for q in x)
        rows = [[f"질의 {i}"] + ["O" if g else "X" for g in q] for i, q in enumerate(x, start=1)]
        what = (
            "첫 정답 순위의 역수"
            if metric == "mean_reciprocal_rank"
            else "평균 정밀도(목록 안의 정답 수로 나눔)"
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
    if metric in ("ndcg", "dcg"):
        grades = ["등급"] + [str(relevant.get(item, 0)) for item in x]
        blocks.append(("table", ranks, [items, grades]))
        gain = problem.kwargs.get("gain", "linear")
        gain_words = "등급 그대로" if gain == "linear" else "2^등급 − 1"
        text = f"이득은 {gain_words}, 할인은 log2(순위 + 1)입니다."
        if metric == "ndcg":
            if unlisted:
                extra = ", ".join(f"{item}(등급 {relevant[item]})" for item in unlisted)
                text += f" 목록 밖에도 판정된 항목이 있습니다: {extra}. 이상적 순서는 판정된 모든 항목으로 만듭니다."
            else:
                text += " 목록 밖에 관련 항목은 없습니다. 이상적 순서는 판정된 모든 항목으로 만듭니다."
        blocks.append(("p", text))
    else:
        marks = ["정답"] + ["O" if item in relevant else "X" for item in x]
        blocks.append(("table", ranks, [items, marks]))
        if metric in _WITH_UNLISTED:
            extra = ", ".join(unlisted) if unlisted else "없음"
            blocks.append(("p", f"전체 정답은 {len(relevant)}개입니다 (목록 밖 정답: {extra})."))
    cutoff = f" (상위 {k}개까지 봅니다)" if k is not None else ""
    blocks.append(("p", f"구할 값: {problem.label}{cutoff}"))
    return blocks


# ---------------------------------------------------------------------------
# rendering


def _exact4(value: float) -> str:
    return f"{value:.4f}"


def _markdown(blocks: list[tuple]) -> str:
    out: list[str] = []
    for block in blocks:
        kind = block[0]
        if kind == "h1":
            out += [f"# {block[1]}", ""]
        elif kind == "h2":
            out += [f"## {block[1]}", ""]
        elif kind == "p":
            out += [block[1], ""]
        elif kind == "table":
            header, rows = block[1], block[2]
            out.append("| " + " | ".join(header) + " |")
            out.append("|" + "|".join([":---"] + ["---:"] * (len(header) - 1)) + "|")
            out += ["| " + " | ".join(row) + " |" for row in rows]
            out.append("")
        elif kind == "explanation":
            out += [block[1].to_markdown()]
    return "\n".join(out).rstrip("\n") + "\n"


def _html_table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


_CSS = """
body { font-family: "Noto Sans KR", "NanumGothic", "Malgun Gothic", sans-serif; max-width: 48em;
       margin: 2em auto; padding: 0 1em; line-height: 1.5; }
table { border-collapse: collapse; margin: .5em 0 1em; }
th, td { border: 1px solid #888; padding: .15em .6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
caption { text-align: left; font-weight: bold; }
pre { white-space: pre-wrap; }
section.problem { break-inside: avoid; page-break-inside: avoid; }
@media print { body { margin: 0; max-width: none; } a { color: inherit; } }
""".strip()


def _html_page(title: str, blocks: list[tuple]) -> str:
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
        elif kind == "table":
            body.append(_html_table(block[1], block[2]))
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
