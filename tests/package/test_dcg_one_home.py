"""One DCG: every path of the package adds the same terms in the same order, so its values agree to the last bit.

The oracle is a Python loop over the ranks, adding gain / discount one rank after
another as trec_eval's loops do; the discounts are the package's one table of them
(:func:`rankmetrics.metrics.conventions.discounts`). Every comparison is ``==``:
a DCG summed pairwise (numpy's ``sum``) differs from it in the last bit on lists of
8 or more, which is what these lists are.
"""

from __future__ import annotations

import numpy as np
import pytest

import rankmetrics as rm
from rankmetrics.metrics.conventions import discounts


def by_hand(gains: list[float], discount: str = "log2") -> float:
    total = 0.0
    for gain, divisor in zip(gains, discounts(len(gains), discount).tolist()):
        total += gain / divisor
    return total


def ratio(dcg: float, ideal_dcg: float) -> float:
    return dcg / ideal_dcg if ideal_dcg > 0 else 0.0  # no relevant document: 0, as trec_eval


def random_queries(seed: int, n_queries: int = 30):
    """Graded judgements (0-4) and ranked lists of 8-40 documents, judged or not, with distinct scores."""
    rng = np.random.default_rng(seed)
    qrels, run, ranked = {}, {}, {}
    for q in range(n_queries):
        qid = f"q{q:02d}"
        grades = rng.integers(0, 5, int(rng.integers(1, 30)))
        if q % 7 == 0:
            grades[:] = 0  # nothing relevant: every nDCG is 0
        qrels[qid] = {f"d{j}": int(g) for j, g in enumerate(grades)}
        pool = [*qrels[qid], *(f"u{j}" for j in range(20))]
        size = min(len(pool), int(rng.integers(8, 41)))
        docs = [pool[i] for i in rng.choice(len(pool), size=size, replace=False)]
        run[qid] = {d: float(size - r) for r, d in enumerate(docs)}  # ranked in the listed order
        ranked[qid] = docs
    return qrels, run, ranked


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_dcg_agrees_to_the_last_bit(seed):
    qrels, run, ranked = random_queries(seed)
    e = rm.evaluate(qrels, run, ["ndcg", "ndcg_cut_10", "dcg", "ideal_dcg", "ndcg@10"])
    assert len(e) == len(qrels)
    for i, qid in enumerate(e.queries):
        docs, judged = ranked[qid], qrels[qid]
        grades = [judged.get(d, 0) for d in docs]
        ideal = sorted((g for g in judged.values() if g > 0), reverse=True)
        dcg, ideal_dcg = by_hand(grades), by_hand(ideal)
        ndcg, ndcg_10 = ratio(dcg, ideal_dcg), ratio(by_hand(grades[:10]), by_hand(ideal[:10]))
        # trec_eval's dcg and ideal_dcg, and the package's dcg of the grades.
        assert e.per_query["dcg"][i] == dcg == rm.dcg(grades) == rm.dcg(docs, relevant=judged)
        assert e.per_query["ideal_dcg"][i] == ideal_dcg
        # trec_eval's ndcg and ndcg_cut_10, the package's ndcg, and evaluate's ndcg@10.
        assert e.per_query["ndcg"][i] == ndcg == rm.ndcg(docs, relevant=judged)
        assert e.per_query["ndcg"][i] == ratio(e.per_query["dcg"][i], e.per_query["ideal_dcg"][i])
        assert e.per_query["ndcg_cut_10"][i] == ndcg_10 == e.per_query["ndcg@10"][i]
        assert rm.ndcg(docs, 10, relevant=judged) == ndcg_10
        # The step table: its running sums end at the DCG and the ideal DCG, and its value is nDCG.
        steps = rm.explain("ndcg", docs, relevant=judged)
        assert steps.rows[-1]["running_sum"] == dcg
        assert steps.ideal_rows[-1]["running_sum"] == ideal_dcg
        assert steps.value == ndcg
        assert rm.explain("ndcg", docs, 10, relevant=judged).value == ndcg_10


def test_the_lenskit_discount_agrees_to_the_last_bit():
    # LensKit divides rank i by max(1, log2 i): ranks 1 and 2 both by 1.
    assert discounts(4, "lenskit").tolist() == [1.0, 1.0, np.log2(3), 2.0]
    qrels, run, ranked = random_queries(4)
    e = rm.evaluate(qrels, run, ["ndcg", "ndcg_cut_10"], discount="lenskit")
    plain = rm.evaluate(qrels, run, ["ndcg"])
    for i, qid in enumerate(e.queries):
        grades = [qrels[qid].get(d, 0) for d in ranked[qid]]
        ideal = sorted((g for g in qrels[qid].values() if g > 0), reverse=True)
        assert e.per_query["ndcg"][i] == ratio(by_hand(grades, "lenskit"), by_hand(ideal, "lenskit"))
        assert e.per_query["ndcg_cut_10"][i] == ratio(
            by_hand(grades[:10], "lenskit"), by_hand(ideal[:10], "lenskit")
        )
    assert (e.per_query["ndcg"] != plain.per_query["ndcg"]).any()  # the option does change the values


def test_under_a_gain_map_ndcg_is_dcg_over_ideal_dcg_to_the_last_bit():
    # trec_eval's level=gain pairs: grade 1 earns 3, grade 2 earns 9, grade 4 earns 1 (3 keeps 3).
    qrels, run, ranked = random_queries(5)
    gains = {0: 0, 1: 3, 2: 9, 3: 3, 4: 1}
    names = ["ndcg_1=3,2=9,4=1", "dcg_1=3,2=9,4=1", "ideal_dcg_1=3,2=9,4=1"]
    e = rm.evaluate(qrels, run, names)
    for i, qid in enumerate(e.queries):
        mapped = [gains[qrels[qid][d]] if d in qrels[qid] else 0 for d in ranked[qid]]
        ideal = sorted((gains[g] for g in qrels[qid].values() if gains[g] > 0), reverse=True)
        ndcg, dcg, ideal_dcg = (e.per_query[name][i] for name in names)
        assert (dcg, ideal_dcg) == (by_hand(mapped), by_hand(ideal))
        assert ndcg == ratio(dcg, ideal_dcg)
