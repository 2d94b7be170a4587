"""Marking a student's answers against a worksheet's key."""

from __future__ import annotations

import html
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np

from ... import _validation as v
from ...i18n import N_, _, use_language
from ...tables import html_table, text_table
from ..numbers import hand_text, round_half_up

__all__ = ["GradeReport", "grade", "grade_lists"]

# The verdicts, as message ids: a report shows them in its language ("정답" in Korean).
BLANK, WRONG, RIGHT, SLIP = N_("blank"), N_("wrong"), N_("right"), N_("rounding slip")


def grade(
    problems: Sequence[Any], decimals: int, answers: Mapping[int, Any] | Sequence[Any], language: str = "ko"
) -> GradeReport:
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

    The verdicts are in ``language`` (Korean unless told); a refused answer is refused in
    the package's language (:func:`rankmetrics.language`), as every other bad input.
    """
    given = _answers_by_number(answers, [p.number for p in problems])
    numbers_given = {}
    for problem in problems:
        where, answer = given.get(problem.number, ("", None))
        numbers_given[problem.number] = (answer, None if answer is None else _answer_number(answer, where))
    d = decimals
    rows = []
    for problem in problems:
        answer, number = numbers_given[problem.number]
        if number is None or number.is_nan():
            verdict = BLANK
        elif abs(number - Decimal(repr(float(problem.exact)))) > 1:
            # Neither right nor a slip (both lie within 0.5 of the exact value). Deciding
            # here also keeps infinity and 1e30 away from rounding, which cannot hold them.
            verdict = WRONG
        else:
            mine = round_half_up(number, d)
            if mine in (round_half_up(problem.answer, d), round_half_up(problem.exact, d)):
                verdict = RIGHT
            elif _rounding_slip(number, problem.exact, d):
                verdict = SLIP
            else:
                verdict = WRONG
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
    with use_language(language):
        for row in rows:
            row["verdict"] = _(row["verdict"])
    return GradeReport(rows, d, language)


@dataclass(frozen=True)
class _Asked:
    """One value a problem asks for, in the shape :func:`grade` reads a problem."""

    number: int
    label: str
    answer: float
    exact: float


def grade_lists(
    asked: Sequence[tuple[int, Mapping[str, float]]],
    decimals: int,
    answers: Mapping[int, Any] | Sequence[Any],
    language: str = "ko",
) -> GradeReport:
    """Mark answers to problems that each ask for several values (the recommender sheets).

    ``asked``: (problem number, {label: exact value}) per problem, in order. ``answers``: a mapping
    {problem number: list of values} or a list of such lists in problem order, each list in the
    order its problem asks; ``None`` for a blank problem or value. Each value is marked as
    :func:`grade` marks one answer, against the exact value rounded to ``decimals``; the report
    has one row per asked value, numbered by its problem.
    """
    numbers_of_problems = [number for number, _values in asked]
    by_problem = _answers_by_number(answers, numbers_of_problems)
    parts: list[_Asked] = []
    given: dict[int, Any] = {}
    owners: list[int] = []
    for index, (number, values) in enumerate(asked):
        _where, answer = by_problem.get(number, ("", None))
        where = f"answers[{number!r}]" if isinstance(answers, Mapping) else f"answers[{index}]"
        if answer is None:
            answer = [None] * len(values)
        elif (
            isinstance(answer, (str, bytes)) or not isinstance(answer, Sequence) or len(answer) != len(values)
        ):
            raise ValueError(
                _("{where} must be a list of {count} values ({names}); got {value}").format(
                    where=where, count=len(values), names=", ".join(values), value=v.show(answer)
                )
            )
        for i, ((label, exact), value) in enumerate(zip(values.items(), answer)):
            if value is not None:
                _answer_number(value, f"{where}[{i}]")  # refuses a string, naming where it stands
            parts.append(_Asked(len(parts) + 1, label, float(round_half_up(exact, decimals)), exact))
            given[len(parts)] = value
            owners.append(number)
    report = grade(parts, decimals, given, language)
    rows = [{**row, "number": number} for row, number in zip(report.rows, owners)]
    return GradeReport(rows, report.decimals, report.language)


def _answers_by_number(answers: Any, problem_numbers: list[int]) -> dict[int, tuple[str, Any]]:
    """Problem number -> (where the answer was given, e.g. "answers[0] (problem 1)", the answer)."""
    if isinstance(answers, Mapping):
        given = {}
        for key, answer in answers.items():
            if isinstance(key, (bool, np.bool_)) or key not in problem_numbers:
                raise ValueError(
                    _(
                        "answers has an answer for problem {value}, but the sheet's problems are "
                        "numbered 1 to {last}"
                    ).format(value=v.show(key), last=len(problem_numbers))
                )
            given[int(key)] = (f"answers[{key!r}]", answer)
        return given
    if isinstance(answers, (str, bytes)):
        raise ValueError(
            _(
                "answers must be a list in problem order or a mapping {{problem: answer}}, not a string; got {value}"
            ).format(value=v.show(answers))
        )
    try:
        listed = list(answers)
    except TypeError:
        raise ValueError(
            _("answers must be a list in problem order or a mapping {{problem: answer}}; got {value}").format(
                value=v.show(answers)
            )
        ) from None
    if len(listed) != len(problem_numbers):
        raise ValueError(
            _(
                "answers has {given} entries but the sheet has {problems} problems; give one "
                "answer per problem (None for a blank) or a mapping {{problem: answer}}"
            ).format(given=len(listed), problems=len(problem_numbers))
        )
    return {
        n: (_("answers[{index}] (problem {number})").format(index=i, number=n), a)
        for i, (n, a) in enumerate(zip(problem_numbers, listed))
    }


def _answer_number(answer: Any, where: str) -> Decimal:
    """A student's answer as a Decimal (NaN and infinity kept); ValueError for a non-number."""
    if isinstance(answer, Decimal):
        return answer
    if isinstance(answer, (bool, np.bool_)) or not isinstance(answer, numbers.Real):
        raise ValueError(_("{where} must be a number; got {value}").format(where=where, value=v.show(answer)))
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
    language: str = "ko"

    @property
    def score(self) -> int:
        with use_language(self.language):
            right = _(RIGHT)
        return sum(row["verdict"] == right for row in self.rows)

    def _cells(self) -> tuple[list[str], list[list[str]]]:
        headers = [_("problem"), _("metric"), _("student's answer"), _("key"), _("exact value"), _("verdict")]
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

    def _total(self) -> str:
        return _("right {score} / {problems}").format(score=self.score, problems=len(self.rows))

    def __str__(self) -> str:
        with use_language(self.language):
            headers, cells = self._cells()
            aligns = ["right", "left", "right", "right", "right", "left"]
            return "\n".join([text_table(headers, cells, aligns), self._total()])

    def _repr_html_(self) -> str:
        with use_language(self.language):
            headers, cells = self._cells()
            return html_table(headers, cells) + f"<p>{html.escape(self._total())}</p>"
