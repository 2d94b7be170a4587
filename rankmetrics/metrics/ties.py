"""Tied scores averaged: each metric's expected value over every order of the tied documents.

A run that gives two documents the same score does not say which comes
first. trec_eval breaks the tie by document id, so renaming documents can
change a score. McSherry & Najork (ECIR 2008) instead take the *expected*
value of the metric over all orders of each group of tied documents, every
order equally likely; scikit-learn's ``ndcg_score`` and ``dcg_score`` do the
same by default (``ignore_ties=False``). :func:`rankmetrics.evaluate` does it
with ``ties="average"``.

Every formula here is exact, not sampled. The orders of different tie groups
are independent and, within a group of n documents of which r are relevant,
every position is relevant with probability r / n and every two positions are
both relevant with probability r(r - 1) / (n(n - 1)). So:

- **Linear metrics** (DCG, P@k, R@k, hits@k, judged@k, RBP, R-precision) are
  sums of per-rank terms; their expectation replaces each rank's gain by the
  mean gain of its tie group (McSherry & Najork's DCG and precision), cut at k
  *after* averaging, so a group that straddles the cutoff counts with the
  share of its ranks that lie above it.
- **AP** is a sum over ranks i of rel_i · (rel_1 + ... + rel_i) / i: a sum of
  single and pairwise terms, so its expectation follows from the two
  probabilities above (derived here; checked against every order of small
  random cases in the tests).
- **RR** and **Success@k** depend on the first relevant rank: hypergeometric
  probabilities that the first j documents of a group are all non-relevant.

Padding (ranks past the end of a list) forms groups of its own and is never
relevant.

References
----------
McSherry & Najork, "Computing Information Retrieval Performance Measures
Efficiently in the Presence of Tied Scores", ECIR 2008.
"""

from __future__ import annotations

import numpy as np


def tie_groups(ordered_scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For scores already sorted within each row: where each rank's tie group starts and ends.

    Returns ``start`` and ``end`` (exclusive), 0-based, of the same shape. NaN
    (padding) equals nothing, so each padded rank is a group of its own.

    Examples
    --------
    >>> start, end = tie_groups(np.array([[0.9, 0.5, 0.5, 0.5, 0.1]]))
    >>> start.tolist(), end.tolist()
    ([[0, 1, 1, 1, 4]], [[1, 4, 4, 4, 5]])
    """
    n, width = ordered_scores.shape
    first = np.ones((n, width), dtype=bool)
    first[:, 1:] = ordered_scores[:, 1:] != ordered_scores[:, :-1]
    position = np.arange(width)
    start = np.maximum.accumulate(np.where(first, position, 0), axis=1)
    last = np.ones((n, width), dtype=bool)
    last[:, :-1] = first[:, 1:]
    end = np.minimum.accumulate(np.where(last, position + 1, width)[:, ::-1], axis=1)[:, ::-1]
    return start, end


def _group_sums(values: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Each rank's tie-group total of ``values``."""
    running = np.concatenate([np.zeros((values.shape[0], 1)), np.cumsum(values, axis=1)], axis=1)
    return np.take_along_axis(running, end, axis=1) - np.take_along_axis(running, start, axis=1)


def tie_mean(values: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Each rank's value replaced by the mean over its tie group: its expected value.

    Examples
    --------
    >>> start, end = tie_groups(np.array([[0.9, 0.5, 0.5, 0.5]]))
    >>> tie_mean(np.array([[3.0, 0.0, 2.0, 1.0]]), start, end).tolist()
    [[3.0, 1.0, 1.0, 1.0]]
    """
    return _group_sums(values.astype(float), start, end) / (end - start)


def expected_hits(binary: np.ndarray, start: np.ndarray, end: np.ndarray, k: int | np.ndarray) -> np.ndarray:
    """Expected number of relevant documents in the top k (k an int or one per row)."""
    running = np.concatenate(
        [np.zeros((binary.shape[0], 1)), np.cumsum(tie_mean(binary, start, end), axis=1)], axis=1
    )
    depth = np.minimum(np.broadcast_to(np.asarray(k, dtype=np.int64), (binary.shape[0],)), binary.shape[1])
    return running[np.arange(binary.shape[0]), depth]


def _group_counts(binary: np.ndarray, start: np.ndarray, end: np.ndarray):
    """Per rank: its group's size n and relevant count r, the relevant before the group H, offset j."""
    size = (end - start).astype(float)
    relevant = np.rint(_group_sums(binary, start, end))
    before = np.concatenate([np.zeros((binary.shape[0], 1)), np.cumsum(binary, axis=1)], axis=1)
    above = np.rint(np.take_along_axis(before, start, axis=1))
    offset = (np.arange(binary.shape[1]) - start).astype(float)
    return size, relevant, above, offset


def _log_choose(top: np.ndarray, bottom: np.ndarray, log_factorial: np.ndarray) -> np.ndarray:
    """log C(top, bottom), -inf where bottom < 0 or bottom > top."""
    valid = (bottom >= 0) & (bottom <= top) & (top >= 0)
    t = np.where(valid, top, 0).astype(np.int64)
    b = np.where(valid, bottom, 0).astype(np.int64)
    return np.where(valid, log_factorial[t] - log_factorial[b] - log_factorial[t - b], -np.inf)


def _first_relevant_here(binary: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """P(the first relevant document of the list is at this rank), per rank.

    Zero unless no relevant document comes before the rank's group; then the
    group's first j documents are non-relevant and the next relevant:
    C(n - 1 - j, r - 1) / C(n, r).
    """
    size, relevant, above, offset = _group_counts(binary, start, end)
    log_factorial = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, binary.shape[1] + 1)))])
    log_p = _log_choose(size - 1 - offset, relevant - 1, log_factorial) - _log_choose(
        size, relevant, log_factorial
    )
    return np.where((above == 0) & (relevant > 0), np.exp(log_p), 0.0)


