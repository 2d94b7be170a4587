"""Metric names both ways: the name trec_eval prints for a measure, and the ranges of parameters.

The expected lines are NIST trec_eval 10.0's own output, committed by
benchmarks/trec_eval_reference.py in tests/data/trec_eval_10 (never typed here):
an Evaluation asked for a measure under its printed name must print exactly
trec_eval's lines for it, and each of its other names (its ``-m name.params``
form, the package's ``p@5``, ir_measures' ``P@5``) must parse to that same
measure and print under that name (one evaluation per kind of name checks the route).
"""

from __future__ import annotations

import dataclasses
import re
import warnings
from functools import cache

import pytest
from test_trec_eval_10 import DATA, INDEX, ROOT, lines, options  # the 10.0 cases' reader

import rankmetrics as rm
from rankmetrics.registry import METRICS
from rankmetrics.trec.evaluate import Conventions, evaluate_measures
from rankmetrics.trec.names import parse_metric, parse_metrics, trec_eval_name

# Cases run with -q whose every line the package computes as trec_eval 10.0 does.
CASES = (
    "nist_q_all_trec",
    "nist_q_gains",
    "nist_q_setF_utility",
    "nist_q_11pt",
    "nist_q_rbp",
    "nist_q_l_2_relstring",
    "nist_q_P_ndcg_cut",
    "unsorted_cutoffs",
    "adv1_q_all_trec",
    "adv2_q_l2_all_trec",
    "dcg_measures",
)


def table_order(case: str) -> list[str]:
    """The case's measures in trec_eval's table order, from the order of its lines.

    Per query trec_eval prints every measure but runid, num_q, gm_map and gm_bpref;
    under 'all' every one but relstring; both in its measure table's order.
    """
    text = (DATA / INDEX["cases"][case]["stdout"]).read_text(encoding="utf-8")
    rows = [line.split("\t") for line in text.splitlines()]
    per_query = list(dict.fromkeys(name.strip() for name, qid, _ in rows if qid != "all"))
    overall = [name.strip() for name, qid, _ in rows if qid == "all"]
    order: list[str] = []
    for name in overall:
        if name in per_query:
            order += [p for p in per_query[: per_query.index(name)] if p not in order]
        if name not in order:
            order.append(name)
    return order + [p for p in per_query if p not in order]


