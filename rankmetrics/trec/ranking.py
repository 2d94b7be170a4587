"""Put each group of queries in ranked order: the step between reading and scoring.

The engine under :func:`rankmetrics.evaluate`, after :mod:`rankmetrics.trec`
has read and checked the records. Its design follows where the time goes at
real sizes (100,000 queries × 100 documents is ten million records):

- **No per-record Python object.** A document is matched to its judgement by
  array work (:class:`Judgements`): each judgement's (query, document key) is
  sorted once, each retrieved document's is found there by one
  ``searchsorted``, and every match is confirmed on the document's bytes.
- **One sort for all queries.** The scores of a group of queries form a padded
  2-D array, sorted row by row in one ``argsort``. trec_eval breaks ties by
  docno, descending; only the rows that really contain tied scores are
  re-sorted with the docno as a second key.
- **Bounded memory.** With ``chunk_queries`` the run is read, ranked and scored
  a group of queries at a time (see :func:`rankmetrics.trec.run_records`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import chain, repeat
from typing import Any

import numpy as np

from .._arrays import pad_right
from ..metrics.ties import tie_groups
from .io.texts import Texts, as_texts, same
from .mappings import flatten
from .records import Records, doc_keys, padded_rows

_NAN = float("nan")


@dataclass(frozen=True)
class Ranked:
    """A group of queries in ranked order, as padded arrays for the batch metrics."""

    queries: list[str]
    grades: np.ndarray  # (n, width) raw grades in ranked order; 0 where unjudged or padding
    judged: np.ndarray  # (n, width) True where the retrieved document has a judgement
    n_retrieved: np.ndarray  # (n,) documents retrieved per query (before any width cut)
    judged_grades: np.ndarray  # (n, m) every judgement of the query, padded with -inf
    tie_start: np.ndarray | None = None  # ties="average": each rank's tie group, [start, end)
    tie_end: np.ndarray | None = None


# ---------------------------------------------------------------- judgements, matched by array work


class Judgements:
    """Judgements grouped by query, for finding each retrieved document's grade.

    Read from a file, the judgements are matched by array work: each gets one
    64-bit number, its query's row in the high bits and the high bits of its
    document's key (:func:`~rankmetrics.trec.io.texts.keys`) in the rest.
    These are sorted once; a retrieved document's number is then found by
    ``searchsorted``, and the match is confirmed on the bytes of both ids, so
    keys that collide never lend a document another's grade. A query in which
    two judged documents share a number (their keys agree in those bits,
    about one pair in 2**49) has its documents matched by text instead.

    Given as a dict (``lookup``, holding just these judgements) and asked
    about documents that are strings already (a run given as a dict), each
    document is looked up in its query's dict: the strings' hashes are
    already computed, and that is cheaper than making their bytes.
    """

    def __init__(self, records: Records, lookup: Mapping[str, Mapping[str, Any]] | None = None):
        if not records.lengths.all():
            records = records.take(np.flatnonzero(records.lengths))
        self.records = records
        self.lookup = lookup
        self.index = dict(zip(records.qids, range(len(records.qids))))
        self.starts = np.cumsum(records.lengths) - records.lengths
        self.bits = max(1, len(records).bit_length())  # the high bits that hold the query's row
        self._sorted: tuple[np.ndarray, np.ndarray, set[int]] | None = None

    @staticmethod
    def of(qrels: Mapping[str, Mapping[str, Any]]) -> Judgements:
        """Judgements from a clean ``{qid: {docno: grade}}`` (text ids, numbers)."""
        flat = flatten(qrels)
        assert flat is not None, "Judgements.of takes clean judgements; the reader checks a user's"
        qids, docnos, values = flat
        lengths = np.fromiter(map(len, qrels.values()), dtype=np.int64, count=len(qids))
        return Judgements(Records(qids, lengths, docnos, values), qrels)

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[str]:
        return iter(self.records.qids)

    def __contains__(self, qid: object) -> bool:
        return qid in self.index

    @property
    def by_text(self) -> set[int]:
        """The rows whose documents are matched by text (two of their judgements share a number)."""
        return self._numbers()[2]

    def rows(self, qids: list[str]) -> np.ndarray:
        """Each query's row, -1 for a query without judgements."""
        return np.fromiter(map(self.index.get, qids, repeat(-1)), dtype=np.int64, count=len(qids))

    def _numbers(self) -> tuple[np.ndarray, np.ndarray, set[int]]:
        """The judgements' numbers sorted, their positions, and the rows to match by text."""
        if self._sorted is None:
            records = self.records
            rows = np.repeat(np.arange(len(records), dtype=np.uint64), records.lengths)
            numbers = _numbers(rows, doc_keys(records.docnos), self.bits)
            order = np.argsort(numbers, kind="stable")
            ordered = numbers[order]
            twice = np.flatnonzero(ordered[1:] == ordered[:-1])
            self._sorted = ordered, order, set(rows[order[twice]].astype(np.int64).tolist())
        return self._sorted

    def grades(self, groups: Records, rows: np.ndarray) -> np.ndarray:
        """The grade of every retrieved document, NaN where its query has no judgement of it."""
        strings = groups.docnos.strings if isinstance(groups.docnos, Texts) else groups.docnos
        if self.lookup is not None and strings is not None:
            return self._looked_up(groups.qids, groups.lengths, strings)
        total = len(groups.docnos)
        found = np.full(total, _NAN)
        ordered, order, by_text = self._numbers()
        if not total or not ordered.size:
            return found
        per_record = np.repeat(rows, groups.lengths)
        docnos = as_texts(groups.docnos)
        numbers = _numbers(per_record.astype(np.uint64), docnos.keys, self.bits)
        at = np.minimum(np.searchsorted(ordered, numbers), ordered.size - 1)
        hits = np.flatnonzero((per_record >= 0) & (ordered[at] == numbers))
        judgement = order[at[hits]]
        confirmed = same(docnos, hits, as_texts(self.records.docnos), judgement)
        found[hits[confirmed]] = self.records.values[judgement[confirmed]]
        for query in np.flatnonzero(np.isin(rows, list(by_text))).tolist() if by_text else ():
            row = int(rows[query])
            judged_at = self.records.positions([row]).tolist()
            grade = dict(zip([self.records.docnos[i] for i in judged_at], self.records.values[judged_at]))
            for i in groups.positions([query]).tolist():
                found[i] = grade.get(groups.docnos[i], _NAN)
        return found

    def _looked_up(self, qids: list[str], lengths: np.ndarray, docnos: list[str]) -> np.ndarray:
        """Each document's grade from its query's dict, NaN where it has none."""
        assert self.lookup is not None
        none: dict[str, Any] = {}
        judgement = map(self.lookup.get, qids, repeat(none))
        per_record = chain.from_iterable(map(repeat, judgement, lengths.tolist()))
        return np.fromiter(
            map(dict.get, per_record, docnos, repeat(_NAN)), dtype=np.float64, count=len(docnos)
        )

    def every_grade(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every judgement's grade of each query (in file order), one query after another, and their counts."""
        known = rows >= 0
        counts = np.where(known, self.records.lengths[np.where(known, rows, 0)], 0)
        starts = self.starts[np.where(known, rows, 0)]
        at = np.arange(int(counts.sum())) + np.repeat(starts - (np.cumsum(counts) - counts), counts)
        return self.records.values[at], counts


def _numbers(rows: np.ndarray, keys: np.ndarray, bits: int) -> np.ndarray:
    """(row, key) as one sortable uint64: the row in the top ``bits`` bits, the key's top bits after it."""
    return (rows << np.uint64(64 - bits)) | (keys >> np.uint64(bits))


# ---------------------------------------------------------------- ranking


def rank(
    groups: Records,
    qrels: Judgements | Mapping[str, Mapping[str, Any]],
    depth: int | None,
    ties: str,
    score_precision: str = "float64",
    judged_only: bool = False,
    max_documents: int | None = None,
) -> Ranked:
    """Order each query's documents by score, highest first, and look up their grades.

    ``ties="docno_descending"``: equal scores are ordered by docno, descending,
    as text (trec_eval); ``"input_order"``: as they come; ``"average"``: as
    they come, and each rank's group of equal scores is returned
    (``tie_start``, ``tie_end``) for the metrics to average over;
    ``"numba_quicksort"``: where numba's ``np.argsort`` of the negated scores,
    in input order, puts them (ranx's order; :func:`numba_quicksort_order`). ``score_precision``:
    ``"float64"`` (the default, as :func:`rankmetrics.evaluate`'s) compares the
    scores as read; ``"float32"`` compares them as trec_eval stores them, in a
    32-bit float (``TEXT_RESULTS.sim`` in its ``trec_format.h``), so that
    0.123456789 and 0.123456788 are tied.
    ``max_documents`` keeps only each query's first that many documents
    (trec_eval's ``-M``); then ``judged_only`` drops every document without a
    grade >= 0 and closes the gaps (trec_eval's ``-J``, in that order, as
    ``form_res_rels.c`` does). Only the first ``depth`` ranks are kept (all
    for None). A query not in ``qrels`` has no judgement.
    """
    if not isinstance(qrels, Judgements):
        qrels = Judgements.of(qrels)
    n = len(groups)
    lengths = groups.lengths
    rows = qrels.rows(groups.qids)
    # The grade of every retrieved document, NaN where it has no judgement.
    found = qrels.grades(groups, rows)
    longest = int(lengths.max()) if n else 0
    scores = groups.values
    if score_precision == "float32":
        with np.errstate(over="ignore"):  # beyond 3.4e38 a float is ±inf, in C as here
            scores = scores.astype(np.float32).astype(np.float64)
    # Padding is NaN, which sorts after every score (even -inf) and equals nothing.
    scores = padded_rows(scores, lengths, longest, _NAN)
    found = padded_rows(found, lengths, longest, _NAN)
    order = np.argsort(-scores, axis=1, kind=None if ties == "docno_descending" else "stable")
    # Each row's scores in ranked order (ties="average" reads the groups). Re-ordering tied
    # documents below moves equal scores only, so these stay the scores in ranked order.
    ordered_scores = np.take_along_axis(scores, order, axis=1)
    if ties == "docno_descending" and longest > 1:
        _break_ties(order, scores, ordered_scores, groups)
    if ties == "numba_quicksort" and longest > 1:
        _quicksort_ties(order, scores, ordered_scores, lengths)
    n_retrieved = lengths
    if max_documents is not None:
        longest = min(longest, max_documents)
        n_retrieved = np.minimum(lengths, max_documents)
    if judged_only and longest:
        ranked = np.take_along_axis(found, order[:, :longest], axis=1)
        keep = ranked >= 0  # NaN (not judged) and negative grades (pooled, unjudged) go
        kept = np.argsort(~keep, axis=1, kind="stable")
        ranked = np.take_along_axis(ranked, kept, axis=1)
        ordered_scores = np.take_along_axis(ordered_scores[:, : kept.shape[1]], kept, axis=1)
        n_retrieved = np.count_nonzero(keep, axis=1).astype(lengths.dtype)
        longest = int(n_retrieved.max())
        ranked[np.arange(ranked.shape[1]) >= n_retrieved[:, None]] = _NAN
        ordered_scores[np.arange(ranked.shape[1]) >= n_retrieved[:, None]] = _NAN
        order = np.broadcast_to(np.arange(ranked.shape[1]), ranked.shape)
        found = ranked
    width = max(1, longest if depth is None else min(longest, depth))
    if longest:
        ranked = np.take_along_axis(found, order[:, :width], axis=1)
    else:
        ranked = np.full((n, 1), _NAN)
    judged = ~np.isnan(ranked)
    tie_start = tie_end = None
    if ties == "average":
        shown = ordered_scores[:, :width] if longest else np.full((n, 1), _NAN)
        tie_start, tie_end = tie_groups(pad_right(shown, width, _NAN))
    every, counts = qrels.every_grade(rows)
    return Ranked(
        queries=list(groups.qids),
        grades=np.where(judged, ranked, 0.0),
        judged=judged,
        n_retrieved=n_retrieved,
        judged_grades=padded_rows(every, counts, max(1, int(counts.max()) if n else 1), -np.inf),
        tie_start=tie_start,
        tie_end=tie_end,
    )


def _break_ties(order: np.ndarray, scores: np.ndarray, ordered: np.ndarray, groups: Records) -> None:
    """Re-sort, in place, the rows of ``order`` with equal scores: by score, then docno descending.

    ``ordered`` holds each row's scores in the order ``order`` gives.
    """
    tied = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)  # NaN padding equals nothing
    rows = np.flatnonzero(tied)
    if rows.size == 0:
        return
    lengths = groups.lengths[rows]
    row = np.repeat(np.arange(rows.size), lengths)
    position = np.arange(row.size) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    score = scores[rows[row], position]
    docnos = np.array(as_texts(groups.docnos).take(groups.positions(rows)).tolist(), dtype=str)
    _, text_order = np.unique(docnos, return_inverse=True)  # code point order = trec_eval's strcmp
    by = np.lexsort((-text_order.ravel(), -score, row))
    order[rows[row], position] = position[by]


