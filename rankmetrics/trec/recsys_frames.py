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
        frame = exclude.rename(columns={"query_id": "user_id", "doc_id": "item_id"})
        absent = [c for c in ("user_id", "item_id") if c not in [str(c) for c in frame.columns]]
        if absent:
            raise ValueError(
                _("exclude: the DataFrame needs the columns 'user_id', 'item_id'; it lacks {absent}").format(
                    absent=", ".join(map(repr, absent))
                )
            )
        seen: dict[str, set[str]] = {}
        users = frame["user_id"].astype(str).tolist()
        items = frame["item_id"].astype(str).tolist()
        for user, item in zip(users, items):
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
    seen = seen_items(exclude)
    if is_frame(run):
        frame = as_query_frame(run, "run")
        users = frame["query_id"].astype(str)
        if seen and not users.isin(list(seen)).any():
            _no_shared_user(seen, users.unique().tolist())
        items = frame["doc_id"].astype(str).tolist()
        drop = [item in seen.get(user, ()) for user, item in zip(users.tolist(), items)]
        removed: dict[str, int] = {}
        for user, dropped in zip(users.tolist(), drop):
            if dropped:
                removed[user] = removed.get(user, 0) + 1
        return frame[[not d for d in drop]], removed
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


def _no_shared_user(seen: dict[str, set[str]], users: list[Any]) -> None:
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
