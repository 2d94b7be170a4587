"""Rating-prediction errors: MSE, MAE, RMSE. They look at values, not order."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._validation import check_ratings


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
    truth, pred = check_ratings(y_true, y_pred)
    return float(np.mean((pred - truth) ** 2))


def mae(y_true: Any, y_pred: Any) -> float:
    """Mean absolute error: the mean of |prediction - truth|, in rating units.

    Examples
    --------
    >>> mae([5, 4, 3, 2, 1], [4, 5, 2, 1, 5])
    1.6
    """
    truth, pred = check_ratings(y_true, y_pred)
    return float(np.mean(np.abs(pred - truth)))


def rmse(y_true: Any, y_pred: Any) -> float:
    """Root mean squared error: the square root of :func:`mse`, back in rating units.

    Examples
    --------
    >>> rmse([5, 4, 3, 2, 1], [4, 5, 2, 1, 5])
    2.0
    """
    return math.sqrt(mse(y_true, y_pred))
