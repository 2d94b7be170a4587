"""Every registered metric is reachable wherever its registration says it is.

The registry (rankmetrics.registry.METRICS) declares each metric once: the names
evaluate() accepts, its subcommand, its step table, whether worksheets use it. The
tests below walk the registry, so a new metric is checked without editing them, and
compare what it declares with the lists users rely on, written out here, so a
registration that is dropped or loses a name fails too.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import rankmetrics as rm
from rankmetrics import cli, registry
from rankmetrics.teaching import catalogue

# Small judgements and a run without tied scores. Ranked: q1 a b c x y (z judged relevant,
# never retrieved), q2 h i d e, q3 f j g.
QRELS = {
    "q1": {"a": 2, "b": 0, "c": 1, "z": 1},
    "q2": {"d": 1, "e": 3},
    "q3": {"f": 0, "g": 1},
}
RUN = {
    "q1": {"a": 0.9, "b": 0.8, "c": 0.7, "x": 0.6, "y": 0.5},
    "q2": {"d": 0.2, "e": 0.1, "h": 0.9, "i": 0.8},
    "q3": {"f": 0.9, "g": 0.3, "j": 0.5},
}
K = 3

# What users may type and rely on today: evaluate names (with the cutoff 3), subcommands,
# step tables, worksheet metrics, the public names. Changing one is a decision, made here too.
EVALUATE_NAMES = {
    "ndcg": ["ndcg", "ndcg@3", "ndcg_cut_3"],
    "precision": ["precision@3", "p@3", "P_3"],
    "recall": ["recall@3", "r@3", "recall_3"],
    "f1": ["f1@3"],
    "hit_rate": ["hit_rate@3", "hr@3", "success@3", "success_3"],
    "hits": ["hits", "hits@3"],
    "r_precision": ["r_precision", "rprec", "Rprec"],
    "reciprocal_rank": ["rr", "rr@3", "mrr", "mrr@3", "recip_rank"],
    "expected_reciprocal_rank": ["err", "err@3"],
    "average_precision": ["ap", "ap@3", "map", "map@3", "map_cut_3"],
    "num_ret": ["num_ret"],
    "num_rel": ["num_rel"],
    "num_rel_ret": ["num_rel_ret"],
    "gm_map": ["gm_map"],
    # trec_eval's other measures (rankmetrics.metrics.trec_measures)
    "runid": ["runid"],
    "num_q": ["num_q"],
    "bpref": ["bpref"],
    "gm_bpref": ["gm_bpref"],
    "inferred_ap": ["infAP"],
    "interpolated_precision": ["iprec_at_recall_0.50"],
    "eleven_point_average": ["11pt_avg"],
    "r_precision_multiple": ["Rprec_mult_0.50"],
    "utility": ["utility"],
    "binary_g": ["binG"],
    "normalized_gain": ["G"],
    "ndcg_over_relevant": ["ndcg_rel"],
    "ndcg_at_r_levels": ["Rndcg"],
    "relative_precision": ["relative_P_3"],
    "set_precision": ["set_P"],
    "set_relative_precision": ["set_relative_P"],
    "set_recall": ["set_recall"],
    "set_map": ["set_map"],
    "set_f": ["set_F"],
    "num_nonrel_judged_ret": ["num_nonrel_judged_ret"],
    "rank_biased_precision": ["rbp"],
    "rbp_residual": ["rbp_resid"],
    "unjudged_fraction": ["unj_3"],
    "judged_fraction": ["judged", "judged@3"],
    "relevance_string": ["relstring", "relstring_3"],
    "trec_dcg": ["dcg"],
    "ideal_dcg": ["ideal_dcg"],
}
TEXT_VALUED = ["runid", "relstring", "relstring_3"]  # per-query values are text, not numbers
COMMANDS = ["ndcg", "dcg", "precision", "recall", "f1", "hit-rate", "rr", "mr", "ap", "mrr", "map"]
COMMANDS += ["mse", "mae", "rmse"]
EXPLAINED = [
    "ndcg",
    "dcg",
    "precision",
    "recall",
    "f1",
    "hit_rate",
    "hits",
    "r_precision",
    "reciprocal_rank",
    "mean_rank",
    "average_precision",
    "expected_reciprocal_rank",
    "mean_reciprocal_rank",
    "mean_average_precision",
    "mse",
    "mae",
    "rmse",
    "coverage",
    "novelty",
    "average_popularity",
    "long_tail_share",
    "gini_index",
    "entropy",
    "intra_list_diversity",
    "calibration_kl",
    "ips",
    "snips",
    "sampled_expectation",
]
ON_WORKSHEETS = [
    name
    for name in EXPLAINED
    if name not in ("hits", "r_precision", "expected_reciprocal_rank", "mse", "mae", "rmse")
    and registry.METRICS[name].inputs in ("ranking", "queries")
]
PUBLIC = [
    "Comparison",
    "Evaluation",
    "Explanation",
    "RecommendationLists",
    "Worksheet",
    "average_popularity",
    "average_precision",
    "calibration_kl",
    "compare",
    "corrected_sampled_metric",
    "coverage",
    "dcg",
    "entropy",
    "evaluate",
    "expected_reciprocal_rank",
    "explain",
    "exposure",
    "f1",
    "gini_index",
    "hit_rate",
    "hits",
    "holm",
    "intra_list_diversity",
    "ips",
    "language",
    "long_tail_share",
    "mae",
    "make_worksheet",
    "mean_average_precision",
    "mean_rank",
    "mean_reciprocal_rank",
    "mse",
    "ndcg",
    "novelty",
    "order_by_score",
    "precision",
    "r_precision",
    "read_qrels",
    "read_run",
    "recall",
    "reciprocal_rank",
    "recommendation_lists",
    "rmse",
    "sample_ranks",
    "sampled_correction",
    "sampled_expectation",
    "sampled_rank_probabilities",
    "set_language",
    "simulate_sampled_metric",
    "snips",
    "use_language",
]


def registered(**conditions):
    """The registered metrics that meet the conditions, one pytest.param each, named by metric."""
    return [pytest.param(m, id=m.name) for m in registry.where(**conditions)]


def taught(**conditions):
    """The registered metrics whose teaching entry meets the conditions, one pytest.param each."""
    return [pytest.param(registry.METRICS[t.name], id=t.name) for t in catalogue.where(**conditions)]


def evaluate_names(metric: registry.Metric) -> tuple[list[str], list[str]]:
    """The names evaluate() should accept for a metric: (with the cutoff K, without a cutoff)."""
    cut, whole = [], []
    for name in metric.names:
        if metric.cutoff != "none":
            cut.append(f"{name}@{K}")
        if metric.cutoff != "required":
            whole.append(name)
    if metric.trec_cutoff_name:
        cut.append(f"{metric.trec_cutoff_name}_{K}")
    if metric.trec_name and metric.trec_name not in whole:
        # A trec_eval level (iprec_at_recall_0.50) is part of the name; other parameters have defaults.
        whole.append(f"{metric.trec_name}_0.50" if metric.parameter == "level" else metric.trec_name)
    return cut, whole


def ranked(qid: str) -> list[str]:
    return sorted(RUN[qid], key=RUN[qid].get, reverse=True)


# ---------------------------------------------------------------- evaluate


@pytest.mark.parametrize("metric", registered(evaluate=lambda e: e is not None))
def test_every_name_of_a_metric_gives_the_same_values(metric):
    cut, whole = evaluate_names(metric)
    assert cut or whole, f"{metric.name} has an evaluate function but no name to reach it"
    result = rm.evaluate(QRELS, RUN, cut + whole)
    assert result.queries == ("q1", "q2", "q3")
    for group, k in ((cut, K), (whole, None)):
        for name in group:
            np.testing.assert_array_equal(result.per_query[name], result.per_query[group[0]], err_msg=name)
        if group and metric.function is not None:
            # and they are the metric's own function on each ranked query (the ids form's
            # defaults are trec_eval's, as evaluate's are)
            cutoff = {} if k is None else {"k": k}
            expected = [metric.function(ranked(q), relevant=QRELS[q], **cutoff) for q in result.queries]
            np.testing.assert_allclose(result.per_query[group[0]], expected, rtol=1e-12, err_msg=group[0])


def test_evaluate_accepts_the_names_users_know():
    derived = {}
    for metric in registry.where(evaluate=lambda e: e is not None):
        cut, whole = evaluate_names(metric)
        derived[metric.name] = sorted(cut + whole)
    assert derived == {name: sorted(names) for name, names in EVALUATE_NAMES.items()}
    every = [name for names in EVALUATE_NAMES.values() for name in names]
    result = rm.evaluate(QRELS, RUN, every)
    numbers = [name for name in every if name not in TEXT_VALUED]
    assert all(np.all(np.isfinite(result.per_query[name].astype(float))) for name in numbers)
    assert all(isinstance(value, str) for name in TEXT_VALUED for value in result.per_query[name])
    assert set(result.summary) == set(every)


@pytest.mark.parametrize("metric", registered(evaluate=lambda e: e is not None))
def test_a_metric_asked_alone_gives_what_it_gives_among_all(metric):
    # evaluate ranks only as deep as the asked metrics need: a metric that says it needs less
    # than it reads (reads_ranking, a cutoff) would change when asked alone.
    every = [name for names in EVALUATE_NAMES.values() for name in names]
    together = rm.evaluate(QRELS, RUN, every)
    for name in EVALUATE_NAMES[metric.name]:
        alone = rm.evaluate(QRELS, RUN, [name])
        np.testing.assert_array_equal(alone.per_query[name], together.per_query[name], err_msg=name)


def test_the_query_counts_by_hand():
    result = rm.evaluate(QRELS, RUN, ["num_ret", "num_rel", "num_rel_ret"])
    np.testing.assert_array_equal(result.per_query["num_ret"], [5, 4, 3])
    np.testing.assert_array_equal(result.per_query["num_rel"], [3, 2, 1])  # a, c, z; d, e; g
    np.testing.assert_array_equal(result.per_query["num_rel_ret"], [2, 2, 1])


# ---------------------------------------------------------------- the command line


@pytest.mark.parametrize("metric", registered(command=bool))
def test_every_command_is_a_subcommand(metric, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main([metric.command, "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert f"rankmetrics {metric.command}" in out
    with rm.use_language("ko"):
        title = rm.i18n._(metric.title)
    assert title in out and title != metric.title  # the command line speaks the catalogue's Korean


def test_the_subcommands_users_know(capsys):
    assert [m.command for m in registry.where(command=bool)] == COMMANDS
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for command in COMMANDS:
        assert command in out, command


# ---------------------------------------------------------------- explain


# issue 31 §4's toy data, one call per recommender measure (k as a keyword: the functions'
# second positional argument is their data).
LISTS = {"u1": ["a", "b", "c"], "u2": ["a", "b", "d"], "u3": ["a", "c", "e"]}
COUNTS = {"a": 50, "b": 30, "c": 10, "d": 5, "e": 4, "f": 1}
GENRES = {
    "a": {"action"},
    "b": {"action", "comedy"},
    "c": {"drama"},
    "d": {"comedy"},
    "e": {"drama", "romance"},
}
ROUNDS = {"target_p": [0.2, 0.2, 0.8, 0.2, 0.8, 0.2], "logging_p": [0.8, 0.8, 0.2, 0.8, 0.2, 0.8]}
RECOMMENDER_EXAMPLES = {
    "coverage": ((LISTS,), {"catalog": "abcdef", "k": 2}),
    "novelty": ((LISTS,), {"interactions": COUNTS, "k": 2}),
    "average_popularity": ((LISTS,), {"interactions": COUNTS, "k": 2}),
    "long_tail_share": ((LISTS,), {"interactions": COUNTS, "k": 2}),
    "gini_index": ((LISTS,), {"catalog": "abcdef", "k": 2}),
    "entropy": ((LISTS,), {"k": 2}),
    "intra_list_diversity": ((LISTS,), {"features": GENRES, "k": 2}),
    "calibration_kl": ((LISTS,), {"recs": {"u1": ["d", "e"], "u2": ["a"], "u3": ["b"]}, "genres": GENRES}),
    "ips": (([1, 1, 1, 0, 0, 0],), ROUNDS),
    "snips": (([1, 1, 1, 0, 0, 0],), ROUNDS),
    "sampled_expectation": (("nDCG@10",), {"ranks": [40], "n_items": 1000, "n_negatives": 100}),
}


def example_input(metric: registry.Metric) -> tuple[tuple, dict]:
    """Arguments suited to the metric's inputs: (positional, keywords), with k when it takes one."""
    k = () if metric.cutoff == "none" else (K,)
    if metric.inputs == "ranking":
        return ([3, 0, 2, 1, 0, 1], *k), {}
    if metric.inputs == "queries":
        return ([[1, 0, 1, 0], [0, 0, 2, 1], [0, 1, 0, 0]], *k), {}
    if metric.inputs == "ratings":
        return ([3.0, 4.0, 5.0, 1.0],), {"y_pred": [2.5, 4.0, 4.0, 2.0]}
    if metric.name in RECOMMENDER_EXAMPLES:  # x is the function's first argument, the rest are keywords
        return RECOMMENDER_EXAMPLES[metric.name]
    raise AssertionError(f"{metric.name}: explain for inputs={metric.inputs!r} needs an example here")


