"""The teaching catalogue's records and its one dictionary: what each entry holds, and the checks.

The family modules (:mod:`.dcg`, :mod:`.hits`, ...) import these to write their
entries; :mod:`rankmetrics.teaching.catalogue` imports the families, so that
importing the catalogue fills it. Nothing here imports a family: the records
come first, the entries after.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ... import metrics  # noqa: F401  (every metric registered before its entry is checked)
from ...i18n import _
from ...registry import METRICS, Metric

EXPLAIN_FAMILIES = ("dcg", "hits", "err", "mean", "rating", "lists", "estimate")


@dataclass(frozen=True)
class Reference:
    """What the book's metric reference (지표 사전, ``book/metric_reference.md``) says about a metric.

    The page is built from the catalogue at book build (``book/_ext/metric_reference.py``).

    Attributes
    ----------
    korean : str
        The metric's Korean name, as the glossary (``book/appendix_glossary.md``)
        writes it (``"정규화 할인 누적 이득"``).
    formula : str
        The definition in LaTeX for MathJax, without ``$$`` (``r"\\mathrm{nDCG@}k = ..."``).
    conventions : str
        One or two Korean sentences (합니다체) on the choices that change the value
        and their defaults: the gain, the ideal ranking, the denominator, what an
        empty list scores.
    papers : tuple of str
        Keys in the book's bibliography (``book/references.bib``,
        ``book/metric_papers.bib``): the paper that defined the metric, or the
        tool whose convention the package follows when there is no paper.
    chapter : str
        The label of the chapter that teaches the metric (``"ch-dcg_ndcg"``); for a
        trec_eval measure no chapter works through, the chapter where
        :func:`rankmetrics.evaluate` reads trec_eval's names (``"ch-many_queries"``).
    trec_files : tuple of str
        The trec_eval 10.0 source files (``m_*.c``) of the measure's trec_eval
        names, one per name (``("m_ndcg.c", "m_ndcg_cut.c")``); empty when
        trec_eval has no such measure.
    """

    korean: str
    formula: str
    conventions: str
    papers: tuple[str, ...]
    chapter: str
    trec_files: tuple[str, ...] = ()


@dataclass(frozen=True)
class Exercise:
    """The kind of problem a worksheet (:func:`rankmetrics.make_worksheet`) sets on a metric.

    The problem's data follows from the metric's step-table family (``explain``):
    grades 0–3 for ``"dcg"``, one O/X list for ``"hits"``, three O/X lists for
    ``"mean"``. The texts are English message ids (mark them with
    :func:`rankmetrics.i18n.N_`); worksheets print their Korean translation.

    Attributes
    ----------
    line : str
        The last line the student fills in, with ``{blank}`` for each blank and the
        fields ``{label}`` (``"P@4"``), ``{at}`` (``"@4"`` or ``""``), ``{k}`` and
        ``{queries}`` (``"{label} = hits {blank} ÷ k {blank} = {blank}"``).
    columns : tuple of str
        The blank step table's columns after its first (the rank, or the query for
        ``"mean"``); empty for no table. A metric with ``"ideal"`` in its keywords
        gets a second table for the ideal ordering (rank, grade, then these).
    cutoff : bool
        The problem gives a cutoff k (from 3 to the list's length).
    unlisted : bool
        Relevant items may lie outside the list: the problem then says how many
        relevant items there are in all (the metric takes ``n_relevant``), or, for
        graded lists, which judged items lie outside (the metric takes ``ideal``).
    whole : bool
        The value of one list is 0 or 1: asked, and keyed, as a whole number.
    note : str
        A sentence under the problem's data (``{relevant}``: the number of relevant
        items): for ``"mean"``, what to compute for each query.
    """

    line: str
    columns: tuple[str, ...] = ()
    cutoff: bool = False
    unlisted: bool = False
    whole: bool = False
    note: str = ""


@dataclass(frozen=True)
class Teaching:
    """What the teaching tools know about one registered metric.

    Attributes
    ----------
    name : str
        The metric's registered name (:data:`rankmetrics.registry.METRICS`).
    explain : {"dcg", "hits", "err", "mean", "rating", "lists", "estimate"} or None
        The kind of step table :func:`rankmetrics.explain` draws; None for none. ``"lists"``:
        a recommender measure of recommendation lists (per item, then per user);
        ``"estimate"``: an off-policy or sampled estimate (per logged round, per sampled rank).
    steps : callable or None
        For ``explain="hits"`` (required there, refused elsewhere): the last step
        of the step table, ``steps(hits) -> (value, hand)``, which reads the O/X
        table in ``hits`` (:class:`rankmetrics.teaching.hit_formulas.Hits`), writes
        its formula lines and convention-card entries into it, and returns the
        exact value and, in student rounding, the hand-rounded one (else None).
    symbol : str
        How the value is written in a step formula (``"P"`` in ``P@5 = 2 ÷ 5``);
        the metric's label when not given.
    reference : Reference or None
        What the book's metric reference (지표 사전) prints.
    examples : tuple of str
        Command lines shown in the subcommand's help.
    worksheet : Exercise or None
        The kind of problem :func:`rankmetrics.make_worksheet` sets on it; None
        when worksheets do not use it.
    page : bool
        Whether the book's in-page checker (``book/_static/rankexplain.js``)
        computes it. Such a metric needs a port in that script and comparison
        cases in ``tests/browser/rankexplain_cases.py`` (a test fails otherwise).
    precision_at_hits : bool
        The O/X step table (and a worksheet's key) shows the precision at each
        relevant rank. AP and MAP are built from it; for any other metric the
        column would teach AP by accident.
    """

    name: str
    explain: str | None = None
    steps: Callable[[Any], tuple[float, Any]] | None = None
    symbol: str = ""
    reference: Reference | None = None
    examples: tuple[str, ...] = ()
    worksheet: Exercise | None = None
    page: bool = False
    precision_at_hits: bool = False


#: Every teaching entry by metric name, in the order taught.
CATALOGUE: dict[str, Teaching] = {}


def teach(entry: Teaching) -> Teaching:
    """Add an entry to :data:`CATALOGUE`; an unknown metric, a second entry or fields that cannot work are errors."""
    metric = METRICS.get(entry.name)
    if metric is None:
        raise ValueError(
            _("teaching entry {name!r}: no metric of that name is registered").format(name=entry.name)
        )
    if entry.name in CATALOGUE:
        raise ValueError(_("teaching entry {name!r}: the metric already has one").format(name=entry.name))
    _check(entry, metric)
    if not entry.symbol:
        object.__setattr__(entry, "symbol", metric.label)
    CATALOGUE[entry.name] = entry
    return entry


def entry(name: str) -> Teaching | None:
    """The metric's teaching entry, or None when it has none."""
    return CATALOGUE.get(name)


def symbol(name: str) -> str:
    """How the metric is written in a step formula: its entry's symbol, else its label."""
    taught = CATALOGUE.get(name)
    return taught.symbol if taught else METRICS[name].label


def where(**conditions: Any) -> list[Teaching]:
    """The entries whose attributes equal the given values, in registry order.

    ``where(page=True)``; a callable condition is a test: ``where(worksheet=bool)``.
    Only entries of metrics still registered are listed.
    """
    return [
        t
        for name in METRICS
        if (t := CATALOGUE.get(name)) is not None
        and all(
            value(getattr(t, key)) if callable(value) else getattr(t, key) == value
            for key, value in conditions.items()
        )
    ]


def _check(entry: Teaching, metric: Metric) -> None:
    """Refuse an entry whose fields cannot work together with its metric.

    A metric marked for worksheets or for the page but lacking what they need
    would otherwise get a neighbour's kind of problem, or none, silently.
    """

    def refuse(why: str) -> None:
        raise ValueError(_("metric {name!r}: {why}").format(name=entry.name, why=why))

    if entry.explain not in (None, *EXPLAIN_FAMILIES):
        refuse(
            _("explain must be one of {allowed}; got {value!r}").format(
                allowed=EXPLAIN_FAMILIES, value=entry.explain
            )
        )
    if (entry.explain == "hits") != callable(entry.steps):
        refuse(_('explain="hits" needs steps (the step table\'s last step), and only it takes one'))
    sheet = entry.worksheet
    if sheet is not None:
        if not isinstance(sheet, Exercise):
            refuse(_("worksheet must be an Exercise or None; got {value!r}").format(value=sheet))
        if entry.explain not in ("dcg", "hits", "mean") or metric.function is None or not metric.command:
            refuse(_('worksheets need a function, a command and explain="dcg", "hits" or "mean"'))
        if not isinstance(sheet.line, str) or not sheet.line.strip():
            refuse(_("worksheet.line is empty; write the line the student fills in"))
        if metric.cutoff == "required" and not sheet.cutoff:
            refuse(_("its cutoff is required, so worksheet.cutoff must be True"))
        if sheet.cutoff and (metric.cutoff == "none" or entry.explain == "mean"):
            refuse(_("worksheet.cutoff is True but the metric takes no cutoff on a sheet"))
        needs = "ideal" if entry.explain == "dcg" else "n_relevant"
        if sheet.unlisted and needs not in metric.keywords:
            refuse(_("worksheet.unlisted needs {keyword!r} in keywords").format(keyword=needs))
        if entry.explain == "mean" and not (sheet.columns and sheet.note):
            refuse(_("a worksheet of queries needs columns and a note (what to compute per query)"))
    if entry.page and (entry.explain not in ("dcg", "hits") or metric.inputs != "ranking"):
        refuse(_('the page computes one ranked list: page=True needs explain="dcg" or "hits"'))
