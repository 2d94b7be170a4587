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

import errno
import html
import numbers
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np

from .. import _validation as v
from ..metrics.conventions import discounts
from ..registry import METRICS
from ..tables import html_table, text_table
from .explain import Explanation, explain
from .explain.steps import hand_text, round_half_up

__all__ = ["SHEET_METRICS", "Problem", "Worksheet", "make_worksheet"]

#: Names accepted in ``metrics`` (command-line names and function names) -> function name:
#: every registered metric that worksheets use.
SHEET_METRICS: dict[str, str] = {
    name: m.name for m in METRICS.values() if m.worksheet for name in (m.command, m.name) if name
}
_WITH_CUTOFF = ("ndcg", "dcg", "precision", "recall", "f1", "hit_rate")
_WITH_UNLISTED = ("recall", "f1", "average_precision")  # metrics whose denominator sees unlisted items
_POOL = "ABCDEFGH"
#: The most problems one sheet holds. A class sheet has a handful; a thousand already takes a
#: second to draw and megabytes to print, and a typo such as ``--count 60000000`` would otherwise
#: run for hours before writing anything.
MAX_COUNT = 1000


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
        return METRICS[self.metric].function(self.x, self.k, **self.kwargs)


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
                    f"중간값은 모두 {_places(self.decimals)}로 반올림하며(5 이상은 올림) 계산하고, 답도 "
                    f"{_places(self.decimals)}로 적으세요. 등급(관련도)이 0보다 크면 관련 항목입니다."
                ),
            ),
        ]
        if any(p.metric in ("ndcg", "dcg") for p in self.problems):
            table = discounts(6)
            blocks.append(("p", f"할인표 log2(순위 + 1), {_places(self.decimals)}:"))
            blocks.append(
                (
                    "table",
                    ["순위"] + [str(i) for i in range(1, 7)],
                    [["할인"] + [hand_text(d, self.decimals) for d in table]],
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
                    f"답은 손 계산(중간값을 {_places(self.decimals)}로 반올림)의 결과이고, 정확한 값은 "
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

    def write(self, out: str | Path, *, force: bool = False) -> list[Path]:
        """Write the problem sheet and the answer key (Markdown and HTML) into folder ``out``.

        The folder is made when missing. A worksheet never destroys a file: an existing
        file of the same name raises ``FileExistsError`` unless ``force=True``, and a
        file name that is a symbolic link is refused even with ``force`` (writing through
        it could change a file outside ``out``). ``out`` itself may be a link to a folder:
        that is the user's own choice of folder. All four names are checked before the
        first byte is written, so a refusal leaves the folder as it was.
        """
        if isinstance(out, bytes) or not isinstance(out, (str, os.PathLike)):
            raise ValueError(f"out must be a folder name (str or Path); got {v.show(out)}")
        if not str(out).strip():
            # Path("") is the current folder: an empty --out is a missing value, not a choice.
            raise ValueError(f"out is empty; name the folder to write into; got {v.show(out)}")
        folder = Path(out)
        if folder.exists() and not folder.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))
        targets = [(folder / name, text) for name, text in self.files().items()]
        for path, _ in targets:
            if path.is_symlink():
                raise ValueError(
                    f"{str(path)!r} is a symbolic link; a worksheet is never written through a link "
                    "(it may point outside the folder). Remove the link or choose another folder."
                )
            if path.is_dir():
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
            if path.exists() and not force:
                raise FileExistsError(errno.EEXIST, "file exists; pass force=True to overwrite it", str(path))
        folder.mkdir(parents=True, exist_ok=True)
        # O_EXCL: a file that appeared since the check is still not overwritten;
        # O_NOFOLLOW: a link that appeared since the check is not followed.
        flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
        flags |= os.O_TRUNC if force else os.O_EXCL
        paths = []
        for path, text in targets:
            with os.fdopen(os.open(path, flags, 0o666), "wb") as file:
                file.write(text.encode("utf-8"))  # bytes: the same on every platform
            paths.append(path)
        return paths

    def grade(self, answers: Mapping[int, Any] | Sequence[Any]) -> GradeReport:
        """Mark a student's answers: {problem number: value} or a list in problem order.

        An answer is right when it equals the key's hand-rounded answer or the
        exact value rounded to the sheet's decimals. It is a rounding slip (check
        the step table) when it is the exact value rounded to fewer decimals, or
        within three units of the last decimal (not on a whole-number sheet,
        ``decimals=0``, where three units is no slip); otherwise it is wrong.

        What counts as an answer:

        - a real number (int, float, ``Fraction``, ``Decimal``, numpy number);
        - ``None``, a missing problem number, or NaN: a blank, "빈칸". NaN is how an
          empty spreadsheet cell reads (pandas), so a class's answer table can be
          passed as it is; a blank is never right and never raises;
        - infinity, or a number too large for a float: a number, but not the
          answer, "오답";
        - anything else, strings included (a string "0.2l" must not pass for a
          number), raises ``ValueError`` naming the answer's position and value.

        A list must hold one answer per problem (``None`` for a blank), so that a
        skipped line cannot shift every later answer; a mapping's keys must be
        problem numbers.
        """
        given = _answers_by_number(answers, [p.number for p in self.problems])
        d = self.decimals
        rows = []
        for problem in self.problems:
            where, answer = given.get(problem.number, ("", None))
            number = None if answer is None else _answer_number(answer, where)
            if number is None or number.is_nan():
                verdict = "빈칸"
            elif abs(number - Decimal(repr(float(problem.exact)))) > 1:
                # Neither right nor a slip (both lie within 0.5 of the exact value). Deciding
                # here also keeps infinity and 1e30 away from rounding, which cannot hold them.
                verdict = "오답"
            else:
                mine = round_half_up(number, d)
                if mine in (round_half_up(problem.answer, d), round_half_up(problem.exact, d)):
                    verdict = "정답"
                elif _rounding_slip(number, problem.exact, d):
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


