"""Rating-prediction errors: MSE, MAE, RMSE. They look at values, not order.

The errors are computed relative to the largest one, scaled by a power of two
(exact in binary floating point), as ``math.hypot`` does: so RMSE of an error
of 1e200 is 1e200, not inf, although its square 1e400 is not a float. When
the result itself lies beyond the float range (MSE of that error), the
functions raise a ValueError instead of returning inf.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._validation import check_float_range, check_ratings
from ..i18n import N_
from ..registry import Metric, register

_NAMES = "y_true, y_pred"


def _scaled_errors(y_true: Any, y_pred: Any) -> tuple[np.ndarray, int]:
    """Errors ``y_pred - y_true`` divided by 2**shift, the largest in [0.5, 1); and shift.

    Without an overflow the scaled errors are the plain errors to the last bit,
    only moved by a power of two.
    """
    truth, pred = check_ratings(y_true, y_pred)
    shift = 0
    with np.errstate(over="ignore"):
        errors = pred - truth
    if not np.all(np.isfinite(errors)):  # 1e308 - (-1e308): halve first, which is exact
        errors, shift = pred / 2 - truth / 2, 1
    largest = float(np.max(np.abs(errors)))
    if largest == 0:
        return errors, 0
    exponent = math.frexp(largest)[1]
    return np.ldexp(errors, -exponent), shift + exponent


def _mean_squared(y_true: Any, y_pred: Any) -> tuple[float, int]:
    """MSE as (mean of the squared scaled errors, binary exponent of the errors' scale)."""
    errors, shift = _scaled_errors(y_true, y_pred)
    with np.errstate(under="ignore"):  # errors below 1e-154 of the largest add nothing
        return float(np.mean(errors**2)), shift


def mse(y_true: Any, y_pred: Any) -> float:
    """Mean squared error: the mean of (prediction - truth) squared.

    Squaring makes one big miss dominate: errors 1, 1, 1, 1, 4 give 20 / 5 = 4.

    Parameters
    ----------
    y_true, y_pred : 1-D sequences of numbers of the same length

    Returns
    -------
    float

    See Also
    --------
    mae, rmse

    Examples
    --------
    >>> mse([5, 4, 3, 2, 1], [4, 5, 2, 1, 5])
    4.0
    """
    mean, shift = _mean_squared(y_true, y_pred)
    return float(check_float_range(mean, 2 * shift, _NAMES, N_("the mean squared error")))


def mae(y_true: Any, y_pred: Any) -> float:
    """Mean absolute error: the mean of |prediction - truth|, in rating units.

    Examples
    --------
    >>> mae([5, 4, 3, 2, 1], [4, 5, 2, 1, 5])
    1.6
    """
    errors, shift = _scaled_errors(y_true, y_pred)
    return float(check_float_range(np.mean(np.abs(errors)), shift, _NAMES, N_("the mean absolute error")))


def rmse(y_true: Any, y_pred: Any) -> float:
    """Root mean squared error: the square root of :func:`mse`, back in rating units.

    Examples
    --------
    >>> rmse([5, 4, 3, 2, 1], [4, 5, 2, 1, 5])
    2.0
    """
    mean, shift = _mean_squared(y_true, y_pred)
    return float(check_float_range(math.sqrt(mean), shift, _NAMES, N_("the root mean squared error")))


# ---------------------------------------------------------------- registration

for _function, _title in (
    (mse, N_("MSE: the mean of the squared rating errors")),
    (mae, N_("MAE: the mean of the absolute rating errors")),
    (rmse, N_("RMSE: the square root of MSE (in rating units)")),
):
    register(
        Metric(
            _function.__name__,
            _function,
            label=_function.__name__.upper(),
            title=_title,
            inputs="ratings",
            cutoff="none",
            command=_function.__name__,
        )
    )
