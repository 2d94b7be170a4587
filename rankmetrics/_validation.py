"""Shared input checks.

Every public function validates through these helpers, so that the same mistake
produces the same message everywhere: the message names the argument and shows
the offending value. Nothing here computes a metric.

What counts as a number, everywhere: Python and numpy ints and floats,
``fractions.Fraction`` and ``decimal.Decimal`` (each converted to the nearest
float), also inside lists and object arrays, and ints beyond int64 when their
value fits a float. A number beyond the float range (``10**400``) is refused
with a message, never turned into inf. True/False count as 1/0 among grades
and ratings, but are refused where a count is asked for (``k``,
``n_relevant``, ``decimals``).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Iterable, Mapping
from decimal import Decimal
from typing import Any

import numpy as np

from .i18n import N_, _

_MAX_SHOWN = 60  # characters of a bad value shown in an error message

# The largest count or cutoff: numpy's index range. Every real list is far shorter,
# and beyond it k = 10**400 could not even be turned into a float divisor.
MAX_COUNT = 2**63 - 1
_FLOAT_RANGE = N_("the largest float is about 1.8e308")


def show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 3] + "..."


def to_float_array(value: Any, name: str, item_ids: bool = False) -> np.ndarray:
    """Convert to a float array, turning numpy's conversion errors into ours.

    ``item_ids``: the argument may also hold item ids (with ``relevant``), so a
    string gets a hint.
    """
    if isinstance(value, (str, bytes)):
        raise ValueError(
            _("{name} must be a sequence of numbers; got the string {value}").format(
                name=name, value=show(value)
            )
        )
    if isinstance(value, (set, frozenset, Mapping)):
        raise ValueError(
            _("{name} must be an ordered sequence of numbers, not a {type}; got {value}").format(
                name=name, type=type(value).__name__, value=show(value)
            )
        )
    try:
        array = np.asarray(value)
    except ValueError:
        array = None
    if array is None or (array.dtype == object and _is_ragged(value)):
        raise ValueError(
            _(
                "{name} is a ragged nested list (rows of different lengths); got {value}. A 2-D batch "
                "needs rows of equal length: pad each row with zeros (non-relevant), or pass the "
                "queries as a list to mean_average_precision / mean_reciprocal_rank, or call the "
                "metric once per query."
            ).format(name=name, value=show(value))
        )
    if array.dtype.kind == "b":
        return array.astype(float)
    if array.dtype == np.float64:
        return array  # no copy: a large batch is read, never written
    if array.dtype == object:
        # Fractions, Decimals, ints beyond int64, or a mix: numpy keeps them as objects.
        flat = [_as_float(item, name, value) for item in array.ravel()]
        return np.array(flat, dtype=float).reshape(array.shape)
    if array.dtype.kind not in "iuf":
        raise _not_a_number(name, _first_non_numeric(value), value, item_ids)
    return array.astype(float)


def _as_float(item: Any, name: str, original: Any) -> float:
    """One number as a float; see the module docstring for what counts as a number."""
    if isinstance(item, (bool, np.bool_)):
        return float(item)
    if not isinstance(item, (numbers.Real, Decimal)):
        raise _not_a_number(name, item, original)
    try:
        number = float(item)
    except OverflowError:  # an int or Fraction beyond the float range
        number = math.inf
    except ValueError:  # Decimal("sNaN"): not a number at all
        number = math.nan
    if math.isinf(number) and not (isinstance(item, (float, np.floating)) or _is_infinite_decimal(item)):
        where = "" if item is original else _(" in {original}").format(original=show(original))
        raise ValueError(
            _("{name} has {item}{where}, beyond the float range ({float_range})").format(
                name=name, item=show(item), where=where, float_range=_(_FLOAT_RANGE)
            )
        )
    return number


def _is_infinite_decimal(item: Any) -> bool:
    return isinstance(item, Decimal) and item.is_infinite()


def _not_a_number(name: str, bad: Any, original: Any, item_ids: bool = False) -> ValueError:
    hint = ""
    if isinstance(bad, str) and bad.upper() in ("O", "X"):
        hint = _(" (O/X marks are read by the command line; in Python write 1 for O and 0 for X)")
    elif isinstance(bad, str) and item_ids:
        hint = _(" (to score item ids, pass the judgements too: relevant={...})")
    return ValueError(
        _("{name} must contain only numbers (or True/False); found {bad} in {original}{hint}").format(
            name=name, bad=show(bad), original=show(original), hint=hint
        )
    )


def _is_ragged(value: Any) -> bool:
    try:
        lengths = {len(row) for row in value}
    except TypeError:
        return False
    return len(lengths) > 1


def _first_non_numeric(value: Any) -> Any:
    # Look at the original items: numpy turns [1, "a"] into strings throughout.
    for item in np.asarray(value, dtype=object).ravel():
        if not isinstance(item, (bool, np.bool_, numbers.Real, Decimal)):
            return item
    return value


def check_finite(array: np.ndarray, name: str, original: Any) -> None:
    if not np.all(np.isfinite(array)):
        bad = array[~np.isfinite(array)].ravel()[0]
        raise ValueError(
            _("{name} must be finite numbers; found {bad!r} in {original}").format(
                name=name, bad=float(bad), original=show(original)
            )
        )


def check_grades(x: Any, name: str = "x", *, allow_batch: bool = True, item_ids: bool = False) -> np.ndarray:
    """Grades in ranked order: a 1-D list (one query) or a 2-D array (a batch).

    Returns a float64 array of ndim 1 or 2. Rejects empty input, NaN/inf,
    negative grades, non-numbers, ragged lists and more than two dimensions.
    ``item_ids``: the caller also takes item ids with ``relevant``.
    """
    array = to_float_array(x, name, item_ids)
    if array.ndim == 0:
        raise ValueError(
            _("{name} must be a sequence of grades in ranked order, not a single number; got {x}").format(
                name=name, x=show(x)
            )
        )
    if array.ndim > 2 or (array.ndim == 2 and not allow_batch):
        allowed = _("1-D (one query) or 2-D (one query per row)") if allow_batch else "1-D"
        raise ValueError(
            _("{name} must be {allowed}; got an array of shape {shape}").format(
                name=name, allowed=allowed, shape=array.shape
            )
        )
    if array.size == 0:
        raise ValueError(
            _("{name} is empty; a ranking needs at least one item; got {x}").format(name=name, x=show(x))
        )
    # Fast path for large batches: two reductions and no array written. The minimum
    # catches negatives, -inf and NaN (NaN >= 0 is False), the maximum +inf; the
    # precise message is only built on failure.
    if not (array.min() >= 0 and np.isfinite(array.max())):
        check_finite(array, name, x)
        bad = array[array < 0].ravel()[0]
        raise ValueError(
            _(
                "{name} must not contain negative grades in the grades-in-order form; found {bad:g} "
                "in {x}. (A negative grade such as TREC's -1, 'in the pool but unjudged', is accepted "
                "in the ranking + relevant={{id: grade}} form: bpref skips such a document, infAP "
                "counts it as pooled but unjudged, and the other measures count it as non-relevant.)"
            ).format(name=name, bad=bad, x=show(x))
        )
    return array


def check_k(k: Any, name: str = "k") -> int | None:
    """A cutoff: None (the whole list) or a positive integer up to MAX_COUNT. True/2.5/0 are refused.

    numpy integers are accepted. A cutoff beyond 2**63 - 1 is refused rather than
    read as "no cut": it cannot be a list's length, and k=None says "no cut".
    """
    if k is None:
        return None
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral) or k < 1:
        hint = ""
        if isinstance(k, (set, frozenset, list, tuple, Mapping)):
            hint = _(" (to give the relevant items, use the keyword: relevant=...)")
        raise ValueError(
            _("{name} must be a positive integer or None; got {k}{hint}").format(
                name=name, k=show(k), hint=hint
            )
        )
    if k > MAX_COUNT:
        hint = _("; k=None keeps the whole list") if name == "k" else ""
        raise ValueError(
            _("{name} must be at most 2**63 - 1; got {k}{hint}").format(name=name, k=show(k), hint=hint)
        )
    return int(k)


MAX_DECIMALS = 15  # a float64 carries 15-17 significant digits; more places would print noise


def check_decimals(value: Any, name: str = "decimals") -> int:
    """Decimal places for rounding: a whole number from 0 to MAX_DECIMALS. True/2.5/-1 are refused.

    0 rounds to whole numbers. numpy integers are accepted; booleans are not counts.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(
            _("{name} must be a whole number from 0 to {MAX_DECIMALS}; got {value}").format(
                name=name, MAX_DECIMALS=MAX_DECIMALS, value=show(value)
            )
        )
    if value < 0:
        raise ValueError(
            _("{name} must be a whole number from 0 to {MAX_DECIMALS}; got {value}").format(
                name=name, MAX_DECIMALS=MAX_DECIMALS, value=show(value)
            )
        )
    if value > MAX_DECIMALS:
        raise ValueError(
            _(
                "{name} must be a whole number from 0 to {MAX_DECIMALS}; got {value} (a float carries "
                "about 15 significant digits, so more places would only show noise)"
            ).format(name=name, MAX_DECIMALS=MAX_DECIMALS, value=show(value))
        )
    return int(value)