def expected_reciprocal_rank(
    binary: np.ndarray, start: np.ndarray, end: np.ndarray, k: int | None
) -> np.ndarray:
    """E[RR@k] over every order of the tied documents."""
    depth = binary.shape[1] if k is None else min(k, binary.shape[1])
    first = _first_relevant_here(binary, start, end)[:, :depth]
    return (first / np.arange(1, depth + 1)).sum(axis=1)


def expected_success(binary: np.ndarray, start: np.ndarray, end: np.ndarray, k: int) -> np.ndarray:
    """E[Success@k]: the probability that a relevant document is in the top k."""
    depth = min(k, binary.shape[1])
    return _first_relevant_here(binary, start, end)[:, :depth].sum(axis=1).clip(0.0, 1.0)


def expected_precision_sum(
    binary: np.ndarray, start: np.ndarray, end: np.ndarray, k: int | None
) -> np.ndarray:
    """E[sum over relevant ranks i <= k of P@i]: AP@k times its denominator.

    rel_i · P@i = (rel_i + sum over j < i of rel_i · rel_j) / i. For rank i in
    a group of n with r relevant, H relevant before the group and j ranks of
    the group before it: E[rel_i] = r/n, E[rel_i · rel_j] is (r/n) · rel_j
    for an earlier group (orders of groups are independent; the earlier
    groups hold H relevant in any order) and r(r-1)/(n(n-1)) inside the
    group. So E[rel_i · P@i] = (r/n · (1 + H) + j · r(r-1)/(n(n-1))) / i.
    """
    size, relevant, above, offset = _group_counts(binary, start, end)
    share = relevant / size
    pair = np.where(size > 1, relevant * (relevant - 1) / np.maximum(size * (size - 1), 1.0), 0.0)
    term = (share * (1.0 + above) + offset * pair) / np.arange(1, binary.shape[1] + 1)
    depth = binary.shape[1] if k is None else min(k, binary.shape[1])
    return term[:, :depth].sum(axis=1)