@cache
def evaluated(case: str, names: tuple[str, ...]) -> rm.Evaluation:
    keywords, (qrels, run) = options(INDEX["cases"][case]["args"], INDEX["cases"][case]["stdin"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return rm.evaluate(ROOT / qrels, ROOT / run, list(names), **keywords)


@pytest.mark.parametrize("case", CASES)
def test_to_trec_eval_prints_trec_eval_10s_output_exactly(case):
    expected = (DATA / INDEX["cases"][case]["stdout"]).read_text(encoding="utf-8")
    assert evaluated(case, tuple(table_order(case))).to_trec_eval() == expected


def spellings(printed: str) -> dict[str, str]:
    """Other names of the measure trec_eval prints as ``printed``: {kind: name}."""
    measure = parse_metric(printed)
    metric, k = measure.metric, measure.k
    found = {}
    if k is not None:
        found["-m"] = f"{metric.trec_cutoff_name}.{measure.parameter_text}"
        found |= {f"human {n}": f"{n}@{k}" for n in metric.names}
        if metric.ir_name and metric.cutoff != "none":
            found["ir_measures"] = f"{metric.ir_name}@{k}"
    elif measure.parameter is not None:
        found["-m"] = f"{metric.trec_name}.{printed[len(metric.trec_name) + 1 :]}"
    else:
        found |= {f"human {n}": n for n in metric.names if metric.cutoff != "required"}
        if metric.ir_name and not any(default is not None for _, default in metric.ir_parameters):
            found["ir_measures"] = metric.ir_name  # RBP is p = 0.8 there: not trec_eval's rbp
    return found


def _all_spellings() -> list[tuple[str, str, str, str]]:
    rows = []
    for case in CASES:
        for printed in lines(case):
            rows += [(case, printed, kind, name) for kind, name in spellings(printed).items()]
    return sorted(set(rows))


def _measure(name: str):
    """What evaluate computes for a name: its parsed measure, whatever spelling was typed."""
    return dataclasses.replace(parse_metric(name), name="")


@pytest.mark.parametrize("case", CASES)
def test_every_name_of_a_measure_is_the_measure_trec_eval_prints(case):
    # test_to_trec_eval_prints_trec_eval_10s_output_exactly evaluates each printed measure once
    # against trec_eval 10.0's lines; every other spelling must parse to the same measure and
    # print under trec_eval's name, so it evaluates and prints exactly those lines too.
    spelled = [(printed, kind, name) for c, printed, kind, name in _all_spellings() if c == case]
    differ = [
        (printed, kind, name)
        for printed, kind, name in spelled
        if _measure(name) != _measure(printed) or trec_eval_name(name) != printed
    ]
    assert differ == []


def test_an_alias_of_each_kind_evaluates_to_trec_eval_10s_lines():
    # One full evaluation per kind of spelling (-m, the package's, ir_measures'), against the lines.
    case = "nist_q_P_ndcg_cut"
    expected = (DATA / INDEX["cases"][case]["stdout"]).read_text().splitlines()
    first = {}
    for c, printed, kind, name in _all_spellings():
        if c == case:
            first.setdefault(kind.split()[0], (printed, name))
    assert set(first) == {"-m", "human", "ir_measures"}
    for printed, name in first.values():
        got = evaluated(case, (name,)).to_trec_eval().splitlines()
        assert got == [line for line in expected if line.split("\t")[0].strip() == printed], name


def test_every_registered_trec_eval_measure_is_compared_under_each_name():
    printed = {parse_metric(name).metric.name for case in CASES for name in lines(case)}
    with_trec_name = {m.name for m in METRICS.values() if m.evaluate and (m.trec_name or m.trec_cutoff_name)}
    assert with_trec_name <= printed, with_trec_name - printed
    kinds = {kind.split()[0] for _, _, kind, _ in _all_spellings()}
    assert kinds == {"-m", "human", "ir_measures"}


@pytest.mark.parametrize(
    ("name", "printed"),
    [
        # trec_eval's rules (meas_init.c): cutoffs "%ld", levels "%3.2f", one-value measures as typed.
        ("P.7", "P_7"),
        ("P_007", "P_7"),
        ("p@7", "P_7"),
        ("P@7", "P_7"),
        ("precision@7", "P_7"),
        ("nDCG@10", "ndcg_cut_10"),
        ("ndcg@10", "ndcg_cut_10"),
        ("AP@10", "map_cut_10"),
        ("AP", "map"),
        ("RR", "recip_rank"),
        ("mrr", "recip_rank"),
        ("Success@5", "success_5"),
        ("hit_rate@5", "success_5"),
        ("R@100", "recall_100"),
        ("Rprec", "Rprec"),
        ("r_precision", "Rprec"),
        ("NumRet", "num_ret"),
        ("NumRel", "num_rel"),
        ("NumRelRet", "num_rel_ret"),
        ("NumRet(rel=1)", "num_rel_ret"),  # ir_measures' str(NumRelRet)
        ("nDCG(dcg='log2')@5", "ndcg_cut_5"),
        ("Rprec_mult.0.5", "Rprec_mult_0.50"),
        ("Rprec_mult_0.5", "Rprec_mult_0.50"),
        ("iprec_at_recall.0.1", "iprec_at_recall_0.10"),
        ("iprec_at_recall.0.125", "iprec_at_recall_0.12"),  # %3.2f of 0.125 (exact in binary): to even
        ("iprec_at_recall.1", "iprec_at_recall_1.00"),
        ("set_F.0.50", "set_F_0.50"),  # as typed
        ("set_F_0.5", "set_F_0.5"),
        ("11pt_avg.0.2,0.5,0.8", "11pt_avg_0.2,0.5,0.8"),
        ("utility.2,-1,0,0", "utility_2,-1,0,0"),
        ("relstring.08", "relstring_08"),  # relstring's length is a one-value parameter: as typed
        ("relstring_20", "relstring_20"),
        ("ndcg.1=3,2=9", "ndcg_1=3,2=9"),
        ("rbp.p=0.95", "rbp_p=0.95"),
        ("RBP", "rbp_p=0.8"),  # ir_measures' RBP has p = 0.8
        ("RBP(p=0.5)", "rbp_p=0.5"),
        ("unj.3", "unj_3"),
        ("relative_P.5", "relative_P_5"),
    ],
)
def test_trec_eval_name_by_trec_eval_s_printing_rules(name, printed):
    assert trec_eval_name(name) == printed
    assert trec_eval_name(parse_metric(name)) == printed


def test_a_multiple_of_r_is_cut_to_trec_eval_s_buffer():
    # append_double: snprintf into strlen(name) + 8 + 2 bytes, so at most 9 characters after
    # the name: "_" and "12345678.50" cut to "_12345678".
    assert trec_eval_name("Rprec_mult.12345678.5") == "Rprec_mult_12345678"
    assert trec_eval_name("Rprec_mult.123456.5") == "Rprec_mult_123456.5"  # "_123456.50": 10
    assert trec_eval_name("Rprec_mult.12345.5") == "Rprec_mult_12345.50"  # "_12345.50": 9, whole


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("err@20", "no ERR measure"),
        ("ERR@10", "no ERR measure"),
        ("hits@10", "no Hits measure"),
        ("hits", "no Hits measure"),
        ("judged@10", "no Judged measure"),
        ("Judged@10", "no Judged measure"),
        ("f1@5", "no F1 measure"),
        ("rr@10", "recip_rank only over the whole list, not at a cutoff"),
        ("RR@10", "recip_rank only over the whole list, not at a cutoff"),
        ("nDCG(dcg='exp-log2')@10", "linear gains"),
    ],
)
def test_a_measure_trec_eval_lacks_is_refused_by_name(name, message):
    with pytest.raises(ValueError, match=message) as error:
        trec_eval_name(name)
    assert repr(name) in str(error.value)
    result = rm.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, [name, "map"])
    with pytest.raises(ValueError, match=message):
        result.to_trec_eval()


