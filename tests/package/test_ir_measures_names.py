"""ir_measures' names in evaluate, and the measures ERR, Judged and Hits.

The reference values come from ir_measures itself (an independent implementation:
gdeval.pl for ERR and exponential-gain nDCG@k, its own Python for Judged and RR@k, ranx
for exponential-gain nDCG, trectools for RBP, pytrec_eval for the others), produced by
benchmarks/ir_measures_reference.py into data/ir_measures_reference.json: for every
ir_measures measure the package reads and every value tried of its parameters, the name
exactly as ``str(measure)`` writes it, and the names of what it does not read.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import rankmetrics as rm
from rankmetrics.registry import METRICS
from rankmetrics.trec.names import parse_metric

REFERENCE = json.loads((Path(__file__).parent / "data" / "ir_measures_reference.json").read_text())
GDEVAL_DECIMALS = 5  # gdeval.pl prints ERR with %.5f


@pytest.fixture(scope="module")
def ours():
    return rm.evaluate(REFERENCE["qrels"], REFERENCE["run"], list(REFERENCE["values"]))


@pytest.mark.parametrize("name", list(REFERENCE["values"]))
def test_the_same_name_gives_ir_measures_value(name, ours):
    theirs = REFERENCE["values"][name]
    assert sorted(theirs) == list(ours.queries)
    got = np.array([ours.value(name, q) for q in ours.queries])
    expected = np.array([theirs[q] for q in ours.queries])
    if name.startswith("ERR"):
        # gdeval.pl prints ERR with printf's %.5f: ours, printed the same way, must read the same.
        assert [f"{g:.{GDEVAL_DECIMALS}f}" for g in got] == [f"{e:.{GDEVAL_DECIMALS}f}" for e in expected]
    else:
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9, err_msg=name)


def test_err_by_hand():
    # Grades 3, 0, 4 on the 0-4 scale: R = 7/16, 0, 15/16.
    # ERR = 7/16 + (1 - 7/16)(1 - 0)(15/16) / 3 = 0.4375 + 0.17578125 = 0.61328125.
    assert rm.expected_reciprocal_rank([3, 0, 4]) == 0.61328125
    assert rm.expected_reciprocal_rank([3, 0, 4], k=2) == 0.4375
    # A binary scale (max_grade=1): R = 1/2 for each relevant document.
    assert rm.expected_reciprocal_rank([0, 1, 1], max_grade=1) == 0.5 / 2 + 0.25 / 3
    qrels = {"q": {"a": 3, "c": 4}}
    run = {"q": {"a": 0.9, "b": 0.8, "c": 0.7}}
    assert rm.evaluate(qrels, run, "ERR@3").summary["ERR@3"] == 0.61328125
    with pytest.raises(ValueError, match="above max_grade=4"):
        rm.expected_reciprocal_rank([5, 0])
    np.testing.assert_array_equal(rm.expected_reciprocal_rank([[4, 0], [0, 4]]), [15 / 16, 15 / 32])


def test_judged_and_hits_by_hand():
    qrels = {"q": {"a": 1, "b": 0, "c": -1}}
    run = {"q": {"a": 0.9, "x": 0.8, "b": 0.7, "c": 0.6}}
    got = rm.evaluate(qrels, run, ["Judged@2", "judged@10", "hits@2", "hits"]).summary
    # Top 2: a (judged), x (not). All 4: a, b, c are in the qrels (c with a negative grade,
    # judged as ir_measures counts it); 3 of the 4 shown. Hits: a only.
    assert got == {"Judged@2": 0.5, "judged@10": 0.75, "hits@2": 1.0, "hits": 1.0}
    assert rm.hits([2, 0, 1, 1], k=3) == 2.0


def test_rel_is_the_relevance_level_of_that_measure_only():
    qrels, run = REFERENCE["qrels"], REFERENCE["run"]
    mixed = rm.evaluate(qrels, run, ["P(rel=2)@5", "P@5", "AP(rel=2)", "R(rel=2)@20", "RR(rel=3)"])
    at_two = rm.evaluate(qrels, run, ["P@5", "AP", "R@20"], relevance_level=2)
    at_three = rm.evaluate(qrels, run, ["RR"], relevance_level=3)
    at_one = rm.evaluate(qrels, run, ["P@5"])
    np.testing.assert_array_equal(mixed.per_query["P(rel=2)@5"], at_two.per_query["P@5"])
    np.testing.assert_array_equal(mixed.per_query["AP(rel=2)"], at_two.per_query["AP"])
    np.testing.assert_array_equal(mixed.per_query["R(rel=2)@20"], at_two.per_query["R@20"])
    np.testing.assert_array_equal(mixed.per_query["RR(rel=3)"], at_three.per_query["RR"])
    np.testing.assert_array_equal(mixed.per_query["P@5"], at_one.per_query["P@5"])


def test_rel_takes_every_level_relevance_level_takes():
    # Ranked a, b, c, e, d; c is in the pool but unjudged (-1), e not judged at all.
    # Level 0: a, b and d are relevant: P@4 = 2/4; AP = (1/1 + 2/2 + 3/5) / 3.
    # Level -1: c too: P@4 = 3/4. The default level 1: only a and d: P@4 = 1/4.
    qrels = {"q": {"a": 2, "b": 0, "c": -1, "d": 1}}
    run = {"q": {"a": 0.9, "b": 0.8, "c": 0.7, "e": 0.6, "d": 0.5}}
    names = ["P(rel=0)@4", "AP(rel=0)", "P(rel=-1)@4", "P@4"]
    mixed = rm.evaluate(qrels, run, names).summary
    assert [mixed[name] for name in names] == [0.5, pytest.approx(2.6 / 3), 0.75, 0.25]
    for level in (0, -1):
        routes = rm.evaluate(qrels, run, ["P@4", "AP"], relevance_level=level).summary
        assert mixed[f"P(rel={level})@4"] == routes["P@4"]
    assert mixed["AP(rel=0)"] == rm.evaluate(qrels, run, "AP", relevance_level=0).summary["AP"]


def test_ir_names_mean_what_ir_measures_means():
    qrels, run = REFERENCE["qrels"], REFERENCE["run"]
    got = rm.evaluate(qrels, run, ["RBP", "RBP(p=0.8)", "rbp", "rbp_p=0.8", "nDCG(dcg=exp-log2)@10"])
    got = got.per_query
    np.testing.assert_array_equal(got["RBP"], got["RBP(p=0.8)"])  # ir_measures' default p = 0.8
    np.testing.assert_array_equal(got["RBP"], got["rbp_p=0.8"])
    assert not np.array_equal(got["RBP"], got["rbp"])  # trec_eval's rbp: p = 0.9
    exponential = rm.evaluate(qrels, run, ["ndcg@10"], gain="exponential").per_query["ndcg@10"]
    np.testing.assert_array_equal(got["nDCG(dcg=exp-log2)@10"], exponential)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("P(rel=two)@5", "rel must be a number"),
        ("P(judged_only=True)@5", "'judged_only' is not a parameter of P"),
        ("nDCG(gains={0:0})@5", "'gains' is not a parameter of nDCG"),
        ("RBP(p=1.5)", r"p \(the persistence\) must be in \(0, 1\); got 1.5 \(outside the range where RBP"),
        ("RBP(rel=1)", "'rel' is not a parameter of RBP"),
        ("nDCG(dcg=log3)", "dcg must be one of"),
        ("Frob(rel=1)@5", "unknown ir_measures name"),
        ("P(rel=2", "not of the form"),
        ("R", "needs a cutoff"),
        ("Rprec@5", "takes no cutoff"),
        ("P(rel=2,rel=3)@5", "gives rel twice"),
    ],
)
def test_bad_ir_names_are_refused_by_name(name, message):
    with pytest.raises(ValueError, match=message) as error:
        rm.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, [name])
    assert name in str(error.value) or "unknown" in str(error.value)


# ---------------------------------------------------------------- str(measure), as ir_measures writes it

FORMS = REFERENCE["forms"]  # str(measure) -> {qid: ir_measures' value}
PROVIDERS = REFERENCE["providers"]  # str(measure) -> the ir_measures provider that computed it
PRINTED_DECIMALS = {"gdeval": GDEVAL_DECIMALS}  # gdeval.pl prints its values with %.5f
_RBP_GRADES = (
    "ir_measures computes RBP with trectools (its only provider of graded RBP), which weights "
    "each document by its raw grade: (1 - p) sum of grade * p^(i-1), grades up to 4 here. "
    "rankmetrics' RBP follows trec_eval's m_rbp.c, which rescales a query's grades into [0, 1] "
    "(grade / the query's highest grade): the values differ by that factor "
    "(test_rbp_differs_from_ir_measures_by_the_top_grade)"
)
KNOWN_FORMS = {form: _RBP_GRADES for form in FORMS if form.startswith("RBP")}


@pytest.fixture(scope="module")
def forms():
    return rm.evaluate(REFERENCE["qrels"], REFERENCE["run"], sorted(FORMS))


def _same(form: str, ours: rm.Evaluation) -> None:
    theirs = FORMS[form]
    assert sorted(theirs) == list(ours.queries)
    got = np.array([ours.value(form, q) for q in ours.queries])
    expected = np.array([theirs[q] for q in ours.queries])
    decimals = PRINTED_DECIMALS.get(PROVIDERS[form])
    if decimals is not None:
        assert [f"{g:.{decimals}f}" for g in got] == [f"{e:.{decimals}f}" for e in expected], form
    else:
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9, err_msg=form)


@pytest.mark.parametrize(
    "form",
    [
        pytest.param(f, marks=pytest.mark.xfail(reason=KNOWN_FORMS[f], strict=True))
        if f in KNOWN_FORMS
        else f
        for f in sorted(FORMS)
    ],
)
def test_str_of_each_ir_measures_measure_is_read_with_its_values(form, forms):
    _same(form, forms)


def test_rbp_differs_from_ir_measures_by_the_top_grade(forms):
    # The known difference above, checked: ours times the query's highest grade is theirs.
    for form in KNOWN_FORMS:
        top = {q: max(grades.values()) for q, grades in REFERENCE["qrels"].items()}
        got = np.array([forms.value(form, q) * top[q] for q in forms.queries])
        np.testing.assert_allclose(got, [FORMS[form][q] for q in forms.queries], rtol=1e-12, atol=1e-12)


def test_the_forms_cover_every_ir_measures_name_the_package_reads():
    read = {m.ir_name for m in METRICS.values() if m.ir_name}
    covered = {parse_metric(form).metric.ir_name for form in FORMS}
    assert read <= covered, read - covered
    assert len(FORMS) == 133 and "nDCG(dcg='exp-log2')@10" in FORMS and "NumRet(rel=2)" in FORMS


@pytest.mark.parametrize(("form", "reason"), sorted(REFERENCE["refused"].items()))
def test_other_ir_measures_measures_and_parameter_values_are_refused_by_name(form, reason):
    with pytest.raises(ValueError) as error:
        rm.evaluate(REFERENCE["qrels"], REFERENCE["run"], [form])
    message = str(error.value)
    assert repr(form) in message
    assert ("unknown" in message) if reason == "not read" else (reason in message), message


def test_an_ir_measures_name_read_as_trec_eval_s_says_so_with_parameters():
    # Bpref and infAP are read under trec_eval's names (bpref, infAP), without parameters.
    with pytest.raises(ValueError, match=r"'Bpref\(rel=2\)': Bpref is read as trec_eval's bpref, which"):
        parse_metric("Bpref(rel=2)")
    assert parse_metric("Bpref").metric.trec_name == "bpref"
