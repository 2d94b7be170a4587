"""rankmetrics.evaluate must print what trec_eval prints, for every measure it implements.

The expected values are trec_eval's own test outputs (book/data/trec_eval, from NIST):
out.test.aq is `trec_eval -m all_trec -q qrels.test results.test` (binary judgements),
out.test.aql is the same with `-l2` on the graded qrels.rel_level (grade >= 2 counts as
relevant for binary measures; nDCG keeps the raw grades). Values are rounded to 4 decimals
there, so we compare the 4-decimal text exactly. One test per (file, measure, query) line.
"""

from __future__ import annotations

import warnings
from functools import cache
from pathlib import Path

import pytest

import rankmetrics as rm

CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)

# The measures of trec_eval's all_trec output that rankmetrics implements.
IMPLEMENTED = (
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "map",
    "gm_map",
    "Rprec",
    "recip_rank",
    *(f"P_{k}" for k in CUTOFFS),
    *(f"recall_{k}" for k in CUTOFFS),
    "ndcg",
    *(f"ndcg_cut_{k}" for k in CUTOFFS),
    *(f"map_cut_{k}" for k in CUTOFFS),
    "success_1",
    "success_5",
    "success_10",
)
# Printed by all_trec but not implemented (checked below, so this list stays honest):
# bpref, infAP, gm_bpref, iprec_at_recall_*, 11pt_avg, Rprec_mult_*, utility, binG, G,
# ndcg_rel, Rndcg, relative_P_*, set_P, set_relative_P, set_recall, set_map, set_F,
# num_nonrel_judged_ret, rbp, rbp_resid, unj_*, relstring; runid and num_q are not measures.
NOT_IMPLEMENTED_PREFIXES = (
    "bpref",
    "infAP",
    "gm_bpref",
    "iprec_at_recall_",
    "11pt_avg",
    "Rprec_mult_",
    "utility",
    "binG",
    "G",
    "ndcg_rel",
    "Rndcg",
    "relative_P_",
    "set_",
    "num_nonrel_judged_ret",
    "rbp",
    "unj_",
    "relstring",
    "runid",
    "num_q",
)

CASES = {
    "aq": ("qrels.test", "out.test.aq", 1),
    "aql": ("qrels.rel_level", "out.test.aql", 2),
}


def expected_lines(data: Path, output: str) -> list[tuple[str, str, str]]:
    rows = []
    for line in (data / output).read_text().splitlines():
        measure, qid, value = line.split("\t")
        rows.append((measure.strip(), qid, value))
    return rows


@cache
def evaluation(data: Path, case: str) -> rm.Evaluation:
    qrels, _, level = CASES[case]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # every judged query is in this run: no warning expected
        return rm.evaluate(data / qrels, data / "results.test", list(IMPLEMENTED), relevance_level=level)


def printed(measure: str, value: float) -> str:
    # trec_eval prints counts as integers and everything else with %6.4f.
    return f"{int(value)}" if measure.startswith("num_") else f"{value:.4f}"


def trec_eval_lines(data: Path) -> list:
    """(case, measure, qid, value) for every printed line of an implemented measure.

    conftest's pytest_generate_tests gives one to each test asking for trec_eval_line.
    """
    return [
        pytest.param((case, measure, qid, value), id=f"{case}-{measure}-{qid}")
        for case, (_, output, _) in CASES.items()
        for measure, qid, value in expected_lines(data, output)
        if measure in IMPLEMENTED
    ]


def test_value_matches_trec_eval(trec_eval_data, trec_eval_line):
    case, measure, qid, value = trec_eval_line
    result = evaluation(trec_eval_data, case)
    got = result.summary[measure] if qid == "all" else result.value(measure, qid)
    assert printed(measure, got) == value


@pytest.mark.parametrize("case", CASES)
def test_every_implemented_measure_is_checked_for_every_query(trec_eval_data, case):
    _, output, _ = CASES[case]
    lines = expected_lines(trec_eval_data, output)
    covered = {(m, q) for m, q, _ in lines if m in IMPLEMENTED}
    result = evaluation(trec_eval_data, case)
    for measure in IMPLEMENTED:
        # gm_map is printed only for "all"; every other measure for each query too.
        queries = ["all"] if measure == "gm_map" else [*result.queries, "all"]
        assert {(measure, q) for q in queries} <= covered, measure


@pytest.mark.parametrize("case", CASES)
def test_query_count_matches_num_q(trec_eval_data, case):
    _, output, _ = CASES[case]
    num_q = next(v for m, q, v in expected_lines(trec_eval_data, output) if m == "num_q")
    assert str(len(evaluation(trec_eval_data, case).queries)) == num_q == "3"


@pytest.mark.parametrize("case", CASES)
def test_the_unimplemented_list_is_complete(trec_eval_data, case):
    _, output, _ = CASES[case]
    for measure, _, _ in expected_lines(trec_eval_data, output):
        assert measure in IMPLEMENTED or measure.startswith(NOT_IMPLEMENTED_PREFIXES), measure


def test_to_trec_eval_prints_the_same_lines(trec_eval_data):
    # The text export reproduces trec_eval's lines for the implemented measures (whitespace aside).
    result = evaluation(trec_eval_data, "aq")
    ours = {tuple(line.split()) for line in result.to_trec_eval().splitlines()}
    theirs = {(m, q, v) for m, q, v in expected_lines(trec_eval_data, "out.test.aq") if m in IMPLEMENTED}
    assert theirs <= ours
    assert len(ours) == len(theirs) + 3  # gm_map per query is ours only (trec_eval prints just "all")


def test_tie_rule_matters_on_this_run(trec_eval_data):
    # results.test has tied scores; ordering ties as they appear in the file instead of by
    # docno descending changes printed values, so the conformance above really tests the rule.
    qrels = trec_eval_data / "qrels.rel_level"
    run = trec_eval_data / "results.test"
    trec = rm.evaluate(qrels, run, ["ndcg_cut_100", "map"], relevance_level=2)
    other = rm.evaluate(qrels, run, ["ndcg_cut_100", "map"], relevance_level=2, ties="input_order")
    differing = [
        (m, q)
        for m in ("ndcg_cut_100", "map")
        for i, q in enumerate(trec.queries)
        if printed(m, trec.per_query[m][i]) != printed(m, other.per_query[m][i])
    ]
    assert differing  # at least one printed value depends on the tie rule