def _without_trec_eval_form() -> list[str]:
    """A name of every registered metric that trec_eval 10.0 has no measure for."""
    names = []
    for m in METRICS.values():
        if m.evaluate is None or m.trec_name or m.trec_cutoff_name:
            continue
        names += [f"{n}@10" for n in m.names] + ([f"{m.ir_name}@10"] if m.ir_name else [])
    return names


def test_every_registered_metric_without_a_trec_eval_form_is_refused_by_name():
    names = _without_trec_eval_form()
    assert {parse_metric(n).metric.name for n in names} == {
        "f1",
        "hits",
        "expected_reciprocal_rank",
        "judged_fraction",
    }
    for name in names:
        with pytest.raises(ValueError, match=rf"^{re.escape(repr(name))} has no trec_eval name: "):
            rm.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, [name]).to_trec_eval()


def test_to_trec_eval_refuses_a_relevance_level_of_one_measure_and_a_line_twice():
    qrels, run = {"q": {"a": 2, "b": 1}}, {"q": {"a": 1.0, "b": 0.5}}
    with pytest.raises(ValueError, match=r"'P\(rel=2\)@5' has no trec_eval name here: .* one level \(-l\)"):
        rm.evaluate(qrels, run, ["P(rel=2)@5"]).to_trec_eval()
    # The same level as the evaluation's: trec_eval's P_5 under -l 2 (P@5 = 1/5).
    assert rm.evaluate(qrels, run, ["P(rel=2)@5"], relevance_level=2).to_trec_eval() == (
        "P_5                   \tq\t0.2000\nP_5                   \tall\t0.2000\n"
    )
    with pytest.raises(ValueError, match="'P@5' and 'p@5' both print as trec_eval's P_5"):
        rm.evaluate(qrels, run, ["P@5", "p@5"]).to_trec_eval()


