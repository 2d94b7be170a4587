"""Worksheets for the classroom: small problems to do by hand, and an answer key with step tables.

``make_worksheet(seed, count, metrics)`` draws problems with
``numpy.random.default_rng(seed)``: ranked lists of 4–6 items, grades 0–3 for
DCG/nDCG and O/X for the hit-based metrics. The answer key holds, for each
problem, the hand-rounded answer, the exact value and the step table of
:func:`rankmetrics.explain`. The same seed always gives byte-identical files (no
dates, no set iteration order). Answers are computed by the package's public
functions, never by this package.

The parts: :mod:`.draw` draws the problems, :mod:`.sheet` holds a problem and a
sheet, :mod:`.render` lays out the student's sheet and the teacher's key (Markdown
and printable HTML), :mod:`.grading` marks a student's answers. :mod:`.recsys` draws the two
recommender sheets (sampled vs exact HR@K; coverage, novelty and ARP) on the same renderer.
"""

from __future__ import annotations

from .draw import MAX_COUNT, make_worksheet, sheet_metrics, worksheet_commands
from .grading import GradeReport
from .recsys import RecsysWorksheet, make_recsys_worksheet
from .sheet import Problem, Worksheet

__all__ = [
    "MAX_COUNT",
    "GradeReport",
    "Problem",
    "RecsysWorksheet",
    "Worksheet",
    "make_recsys_worksheet",
    "make_worksheet",
    "sheet_metrics",
    "worksheet_commands",
]
