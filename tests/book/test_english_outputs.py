"""English left in the book's outputs: the detector of ``book/_ext/english_outputs.py``, on strings,
on a page, and in a Sphinx build; and ``bookstyle.setup()`` setting the book's language."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import nbformat
import pytest

import rankmetrics as rm

BOOK = Path(__file__).resolve().parents[2] / "book"
sys.path.insert(0, str(BOOK))

import bookstyle


@pytest.fixture(scope="module")
def detector():
    spec = importlib.util.spec_from_file_location("english_outputs", BOOK / "_ext" / "english_outputs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def catalogue(detector):
    return detector.catalogue_patterns()


QRELS = {"q1": {"a": 1, "b": 0}}
RUN = {"q1": {"a": 0.5, "b": 0.9}}


def test_the_evaluation_table_in_english_is_found_and_in_korean_is_not(detector, catalogue):
    # The same table, printed in each language: the English one is what chapter 8 shows today.
    with rm.use_language("en"):
        english = str(rm.evaluate(QRELS, RUN, ["map"]))
    with rm.use_language("ko"):
        korean = str(rm.evaluate(QRELS, RUN, ["map"]))
    found = detector.catalogue_texts(english, *catalogue)
    assert "query" in found  # the header, alone in its cell
    assert any(text.startswith("query; relevance_level=1, ties=docno_descending, missing=") for text in found)
    assert detector.catalogue_texts(korean, *catalogue) == []
    assert detector.english_runs(korean, detector.metric_words()) == []


def test_the_conventions_card_in_english_is_found(detector, catalogue):
    from rankmetrics.trec.conventions import Conventions

    with rm.use_language("en"):
        card = Conventions.resolve(None).card()
    with rm.use_language("ko"):
        korean = Conventions.resolve(None).card()
    assert {"setting", "value", "from", "default"} <= set(detector.catalogue_texts(card, *catalogue))
    assert detector.catalogue_texts(korean, *catalogue) == []


@pytest.mark.parametrize(
    ("text", "runs"),
    [
        ("the step table cannot be made", ["the step table cannot be made"]),
        ("이 문장은 한국어입니다. nDCG@10과 P_5, n_relevant=3은 이름입니다.", []),
        ("ties=docno_descending, missing=skip, score_precision=float64", []),
        ("precision recall ndcg map", []),  # metric names, e.g. a table's header row
        ("linear exponential binary", []),  # the values of a setting
        ("map                   \tall\t0.1785", []),  # a trec_eval result line, shown on purpose
        ("Usage: trec_eval [-h] [-q] [-c] ... trec_rel_file trec_top_file", []),  # trec_eval -h
        ("두 단어 only two", []),  # two words are not yet a sentence
        ("a b b c", []),  # single letters in a row are item ids, not words
        ("every query's difference is the same, so it", ["difference is the same,"]),  # a comma ends a run
    ],
)
def test_english_runs_on_strings(detector, text, runs):
    assert detector.english_runs(text, detector.metric_words()) == runs


def test_output_text_reads_outputs_only(detector):
    html = (
        "<p>the prose is not an output at all</p>"
        '<div class="cell_output docutils container">'
        '<div class="output text_plain"><div class="highlight"><pre>the plain output is read</pre></div></div>'
        '<div class="output text_html"><style>tbody tr th { vertical-align: top }</style>'
        "<table><tr><th>query</th><th>map</th></tr><tr><td>q1</td><td>0.5</td></tr></table>"
        '<div class="highlight"><pre><span class="kn">import</span> rankmetrics as rm</pre></div>'
        "</div></div>"
        "<p>more prose after the output</p>"
    )
    text = detector.output_text(html)
    assert "the plain output is read" in text
    assert "\tquery\tmap" in text  # a table's cells are separated by tabs
    assert (
        "prose" not in text and "tbody" not in text and "import" not in text
    )  # prose, style and a code listing


def test_extension_warns_on_a_built_page(tmp_path):
    sphinx_application = pytest.importorskip("sphinx.application")
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(BOOK / '_ext')!r})\nextensions = ['english_outputs']\nlanguage = 'ko'\n",
        encoding="utf-8",
    )
    # myst-nb marks a cell's output with the class cell_output; a raw block stands in for it here.
    (source / "index.rst").write_text(
        "제목\n====\n\n.. raw:: html\n\n"
        '   <div class="cell_output"><pre>1 queries; relevance_level=1, ties=t, missing=skip</pre></div>\n'
        '   <div class="cell_output"><pre>질의 1개; relevance_level=1, ties=t, missing=skip</pre></div>\n',
        encoding="utf-8",
    )
    warnings = tmp_path / "warnings.txt"
    with warnings.open("w", encoding="utf-8") as stream:
        app = sphinx_application.Sphinx(
            str(source), str(source), str(tmp_path / "out"), str(tmp_path / "doctrees"), "html",
            status=None, warning=stream, freshenv=True,
        )  # fmt: skip
        app.build()
    logged = warnings.read_text(encoding="utf-8")
    assert "코드 셀 출력에 영어 문장이 있습니다: 'queries; relevance_level=1, ties=t, missing='" in logged
    assert logged.count("코드 셀 출력에 영어 문장이 있습니다") == 1  # the Korean line passes


def test_bookstyle_setup_makes_rankmetrics_speak_korean():
    before = list(rm.i18n._chosen)
    try:
        rm.set_language(None)
        bookstyle.setup()
        assert rm.language() == "ko"
    finally:
        rm.i18n._chosen[:] = before


def test_every_notebook_that_uses_rankmetrics_calls_setup_first(notebook):
    code = [cell.source for cell in nbformat.read(notebook, as_version=4).cells if cell.cell_type == "code"]
    uses = [i for i, source in enumerate(code) if "rankmetrics" in source]
    if not uses:
        pytest.skip("the notebook does not use rankmetrics")
    setup = [i for i, source in enumerate(code) if "bookstyle.setup()" in source]
    assert setup and setup[0] <= uses[0], "call bookstyle.setup() in the first cell that uses rankmetrics"