def _answers_by_number(answers: Any, problem_numbers: list[int]) -> dict[int, tuple[str, Any]]:
    """Problem number -> (where the answer was given, e.g. "answers[0] (problem 1)", the answer)."""
    if isinstance(answers, Mapping):
        given = {}
        for key, answer in answers.items():
            if isinstance(key, (bool, np.bool_)) or key not in problem_numbers:
                raise ValueError(
                    f"answers has an answer for problem {v.show(key)}, but the sheet's problems are "
                    f"numbered 1 to {len(problem_numbers)}"
                )
            given[int(key)] = (f"answers[{key!r}]", answer)
        return given
    if isinstance(answers, (str, bytes)):
        raise ValueError(
            "answers must be a list in problem order or a mapping {problem: answer}, "
            f"not a string; got {v.show(answers)}"
        )
    try:
        listed = list(answers)
    except TypeError:
        raise ValueError(
            f"answers must be a list in problem order or a mapping {{problem: answer}}; got {v.show(answers)}"
        ) from None
    if len(listed) != len(problem_numbers):
        raise ValueError(
            f"answers has {len(listed)} entries but the sheet has {len(problem_numbers)} problems; give one "
            "answer per problem (None for a blank) or a mapping {problem: answer}"
        )
    return {n: (f"answers[{i}] (problem {n})", a) for i, (n, a) in enumerate(zip(problem_numbers, listed))}


def _answer_number(answer: Any, where: str) -> Decimal:
    """A student's answer as a Decimal (NaN and infinity kept); ValueError for a non-number."""
    if isinstance(answer, Decimal):
        return answer
    if isinstance(answer, (bool, np.bool_)) or not isinstance(answer, numbers.Real):
        raise ValueError(f"{where} must be a number; got {v.show(answer)}")
    try:
        return Decimal(repr(float(answer)))
    except OverflowError:  # an int or Fraction beyond float range: a number, just not the answer
        return Decimal("Infinity")


def _rounding_slip(given: Decimal, exact: float, decimals: int) -> bool:
    if any(given == round_half_up(exact, places) for places in range(decimals)):
        return True
    if decimals == 0:
        return False
    return abs(given - Decimal(repr(float(exact)))) <= 3 * Decimal(10) ** -decimals


def _places(decimals: int) -> str:
    """How the sheet names its rounding: "소수 3자리", or "정수" for whole numbers."""
    return f"소수 {decimals}자리" if decimals else "정수"


def _shown(answer: Any) -> str:
    """A student's answer for the report: blank for None, otherwise as a short number."""
    if answer is None:
        return ""
    if isinstance(answer, Decimal):
        return f"{answer:g}"
    try:
        return f"{float(answer):g}"
    except OverflowError:  # 10**400 as 1e+400, not 401 digits
        if isinstance(answer, numbers.Rational):
            return f"{(Decimal(answer.numerator) / Decimal(answer.denominator)).normalize():.6g}"
        return v.show(answer)


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
                _shown(r["answer"]),
                hand_text(r["key"], self.decimals),
                _exact4(r["exact"]),
                r["verdict"],
            ]
            for r in self.rows
        ]
        return headers, cells

    def __str__(self) -> str:
        headers, cells = self._cells()
        aligns = ["right", "left", "right", "right", "right", "left"]
        lines = [text_table(headers, cells, aligns)]
        lines.append(f"정답 {self.score} / {len(self.rows)}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        headers, cells = self._cells()
        return html_table(headers, cells) + f"<p>정답 {self.score} / {len(self.rows)}</p>"


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
    count : positive int, at most ``MAX_COUNT`` (1000)
        Number of problems.
    metrics : list of names or a comma-separated string
        ``ndcg, dcg, precision, recall, f1, hit-rate, rr, ap, mr, mrr, map``
        (function names such as ``average_precision`` work too).
    decimals : int from 0 to 15
        Decimals of the hand calculation and of the answers; 0 rounds to whole numbers.

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
        raise ValueError(f"seed must be a non-negative integer; got {v.show(seed)}")
    if (
        isinstance(count, (bool, np.bool_))
        or not isinstance(count, numbers.Integral)
        or not 1 <= count <= MAX_COUNT
    ):
        raise ValueError(
            f"count must be a positive integer up to {MAX_COUNT} (one sheet, not a book); got {v.show(count)}"
        )
    count = int(count)
    decimals = v.check_decimals(decimals)
    names = [m.strip() for m in metrics.split(",")] if isinstance(metrics, str) else list(metrics)
    if not names:
        raise ValueError("metrics is empty; name at least one metric, e.g. 'ndcg,ap,rr'")
    chosen = []
    for name in names:
        if not isinstance(name, str) or name not in SHEET_METRICS:
            choices = "ndcg, dcg, precision, recall, f1, hit-rate, rr, ap, mr, mrr, map"
            raise ValueError(f"metrics must be chosen from {choices}; got {v.show(name)}")
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
            body.append(html_table(block[1], block[2]))
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