# ---------------------------------------------------------------- parameter ranges

QRELS = {"q": {"a": 2, "b": 0, "c": 1}}
RUN = {"q": {"a": 0.9, "x": 0.8, "b": 0.7, "c": 0.6}}


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("set_F.-0.5", r"beta \(the weight of recall\) must be >= 0; got -0.5"),
        ("set_F_-1", r"beta \(the weight of recall\) must be >= 0; got -1"),
        ("rbp.p=1.5", r"p \(the persistence\) must be in \(0, 1\); got 1.5"),
        ("rbp_p=1", r"p \(the persistence\) must be in \(0, 1\); got 1"),
        ("rbp.p=0", r"p \(the persistence\) must be in \(0, 1\); got 0"),
        ("rbp_resid.p=1.5", r"p \(the persistence\) must be in \(0, 1\); got 1.5"),
        ("rbp_resid_p=-0.2", r"p \(the persistence\) must be in \(0, 1\); got -0.2"),
        ("RBP(p=1.5)", r"p \(the persistence\) must be in \(0, 1\); got 1.5"),
        ("RBP(p=0)", r"p \(the persistence\) must be in \(0, 1\); got 0"),
        ("iprec_at_recall.1.5", r"the recall level must be in \[0, 1\]; got 1.5"),
        ("iprec_at_recall_-0.1", r"the recall level must be in \[0, 1\]; got -0.1"),
        ("11pt_avg.0.5,1.2", r"a recall level must be in \[0, 1\]; got 1.2"),
        ("11pt_avg_-0.1,0.5", r"a recall level must be in \[0, 1\]; got -0.1"),
        ("Rprec_mult.0", "the multiple of R must be > 0; got 0"),
        ("Rprec_mult_-0.5", "the multiple of R must be > 0; got -0.5"),
        ("utility.1,-1,0," + "9" * 400, "is not a finite number"),  # float() of 400 digits: inf
    ],
)
def test_a_parameter_outside_its_range_is_refused_naming_it(name, message):
    with pytest.raises(ValueError, match=message) as error:
        parse_metric(name)
    assert str(error.value).startswith(repr(name) + ": ")
    assert "check_range=False" in str(error.value)
    with pytest.raises(ValueError, match=message):
        rm.evaluate(QRELS, RUN, [name])
    with pytest.raises(ValueError, match=message):
        parse_metrics(["map", name])


def test_check_range_false_gives_trec_eval_s_unchecked_values():
    # set_F.-0.5 on a retrieved set with P = 2/4, R = 2/2 (a and c relevant, both retrieved):
    # (beta + 1) P R / (beta P + R) = 0.5 * 0.5 * 1 / (-0.25 + 1) = 1/3.
    measure = parse_metric("set_F.-0.5", check_range=False)
    assert measure.parameter == (-0.5,)
    assert parse_metrics(["map", "set_F.-0.5"], check_range=False)[1] == measure
    result = evaluate_measures(QRELS, RUN, [measure], Conventions.resolve(None))
    assert result.summary["set_F.-0.5"] == pytest.approx(1 / 3)
    # Two retrieved, both relevant, of five: P = 1, R = 0.4: 0.5 * 0.4 / (-0.5 + 0.4) = -2.
    five = {"q": {d: 1 for d in "abcde"}}
    two = evaluate_measures(five, {"q": {"a": 0.9, "b": 0.8}}, [measure], Conventions.resolve(None))
    assert two.summary["set_F.-0.5"] == pytest.approx(-2.0)
    # rbp.p=1.5 unchecked: (1 - p) sum gain_i p^(i-1), gains rescaled by the top grade 2:
    # a (1) at rank 1, c (1/2) at rank 4: -0.5 * (1 + 0.5 * 1.5**3) = -1.34375.
    unchecked = parse_metric("rbp.p=1.5", check_range=False)
    got = evaluate_measures(QRELS, RUN, [unchecked], Conventions.resolve(None))
    assert got.summary["rbp.p=1.5"] == pytest.approx(-1.34375)
    # Its line prints as trec_eval prints it (the reading back is not checked again).
    assert got.to_trec_eval(queries=False) == "rbp_p=1.5             \tall\t-1.3438\n"


