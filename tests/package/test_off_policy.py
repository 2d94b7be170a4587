"""IPS and SNIPS: the toy of issue 31 §4 by hand, plain Python on random logs, bad input.

Toy: six logged rounds, the logging policy shows the logged item with probability
0.8, 0.8, 0.2, 0.8, 0.2, 0.8 and the target policy with 0.2, 0.2, 0.8, 0.2, 0.8, 0.2;
weights 0.25, 0.25, 4, 0.25, 4, 0.25; rewards 1, 1, 1, 0, 0, 0.
"""

from __future__ import annotations

import numpy as np
import pytest

import rankmetrics as rm

LOGGING = [0.8, 0.8, 0.2, 0.8, 0.2, 0.8]
TARGET = [0.2, 0.2, 0.8, 0.2, 0.8, 0.2]
REWARDS = [1, 1, 1, 0, 0, 0]


def test_toy():
    # IPS: (0.25 + 0.25 + 4) / 6 = 0.75; SNIPS: 4.5 / (0.25 · 4 + 4 · 2) = 4.5 / 9 = 0.5
    assert rm.ips(REWARDS, TARGET, LOGGING) == pytest.approx(0.75)
    assert rm.snips(REWARDS, TARGET, LOGGING) == pytest.approx(0.5)
    assert isinstance(rm.ips(REWARDS, TARGET, LOGGING), float)
    # clipped at 2: weights 0.25, 0.25, 2, 0.25, 2, 0.25; IPS 2.5 / 6, SNIPS 2.5 / 5
    assert rm.ips(REWARDS, TARGET, LOGGING, clip=2) == pytest.approx(2.5 / 6)
    assert rm.snips(REWARDS, TARGET, LOGGING, clip=2) == pytest.approx(0.5)
    # the same policy logged and evaluated: every weight 1, both the plain mean 0.5
    assert rm.ips(REWARDS, LOGGING, LOGGING) == pytest.approx(0.5)


@pytest.mark.parametrize("seed", range(10))
def test_against_plain_python(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 50))
    rewards = rng.integers(0, 2, size=n).tolist()
    target, logging = rng.uniform(0.01, 1, size=n).tolist(), rng.uniform(0.01, 1, size=n).tolist()
    weights = [t / g for t, g in zip(target, logging)]
    assert rm.ips(rewards, target, logging) == pytest.approx(sum(w * r for w, r in zip(weights, rewards)) / n)
    assert rm.snips(rewards, target, logging) == pytest.approx(
        sum(w * r for w, r in zip(weights, rewards)) / sum(weights)
    )
    clipped = [min(w, 3.0) for w in weights]
    assert rm.ips(rewards, target, logging, clip=3.0) == pytest.approx(
        sum(w * r for w, r in zip(clipped, rewards)) / n
    )


@pytest.mark.parametrize(
    "args, kwargs, words",
    [
        ((REWARDS, TARGET, [0.8, 0.8, 0.2, 0.8, 0.2, 0.0]), {}, r"logging_p\[5\] is 0.0"),
        ((REWARDS, [0.2, 0.2, 1.5, 0.2, 0.8, 0.2], LOGGING), {}, r"target_p\[2\] is 1.5"),
        ((REWARDS, TARGET, LOGGING[:5]), {}, "got lengths"),
        (([], [], []), {}, "rewards must be a non-empty"),
        (([1, float("nan"), 1, 0, 0, 0], TARGET, LOGGING), {}, "rewards must be finite"),
        ((REWARDS, TARGET, LOGGING), {"clip": 0}, "clip must be a positive number"),
    ],
)
def test_bad_input(args, kwargs, words):
    for estimator in (rm.ips, rm.snips):
        with pytest.raises(ValueError, match=words):
            estimator(*args, **kwargs)
