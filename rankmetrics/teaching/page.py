"""What the book's in-page scripts read: their data file, built from the registry and the catalogue.

The scripts of the book's pages (``book/_static/rankexplain.js``, the port of the step
tables, and the widgets on it: ``hand_checker.js``, ``answer_box.js``,
``ranking_playground.js``) hold logic only. Every word they show is an English message
id in a ``_()`` call, as the Python writes it, and every fact about a metric (its
command, symbol, cutoff rule, step-table family, Korean name, whether the page computes
it) is the registry's. The book build writes :func:`page_data` into
``rankexplain_data.js`` (``book/_ext/rankexplain_data.py``), which the pages load first.

Most of the scripts' texts are the package's own (step-table labels, verdicts, the
command line's refusals); :data:`PAGE_TEXTS` holds the few that only the page shows
(form labels, hints, the playground's words), so that Babel finds them here and the
catalogue holds their Korean. ``tests/package/test_page_data.py`` binds the scripts,
this list and the catalogue together.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..i18n import N_, _, use_language
from ..metrics.conventions import GAINS
from ..registry import METRICS
from .catalogue import Teaching, entry

#: The language of the book's pages.
PAGE_LANGUAGE = "ko"

#: Texts that only the page's scripts show (the rest are the package's own message ids).
PAGE_TEXTS = (
    # hand_checker.js: the form, and what it says about the reader's answer
    N_("hand-calculation checker"),
    N_("metric"),
    N_("ranked list (from rank 1)"),
    N_("Grades 3 0 3 2 0, O/X as O X O X O, or item names A B C D E, separated by spaces."),
    N_("relevant items (when writing item names)"),
    N_("name:grade; without a grade, 1 (e.g. B D:3 F). Left empty, the list reads as grades."),
    N_("k (cutoff)"),
    N_("the whole list"),
    N_("default (the list's grades for grades, every judgement for item names)"),
    N_("every judged item (judged)"),
    N_("only the listed items (listed)"),
    N_("grades of every judged item"),
    N_(
        "When choosing 'every judged item' in the grades form: every grade, relevant items outside "
        "the list included (e.g. 3 3 2 1)."
    ),
    N_("decimals of the hand calculation"),
    N_("0–15. Left empty, only the exact value is shown."),
    N_("decimals of the discount table"),
    N_("as the decimals"),
    N_("To round log2(rank+1) separately (e.g. 1)."),
    N_("my answer (optional)"),
    N_("Type the value you got by hand to see whether it is right, and where it parted."),
    N_("e.g. {example}"),
    N_("Calculate"),
    N_("error: {message}"),
    N_(" · by hand ({places} decimals) {value}"),
    N_("my answer {answer}: {verdict}"),
    N_(". my answer {verdict}"),
    N_(
        "Every cell of the step table rounds the same as the exact value. Check the last division "
        "or the copying."
    ),
    N_("The same calculation in a terminal:"),
    N_("not a number"),
    N_("rounded to {places}, it is {value}"),
    N_("the exact value is {value}"),
    # answer_box.js
    N_("write a number (e.g. {example})"),
    N_("{verdict}: rounded to {places}, it is {value}"),
    # ranking_playground.js
    N_("Click a card to cycle its grade 0→1→2→3→0."),
    N_("Click a card to switch it between relevant and not relevant."),
    N_(
        "Move a card with the ▲/▼ buttons, the ↑/↓ keys on the card, or by dragging the ⠿ handle. "
        "Below the dotted line is outside the top k."
    ),
    N_("Start again"),
    N_("is relevant"),
    N_("not relevant"),
    N_("grade {grade}"),
    N_("not relevant (0)"),
    N_("rank {rank}: item {name}, {state}"),
    N_(", {share} of nDCG@{k}"),
    N_(", outside the top {k}"),
    N_("item {name}"),
    N_("{share} of nDCG@{k}"),
    N_("move item {name} up"),
    N_("move item {name} down"),
    N_("rank {rank}, item {name}: {state}"),
    N_("moved item {name} to rank {rank}"),
    N_("back to the start"),
)


def metric_table() -> dict[str, dict[str, Any]]:
    """Every registered metric as the page's scripts read it, in registry order.

    ``page`` says whether the in-page checker computes it (its teaching entry's ``page``); the scripts
    keep only those, but the table lists every metric, so that a metric registered later
    is in the data file too.
    """
    table = {}
    for m in METRICS.values():
        taught = entry(m.name) or Teaching(
            m.name
        )  # a metric without an entry: no step table, not on the page
        table[m.name] = {
            "command": m.command,
            "label": m.label,
            "symbol": taught.symbol or m.label,
            "cutoff": m.cutoff,
            "family": taught.explain,
            "inputs": m.inputs,
            "keywords": list(m.keywords),
            "korean": taught.reference.korean if taught.reference else None,
            "page": taught.page,
            "precision_at_hits": taught.precision_at_hits,
        }
    return table


def page_data(ids: Iterable[str], language: str = PAGE_LANGUAGE) -> dict[str, Any]:
    """The data file's content: the scripts' message ids in ``language``, and the metric table.

    ``ids`` are the message ids the scripts use (``book/_ext/rankexplain_data.py`` reads
    them from the scripts). An id the catalogue does not translate stays as it is.
    """
    with use_language(language):
        messages = {message: _(message) for message in sorted(set(ids))}
    return {"language": language, "gains": list(GAINS), "messages": messages, "metrics": metric_table()}