# ---------------------------------------------------------------- ranx's order of tied scores

# numba's np.argsort (kind "quicksort", its default) switches to an insertion sort below this
# many elements (numba/misc/quicksort.py, SMALL_QUICKSORT), so a short list keeps its ties in
# input order and a longer one does not.
_SMALL_QUICKSORT = 15


def numba_quicksort_order(values: list[float]) -> list[int]:
    """The permutation numba's ``np.argsort(values)`` returns, equal values included.

    A line-by-line port of numba's ``run_quicksort1`` for argsort
    (``numba/misc/quicksort.py``, numba 0.56-0.68): median-of-three
    partitioning down to 15 elements, then insertion sort. ranx orders each
    query's documents with ``np.argsort([-score ...])`` of the scores in the
    order the run gives them (``ranx/data_structures/common.py``,
    ``sort_dict_by_value``), so this is ranx's tie order.

    >>> numba_quicksort_order([0.0] * 3)
    [0, 1, 2]
    >>> numba_quicksort_order([0.0] * 16)  # sixteen ties: one partition, then insertion sort
    [14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15]
    """
    a = values
    r = list(range(len(a)))
    if len(a) < 2:
        return r
    stack = [(0, len(a) - 1)]
    while stack:
        low, high = stack.pop()
        while high - low >= _SMALL_QUICKSORT:
            i = _partition(a, r, low, high)
            if high - i > i - low:  # push the larger part, go on with the smaller
                if high > i:
                    stack.append((i + 1, high))
                high = i - 1
            else:
                if i > low:
                    stack.append((low, i - 1))
                low = i + 1
        for i in range(low + 1, high + 1):  # insertion sort of r[low:high + 1]
            k = r[i]
            value = a[k]
            j = i
            while j > low and value < a[r[j - 1]]:
                r[j] = r[j - 1]
                j -= 1
            r[j] = k
    return r


