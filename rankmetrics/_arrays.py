"""Two array chores every metric module needs: dividing without 0/0, and padding rows.

A query without relevant documents has a denominator of 0 in almost every
metric; trec_eval scores it 0 rather than NaN, and so does the package (mean
rank, which has no value there, fills NaN). Ranked lists of different lengths
are padded on the right to one width, so a group of queries is one 2-D array.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def safe_divide(numerator: Any, denominator: Any, fill: float = 0.0, *, positive: bool = False) -> np.ndarray:
    """numerator / denominator element-wise, ``fill`` where the denominator is 0.

    Both sides are read as float arrays and broadcast against each other.
    With ``positive=True`` only a denominator > 0 divides (a negative one gets
    ``fill`` too): the rule of the metric modules, whose denominators are
    counts or DCGs. Without it any non-zero denominator divides, as
    trec_eval's measures do.

    Examples
    --------
    >>> safe_divide([1.0, 2.0, 3.0], [2.0, 0.0, -1.0])
    array([ 0.5,  0. , -3. ])
    >>> safe_divide([1.0, 2.0, 3.0], [2.0, 0.0, -1.0], np.nan, positive=True)
    array([0.5, nan, nan])
    """
    numerator, denominator = np.broadcast_arrays(np.asarray(numerator, float), np.asarray(denominator, float))
    out = np.full(numerator.shape, fill)
    np.divide(numerator, denominator, out=out, where=denominator > 0 if positive else denominator != 0)
    return out


def pad_right(rows: np.ndarray | Sequence[np.ndarray], width: int | None = None, fill: Any = 0) -> np.ndarray:
    """Rows padded on the right with ``fill`` up to ``width`` columns (the widest row's when None).

    A 2-D array at least ``width`` wide is returned as it is (not copied, not
    cut); a narrower one gets columns of ``fill`` in its own dtype. A sequence
    of 1-D rows of any lengths becomes one float array.

    Examples
    --------
    >>> pad_right(np.array([[1, 2]]), 4)
    array([[1, 2, 0, 0]])
    >>> pad_right([np.array([3.0]), np.array([2.0, 1.0])])
    array([[3., 0.],
           [2., 1.]])
    """
    if isinstance(rows, np.ndarray) and rows.ndim == 2:
        if width is None or rows.shape[1] >= width:
            return rows
        return np.pad(rows, ((0, 0), (0, width - rows.shape[1])), constant_values=fill)
    if width is None:
        width = max(row.size for row in rows)
    out = np.full((len(rows), width), fill, dtype=float)
    for i, row in enumerate(rows):
        out[i, : row.size] = row
    return out


def sequential_sum(values: Any, axis: int = -1) -> np.ndarray:
    """The sum along ``axis``, adding one term at a time from the first, as a C loop does.

    numpy's ``sum`` adds pairwise, which is more accurate but not trec_eval's
    order: trec_eval adds AP's precisions rank by rank and the queries' values
    one query after another, and on a value this close to a 4-decimal boundary
    (``%6.4f``) the two orders print different digits. ``cumsum`` adds in order.

    Examples
    --------
    >>> terms = [0.1] * 10
    >>> float(sequential_sum(terms)) == sum(terms)  # Python's sum adds in order too
    True
    >>> sequential_sum(np.zeros((2, 0))).tolist()
    [0.0, 0.0]
    """
    values = np.asarray(values, dtype=float)
    if values.shape[axis] == 0:
        return values.sum(axis=axis)
    return np.take(np.cumsum(values, axis=axis), -1, axis=axis)
