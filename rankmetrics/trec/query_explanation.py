"""One query of an evaluation, explained: the ranking as the package ranked it, and the step table.

"Why does library X give a different number?" is usually answered by one
query: which document came first after tie-breaking, what each document's
judgement was, and how the metric adds up. :func:`explain_query` shows it.

The ranking is the one :func:`rankmetrics.evaluate` uses, computed by the same
code (:func:`rankmetrics.trec.ranking.rank`, with the same conventions): each
document is looked up under a stand-in grade that carries its position in the
run (its sign keeps whether it is judged, which ``judged_only`` reads), so the
ranked grades *are* the order. The step table is :func:`rankmetrics.explain`'s
for the metric's public function, fed with that order and the query's
judgements, and its value is checked against the evaluation's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..i18n import N_, _, ngettext
from ..tables import html_table, text_table
from . import files, presets, ranking
from .conventions import Conventions
from .names import parse_metric
from .records import Records
from .scoring import evaluate_measures

if TYPE_CHECKING:
    from ..teaching.explain import Explanation

#: How each retrieved document stands, in trec_eval's terms (form_res_rels.c).
#: Message ids: translate with ``_(STATUS[key])`` where shown.
STATUS = {
    "relevant": N_("relevant (judged)"),
    "nonrelevant": N_("non-relevant (judged)"),
    "unjudged": N_("in the pool but unjudged (negative grade)"),
    "absent": N_("not judged"),
}

# The metrics whose step table reads graded relevance; the others read relevant / not.
_GRADED = ("ndcg", "dcg", "expected_reciprocal_rank")


@dataclass(frozen=True)
class QueryExplanation:
    """One query's ranking after tie-breaking, each document's status, and the metric's steps.

    Attributes
    ----------
    qid : str
    measure : str
        The metric name as asked.
    value : float or None
        The evaluation's value for this query (None when no measure was asked).
    rows : list of dict
        Per rank: ``rank``, ``docno``, ``score`` (as read), ``compared`` (the
        score as the ranking compared it: a C float under ``score_precision="float32"``),
        ``grade`` (None when not judged) and ``status`` (a key of :data:`STATUS`).
    steps : Explanation or None
        The step table, when the metric has one (see :func:`rankmetrics.explain`).
    n_relevant : int
        The query's relevant judgements (R), retrieved or not.
    conventions : Conventions
    note : str
        Why there is no step table, when there is none.
    """

    qid: str
    measure: str | None
    value: float | None
    rows: list[dict[str, Any]]
    steps: Explanation | None
    n_relevant: int
    conventions: Conventions
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def _table(self, limit: int | None = None) -> tuple[list[str], list[list[str]]]:
        header = [_("rank"), _("document"), _("score"), _("compared score"), _("grade"), _("status")]
        rows = self.rows if limit is None else self.rows[:limit]
        body = [
            [
                str(r["rank"]),
                r["docno"],
                repr(r["score"]),
                repr(r["compared"]),
                "" if r["grade"] is None else f"{r['grade']:g}",
                _(STATUS[r["status"]]),
            ]
            for r in rows
        ]
        if len(rows) < len(self.rows):
            left_out = len(self.rows) - len(rows)
            body.append(
                [
                    "…",
                    ngettext("({count} more below)", "({count} more below)", left_out).format(count=left_out),
                ]
                + [""] * 4
            )
        return header, body

    def _caption(self) -> str:
        c = self.conventions
        text = _(
            "query {qid}: {retrieved} documents retrieved, relevant judgements R = {n_relevant}; "
            "ties {ties}, score comparison {score_precision}, reference {reference}"
        ).format(
            qid=self.qid,
            retrieved=len(self.rows),
            n_relevant=self.n_relevant,
            ties=c["ties"],
            score_precision=c["score_precision"],
            reference=c["reference"],
        )
        if self.measure is not None:
            text += f"; {self.measure} = {self.value!r}"
        return text

    def __str__(self) -> str:
        return self.text()

    def text(self, limit: int | None = None) -> str:
        """The table (the first ``limit`` ranks only, when given), the caption and the step table."""
        header, body = self._table(limit)
        aligns = ["right", "left", "right", "right", "right", "left"]
        parts = [text_table(header, body, aligns), self._caption()]
        if self.steps is not None:
            parts += ["", str(self.steps)]
        elif self.note:
            parts.append(self.note)
        return "\n".join(parts)

    def _repr_html_(self) -> str:
        header, body = self._table()
        html = html_table(header, body, caption=self._caption(), css_class="rankmetrics-query")
        if self.steps is not None:
            html += self.steps._repr_html_()
        elif self.note:
            html += f"<p>{self.note}</p>"
        return html


def explain_query(
    qrels: Any,
    run: Any,
    qid: Any,
    metric: str | None = None,
    *,
    like: str | None = None,
    conventions: Conventions | None = None,
    **settings: Any,
) -> QueryExplanation:
    """Explain one query of :func:`rankmetrics.evaluate`: its ranking, statuses and step table.

    Parameters
    ----------
    qrels, run
        As in :func:`rankmetrics.evaluate` (paths, open files or dicts).
    qid : str
        The query to explain.
    metric : str, optional
        A metric name as :func:`rankmetrics.evaluate` takes it (``"ndcg@10"``,
        ``"map"``, ``"P_5"``); without one, only the ranking is shown.
    like, conventions, **settings
        The conventions, as in :func:`rankmetrics.evaluate`.

    Examples
    --------
    >>> qrels = {"q1": {"a": 1, "b": 0, "c": 1, "z": -1}}
    >>> run = {"q1": {"a": 0.5, "b": 0.5, "c": 0.9, "d": 0.1, "z": 0.2}}
    >>> e = explain_query(qrels, run, "q1", "P_2")
    >>> [(r["docno"], r["status"]) for r in e.rows]  # a and b tie: docno descending puts b first
    [('c', 'relevant'), ('b', 'nonrelevant'), ('a', 'relevant'), ('z', 'unjudged'), ('d', 'absent')]
    >>> e.value, e.steps.value
    (0.5, 0.5)
    """
    c = Conventions.resolve(presets.find(like), base=conventions, **settings)
    measure = parse_metric(metric) if metric is not None else None
    qid = str(qid)
    judgements = files.judgements(qrels, c.fractional_grades)
    if qid not in judgements:
        raise ValueError(
            _("query {qid!r} has no judgement in qrels, so evaluate does not score it").format(qid=qid)
        )
    groups = next((g for g in files.run_records(run, None) if qid in g.qids), None)
    if groups is None:
        raise ValueError(
            _(
                "query {qid!r} is not in the run (evaluate skips it, or scores it 0 with missing='zero')"
            ).format(qid=qid)
        )
    one = groups.take([groups.qids.index(qid)])
    judged = judgements[qid]
    docnos = list(one.docnos)
    # Stand-in grades: position p as p (judged, grade >= 0) or -(p + 1) (negative grade or none).
    stand_in = {d: float(p) if judged.get(d, -1) >= 0 else -float(p + 1) for p, d in enumerate(docnos)}
    ranked = ranking.rank(
        Records([qid], one.lengths, docnos, one.values),
        {qid: stand_in},
        None,
        c.ties,
        c.score_precision,
        c.judged_only,
        c.max_documents,
    )
    n = int(ranked.n_retrieved[0])
    order = [int(g) if g >= 0 else int(-g - 1) for g in ranked.grades[0, :n]]
    compared = (
        one.values.astype(np.float32).astype(np.float64) if c.score_precision == "float32" else one.values
    )
    rows = []
    for rank_, p in enumerate(order, start=1):
        grade = judged.get(docnos[p])
        if grade is None:
            status = "absent"
        elif grade < 0:
            status = "unjudged"
        else:
            status = "relevant" if grade >= c.relevance_level else "nonrelevant"
        rows.append(
            {
                "rank": rank_,
                "docno": docnos[p],
                "score": float(one.values[p]),
                "compared": float(compared[p]),
                "grade": None if grade is None else grade,
                "status": status,
            }
        )
    n_relevant = sum(g >= c.relevance_level for g in judged.values())
    value = steps = None
    note = ""
    if measure is not None:
        result = evaluate_measures({qid: judged}, {qid: dict(zip(docnos, one.values.tolist()))}, [measure], c)
        value = result.value(measure.name, qid)
        steps, note = _steps(measure, rows, judged, c, value)
    return QueryExplanation(
        qid, None if measure is None else measure.name, value, rows, steps, n_relevant, c, note
    )


def _steps(measure: Any, rows: list[dict[str, Any]], judged: dict[str, Any], c: Conventions, value: Any):
    """The step table of the metric's public function on this ranking, when it reproduces the value."""
    # The teaching code loads only when a step table is asked for: evaluate, which hands each
    # Evaluation this module's explainer, loads none of it (tests/package/test_teaching_apart.py).
    from ..teaching.explain import explain, explainable

    name = measure.metric.name
    if name not in explainable() or measure.metric.inputs == "trec":
        return (
            None,
            _(
                "{measure} has no step table (a trec_eval measure over the judgement list): "
                "it is computed from the ranks and statuses above."
            ).format(measure=measure.name),
        )
    if not rows:
        return None, _("no document was retrieved, so there is no step table.")
    if c.ties == "average":
        return (
            None,
            _(
                "ties='average' is an expectation over every order of the tied documents, "
                "so one order's step table cannot show it."
            ),
        )
    level = measure.relevance_level or c.relevance_level
    if name in _GRADED:
        relevant: Any = {d: max(float(g), 0.0) for d, g in judged.items()}
    else:
        relevant = {d for d, g in judged.items() if g >= level}
    kwargs: dict[str, Any] = {"relevant": relevant}
    keywords = measure.metric.keywords
    if "gain" in keywords:
        kwargs["gain"] = measure.gain or c.gain
    if "denominator" in keywords:
        kwargs["denominator"] = c.denominator
    try:
        steps = explain(name, [r["docno"] for r in rows], measure.k, **kwargs)
    except ValueError as error:
        return None, _("the step table cannot be made: {error}").format(error=error)
    if value is None or not np.isclose(steps.value, value, rtol=0, atol=1e-12):
        return None, _(
            "the step table's value ({steps!r}) differs from the evaluation's ({value!r}), so it is not shown."
        ).format(steps=steps.value, value=value)
    return steps, ""
