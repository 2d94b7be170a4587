"""The teaching catalogue: what the book and the classroom say about each metric.

The registry (:mod:`rankmetrics.registry`) knows how to compute a metric and
what it is called. This catalogue holds the rest, keyed by the metric's
registered name: which step table :func:`rankmetrics.explain` draws and its
last step, the symbol written in step formulas, the command lines shown in the
subcommand's help, the kind of problem worksheets set, whether the book's
in-page checker computes it, and the book's metric reference (지표 사전):
Korean name, LaTeX formula, conventions, papers, chapter.

One module per family (:mod:`.hits`, :mod:`.ranks`, :mod:`.dcg`,
:mod:`.ratings`, :mod:`.recommenders`, :mod:`.trec`), one ``teach(Teaching(...))`` per metric. An
entry is optional: a metric without one is computed, named and offered on the
command line like any other, and ``explain`` says it has no step table.

The metric modules never import this package (a test checks), so
``import rankmetrics`` loads no teaching code.
"""

from __future__ import annotations

from . import dcg, hits, ranks, ratings, recommenders, trec  # noqa: F401  (the entries, family by family)
from .entries import (
    CATALOGUE,
    EXPLAIN_FAMILIES,
    Exercise,
    Reference,
    Teaching,
    entry,
    symbol,
    teach,
    where,
)

__all__ = [
    "CATALOGUE",
    "EXPLAIN_FAMILIES",
    "Exercise",
    "Reference",
    "Teaching",
    "entry",
    "symbol",
    "teach",
    "where",
]
