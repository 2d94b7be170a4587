"""Marking a student's answers against a worksheet's key."""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np

from ... import _validation as v
from ...tables import html_table, text_table
from ..explain.steps import hand_text, round_half_up

__all__ = ["GradeReport", "grade"]


def grade(problems: Sequence[Any], decimals: int, answers: Mapping[int, Any] | Sequence[Any]) -> GradeReport:
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
    given = _answers_by_number(answers, [p.number for p in problems])
    d = decimals
    rows = []
    for problem in problems:
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
                f"{r['exact']:.4f}",
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
