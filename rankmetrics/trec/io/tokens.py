"""Lines to tokens: a block of whole lines split into white-space separated tokens by array work.

:func:`split` finds every token of a block at once (where C's ``isspace()``
mask steps down and up) and the first token of each line, so that ten million
lines never make ten million Python lists. A :class:`Tokens` then gives the
tokens at chosen positions as text (:meth:`Tokens.texts`), as numbers
(:meth:`Tokens.numbers`), or compared with their neighbours
(:meth:`Tokens.same_as_previous`). Which token is which field is the file
format's business (:mod:`rankmetrics.trec.files`), not this module's.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from ...i18n import _
from .texts import _LONG, _PAD, Texts, compact, decode
from .texts import words as _words

_FAST_DIGITS = 15  # a plain decimal of at most 15 digits is parsed exactly by array work
_POWERS = 10.0 ** np.arange(24)  # exact in float64 up to 1e22
_ONES = np.uint64(0x0101010101010101)


# The decimal spellings, one home: a whole number; a decimal without an exponent (a grade, as
# trec_eval's atol would read it only in part); a decimal with one (a score).
WHOLE = r"[+-]?[0-9]+"
DECIMAL = r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)"
DECIMAL_E = DECIMAL + r"(?:[eE][+-]?[0-9]+)?"


@dataclass(frozen=True)
class Number:
    """What a numeric field accepts, and how its messages name it."""

    what: str  # the value's name in messages (a message id: shown as _(what))
    pattern: re.Pattern[bytes]  # the spellings accepted
    spelled: str  # examples of a good value, for messages


@dataclass(frozen=True)
class Tokens:
    """A block's tokens, and the lines that hold any (comment lines left out).

    Token ``i`` is ``blob[begins[i]:ends[i]]``. Record ``r`` is the block's
    line ``rows[r]`` (0-based); its ``counts[r]`` tokens begin at token
    ``starts[r]``. A blank line and a comment line are no record.
    """

    blob: bytes
    raw: np.ndarray  # the block as uint8, followed by _PAD zero bytes
    begins: np.ndarray
    ends: np.ndarray
    line_ends: np.ndarray  # where each of the block's lines ends (its "\n", or the block's end)
    rows: np.ndarray
    starts: np.ndarray
    counts: np.ndarray
    skipped: np.ndarray | None = None  # the block's comment lines that were left out (0-based)

    def line_text(self, line: int) -> str:
        """The block's ``line`` (0-based), without its surrounding white space."""
        start = int(self.line_ends[line - 1]) + 1 if line else 0
        return self.blob[start : int(self.line_ends[line])].decode("utf-8").strip()

    def text(self, at: int) -> str:
        return self.blob[self.begins[at] : self.ends[at]].decode("utf-8")

    def texts(self, at: np.ndarray) -> list[str]:
        """The tokens at the given positions as Python strings."""
        return decode(self.raw, self.begins[at], self.ends[at])

    def ids(self, at: np.ndarray) -> Texts:
        """The tokens at the given positions as :class:`~rankmetrics.trec.io.texts.Texts` (no strings made), in a buffer of their own."""
        return compact(self.raw, self.begins[at], self.ends[at])

    def same_as_previous(self, at: np.ndarray) -> np.ndarray:
        """Whether each token at the given positions equals the one before it (False for the first)."""
        return _same_as_previous(self.blob, self.raw, self.begins[at], self.ends[at])

    def numbers(self, at: np.ndarray, rule: Number, label: str, lines: np.ndarray) -> np.ndarray:
        """The tokens at the given positions as floats; a token ``rule`` refuses is an error naming its line."""
        return _numbers(self.blob, self.raw, self.begins[at], self.ends[at], rule, label, lines)


