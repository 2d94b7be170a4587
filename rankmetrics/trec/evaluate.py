"""Evaluate a run over many queries, with trec_eval's conventions by default.

:func:`evaluate` turns judgements and a run (TREC files or dicts) into one
padded grade array per metric family and hands it to the package's batch
metrics through each registered metric's ``evaluate`` hook
(:mod:`rankmetrics.registry`), so every formula still lives in exactly one
place. Reading, grouping
by query and ranking are done by :mod:`rankmetrics.trec.files` and
:mod:`rankmetrics.trec.ranking`, a group of
queries at a time when ``chunk_queries`` is given, so that a run file of ten
million lines is scored in bounded memory by the very same code.
"""

from __future__ import annotations

import functools
import math
import numbers
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .. import _validation as v
from ..metrics.conventions import AP_DENOMINATORS, GAINS, IDEAL_SOURCES
from ..metrics.trec_measures import judged_counts
from ..registry import METRICS, Columns, Metric, register
from ..tables import html_table, text_table
from . import files, ranking

TIES = ("docno_descending", "input_order", "average")
SCORE_PRECISIONS = ("float32", "float64")
MISSING = ("skip", "zero")

# trec_eval floors each AP at this value before taking the geometric mean (gm_map).
_GM_FLOOR = 0.00001

# Measures that exist only over many queries: trec_eval's counts and gm_map.
register(
    Metric(
        "num_ret",
        None,
        label="num_ret",
        title="검색된 문서 수",
        inputs="trec",
        cutoff="none",
        trec_name="num_ret",
        summary="sum",
        count=True,
        reads_ranking=False,
        averages_ties=True,  # no order in a count
        ir_name="NumRet",
        evaluate=lambda c, k: c.n_retrieved.astype(float),
    )
)
register(
    Metric(
        "num_rel",
        None,
        label="num_rel",
        title="판정된 관련 문서 수",
        inputs="trec",
        cutoff="none",
        trec_name="num_rel",
        summary="sum",
        count=True,
        reads_ranking=False,
        averages_ties=True,
        ir_name="NumRel",
        ir_parameters=(("rel", None),),
        evaluate=lambda c, k: c.n_relevant,
    )
)
register(
    Metric(
        "num_rel_ret",
        None,
        label="num_rel_ret",
        title="검색된 관련 문서 수",
        inputs="trec",
        cutoff="none",
        trec_name="num_rel_ret",
        summary="sum",
        count=True,
        averages_ties=True,  # the whole list: no order
        ir_name="NumRelRet",
        ir_parameters=(("rel", None),),
        evaluate=lambda c, k: c.binary.sum(axis=1),
    )
)
register(
    Metric(
        "gm_map",
        None,
        label="GM-MAP",
        title="AP의 기하평균 (AP는 0.00001 아래로 내리지 않음)",
        inputs="trec",
        cutoff="none",
        trec_name="gm_map",
        summary="geometric",
        trec_lines="all",
        averages_ties=True,
        evaluate=METRICS["average_precision"].evaluate,
    )
)

_CUTOFF = re.compile(r"[0-9]+")  # ASCII digits only: "²".isdigit() is True, int("²") fails
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)")
_PARAMETER_FORMS = {"level": "_0.10", "numbers": "_a,b,...", "gains": "_level=gain,..."}


def _evaluated() -> list[Metric]:
    return [m for m in METRICS.values() if m.evaluate is not None]


def known_metrics() -> str:
    """The names :func:`evaluate` accepts, for messages and documentation."""
    human, trec = [], []
    for m in _evaluated():
        for name in m.names:
            human.append(f"{name}@k" if m.cutoff == "required" else name)
            if m.cutoff == "optional":
                human.append(f"{name}@k")
        if m.trec_name:
            trec.append(m.trec_name + (_PARAMETER_FORMS["level"] if m.parameter == "level" else ""))
            if m.parameter in ("numbers", "gains"):
                trec.append(m.trec_name + _PARAMETER_FORMS[m.parameter])
        if m.trec_cutoff_name:
            trec.append(f"{m.trec_cutoff_name}_k")
    return ", ".join(dict.fromkeys(human)) + "; trec_eval's " + ", ".join(dict.fromkeys(trec))


