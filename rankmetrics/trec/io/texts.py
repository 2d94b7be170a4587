"""Document ids as bytes in one buffer, with a 64-bit key each: strings only when asked for.

A file of ten million lines has ten million document ids. Made into Python
strings, each costs an object, and matching them to the judgements a hash and
a dict look-up, one at a time. :class:`Texts` keeps them as the reader found
them: a buffer of UTF-8 bytes (the block of the file, or several blocks joined)
and where each id begins and ends in it, with a 64-bit key per id computed from
its bytes by array work (:func:`keys`). The readers group, check and match ids
by their keys in a few array operations; a string is made only for what a
person reads (a message, a dict from :func:`~rankmetrics.trec.files.read_run`)
and for the documents whose order depends on their text (tied scores).

Equal keys are only a hint that two ids are equal: every match found by key is
confirmed on the bytes (:func:`same`), so two ids whose keys collide are never
taken for one another.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

LONG = 64  # ids longer than this become strings one by one, to bound the padded arrays
PAD = LONG + 16  # zero bytes after the last id: the words read from any id stay inside the buffer
_SLICE = 1 << 16  # ids keyed at a time
_KEEP = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype="<u8")  # the first k bytes of a word
# _KEEP_AT[j][n]: the mask of word j of an id n bytes long (the first n - 8j bytes, 0 to 8 of them),
# for ids of up to LONG + 8 bytes: one look-up instead of arithmetic on every id's length.
_KEEP_AT = np.array(
    [[_KEEP[min(max(n - 8 * j, 0), 8)] for n in range(LONG + 9)] for j in range(-(-(LONG + 8) // 8))],
    dtype="<u8",
)
# Multipliers of the key's mixing steps (splitmix64's, odd 64-bit constants).
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def every_word(raw: np.ndarray) -> np.ndarray:
    """The buffer as little-endian 64-bit words, one starting at every byte (a view, no copy)."""
    return np.ndarray(shape=(raw.size - 7,), dtype="<u8", buffer=raw, strides=(1,))


def words(
    raw: np.ndarray, begins: np.ndarray, lengths: np.ndarray, width: int, fill: int = 0, out: Any = None
) -> np.ndarray:
    """Each id's bytes as little-endian 64-bit words, one id per row, ``fill`` after its end.

    An id's ``j``-th word is read in one step for all ids, as eight bytes
    from ``begin + 8 * j``, and the bytes beyond the id's end are masked. Each
    row has ``width`` bytes or a few more (whole words); ``width`` is at most
    ``LONG + 8``, which the zero bytes after the buffer's last id cover.
    """
    every_byte = every_word(raw)
    n_words = max(1, -(-width // 8))
    if out is None:
        out = np.empty((begins.size, n_words), dtype="<u8")
    fills = np.uint64(fill * 0x0101010101010101)
    for j in range(n_words):
        keep = _word_mask(lengths, j, width)
        out[:, j] = every_byte[begins + 8 * j] & keep
        if fill:
            out[:, j] |= fills & ~keep
    return out


def _word_mask(lengths: np.ndarray, j: int, longest: int) -> np.ndarray:
    """The mask of word ``j`` of ids of these ``lengths`` (at most ``longest``): their bytes from ``8 * j`` on, up to 8."""
    if longest <= LONG + 8:
        return _KEEP_AT[j].take(lengths)
    return _KEEP[np.clip(lengths - 8 * j, 0, 8)]


def keys(raw: np.ndarray, begins: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """A 64-bit key of each id's bytes (uint64): equal ids have equal keys.

    The id's length, then each of its 8-byte words (the last one masked to the
    id's end), is mixed in by a multiply and a shift, for all ids at once; a
    word past an id's end is not read. Different ids rarely share a key (about
    one pair in 2**64), and matches are confirmed on the bytes anyway.
    """
    if begins.size > _SLICE:  # a slice at a time, so that its arrays stay in the caches
        return np.concatenate(
            [keys(raw, begins[i : i + _SLICE], ends[i : i + _SLICE]) for i in range(0, begins.size, _SLICE)]
        )
    lengths = ends - begins
    key = lengths.astype(np.uint64) * _GOLDEN
    if not lengths.size:
        return key
    if (begins & 7).any():
        every_byte, first, step = every_word(raw), begins, 8
    else:  # every id begins at a multiple of 8 (rows made by compact): whole words, read more quickly
        every_byte, first, step = raw[: raw.size // 8 * 8].view("<u8"), begins >> 3, 1
    shortest, longest = int(lengths.min()), int(lengths.max())
    for j in range(-(-longest // 8)):
        at = slice(None) if 8 * j < shortest else np.flatnonzero(lengths > 8 * j)  # ids this long
        word = every_byte[first[at] + step * j] & _word_mask(lengths[at], j, longest)
        mixed = (key[at] ^ word) * _MIX1
        mixed ^= mixed >> np.uint64(31)
        key[at] = mixed
    key ^= key >> np.uint64(30)
    key *= _MIX2
    key ^= key >> np.uint64(31)
    return key


def compact(raw: np.ndarray, begins: np.ndarray, ends: np.ndarray) -> Texts:
    """The ids copied out of a larger buffer (a block of the file) into one of their own.

    Each id gets a row of whole 8-byte words, zeros after its end, so that
    the block's buffer need not be kept (nor joined with the next blocks')
    for the sake of its ids, and :func:`keys` reads whole aligned words. Ids
    longer than ``LONG`` bytes stay where they are.
    """
    lengths = ends - begins
    if not lengths.size or int(lengths.max()) > LONG:
        return Texts(raw, begins, ends)
    n_words = -(-int(lengths.max()) // 8)
    buffer = np.zeros(8 * n_words * lengths.size + PAD, dtype=np.uint8)
    rows = buffer[: 8 * n_words * lengths.size].view("<u8").reshape(lengths.size, n_words)
    words(raw, begins, lengths, 8 * n_words, out=rows)
    starts = np.arange(0, rows.size * 8, 8 * n_words, dtype=np.int64)
    return Texts(buffer, starts, starts + lengths)


def decode(raw: np.ndarray, begins: np.ndarray, ends: np.ndarray) -> list[str]:
    """The ids as strings: laid out one per row, "\\n" after each, decoded and split at once."""
    if not begins.size:
        return []
    lengths = ends - begins
    longest = int(lengths.max())
    if longest >= LONG or not int(lengths.min()):
        view = memoryview(raw)
        return [str(view[b:e], "utf-8") for b, e in zip(begins.tolist(), ends.tolist())]
    # Each row: the id, then "\n" up to one byte past the longest id.
    rows = words(raw, begins, lengths, longest + 1, fill=10).view(np.uint8)[:, : longest + 1]
    # An id read from a file holds no white space, and the buffer is valid UTF-8 that white
    # space never cuts, so the rows decode as one text, and its "\n"s separate exactly the ids.
    parts = np.ascontiguousarray(rows).tobytes().decode("utf-8").split("\n")
    if int(lengths.min()) == longest:  # one "\n" after each id
        parts.pop()
        return parts
    return list(filter(None, parts))  # shorter ids leave empty strings between their "\n"s


class Texts(Sequence[str]):
    """Ids as UTF-8 bytes in one buffer, with a 64-bit key each; a sequence of ``str`` when read.

    Id ``i`` is ``raw[begins[i]:ends[i]]``; ``raw`` is followed by at least
    ``PAD`` zero bytes. Ids that came as strings (:meth:`of`) keep them, and
    their bytes and keys are made only when first asked for.
    """

    __slots__ = ("_begins", "_ends", "_joined", "_keys", "_raw", "_strings")

    def __init__(
        self,
        raw: np.ndarray | None,
        begins: np.ndarray | None,
        ends: np.ndarray | None,
        keys_: np.ndarray | None = None,
        strings: list[str] | None = None,
        joined: str | None = None,
    ):
        self._raw, self._begins, self._ends, self._keys = raw, begins, ends, keys_
        self._strings = strings
        self._joined = joined

    @staticmethod
    def of(strings: Sequence[str], joined: str | None = None) -> Texts:
        """Ids given as Python strings (a dict's keys); ``joined``, when given, is ``"\\n".join(strings)``."""
        return Texts(
            None, None, None, strings=strings if isinstance(strings, list) else list(strings), joined=joined
        )

    def _bytes(self) -> None:
        """The strings' UTF-8 bytes, one after another, and where each begins and ends."""
        strings = self._strings
        assert strings is not None
        text = "\n".join(strings) if self._joined is None else self._joined
        self._joined = None
        data = text.encode("utf-8", "surrogatepass")
        raw = np.zeros(len(data) + PAD, dtype=np.uint8)
        raw[: len(data)] = np.frombuffer(data, dtype=np.uint8)
        if not strings:
            ends = np.zeros(0, dtype=np.int64)
        elif text.count("\n") == len(strings) - 1:  # no id holds a "\n": they separate the ids
            ends = np.append(np.flatnonzero(raw[: len(data)] == 10), len(data))
        else:
            ends = np.cumsum([len(s.encode("utf-8", "surrogatepass")) + 1 for s in strings]) - 1
        begins = np.concatenate(([0], ends[:-1] + 1)) if strings else ends
        self._raw, self._begins, self._ends = raw, begins.astype(np.int64), ends.astype(np.int64)

    @property
    def raw(self) -> np.ndarray:
        if self._raw is None:
            self._bytes()
        return self._raw

    @property
    def begins(self) -> np.ndarray:
        if self._raw is None:
            self._bytes()
        return self._begins

    @property
    def ends(self) -> np.ndarray:
        if self._raw is None:
            self._bytes()
        return self._ends

    @property
    def keys(self) -> np.ndarray:
        if self._keys is None:
            self._keys = keys(self.raw, self.begins, self.ends)
        return self._keys

    @property
    def strings(self) -> list[str] | None:
        """The ids as strings when they are at hand (ids given as strings, or read once), else None."""
        return self._strings

    def __len__(self) -> int:
        return len(self._strings) if self._strings is not None else self._begins.size

    def __getitem__(self, at: Any) -> Any:
        if self._strings is not None and not isinstance(at, slice):
            return self._strings[at]
        if self._raw is None:  # strings, no bytes made yet
            return Texts.of(self._strings[at])
        if isinstance(at, slice):
            strings = None if self._strings is None else self._strings[at]
            return Texts(self._raw, self._begins[at], self._ends[at], self.keys[at], strings)
        return str(memoryview(self._raw)[int(self._begins[at]) : int(self._ends[at])], "utf-8")

    def __iter__(self) -> Iterator[str]:
        return iter(self.tolist())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Texts):
            other = other.tolist()
        return self.tolist() == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self.tolist())

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.array(self.tolist(), dtype=object if dtype is None else dtype)

    def tolist(self) -> list[str]:
        """Every id as a string, in order."""
        if self._strings is None:
            self._strings = decode(self._raw, self._begins, self._ends)
        return self._strings

    def take(self, at: np.ndarray) -> Texts:
        """The ids at the given positions; the buffer is cut to the span they cover when that is small."""
        if self._raw is None:  # strings, no bytes made yet
            return Texts.of([self._strings[i] for i in np.asarray(at).tolist()])
        begins, ends, key = self._begins[at], self._ends[at], self.keys[at]
        raw = self._raw
        if begins.size:
            low, high = int(begins.min()), int(ends.max()) + PAD
            if 2 * (high - low) < raw.size:  # a small part of a large buffer: keep only that part
                raw, begins, ends = raw[low:high], begins - low, ends - low
        return Texts(raw, begins, ends, key)


