"""Recommender data for :func:`rankmetrics.evaluate`: user × item frames and the seen-item filter.

A recommender team holds a test set and the recommendations as user × item
tables. :func:`as_query_frame` reads them in the recommender's words and
hands :mod:`rankmetrics.trec.frames` the same table in ir_measures' words:

- ``user_id, item_id`` are ``query_id, doc_id``;
- a test set without a ``relevance`` column is implicit feedback: every test
  row is a relevant item with grade 1;
- recommendations with a ``rank`` column (1 = first; lower is better) and no
  ``score`` are ordered by that rank: the score is ``-rank``.

:func:`exclude_seen` removes from each user's list the items that user saw in
training **before** the list is cut at k, the filter every recommender library
applies at recommend time (RecBole's ``history_item_matrix``, implicit's
``filter_already_liked_items``, Cornac's ``exclude_unknowns``/``train_set``
mask, RecTools' ``filter_viewed``). Forgetting it is a classic bug: the model
is rewarded, or punished, for items it should never show again.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..i18n import _, ngettext
from ..metrics.recommendation_lists import is_frame

RECSYS_COLUMNS = {"user_id": "query_id", "item_id": "doc_id"}


def as_query_frame(frame: Any, kind: str) -> Any:
    """A user × item DataFrame with ir_measures' column names; a query × doc one as it is.

    ``kind`` is ``"qrels"`` (the test set) or ``"run"`` (the recommendations).
    """
    columns = [str(c) for c in frame.columns]
    if "user_id" in columns or "item_id" in columns:
        clash = [c for c in RECSYS_COLUMNS.values() if c in columns]
        if clash:
            raise ValueError(
                _(
                    "the {kind} DataFrame has both recommender columns (user_id, item_id) and "
                    "ir_measures' columns ({clash}); give one pair"
                ).format(kind=kind, clash=", ".join(map(repr, clash)))
            )
        frame = frame.rename(columns=RECSYS_COLUMNS)
        columns = [str(c) for c in frame.columns]
    if kind == "qrels" and "relevance" not in columns and {"query_id", "doc_id"} <= set(columns):
        frame = frame.assign(relevance=1)  # implicit feedback: every test row is relevant
    if kind == "run" and "score" not in columns and "rank" in columns:
        ranks = frame["rank"]
        if ranks.dtype.kind not in "iuf":
            raise ValueError(
                _("the run DataFrame's column 'rank' must hold numbers; it has dtype {dtype}").format(
                    dtype=ranks.dtype
                )
            )
        frame = frame.assign(score=-ranks.astype("float64"))  # rank 1 first: the highest score
    return frame


def seen_items(exclude: Any) -> dict[str, set[str]]:
    """``exclude`` (a DataFrame ``user_id, item_id`` or a dict ``{user: items}``) as ``{user: {item}}``."""
    if is_frame(exclude):
        users, items = _seen_columns(exclude)
        seen: dict[str, set[str]] = {}
        for user, item in zip(users.astype(str).tolist(), items.astype(str).tolist()):
            seen.setdefault(user, set()).add(item)
        return seen
    if isinstance(exclude, dict):
        return {str(user): {str(item) for item in items} for user, items in exclude.items()}
    raise ValueError(
        _("exclude must be a DataFrame (user_id, item_id) or a dict {{user: items}}; got {kind}").format(
            kind=type(exclude).__name__
        )
    )


def exclude_seen(run: Any, exclude: Any) -> tuple[Any, dict[str, int]]:
    """The run without each user's seen items, and how many were removed per user.

    Users of ``exclude`` who have no list in ``run`` are passed over: a
    training set holds users the test set does not. But when not one user of
    ``exclude`` has a list, the ids cannot be the same ids (user 7 against
    "u7", say) and that is a ValueError naming some of them.
    """
    if is_frame(run):
        return _exclude_from_frame(as_query_frame(run, "run"), exclude)
    seen = seen_items(exclude)
    if isinstance(run, dict):
        if seen and not any(str(user) in seen for user in run):
            _no_shared_user(seen, list(run))
        kept: dict[Any, dict[Any, Any]] = {}
        removed = {}
        for user, items in run.items():
            mask = seen.get(str(user), set())
            kept[user] = {item: s for item, s in items.items() if str(item) not in mask}
            if len(kept[user]) < len(items):
                removed[str(user)] = len(items) - len(kept[user])
        return kept, removed
    raise ValueError(
        _("exclude= needs the recommendations as a DataFrame or a dict; got {kind}").format(
            kind=type(run).__name__
        )
    )


def _exclude_from_frame(frame: Any, exclude: Any) -> tuple[Any, dict[str, int]]:
    """exclude_seen for a run DataFrame, in array operations: each (user, item) pair as one number.

    Ids are matched as text, as in a dict (user 7 is user "7"): each column's distinct values
    are written as text once, and the texts of both sides get shared codes.
    """
    import pandas as pd

    if is_frame(exclude):
        seen_users, seen_items_ = _seen_columns(exclude)
    else:  # a dict, checked and read as text by seen_items
        seen = seen_items(exclude)
        seen_users = [user for user, items in seen.items() for _ in items]
        seen_items_ = [item for items in seen.values() for item in items]
    (users, seen_users), user_names = _text_codes(frame["query_id"], seen_users)
    (items, seen_items_), item_names = _text_codes(frame["doc_id"], seen_items_)
    if len(seen_users) and not np.isin(users, seen_users).any():
        _no_shared_user({user_names[u] for u in np.unique(seen_users)}, pd.unique(frame["query_id"]).tolist())
    # One number per (user, item); exact while users x items < 2**63 (3e9 of each).
    width = np.int64(len(item_names))
    drop = pd.Series(users * width + items).isin(seen_users * width + seen_items_).to_numpy()
    counts = np.bincount(users[drop], minlength=len(user_names))
    removed = {user_names[u]: int(counts[u]) for u in np.flatnonzero(counts)}
    return frame[~drop], removed


def _seen_columns(exclude: Any) -> tuple[Any, Any]:
    frame = exclude.rename(columns={"query_id": "user_id", "doc_id": "item_id"})
    absent = [c for c in ("user_id", "item_id") if c not in [str(c) for c in frame.columns]]
    if absent:
        raise ValueError(
            _("exclude: the DataFrame needs the columns 'user_id', 'item_id'; it lacks {absent}").format(
                absent=", ".join(map(repr, absent))
            )
        )
    return frame["user_id"], frame["item_id"]


def _text_codes(*columns: Any) -> tuple[list[np.ndarray], np.ndarray]:
    """A code (int64) per value of each column, equal where the values read as text are equal,
    and the text of each code."""
    import pandas as pd

    factorized = [
        pd.factorize(
            column if isinstance(column, pd.Series) else np.asarray(column, dtype=object),
            sort=False,
            use_na_sentinel=False,  # a missing id is a value ("nan", as str() writes it), not code -1
        )
        for column in columns
    ]
    texts = np.array([str(value) for _, values in factorized for value in values.tolist()], dtype=object)
    shared, names = pd.factorize(texts, sort=False)
    codes, start = [], 0
    for local, values in factorized:
        codes.append(shared[start : start + len(values)][local].astype(np.int64))
        start += len(values)
    return codes, np.asarray(names, dtype=object)


def _no_shared_user(seen: Any, users: list[Any]) -> None:
    raise ValueError(
        _(
            "exclude: none of its users ({seen}) has a list in the recommendations ({users}); "
            "are the ids the same?"
        ).format(seen=", ".join(sorted(seen)[:5]), users=", ".join(map(str, users[:5])))
    )


def removed_text(removed: dict[str, int]) -> str:
    """The caption's note: how many seen items were removed from how many users' lists."""
    total = sum(removed.values())
    return ngettext(
        "; {count} seen item removed before the cut ({users} users)",
        "; {count} seen items removed before the cut ({users} users)",
        total,
    ).format(count=total, users=len(removed))