def split(blob: bytes, first: int, label: str, comments: str = "first_token", carry: bool = False) -> Tokens:
    """One block of lines (numbered from ``first``) as tokens and records.

    A NUL byte and text that is not UTF-8 are errors naming the line. Comment
    lines are left out, by one of two rules:

    - ``"first_token"``: every line whose first non-blank character is ``#``
      (trec_eval 10.0's runs, and the package's rule for both files);
    - ``"column0_once"``: trec_eval 10.0's qrels (``get_qrels.c``): a ``#``
      in the line's first column only, and never two lines in a row: of
      consecutive such lines the 1st, 3rd, ... are skipped, the 2nd, 4th, ...
      read as data. ``carry`` says that the line before the block was skipped.

    Every step is one array operation over the block's bytes or over its
    tokens: where the white-space mask changes (a token begins or ends),
    where the lines end, and, by one ``searchsorted`` of the line ends among
    the token beginnings, each line's first token and its number of tokens.
    No array is made per token of a line: the fields are picked by position
    from each record's first token.
    """
    if b"\x00" in blob:
        line = first + blob.count(b"\n", 0, blob.index(b"\x00"))
        raise ValueError(
            _("{label} line {line}: holds a NUL byte; a TREC file is plain text").format(
                label=label, line=line
            )
        )
    if not blob.isascii():
        try:
            blob.decode("utf-8")
        except UnicodeDecodeError as error:
            line = first + blob.count(b"\n", 0, error.start)
            raise ValueError(
                _("{label} line {line}: not UTF-8 text (byte {blob:#04x}); save the file as UTF-8").format(
                    label=label, line=line, blob=blob[error.start]
                )
            ) from None
    size = len(blob)
    raw = np.empty(size + _PAD, dtype=np.uint8)  # not np.zeros: fresh zeroed pages cost more than the copy
    raw[:size] = np.frombuffer(blob, dtype=np.uint8)
    raw[size:] = 0
    data = raw[:size]
    # What C's isspace() and bytes.split() split on: tab, newline, vertical tab, form feed, CR
    # (9 to 13) and space. In uint8, data - 9 wraps around below 9, so one comparison finds 9 to 13.
    bounded = np.empty(size + 2, dtype=bool)  # white space, with white space before and after the block
    bounded[0] = bounded[-1] = True
    np.less(data - np.uint8(9), 5, out=bounded[1:-1])
    bounded[1:-1] |= data == 32
    change = np.flatnonzero(bounded[1:] != bounded[:-1])  # a token begins, then ends, alternately
    begins, ends = change[0::2], change[1::2]
    line_ends = np.flatnonzero(data == 10)
    if not size or blob[-1:] != b"\n":
        line_ends = np.append(line_ends, size)
    firsts = np.zeros(line_ends.size + 1, dtype=np.int64)  # each line's first token; then the count
    firsts[1:-1] = _tokens_before(begins, line_ends[:-1])
    firsts[-1] = begins.size
    counts = np.diff(firsts)
    rows = np.flatnonzero(counts)
    starts = firsts[rows]
    if comments == "column0_once":
        skipped = _every_other(_column0_comments(data, line_ends), carry)
    else:
        skipped = rows[data[begins[starts]] == 35]  # "#"
    if skipped.size:
        dropped = np.zeros(line_ends.size, dtype=bool)
        dropped[skipped] = True
        keep = ~dropped[rows]
        rows, starts = rows[keep], starts[keep]
    return Tokens(blob, raw, begins, ends, line_ends, rows, starts, counts[rows], skipped)


def _tokens_before(begins: np.ndarray, line_ends: np.ndarray) -> np.ndarray:
    """How many tokens begin before each line end: the next line's first token.

    One ``searchsorted``; but when every line may hold the same number ``k``
    of tokens (the token count is ``k`` times the line count), two
    comparisons settle it: each line end lies between token ``k*i - 1`` and
    token ``k*i``. A file of uniform lines, the common case, needs no search.
    """
    n_lines = line_ends.size + 1
    per_line = begins.size // n_lines
    if (
        per_line
        and per_line * n_lines == begins.size
        and (begins[per_line - 1 :: per_line][:-1] < line_ends).all()  # line i's last token before its end
        and (begins[per_line::per_line] > line_ends).all()  # line i+1's first token after it
    ):
        return np.arange(per_line, begins.size, per_line)
    return np.searchsorted(begins, line_ends)


def _column0_comments(data: np.ndarray, line_ends: np.ndarray) -> np.ndarray:
    """The lines (0-based) whose first byte is ``#``."""
    line_starts = np.concatenate(([0], line_ends[:-1] + 1)) if line_ends.size else np.zeros(0, np.int64)
    inside = line_starts < data.size
    found = np.zeros(line_starts.size, dtype=bool)
    found[inside] = data[line_starts[inside]] == 35
    return np.flatnonzero(found)


def _every_other(lines: np.ndarray, carry: bool) -> np.ndarray:
    """Of each stretch of consecutive lines, the 1st, 3rd, ...: the ones a skip-one-comment loop skips."""
    if not lines.size:
        return lines
    new_stretch = np.ones(lines.size, dtype=bool)
    new_stretch[1:] = np.diff(lines) != 1
    stretch_start = np.maximum.accumulate(np.where(new_stretch, np.arange(lines.size), 0))
    position = np.arange(lines.size) - stretch_start
    if carry and lines[0] == 0:  # the block's first stretch goes on from a skipped line
        position[stretch_start == 0] += 1
    return lines[position % 2 == 0]


def _any_word(words: np.ndarray) -> np.ndarray:
    """Row-wise any of a (rows, few) boolean array, a column at a time (faster than a reduction)."""
    out = words[:, 0].copy()
    for j in range(1, words.shape[1]):
        out |= words[:, j]
    return out


def _count_ones(words: np.ndarray) -> np.ndarray:
    """The number of 0x01 bytes in each word of 0x00 and 0x01 bytes (summed into the top byte by one multiply)."""
    return ((words * _ONES) >> np.uint64(56)).view(np.int64)


