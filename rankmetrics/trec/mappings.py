"""The dict route of the reader: ``{qid: {docno: value}}`` checked and turned into records.

A dict that is already clean (text ids without NUL, finite numbers) is
flattened in one pass (:func:`flatten`); otherwise the careful route checks
each entry and names the first bad one, with the same rules as the file
route (:mod:`rankmetrics.trec.files`, which declares the formats).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from itertools import chain
from typing import Any

import numpy as np

from .. import _validation as v
from ..i18n import _
from .io.texts import Texts
from .records import Records


def flatten(nested: Mapping) -> tuple[list[str], Texts, np.ndarray] | None:
    """Query ids, every docno (as :class:`~rankmetrics.trec.io.texts.Texts`) and every value of ``{qid: {docno: number}}``, in order.

    None when the fast route cannot vouch for the input: an id that is not
    text or holds a NUL, an inner value that is not a dict, a value that is
    not a finite number. The careful route then checks each entry and names
    the bad one.
    """
    try:
        qids = list(nested)
        inner = list(nested.values())
        docnos = list(chain.from_iterable(inner))
        names, text = "".join(qids), "\n".join(docnos)  # every id is text (join refuses anything else)
        values = np.array(list(chain.from_iterable(map(dict.values, inner))))
    except (TypeError, ValueError):
        return None
    if "\x00" in names or "\x00" in text:
        return None
    if values.ndim != 1 or values.dtype.kind not in "biuf" or values.size != len(docnos):
        return None
    values = values.astype(np.float64, copy=False)
    return (qids, Texts.of(docnos, text), values) if np.isfinite(values).all() else None


def from_mapping(source: Mapping, fmt: Any) -> Records:
    """``{qid: {docno: value}}`` as records; queries without any record are left out."""
    flat = flatten(source)
    if flat is None:
        source = _checked_mapping(source, fmt)
        flat = flatten(source)
        assert flat is not None, "a checked mapping flattens"
    return from_flat(source, flat)


def from_flat(source: Mapping, flat: tuple[list[str], Texts, np.ndarray]) -> Records:
    """Records of a clean mapping that :func:`flatten` has flattened; queries without any record left out."""
    qids, docnos, values = flat
    lengths = np.fromiter(map(len, source.values()), dtype=np.int64, count=len(qids))
    records = Records(qids, lengths, docnos, values, None)
    return records if lengths.all() else records.take(np.flatnonzero(lengths))


def _checked_mapping(source: Mapping, fmt: Any) -> dict[str, dict[str, float]]:
    """The careful route: each id as text, each value as a float, the first bad entry named."""
    kind, what = fmt.kind, _(fmt.dict_value)
    checked: dict[str, dict[str, float]] = {}
    original: dict[str, Any] = {}
    for qid, documents in source.items():
        name = _id_text(qid, f"{kind} query id")
        if name in original:
            raise ValueError(
                _(
                    "{kind} has the queries {original!r} and {qid!r}, which are the same id {name!r} as "
                    "text; merge them"
                ).format(kind=kind, original=original[name], qid=qid, name=name)
            )
        original[name] = qid
        if not isinstance(documents, Mapping):
            raise ValueError(
                _("{kind}[{qid!r}] must be a dict {{docno: {what}}}; got {documents}").format(
                    kind=kind, qid=qid, what=what, documents=v.show(documents)
                )
            )
        row: dict[str, float] = {}
        keys: dict[str, Any] = {}
        for docno, value in documents.items():
            text = _id_text(docno, f"{kind}[{qid!r}] document id")
            if text in keys:
                raise ValueError(
                    _(
                        "{kind}[{qid!r}] lists document {keys!r} and {docno!r}, which are the same id "
                        "{text!r} as text; each document may appear once per query"
                    ).format(kind=kind, qid=qid, keys=keys[text], docno=docno, text=text)
                )
            keys[text] = docno
            row[text] = _finite(value, f"{kind}[{qid!r}][{docno!r}]", what)
        checked[name] = row
    return checked


def _id_text(value: Any, name: str) -> str:
    text = str(value)
    if "\x00" in text:
        raise ValueError(
            _("a {name} must not hold a NUL character; got {value}").format(name=name, value=v.show(value))
        )
    return text


def _finite(value: Any, name: str, what: str) -> float:
    number = isinstance(value, (numbers.Real, np.bool_)) and not isinstance(value, str)
    try:
        result = float(value) if number else math.nan
    except OverflowError:  # an int or Fraction beyond the float range
        result = math.inf
    if not math.isfinite(result):
        raise ValueError(
            _("{name} must be a finite number ({what}); got {value}").format(
                name=name, what=what, value=v.show(value)
            )
        )
    return result