@pytest.mark.parametrize(
    "name",
    [
        "set_F.0",  # beta = 0: F is the precision
        "set_F.2",
        "rbp.p=0.01",
        "rbp.p=0.99,2=-1",  # RBP rescales any gain into [0, 1]
        "rbp_resid.p=0.5",
        "iprec_at_recall.0",
        "iprec_at_recall.1",
        "11pt_avg.0,1",
        "Rprec_mult.0.01",
        "Rprec_mult.3",
        "utility.-2,1,-1,0.5",  # any costs
        "ndcg.1=-2",  # trec_eval documents negative gains ("Gains are allowed to be 0 or negative")
        "G.0=1,2=-3",
        "RBP(p=0.5)",
    ],
)
def test_a_parameter_inside_its_range_is_read(name):
    assert parse_metric(name).parameter is not None


def test_the_ir_measures_route_and_trec_eval_s_share_the_rule():
    refused = []
    for name in ("RBP(p=1.5)", "rbp.p=1.5", "RBP(p=1)", "rbp.p=1"):
        with pytest.raises(ValueError, match=r"p \(the persistence\) must be in \(0, 1\)"):
            parse_metric(name)
        refused.append(parse_metric(name, check_range=False).parameter)
    assert refused == [(("p", 1.5),), (("p", 1.5),), (("p", 1.0),), (("p", 1.0),)]


def test_cutoffs_and_rel_are_checked_either_way():
    for name, message in (
        ("P_0", "positive integer"),
        ("relstring.0", "positive integer"),
        ("P(rel=two)@5", "rel must be a number"),
    ):
        for check in (True, False):
            with pytest.raises(ValueError, match=message):
                parse_metric(name, check_range=check)


# ---------------------------------------------------------------- compare


@pytest.mark.parametrize("text", ["relstring", "runid", "relstring_5"])
def test_compare_refuses_a_text_measure_by_name(text):
    qrels = {q: {"a": 1, "b": 1} for q in "xyz"}
    run = {q: {"a": 0.9, "b": 0.1} for q in "xyz"}
    with pytest.raises(ValueError, match=rf"cannot compare '{text}': a text measure"):
        rm.compare(run, run, qrels, ["map", text])


@pytest.mark.parametrize(
    ("name", "cut"),
    [
        ("P.10000000000000000000", "10000000000000000000"),  # trec_eval's -m form
        ("P_10000000000000000000", "10000000000000000000"),  # as trec_eval prints it
        ("P@10000000000000000000", "10000000000000000000"),
        ("P(rel=1)@9223372036854775808", "9223372036854775808"),  # ir_measures' form; 2**63
        ("ndcg_cut.99999999999999999999999", "99999999999999999999999"),
    ],
)
def test_a_cutoff_beyond_64_bits_is_refused_naming_it(name, cut):
    # It used to parse, and evaluate then failed with numpy's OverflowError.
    with pytest.raises(
        ValueError, match=rf"cutoff in '{re.escape(name)}' must be at most 2\*\*63 - 1; got {cut}$"
    ):
        parse_metric(name)
    with pytest.raises(ValueError, match=cut):
        rm.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, [name])


def test_the_largest_cutoff_is_read():
    assert parse_metric("P.9223372036854775807").k == 2**63 - 1
    # One document retrieved, relevant: P@k = 1/k.
    value = rm.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["P@9223372036854775807"]).summary
    assert value == {"P@9223372036854775807": 1 / (2**63 - 1)}
