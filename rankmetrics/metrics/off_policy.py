"""Off-policy estimates: what a new recommender would have earned, read from an old one's log.

The log holds, per round, the reward of the item the old (logging) policy
showed and the probability with which each policy shows that item. Weighting
each reward by ``w = target_p / logging_p`` turns the old policy's rounds into
an estimate for the new (target) one.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .. import _validation as v
from ..i18n import N_, _
from ..registry import Metric, register


def weighted_rewards(rewards: Any, target_p: Any, logging_p: Any, clip: Any) -> tuple[np.ndarray, np.ndarray]:
    """Checked (weights, rewards): equal lengths, finite rewards, probabilities in (0, 1]."""
    arrays = {}
    for name, value in (("rewards", rewards), ("target_p", target_p), ("logging_p", logging_p)):
        array = v.to_float_array(value, name)
        if array.ndim != 1 or array.size == 0:
            raise ValueError(
                _("{name} must be a non-empty 1-D sequence of numbers; got {value}").format(
                    name=name, value=v.show(value)
                )
            )
        v.check_finite(array, name, value)
        arrays[name] = array
    lengths = {name: array.size for name, array in arrays.items()}
    if len(set(lengths.values())) > 1:
        raise ValueError(
            _(
                "rewards, target_p and logging_p must have one entry per logged round each; got lengths {lengths}"
            ).format(lengths=lengths)
        )
    for name in ("target_p", "logging_p"):
        bad = (arrays[name] <= 0) | (arrays[name] > 1)
        if bad.any():
            at = int(np.flatnonzero(bad)[0])
            raise ValueError(
                _("{name} must hold probabilities in (0, 1]; {name}[{at}] is {value!r}").format(
                    name=name, at=at, value=float(arrays[name][at])
                )
            )
    weights = arrays["target_p"] / arrays["logging_p"]
    if clip is not None:
        if isinstance(clip, bool) or not isinstance(clip, numbers.Real) or not clip > 0:
            raise ValueError(
                _("clip must be a positive number or None; got {value}").format(value=v.show(clip))
            )
        weights = np.minimum(weights, float(clip))
    return weights, arrays["rewards"]


def ips(rewards: Any, target_p: Any, logging_p: Any, clip: float | None = None) -> float:
    """Inverse propensity scoring: the mean of ``w · r`` with ``w = target_p / logging_p``.

    Unbiased when the logging probabilities are right and never 0, but a few
    rounds the target favours and the log rarely showed get large weights and
    swing the estimate (its variance).

    Parameters
    ----------
    rewards : 1-D sequence of numbers
        The reward of each logged round (a click: 1, none: 0).
    target_p, logging_p : 1-D sequences of probabilities in (0, 1]
        The probability that the new (target) and the old (logging) policy show
        the logged item in that round.
    clip : positive float, optional
        Cap each weight at ``clip`` (clipped IPS): less variance, some bias.

    Returns
    -------
    float

    See Also
    --------
    snips

    References
    ----------
    Horvitz & Thompson, "A generalization of sampling without replacement from a
    finite universe", JASA 47, 1952; Li, Chu, Langford & Wang, "Unbiased offline
    evaluation of contextual-bandit-based news article recommendation
    algorithms", WSDM 2011.

    Examples
    --------
    >>> logging = [0.8, 0.8, 0.2, 0.8, 0.2, 0.8]
    >>> target = [0.2, 0.2, 0.8, 0.2, 0.8, 0.2]
    >>> ips([1, 1, 1, 0, 0, 0], target, logging)  # (0.25 + 0.25 + 4) / 6
    0.75
    """
    weights, values = weighted_rewards(rewards, target_p, logging_p, clip)
    return float(np.mean(weights * values))


def snips(rewards: Any, target_p: Any, logging_p: Any, clip: float | None = None) -> float:
    """Self-normalised IPS: ``Σ w · r / Σ w``, a weighted mean of the rewards.

    Dividing by the weights' sum instead of the number of rounds keeps the
    estimate within the rewards' range and tames the variance of :func:`ips`, at
    the price of a small bias.

    Parameters
    ----------
    rewards : 1-D sequence of numbers
    target_p, logging_p : 1-D sequences of probabilities in (0, 1]
    clip : positive float, optional
        Cap each weight at ``clip`` before both sums.

    Returns
    -------
    float

    See Also
    --------
    ips

    References
    ----------
    Swaminathan & Joachims, "The self-normalized estimator for counterfactual
    learning", NeurIPS 2015.

    Examples
    --------
    >>> logging = [0.8, 0.8, 0.2, 0.8, 0.2, 0.8]
    >>> target = [0.2, 0.2, 0.8, 0.2, 0.8, 0.2]
    >>> snips([1, 1, 1, 0, 0, 0], target, logging)  # 4.5 / 9
    0.5
    """
    weights, values = weighted_rewards(rewards, target_p, logging_p, clip)
    return float(np.sum(weights * values) / np.sum(weights))


# ---------------------------------------------------------------- registration

for _function, _label, _title in (
    (ips, "IPS", N_("IPS: the logged rewards weighted by target_p / logging_p, averaged")),
    (snips, "SNIPS", N_("SNIPS: the IPS weighted rewards divided by the sum of the weights")),
):
    register(
        Metric(_function.__name__, _function, label=_label, title=_title, inputs="rounds", cutoff="none")
    )
