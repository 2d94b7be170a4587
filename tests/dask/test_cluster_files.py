"""TREC files a part at a time (rankmetrics.trec.cluster), the logic both engines share, without a cluster.

A dask block and a Spark split are parts of a file that begin somewhere in
the middle. Cut anywhere, the parts must hold every line once, and a refused
line must be named as the local reader names it: by its line in the file.
The local reader (``rm.read_run``, ``rm.read_qrels``) is the oracle.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pandas as pd
import pytest

import rankmetrics as rm
from rankmetrics.trec import cluster


def run_lines(n: int) -> list[bytes]:
    """n run lines, query q0 to q{n//10}, ten documents each, every score distinct."""
    return [f"q{i // 10} Q0 d{i} {i % 10 + 1} {1 / (i + 1)!r} tag\r\n".encode() for i in range(n)]


def parts(path: Path, length: int, kind: str = "run", **options) -> pd.DataFrame:
    reopen = functools.partial(open, path, "rb")
    size = path.stat().st_size
    return pd.concat(
        [cluster.read_part(reopen, o, length, path.name, kind, **options) for o in range(0, size, length)],
        ignore_index=True,
    )


def local_error(read, *args, **options) -> str:
    with pytest.raises(ValueError) as error:
        read(*args, **options)
    return str(error.value)


@pytest.mark.parametrize("length", [1, 7, 64, 500, 10**6])
def test_parts_cut_anywhere_hold_every_line_once(tmp_path, length):
    lines = run_lines(120)
    # A byte-order mark, \r\n line ends, a comment and a blank line, a last line without its line end.
    text = b"\xef\xbb\xbf" + b"".join(lines[:60]) + b"# a comment\r\n\r\n" + b"".join(lines[60:])[:-2]
    path = tmp_path / "run.txt"
    path.write_bytes(text)
    frame = parts(path, length)
    # The oracle: the lines as written, and the local reader.
    assert frame["doc_id"].tolist() == [f"d{i}" for i in range(120)]
    assert frame["score"].tolist() == [1 / (i + 1) for i in range(120)]
    local = rm.read_run(path)
    assert {q: dict(zip(g["doc_id"], g["score"])) for q, g in frame.groupby("query_id", sort=False)} == local


def test_text_that_is_not_utf8_in_a_later_part_is_named_by_its_line_in_the_file(tmp_path):
    lines = run_lines(200)
    lines[150] = lines[150].replace(b"d150", "caf\xe9".encode("latin-1"))  # line 151
    path = tmp_path / "run.txt"
    path.write_bytes(b"".join(lines))
    assert sum(map(len, lines[:150])) > 3 * 500  # the bad line is in the fourth part or later
    expected = local_error(rm.read_run, path)
    assert expected == "run.txt line 151: not UTF-8 text (byte 0xe9); save the file as UTF-8"
    assert local_error(parts, path, 500) == expected


def test_a_fractional_grade_in_a_later_part_is_named_by_its_line_in_the_file(tmp_path):
    lines = [f"q{i // 10} 0 d{i} {i % 3}\n" for i in range(300)]
    lines[271] = "q27 0 d271 0.5\n"  # line 272
    path = tmp_path / "judged.qrels"
    path.write_text("".join(lines), encoding="utf-8")
    expected = local_error(rm.read_qrels, path)
    assert expected.startswith("judged.qrels line 272: the relevance 0.5 is not a whole grade")
    assert local_error(parts, path, 256, "qrels") == expected
    assert parts(path, 256, "qrels", fractional_grades="keep")["relevance"].tolist()[271] == 0.5


def test_without_the_file_the_message_names_the_part_and_counts_from_it(tmp_path):
    lines = run_lines(200)
    lines[150] = lines[150].replace(b" 0.", b" nan0.")  # line 151: not a number
    start = sum(map(len, lines[:100]))  # the part begins with line 101: line 151 is its 51st
    blob = b"".join(lines[100:])

    def gone():
        raise OSError("the file has been removed")

    for reopen in (None, gone):
        with pytest.raises(ValueError, match=rf"^run\.txt \(the part from byte {start}\) line 51: the score"):
            cluster.parse_part(blob, "run.txt", "run", start=start, reopen=reopen)
    # At the file's start the numbers are the file's own, and nothing is read again.
    with pytest.raises(ValueError, match=r"^run\.txt line 151: the score"):
        cluster.parse_part(b"".join(lines), "run.txt", "run", reopen=gone)
    # A part counted from its own first line (a Spark batch further into the first split).
    with pytest.raises(ValueError, match=r"^run\.txt line 151: the score"):
        cluster.parse_part(blob, "run.txt", "run", first=101)
