"""Two recommender worksheets: sampled versus exact HR@K, and coverage, novelty and ARP.

``make_recsys_worksheet(seed, kind="sampled")`` draws problems with
``numpy.random.default_rng(seed)`` as :func:`~rankmetrics.make_worksheet` does, and writes
the same four files (sheet and key, Markdown and printable HTML) through the same renderer.

- ``"sampled"``: a held-out item's full rank R in a catalogue of N items, n sampled
  negatives and a cutoff k. The student finds the exact HR@k (is R within the top k?) and
  the expected sampled HR@k, P(X <= k - 1) with X the number of sampled negatives that the
  model ranks above the held-out item. The numbers are small (N <= 12, n <= 4, k <= 2), so
  the hypergeometric counts C(R - 1, x) C(N - R, n - x) are a few products of small binomial
  coefficients, and the answer is one division of whole numbers.
- ``"beyond"``: three users' lists on a catalogue of six or seven items with interaction
  counts that add up to 16, so each recommended item's self-information −log2(count / 16)
  is a whole number of bits. The student finds coverage, novelty and ARP.

The answers on the key come from the package's public functions
(:func:`rankmetrics.hit_rate`, :func:`rankmetrics.sampled_expectation`,
:func:`rankmetrics.coverage`, :func:`rankmetrics.novelty`,
:func:`rankmetrics.average_popularity`). The key's step table is the hand calculation, in
whole numbers (ways of drawing the negatives; counts and bits); the tests hold it to the
package's probabilities and values.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ... import _validation as v
from ...i18n import LANGUAGES, _, use_language
from ...metrics.beyond_accuracy import average_popularity, coverage, novelty
from ...metrics.sampled import sampled_expectation
from ...metrics.set_based import hit_rate
from ..numbers import hand_text
from .draw import MAX_COUNT
from .grading import GradeReport, grade_lists
from .render import BLANK, html_page, markdown, places
from .sheet import write_files

__all__ = ["KINDS", "BeyondProblem", "RecsysWorksheet", "SampledProblem", "make_recsys_worksheet"]

#: The two kinds of sheet.
KINDS = ("sampled", "beyond")
_ITEMS = "ABCDEFG"
#: Interaction counts of the catalogue's items with a count above 0: each adds up to 16, so every
#: share is a power of 1/2 and −log2(share) is a whole number of bits (8 of 16 is 1 bit, 1 of 16 is 4).
_PROFILES = ((8, 4, 2, 1, 1), (4, 4, 4, 2, 1, 1), (8, 2, 2, 2, 1, 1), (4, 4, 2, 2, 2, 1, 1))
_TOTAL = 16
_USERS = ("u1", "u2", "u3")
_REDRAWS = 12


# ---------------------------------------------------------------------------
# the problems


@dataclass(frozen=True)
class SampledProblem:
    """A held-out item at full rank ``rank`` among ``n_items``, ranked again among ``n_negatives`` negatives."""

    number: int
    n_items: int
    rank: int
    n_negatives: int
    k: int

    @property
    def exact(self) -> float:
        """HR@k over the whole catalogue: the held-out item is the only relevant one, at ``rank``."""
        ranking = np.zeros(self.n_items)
        ranking[self.rank - 1] = 1
        return hit_rate(ranking, k=self.k)

    @property
    def sampled(self) -> float:
        """The expected HR@k among the held-out item and ``n_negatives`` sampled items (the package's)."""
        return float(sampled_expectation(f"HR@{self.k}", [self.rank], self.n_items, self.n_negatives)[0])

    @property
    def above(self) -> int:
        return self.rank - 1

    @property
    def below(self) -> int:
        return self.n_items - self.rank

    @property
    def draws(self) -> int:
        """C(N − 1, n): the ways of drawing the negatives, all equally likely."""
        return math.comb(self.n_items - 1, self.n_negatives)

    def ways(self, x: int) -> int:
        """C(R − 1, x) · C(N − R, n − x): the draws that catch exactly x of the items above."""
        return math.comb(self.above, x) * math.comb(self.below, self.n_negatives - x)

    def hits(self) -> int:
        """The draws in which the held-out item stays in the top k: x = 0 .. k − 1 items above it."""
        return sum(self.ways(x) for x in range(self.k))

    def answers(self) -> dict[str, float]:
        return {
            _("exact HR@{k}").format(k=self.k): self.exact,
            _("sampled HR@{k}").format(k=self.k): self.sampled,
        }


@dataclass(frozen=True)
class BeyondProblem:
    """Three users' lists on a small catalogue with interaction counts."""

    number: int
    catalog: tuple[str, ...]
    counts: dict[str, int]
    lists: dict[str, list[str]]

    @property
    def coverage(self) -> float:
        return coverage(self.lists, self.catalog)

    @property
    def novelty(self) -> float:
        return novelty(self.lists, self.counts)

    @property
    def arp(self) -> float:
        return average_popularity(self.lists, self.counts)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def bits(self, item: str) -> int:
        """−log2(count / total), a whole number here (the counts are powers of 2 of a total of 16)."""
        share = self.counts[item] / self.total
        bits = -math.log2(share)
        assert bits == round(bits), (item, share)
        return round(bits)

    def answers(self) -> dict[str, float]:
        return {_("coverage"): self.coverage, _("novelty (bits)"): self.novelty, "ARP": self.arp}


# ---------------------------------------------------------------------------
# drawing


def _draw_sampled(number: int, rng: np.random.Generator) -> SampledProblem:
    n_items = int(rng.integers(8, 13))
    n_negatives = int(rng.integers(3, 5))
    k = int(rng.integers(1, 3))
    # Below the top k (the exact HR@k is 0), and with at least n items under it, so that a draw
    # of only lower items (x = 0) is possible: the sampled HR@k is never 0.
    rank = int(rng.integers(k + 1, n_items - n_negatives + 1))
    return SampledProblem(number, n_items, rank, n_negatives, k)


def _draw_beyond(number: int, rng: np.random.Generator) -> BeyondProblem:
    profile = _PROFILES[int(rng.integers(len(_PROFILES)))]
    size = min(len(_ITEMS), len(profile) + 1)  # one item nobody has interacted with, when it fits
    catalog = tuple(_ITEMS[:size])
    order = [str(item) for item in rng.permutation(list(catalog))]
    counts = {item: count for item, count in zip(order, profile)}
    counts = {item: counts[item] for item in catalog if item in counts}  # catalogue order
    known = list(counts)
    weights = np.array([counts[item] for item in known], dtype=float)
    lists = {}
    for user in _USERS:
        length = int(rng.integers(2, 4))
        # drawn in proportion to popularity, as a popularity-biased recommender would
        chosen = rng.choice(len(known), size=length, replace=False, p=weights / weights.sum())
        lists[user] = [known[int(i)] for i in chosen]
    return BeyondProblem(number, catalog, counts, lists)


def make_recsys_worksheet(
    seed: int,
    kind: str = "sampled",
    count: int = 3,
    *,
    decimals: int = 3,
    language: str = "ko",
    label: str = "",
) -> RecsysWorksheet:
    """Draw a recommender worksheet: ``kind="sampled"`` (sampled vs exact HR@k) or ``"beyond"``.

    Parameters
    ----------
    seed : non-negative int
        The same seed gives the same problems and byte-identical files.
    kind : {"sampled", "beyond"}
    count : positive int, at most ``MAX_COUNT``
    decimals : int from 0 to 15
        Decimals of the answers.
    language : {"ko", "en"}
    label : str
        Printed in front of both titles (e.g. "수업 4").

    Returns
    -------
    RecsysWorksheet
        ``.problems``, ``.problem_markdown``, ``.answer_markdown``, ``.problem_html``,
        ``.answer_html``, ``.write(folder)``, ``.grade(answers)``, as a ranking worksheet has.

    Examples
    --------
    >>> sheet = make_recsys_worksheet(seed=4, kind="sampled", count=2)
    >>> [(p.n_items, p.rank, p.n_negatives, p.k) for p in sheet.problems]
    [(11, 5, 4, 2), (12, 3, 4, 2)]
    >>> [round(p.sampled, 4) for p in sheet.problems]
    [0.4524, 0.8909]
    >>> [row["verdict"] for row in sheet.grade({1: [0, 0.452], 2: [0, 0.5]}).rows]
    ['정답', '정답', '정답', '오답']
    """
    if language not in LANGUAGES:
        raise ValueError(
            _("language must be one of {choices}; got {value}").format(
                choices=", ".join(LANGUAGES), value=v.show(language)
            )
        )
    kind = v.check_choice(kind, "kind", KINDS)
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(_("seed must be a non-negative integer; got {value}").format(value=v.show(seed)))
    if (
        isinstance(count, (bool, np.bool_))
        or not isinstance(count, numbers.Integral)
        or not 1 <= count <= MAX_COUNT
    ):
        raise ValueError(
            _("count must be a positive integer up to {most} (one sheet, not a book); got {value}").format(
                most=MAX_COUNT, value=v.show(count)
            )
        )
    decimals = v.check_decimals(decimals)
    if not isinstance(label, str) or "\n" in label:
        raise ValueError(
            _("label must be one line of text, e.g. a lesson's name; got {value}").format(value=v.show(label))
        )
    rng = np.random.default_rng(int(seed))
    draw = _draw_sampled if kind == "sampled" else _draw_beyond
    problems: list[Any] = []
    seen: set = set()
    for number in range(1, int(count) + 1):
        for _attempt in range(
            _REDRAWS
        ):  # problems of one sheet with different answers, where there are enough
            problem = draw(number, rng)
            answers = tuple(round(value, decimals) for value in problem.answers().values())
            if answers not in seen:
                break
        seen.add(answers)
        problems.append(problem)
    return RecsysWorksheet(int(seed), kind, decimals, tuple(problems), language, label.strip())


# ---------------------------------------------------------------------------
# the sheet and the key


@dataclass(frozen=True)
class RecsysWorksheet:
    """A recommender worksheet and its key, as Markdown and printable HTML (see :class:`Worksheet`)."""

    seed: int
    kind: str
    decimals: int
    problems: tuple[Any, ...]
    language: str = "ko"
    label: str = ""

    def _titled(self, title: str) -> str:
        return f"{self.label} · {title}" if self.label else title

    def _topic(self) -> str:
        if self.kind == "sampled":
            return _("sampled and exact HR@K")
        return _("coverage · novelty · ARP")

    def sheet_title(self) -> str:
        return self._titled(_("Recommender evaluation worksheet: {topic}").format(topic=self._topic()))

    def key_title(self) -> str:
        return self._titled(
            _("Recommender evaluation worksheet, answer key (for the teacher, seed {seed}): {topic}").format(
                seed=self.seed, topic=self._topic()
            )
        )

    def sheet_blocks(self) -> list[tuple]:
        blocks: list[tuple] = [
            ("h1", self.sheet_title()),
            (
                "fields",
                _("Name: {long}    Class: {blank}    No.: {blank}").format(long=BLANK * 3, blank=BLANK),
            ),
            ("p", self._rounding()),
            *self._rules(),
        ]
        for problem in self.problems:
            blocks.append(("h2", _("Problem {number}.").format(number=problem.number)))
            blocks.extend(self._given(problem))
            blocks.extend(self._blank(problem))
            blocks.append(("p", "    ".join(f"{name} = {BLANK}" for name in problem.answers())))
        return blocks

    def key_blocks(self) -> list[tuple]:
        d = self.decimals
        names = list(self.problems[0].answers())
        blocks: list[tuple] = [
            ("h1", self.key_title()),
            (
                "p",
                _(
                    "Every value is the package's; the hand calculation below keeps whole numbers and divides "
                    "once, so it gives the same answer. The seed that makes the same sheet again: {seed}."
                ).format(seed=self.seed),
            ),
            (
                "table",
                [_("problem"), *names],
                [
                    [str(p.number), *(hand_text(value, d) for value in p.answers().values())]
                    for p in self.problems
                ],
            ),
        ]
        for problem in self.problems:
            blocks.append(("h2", _("Problem {number}.").format(number=problem.number)))
            blocks.extend(self._given(problem))
            blocks.extend(self._steps(problem))
            blocks.append(
                (
                    "p",
                    "    ".join(
                        f"{name} = {hand_text(value, d)}" for name, value in problem.answers().items()
                    ),
                )
            )
        return blocks

    # -- what each kind prints

    def _rounding(self) -> str:
        """Whole numbers until one division at the end: the hand answer is then the exact one, rounded."""
        if self.kind == "sampled":
            rule = _(
                "Keep the numbers of draws as whole numbers and divide once, at the end; round only the answer, "
                "to {places} (5 and up rounds up)."
            )
        else:
            rule = _(
                "Keep counts as whole numbers and means as fractions (11 ÷ 3), and round only the answer, "
                "to {places} (5 and up rounds up)."
            )
        return rule.format(places=places(self.decimals))

    def _rules(self) -> list[tuple]:
        if self.kind == "sampled":
            return [
                (
                    "p",
                    _(
                        "Sampled evaluation ranks each user's held-out item among itself and n negatives drawn at "
                        "random, without replacement, from the other N − 1 items of the catalogue. Of those, R − 1 "
                        "are above the held-out item (its full rank is R) and N − R below it."
                    ),
                ),
                (
                    "p",
                    _(
                        "If the sample catches x of the items above, the held-out item's rank in the sample is "
                        "1 + x. The draws that catch exactly x: C(R − 1, x) × C(N − R, n − x), out of C(N − 1, n) "
                        "draws, all equally likely. C(a, b) = a! ÷ (b! × (a − b)!), e.g. C(5, 2) = 10."
                    ),
                ),
                (
                    "p",
                    _(
                        "Sampled HR@k = (the draws with x ≤ k − 1) ÷ C(N − 1, n). The exact HR@k looks at the "
                        "full rank: 1 if R ≤ k, otherwise 0."
                    ),
                ),
            ]
        return [
            (
                "p",
                _(
                    "Coverage = the items recommended to anyone ÷ the items of the catalogue. Novelty of an item = "
                    "−log2(its interactions ÷ all interactions), in bits (a share of 1/4 is 2 bits). ARP = the mean "
                    "interaction count of the items in a list."
                ),
            ),
            (
                "p",
                _(
                    "Novelty and ARP take each list's mean first, then the mean over the users. An item with no "
                    "interactions is in the catalogue but is never recommended."
                ),
            ),
        ]

    def _given(self, problem: Any) -> list[tuple]:
        if self.kind == "sampled":
            return [
                (
                    "p",
                    _(
                        "The catalogue has N = {n_items} items. Ranking the whole catalogue, the model puts the "
                        "user's held-out item at rank R = {rank}. The evaluation draws n = {n_negatives} negatives. "
                        "Find the exact HR@{k} and the expected sampled HR@{k}."
                    ).format(
                        n_items=problem.n_items,
                        rank=problem.rank,
                        n_negatives=problem.n_negatives,
                        k=problem.k,
                    ),
                )
            ]
        counts = [[_("interactions")] + [str(problem.counts.get(item, 0)) for item in problem.catalog]]
        lists = [[user, ", ".join(items)] for user, items in problem.lists.items()]
        return [
            ("table", [_("item")] + list(problem.catalog), counts),
            ("p", _("All interactions: {total}.").format(total=problem.total)),
            ("table", [_("user"), _("recommended list")], lists, ["left", "left"]),
            ("p", _("Find the coverage, the novelty and the ARP of the three lists.")),
        ]

    def _blank(self, problem: Any) -> list[tuple]:
        if self.kind == "sampled":
            rows = [[str(x)] for x in range(problem.k)]
            return [
                ("p", _("C(N − 1, n) = {blank}").format(blank=BLANK)),
                (
                    "blank",
                    _("step table"),
                    [_("x (items above caught)"), _("draws"), _("rank in the sample")],
                    rows,
                ),
            ]
        rows = [[user] for user in problem.lists]
        return [
            ("p", _("Items recommended to anyone: {blank}    count: {blank}").format(blank=BLANK)),
            (
                "blank",
                _("step table"),
                [
                    _("user"),
                    _("interactions of each item"),
                    _("bits of each item"),
                    _("mean count"),
                    _("mean bits"),
                ],
                rows,
            ),
        ]

    def _steps(self, problem: Any) -> list[tuple]:
        if self.kind == "sampled":
            rows = [
                [
                    str(x),
                    f"C({problem.above}, {x}) × C({problem.below}, {problem.n_negatives - x}) = {problem.ways(x)}",
                    str(1 + x),
                ]
                for x in range(problem.k)
            ]
            return [
                (
                    "p",
                    _("C(N − 1, n) = C({others}, {n}) = {draws}").format(
                        others=problem.n_items - 1, n=problem.n_negatives, draws=problem.draws
                    ),
                ),
                ("table", [_("x (items above caught)"), _("draws"), _("rank in the sample")], rows),
                (
                    "p",
                    _(
                        "Sampled HR@{k} = {hits} ÷ {draws}. Exact HR@{k}: the full rank {rank} is below the top {k}, "
                        "so 0."
                    ).format(k=problem.k, hits=problem.hits(), draws=problem.draws, rank=problem.rank),
                ),
            ]
        recommended = sorted({item for items in problem.lists.values() for item in items})
        rows = []
        for user, items in problem.lists.items():
            counts = [problem.counts[item] for item in items]
            bits = [problem.bits(item) for item in items]
            rows.append(
                [
                    user,
                    " + ".join(map(str, counts)),
                    " + ".join(map(str, bits)),
                    f"{sum(counts)} ÷ {len(items)}",
                    f"{sum(bits)} ÷ {len(items)}",
                ]
            )
        users = len(problem.lists)
        count_means = " + ".join(f"{row[3]}" for row in rows)
        bit_means = " + ".join(f"{row[4]}" for row in rows)
        return [
            (
                "p",
                _("Items recommended to anyone: {items} ({count} of {size})").format(
                    items=", ".join(recommended), count=len(recommended), size=len(problem.catalog)
                ),
            ),
            ("p", _("Coverage = {count} ÷ {size}").format(count=len(recommended), size=len(problem.catalog))),
            (
                "table",
                [
                    _("user"),
                    _("interactions of each item"),
                    _("bits of each item"),
                    _("mean count"),
                    _("mean bits"),
                ],
                rows,
                ["left", "left", "left", "left", "left"],
            ),
            ("p", _("Novelty = ({means}) ÷ {users}").format(means=bit_means, users=users)),
            ("p", _("ARP = ({means}) ÷ {users}").format(means=count_means, users=users)),
        ]

    # -- the files

    @property
    def problem_markdown(self) -> str:
        with use_language(self.language):
            return markdown(self.sheet_blocks())

    @property
    def answer_markdown(self) -> str:
        with use_language(self.language):
            return markdown(self.key_blocks())

    @property
    def problem_html(self) -> str:
        with use_language(self.language):
            return html_page(self.sheet_title(), self.sheet_blocks(), self.language)

    @property
    def answer_html(self) -> str:
        with use_language(self.language):
            return html_page(self.key_title(), self.key_blocks(), self.language)

    def files(self) -> dict[str, str]:
        """File name -> content, as :meth:`Worksheet.files` names them."""
        stem = f"seed{self.seed}"
        return {
            f"worksheet-{stem}.md": self.problem_markdown,
            f"worksheet-{stem}.html": self.problem_html,
            f"answers-{stem}.md": self.answer_markdown,
            f"answers-{stem}.html": self.answer_html,
        }

    def write(self, out: str | Path, *, force: bool = False) -> list[Path]:
        """Write the sheet and the key into folder ``out`` (see :func:`~.sheet.write_files`)."""
        return write_files(self.files(), out, force=force)

    def grade(self, answers: Mapping[int, Any] | Sequence[Any]) -> GradeReport:
        """Mark a student's answers: one list per problem, its values in the order the problem asks them.

        ``{1: [0, 0.452], 2: [0, 0.891]}`` or ``[[0, 0.452], [0, 0.891], None]`` (``None`` for a problem
        left blank, or for one value of it); see :func:`~.grading.grade_lists`. The key of each value is
        the exact value rounded, which is also the hand calculation's answer.
        """
        with use_language(self.language):  # the report's labels, in the sheet's language
            asked = [(p.number, p.answers()) for p in self.problems]
        return grade_lists(asked, self.decimals, answers, self.language)
