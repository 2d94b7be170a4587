"""Rank-biased precision and its residual (trec_eval ``m_rbp.c``, ``m_rbp_resid.c``).

Both take trec_eval's ``p=persistence`` parameter (``rbp_p=0.95``); rbp
also takes a ``level=gain`` map.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._arrays import safe_divide
from ...i18n import N_, _
from ...registry import Columns
from ..conventions import RBP_PERSISTENCE, gain_map
from ._common import as_rows, out_of_range, per_query, tie_averaged, trec_gain_arrays, trec_measure


def rank_biased_precision(gains: Any, persistence: float = RBP_PERSISTENCE) -> np.ndarray:
    """Rank-biased precision: (1 - p) · sum of gain_i · p^(i-1), a user going on with probability p.

    p = 0.9 (the default) models a user who reads about 10 documents;
    0.95 or 0.98 are closer to AP. Gains lie in [0, 1]: trec_eval rescales
    each query's level gains to [0, 1] when any lies outside (so a grade-4
    document earns 1 and a grade-1 one 0.25); :func:`rankmetrics.evaluate`
    does the same before calling this.

    Parameters
    ----------
    gains : 2-D array
        Per query and rank: the document's gain in [0, 1] (0 when unjudged).
    persistence : float
        p, the probability of reading on.

    References
    ----------
    Moffat & Zobel, "Rank-biased precision for measurement of retrieval effectiveness",
    ACM TOIS 27(1), 2008; trec_eval ``m_rbp.c``.

    Examples
    --------
    >>> rank_biased_precision([[1, 0, 1]], 0.5)  # 0.5 * (1 + 0.25)
    array([0.625])
    """
    gained = as_rows(gains)
    weights = _weights(gained.shape[1], persistence)
    return (1.0 - persistence) * (gained * weights[:-1]).sum(axis=1)


def _weights(width: int, persistence: float) -> np.ndarray:
    # p^0, p^1, ..., p^width, each the previous times p, as trec_eval computes them.
    return np.concatenate([[1.0], np.cumprod(np.full(width, persistence))])


def rbp_residual(unjudged: Any, n_retrieved: Any, persistence: float = RBP_PERSISTENCE) -> np.ndarray:
    """RBP's residual: how much RBP could still rise if every unjudged retrieved document were relevant.

        rbp_resid = p^n + (1 - p) · sum over unjudged ranks i of p^(i-1),

    n being the number retrieved (p^n is the weight of the ranks past the
    end). As in trec_eval, 0 when no retrieved document is unjudged.

    References
    ----------
    Moffat & Zobel, ACM TOIS 27(1), 2008; trec_eval ``m_rbp_resid.c``.

    Examples
    --------
    >>> rbp_residual([[0, 1]], [2], 0.5)  # 0.25 + 0.5 * 0.5
    array([0.5])
    """
    unj = as_rows(unjudged, bool)
    length = per_query(n_retrieved).astype(np.int64)
    weights = _weights(max(unj.shape[1], int(length.max(initial=0))), persistence)
    value = weights[length] + (1.0 - persistence) * (unj * weights[: unj.shape[1]]).sum(axis=1)
    return np.where(unj.any(axis=1), value, 0.0)


def _rbp_gains(c: Columns, gains: dict[int, float]) -> np.ndarray:
    """RBP's gains as trec_eval rescales them (m_rbp.c), per query.

    A query's level gains are those of every level 0..its highest grade
    (``gains.get(level, level)``) and of every mapped level. When the lowest
    is below 0 or the highest above 1, all are rescaled to [0, 1] by
    (gain - lowest) / (highest - lowest); unjudged documents keep 0.
    trec_eval leaves the running minimum and maximum without a start value;
    NIST's test outputs are matched by starting both at 0, as here.
    """
    top = np.max(np.where(c.judged_grades >= 0, np.floor(c.judged_grades), -1.0), axis=1, initial=-1.0)
    for level in sorted(gains, reverse=True):  # the highest level whose gain is the level itself
        top = np.where(top == level, top - 1, top)
    mapped = np.array(list(gains.values()), dtype=float)
    highest = np.maximum(np.maximum(top, 0.0), mapped.max(initial=0.0))
    lowest = min(0.0, float(mapped.min(initial=0.0)))
    run, _ = trec_gain_arrays(c, gains)
    rescale = ((lowest < 0) | (highest > 1))[:, None]
    rescaled = safe_divide(run - lowest, (highest - lowest)[:, None])
    return np.where(c.judged, np.where(rescale, rescaled, run), 0.0)


def _persistence_only(parameter: tuple | None, name: str) -> float:
    gains, p = gain_map(parameter, name, persistence=True)
    if gains:
        raise ValueError(
            _("{name} takes only p=persistence (it uses no gains); got {parameter}").format(
                name=name, parameter=parameter
            )
        )
    return p


def _persistence_out_of_range(parameter: tuple, name: str) -> str | None:
    """RBP's p must lie strictly between 0 and 1: the user reads on with probability p.

    Gains may be anything: RBP rescales them into [0, 1] (see _rbp_gains). A
    key that is neither p nor a grade level is refused here too.
    """
    _, p = gain_map(parameter, name, persistence=True)
    return out_of_range([p], N_("p (the persistence)"), 0, 1, open_low=True, open_high=True)


MEASURES = (
    trec_measure(
        "rank_biased_precision",
        "rbp",
        "RBP",
        N_("RBP: the sum of gains discounted by the chance p of reading on, × (1 - p)"),
        lambda c, k, gains=None: rank_biased_precision(
            tie_averaged(c, _rbp_gains(c, gain_map(gains, "rbp", persistence=True)[0])),
            gain_map(gains, "rbp", persistence=True)[1],
        ),
        parameter="gains",
        check_parameter=lambda gains: _persistence_out_of_range(gains, "rbp"),
        averages_ties=True,  # a sum of per-rank terms: each rank earns its tie group's mean gain
        ir_name="RBP",
        ir_parameters=(("p", 0.8),),  # ir_measures' RBP defaults to p = 0.8, trec_eval's rbp to 0.9
    ),
    trec_measure(
        "rbp_residual",
        "rbp_resid",
        "rbp_resid",
        N_("RBP residual: the RBP that would be added if every unjudged document were relevant"),
        lambda c, k, gains=None: rbp_residual(
            c.unjudged, c.n_retrieved, _persistence_only(gains, "rbp_resid")
        ),
        parameter="gains",
        check_parameter=lambda gains: _persistence_out_of_range(gains, "rbp_resid"),
    ),
)
