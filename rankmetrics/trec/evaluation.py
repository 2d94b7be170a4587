"""The result of :func:`rankmetrics.evaluate`: per-query values, the summary, and how they print.

:class:`Evaluation` shows as a table in a notebook and in ``print``, gives
plain Python data (:meth:`Evaluation.to_dict`) and writes trec_eval's own
text format (:meth:`Evaluation.to_trec_eval`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..i18n import _, ngettext
from ..registry import Metric
from ..tables import html_table, text_table
from .frames import per_query_frame
from .names import Measure, parse_metric, trec_eval_name
from .recsys_frames import removed_text

# trec_eval floors each value at this before taking a geometric mean (gm_map, gm_bpref).
GM_FLOOR = 0.00001


def summary_terms(metric: Metric, values: np.ndarray) -> np.ndarray:
    """Each query's term of a metric's summary: the values whose arithmetic mean (or sum) it is.

    A geometric mean (``gm_map``, ``gm_bpref``) is ``exp`` of the mean of
    ``ln(max(x, GM_FLOOR))``, as trec_eval computes it, so its terms are those
    logarithms; for a mean or a sum (the counts) the terms are the values
    themselves. :func:`rankmetrics.compare` tests the terms, so that it tests
    the number :func:`rankmetrics.evaluate` shows.
    """
    if metric.summary == "geometric":
        return np.log(np.maximum(values, GM_FLOOR))
    return np.asarray(values, dtype=float)


@dataclass(frozen=True, repr=False)
class Evaluation:
    """Per-query values and the summary of each metric, as :func:`evaluate` returns them.

    Attributes
    ----------
    queries : tuple of str
        The evaluated query ids, in trec_eval's order (sorted as text).
    per_query : dict
        ``{metric: 1-D array}``, one value per query, aligned with ``queries``.
    summary : dict
        ``{metric: float}``: trec_eval's ``all`` line. The mean over queries,
        except the counts ``num_q``, ``num_ret``, ``num_rel``, ``num_rel_ret``,
        ``num_nonrel_judged_ret`` (summed), ``gm_map`` and ``gm_bpref``
        (geometric means, each value floored at 0.00001), and the text
        measures: ``runid`` (the run's tag) and ``relstring`` (no summary: "").
    missing_queries : tuple of str
        Judged queries the run does not contain: skipped (``missing="skip"``)
        or scored 0 (``missing="zero"``).
    unjudged_queries : tuple of str
        Queries of the run without any judgement; ignored, as trec_eval does.
    conventions : Conventions (a mapping)
        The conventions that produced the numbers
        (:class:`rankmetrics.trec.conventions.Conventions`: ``conventions["ties"]``,
        ``dict(conventions)``, and ``conventions.card()`` for where each came from).
    """

    queries: tuple[str, ...]
    per_query: dict[str, np.ndarray]
    summary: dict[str, float]
    missing_queries: tuple[str, ...] = ()
    unjudged_queries: tuple[str, ...] = ()
    conventions: Mapping[str, Any] = field(default_factory=dict)
    # explain(qid, metric), handed over by evaluate when the qrels and run can be read again
    # (paths and dicts): rankmetrics.trec.query_explanation.explain_query on them.
    explainer: Callable[[Any, str | None], Any] | None = field(default=None, repr=False, compare=False)
    # {user: number of seen items removed before the cut}, with evaluate(..., exclude=...).
    excluded: Mapping[str, int] = field(default_factory=dict)

    @property
    def metrics(self) -> tuple[str, ...]:
        """The metric names, as they were asked for."""
        return tuple(self.per_query)

    def __len__(self) -> int:
        return len(self.queries)

    def value(self, metric: str, qid: Any) -> float:
        """One query's value of one metric."""
        if metric not in self.per_query:
            raise ValueError(
                _("metric {metric!r} was not evaluated; the metrics are {metrics}").format(
                    metric=metric, metrics=list(self.metrics)
                )
            )
        try:
            index = self.queries.index(str(qid))
        except ValueError:
            raise ValueError(_("query {qid!r} was not evaluated").format(qid=str(qid))) from None
        return plain_value(metric, self.per_query[metric][index])

    def explain(self, qid: Any, metric: str | None = None) -> Any:
        """One query's ranking after tie-breaking, each document's status, and the metric's step table.

        See :func:`rankmetrics.trec.query_explanation.explain_query`; the
        conventions are this evaluation's. Needs the qrels and run as paths or
        dicts (an open file has been read already).
        """
        if self.explainer is None:
            raise ValueError(
                _(
                    "explain() needs the qrels and run as paths or dicts; this evaluation read them from "
                    "open files: call rankmetrics.trec.query_explanation.explain_query(qrels, run, qid, "
                    "metric)"
                )
            )
        return self.explainer(qid, metric)

    def to_dict(self) -> dict[str, Any]:
        """Plain Python data: per-query values, the summary, and the conventions used.

        Counts are ``int``, every other value a ``float``.
        """
        return {
            "per_query": {
                qid: {m: plain_value(m, values[i]) for m, values in self.per_query.items()}
                for i, qid in enumerate(self.queries)
            },
            "summary": {m: plain_value(m, value) for m, value in self.summary.items()},
            "conventions": dict(self.conventions),
        }

    def to_pandas(self) -> Any:
        """The per-query values as a pandas DataFrame: a ``query_id`` column, then one column per metric."""
        return per_query_frame(self)  # pandas is imported only here

    def to_trec_eval(self, queries: bool = True) -> str:
        """The values in trec_eval's text format: ``measure <TAB> qid|all <TAB> value``.

        With ``queries`` (trec_eval's ``-q``), each query's lines come first,
        then the ``all`` lines; without, only the ``all`` lines. The lines are
        those trec_eval prints: ``gm_map``, ``gm_bpref``, ``num_q`` and
        ``runid`` only for ``all``, ``relstring`` only per query; counts as
        integers, text as trec_eval writes it, every other value with 4
        decimals (``%6.4f``).

        Each measure is printed under the name trec_eval prints for it,
        whichever name it was asked by (:func:`rankmetrics.trec.names.trec_eval_name`):
        ``P.7`` and ``p@7`` as ``P_7``, ``nDCG@10`` as ``ndcg_cut_10``,
        ``Rprec_mult.0.5`` as ``Rprec_mult_0.50``.

        Raises
        ------
        ValueError
            Naming the measure, for one trec_eval has no line for (``err@20``,
            ``hits@10``, ``judged@10``, ``rr@10``, exponential-gain nDCG); for
            one with a relevance level of its own (``P(rel=2)@5``) other than
            the evaluation's, since trec_eval applies one level (``-l``) to
            every measure; and for two names that print as the same line
            (``P@5`` and ``P_5``).
        """
        measures = {name: parse_metric(name, check_range=False) for name in self.per_query}
        printed = {name: _trec_eval_name(m, self.conventions) for name, m in measures.items()}
        seen: dict[str, str] = {}
        for name, trec in printed.items():
            if trec in seen:
                raise ValueError(
                    _("{seen!r} and {name!r} both print as trec_eval's {trec}; evaluate one of them").format(
                        seen=seen[trec], name=name, trec=trec
                    )
                )
            seen[trec] = name
        lines = []
        if queries:
            for i, qid in enumerate(self.queries):
                for name, values in self.per_query.items():
                    if measures[name].metric.trec_lines != "all":
                        lines.append(_trec_line(printed[name], measures[name].metric, qid, values[i]))
        for name, value in self.summary.items():
            if measures[name].metric.trec_lines != "queries":
                lines.append(_trec_line(printed[name], measures[name].metric, "all", value))
        return "\n".join(lines) + "\n" if lines else ""

    def _rows(self, limit: int) -> list[tuple[str, list[str]]]:
        n = len(self.queries)
        shown = range(n) if n <= limit else [*range(limit - limit // 3), *range(n - limit // 3, n)]
        rows, previous = [], -1
        for i in shown:
            if i != previous + 1:
                rows.append(("…", ["…"] * len(self.per_query)))
            rows.append((self.queries[i], [cell_text(m, vals[i]) for m, vals in self.per_query.items()]))
            previous = i
        return rows

    def _caption(self) -> str:
        c = self.conventions
        text = ngettext(
            "{count} query; relevance_level={relevance_level}, ties={ties}, missing={missing}",
            "{count} queries; relevance_level={relevance_level}, ties={ties}, missing={missing}",
            len(self.queries),
        ).format(
            count=len(self.queries),
            relevance_level=c.get("relevance_level"),
            ties=c.get("ties"),
            missing=c.get("missing"),
        )
        if self.missing_queries:
            absent = len(self.missing_queries)
            if c.get("missing") == "skip":
                text += ngettext(
                    "; {count} judged query absent from the run (skipped)",
                    "; {count} judged queries absent from the run (skipped)",
                    absent,
                ).format(count=absent)
            else:
                text += ngettext(
                    "; {count} judged query absent from the run (scored 0)",
                    "; {count} judged queries absent from the run (scored 0)",
                    absent,
                ).format(count=absent)
        if self.excluded:
            text += removed_text(dict(self.excluded))
        from .. import __version__

        return text + _("; rankmetrics {version}, reference {reference}").format(
            version=__version__, reference=c.get("reference")
        )

    def _table(self) -> tuple[list[str], list[list[str]], list[list[str]]]:
        header = [_("query"), *self.per_query]
        body = [[qid, *cells] for qid, cells in self._rows(limit=20)]
        total = [[_("all"), *(cell_text(m, self.summary[m]) for m in self.per_query)]]
        return header, body, total

    def __str__(self) -> str:
        header, body, total = self._table()
        return text_table(header, body, footer=total) + "\n" + self._caption()

    def __repr__(self) -> str:
        return ngettext(
            "<Evaluation: {count} query, metrics {metrics}>",
            "<Evaluation: {count} queries, metrics {metrics}>",
            len(self.queries),
        ).format(count=len(self.queries), metrics=list(self.metrics))

    def _repr_html_(self) -> str:
        header, body, total = self._table()
        return html_table(
            header,
            body,
            caption=self._caption(),
            footer=total,
            css_class="rankmetrics-evaluation",
            row_headers=True,
        )


def _trec_eval_name(measure: Measure, conventions: Mapping[str, Any]) -> str:
    level = conventions.get("relevance_level", 1)
    if measure.relevance_level is not None and measure.relevance_level != level:
        raise ValueError(
            _(
                "{measure_name!r} has no trec_eval name here: its relevance level {relevance_level} "
                "is not the evaluation's ({level}), and trec_eval applies one level (-l) to every "
                "measure; evaluate it with relevance_level={relevance_level} instead"
            ).format(measure_name=measure.name, relevance_level=measure.relevance_level, level=level)
        )
    return trec_eval_name(measure)


def plain_value(metric: str, value: Any) -> int | float | str:
    """A metric's value as plain Python: ``int`` for a count, ``str`` for a text measure, else ``float``."""
    registered = parse_metric(metric, check_range=False).metric
    if registered.text is not None:
        return str(value)
    return int(value) if registered.count else float(value)


def cell_text(metric: str, value: Any) -> str:
    """A metric's value as a table shows it: a count whole, a text as it is, else 4 decimals."""
    return _shown(parse_metric(metric, check_range=False).metric, value)


def _shown(metric: Metric, value: Any) -> str:
    if metric.text is not None:
        return str(value)
    return f"{int(value)}" if metric.count else f"{float(value):.4f}"


def _trec_line(name: str, metric: Metric, qid: str, value: Any) -> str:
    # trec_eval's printf: "%-22s\t%s\t%6.4f" (%ld for counts, the text's own form for text).
    shown = metric.text.format(value) if metric.text is not None else _shown(metric, value)
    return f"{name:<22}\t{qid}\t{shown}"


class AbsentQueriesWarning(UserWarning):
    """Judged queries that the run lacks were skipped; ``queries`` lists them (the first ten, then a count)."""

    def __init__(self, count: int, queries: str) -> None:
        self.count, self.queries = count, queries
        super().__init__(
            ngettext(
                "{count} judged query is absent from the run and skipped: {queries}. "
                "Pass missing='zero' to score it 0 (trec_eval -c).",
                "{count} judged queries are absent from the run and skipped: {queries}. "
                "Pass missing='zero' to score them 0 (trec_eval -c).",
                count,
            ).format(count=count, queries=queries)
        )


def shown_ids(ids: list[str], shown: int = 10) -> str:
    """The first ``shown`` ids, then how many more."""
    text = ", ".join(ids[:shown])
    return text + (_(" and {count} more").format(count=len(ids) - shown) if len(ids) > shown else "")
