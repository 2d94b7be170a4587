"""The page's JavaScript step tables (book/_static/rankexplain.js) against the package, without a browser.

The same comparison as ``tests/browser/test_rankexplain_port.py``, on the same
12,032 inputs from the same generator (``tests/browser/rankexplain_cases.py``),
but run in V8 embedded in Python (the ``mini-racer`` package), so it needs
neither Chromium nor Node. rankexplain.js is an IIFE that touches no DOM: it puts
``RankExplain`` on ``window`` when there is one, so the engine gets the smallest
window there is, the global object itself (as in a browser). Before it, the
engine runs the data file the book build writes (``book/_ext/rankexplain_data.py``,
written here the same way): the script's words and the registry's metrics.

Skipped only when mini_racer is not installed (``pip install mini-racer``).
"""

from __future__ import annotations

import importlib.util
import json
import time
from pathlib import Path

import pytest

import rankmetrics as rm
from rankmetrics.teaching import catalogue

mini_racer = pytest.importorskip(
    "py_mini_racer",
    reason="mini_racer is not installed (pip install mini-racer): no V8 to run rankexplain.js in",
)

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "book" / "_static" / "rankexplain.js"


def _load(name: str, path: Path):
    """A module of the tests' browser folder or of the book's extensions, imported by path."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


cases = _load("rankexplain_cases", ROOT / "tests" / "browser" / "rankexplain_cases.py")
data_file = _load("rankexplain_data", ROOT / "book" / "_ext" / "rankexplain_data.py")


@pytest.fixture(scope="module")
def v8():
    """A V8 context with the data file and rankexplain.js loaded; ``run(js_body, argument)`` runs a
    script as Selenium would."""
    context = mini_racer.MiniRacer()
    context.eval("globalThis.window = globalThis;")
    context.eval(data_file.script())
    context.eval(SCRIPT.read_text(encoding="utf-8"))
    assert context.eval("typeof window.RankExplain") == "object"

    def run(body: str, argument):
        # The body is a Selenium script: it reads arguments[0] and returns a value.
        script = f"JSON.stringify((function () {{ {body} }})(JSON.parse({json.dumps(json.dumps(argument))})))"
        return json.loads(context.eval(script))

    return run


def test_port_matches_the_package_on_random_inputs(v8):
    forms = cases.comparison_forms()
    started = time.perf_counter()
    results = v8(cases.JS_RESULTS, forms)
    seconds = time.perf_counter() - started
    report = cases.compare(forms, results)
    assert len(forms) == 12_032
    print(
        f"\nrankexplain.js (V8) vs rankmetrics: {len(forms)} inputs ({report['refused']} refused), "
        f"largest difference {report['largest']:g}, JavaScript {seconds:.2f} s"
    )
    cases.assert_agree(report, forms)


def test_document_examples(v8):
    """The movie list (NDCG 완전 정복) to 3 places, the RAG article's O/X list with a one-decimal table."""
    movie, ox = v8(
        cases.JS_RESULTS,
        [
            cases.blank_form("ndcg", "3 0 3 2 0", decimals="3"),
            cases.blank_form("ndcg", "O X O X O", decimals="2", discountDecimals="1"),
        ],
    )
    with rm.use_language("ko"):
        e = rm.explain("ndcg", [3, 0, 3, 2, 0], decimals=3)
    assert movie["rounded"] == e.rounded == 0.910
    assert movie["tables"][0]["lines"][-1].endswith("= 5.361")
    assert movie["tables"][1]["lines"][-1].endswith("= 5.893")
    assert movie["tables"][2]["lines"][-1] == "손 계산: nDCG = 5.361 ÷ 5.893 = 0.910"
    assert ox["tables"][0]["lines"][-1].endswith("= 1.88") and ox["tables"][1]["lines"][-1].endswith("= 2.13")
    assert ox["rounded"] == 0.88
    assert [row["discount_rounded"] for row in ox["rows"]] == [1.0, 1.6, 2.0, 2.3, 2.6]
    assert (
        cases.differences(movie, cases.reference(cases.blank_form("ndcg", "3 0 3 2 0", decimals="3")))[0]
        == []
    )


def test_the_port_lists_the_registered_metrics(v8):
    cases.assert_registered(v8(cases.JS_METRICS, None))


def test_every_page_metric_has_a_port(v8):
    # Every metric registered with page=True has a step formula in rankexplain.js (and, through
    # cases.PORTED, random comparison cases: compare() asserts at least 100 each).
    implemented = v8("return RankExplain.implemented()", None)
    assert set(cases.PORTED) <= set(implemented), set(cases.PORTED) - set(implemented)
    assert set(cases.PORTED) == {t.name for t in catalogue.where(page=True)}


def test_grade_follows_worksheet_grade(v8):
    """RankExplain.grade marks answers as Worksheet.grade does: 정답, 반올림 차이, 오답, 빈칸."""
    inputs, expected = cases.grade_cases()
    got = v8(cases.JS_GRADES, inputs)
    assert [(c, g, e) for c, g, e in zip(inputs, got, expected, strict=True) if g != e] == []
