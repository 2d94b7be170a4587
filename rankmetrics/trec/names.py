"""Metric names over many queries: the package's, trec_eval's and ir_measures', read from the registry.

:func:`parse_metric` turns a name as a person writes it (``ndcg@10``), as
trec_eval prints it or takes it with ``-m`` (``ndcg_cut_10``, ``P.5``,
``iprec_at_recall_0.10``, ``ndcg.1=3,2=9``) or as ir_measures writes it
(``nDCG@10``, ``P(rel=2)@5``, ``RBP(p=0.8)``) into a :class:`Measure`: the
registered metric, its cutoff and parameter. Every name comes from the
registrations (:mod:`rankmetrics.registry`); nothing here lists metrics.
:func:`trec_eval_name` goes the other way: the name trec_eval 10.0 prints for
a measure, whichever way it was asked for (``P@5``, ``p@5``, ``P.5`` → ``P_5``).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import _validation as v
from ..i18n import N_, _
from ..registry import METRICS, Metric
from .conventions import check_level
from .io.tokens import DECIMAL

_CUTOFF = re.compile(r"[0-9]+")  # ASCII digits only: "²".isdigit() is True, int("²") fails
_NUMBER = re.compile(DECIMAL)  # a parameter: 0.5, .25, 3 (as a grade is written)
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
    return _("{names}; trec_eval's {trec_names}").format(
        names=", ".join(dict.fromkeys(human)), trec_names=", ".join(dict.fromkeys(trec))
    )


@dataclass(frozen=True)
class Measure:
    """One requested metric: the name as written, the registered metric, its cutoff and parameter.

    ``parameter`` is trec_eval's parameter of the measure, when one was
    written (see :attr:`rankmetrics.registry.Metric.parameter`): a number,
    a tuple of numbers, or a tuple of ``(level, gain)`` pairs.
    ``relevance_level`` and ``gain`` override evaluate's conventions for this
    measure only, as ir_measures' ``P(rel=2)@5`` and ``nDCG(dcg=exp-log2)`` say.
    ``parameter_text`` is trec_eval's parameter as it was typed after the
    measure's name (``0.5`` in ``set_F.0.5``), which trec_eval prints back
    unchanged for its measures of one value (see :func:`trec_eval_name`).
    """

    name: str
    metric: Metric
    k: int | None
    parameter: Any = None
    relevance_level: float | None = None
    gain: str | None = None
    parameter_text: str | None = field(default=None, repr=False, compare=False)

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


def _cutoff(name: str, cut: str, example: str | None = None) -> int:
    """A cutoff written in a metric name: ASCII digits, at least 1 (the one check for every form)."""
    if not _CUTOFF.fullmatch(cut) or int(cut) < 1:
        hint = _(", as in {example}").format(example=example) if example else ""
        raise ValueError(
            _("the cutoff in {name!r} must be a positive integer{hint}").format(name=name, hint=hint)
        )
    if int(cut) > v.MAX_COUNT:  # no list is longer; numpy's cutoffs are 64-bit integers
        raise ValueError(
            _("the cutoff in {name!r} must be at most 2**63 - 1; got {cut}").format(name=name, cut=cut)
        )
    return int(cut)


def _parameterised(metrics: list[Metric]) -> list[tuple[str, Metric, str]]:
    """(trec_eval name, metric, kind of what follows it), the longest names first."""
    forms = [(m.trec_cutoff_name, m, "cutoff") for m in metrics if m.trec_cutoff_name]
    forms += [(m.trec_name, m, m.parameter) for m in metrics if m.trec_name and m.parameter]
    return sorted(forms, key=lambda form: -len(form[0]))


def parse_metric(name: Any, *, check_range: bool = True) -> Measure:
    """Read a metric name, human (``ndcg@10``) or trec_eval's (``ndcg_cut_10``), from the registry.

    trec_eval's names are accepted as trec_eval prints them (``P_5``,
    ``iprec_at_recall_0.10``, ``ndcg_1=3,2=9``, ``rbp_p=0.95``) and as its
    ``-m`` option takes them (``P.5``, ``iprec_at_recall.0.10``,
    ``ndcg.1=3,2=9``, ``rbp.p=0.95``), one measure per name. ir_measures'
    names are accepted as ir_measures writes them, ``str(measure)`` included
    (``nDCG(dcg='exp-log2')@10``, ``P(rel=2)@5``, ``NumRet(rel=1)``, which
    is ir_measures' NumRelRet); see :func:`evaluate`.

    Parameters
    ----------
    name : str
        The metric's name.
    check_range : bool, default True
        Refuse a parameter that takes the measure outside the range where it
        is defined, naming the name and the parameter: ``set_F``'s beta < 0
        (the weight of recall in (beta + 1) P R / (beta P + R)); RBP's
        persistence p outside (0, 1) (``rbp``, ``rbp_resid``, and
        ir_measures' ``RBP(p=...)``: one rule for both names); a recall level
        outside [0, 1] (``iprec_at_recall``, ``11pt_avg``); a multiple of R
        <= 0 (``Rprec_mult``); a number that is not finite. ``utility``'s
        coefficients and the gain maps (``ndcg``, ``G``, ``ndcg_rel``,
        ``Rndcg``, ``rbp``) take any finite number: trec_eval documents
        negative gains as costs, and RBP rescales its gains into [0, 1].
        With ``check_range=False`` such a measure is read unchecked and is
        computed as trec_eval computes it (``set_F.-0.5`` gives F = -2 at P = 1, R = 0.4), as
        a reproduction of trec_eval's output needs. Cutoffs (at least 1,
        relstring's length included) and ir_measures' ``rel`` (a number, as
        ``relevance_level`` takes it) are checked either way: the package computes nothing else.

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
    >>> parse_metric("set_F.-0.5")
    Traceback (most recent call last):
    ...
    ValueError: 'set_F.-0.5': beta (the weight of recall) must be >= 0; got -0.5 (outside the range where set_F is defined; parse_metric(name, check_range=False) reads it unchecked, as trec_eval does)
    >>> parse_metric("set_F.-0.5", check_range=False).parameter
    (-0.5,)
    """
    if not isinstance(name, str) or not name.strip():
        raise ValueError(_("a metric name must be a non-empty string; got {name}").format(name=v.show(name)))
    return _parse_name(name, bool(check_range))


# ir_measures writes its NumRelRet as NumRet(rel=1): NumRet with a relevance level counts
# the relevant retrieved documents (ir_measures' measures/numret.py).
_IR_RENAMED = {("NumRet", "rel"): "NumRelRet"}


def _ir_spelling(written: re.Match | None) -> str | None:
    if written is None:
        return None
    keys = {p.partition("=")[0].strip() for p in (written["parameters"] or "").split(",")}
    return (
        next((new for (old, key), new in _IR_RENAMED.items() if old == written["name"] and key in keys), None)
        or written["name"]
    )


@functools.lru_cache(maxsize=4096)  # names are read again for every value shown
def _parse_name(name: str, check_range: bool = True) -> Measure:
    text = name.strip()
    lower = text.lower()
    metrics = _evaluated()
    written = _IR_FORM.fullmatch(text)
    if written is None and "(" in text:
        raise ValueError(
            _("{name!r} is not of the form Name(key=value,...)@k, as in P(rel=2)@5").format(name=name)
        )
    # ir_measures' spelling, exactly (nDCG, P, RBP, ...), is read with ir_measures' meaning first:
    # "RBP" is ir_measures' (p = 0.8), "rbp" trec_eval's (p = 0.9).
    ir_name = _ir_spelling(written)
    by_ir_name = next((m for m in metrics if ir_name and m.ir_name == ir_name), None)
    if by_ir_name is not None:
        return _ir_measure(text, by_ir_name, written["parameters"], written["cutoff"], check_range)
    if written is not None and written["parameters"] is not None:
        known = ", ".join(m.ir_name for m in metrics if m.ir_name)
        bare = next((m for m in metrics if (m.trec_name or "").lower() == written["name"].lower()), None)
        if bare is not None:  # Bpref(rel=2): Bpref is read, as trec_eval's bpref, without parameters
            raise ValueError(
                _(
                    "{name!r}: {written} is read as trec_eval's {trec_name}, which takes no parameters "
                    "here; the ir_measures names read with parameters: {known}"
                ).format(name=name, written=written["name"], trec_name=bare.trec_name, known=known)
            )
        raise ValueError(
            _("unknown ir_measures name in {name!r}; known: {known}").format(name=name, known=known)
        )
    if "@" in lower:
        base, _at, cut = lower.partition("@")
        metric = next((m for m in metrics if base in m.names), None)
        if metric is None or metric.cutoff == "none":
            raise ValueError(
                _("unknown metric {name!r}; known: {known_metrics}").format(
                    name=name, known_metrics=known_metrics()
                )
            )
        return Measure(text, metric, _cutoff(name, cut, f"{base}@10"))
    metric = next((m for m in metrics if (m.trec_name or "").lower() == lower), None)
    metric = metric or next((m for m in metrics if lower in m.names), None)
    if metric is not None:
        if metric.cutoff == "required":
            example = f"{metric.trec_cutoff_name}_10" if metric.trec_cutoff_name else f"{lower}@10"
            raise ValueError(
                _("{name!r} needs a cutoff: write {lower}@10 (or trec_eval's form, e.g. {example})").format(
                    name=name, lower=lower, example=example
                )
            )
        if metric.parameter == "level":
            raise ValueError(
                _("{name!r} needs a level, as trec_eval prints it: e.g. {trec_name}_0.10").format(
                    name=name, trec_name=metric.trec_name
                )
            )
        return Measure(text, metric, None)
    forms = _parameterised(metrics)
    base, dot, rest = text.partition(".")  # trec_eval's -m form: name.parameters
    for prefix, metric, kind in forms if dot else ():
        if base.lower() == prefix.lower():
            value = _parse_parameter(kind, rest)
            if value is None:
                raise ValueError(
                    _("{name!r}: {rest!r} is not a parameter of {prefix} ({_form})").format(
                        name=name, rest=rest, prefix=prefix, _form=_form(kind)
                    )
                )
            return _measure(text, metric, kind, value, rest, check_range)
    for prefix, metric, kind in forms:  # as trec_eval prints it: name_parameters
        if lower.startswith(prefix.lower() + "_"):
            value = _parse_parameter(kind, text[len(prefix) + 1 :])
            if value is not None:
                return _measure(text, metric, kind, value, text[len(prefix) + 1 :], check_range)
    raise ValueError(
        _("unknown metric {name!r}; known: {known_metrics}").format(name=name, known_metrics=known_metrics())
    )


_IR_FORM = re.compile(
    r"(?P<name>[A-Za-z][A-Za-z0-9_]*)(?:\((?P<parameters>[^()]*)\))?(?:@(?P<cutoff>[^@]*))?"
)
_IR_GAINS = {"log2": "linear", "exp-log2": "exponential"}  # ir_measures' nDCG dcg= choices


def _ir_measure(
    text: str, metric: Metric, parameters: str | None, cut: str | None, check_range: bool = True
) -> Measure:
    """An ir_measures name (``P(rel=2)@5``, ``RBP(p=0.8)``, ``nDCG(dcg='exp-log2')@10``) as a :class:`Measure`.

    A value may be quoted, as ``str(measure)`` writes a text value: ``dcg='exp-log2'``.
    """
    k = None
    if cut is not None:
        if metric.cutoff == "none":
            raise ValueError(
                _("{text!r}: {ir_name} takes no cutoff").format(text=text, ir_name=metric.ir_name)
            )
        k = _cutoff(text, cut, f"{metric.ir_name}@10")
    elif metric.cutoff == "required":
        raise ValueError(
            _("{text!r} needs a cutoff: write {ir_name}@10").format(text=text, ir_name=metric.ir_name)
        )
    allowed = dict(metric.ir_parameters)
    given: dict[str, str] = {}
    for part in parameters.split(",") if parameters and parameters.strip() else ():
        key, sep, value = (p.strip() for p in part.partition("="))
        if not sep or key not in allowed:
            offered = ", ".join(f"{a}=" for a in allowed) or _("none")
            raise ValueError(
                _("{text!r}: {key!r} is not a parameter of {ir_name} here (supported: {offered})").format(
                    text=text, key=key, ir_name=metric.ir_name, offered=offered
                )
            )
        if key in given:
            raise ValueError(_("{text!r} gives {key} twice").format(text=text, key=key))
        given[key] = _unquoted(value)
    values = {key: default for key, default in allowed.items() if default is not None}
    values.update(given)
    level = gain = parameter = None
    for key, value in values.items():
        if key == "rel":
            # Any level relevance_level= takes: P(rel=0)@5 is evaluate(..., relevance_level=0)'s P_5.
            if not _NUMBER.fullmatch(str(value)):
                raise ValueError(
                    _(
                        "{text!r}: rel must be a number (a relevance level, as relevance_level=); got {value!r}"
                    ).format(text=text, value=value)
                )
            level = check_level(float(value))
        elif key == "p":
            if not _NUMBER.fullmatch(str(value)):
                raise ValueError(
                    _("{text!r}: p must be a number (RBP's persistence); got {value!r}").format(
                        text=text, value=value
                    )
                )
            parameter = (("p", float(value)),)
            if check_range:
                _check_range(text, metric, parameter, metric.ir_name)
        elif key == "dcg":
            if value not in _IR_GAINS:
                raise ValueError(
                    _("{text!r}: dcg must be one of {_IR_GAINS}; got {value!r}").format(
                        text=text, _IR_GAINS=sorted(_IR_GAINS), value=value
                    )
                )
            gain = _IR_GAINS[value]
    return Measure(text, metric, k, parameter, level, gain)


def _unquoted(value: str) -> str:
    """A value as ir_measures' ``str(measure)`` writes it, without its quotes: ``'exp-log2'``."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _check_range(text: str, metric: Metric, value: Any, what: str | None = None) -> None:
    """Refuse a parameter outside the measure's defined range (its registered ``check_parameter``)."""
    numbers = [value] if isinstance(value, float) else [x[1] if isinstance(x, tuple) else x for x in value]
    problem = next(
        (_("{x} is not a finite number").format(x=x) for x in numbers if not math.isfinite(x)), None
    )
    if problem is None and metric.check_parameter is not None:
        problem = metric.check_parameter(value)
    if problem:
        what = what or metric.trec_name or metric.name
        raise ValueError(
            _(
                "{text!r}: {problem} (outside the range where {what} is defined; parse_metric(name, "
                "check_range=False) reads it unchecked, as trec_eval does)"
            ).format(text=text, problem=problem, what=what)
        )


_FORMS = {  # how each kind of parameter is written; message ids
    "cutoff": N_("a positive integer"),
    "level": N_("a number"),
    "numbers": N_("numbers a,b,..."),
    "gains": N_("pairs level=gain,..."),
}


def _form(kind: str) -> str:
    return _(_FORMS[kind])


def _measure(text: str, metric: Metric, kind: str, value: Any, typed: str, check_range: bool) -> Measure:
    if kind == "cutoff":
        return Measure(text, metric, _cutoff(text, str(value)), parameter_text=typed)
    if check_range:
        _check_range(text, metric, value)
    return Measure(text, metric, None, value, parameter_text=typed)


def parse_metrics(metrics: Any, *, check_range: bool = True) -> list[Measure]:
    """A list of :class:`Measure` from one name or a sequence of names; no name twice.

    ``check_range`` is passed to :func:`parse_metric` for every name.
    """
    if isinstance(metrics, str):
        metrics = [metrics]
    if not isinstance(metrics, Sequence) or isinstance(metrics, bytes) or not metrics:
        raise ValueError(
            _(
                "metrics must be a metric name or a non-empty list of names, e.g. ['map', 'ndcg@10']; "
                "got {metrics}"
            ).format(metrics=v.show(metrics))
        )
    measures = [parse_metric(name, check_range=check_range) for name in metrics]
    names = [m.name for m in measures]
    for name in names:
        if names.count(name) > 1:
            raise ValueError(_("metrics lists {name!r} twice").format(name=name))
    return measures


def trec_eval_name(measure: Measure | str) -> str:
    """The name trec_eval 10.0 prints for a measure, however it was asked for.

    trec_eval's own rules (``meas_init.c``): a measure with cutoffs prints
    each as ``%ld`` (``P.07`` and ``p@7`` print ``P_7``; ``ndcg@10`` prints
    ``ndcg_cut_10``); a measure with recall levels or multiples prints each
    as ``%3.2f`` (``Rprec_mult.0.5`` prints ``Rprec_mult_0.50``); a measure
    of one value with parameters (``set_F``, ``utility``, ``11pt_avg``,
    ``relstring`` and the gain maps ``ndcg``, ``G``, ``ndcg_rel``,
    ``Rndcg``, ``rbp``, ``rbp_resid``) prints its parameter text as typed
    (``set_F.0.50`` prints ``set_F_0.50``). ir_measures' names print as the
    trec_eval measure they compute (``AP`` as ``map``, ``RBP`` as
    ``rbp_p=0.8``).

    Raises
    ------
    ValueError
        Naming the measure, when trec_eval has no line for it: a measure
        trec_eval lacks (``err@20``, ``hits@10``, ``judged@10``, ``f1@5``)
        or lacks at a cutoff (``rr@10``), and nDCG with exponential gains
        (``nDCG(dcg='exp-log2')``: trec_eval's gains are linear or a gain map).

    Examples
    --------
    >>> [trec_eval_name(n) for n in ("P.7", "p@7", "nDCG@10", "Rprec_mult.0.5", "set_F.0.50", "RBP")]
    ['P_7', 'P_7', 'ndcg_cut_10', 'Rprec_mult_0.50', 'set_F_0.50', 'rbp_p=0.8']
    >>> trec_eval_name("err@20")
    Traceback (most recent call last):
    ...
    ValueError: 'err@20' has no trec_eval name: trec_eval 10.0 has no ERR measure
    """
    if isinstance(measure, str):
        measure = parse_metric(measure, check_range=False)
    m, name = measure.metric, measure.name
    if measure.gain is not None and measure.gain != "linear":
        raise ValueError(
            _(
                "{name!r} has no trec_eval name: trec_eval's nDCG has linear gains (or a gain map "
                "such as ndcg_1=1,2=3,3=7), not the exponential gain 2^grade - 1"
            ).format(name=name)
        )
    if m.trec_name is None and m.trec_cutoff_name is None:
        raise ValueError(
            _("{name!r} has no trec_eval name: trec_eval 10.0 has no {label} measure").format(
                name=name, label=m.label
            )
        )
    if measure.k is not None:
        if m.trec_cutoff_name is None:
            raise ValueError(
                _(
                    "{name!r} has no trec_eval name: trec_eval 10.0 has {trec_name} only over the whole "
                    "list, not at a cutoff"
                ).format(name=name, trec_name=m.trec_name)
            )
        if m.trec_cutoff_name == m.trec_name:  # one value with a parameter (relstring): as typed
            return f"{m.trec_name}_{measure.parameter_text or measure.k}"
        return f"{m.trec_cutoff_name}_{measure.k}"  # an array of cutoffs: %ld
    if m.trec_name is None:
        raise ValueError(
            _("{name!r} has no trec_eval name without a cutoff ({trec_cutoff_name}_k)").format(
                name=name, trec_cutoff_name=m.trec_cutoff_name
            )
        )
    if measure.parameter is None:
        return m.trec_name
    if m.parameter == "level":  # an array of double cutoffs: %3.2f, in trec_eval's buffer of 8 + 2
        return f"{m.trec_name}_{measure.parameter:3.2f}"[: len(m.trec_name) + 9]
    text = measure.parameter_text
    if text is None:  # from an ir_measures name: RBP(p=0.5) is trec_eval's rbp.p=0.5
        text = ",".join(f"{key}={value!r}" for key, value in measure.parameter)
    return f"{m.trec_name}_{text}"