def check_choice(value: Any, name: str, choices: Iterable[str]) -> str:
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        raise ValueError(
            _("{name} must be one of {choices}; got {value}").format(
                name=name, choices=", ".join(map(repr, choices)), value=show(value)
            )
        )
    return value


def check_n_relevant(n_relevant: Any, present: np.ndarray, name: str = "n_relevant") -> np.ndarray:
    """Explicit denominators, one per query; each at least the relevant items present.

    Whole numbers from 0 to MAX_COUNT (floats such as 4.0 included); True/False are refused.
    """
    values = to_float_array(n_relevant, name)
    _refuse_bools(n_relevant, name)
    if values.ndim > 1:
        raise ValueError(
            _("{name} must be a number or one number per query; got shape {shape}").format(
                name=name, shape=values.shape
            )
        )
    values = np.broadcast_to(values, present.shape) if values.ndim == 0 else values
    if values.shape != present.shape:
        raise ValueError(
            _("{name} must give one number per query ({size}); got {size_2}: {n_relevant}").format(
                name=name, size=present.size, size_2=values.size, n_relevant=show(n_relevant)
            )
        )
    check_finite(values, name, n_relevant)
    if np.any(values != np.round(values)) or np.any(values < 0):
        bad = values[(values != np.round(values)) | (values < 0)][0]
        raise ValueError(
            _("{name} must be a non-negative whole number; got {bad:g}").format(name=name, bad=bad)
        )
    if np.any(values > MAX_COUNT):
        raise ValueError(
            _("{name} must be at most 2**63 - 1; got {values:g}").format(
                name=name, values=values[values > MAX_COUNT][0]
            )
        )
    short = values < present
    if np.any(short):
        i = int(np.argmax(short))
        raise ValueError(
            _(
                "{name}={values:g} is smaller than the {present} relevant items already in the "
                "ranking; it must count every relevant item, listed or not"
            ).format(name=name, values=values[i], present=int(present[i]))
        )
    return values.astype(float)


