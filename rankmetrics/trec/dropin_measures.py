"""trec_eval 10.0's measure table for the drop-in: names, parameter kinds and defaults, as data.

:mod:`rankmetrics.trec.dropin` reads ``-m`` options through this module:
the measures in trec_eval's table order (``measures.c``), its nicknames
(``official``, ``all_trec``, ``set``), how each measure's parameters are
written and printed, and the package's :class:`~rankmetrics.trec.names.Measure`
for each printed name, built directly from trec_eval's parameters (so that
the drop-in computes what trec_eval computes, range checks aside).
"""

from __future__ import annotations

import re
from typing import Any

from .io import tokens

OURS = "trec_eval (rankmetrics): "  # the start of every line that is the drop-in's, not trec_eval's
_WHOLE = re.compile(tokens.WHOLE)
_DECIMAL = re.compile(tokens.DECIMAL_E)


class Stop(Exception):
    """trec_eval would exit here with this code, after the message (to stderr)."""

    def __init__(self, code: int, message: str = ""):
        super().__init__(message)
        self.code = code
        self.message = message


def whole_number(text: str, what: str) -> int:
    """A flag's or cutoff's whole number; trec_eval's atol would read 'x' as 0 and '5x' as 5."""
    if not _WHOLE.fullmatch(text.strip()):
        raise Stop(1, f"{OURS}{what} must be a whole number; got {text!r}\n")
    return int(text)


def decimal_number(text: str, what: str) -> float:
    if not _DECIMAL.fullmatch(text.strip()):
        raise Stop(1, f"{OURS}{what} must be a decimal number; got {text!r}\n")
    return float(text)


_ALL_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
RECALLS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)

# trec_eval 10.0's measures for qrels and trec_results, in the order of its measure table,
# with the kind of parameter each takes and its default: "long" cutoffs are printed
# name_5, "double" cutoffs name_0.10, "text" parameters as written (utility_1,-1,0,0),
# pairs (ndcg_1=3,2=9) too.
MEASURES: dict[str, tuple[str, tuple]] = {
    "runid": ("none", ()),
    "num_q": ("none", ()),
    "num_ret": ("none", ()),
    "num_rel": ("none", ()),
    "num_rel_ret": ("none", ()),
    "map": ("none", ()),
    "gm_map": ("none", ()),
    "Rprec": ("none", ()),
    "bpref": ("none", ()),
    "recip_rank": ("none", ()),
    "iprec_at_recall": ("double", RECALLS),
    "P": ("long", _ALL_CUTOFFS),
    "relstring": ("text", ()),
    "recall": ("long", _ALL_CUTOFFS),
    "infAP": ("none", ()),
    "gm_bpref": ("none", ()),
    "Rprec_mult": ("double", (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)),
    "utility": ("text", ()),
    "11pt_avg": ("text", ()),
    "binG": ("none", ()),
    "G": ("pairs", ()),
    "dcg": ("pairs", ()),
    "ideal_dcg": ("pairs", ()),
    "ndcg": ("pairs", ()),
    "ndcg_rel": ("pairs", ()),
    "Rndcg": ("pairs", ()),
    "ndcg_cut": ("long", _ALL_CUTOFFS),
    "map_cut": ("long", _ALL_CUTOFFS),
    "relative_P": ("long", _ALL_CUTOFFS),
    "success": ("long", (1, 5, 10)),
    "set_P": ("none", ()),
    "set_relative_P": ("none", ()),
    "set_recall": ("none", ()),
    "set_map": ("none", ()),
    "set_F": ("text", ()),
    "num_nonrel_judged_ret": ("none", ()),
    "rbp": ("pairs", ()),
    "rbp_resid": ("pairs", ()),
    "unj": ("long", (5, 10, 20)),
}
_OFFICIAL = [
    "runid",
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "map",
    "gm_map",
    "Rprec",
    "bpref",
    "recip_rank",
    "iprec_at_recall",
    "P",
]
NICKNAMES: dict[str, list[str]] = {
    "official": _OFFICIAL,
    "all_trec": [name for name in MEASURES if name not in ("dcg", "ideal_dcg")],
    "set": [
        "runid",
        "num_q",
        "num_ret",
        "num_rel",
        "num_rel_ret",
        "utility",
        "set_P",
        "set_recall",
        "set_relative_P",
        "set_map",
        "set_F",
    ],
}