@pytest.mark.parametrize("metric", taught(explain=bool))
def test_every_explained_metric_gives_its_own_value(metric):
    args, keywords = example_input(metric)
    shown = rm.explain(metric.name, *args, **keywords)
    expected = metric.function(*args, **keywords)
    if metric.inputs == "held_out":  # one value per user; explain shows one user
        (expected,) = expected
    assert not math.isnan(expected)
    assert shown.value == expected
    assert shown.rows


@pytest.mark.parametrize("metric", [m for m in taught(explain=bool) if m.values[0].inputs == "ranking"])
def test_every_explained_ranking_metric_takes_item_ids(metric):
    k = {} if metric.cutoff == "none" else {"k": K}
    ranking, relevant = ["A", "B", "C", "D", "E"], {"A": 2, "C": 1, "F": 1}
    shown = rm.explain(metric.name, ranking, relevant=relevant, **k)
    assert shown.value == metric.function(ranking, relevant=relevant, **k)


def test_the_metrics_explain_knows():
    assert [t.name for t in catalogue.where(explain=bool)] == EXPLAINED


# ---------------------------------------------------------------- worksheets


@pytest.mark.parametrize("metric", taught(worksheet=bool))
def test_every_worksheet_metric_can_be_set(metric):
    sheet = rm.make_worksheet(seed=3, count=2, metrics=[metric.name])
    assert [problem.metric for problem in sheet.problems] == [metric.name, metric.name]
    assert sheet.answer_markdown


def test_the_metrics_worksheets_use():
    assert [t.name for t in catalogue.where(worksheet=bool)] == ON_WORKSHEETS
    sheet = rm.make_worksheet(seed=3, count=len(ON_WORKSHEETS), metrics=ON_WORKSHEETS)
    assert [problem.metric for problem in sheet.problems] == ON_WORKSHEETS


# ---------------------------------------------------------------- the public names


def test_public_names_are_pinned():
    assert rm.__all__ == PUBLIC
    assert all(callable(getattr(rm, name)) for name in PUBLIC)


def test_every_public_metric_function_is_registered():
    # Every registered metric with a function has a step table, so EXPLAINED lists them all.
    # (exposure, which returns a share per group, and the sampled-metric helpers beside
    # sampled_expectation are public functions without a registration.)
    with_function = [m.name for m in registry.METRICS.values() if m.function is not None]
    assert with_function == EXPLAINED
    for name in EXPLAINED:
        assert registry.METRICS[name].function is getattr(rm, name), name
