"""Conventions shared by the metrics: gain, discount, and what counts as relevant.

One place for each choice, so the metric modules cannot drift apart.

- Relevant means grade > 0 (trec_eval's default ``relevance_level`` of 1 for
  integer grades). TREC's -1 ("judged non-relevant") is therefore non-relevant.
- Discount: log2(rank + 1), rank starting at 1 (Järvelin & Kekäläinen 2002 as
  used by trec_eval, scikit-learn, ranx and Burges et al. 2005).
- Gain: ``"linear"`` uses the grade itself (trec_eval, scikit-learn);
  ``"exponential"`` uses 2**grade - 1 (Burges et al. 2005, ranx's ``ndcg_burges``,
  gdeval); ``"binary"`` uses 1 for any relevant grade (Microsoft Recommenders,
  RecBole, cornac).
"""

from __future__ import annotations

import numpy as np

GAINS = ("linear", "exponential", "binary")


def is_relevant(grades: np.ndarray) -> np.ndarray:
    """Boolean mask of the relevant positions (grade > 0)."""
    return grades > 0


def gain_values(grades: np.ndarray, gain: str) -> np.ndarray:
    """The gain of each grade under the named gain function."""
    grades = np.clip(grades, 0.0, None)  # a negative judgement earns nothing
    if gain == "linear":
        return grades
    if gain == "exponential":
        return np.exp2(grades) - 1.0
    if gain == "binary":
        return (grades > 0).astype(float)
    raise AssertionError(f"unchecked gain {gain!r}")  # validation happens before


def discounts(n: int) -> np.ndarray:
    """log2(rank + 1) for ranks 1..n: 1, 1.585, 2, 2.322, 2.585, ..."""
    return np.log2(np.arange(2, n + 2, dtype=float))


def cutoff(grades: np.ndarray, k: int | None) -> tuple[np.ndarray, int]:
    """The top-k columns of a 2-D grade array, and the k to divide by.

    ``k=None`` means the whole list. A k beyond the list's end keeps the whole
    list but still returns k: the missing ranks count as non-relevant, as in
    trec_eval's P@k (a list of 3 with 3 hits has P@10 = 0.3).
    """
    depth = grades.shape[1] if k is None else k
    return grades[:, :depth], depth