@dataclass(frozen=True)
class Measure:
    """One requested metric: the name as written, the registered metric, its cutoff and parameter.

    ``parameter`` is trec_eval's parameter of the measure, when one was
    written (see :attr:`rankmetrics.registry.Metric.parameter`): a number,
    a tuple of numbers, or a tuple of ``(level, gain)`` pairs.
    ``relevance_level`` and ``gain`` override evaluate's conventions for this
    measure only, as ir_measures' ``P(rel=2)@5`` and ``nDCG(dcg=exp-log2)`` say.
    """

    name: str
    metric: Metric
    k: int | None
    parameter: Any = None
    relevance_level: float | None = None
    gain: str | None = None

    @property
    def family(self) -> str:
        return self.metric.name

    @property
    def needs_whole_list(self) -> bool:
        # Without a cutoff a metric reads the whole ranked list, unless it comes from counts.
        return self.k is None and self.metric.reads_ranking


def _parse_parameter(kind: str, text: str) -> Any:
    """trec_eval's parameter text of one kind, parsed; None when it is not of that form."""
    if kind == "cutoff":
        return int(text) if _CUTOFF.fullmatch(text) else None
    if kind == "level":
        return float(text) if _NUMBER.fullmatch(text) else None
    parts = text.split(",")
    if kind == "numbers":
        return tuple(float(p) for p in parts) if all(_NUMBER.fullmatch(p) for p in parts) else None
    pairs = [p.partition("=") for p in parts]  # "gains": level=gain, ...
    if all(key and sep and _NUMBER.fullmatch(value) for key, sep, value in pairs):
        return tuple((key.strip(), float(value)) for key, _, value in pairs)
    return None


def _parameterised(metrics: list[Metric]) -> list[tuple[str, Metric, str]]:
    """(trec_eval name, metric, kind of what follows it), the longest names first."""
    forms = [(m.trec_cutoff_name, m, "cutoff") for m in metrics if m.trec_cutoff_name]
    forms += [(m.trec_name, m, m.parameter) for m in metrics if m.trec_name and m.parameter]
    return sorted(forms, key=lambda form: -len(form[0]))


def parse_metric(name: Any) -> Measure:
    """Read a metric name, human (``ndcg@10``) or trec_eval's (``ndcg_cut_10``), from the registry.

    trec_eval's names are accepted as trec_eval prints them (``P_5``,
    ``iprec_at_recall_0.10``, ``ndcg_1=3,2=9``, ``rbp_p=0.95``) and as its
    ``-m`` option takes them (``P.5``, ``iprec_at_recall.0.10``,
    ``ndcg.1=3,2=9``, ``rbp.p=0.95``), one measure per name. ir_measures'
    names are accepted as ir_measures writes them (see :func:`evaluate`).

    Examples
    --------
    >>> parse_metric("ndcg@10")
    Measure(name='ndcg@10', metric=ndcg, k=10, parameter=None, relevance_level=None, gain=None)
    >>> parse_metric("P_5").metric, parse_metric("P_5").k
    (precision, 5)
    >>> parse_metric("Rprec").metric
    r_precision
    >>> parse_metric("P(rel=2)@5")
    Measure(name='P(rel=2)@5', metric=precision, k=5, parameter=None, relevance_level=2, gain=None)
    >>> parse_metric("iprec_at_recall_0.10").parameter
    0.1
    >>> parse_metric("ndcg.1=3,2=9").parameter
    (('1', 3.0), ('2', 9.0))
    """
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"a metric name must be a non-empty string; got {v.show(name)}")
    return _parse_name(name)


