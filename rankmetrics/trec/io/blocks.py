"""Bytes to lines: a path or an open file as blocks of whole lines, each with its first line's number.

This layer makes every source look alike to the tokenizer: a gzip stream is
decompressed (several members, one after another, as ``cat a.gz b.gz`` makes),
a leading UTF-8 byte-order mark (Windows Notepad writes one) is dropped, and
``\\r\\n`` and ``\\r`` line ends become ``\\n``, as text mode would read them.
A text stream is encoded back to UTF-8, so that both kinds of open file give
the same bytes. Blocks are about ``block_bytes`` long, so a file of any size is
held one block at a time.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from itertools import chain
from typing import Any

import numpy as np

from ... import _validation as v
from ...i18n import _

_GZIP_MAGIC = b"\x1f\x8b"
_BOM = b"\xef\xbb\xbf"


def text_blocks(source: Any, kind: str, block_bytes: int) -> tuple[str, Iterator[tuple[bytes, int]]]:
    """The source's display name, and its text in blocks of whole lines with the first line's number."""
    if isinstance(source, (str, os.PathLike)):
        path = os.fsdecode(source)
        if not os.path.isfile(path):
            raise ValueError(
                _("{kind} file {path!r} does not exist (or is not a file)").format(kind=kind, path=path)
            )
        label = os.path.basename(path)
        raw = _path_blocks(path, kind, block_bytes)
    elif hasattr(source, "read"):
        name = getattr(source, "name", None)
        label = os.path.basename(name) if isinstance(name, str) else f"<{kind} file>"
        raw = _stream_blocks(source, label, block_bytes)
    else:
        raise ValueError(
            _("{kind} must be a path, an open file or a dict {{qid: {{docno: value}}}}; got {source}").format(
                kind=kind, source=v.show(source)
            )
        )
    return label, lines(_unwrapped(raw, label))


def _path_blocks(path: str, kind: str, block_bytes: int) -> Iterator[bytes]:
    try:
        with open(path, "rb") as handle:
            while block := handle.read(block_bytes):
                yield block
    except OSError as error:
        raise ValueError(
            _("{kind} file {path!r} cannot be read: {strerror}").format(
                kind=kind, path=path, strerror=error.strerror or error
            )
        ) from None


def _stream_blocks(handle: Any, label: str, block_bytes: int) -> Iterator[bytes]:
    while True:
        try:
            block = handle.read(block_bytes)
        except UnicodeDecodeError as error:
            raise ValueError(
                _(
                    "{label}: the file is not text in its encoding ({reason}); open it in binary mode "
                    "('rb') or with encoding='utf-8'"
                ).format(label=label, reason=error.reason)
            ) from None
        if not block:
            return
        if isinstance(block, str):
            try:
                block = block.encode("utf-8")
            except UnicodeEncodeError as error:
                raise ValueError(
                    _("{label}: the text holds {object!r}, not UTF-8").format(
                        label=label, object=error.object[error.start]
                    )
                ) from None
        elif not isinstance(block, bytes):
            raise ValueError(
                _("{label}: read() gave {type}, not text or bytes").format(
                    label=label, type=type(block).__name__
                )
            )
        yield block


def _peek(blocks: Iterator[bytes], n: int) -> tuple[bytes, Iterator[bytes]]:
    """At least the first ``n`` bytes (fewer only at the end), and every block after them."""
    head = b""
    for block in blocks:
        head += block
        if len(head) >= n:
            break
    return head, blocks


def _unwrapped(blocks: Iterator[bytes], label: str) -> Iterator[bytes]:
    """The contents: a gzip stream decompressed, a leading UTF-8 byte-order mark dropped."""
    head, rest = _peek(blocks, 3)
    if head.startswith(_GZIP_MAGIC):
        head, rest = _peek(_gunzip(chain([head], rest), label), 3)
    head = head.removeprefix(_BOM)
    yield head
    yield from rest


def _gunzip(blocks: Iterator[bytes], label: str) -> Iterator[bytes]:
    decoder = zlib.decompressobj(wbits=31)  # 31: gzip header and trailer
    started = False
    try:
        for block in blocks:
            while block:
                started = True
                yield decoder.decompress(block)
                block = b""
                if decoder.eof:  # a file of several gzip members, one after another
                    block, decoder, started = decoder.unused_data, zlib.decompressobj(wbits=31), False
        if started and not decoder.eof:
            raise ValueError(
                _("{label}: the gzip data ends early (the file is cut short)").format(label=label)
            )
    except zlib.error as error:
        raise ValueError(
            _("{label}: not a valid gzip file ({error})").format(label=label, error=error)
        ) from None


def lines(blocks: Iterator[bytes]) -> Iterator[tuple[bytes, int]]:
    """Blocks of whole lines ending in ``\\n`` (``\\r\\n`` and ``\\r`` become ``\\n``), each with its first line's number."""
    first, rest = 1, b""
    for block in blocks:
        block = rest + block
        rest = b""
        if block.endswith(b"\r"):  # perhaps the first half of \r\n: decide with the next block
            block, rest = block[:-1], b"\r"
        block = _newlines(block)
        cut = block.rfind(b"\n") + 1
        if cut:
            yield block[:cut], first
            first += _countlines(block, cut)
        rest = block[cut:] + rest
    if rest:  # the last line, without a line end (or ending in a lone \r, which is one)
        tail = _newlines(rest)
        yield tail if tail.endswith(b"\n") else tail + b"\n", first


def _countlines(block: bytes, end: int) -> int:
    """The line ends in ``block[:end]``: counted by numpy, several times quicker than ``bytes.count``."""
    return int(np.count_nonzero(np.frombuffer(block, dtype=np.uint8, count=end) == 10))


def _newlines(blob: bytes) -> bytes:
    return blob.replace(b"\r\n", b"\n").replace(b"\r", b"\n") if b"\r" in blob else blob
