"""trec_eval's measures of a judged run that the other metric modules do not cover.

These are the rest of ``trec_eval -m all_trec`` (trec_eval 10.0): bpref and
infAP for incomplete judgements, interpolated precision, precision at
multiples of R, the set measures, the experimental gain measures (binG, G,
ndcg_rel, Rndcg), rank-biased precision, and the bookkeeping lines (``runid``,
``num_q``, ``relstring``, ``unj_k``, ``num_nonrel_judged_ret``).

Each function takes what :func:`rankmetrics.evaluate` hands its metrics, one
query per row, in ranked order, padded on the right, and returns one value per
query. trec_eval sorts each ranked document into one of four kinds
(``form_res_rels.c``), and so do the arguments here:

- **relevant**: judged with a grade >= the relevance level (``-l``);
- **non-relevant**: judged with 0 <= grade < the relevance level;
- **in the pool but unjudged**: in the qrels with a negative grade (TREC's -1,
  e.g. the documents infAP's sampling left unjudged);
- **not in the pool**: not in the qrels at all.

A query without relevant documents scores 0 on every measure, as in
trec_eval. Each docstring names the paper that defined the measure and the
trec_eval file (``m_*.c``) whose conventions it follows; the code is written
from those descriptions, not copied.

One module per family, each read like a trec_eval ``m_*.c`` file: the
formulas, then a ``MEASURES`` tuple of :func:`trec_measure` declarations
(trec_eval's ``TREC_MEAS`` structs). This module registers them in the
order :data:`REGISTRATION_ORDER` names, as trec_eval's ``measures.c`` lists
its measures in one table: no module's registration depends on which was
imported first.
"""

from __future__ import annotations

from ...registry import register
from . import bookkeeping, gain_measures, incomplete, interpolated, rbp, set_measures
from ._common import trec_measure
from .bookkeeping import judged_counts, judged_fraction, relevance_string, unjudged_fraction
from .gain_measures import (
    binary_g,
    discounted_gain,
    ideal_discounted_gain,
    ndcg_at_r_levels,
    ndcg_over_relevant,
    normalized_gain,
)
from .incomplete import bpref, inferred_ap
from .interpolated import (
    eleven_point_average,
    interpolated_precision,
    r_precision_multiple,
    relative_precision,
)
from .rbp import rank_biased_precision, rbp_residual
from .set_measures import set_f, set_map, set_precision, set_recall, set_relative_precision, utility

__all__ = [
    "binary_g",
    "bpref",
    "discounted_gain",
    "eleven_point_average",
    "ideal_discounted_gain",
    "inferred_ap",
    "interpolated_precision",
    "judged_counts",
    "judged_fraction",
    "ndcg_at_r_levels",
    "ndcg_over_relevant",
    "normalized_gain",
    "r_precision_multiple",
    "rank_biased_precision",
    "rbp_residual",
    "relative_precision",
    "relevance_string",
    "set_f",
    "set_map",
    "set_precision",
    "set_recall",
    "set_relative_precision",
    "trec_measure",
    "unjudged_fraction",
    "utility",
]

# The order the registry lists these measures in (after the package's own metrics), which
# lists in evaluate's messages follow. A new measure goes at the end.
REGISTRATION_ORDER = (
    "runid",
    "num_q",
    "bpref",
    "gm_bpref",
    "inferred_ap",
    "interpolated_precision",
    "eleven_point_average",
    "r_precision_multiple",
    "utility",
    "binary_g",
    "normalized_gain",
    "ndcg_over_relevant",
    "ndcg_at_r_levels",
    "relative_precision",
    "set_precision",
    "set_relative_precision",
    "set_recall",
    "set_map",
    "set_f",
    "num_nonrel_judged_ret",
    "rank_biased_precision",
    "rbp_residual",
    "unjudged_fraction",
    "judged_fraction",
    "relevance_string",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "gm_map",
    "trec_dcg",
    "ideal_dcg",
)

_DECLARED = [
    m
    for module in (bookkeeping, incomplete, interpolated, set_measures, gain_measures, rbp)
    for m in module.MEASURES
]
assert sorted(m.name for m in _DECLARED) == sorted(REGISTRATION_ORDER), (
    "each measure is declared and registered once"
)
_BY_NAME = {m.name: m for m in _DECLARED}
for _name in REGISTRATION_ORDER:
    register(_BY_NAME[_name])
del _name