@functools.lru_cache(maxsize=4096)  # names are read again for every value shown
def _parse_name(name: str) -> Measure:
    text = name.strip()
    lower = text.lower()
    metrics = _evaluated()
    written = _IR_FORM.fullmatch(text)
    if written is None and "(" in text:
        raise ValueError(f"{name!r} is not of the form Name(key=value,...)@k, as in P(rel=2)@5")
    # ir_measures' spelling, exactly (nDCG, P, RBP, ...), is read with ir_measures' meaning first:
    # "RBP" is ir_measures' (p = 0.8), "rbp" trec_eval's (p = 0.9).
    by_ir_name = next((m for m in metrics if written and m.ir_name == written["name"]), None)
    if by_ir_name is not None:
        return _ir_measure(text, by_ir_name, written["parameters"], written["cutoff"])
    if written is not None and written["parameters"] is not None:
        known = ", ".join(m.ir_name for m in metrics if m.ir_name)
        raise ValueError(f"unknown ir_measures name in {name!r}; known: {known}")
    if "@" in lower:
        base, _, cut = lower.partition("@")
        metric = next((m for m in metrics if base in m.names), None)
        if metric is None or metric.cutoff == "none":
            raise ValueError(f"unknown metric {name!r}; known: {known_metrics()}")
        if not _CUTOFF.fullmatch(cut) or int(cut) < 1:
            raise ValueError(f"the cutoff in {name!r} must be a positive integer, as in {base}@10")
        return Measure(text, metric, int(cut))
    metric = next((m for m in metrics if (m.trec_name or "").lower() == lower), None)
    metric = metric or next((m for m in metrics if lower in m.names), None)
    if metric is not None:
        if metric.cutoff == "required":
            example = f"{metric.trec_cutoff_name}_10" if metric.trec_cutoff_name else f"{lower}@10"
            raise ValueError(
                f"{name!r} needs a cutoff: write {lower}@10 (or trec_eval's form, e.g. {example})"
            )
        if metric.parameter == "level":
            raise ValueError(f"{name!r} needs a level, as trec_eval prints it: e.g. {metric.trec_name}_0.10")
        return Measure(text, metric, None)
    forms = _parameterised(metrics)
    base, dot, rest = text.partition(".")  # trec_eval's -m form: name.parameters
    for prefix, metric, kind in forms if dot else ():
        if base.lower() == prefix.lower():
            value = _parse_parameter(kind, rest)
            if value is None:
                raise ValueError(f"{name!r}: {rest!r} is not a parameter of {prefix} ({_form(kind)})")
            return _measure(text, metric, kind, value)
    for prefix, metric, kind in forms:  # as trec_eval prints it: name_parameters
        if lower.startswith(prefix.lower() + "_"):
            value = _parse_parameter(kind, text[len(prefix) + 1 :])
            if value is not None:
                return _measure(text, metric, kind, value)
    raise ValueError(f"unknown metric {name!r}; known: {known_metrics()}")


_IR_FORM = re.compile(
    r"(?P<name>[A-Za-z][A-Za-z0-9_]*)(?:\((?P<parameters>[^()]*)\))?(?:@(?P<cutoff>[^@]*))?"
)
_IR_GAINS = {"log2": "linear", "exp-log2": "exponential"}  # ir_measures' nDCG dcg= choices


def _ir_measure(text: str, metric: Metric, parameters: str | None, cut: str | None) -> Measure:
    """An ir_measures name (``P(rel=2)@5``, ``RBP(p=0.8)``, ``nDCG@10``) as a :class:`Measure`."""
    k = None
    if cut is not None:
        if metric.cutoff == "none":
            raise ValueError(f"{text!r}: {metric.ir_name} takes no cutoff")
        if not _CUTOFF.fullmatch(cut) or int(cut) < 1:
            raise ValueError(f"the cutoff in {text!r} must be a positive integer, as in {metric.ir_name}@10")
        k = int(cut)
    elif metric.cutoff == "required":
        raise ValueError(f"{text!r} needs a cutoff: write {metric.ir_name}@10")
    allowed = dict(metric.ir_parameters)
    given: dict[str, str] = {}
    for part in parameters.split(",") if parameters and parameters.strip() else ():
        key, sep, value = (p.strip() for p in part.partition("="))
        if not sep or key not in allowed:
            offered = ", ".join(f"{a}=" for a in allowed) or "none"
            raise ValueError(
                f"{text!r}: {key!r} is not a parameter of {metric.ir_name} here (supported: {offered})"
            )
        if key in given:
            raise ValueError(f"{text!r} gives {key} twice")
        given[key] = value
    values = {key: default for key, default in allowed.items() if default is not None}
    values.update(given)
    level = gain = parameter = None
    for key, value in values.items():
        if key == "rel":
            if not _NUMBER.fullmatch(str(value)) or float(value) <= 0:
                raise ValueError(
                    f"{text!r}: rel must be a positive number (a relevance level); got {value!r}"
                )
            level = _check_level(float(value))
        elif key == "p":
            p = float(value) if _NUMBER.fullmatch(str(value)) else -1.0
            if not 0.0 < p < 1.0:
                raise ValueError(f"{text!r}: p must be a persistence between 0 and 1; got {value!r}")
            parameter = (("p", p),)
        elif key == "dcg":
            if value not in _IR_GAINS:
                raise ValueError(f"{text!r}: dcg must be one of {sorted(_IR_GAINS)}; got {value!r}")
            gain = _IR_GAINS[value]
    return Measure(text, metric, k, parameter, level, gain)