def _refuse_bools(value: Any, name: str) -> None:
    """A count is a number, not True/False (True would silently count as 1)."""
    if isinstance(value, np.ndarray) and value.dtype != object:
        has_bool = value.dtype.kind == "b"
    else:
        has_bool = any(isinstance(item, (bool, np.bool_)) for item in np.asarray(value, dtype=object).ravel())
    if has_bool:
        raise ValueError(
            _("{name} must be a whole number (a count), not True/False; got {value}").format(
                name=name, value=show(value)
            )
        )


def check_ranking(ranking: Any, name: str = "ranking") -> list[Hashable]:
    """Item ids in ranked order: non-empty, hashable, no duplicates."""
    if isinstance(ranking, (str, bytes)):
        raise ValueError(
            _(
                "{name} must be a sequence of item ids, not a single string; got {ranking} (write "
                "list('ABCDE') or ['A', 'B', ...])"
            ).format(name=name, ranking=show(ranking))
        )
    if isinstance(ranking, (set, frozenset, Mapping)):
        raise ValueError(
            _("{name} must be ordered (a list or tuple), not a {type}").format(
                name=name, type=type(ranking).__name__
            )
        )
    if isinstance(ranking, np.ndarray):
        if ranking.ndim != 1:
            raise ValueError(
                _("{name} must be 1-D (one query); got an array of shape {shape}").format(
                    name=name, shape=ranking.shape
                )
            )
        items = ranking.tolist()
    else:
        try:
            items = list(ranking)
        except TypeError:
            raise ValueError(
                _("{name} must be a sequence of item ids; got {ranking}").format(
                    name=name, ranking=show(ranking)
                )
            ) from None
    if not items:
        raise ValueError(
            _("{name} is empty; a ranking needs at least one item; got {ranking}").format(
                name=name, ranking=show(ranking)
            )
        )
    seen: dict[Hashable, int] = {}
    for position, item in enumerate(items, start=1):
        try:
            first = seen.setdefault(item, position)
        except TypeError:
            raise ValueError(
                _("{name} contains an unhashable id {item} at rank {position}").format(
                    name=name, item=show(item), position=position
                )
            ) from None
        if first != position:
            raise ValueError(
                _(
                    "{name} contains the id {item} twice (ranks {first} and {position}); each item may "
                    "appear once"
                ).format(name=name, item=show(item), first=first, position=position)
            )
    return items