def _cutoff_name(name: str, kind: str, value: float) -> str:
    return f"{name}_{int(value)}" if kind == "long" else f"{name}_{value:3.2f}"


def measure_names(specs: list[str]) -> list[tuple[str, list[str]]]:
    """The requested measures in trec_eval's table order, each with the names it prints.

    ``specs`` are the values of trec_eval's ``-m`` options. Cutoffs are sorted;
    for a measure given twice, the first ``-m`` with parameters decides.

    Examples
    --------
    >>> measure_names(["P.10,5", "map", "P.20"])
    [('map', ['map']), ('P', ['P_5', 'P_10'])]
    >>> measure_names(["iprec_at_recall.0.5", "utility.1,-1,0,0"])
    [('iprec_at_recall', ['iprec_at_recall_0.50']), ('utility', ['utility_1,-1,0,0'])]
    """
    return [(name, [printed for printed, _ in names]) for name, names in requested_measures(specs)]


def requested_measures(specs: list[str]) -> list[tuple[str, list[tuple[str, Any]]]]:
    """Each requested measure with its printed names and each name's parameter value."""
    marked: set[str] = set()
    parameters: dict[str, str] = {}
    for spec in specs:
        name, dot, given = spec.partition(".")
        if dot:
            parameters.setdefault(name, given)  # the first -m that gives parameters wins
        marked.update(NICKNAMES.get(name, [name]))
    chosen = []
    for name, (kind, default) in MEASURES.items():
        if name not in marked:
            continue
        given = parameters.get(name)
        if kind in ("long", "double"):
            values: list[Any] = list(default)
            if given is not None:
                if kind == "long":
                    values = sorted(whole_number(part, f"a cutoff of {name}") for part in given.split(","))
                else:
                    values = sorted(
                        decimal_number(part, f"a parameter of {name}") for part in given.split(",")
                    )
                if kind == "long" and values[0] <= 0:
                    raise Stop(
                        2,
                        f"trec_eval: Negative cutoff detected\ntrec_eval: Cannot initialize measure '{name}'\n",
                    )
                if len(set(values)) != len(values):
                    raise Stop(
                        2,
                        f"trec_eval: duplicate cutoffs detected\ntrec_eval: Cannot initialize measure '{name}'\n",
                    )
            chosen.append((name, [(_cutoff_name(name, kind, value), value) for value in values]))
        elif given is not None and kind in ("text", "pairs"):
            chosen.append((name, [(f"{name}_{given}", _parameter(name, kind, given))]))
        else:
            chosen.append((name, [(name, None)]))
    return chosen


def _parameter(name: str, kind: str, given: str) -> Any:
    """trec_eval's parameter text of a measure, read as its m_*.c reads it."""
    parts = given.split(",")
    if name == "relstring":
        return whole_number(given, "relstring's length")
    if kind == "text":  # utility, 11pt_avg, set_F: numbers
        return tuple(decimal_number(part, f"a parameter of {name}") for part in parts)
    pairs = []
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise Stop(1, f"{OURS}the parameters of {name} are pairs level=gain; got {given!r}\n")
        pairs.append((key.strip(), decimal_number(value, f"a gain of {name}")))
    return tuple(pairs)


def package_measures(requested: list[tuple[str, list[tuple[str, Any]]]]) -> dict[str, Any]:
    """The package's Measure for each printed name, built directly from trec_eval's parameters."""
    from ..registry import METRICS
    from .names import Measure

    cutoff_of = {m.trec_cutoff_name: m for m in METRICS.values() if m.trec_cutoff_name and m.evaluate}
    named = {m.trec_name: m for m in METRICS.values() if m.trec_name and m.evaluate}
    built: dict[str, Any] = {}
    for name, printed in requested:
        kind = MEASURES[name][0]
        for text, value in printed:
            if name == "runid":
                continue
            if kind == "long":
                built[text] = Measure(text, cutoff_of[name], int(value))
            elif name == "relstring":
                built[text] = Measure(text, cutoff_of[name], value)
            else:
                built[text] = Measure(text, named[name], None, value)
    return built