def _form(kind: str) -> str:
    return {
        "cutoff": "a positive integer",
        "level": "a number",
        "numbers": "numbers a,b,...",
        "gains": "pairs level=gain,...",
    }[kind]


def _measure(text: str, metric: Metric, kind: str, value: Any) -> Measure:
    if kind == "cutoff":
        if value < 1:
            raise ValueError(f"the cutoff in {text!r} must be a positive integer")
        return Measure(text, metric, value)
    return Measure(text, metric, None, value)


def parse_metrics(metrics: Any) -> list[Measure]:
    """A list of :class:`Measure` from one name or a sequence of names; no name twice."""
    if isinstance(metrics, str):
        metrics = [metrics]
    if not isinstance(metrics, Sequence) or isinstance(metrics, bytes) or not metrics:
        raise ValueError(
            f"metrics must be a metric name or a non-empty list of names, e.g. ['map', 'ndcg@10']; "
            f"got {v.show(metrics)}"
        )
    measures = [parse_metric(name) for name in metrics]
    names = [m.name for m in measures]
    for name in names:
        if names.count(name) > 1:
            raise ValueError(f"metrics lists {name!r} twice")
    return measures


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
    conventions : dict
        The convention arguments that produced the numbers.
    """

    queries: tuple[str, ...]
    per_query: dict[str, np.ndarray]
    summary: dict[str, float]
    missing_queries: tuple[str, ...] = ()
    unjudged_queries: tuple[str, ...] = ()
    conventions: dict[str, Any] = field(default_factory=dict)

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


def evaluate(
    qrels: Any,
    run: Any,
    metrics: Any,
    *,
    relevance_level: float = 1,
    missing: str = "skip",
    ties: str = "docno_descending",
    gain: str = "linear",
    ideal: str = "judged",
    denominator: str = "all_relevant",
    chunk_queries: int | None = None,
    fractional_grades: str = "error",
    score_precision: str = "float32",
    judged_only: bool = False,
    max_documents: int | None = None,
) -> Evaluation:
    """Score a run on every judged query, the way trec_eval does unless told otherwise.

    Each query's retrieved documents are ordered by score, highest first;
    documents with equal scores are ordered by docno, descending (trec_eval's
    rule; the run's rank column plays no part). Then each metric is computed
    per query with the package's functions and summarised over queries.

    Parameters
    ----------
    qrels : path, open file, or dict ``{qid: {docno: grade}}``
        Judgements, read by :func:`read_qrels`'s reader (``.gz`` files,
        comments and any order of lines included).
    run : path, open file, or dict ``{qid: {docno: score}}``
        The system's results, read by :func:`read_run`'s reader.
    metrics : str or list of str
        Human names (``"ndcg@10"``, ``"p@5"``, ``"recall@100"``, ``"map"``,
        ``"map@10"``, ``"mrr"``, ``"hit_rate@10"``, ``"f1@5"``,
        ``"r_precision"``) or trec_eval's (``"ndcg_cut_10"``, ``"P_5"``,
        ``"recall_100"``, ``"map_cut_10"``, ``"success_10"``, ``"map"``,
        ``"gm_map"``, ``"ndcg"``, ``"recip_rank"``, ``"Rprec"``,
        ``"num_ret"``, ``"num_rel"``, ``"num_rel_ret"``). Plain ``"ndcg"``
        and ``"map"`` use the whole ranked list. Every other measure of
        ``trec_eval -m all_trec`` is there too, under trec_eval's names
        (:mod:`rankmetrics.metrics.trec_measures`): ``runid``, ``num_q``,
        ``bpref``, ``gm_bpref``, ``infAP``, ``iprec_at_recall_0.10``,
        ``11pt_avg``, ``Rprec_mult_0.20``, ``utility``, ``binG``, ``G``,
        ``ndcg_rel``, ``Rndcg``, ``relative_P_5``, ``set_P``,
        ``set_relative_P``, ``set_recall``, ``set_map``, ``set_F``,
        ``num_nonrel_judged_ret``, ``rbp``, ``rbp_resid``, ``unj_5``,
        ``relstring`` (text: the first grades, one character each) and
        ``runid`` (text: the tag of the run file's last line; "" for a dict). trec_eval's parameters are written as it prints them
        or as its ``-m`` takes them: ``relstring_20``, ``set_F_0.5``,
        ``utility_2,-1,0,0`` (p1..p4), ``11pt_avg_0.2,0.5,0.8``, gain maps
        ``ndcg_1=3,2=9`` (also ``G``, ``ndcg_rel``, ``Rndcg``, ``rbp``),
        RBP's persistence ``rbp_p=0.95`` / ``rbp_resid_p=0.95``; or
        ``ndcg.1=3,2=9``. One measure per name (trec_eval's
        ``-m P.5,10`` is two names here). The package's own measures
        ``err@20`` (ERR, grades 0-4), ``judged@10`` and ``hits@10`` too.

        ir_measures' names are accepted as ir_measures writes them, so that a
        list can be pasted: ``Name``, ``Name@k``, ``Name(key=value,...)`` or
        ``Name(key=value,...)@k``, the name spelt exactly as ir_measures
        does: ``nDCG``, ``P``, ``R``, ``AP``, ``RR``, ``Success``, ``Rprec``,
        ``RBP``, ``ERR``, ``Judged``, ``NumRet``, ``NumRel``, ``NumRelRet``.
        The parameters: ``rel=2`` (P, R, AP, RR, Success, Rprec, NumRel,
        NumRelRet) makes grade >= 2 relevant for that measure only;
        ``p=0.8`` is RBP's persistence; ``dcg=log2|exp-log2`` is nDCG's gain
        (linear or exponential) for that measure. Any other parameter
        (``judged_only``, ``gains``) is refused with a ValueError naming it.
        Each name keeps ir_measures' meaning: ``RBP`` is RBP with
        ir_measures' p = 0.8, while trec_eval's ``rbp`` has p = 0.9; ``ERR``
        is gdeval.pl's, with the top grade 4 (ir_measures runs gdeval.pl);
        ``Judged@k`` divides by the documents shown, at most k.
    relevance_level : number, default 1
        A document is relevant for the binary metrics (P, recall, AP, RR,
        R-precision, hit rate, counts) when its grade is at least this
        (trec_eval's ``-l``). nDCG ignores it and uses the raw grades, a
        negative grade counting as 0.
    missing : {"skip", "zero"}
        Judged queries that the run does not contain: ``"skip"`` leaves them
        out of the summary and warns, naming them (trec_eval's default);
        ``"zero"`` scores them 0 on every metric (trec_eval's ``-c``).
        Queries of the run without judgements are always ignored. A query
        scored 0 keeps its ``num_rel``, is floored at 0.00001 in ``gm_map``
        and ``gm_bpref``, and has an empty ``relstring``, as with trec_eval
        -c. Two of trec_eval's -c quirks are not copied: its ``all`` line
        for ``num_rel`` counts the grades > 0 of the whole qrels whatever
        ``-l`` says (``m_num_rel.c``; here: the sum of the per-query
        ``num_rel``, the same for ``-l 1``), and it zeroes ``utility`` for
        such a query (here: utility of an empty ranking, also 0 with the
        default coefficients, but p3·R with ``utility_p1,p2,p3,p4``).
    ties : {"docno_descending", "input_order", "average"}
        How documents with equal scores are ordered: by docno, descending, as
        text (trec_eval), or as they appear in the run (a stable sort).
        ``"average"`` orders none of them: each metric is its expected value
        over every order of each group of tied documents (McSherry & Najork,
        ECIR 2008; scikit-learn's ``ndcg_score`` default), computed exactly
        (:mod:`rankmetrics.metrics.ties`), so renaming documents never
        changes a score. Offered by nDCG, P, R, R-precision, AP (with the
        denominators ``"all_relevant"`` and ``"min_k_relevant"``), RR,
        Success/hit rate, hits, judged, RBP and the counts; any other metric,
        and ``max_documents`` (which would cut inside a tie group), is
        refused with a ValueError.
    score_precision : {"float32", "float64"}, default "float32"
        How precisely scores are compared when ranking. trec_eval (and so
        pytrec_eval and ir_measures) keeps each score in a 32-bit float, about
        7 significant digits: scores such as 0.123456789 and 0.123456788
        become equal there and are ordered by the ``ties`` rule. ``"float32"`` does
        the same; ``"float64"`` compares the scores as read (ranx's way).
    gain : {"linear", "exponential", "binary"}
        nDCG's gain function; see :func:`ndcg`.
    ideal : {"judged", "listed"}
        nDCG's ideal ranking: from every judged document (trec_eval) or from
        the retrieved ones only (scikit-learn); see :func:`ndcg`.
    denominator : {"all_relevant", "min_k_relevant", "retrieved_relevant"}
        What AP divides by; see :func:`average_precision`. For ``map``
        without a cutoff, ``"min_k_relevant"`` is the same as ``"all_relevant"``.
    chunk_queries : positive int, optional
        Read, rank and score the run this many queries at a time, holding only
        the judgements, one group of queries and the per-query results in
        memory: for run files too large to load whole (ten million lines
        take about 1.2 GB as Python dicts; read in groups of 1,000 queries,
        about 60 MB besides the judgements). The run must then be grouped by
        query, as TREC runs are; a query that comes back after other queries
        is an error naming it and its line. The values are those of the
        whole run (a sum over a padded row may differ in its last bit).
        Default: the whole run at once, in any order.
    fractional_grades : {"error", "truncate", "keep"}, default "error"
        What a judgement such as 0.5 does: refused, naming the line
        (trec_eval would silently read it as 0); cut toward zero as
        trec_eval does; or kept as a graded relevance. See :func:`read_qrels`.
    judged_only : bool, default False
        Score only judged documents (trec_eval's ``-J``): every retrieved
        document without a grade >= 0 (not in the qrels, or in them with a
        negative grade) is dropped and the ones below move up. ``num_ret``
        then counts the judged documents.
    max_documents : positive int, optional
        Keep only each query's first ``max_documents`` ranked documents
        (trec_eval's ``-M``), before ``judged_only`` drops any. Default: all.

    Returns
    -------
    Evaluation
        ``per_query`` values, the ``summary`` (trec_eval's ``all``), the
        missing and unjudged queries, and the conventions used. Shows as a
        table in a notebook and in ``print``.

    Raises
    ------
    ValueError
        For an unknown metric, a bad convention argument, when no query is
        both judged and in the run, or (with ``chunk_queries``) for a run
        file that is not grouped by query.

    See Also
    --------
    read_qrels, read_run, compare

    References
    ----------
    NIST, trec_eval (https://github.com/usnistgov/trec_eval): measure definitions in
    ``m_*.c``, ordering in ``form_res_rels.c``.

    Examples
    --------
    >>> qrels = {"q1": {"d1": 2, "d2": 0, "d3": 1}, "q2": {"d4": 1}}
    >>> run = {"q1": {"d1": 0.9, "d2": 0.8, "d3": 0.1}, "q2": {"d5": 0.7, "d4": 0.5}}
    >>> result = evaluate(qrels, run, ["map", "p@2", "ndcg_cut_3"])
    >>> result.summary["map"]  # q1: (1 + 2/3) / 2; q2: (1/2) / 1
    0.6666666666666666
    >>> result.per_query["p@2"].tolist()
    [0.5, 0.5]
    >>> print(result)
    query     map     p@2  ndcg_cut_3
    -----  ------  ------  ----------
    q1     0.8333  0.5000      0.9502
    q2     0.5000  0.5000      0.6309
    -----  ------  ------  ----------
    all    0.6667  0.5000      0.7906
    2 queries; relevance_level=1, ties=docno_descending, missing=skip
    >>> evaluate(qrels, run, ["map", "p@2", "ndcg_cut_3"], chunk_queries=1).summary == result.summary
    True

    ir_measures' names, with a relevance level for one measure only:

    >>> pasted = evaluate(qrels, run, ["AP", "P@2", "P(rel=2)@2", "R(rel=2)@3", "nDCG@3", "RBP(p=0.5)"])
    >>> pasted.per_query["P(rel=2)@2"].tolist()  # q1: only d1 has grade >= 2; q2: none
    [0.5, 0.0]
    >>> pasted.summary["AP"] == result.summary["map"]
    True
    >>> round(pasted.value("RBP(p=0.5)", "q2"), 4)  # d4 (grade 1) at rank 2: 0.5 * 0.5
    0.25
    >>> evaluate(qrels, run, "P(judged_only=True)@2")
    Traceback (most recent call last):
    ...
    ValueError: 'P(judged_only=True)@2': 'judged_only' is not a parameter of P here (supported: rel=)

    Tied scores averaged over every order (scikit-learn's ``ndcg_score`` way):

    >>> tied = {"q1": {"d1": 0.5, "d2": 0.5, "d3": 0.1}, "q2": {"d4": 0.5}}
    >>> evaluate(qrels, tied, "rr").per_query["rr"].tolist()  # q1: d2 before d1 (docno descending)
    [0.5, 1.0]
    >>> evaluate(qrels, tied, "rr", ties="average").per_query["rr"].tolist()  # q1: (1 + 1/2) / 2
    [0.75, 1.0]
    """
    measures = parse_metrics(metrics)
    level = _check_level(relevance_level)
    missing = v.check_choice(missing, "missing", MISSING)
    ties = v.check_choice(ties, "ties", TIES)
    score_precision = v.check_choice(score_precision, "score_precision", SCORE_PRECISIONS)
    fractional_grades = v.check_choice(fractional_grades, "fractional_grades", files.FRACTIONAL_GRADES)
    gain = v.check_choice(gain, "gain", GAINS)
    ideal = v.check_choice(ideal, "ideal", IDEAL_SOURCES)
    denominator = v.check_choice(denominator, "denominator", AP_DENOMINATORS)

    if not isinstance(judged_only, (bool, np.bool_)):
        raise ValueError(f"judged_only must be True or False; got {v.show(judged_only)}")
    if max_documents is not None:
        max_documents = v.check_k(max_documents, "max_documents")
    if ties == "average":
        _check_averaged(measures, denominator, max_documents)

    uses_ndcg = any(m.family == "ndcg" for m in measures)
    whole = any(m.needs_whole_list for m in measures) or (uses_ndcg and ideal == "listed")
    deepest = max((m.k for m in measures if m.k is not None), default=1)
    # Averaging a tie group needs all of it, wherever it ends: rank the whole list.
    depth = None if whole or ties == "average" else deepest
    conventions = {
        "relevance_level": level,
        "missing": missing,
        "ties": ties,
        "score_precision": score_precision,
        "gain": gain,
        "ideal": ideal,
        "denominator": denominator,
        "fractional_grades": fractional_grades,
        "judged_only": bool(judged_only),
        "max_documents": max_documents,
    }
    qrels = files.judgements(qrels, fractional_grades)
    if not qrels:
        raise ValueError("qrels holds no judgement at all")
    if chunk_queries is not None:
        chunk_queries = v.check_k(chunk_queries, "chunk_queries")

    def score(groups: files.Records) -> dict[str, np.ndarray]:
        ranked = ranking.rank(groups, qrels, depth, ties, score_precision, bool(judged_only), max_documents)
        return _score(ranked, measures, level, gain, ideal, denominator)

    queries: list[str] = []
    parts: list[dict[str, np.ndarray]] = []
    in_run: set[str] = set()
    unjudged: set[str] = set()
    noted: dict[str, str] = {}  # the run file's last tag: trec_eval's runid
    for groups in files.run_records(run, chunk_queries, noted):
        in_run.update(groups.qids)
        keep = [i for i, qid in enumerate(groups.qids) if qid in qrels]
        unjudged.update(qid for qid in groups.qids if qid not in qrels)
        if keep:
            groups = groups.take(keep)
            queries.extend(groups.qids)
            parts.append(score(groups))
    absent = sorted(qid for qid in qrels if qid not in in_run)
    if absent and missing == "zero":
        queries.extend(absent)
        parts.append(score(files.Records.empty(absent)))
    if not queries:
        raise ValueError(
            "no query is both judged and in the run: the qrels judge "
            f"{_list(sorted(qrels))}; the run has {_list(sorted(in_run)) or 'none'}"
        )
    if absent and missing == "skip":
        warnings.warn(
            f"{len(absent)} judged quer{'y is' if len(absent) == 1 else 'ies are'} "
            f"absent from the run and skipped: {_list(absent)}. "
            "Pass missing='zero' to score them 0 (trec_eval -c).",
            UserWarning,
            stacklevel=2,
        )

    order = sorted(range(len(queries)), key=queries.__getitem__)  # trec_eval's order: as text
    per_query = {m.name: np.concatenate([part[m.name] for part in parts])[order] for m in measures}
    run_id = noted.get("tag", "")  # a run given as a dict has no tag
    for m in measures:
        if m.metric.summary == "run_id":  # known only once the whole run is read
            per_query[m.name] = np.full(len(queries), run_id, dtype=object)
    summary = {m.name: _summarise(m, per_query[m.name], run_id) for m in measures}
    return Evaluation(
        tuple(queries[i] for i in order),
        per_query,
        summary,
        tuple(absent),
        tuple(sorted(unjudged)),
        conventions,
    )


def _check_averaged(measures: list[Measure], denominator: str, max_documents: int | None) -> None:
    """ties="average" only for the metrics that compute an expectation; refuse the rest by name."""
    refused = [m.name for m in measures if not m.metric.averages_ties]
    if refused:
        offered = ", ".join(m.name for m in METRICS.values() if m.averages_ties)
        raise ValueError(
            f"ties='average' is not available for {', '.join(map(repr, refused))}; "
            f"it is for: {offered}. Use ties='docno_descending' (trec_eval) for the others"
        )
    if denominator == "retrieved_relevant" and any(m.family == "average_precision" for m in measures):
        raise ValueError(
            "ties='average' does not go with denominator='retrieved_relevant': AP would then divide "
            "by a count that itself depends on the order of the tied documents"
        )
    if max_documents is not None:
        raise ValueError("ties='average' does not go with max_documents: the cut could split a tie group")


def _check_level(level: Any) -> float:
    if isinstance(level, (bool, np.bool_)) or not isinstance(level, numbers.Real) or not math.isfinite(level):
        raise ValueError(f"relevance_level must be a finite number; got {v.show(level)}")
    return int(level) if float(level).is_integer() else float(level)


def _list(ids: Sequence[str], shown: int = 10) -> str:
    text = ", ".join(ids[:shown])
    return text + (f" and {len(ids) - shown} more" if len(ids) > shown else "")


def _score(
    ranked: ranking.Ranked,
    measures: list[Measure],
    level: float,
    gain: str,
    ideal: str,
    denominator: str,
) -> dict[str, np.ndarray]:
    """Every metric for a group of ranked queries: one value per query, by the metric's own hook."""
    uses_ndcg = any(m.family == "ndcg" for m in measures)
    width = ranked.grades.shape[1]
    n_relevant, n_nonrelevant = judged_counts(ranked.judged_grades, level)
    columns = Columns(
        binary=(ranked.judged & (ranked.grades >= level)).astype(float),
        graded=np.clip(ranked.grades, 0.0, None),  # nDCG: raw grades, a negative one earns nothing
        # nDCG's ideal ranking: every judged grade of the query (padding and negatives count 0).
        best=np.maximum(ranked.judged_grades, 0.0) if uses_ndcg and ideal == "judged" else None,
        n_relevant=n_relevant,
        n_retrieved=ranked.n_retrieved,
        gain=gain,
        denominator=denominator,
        judged=ranked.judged & (ranked.grades >= 0),
        pooled=ranked.judged,
        retrieved=np.arange(width) < ranked.n_retrieved[:, None],
        n_nonrelevant=n_nonrelevant,
        judged_grades=ranked.judged_grades,
        tie_start=ranked.tie_start,
        tie_end=ranked.tie_end,
    )
    return {m.name: _value(m, columns) for m in measures}


def _value(m: Measure, columns: Columns) -> np.ndarray:
    if m.relevance_level is not None or m.gain is not None:
        columns = _for_measure(columns, m)
    if m.parameter is None:
        return m.metric.evaluate(columns, m.k)
    return m.metric.evaluate(columns, m.k, m.parameter)


def _for_measure(columns: Columns, m: Measure) -> Columns:
    """The columns under one measure's own relevance level or gain (``P(rel=2)@5``)."""
    if m.relevance_level is None:
        return replace(columns, gain=m.gain)
    # rel > 0, so the clipped grades decide relevance as the raw ones would.
    n_relevant, n_nonrelevant = judged_counts(columns.judged_grades, m.relevance_level)
    return replace(
        columns,
        binary=(columns.pooled & (columns.graded >= m.relevance_level)).astype(float),
        n_relevant=n_relevant,
        n_nonrelevant=n_nonrelevant,
        gain=m.gain or columns.gain,
    )


def _summarise(m: Measure, values: np.ndarray, run_id: str) -> float | str:
    if m.metric.summary == "sum":
        return float(values.sum())
    if m.metric.summary == "geometric":
        return float(np.exp(np.mean(np.log(np.maximum(values, _GM_FLOOR)))))
    if m.metric.summary == "run_id":
        return run_id
    if m.metric.summary == "none":
        return ""
    return float(values.mean())
