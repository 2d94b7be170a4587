"""Drawing a worksheet's problems from a seed."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from ... import _validation as v
from ...i18n import LANGUAGES, _, use_language
from ...registry import METRICS
from ..catalogue import where
from ..explain import explain
from ..numbers import round_half_up
from .render import QUERIES, exercise, graded, of_queries
from .sheet import Problem, Worksheet

__all__ = ["DEFAULT_METRICS", "MAX_COUNT", "make_worksheet", "sheet_metrics", "worksheet_commands"]


def sheet_metrics() -> dict[str, str]:
    """Names accepted in ``metrics`` (command-line names and function names) -> function name.

    Every metric whose teaching entry has ``worksheet=Exercise(...)``, read on each call.
    """
    sheets = [METRICS[t.name] for t in where(worksheet=bool)]
    return {name: m.name for m in sheets for name in (m.command, m.name) if name}


def worksheet_commands() -> list[str]:
    """The command-line names of the metrics worksheets use, in registry order (the CLI's help)."""
    return [METRICS[t.name].command for t in where(worksheet=bool)]


#: The metrics of a sheet when none are named (the command line's default too).
DEFAULT_METRICS = ("ndcg", "ap", "rr")
_POOL = "ABCDEFGH"
#: The most problems one sheet holds. A class sheet has a handful; a thousand already takes a
#: second to draw and megabytes to print, and a typo such as ``--count 60000000`` would otherwise
#: run for hours before writing anything.
MAX_COUNT = 1000
#: How often a problem is drawn again when its answer repeats an earlier problem of the same metric.
#: Two RR problems that both answer 0.500 teach nothing the second time; but HR has only two
#: answers and RR few, so after this many tries a repeat is accepted, and that metric is not
#: redrawn again (a long sheet stays as fast as before).
_REDRAWS = 12


def make_worksheet(
    seed: int,
    count: int = 6,
    metrics: Sequence[str] | str = DEFAULT_METRICS,
    *,
    decimals: int = 3,
    language: str = "ko",
    label: str = "",
) -> Worksheet:
    """Draw a worksheet of ``count`` problems, cycling through ``metrics``.

    Problems of the same metric get different answers where the metric has enough of them
    (HR@K is 0 or 1, so a third HR problem repeats one).

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
    language : {"ko", "en"}
        The language of the sheet, the key and the grading. Korean unless told: worksheets
        are made for Korean classrooms, whatever :func:`rankmetrics.set_language` says.
    label : str, optional
        Printed in front of the title of the sheet and of the key, e.g. the lesson the sheet
        belongs to, so that a teacher with several similar sheets can tell them apart on paper.

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
    if language not in LANGUAGES:
        raise ValueError(
            _("language must be one of {choices}; got {value}").format(
                choices=", ".join(LANGUAGES), value=v.show(language)
            )
        )
    # Bad input is refused in the package's language, as everywhere; the sheet is in its own.
    seed, count, decimals, chosen = _checked(seed, count, metrics, decimals)
    if not isinstance(label, str) or "\n" in label:
        raise ValueError(
            _("label must be one line of text, e.g. a lesson's name; got {value}").format(value=v.show(label))
        )
    with use_language(language):
        return _draw(seed, count, decimals, chosen, language, label.strip())


def _checked(seed: Any, count: Any, metrics: Any, decimals: Any) -> tuple[int, int, int, list[str]]:
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(_("seed must be a non-negative integer; got {value}").format(value=v.show(seed)))
    if (
        isinstance(count, (bool, np.bool_))
        or not isinstance(count, numbers.Integral)
        or not 1 <= count <= MAX_COUNT
    ):
        raise ValueError(
            _("count must be a positive integer up to {most} (one sheet, not a book); got {value}").format(
                most=MAX_COUNT, value=v.show(count)
            )
        )
    count = int(count)
    decimals = v.check_decimals(decimals)
    names = [m.strip() for m in metrics.split(",")] if isinstance(metrics, str) else list(metrics)
    if not names:
        raise ValueError(_("metrics is empty; name at least one metric, e.g. 'ndcg,ap,rr'"))
    accepted = sheet_metrics()
    chosen = []
    for name in names:
        if not isinstance(name, str) or name not in accepted:
            raise ValueError(
                _("metrics must be chosen from {choices}; got {value}").format(
                    choices=", ".join(worksheet_commands()), value=v.show(name)
                )
            )
        chosen.append(accepted[name])
    return int(seed), count, decimals, chosen


def _draw(seed: int, count: int, decimals: int, chosen: list[str], language: str, label: str) -> Worksheet:
    rng = np.random.default_rng(int(seed))
    answered: dict[str, set] = {}  # metric -> the answers its problems already have
    exhausted: set[str] = set()  # metrics whose answers ran out: no more redraws for them
    problems = []
    for i in range(count):
        metric = chosen[i % len(chosen)]
        seen = answered.setdefault(metric, set())
        for _attempt in range(1 if metric in exhausted else _REDRAWS):
            x, k, kwargs = _draw_inputs(metric, rng)
            # the metric itself, not explain: a redraw costs one cheap call
            answer = round_half_up(METRICS[metric].function(x, k, **kwargs), decimals)
            if answer not in seen:
                break
        else:
            exhausted.add(metric)
        seen.add(answer)
        explanation = explain(metric, x, k, decimals=decimals, **kwargs)
        problems.append(Problem(i + 1, metric, x, k, kwargs, explanation))
    return Worksheet(int(seed), decimals, tuple(problems), language, label=label)


def _draw_inputs(metric: str, rng: np.random.Generator) -> tuple[Any, int | None, dict[str, Any]]:
    """One problem's input: (x, k, keywords) for the metric function."""
    sheet = exercise(metric)
    if of_queries(metric):
        queries = []
        for _query in range(QUERIES):
            hits = rng.random(4) < 0.35
            if not hits.any():
                hits[int(rng.integers(4))] = True
            queries.append([int(h) for h in hits])
        return queries, None, {}
    n = int(rng.integers(4, 7))
    pool = [str(item) for item in rng.permutation(list(_POOL))]
    ranking, unlisted = pool[:n], pool[n:]
    kwargs: dict[str, Any] = {}
    if graded(metric):
        grades = [int(g) for g in rng.integers(0, 4, size=n)]
        if not any(grades):
            grades[int(rng.integers(n))] = int(rng.integers(1, 4))
        relevant = {item: g for item, g in zip(ranking, grades) if g > 0}
        if sheet.unlisted and rng.random() < 1 / 3:
            relevant[unlisted[0]] = int(rng.integers(1, 4))
        if rng.random() < 0.25:
            kwargs["gain"] = "exponential"
    else:
        hits = rng.random(n) < 0.4
        if not hits.any():
            hits[int(rng.integers(n))] = True
        relevant = {item: 1 for item, h in zip(ranking, hits) if h}
        if sheet.unlisted:
            for item in unlisted[: int(rng.integers(0, 3))]:
                relevant[item] = 1
    k = int(rng.integers(3, n + 1)) if sheet.cutoff else None
    return ranking, k, {"relevant": relevant, **kwargs}
