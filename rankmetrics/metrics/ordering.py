"""From scores to a ranking: the bridge to scikit-learn's ``y_true, y_score`` idiom."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_finite, check_grades, to_float_array
from ..i18n import _


def order_by_score(grades: Any, scores: Any) -> np.ndarray:
    """Reorder grades by descending score, giving grades in ranked order.

    Ties keep their input order (a stable sort), so the result is
    reproducible. Note that this is *not* trec_eval's rule (ties broken by
    document id, descending) nor scikit-learn's (``dcg_score`` averages the
    gain over tied items by default).

    Parameters
    ----------
    grades : 1-D or 2-D array of non-negative grades, one per item
    scores : array of the same shape, the model's scores

    Returns
    -------
    numpy.ndarray of the grades, highest score first (per row for 2-D input).

    Examples
    --------
    >>> order_by_score([3, 0, 2], [0.2, 0.9, 0.5]).tolist()
    [0.0, 2.0, 3.0]
    >>> order_by_score([1, 2, 3], [0.5, 0.5, 0.1]).tolist()  # a tie keeps input order
    [1.0, 2.0, 3.0]
    """
    values = check_grades(grades, "grades")
    score_array = to_float_array(scores, "scores")
    if score_array.shape != values.shape:
        raise ValueError(
            _("scores must have the same shape as grades {shape}; got {shape_2}").format(
                shape=values.shape, shape_2=score_array.shape
            )
        )
    check_finite(score_array, "scores", scores)
    order = np.argsort(-score_array, axis=-1, kind="stable")
    return np.take_along_axis(values, order, axis=-1)