def _same_as_previous(blob: bytes, raw: np.ndarray, begins: np.ndarray, ends: np.ndarray) -> np.ndarray:
    same = np.zeros(begins.size, dtype=bool)
    if begins.size < 2:
        return same
    lengths = ends - begins
    if int(lengths.max()) <= _LONG:
        words = _words(raw, begins, lengths, int(lengths.max()))
        same[1:] = words[1:, 0] == words[:-1, 0]
        for j in range(1, words.shape[1]):
            same[1:] &= words[1:, j] == words[:-1, j]
    else:
        tokens = [blob[b:e] for b, e in zip(begins.tolist(), ends.tolist())]
        same[1:] = [a == b for a, b in zip(tokens[1:], tokens[:-1])]
    return same


def _numbers(
    blob: bytes,
    raw: np.ndarray,
    begins: np.ndarray,
    ends: np.ndarray,
    rule: Number,
    label: str,
    lines: np.ndarray,
) -> np.ndarray:
    """Each token as a float; a token that ``rule.pattern`` does not match in full is an error.

    A token of sign, digits and at most one point with at most 15 digits is
    computed by array work: the digits as one integer, divided by a power of
    ten, is one correctly rounded division, the same double as ``float()``.
    Every other token is matched against the rule and converted by ``float()``.
    """
    values = np.zeros(begins.size)
    if not begins.size:
        return values
    lengths = ends - begins
    short = lengths <= _FAST_DIGITS + 2
    every = bool(short.all())
    at = slice(None) if every else np.flatnonzero(short)
    plain = np.zeros(begins.size, dtype=bool)
    if every or at.size:
        longest = int(lengths[at].max())
        size = lengths[at]
        words = _words(raw, begins[at], size, longest)
        chars = words.view(np.uint8)  # whole words: zero bytes after each token
        digit = chars - np.uint8(48) < 10
        dot = chars == 46
        lead = chars[:, 0]
        signed = (lead == 45) | (lead == 43)
        other = ~(digit | dot) & (chars != 0)  # neither digit nor point
        other[:, 0] &= ~signed
        # Row-wise tests as 64-bit words: a word of a mask is nonzero when any of its bytes is set,
        # and a word of 0/1 bytes has at most one byte set when x & (x - 1) == 0.
        has_other = _any_word(other.view(np.uint64) != 0)
        dots = dot.view(np.uint64)
        dotted = dots != 0
        has_dot = _any_word(dotted)
        one_dot = ~_any_word((dots & (dots - np.uint64(1))) != 0)  # at most one point in each word
        for j in range(1, dotted.shape[1]):
            one_dot &= ~(dotted[:, j] & _any_word(dotted[:, :j]))  # and not in two words
        n_digits = size - signed - has_dot  # when no other character and at most one point
        # The (first) point's place, from the words: subtracting 1 from a word whose point byte
        # is 0x01 turns the bytes before it into 0xFF, and their low bits count them.
        point = np.zeros(chars.shape[0], dtype=np.int64)
        before_all = np.ones(chars.shape[0], dtype=bool)  # no point in the words so far
        for j in range(dots.shape[1]):
            point += _count_ones((dots[:, j] - np.uint64(1)) & _ONES) * before_all
            before_all &= ~dotted[:, j]
        decimals = (size - 1 - point) * has_dot
        # The digits as one whole number, column by column: times 10 and plus the digit at a
        # digit, unchanged elsewhere. Below 2**53 every step is exact in float64.
        times = np.uint8(1) + np.uint8(9) * digit
        plus = (chars - np.uint8(48)) * digit
        mantissa = np.zeros(chars.shape[0])
        for column in range(longest):
            mantissa *= times[:, column]
            mantissa += plus[:, column]
        # A wild token's index is clipped here; such a token is re-read below.
        number = mantissa / _POWERS.take(decimals, mode="clip")
        np.negative(number, out=number, where=lead == 45)
        values[at] = number
        plain[at] = ~has_other & one_dot & (n_digits >= 1) & (n_digits <= _FAST_DIGITS)
    for i in np.flatnonzero(~plain).tolist():
        token = blob[int(begins[i]) : int(ends[i])]
        if not rule.pattern.fullmatch(token):
            raise ValueError(
                _(
                    "{label} line {lines}: the {what} must be a decimal number such as {spelled}; got {token!r}"
                ).format(
                    label=label,
                    lines=int(lines[i]),
                    what=_(rule.what),
                    spelled=_(rule.spelled),
                    token=token.decode("utf-8"),
                )
            )
        values[i] = float(token)
        if not math.isfinite(values[i]):
            raise ValueError(
                _(
                    "{label} line {lines}: the {what} {token!r} is too large for a floating-point number"
                ).format(label=label, lines=int(lines[i]), what=_(rule.what), token=token.decode("utf-8"))
            )
    return values
