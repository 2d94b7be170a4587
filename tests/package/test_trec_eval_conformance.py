"""Evaluation.to_trec_eval() must print what trec_eval prints, line for line.

The expected lines are trec_eval's own test outputs (book/data/trec_eval, from NIST):
out.test.aq is `trec_eval -m all_trec -q qrels.test results.test` (binary judgements),
out.test.aql is `trec_eval -m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test`
(graded; grade >= 2 counts as relevant for the binary measures, the gain measures keep the
raw grades), and out.test.a is the first without -q (only the `all` lines). Every line of
the three files is compared as text: the measure's name padded to 22 characters, the query
(or `all`), and the value as trec_eval prints it (counts as integers, `runid` and
`relstring` as text, everything else with 4 decimals). One test per line.
"""

from __future__ import annotations

import warnings
from functools import cache
from pathlib import Path

import pytest

import rankmetrics as rm

# case: (qrels, trec_eval's output, relevance level, per-query lines printed (-q))
CASES = {
    "aq": ("qrels.test", "out.test.aq", 1, True),
    "aql": ("qrels.rel_level", "out.test.aql", 2, True),
    "a": ("qrels.test", "out.test.a", 1, False),
}


def expected_lines(data: Path, output: str) -> list[str]:
    return (data / output).read_text().splitlines()


def measures_printed(lines: list[str]) -> list[str]:
    """The measures of an output, in trec_eval's order (``te_trec_measures`` in measures.c).

    Per query trec_eval prints all but the summary-only measures (runid, num_q, gm_map,
    gm_bpref), and for `all` all but relstring: the two orders are merged into one.
    """
    names = [line.split("\t") for line in lines]
    first = next((qid for _, qid, _ in names if qid != "all"), None)
    per_query = [m.strip() for m, qid, _ in names if qid == first]
    summary = [m.strip() for m, qid, _ in names if qid == "all"]
    merged: list[str] = []
    for name in summary:
        if name in per_query:
            merged += [m for m in per_query[: per_query.index(name)] if m not in merged]
        merged.append(name)
    return merged + [m for m in per_query if m not in merged]


@cache
def printed(data: Path, case: str) -> list[str]:
    qrels, output, level, queries = CASES[case]
    metrics = measures_printed(expected_lines(data, output))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # every judged query is in this run: no warning expected
        result = rm.evaluate(data / qrels, data / "results.test", metrics, relevance_level=level)
    return result.to_trec_eval(queries=queries).splitlines()


def trec_eval_lines(data: Path) -> list:
    """(case, line number, line) for every line of the three outputs.

    conftest's pytest_generate_tests gives one to each test asking for trec_eval_line.
    """
    return [
        pytest.param((case, i, line), id=f"{case}-{line.split()[0]}-{line.split()[1]}")
        for case, (_, output, _, _) in CASES.items()
        for i, line in enumerate(expected_lines(data, output))
    ]


def test_line_matches_trec_eval(trec_eval_data, trec_eval_line):
    case, i, line = trec_eval_line
    ours = printed(trec_eval_data, case)
    assert i < len(ours), (
        f"{case}: trec_eval prints {line!r} here; rankmetrics printed only {len(ours)} lines"
    )
    assert ours[i] == line


@pytest.mark.parametrize("case", CASES)
def test_no_line_more_or_less(trec_eval_data, case):
    _, output, _, _ = CASES[case]
    assert len(printed(trec_eval_data, case)) == len(expected_lines(trec_eval_data, output))


def test_every_measure_of_all_trec_is_compared(trec_eval_data):
    # trec_eval 10.0's all_trec (measures.c), in its printing order: each is in the files.
    all_trec = [
        "runid",
        "num_q",
        "num_ret",
        "num_rel",
        "num_rel_ret",
        "map",
        "gm_map",
        "Rprec",
        "bpref",
        "recip_rank",
        "iprec_at_recall",
        "P",
        "relstring",
        "recall",
        "infAP",
        "gm_bpref",
        "Rprec_mult",
        "utility",
        "11pt_avg",
        "binG",
        "G",
        "ndcg",
        "ndcg_rel",
        "Rndcg",
        "ndcg_cut",
        "map_cut",
        "relative_P",
        "success",
        "set_P",
        "set_relative_P",
        "set_recall",
        "set_map",
        "set_F",
        "num_nonrel_judged_ret",
        "rbp",
        "rbp_resid",
        "unj",
    ]
    for case, (_, output, _, _) in CASES.items():
        names = measures_printed(expected_lines(trec_eval_data, output))
        roots = [
            next(root for root in sorted(all_trec, key=len, reverse=True) if n.startswith(root))
            for n in names
        ]
        expected = [m for m in all_trec if case != "a" or m != "relstring"]
        assert list(dict.fromkeys(roots)) == expected, case


def test_tie_rule_matters_on_this_run(trec_eval_data):
    # results.test has tied scores; ordering ties as they appear in the file instead of by
    # docno descending changes printed values, so the conformance above really tests the rule.
    qrels = trec_eval_data / "qrels.rel_level"
    run = trec_eval_data / "results.test"
    trec = rm.evaluate(qrels, run, ["ndcg_cut_100", "map"], relevance_level=2)
    other = rm.evaluate(qrels, run, ["ndcg_cut_100", "map"], relevance_level=2, ties="input_order")
    assert trec.to_trec_eval() != other.to_trec_eval()
