"""Recommendation lists in, one checked shape out: the input of every beyond-accuracy measure.

A recommender's output comes in three forms, and :func:`recommendation_lists`
turns each into one :class:`RecommendationLists`:

- a dict ``{user: [items in ranked order]}`` (or ``{user: {item: score}}``, ordered
  by descending score);
- a pandas DataFrame with the columns ``user_id, item_id`` and ``score`` (higher
  first) or ``rank`` (1 first);
- a 2-D integer array, one user per row, item ids in ranked order, shorter lists
  padded on the right with ``-1`` (the form a model's ``topk`` returns).

Items become integer codes, so that every measure is a ``bincount`` or an index
into a per-item array: for the 2-D array the item ids are their own codes; for a
dict or a DataFrame the codes number the items in the order first met. Equal
scores keep the order of the input (a stable sort).

Each list is cut at ``k`` *after* it is checked: an item twice in one list, an
empty list, a missing (NaN) score or a gap in the padding is a ValueError that
names the argument and the value.
"""

from __future__ import annotations

import numbers
import sys
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from .. import _validation as v
from ..i18n import _

_CHUNK_ENTRIES = 1 << 20  # entries of the code matrix read at a time (8 MB of float64)
FRAME_COLUMNS = ("user_id", "item_id")  # a recommender's user × item frame, as rm.evaluate reads it


