"""ties="average": each metric's expected value over every order of tied scores.

Three independent checks of rankmetrics.metrics.ties:

- brute force: evaluate every order of the tied documents (each order made explicit by
  breaking the ties with distinct scores) and average; the closed forms must agree;
- scikit-learn's ndcg_score (ignore_ties=False, its default) on tie-heavy random data;
- renaming documents, which moves trec_eval's docno tie-breaking, changes nothing.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankmetrics as rm

AVERAGED = ["ndcg", "ndcg@3", "p@3", "r@2", "rprec", "rr", "rr@2", "ap", "ap@3", "success@2"]
AVERAGED += ["rbp", "num_rel_ret", "hits@3", "judged@3", "RBP(p=0.5)", "nDCG(dcg=exp-log2)@4", "P(rel=2)@2"]


def _query(grades, scores, unjudged=()):
    docs = [f"d{i}" for i in range(len(grades))]
    qrels = {"q": {d: int(g) for i, (d, g) in enumerate(zip(docs, grades)) if i not in unjudged}}
    if not qrels["q"]:
        qrels["q"] = {"other": 1}
    return docs, qrels


def _brute_force(grades, scores, metrics, unjudged=()):
    """The mean of every metric over every order that keeps the score order: each tie broken each way.

    Of the n! permutations of the documents, those that keep the score order
    are the products of one order of each tie group, and each appears equally
    often, so the mean over these distinct orders is the mean over all n!.
    """
    docs, qrels = _query(grades, scores, unjudged)
    scores = np.asarray(scores)
    groups = [np.flatnonzero(scores == s).tolist() for s in sorted(set(scores.tolist()), reverse=True)]
    values = {m: [] for m in metrics}
    for parts in itertools.product(*(itertools.permutations(group) for group in groups)):
        order = [i for part in parts for i in part]  # the documents, best first
        run = {"q": {docs[i]: float(len(docs) - rank) for rank, i in enumerate(order)}}  # no ties left
        result = rm.evaluate(qrels, run, metrics, score_precision="float64")
        for m in metrics:
            values[m].append(result.summary[m])
    return {m: float(np.mean(v)) for m, v in values.items()}


def _averaged(grades, scores, metrics, unjudged=(), **conventions):
    docs, qrels = _query(grades, scores, unjudged)
    run = {"q": {d: float(s) for d, s in zip(docs, scores)}}
    return rm.evaluate(qrels, run, metrics, ties="average", score_precision="float64", **conventions).summary


@pytest.mark.parametrize("seed", range(25))
def test_closed_forms_equal_the_mean_over_every_order(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 7))
    grades = rng.integers(0, 3, n)
    grades[rng.integers(n)] = max(1, grades.max())
    scores = rng.integers(0, 3, n)  # three score values: big tie groups
    unjudged = tuple(np.flatnonzero(rng.random(n) < 0.2))
    expected = _brute_force(grades, scores, AVERAGED, unjudged)
    got = _averaged(grades, scores, AVERAGED, unjudged)
    for m in AVERAGED:
        assert got[m] == pytest.approx(expected[m], abs=1e-12), m


def test_one_tie_group_by_hand():
    # Grades [1, 0, 0] all tied: the relevant document is at rank 1, 2 or 3 with chance 1/3.
    # E[RR] = (1 + 1/2 + 1/3) / 3 = 11/18; E[AP] (R = 1) is the same; E[P@1] = 1/3;
    # E[Success@2] = 2/3; E[nDCG] = (1 + 1/log2(3) + 1/2) / 3.
    got = _averaged([1, 0, 0], [5, 5, 5], ["rr", "ap", "p@1", "success@2", "ndcg"])
    assert got["rr"] == pytest.approx(11 / 18)
    assert got["ap"] == pytest.approx(11 / 18)
    assert got["p@1"] == pytest.approx(1 / 3)
    assert got["success@2"] == pytest.approx(2 / 3)
    assert got["ndcg"] == pytest.approx((1 + 1 / np.log2(3) + 1 / 2) / 3)


def test_two_relevant_in_a_tie_ap_by_hand():
    # [1, 1, 0] tied, R = 2. Orders (3 placements of the non-relevant): 110 -> AP 1;
    # 101 -> (1 + 2/3)/2 = 5/6; 011 -> (1/2 + 2/3)/2 = 7/12. Mean = (12 + 10 + 7) / 36 = 29/36.
    assert _averaged([1, 1, 0], [1, 1, 1], ["ap"])["ap"] == pytest.approx(29 / 36)


def _sklearn_rows(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 30))
    y_true = rng.integers(0, 4, n)
    y_score = rng.integers(0, 4, n).astype(float)  # four score values: ties everywhere
    k = int(rng.integers(1, n + 3))
    return y_true, y_score, k


def test_ndcg_equals_scikit_learn_on_tie_heavy_data():
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    cases = [_sklearn_rows(seed) for seed in range(300)]
    qrels = {f"q{i:03d}": {f"d{j}": int(g) for j, g in enumerate(t)} for i, (t, _, _) in enumerate(cases)}
    run = {f"q{i:03d}": {f"d{j}": float(s) for j, s in enumerate(y)} for i, (_, y, _) in enumerate(cases)}
    differences = []
    for k in sorted({k for _, _, k in cases}):
        chosen = [i for i, case in enumerate(cases) if case[2] == k]
        result = rm.evaluate(
            {f"q{i:03d}": qrels[f"q{i:03d}"] for i in chosen},
            {f"q{i:03d}": run[f"q{i:03d}"] for i in chosen},
            [f"ndcg@{k}", "ndcg"],
            ties="average",
            score_precision="float64",
        )
        for i in chosen:
            y_true, y_score, _ = cases[i]
            ours = result.value(f"ndcg@{k}", f"q{i:03d}")
            theirs = sklearn_metrics.ndcg_score([y_true], [y_score], k=k)
            whole = sklearn_metrics.ndcg_score([y_true], [y_score])
            differences += [abs(ours - theirs), abs(result.value("ndcg", f"q{i:03d}") - whole)]
    assert max(differences) < 1e-12


def test_ties_are_broken_otherwise():
    # The same tied run under trec_eval's rule depends on the docnos; the average does not.
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"a": 1.0, "b": 1.0}}
    assert rm.evaluate(qrels, run, "rr").summary["rr"] == 0.5  # b > a: b first
    assert rm.evaluate(qrels, run, "rr", ties="average").summary["rr"] == 0.75


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), min_size=1, max_size=12),
    st.randoms(use_true_random=False),
)
def test_renaming_documents_changes_no_averaged_score(pairs, random):
    grades = [g for g, _ in pairs]
    scores = [float(s) for _, s in pairs]
    names = [f"doc{i:02d}" for i in range(len(pairs))]
    renamed = names[:]
    random.shuffle(renamed)  # a new name for each document: trec_eval's tie-breaking moves
    metrics = AVERAGED

    def scored(ids):
        qrels = {"q": {d: g for d, g in zip(ids, grades)} | {"unretrieved": 1}}
        run = {"q": dict(zip(ids, scores))}
        return rm.evaluate(qrels, run, metrics, ties="average").summary

    before, after = scored(names), scored(renamed)
    for m in metrics:
        assert after[m] == pytest.approx(before[m], abs=1e-12), m


@pytest.mark.parametrize(
    ("metrics", "conventions", "message"),
    [
        (["bpref"], {}, "not available for 'bpref'"),
        (["ERR@10"], {}, "not available for 'ERR@10'"),
        (["ap"], {"denominator": "retrieved_relevant"}, "retrieved_relevant"),
        (["p@5"], {"max_documents": 3}, "max_documents"),
    ],
)
def test_average_is_refused_where_no_expectation_is_computed(metrics, conventions, message):
    with pytest.raises(ValueError, match=message):
        rm.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, metrics, ties="average", **conventions)


def test_judged_only_groups_ties_after_dropping_unjudged():
    # x is unjudged: with -J it goes, and a, b (tied) are ranks 1 and 2.
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"x": 2.0, "a": 1.0, "b": 1.0}}
    got = rm.evaluate(qrels, run, ["rr", "p@1"], ties="average", judged_only=True).summary
    assert got == {"rr": 0.75, "p@1": 0.5}