def _partition(a: list[float], r: list[int], low: int, high: int) -> int:
    mid = (low + high) >> 1
    if a[r[mid]] < a[r[low]]:
        r[low], r[mid] = r[mid], r[low]
    if a[r[high]] < a[r[mid]]:
        r[high], r[mid] = r[mid], r[high]
    if a[r[mid]] < a[r[low]]:
        r[low], r[mid] = r[mid], r[low]
    pivot = a[r[mid]]
    r[high], r[mid] = r[mid], r[high]
    i, j = low, high - 1
    while True:
        while i < high and a[r[i]] < pivot:
            i += 1
        while j >= low and pivot < a[r[j]]:
            j -= 1
        if i >= j:
            break
        r[i], r[j] = r[j], r[i]
        i += 1
        j -= 1
    r[i], r[high] = r[high], r[i]
    return i


def _quicksort_ties(order: np.ndarray, scores: np.ndarray, ordered: np.ndarray, lengths: np.ndarray) -> None:
    """Re-sort, in place, the rows of ``order`` with equal scores as numba's quicksort does.

    Rows without a tie are already in the one order any sort gives them. ``ordered`` holds
    each row's scores in the order ``order`` gives.
    """
    tied = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)  # NaN padding equals nothing
    for row in np.flatnonzero(tied).tolist():
        n = int(lengths[row])
        order[row, :n] = numba_quicksort_order((-scores[row, :n]).tolist())