def check_relevant(relevant: Any, name: str = "relevant") -> dict[Hashable, float]:
    """Judgements: a set/list of relevant ids (grade 1) or a mapping {id: grade}.

    Grades may be negative (TREC's -1: in the pool but unjudged); they count as non-relevant.
    """
    if isinstance(relevant, (str, bytes)):
        raise ValueError(
            _(
                "{name} must be a collection of ids or a mapping {{id: grade}}, not a string; got {relevant}"
            ).format(name=name, relevant=show(relevant))
        )
    if isinstance(relevant, Mapping):
        judged: dict[Hashable, float] = {}
        for item, grade in relevant.items():
            where = f"{name}[{item!r}]"
            if not isinstance(grade, (bool, np.bool_, numbers.Real, Decimal)):
                raise ValueError(
                    _("{where} must be a number; got {grade}").format(where=where, grade=show(grade))
                )
            value = _as_float(grade, where, grade)
            if not math.isfinite(value):
                raise ValueError(_("{where} must be finite; got {grade!r}").format(where=where, grade=grade))
            judged[item] = value
        return judged
    try:
        items = list(relevant)
    except TypeError:
        raise ValueError(
            _("{name} must be a collection of ids or a mapping {{id: grade}}; got {relevant}").format(
                name=name, relevant=show(relevant)
            )
        ) from None
    try:
        return {item: 1.0 for item in items}
    except TypeError:
        raise ValueError(
            _("{name} contains an unhashable id; got {relevant}").format(name=name, relevant=show(relevant))
        ) from None


def check_probability(value: Any, name: str) -> float:
    """A number strictly between 0 and 1 (numpy floats, Fraction, Decimal included; True refused)."""
    number = None
    if isinstance(value, (numbers.Real, Decimal)) and not isinstance(value, (bool, np.bool_)):
        number = _as_float(value, name, value)
    if number is None or not 0 < number < 1:
        raise ValueError(
            _("{name} must be a number between 0 and 1; got {value}").format(name=name, value=show(value))
        )
    return number


def check_float_range(
    scaled: np.ndarray, exponent: np.ndarray, name: str, what: str, **fields: Any
) -> np.ndarray:
    """``scaled * 2**exponent`` per entry, or a ValueError when a value lies beyond the float range.

    Metrics that could overflow compute with numbers scaled by a power of two
    (exact in binary floating point) and scale back here, so an overflow is
    always reported, never returned as inf.

    ``what`` is a message id (``N_("the mean squared error")``), translated and formatted with
    ``fields`` only when the error is raised.
    """
    scaled = np.asarray(scaled, dtype=float)
    exponent = np.broadcast_to(np.asarray(exponent), scaled.shape)
    # Beyond 2**4100 even the smallest float overflows: clip so the int conversion stays safe.
    steps = np.clip(exponent, -4100, 4100).astype(np.int64)
    with np.errstate(over="ignore", under="ignore"):
        values = np.ldexp(scaled, steps)
    if np.all(np.isfinite(values)):
        return values
    i = int(np.flatnonzero(~np.isfinite(values))[0])
    power = math.log10(abs(scaled.ravel()[i])) + float(exponent.ravel()[i]) * math.log10(2)
    whole = math.floor(power)
    where = _(" (query {i})").format(i=i) if values.size > 1 else ""
    raise ValueError(
        _(
            "{name}: {what}{where} is about {power:.3g}e+{whole}, beyond the float range ({float_range})"
        ).format(
            name=name,
            what=_(what).format(**fields),
            where=where,
            power=10 ** (power - whole),
            whole=whole,
            float_range=_(_FLOAT_RANGE),
        )
    )


def in_query(error: ValueError, index: int) -> ValueError:
    """The same message, prefixed with the query it concerns (for the mean_* functions)."""
    return ValueError(_("queries[{index}]: {error}").format(index=index, error=error))


def check_ratings(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray]:
    """Two 1-D arrays of finite numbers, of the same non-zero length."""
    arrays = []
    for name, value in (("y_true", y_true), ("y_pred", y_pred)):
        array = to_float_array(value, name)
        if array.ndim != 1:
            raise ValueError(
                _("{name} must be 1-D; got an array of shape {shape}").format(name=name, shape=array.shape)
            )
        if array.size == 0:
            raise ValueError(_("{name} is empty; got {value}").format(name=name, value=show(value)))
        check_finite(array, name, value)
        arrays.append(array)
    if arrays[0].size != arrays[1].size:
        raise ValueError(
            _("y_true and y_pred must have the same length; got {size} and {size_2}").format(
                size=arrays[0].size, size_2=arrays[1].size
            )
        )
    return arrays[0], arrays[1]
