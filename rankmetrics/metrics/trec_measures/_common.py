"""What trec_eval's measures share: reading their arrays, their parameters, their declaration.

:func:`trec_measure` plays the part of trec_eval's ``TREC_MEAS`` struct at the
end of each ``m_*.c`` file: the measure's names, its Korean title and the
hook that computes it, with what every measure of a judged run has in common
filled in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...i18n import N_, _, ngettext
from ...registry import Columns, Metric
from ..conventions import trec_gains
from ..ties import tie_mean


def as_rows(x: Any, dtype: Any = float) -> np.ndarray:
    return np.atleast_2d(np.asarray(x, dtype=dtype))


def per_query(x: Any) -> np.ndarray:
    return np.atleast_1d(np.asarray(x, dtype=float))


def spread(values: np.ndarray, where: tuple[np.ndarray, np.ndarray], shape: tuple[int, int]) -> np.ndarray:
    """``values`` placed at the ranks ``where`` (rows, columns) of an array of zeros.

    A measure that adds a term only at some ranks (bpref and infAP at the
    relevant ones) computes the terms there alone, then sums this array as it
    would sum the terms of every rank: the same sum, term for term.
    """
    terms = np.zeros(shape)
    terms[where] = values
    return terms


# ---------------------------------------------------------------- parameters


def parameter_numbers(
    parameter: tuple | None, name: str, default: tuple[float, ...], count: int | None
) -> tuple:
    if parameter is None:
        return default
    if count is not None and len(parameter) != count:
        raise ValueError(
            ngettext(
                "{name} takes {count} number; got {n_parameter}: {parameter}",
                "{name} takes {count} numbers; got {n_parameter}: {parameter}",
                count,
            ).format(
                name=name,
                count=count,
                n_parameter=len(parameter),
                parameter=parameter,
            )
        )
    return tuple(parameter)


def out_of_range(
    values: Any,
    what: str,
    low: float | None = None,
    high: float | None = None,
    *,
    open_low: bool = False,
    open_high: bool = False,
) -> str | None:
    """Why a value lies outside a measure's range, naming ``what``; None when every one is inside.

    A measure's ``check_parameter`` (see :class:`~rankmetrics.registry.Metric`) is
    built from this, so every measure words its range the same way.

    Examples
    --------
    >>> out_of_range([0.5, 1.5], "a recall level", 0, 1)
    'a recall level must be in [0, 1]; got 1.5'
    >>> out_of_range([-0.5], "beta", 0) is None, out_of_range([0.2], "the multiple of R", 0, open_low=True)
    (False, None)
    """
    if low is not None and high is not None:
        interval = f"{'(' if open_low else '['}{low:g}, {high:g}{')' if open_high else ']'}"
        message = N_("{what} must be in {interval}; got {x:g}")
    else:
        interval = (
            f"{'>' if open_low else '>='} {low:g}"
            if low is not None
            else f"{'<' if open_high else '<='} {high:g}"
        )
        message = N_("{what} must be {interval}; got {x:g}")
    for x in values:
        below = low is not None and (x < low or (open_low and x == low))
        above = high is not None and (x > high or (open_high and x == high))
        if below or above:
            return _(message).format(what=_(what), interval=interval, x=x)
    return None


def required_level(parameter: Any, name: str) -> float:
    if parameter is None:
        raise AssertionError(_("{name} needs its level").format(name=name))  # parse_metric asks for one
    return parameter


def trec_gain_arrays(c: Columns, gains: dict[int, float] | None) -> tuple[np.ndarray, np.ndarray]:
    """The run's gains and the ideal gains of a group of queries, with a gain map (see trec_gains).

    Computed once per gain map for the group (G, ndcg_rel, Rndcg and rbp share trec_eval's
    default gains); the arrays are shared, so read them, never write into them.
    """
    return c.shared(_trec_gains, tuple(sorted((gains or {}).items())))


def _trec_gains(c: Columns, levels: tuple[tuple[int, float], ...]) -> tuple[np.ndarray, np.ndarray]:
    return trec_gains(c.graded, c.judged, c.judged_grades, dict(levels))


def tie_averaged(c: Columns, values: np.ndarray) -> np.ndarray:
    """ties="average": each rank's value replaced by its tie group's mean (its expectation)."""
    return values if c.tie_start is None else tie_mean(values, c.tie_start, c.tie_end)


# ---------------------------------------------------------------- declaration


def trec_measure(
    name: str,
    trec_name: str | None,
    label: str,
    title: str,
    evaluate: Callable[..., np.ndarray],
    **overrides: Any,
) -> Metric:
    """The :class:`~rankmetrics.registry.Metric` of one trec_eval measure of a judged run.

    What they share: no public function (the formula takes the ranked arrays
    of :func:`rankmetrics.evaluate`, which calls ``evaluate(columns, k)``),
    ``inputs="trec"`` and no cutoff. ``overrides`` sets any other field
    (``cutoff="required"``, ``summary="sum"``, ``parameter="gains"`` ...).
    The package registers the result (see :mod:`rankmetrics.metrics.trec_measures`).

    Examples
    --------
    >>> m = trec_measure("set_precision", "set_P", "set_P", "집합 정밀도", lambda c, k: c.n_retrieved)
    >>> m.inputs, m.cutoff, m.trec_name, m.function
    ('trec', 'none', 'set_P', None)
    """
    fields = {"inputs": "trec", "cutoff": "none", "trec_name": trec_name, **overrides}
    return Metric(name, None, label=label, title=title, evaluate=evaluate, **fields)