def join(parts: Sequence[Texts]) -> Texts:
    """The ids of several :class:`Texts`, one after another, in one buffer."""
    if len(parts) == 1:
        return parts[0]
    if not parts:
        return Texts.of([])
    if all(p._raw is None for p in parts):  # strings, no bytes made yet
        return Texts.of([text for p in parts for text in p._strings])
    spans = []
    offsets = []
    size = 0
    for part in parts:
        low = int(part.begins.min()) if len(part) else 0
        high = int(part.ends.max()) if len(part) else 0
        spans.append(part.raw[low:high])
        offsets.append(size - low)
        size += high - low
    raw = np.zeros(size + PAD, dtype=np.uint8)
    np.concatenate(spans, out=raw[:size])
    return Texts(
        raw,
        np.concatenate([p.begins + o for p, o in zip(parts, offsets)]),
        np.concatenate([p.ends + o for p, o in zip(parts, offsets)]),
        np.concatenate([p.keys for p in parts]),
    )


def same(a: Texts, at_a: np.ndarray, b: Texts, at_b: np.ndarray) -> np.ndarray:
    """Whether ``a[at_a[i]]`` and ``b[at_b[i]]`` are the same bytes, for each i (array work)."""
    lengths = a.ends[at_a] - a.begins[at_a]
    equal = lengths == b.ends[at_b] - b.begins[at_b]
    if not equal.any():
        return equal
    words_a, words_b = every_word(a.raw), every_word(b.raw)
    begins_a, begins_b = a.begins[at_a], b.begins[at_b]
    lengths = np.where(equal, lengths, 0)  # ids of different lengths: no word read
    shortest, longest = int(lengths.min()), int(lengths.max())
    for j in range(-(-longest // 8)):
        at = slice(None) if 8 * j < shortest else np.flatnonzero(lengths > 8 * j)  # ids this long
        keep = _word_mask(lengths[at], j, longest)
        equal[at] &= (words_a[begins_a[at] + 8 * j] & keep) == (words_b[begins_b[at] + 8 * j] & keep)
    return equal


def as_texts(ids: Sequence[str]) -> Texts:
    """Ids as :class:`Texts` (given back as they are when they already are)."""
    return ids if isinstance(ids, Texts) else Texts.of(ids)