@dataclass(frozen=True)
class RecommendationLists:
    """Checked recommendation lists: item codes in ranked order, one user per row.

    ``items[c]`` is the item whose code is ``c``; ``codes[u, j]`` is the code of
    user ``u``'s item at rank ``j + 1``, or ``-1`` after the end of a shorter list.
    """

    users: list  # one label per row
    items: np.ndarray  # item labels by code
    codes: np.ndarray  # (n_users, width) integer codes, -1 after a list's end
    lengths: np.ndarray  # (n_users,) items per list, at least 1

    @property
    def n_items(self) -> int:
        return len(self.items)

    def row_chunks(self) -> list[slice]:
        """Slices of rows of about a million entries each: large arrays are read a chunk at a time."""
        rows = max(1, _CHUNK_ENTRIES // max(self.codes.shape[1], 1))
        return [slice(start, start + rows) for start in range(0, self.codes.shape[0], rows)]

    @cached_property
    def counts(self) -> np.ndarray:
        """How many lists recommend each item, by code."""
        out = np.zeros(self.n_items + 1, dtype=np.int64)
        for rows in self.row_chunks():
            # Shifted by one, the padding -1 counts in entry 0, which is then dropped.
            out += np.bincount(self.codes[rows].ravel() + 1, minlength=self.n_items + 1)
        return out[1:]

    def sum_per_user(self, per_code: np.ndarray) -> np.ndarray:
        """Each list's sum of ``per_code`` over its items."""
        padded = np.append(per_code.astype(float), 0.0)  # code -1 (the padding) reads the last entry: 0
        out = np.empty(self.codes.shape[0])
        for rows in self.row_chunks():
            out[rows] = padded[self.codes[rows]].sum(axis=1)
        return out

    @cached_property
    def _code_of(self) -> dict:
        return {item: code for code, item in enumerate(self.items.tolist())}

    def code(self, item: Any) -> int:
        """The code of ``item``, or -1 when no list recommends it."""
        if self._integer_ids:
            ok = isinstance(item, numbers.Integral) and not isinstance(item, (bool, np.bool_))
            return int(item) if ok and 0 <= item < self.n_items else -1
        try:
            return self._code_of.get(item, -1)
        except TypeError:  # an unhashable label is no item of the lists
            return -1

    @property
    def _integer_ids(self) -> bool:
        return self.items.dtype.kind in "iu"

    def per_item(self, values: Mapping, name: str, default: float | None = None) -> np.ndarray:
        """A float per code from ``{item: value}``; an item without a value gets ``default``.

        With ``default=None`` a recommended item missing from ``values`` is a ValueError
        naming the item and the user whose list holds it.
        """
        out = np.full(self.n_items, np.nan if default is None else float(default))
        for item, value in values.items():
            code = self.code(item)
            if code >= 0:
                out[code] = value
        if default is None:
            self.require(~np.isnan(out), name)
        return out

    def require(self, known: np.ndarray, name: str) -> None:
        """Every recommended item has ``known[code]`` True; else a ValueError naming the first that lacks it."""
        if not ((self.counts == 0) | known).all():  # checked per item; the rows only to name the first
            missing = ~np.append(known, True)[self.codes]
            row, rank = np.argwhere(missing)[0]
            raise ValueError(
                _(
                    "{name} has no entry for item {item!r}, recommended to user {user!r} at rank {rank}"
                ).format(
                    name=name,
                    item=plain(self.items[self.codes[row, rank]]),
                    user=plain(self.users[row]),
                    rank=int(rank) + 1,
                )
            )

    def cut(self, k: int | None) -> RecommendationLists:
        """The same lists cut at ``k`` (a view: nothing is copied)."""
        if k is None or k >= self.codes.shape[1]:
            return self
        return RecommendationLists(self.users, self.items, self.codes[:, :k], np.minimum(self.lengths, k))


def recommendation_lists(recs: Any, k: Any = None, *, name: str = "recs") -> RecommendationLists:
    """Check recommendation lists in any of the three forms and cut each at ``k``.

    Parameters
    ----------
    recs : dict, DataFrame, 2-D integer array or RecommendationLists
        ``{user: [items in ranked order]}`` or ``{user: {item: score}}``; a DataFrame
        with ``user_id, item_id`` and ``score`` (higher first) or ``rank`` (1 first);
        a 2-D integer array of item ids, one user per row, padded with ``-1``.
        Already checked lists are only cut at ``k``.
    k : positive int or None
        Keep the first ``k`` items of each list; ``None`` keeps them all.

    Returns
    -------
    RecommendationLists

    Examples
    --------
    >>> lists = recommendation_lists({"u1": ["a", "b", "c"], "u2": ["b", "d"]}, k=2)
    >>> lists.codes.tolist(), lists.items.tolist()  # codes number the items before the cut
    ([[0, 1], [1, 3]], ['a', 'b', 'c', 'd'])
    >>> lists.counts.tolist()  # how many lists show each item after the cut
    [1, 2, 0, 1]
    >>> recommendation_lists([[3, 1, -1], [2, -1, -1]]).lengths.tolist()
    [2, 1]
    """
    k = v.check_k(k)
    if isinstance(recs, RecommendationLists):
        return recs.cut(k)
    if isinstance(recs, Mapping):
        lists = _from_dict(recs, name)
    elif is_frame(recs):
        lists = _from_frame(recs, name)
    elif isinstance(recs, np.ndarray) or (isinstance(recs, Sequence) and not isinstance(recs, (str, bytes))):
        lists = _from_array(recs, name)
    else:
        raise ValueError(
            _(
                "{name} must be a dict {{user: [items]}}, a DataFrame (user_id, item_id, score or rank) "
                "or a 2-D integer array padded with -1; got {kind}"
            ).format(name=name, kind=type(recs).__name__)
        )
    return lists.cut(k)


def plain(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def is_frame(value: Any) -> bool:
    pandas = sys.modules.get("pandas")
    return pandas is not None and isinstance(value, pandas.DataFrame)


def _empty(name: str, user: Any) -> ValueError:
    return ValueError(
        _("{name}: the list of user {user!r} is empty; every user needs at least one item").format(
            name=name, user=plain(user)
        )
    )


def _twice(name: str, user: Any, item: Any) -> ValueError:
    return ValueError(
        _(
            "{name}: item {item!r} appears twice in the list of user {user!r}; each item may appear once"
        ).format(name=name, item=plain(item), user=plain(user))
    )


def _from_dict(recs: Mapping, name: str) -> RecommendationLists:
    if not recs:
        raise ValueError(_("{name} holds no users; got {recs}").format(name=name, recs=v.show(recs)))
    code_of: dict[Hashable, int] = {}
    rows = []
    for user, items in recs.items():
        where = f"{name}[{plain(user)!r}]"
        if isinstance(items, Mapping):
            items = _by_score(items, where)
        if not items:
            raise _empty(name, user)
        ranked = v.check_ranking(items, where)  # hashable ids, none twice
        rows.append([code_of.setdefault(item, len(code_of)) for item in ranked])
    lengths = np.array([len(row) for row in rows], dtype=np.int64)
    codes = np.full((len(rows), int(lengths.max())), -1, dtype=np.int64)
    for i, row in enumerate(rows):
        codes[i, : len(row)] = row
    items = np.empty(len(code_of), dtype=object)
    items[:] = list(code_of)
    return RecommendationLists(list(recs), items, codes, lengths)


def _by_score(scored: Mapping, where: str) -> list:
    """``{item: score}`` as items by descending score; equal scores keep their order."""
    scores = v.to_float_array(list(scored.values()), where)
    if np.isnan(scores).any():
        item = list(scored)[int(np.flatnonzero(np.isnan(scores))[0])]
        raise ValueError(
            _("{where}: the score of item {item!r} is NaN; every score must be a number").format(
                where=where, item=plain(item)
            )
        )
    order = np.argsort(-scores, kind="stable")
    items = list(scored)
    return [items[i] for i in order]


def _from_array(recs: Any, name: str) -> RecommendationLists:
    codes = np.asarray(recs)
    if codes.ndim != 2 or codes.dtype.kind not in "iu" or codes.shape[0] == 0 or codes.shape[1] == 0:
        raise ValueError(
            _(
                "{name} as an array must be 2-D integer item ids, one user per row, padded with -1; "
                "got dtype {dtype}, shape {shape}"
            ).format(name=name, dtype=codes.dtype, shape=codes.shape)
        )
    if codes.min() < -1:
        row, rank = np.argwhere(codes < -1)[0]
        raise ValueError(
            _("{name}[{row}, {rank}] is {value}; item ids are >= 0 and -1 pads a shorter list").format(
                name=name, row=int(row), rank=int(rank), value=int(codes[row, rank])
            )
        )
    lengths = np.empty(codes.shape[0], dtype=np.int64)
    step = max(1, _CHUNK_ENTRIES // codes.shape[1])
    for start in range(0, codes.shape[0], step):  # a chunk of rows at a time: small temporaries
        chunk = codes[start : start + step]
        present = chunk >= 0
        lengths[start : start + step] = np.count_nonzero(present, axis=1)
        # Padding only at the end of a row: a -1 followed by an item is a gap (only shorter rows can have one).
        short = np.flatnonzero(lengths[start : start + step] < codes.shape[1])
        gaps = present[short, 1:] & ~present[short, :-1]
        if gaps.any():
            row, rank = np.argwhere(gaps)[0]
            raise ValueError(
                _(
                    "{name}[{row}] has -1 at rank {rank} before an item; -1 may only pad the end of a list"
                ).format(name=name, row=start + int(short[row]), rank=int(rank) + 1)
            )
        if (lengths[start : start + step] == 0).any():
            raise _empty(name, start + int(np.flatnonzero(lengths[start : start + step] == 0)[0]))
        ordered = np.sort(chunk, axis=1)
        twice = (ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] >= 0)
        if twice.any():
            row, rank = np.argwhere(twice)[0]
            raise _twice(name, start + int(row), int(ordered[row, rank + 1]))
    items = np.arange(int(codes.max()) + 1)
    return RecommendationLists(list(range(codes.shape[0])), items, codes, lengths)


def _from_frame(frame: Any, name: str) -> RecommendationLists:
    import pandas as pd

    present = [str(c) for c in frame.columns]
    order_by = "score" if "score" in present else "rank" if "rank" in present else None
    if "user_id" not in present or "item_id" not in present or order_by is None:
        raise ValueError(
            _(
                "{name}: the DataFrame needs the columns user_id, item_id and score or rank; it has {present}"
            ).format(name=name, present=present)
        )
    if len(frame) == 0:
        raise ValueError(_("{name}: the DataFrame has no rows").format(name=name))
    values = pd.to_numeric(frame[order_by], errors="coerce").to_numpy(dtype=float)
    if np.isnan(values).any():
        row = int(np.flatnonzero(np.isnan(values))[0])
        raise ValueError(
            _("{name}: column {column!r}, row {row}: {value!r} is not a number").format(
                name=name, column=order_by, row=row, value=plain(frame[order_by].iloc[row])
            )
        )
    users, user_labels = pd.factorize(frame["user_id"], sort=False)
    items, item_labels = pd.factorize(frame["item_id"], sort=False)
    if (users < 0).any() or (items < 0).any():
        column = FRAME_COLUMNS[0] if (users < 0).any() else FRAME_COLUMNS[1]
        raise ValueError(_("{name}: column {column!r} has a missing id").format(name=name, column=column))
    key = -values if order_by == "score" else values
    order = np.lexsort((key, users))  # by user, then best first; equal values keep the frame's order
    users, items = users[order], items[order]
    pair = users.astype(np.int64) * len(item_labels) + items
    if len(np.unique(pair)) < len(pair):
        counts = pd.Series(pair).duplicated()
        row = int(np.flatnonzero(counts.to_numpy())[0])
        raise _twice(name, user_labels[users[row]], item_labels[items[row]])
    lengths = np.bincount(users, minlength=len(user_labels)).astype(np.int64)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    rank = np.arange(len(users)) - starts[users]
    codes = np.full((len(user_labels), int(lengths.max())), -1, dtype=np.int64)
    codes[users, rank] = items
    labels = np.empty(len(item_labels), dtype=object)
    labels[:] = list(item_labels)
    return RecommendationLists(list(user_labels), labels, codes, lengths)
