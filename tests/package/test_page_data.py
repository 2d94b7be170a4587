"""The page's scripts hold logic only: their words come from the catalogue, their metrics from the registry.

book/_static/*.js write English message ids in _() calls; the data file the book build
writes (book/_ext/rankexplain_data.py) carries their Korean from the package's catalogue
and the registry's metric table (rankmetrics.teaching.page).
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

from babel.messages.pofile import read_po

from rankmetrics import i18n, registry
from rankmetrics.teaching import page

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "book" / "_static"
HANGUL = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]")


def _data_file():
    spec = importlib.util.spec_from_file_location(
        "rankexplain_data", ROOT / "book" / "_ext" / "rankexplain_data.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


data_file = _data_file()


def _catalogue() -> dict[str, str]:
    with (i18n.LOCALE_DIR / "ko" / "LC_MESSAGES" / "rankmetrics.po").open("rb") as f:
        return {m.id: m.string for m in read_po(f, locale="ko") if m.id}


def test_no_script_holds_a_korean_text():
    for name in data_file.SCRIPTS:
        lines = (STATIC / name).read_text(encoding="utf-8").splitlines()
        korean = [f"{name}:{i}: {line.strip()}" for i, line in enumerate(lines, 1) if HANGUL.search(line)]
        assert korean == []


def test_the_id_reader_finds_every_call():
    # One literal, several joined by +, an N_ constant; not a call on a name, nor a method's _.
    text = '_("a {b}") + N_("c") ; _(\n  "long " +\n  "id"\n) ; _(WORDS) ; x._("no") ; my_("no")'
    assert data_file.script_ids(text) == ["a {b}", "c", "long id"]
    # Every other _() in the scripts translates a constant whose ids are written with N_() (or is
    # the definition of _ itself): a new call on a variable must say where its ids are written.
    dynamic = []
    for name in data_file.SCRIPTS:
        dynamic += re.findall(r"(?<![\w$.])_\(([A-Za-z][^)]*)\)", (STATIC / name).read_text(encoding="utf-8"))
    assert sorted(dynamic) == sorted(
        [
            "id",
            "VERDICTS[result.key]",
            "word",
            "LEGEND",
            "GAIN_WORDS[gain]",
            "NONE",
            "RELEVANT_WORDS",
            "NONE",
            "NONE",
        ]
    )


def test_every_script_text_is_in_the_catalogue_with_its_korean():
    catalogue = _catalogue()
    used = {message for found in data_file.ids().values() for message in found}
    missing = sorted(used - set(catalogue))
    assert missing == []
    assert all(catalogue[message] for message in used & set(catalogue))
    # the page's own texts are all used
    assert set(page.PAGE_TEXTS) <= used


def test_the_data_file_carries_the_korean_and_the_registry():
    text = data_file.script()
    assert text.count("window.RankExplainData = ") == 1
    data = json.loads(text.split("window.RankExplainData = ", 1)[1].rstrip().rstrip(";"))
    assert data["language"] == "ko" and data["gains"] == ["linear", "exponential", "binary"]
    assert data["messages"]["{label} step table"] == "{label} 단계표"
    assert data["messages"]["rounding slip"] == "반올림 차이"
    assert data["messages"]["Calculate"] == "계산"
    assert list(data["metrics"]) == list(registry.METRICS)
    precision = data["metrics"]["precision"]
    assert precision == {
        "command": "precision",
        "label": "Precision",
        "symbol": "P",
        "cutoff": "required",
        "family": "hits",
        "inputs": "ranking",
        "keywords": [],
        "korean": "정밀도",
        "page": True,
        "precision_at_hits": False,
    }
    assert [name for name, m in data["metrics"].items() if m["page"]] == [
        "ndcg",
        "dcg",
        "precision",
        "recall",
        "f1",
        "hit_rate",
        "reciprocal_rank",
        "mean_rank",
        "average_precision",
    ]


def test_the_build_writes_the_data_file(tmp_path):
    path = data_file.write(tmp_path / "static")
    assert path.name == "rankexplain_data.js" and path.read_text(encoding="utf-8") == data_file.script()
