"""The conventions of an evaluation over many queries, validated once, in one object.

:func:`rankmetrics.evaluate`, :func:`rankmetrics.compare` and the command line
take the same settings: what counts as relevant, how tied scores are ordered,
what happens to judged queries missing from the run, nDCG's gain and ideal,
AP's denominator, how scores are compared, how fractional grades are read,
and trec_eval's ``-J`` and ``-M``. :class:`Conventions` holds them, checks
each one in a single place, and says where each value came from: the
package's default, a named *preset* (a set of defaults that reproduces a
reference implementation), or an argument given explicitly, which always wins.

>>> c = Conventions.resolve(ties="input_order")
>>> c["ties"], c.source("ties"), c.source("gain")
('input_order', 'argument', 'default')
>>> print(c.card())
setting                value         from
---------------------  ------------  ----------------------
reference              trec_eval-10  default
relevance_level        1             default
missing                skip          default
unjudged               skip          default
ties                   input_order   argument
score_precision        float64       reference trec_eval-10
gain                   linear        default
ideal                  judged        default
denominator            all_relevant  default
precision_denominator  k             default
recall_denominator     all_relevant  default
discount               log2          default
averaging              per_user      default
fractional_grades      error         default
judged_only            False         default
max_documents          None (all)    default
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from .. import _validation as v
from ..i18n import N_, _
from ..metrics.conventions import (
    DISCOUNTS,
    EVALUATE_AP_DENOMINATORS,
    EVALUATE_IDEALS,
    GAINS,
    PRECISION_DENOMINATORS,
    RECALL_DENOMINATORS,
)
from ..tables import text_table
from .files import FRACTIONAL_GRADES

TIES = ("docno_descending", "input_order", "average", "numba_quicksort")
SCORE_PRECISIONS = ("float32", "float64")
MISSING = ("skip", "zero")
UNJUDGED = ("skip", "zero")
# How per-user values become one number. "per_user": the mean of the users' values (every
# library but one). "micro": P@k and recall@k as the sum of the users' hits over the sum of
# their denominators, as implicit's ranking_metrics_at_k computes its "precision"
# (evaluation.pyx: relevant / total over every user); the other measures stay per user.
AVERAGING = ("per_user", "micro")

# The trec_eval whose version-dependent rules evaluate follows, and what each reproduces.
# trec_eval 10.0 (NIST, 2026) reads scores as C doubles and turns a recall level r into a rank
# with lround(r * R); trec_eval 9.x, and so pytrec_eval and ir_measures (which embed it), keep
# scores in a C float (about 7 digits) and use (long) (r * R + 0.9).
REFERENCES = ("trec_eval-10", "trec_eval-9")
REFERENCE_RULES = {
    "trec_eval-10": {"score_precision": "float64", "recall_rank": "lround"},
    "trec_eval-9": {"score_precision": "float32", "recall_rank": "plus_0.9"},
}


class _Unset:
    """The value of a setting that the caller did not give (so a preset or the default decides)."""

    def __repr__(self) -> str:
        return "<default>"

    def __reduce__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


@dataclass(frozen=True)
class Preset:
    """Defaults that reproduce one reference implementation; explicit arguments override them.

    The presets by name, and how one is added, are in :mod:`rankmetrics.trec.presets`.
    """

    name: str
    description: str
    settings: Mapping[str, Any]

    def card_notes(self, conventions: Conventions) -> list[str]:
        """Lines the conventions card prints under its table for this preset (none)."""
        return []


# The data on which a library crashes or returns a value outside [0, 1]; a preset refuses
# a measure on such data by naming the case (LibraryPreset.cases).
CASES = {
    "user_without_test": N_("a user with a list but no test item"),
    "empty_list": N_("a user with test items and an empty list"),
    "no_hit": N_("a user whose list holds none of its test items"),
    "tied_test_items": N_("a test item tied with another item, in a user's top k"),
    "tied_scores": N_("tied scores in a user's top k"),
    "short_list": N_("a list shorter than k"),
    "adjacent_hits": N_("two test items next to each other in a user's top k"),
    "nonpositive_relevant": N_("a test item scored <= 0 in a user's list"),
}


@dataclass(frozen=True)
class LibraryPreset(Preset):
    """A preset for a library that offers only some measures, or follows them only so far.

    ``measures`` are the registered metric families the preset reproduces
    (:data:`rankmetrics.registry.METRICS` names); ``refused`` says, per family
    the library offers but the preset cannot follow, why; ``tolerance`` is how
    closely the library's own values are reproduced (0: exactly); ``versions``
    the library versions whose source the rules were read from. ``requires``
    names, per family, the settings it is reproduced under only (an explicit
    argument that changes one refuses that family; the reason is
    ``refused["family:setting"]``).

    The recommender libraries' presets (:mod:`rankmetrics.trec.presets_recsys`) also say,
    per family, the ``cases`` of data on which the library crashes or leaves [0, 1]
    (:data:`CASES`; the reason is ``refused["family:case"]``); the families it computes
    only over the whole list (``uncut``); ``tie_order``, why the library's order of equal
    scores is undefined (a warning then names the users with ties in the top k); and
    ``notes`` for the card.
    """

    measures: tuple[str, ...] = ()
    refused: Mapping[str, str] = field(default_factory=dict)
    requires: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    tolerance: float = 0.0
    versions: str = ""
    cases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    uncut: tuple[str, ...] = ()
    tie_order: str = ""
    notes: tuple[str, ...] = ()
    recommender: bool = False

    def card_notes(self, conventions: Conventions) -> list[str]:
        """A recommender preset's rules in a recommender's words: which users count, what is refused."""
        if not self.recommender:
            return []
        notes = [
            _("a user with test items but no list: scored 0 (missing=zero)")
            if conventions.missing == "zero"
            else _("a user with test items but no list: left out of the mean (missing=skip)"),
            _("a user with a list but no test item: scored 0 (unjudged=zero)")
            if conventions.unjudged == "zero"
            else _("a user with a list but no test item: left out of the mean (unjudged=skip)"),
        ]
        if conventions.averaging == "micro":
            notes.append(
                _("P@k and recall@k: the sum of hits over the sum of denominators (averaging=micro)")
            )
        for family, cases in self.cases.items():
            for case in cases:
                notes.append(
                    _("refused: {family} on {case}: {why}").format(
                        family=family, case=_(CASES[case]), why=_(self.refused[f"{family}:{case}"])
                    )
                )
        if self.tie_order:
            notes.append(
                _("tie order: {why}; a warning names the users with ties").format(why=_(self.tie_order))
            )
        notes.extend(_(note) for note in self.notes)
        return notes


@dataclass(frozen=True, eq=False)  # equality as a mapping of the settings
class Conventions(Mapping):
    """Every convention of an evaluation over many queries, checked once.

    Reads like a dict of the settings (``c["ties"]``, ``dict(c)``); build one
    with :meth:`resolve`, which applies the default, then a preset, then the
    explicit arguments, and remembers which of the three gave each value.

    Attributes
    ----------
    reference : {"trec_eval-10", "trec_eval-9"}, default "trec_eval-10"
        The trec_eval version whose version-dependent rules are followed
        (:data:`REFERENCE_RULES`): NIST trec_eval 10.0, or trec_eval 9.x as
        embedded in pytrec_eval and ir_measures. It sets ``score_precision``
        (unless that is given) and how ``iprec_at_recall`` and ``11pt_avg``
        turn a recall level into a rank.
    relevance_level : number, default 1
        A document is relevant for the binary metrics when its grade is at
        least this (trec_eval's ``-l``).
    missing : {"skip", "zero"}, default "skip"
        Judged queries absent from the run: skipped with a warning, or scored
        0 (trec_eval's ``-c``).
    unjudged : {"skip", "zero"}, default "skip"
        Queries of the run without any judgement: ignored (trec_eval, ranx),
        or scored 0 on every metric and kept in the mean (Spark MLlib, whose
        query with an empty label set scores 0).
    ties : {"docno_descending", "input_order", "average", "numba_quicksort"}, default "docno_descending"
        How documents with equal scores are ordered (trec_eval: docno,
        descending), or averaged over every order; ``"numba_quicksort"``
        leaves them where numba's ``np.argsort`` (an unstable quicksort) of
        the scores in input order puts them, which is ranx's order.
    score_precision : {"float32", "float64"}, default: as ``reference``
        How precisely scores are compared when ranking: ``"float64"`` as read
        (trec_eval 10.0, ranx), ``"float32"`` rounded to a C float first
        (trec_eval 9.x, pytrec_eval, ir_measures).
    gain : {"linear", "exponential", "binary"}, default "linear"
        nDCG's gain.
    ideal : {"judged", "listed", "relevant_ones", "k_ones", "listed_hits"}, default "judged"
        nDCG's ideal ranking: every judged document, the retrieved ones, one
        unit of gain per relevant item (min(k, |R|) ones), k ones (RecTools),
        or the gains already in the top k (DaisyRec);
        :data:`rankmetrics.metrics.conventions.EVALUATE_IDEALS`.
    denominator : {"all_relevant", "min_k_relevant", "retrieved_relevant", "min_k_listed_relevant"}, default "all_relevant"
        What AP divides by; ``"min_k_listed_relevant"`` is min(|R|, length of the
        list cut at k) (LensKit's AveragePrecision).
    precision_denominator : {"k", "listed", "min_k_relevant"}, default "k"
        What P@k divides by: k (trec_eval), the items shown, min(k, length of
        the list) (LensKit, DaisyRec, torchmetrics), or min(k, |R|) (implicit).
    recall_denominator : {"all_relevant", "min_k_relevant", "listed_relevant"}, default "all_relevant"
        What recall@k divides by: |R|, min(k, |R|) (LensKit), or the relevant
        items in the list passed (torchmetrics).
    discount : {"log2", "lenskit"}, default "log2"
        DCG's discount of rank i: log2(i + 1), or max(1, log2 i) (LensKit's default).
    averaging : {"per_user", "micro"}, default "per_user"
        The summary: the mean over users (queries), or, for P@k and recall@k,
        the sum of hits over the sum of denominators (implicit's "precision").
    fractional_grades : {"error", "truncate", "keep"}, default "error"
        What a judgement such as 0.5 does.
    judged_only : bool, default False
        Score only judged documents (trec_eval's ``-J``).
    max_documents : positive int or None, default None
        Keep only each query's first documents (trec_eval's ``-M``).
    preset : str or None
        The name of the preset that supplied defaults, if any (``chosen_preset``
        is the preset itself).
    """

    reference: str = "trec_eval-10"
    relevance_level: float = 1
    missing: str = "skip"
    unjudged: str = "skip"
    ties: str = "docno_descending"
    score_precision: str | None = None
    gain: str = "linear"
    ideal: str = "judged"
    denominator: str = "all_relevant"
    precision_denominator: str = "k"
    recall_denominator: str = "all_relevant"
    discount: str = "log2"
    averaging: str = "per_user"
    fractional_grades: str = "error"
    judged_only: bool = False
    max_documents: int | None = None
    chosen_preset: Preset | None = field(default=None, repr=False)
    excluded: Mapping[str, int] | None = None  # exclude=: seen items removed per user (not a setting)
    _sources: tuple[tuple[str, str], ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__  # frozen: normalise the checked values in place
        set_(self, "reference", v.check_choice(self.reference, "reference", REFERENCES))
        derived = self.score_precision is None
        if derived:
            set_(self, "score_precision", REFERENCE_RULES[self.reference]["score_precision"])
        set_(self, "relevance_level", check_level(self.relevance_level))
        set_(self, "missing", v.check_choice(self.missing, "missing", MISSING))
        set_(self, "unjudged", v.check_choice(self.unjudged, "unjudged", UNJUDGED))
        set_(self, "ties", v.check_choice(self.ties, "ties", TIES))
        set_(
            self,
            "score_precision",
            v.check_choice(self.score_precision, "score_precision", SCORE_PRECISIONS),
        )
        set_(
            self,
            "fractional_grades",
            v.check_choice(self.fractional_grades, "fractional_grades", FRACTIONAL_GRADES),
        )
        set_(self, "gain", v.check_choice(self.gain, "gain", GAINS))
        set_(self, "ideal", v.check_choice(self.ideal, "ideal", EVALUATE_IDEALS))
        set_(self, "denominator", v.check_choice(self.denominator, "denominator", EVALUATE_AP_DENOMINATORS))
        for name, allowed in (
            ("precision_denominator", PRECISION_DENOMINATORS),
            ("recall_denominator", RECALL_DENOMINATORS),
            ("discount", DISCOUNTS),
            ("averaging", AVERAGING),
        ):
            set_(self, name, v.check_choice(self[name], name, allowed))
        if not isinstance(self.judged_only, (bool, np.bool_)):
            raise ValueError(
                _("judged_only must be True or False; got {judged_only}").format(
                    judged_only=v.show(self.judged_only)
                )
            )
        set_(self, "judged_only", bool(self.judged_only))
        if self.max_documents is not None:
            set_(self, "max_documents", v.check_k(self.max_documents, "max_documents"))
        if not self._sources:  # built directly, Conventions(ties=...): a value is given or the default
            set_(self, "_sources", tuple((name, self._direct_source(name, derived)) for name in self))

    def _direct_source(self, name: str, derived: bool) -> str:
        if name == "score_precision":
            return f"reference {self.reference}" if derived else "argument"
        default = next(f.default for f in fields(self) if f.name == name)
        return "default" if self[name] == default else "argument"

    @classmethod
    def resolve(
        cls, preset: Preset | None = None, *, base: Conventions | None = None, **arguments: Any
    ) -> Conventions:
        """The default, overridden by ``preset``'s settings, overridden by the given arguments.

        A preset is found by its name with :func:`rankmetrics.trec.presets.find`
        (``Conventions.resolve(find("ranx"), ties="average")``).

        ``base``, an earlier :class:`Conventions`, stands in for the default
        and the preset (its sources are kept). An argument whose value is
        :data:`UNSET` counts as not given.
        """
        names = _setting_names()
        unknown = sorted(set(arguments) - set(names))
        if unknown:
            raise ValueError(
                _("unknown convention {unknown!r}; the conventions are {names}").format(
                    unknown=unknown[0], names=", ".join(names)
                )
            )
        given = {key: value for key, value in arguments.items() if value is not UNSET}
        if base is not None:
            if not isinstance(base, Conventions):
                raise ValueError(
                    _("conventions must be a Conventions object or None; got {base}").format(
                        base=v.show(base)
                    )
                )
            if preset is not None:
                raise ValueError(
                    _("give like= or conventions=, not both: conventions already has its preset")
                )
            chosen, preset = dict(base), base.chosen_preset
            earlier = dict(base._sources)
        else:
            if preset is not None and not isinstance(preset, Preset):
                raise ValueError(
                    _(
                        "preset must be a Preset (rankmetrics.trec.presets.find gives one by its name); "
                        "got {preset}"
                    ).format(preset=v.show(preset))
                )
            chosen = dict(preset.settings) if preset is not None else {}
            earlier = {name: f"preset {preset.name}" for name in chosen}
        if earlier.get("score_precision", "").startswith("reference"):
            del chosen["score_precision"], earlier["score_precision"]  # derive it again below
        settings = {**chosen, **given}
        derived = "reference " + settings.get("reference", cls.reference)

        def source(name: str) -> str:
            if name in given:
                return "argument"
            if name in earlier:
                return earlier[name]
            return derived if name == "score_precision" else "default"

        sources = tuple((name, source(name)) for name in names)
        return cls(**settings, chosen_preset=preset, _sources=sources)

    @property
    def preset(self) -> str | None:
        """The name of the preset that supplied defaults, if any."""
        return None if self.chosen_preset is None else self.chosen_preset.name

    @property
    def recall_rank(self) -> str:
        """How a recall level r becomes a rank: ``"lround"`` (10.0) or ``"plus_0.9"`` (9.x)."""
        return REFERENCE_RULES[self.reference]["recall_rank"]

    def source(self, name: str) -> str:
        """Where a setting's value came from: ``"default"``, ``"preset NAME"``, ``"argument"``,
        or (``score_precision``) ``"reference NAME"``."""
        if name not in _setting_names():
            raise ValueError(
                _("unknown convention {name!r}; the conventions are {value}").format(
                    name=name, value=", ".join(self)
                )
            )
        return dict(self._sources)[name]

    def card(self) -> str:
        """A text table of every setting, its value and where it came from."""
        rows = [[name, _shown(name, self[name]), _source_shown(self.source(name))] for name in self]
        table = text_table([_("setting"), _("value"), _("from")], rows, ["left", "left", "left"])
        notes = []
        if self.excluded is not None:
            notes.append(
                _("exclude=: {count} seen items removed before the cut, from {users} users' lists").format(
                    count=sum(self.excluded.values()), users=len(self.excluded)
                )
            )
        if self.chosen_preset is not None:
            notes.extend(self.chosen_preset.card_notes(self))  # a recommender preset's rules
        return table + ("\n\n" + "\n".join(notes) if notes else "")

    # Mapping: the settings by name (preset and sources are not settings).
    def __getitem__(self, name: str) -> Any:
        if name not in _setting_names():
            raise KeyError(name)
        return getattr(self, name)

    def __iter__(self) -> Iterator[str]:
        return iter(_setting_names())

    def __len__(self) -> int:
        return len(_setting_names())


def _setting_names() -> tuple[str, ...]:
    return tuple(
        f.name for f in fields(Conventions) if f.name not in ("chosen_preset", "excluded", "_sources")
    )


def _shown(name: str, value: Any) -> str:
    if name == "max_documents" and value is None:
        return _("None (all)")
    return str(value)


def _source_shown(source: str) -> str:
    """Where a setting came from, in the reader's language (``source()`` itself returns the key)."""
    kind, _space, name = source.partition(" ")
    if kind == "preset":
        return _("preset {name}").format(name=name)
    if kind == "reference":
        return _("reference {name}").format(name=name)
    return _("argument") if source == "argument" else _("default")


def check_level(level: Any) -> float:
    if isinstance(level, (bool, np.bool_)) or not isinstance(level, numbers.Real) or not math.isfinite(level):
        raise ValueError(
            _("relevance_level must be a finite number; got {level}").format(level=v.show(level))
        )
    return int(level) if float(level).is_integer() else float(level)
