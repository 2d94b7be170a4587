"""The result of :func:`rankmetrics.evaluate`: per-query values, the summary, and how they print.

:class:`Evaluation` shows as a table in a notebook and in ``print``, gives
plain Python data (:meth:`Evaluation.to_dict`) and writes trec_eval's own
text format (:meth:`Evaluation.to_trec_eval`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..registry import Metric
from ..tables import html_table, text_table
from .names import parse_metric


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

    @property
    def metrics(self) -> tuple[str, ...]:
        """The metric names, as they were asked for."""
        return tuple(self.per_query)

    def __len__(self) -> int:
        return len(self.queries)

    def value(self, metric: str, qid: Any) -> float:
        """One query's value of one metric."""
        if metric not in self.per_query:
            raise ValueError(f"metric {metric!r} was not evaluated; the metrics are {list(self.metrics)}")
        try:
            index = self.queries.index(str(qid))
        except ValueError:
            raise ValueError(f"query {str(qid)!r} was not evaluated") from None
        return _plain(metric, self.per_query[metric][index])

    def to_dict(self) -> dict[str, Any]:
        """Plain Python data: per-query values, the summary, and the conventions used.

        Counts are ``int``, every other value a ``float``.
        """
        return {
            "per_query": {
                qid: {m: _plain(m, values[i]) for m, values in self.per_query.items()}
                for i, qid in enumerate(self.queries)
            },
            "summary": {m: _plain(m, value) for m, value in self.summary.items()},
            "conventions": dict(self.conventions),
        }

    def to_pandas(self) -> Any:
        """The per-query values as a pandas DataFrame: a ``query_id`` column, then one column per metric."""
        from .frames import per_query_frame  # pandas only when asked for

        return per_query_frame(self)

    def to_trec_eval(self, queries: bool = True) -> str:
        """The values in trec_eval's text format: ``measure <TAB> qid|all <TAB> value``.

        With ``queries`` (trec_eval's ``-q``), each query's lines come first,
        then the ``all`` lines; without, only the ``all`` lines. The lines are
        those trec_eval prints: ``gm_map``, ``gm_bpref``, ``num_q`` and
        ``runid`` only for ``all``, ``relstring`` only per query; counts as
        integers, text as trec_eval writes it, every other value with 4
        decimals (``%6.4f``).
        """
        metrics = {name: parse_metric(name).metric for name in self.per_query}
        lines = []
        if queries:
            for i, qid in enumerate(self.queries):
                for name, values in self.per_query.items():
                    if metrics[name].trec_lines != "all":
                        lines.append(_trec_line(name, metrics[name], qid, values[i]))
        for name, value in self.summary.items():
            if metrics[name].trec_lines != "queries":
                lines.append(_trec_line(name, metrics[name], "all", value))
        return "\n".join(lines) + "\n" if lines else ""

    def _rows(self, limit: int) -> list[tuple[str, list[str]]]:
        n = len(self.queries)
        shown = range(n) if n <= limit else [*range(limit - limit // 3), *range(n - limit // 3, n)]
        rows, previous = [], -1
        for i in shown:
            if i != previous + 1:
                rows.append(("…", ["…"] * len(self.per_query)))
            rows.append((self.queries[i], [_cell(m, vals[i]) for m, vals in self.per_query.items()]))
            previous = i
        return rows

    def _caption(self) -> str:
        c = self.conventions
        text = (
            f"{len(self.queries)} queries; relevance_level={c.get('relevance_level')}, "
            f"ties={c.get('ties')}, missing={c.get('missing')}"
        )
        if self.missing_queries:
            verb = "skipped" if c.get("missing") == "skip" else "scored 0"
            text += f"; {len(self.missing_queries)} judged queries absent from the run ({verb})"
        return text

    def _table(self) -> tuple[list[str], list[list[str]], list[list[str]]]:
        header = ["query", *self.per_query]
        body = [[qid, *cells] for qid, cells in self._rows(limit=20)]
        total = [["all", *(_cell(m, self.summary[m]) for m in self.per_query)]]
        return header, body, total

    def __str__(self) -> str:
        header, body, total = self._table()
        return text_table(header, body, footer=total) + "\n" + self._caption()

    def __repr__(self) -> str:
        return f"<Evaluation: {len(self.queries)} queries, metrics {list(self.metrics)}>"

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


def _plain(metric: str, value: Any) -> int | float | str:
    registered = parse_metric(metric).metric
    if registered.text is not None:
        return str(value)
    return int(value) if registered.count else float(value)


def _cell(metric: str, value: Any) -> str:
    return _shown(parse_metric(metric).metric, value)


def _shown(metric: Metric, value: Any) -> str:
    if metric.text is not None:
        return str(value)
    return f"{int(value)}" if metric.count else f"{float(value):.4f}"


def _trec_line(name: str, metric: Metric, qid: str, value: Any) -> str:
    # trec_eval's printf: "%-22s\t%s\t%6.4f" (%ld for counts, the text's own form for text).
    shown = metric.text.format(value) if metric.text is not None else _shown(metric, value)
    return f"{name:<22}\t{qid}\t{shown}"
