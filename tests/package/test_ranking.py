"""ranking.rank, called directly: its defaults are the package's public defaults."""

from __future__ import annotations

import io

from rankmetrics.trec import files, ranking
from rankmetrics.trec.conventions import Conventions


def test_scores_are_compared_as_read_unless_float32_is_asked_for():
    # 0.123456789 and 0.123456788 differ as float64 but are one float32 (trec_eval's storage):
    # as read, a (higher) comes first; as float32 they tie, and docno descending puts b first.
    judged = files.judged(io.StringIO("q 0 a 1\nq 0 b 0\n"))
    groups = next(files.run_records(io.StringIO("q Q0 a 1 0.123456789 t\nq Q0 b 2 0.123456788 t\n"), None))
    assert Conventions.resolve(None)["score_precision"] == "float64"  # evaluate's default
    default = ranking.rank(groups, judged, None, "docno_descending")
    assert default.grades.tolist() == [[1.0, 0.0]]  # a, then b
    as_float32 = ranking.rank(groups, judged, None, "docno_descending", "float32")
    assert as_float32.grades.tolist() == [[0.0, 1.0]]  # b, then a
