"""Step tables for estimates: off-policy IPS and SNIPS, and one user's expected sampled metric.

IPS and SNIPS read the weights and rewards the metric functions use
(:func:`weighted_rewards`). The sampled table takes each sampled rank's probability
from :func:`sampled_rank_probabilities` (the hypergeometric terms) and writes the
metric's value at that rank by hand; :func:`steps.verify` binds the sum of the
terms to :func:`sampled_expectation`.

Toy data of the examples (issue 31 §4): six logged rounds with logging probabilities
(0.8, 0.2) and target (0.2, 0.8), rewards (1, 1, 1, 0, 0, 0); and §3's held-out item at
full rank 40 of 1,000 items, ranked among 100 sampled negatives.

>>> from rankmetrics import explain
>>> logging, target = [0.8, 0.8, 0.2, 0.8, 0.2, 0.8], [0.2, 0.2, 0.8, 0.2, 0.8, 0.2]
>>> e = explain("ips", [1, 1, 1, 0, 0, 0], target_p=target, logging_p=logging)
>>> [row["weight"] for row in e.rows], e.value
([0.25, 0.25, 4.0, 0.25, 4.0, 0.25], 0.75)
>>> explain("snips", [1, 1, 1, 0, 0, 0], target_p=target, logging_p=logging).steps[-1]
'SNIPS = (0.25 + 0.25 + 4 + 0 + 0 + 0) ÷ (0.25 + 0.25 + 4 + 0.25 + 4 + 0.25) = 0.5'
>>> e = explain("sampled_expectation", "HR@10", ranks=40, n_items=1000, n_negatives=100)
>>> [row["rank"] for row in e.rows], round(e.value, 4)  # P(r) for r = 1..10, summed
([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9966)
"""

from __future__ import annotations

import numpy as np

from ...i18n import _
from ...metrics.off_policy import weighted_rewards
from ...metrics.sampled import metric_at_rank, sampled_rank_probabilities
from ...registry import METRICS
from .steps import Column, Explanation, Section, exact_text, finish, none_words, verify


def _conventions(denominator: str, gain: str) -> dict[str, str]:
    return {
        "gain": gain,
        "discount": none_words(),
        "ideal": none_words(),
        "denominator": denominator,
        "cutoff": none_words(),
    }


def explain_off_policy(metric, rewards, k, target_p, logging_p, clip=None) -> Explanation:
    official = METRICS[metric].function(rewards, target_p, logging_p, clip)
    weights, values = weighted_rewards(rewards, target_p, logging_p, clip)
    target = np.asarray(target_p, dtype=float)
    logging = np.asarray(logging_p, dtype=float)
    products = weights * values
    rows = [
        {
            "round": i + 1,
            "target": float(target[i]),
            "logging": float(logging[i]),
            "weight": float(weights[i]),
            "reward": float(values[i]),
            "product": float(products[i]),
        }
        for i in range(weights.size)
    ]
    label = METRICS[metric].label
    top = " + ".join(exact_text(float(x)) for x in products)
    if metric == "ips":
        stepwise = float(np.mean(weights * values))
        line = f"{label} = ({top}) ÷ {weights.size} = {exact_text(stepwise)}"
        denominator = _("the number of logged rounds n = {n}").format(n=weights.size)
    else:
        stepwise = float(np.sum(weights * values) / np.sum(weights))
        bottom = " + ".join(exact_text(float(x)) for x in weights)
        line = f"{label} = ({top}) ÷ ({bottom}) = {exact_text(stepwise)}"
        denominator = _("the sum of the weights Σ w = {total}").format(total=exact_text(float(weights.sum())))
    value = verify(label, stepwise, official)
    lines = [_("weight w = target_p ÷ logging_p")]
    if clip is not None:
        lines[0] += " " + _("(capped at clip = {clip})").format(clip=exact_text(float(clip)))
    lines.append(line)
    columns = [
        Column("round", _("round")),
        Column("target", "target_p"),
        Column("logging", "logging_p"),
        Column("weight", _("weight w")),
        Column("reward", _("reward r")),
        Column("product", "w × r"),
    ]
    sections = [Section(_("logged rounds"), columns, rows, lines)]
    conventions = _conventions(denominator, _("each round's reward times its weight"))
    return finish(metric, label, value, None, rows, conventions, sections, None)


def explain_sampled(metric, sampled_metric, k, ranks, n_items, n_negatives, replace=False) -> Explanation:
    official = METRICS[metric].function(sampled_metric, ranks, n_items, n_negatives, replace)
    if official.size != 1:
        raise ValueError(
            _("explain shows one user at a time; ranks holds {n} users. Pass one rank.").format(
                n=official.size
            )
        )
    rank = int(np.atleast_1d(np.asarray(ranks))[0])
    probability = sampled_rank_probabilities(n_items, n_negatives, ranks=[rank], replace=replace)[0]
    r = np.arange(1, n_negatives + 2)
    values = metric_at_rank(sampled_metric, r, n_negatives + 1)
    terms = probability * values
    shown = np.flatnonzero(terms != 0)
    running = np.cumsum(terms[shown])
    rows = [
        {
            "rank": int(r[i]),
            "probability": float(probability[i]),
            "value": float(values[i]),
            "term": float(terms[i]),
            "sum": float(running[j]),
        }
        for j, i in enumerate(shown.tolist())
    ]
    label = f"E[{sampled_metric.strip()}]"
    stepwise = float(terms.sum())
    value = verify(label, stepwise, float(official[0]))
    above, below = rank - 1, n_items - rank
    law, formula = (
        (
            f"Binomial({n_negatives}, {above} ÷ {n_items - 1})",
            f"P(X = x) = C({n_negatives}, x) p^x (1 − p)^({n_negatives} − x), p = {above} ÷ {n_items - 1}",
        )
        if replace
        else (
            f"Hypergeometric({n_items - 1}, {above}, {n_negatives})",
            f"P(X = x) = C({above}, x) × C({below}, {n_negatives} − x) ÷ C({n_items - 1}, {n_negatives})",
        )
    )
    lines = [
        _(
            "the held-out item is at full rank {rank} of {n_items}; among itself and {n} sampled negatives "
            "its sampled rank is 1 + X, X ~ {law} (the items above it that the sample catches)"
        ).format(rank=rank, n_items=n_items, n=n_negatives, law=law),
        f"P(r) = P(X = r − 1),  {formula}",
        _("only the sampled ranks where the metric is not 0 are listed; the others add 0"),
        f"{label} = Σ P(r) × {sampled_metric.strip()}(r) = {exact_text(value)}",
    ]
    columns = [
        Column("rank", _("sampled rank r")),
        Column("probability", "P(r)"),
        Column("value", _("metric at r")),
        Column("term", _("P(r) × metric")),
        Column("sum", _("running sum")),
    ]
    sections = [Section(_("sampled ranks and their probabilities"), columns, rows, lines)]
    conventions = _conventions(
        _("none (a probability-weighted sum)"),
        _("the metric at each sampled rank, weighted by its probability"),
    )
    return finish(metric, label, value, None, rows, conventions, sections, None)
