"""Every registered metric carries what the book's metric reference (지표 사전) prints.

The page (``book/metric_reference.md``, filled in by ``book/_ext/metric_reference.py``)
is written from each metric's :class:`~rankmetrics.teaching.catalogue.Reference`. A metric
registered without one, or with a paper, chapter or trec_eval file that does not
exist, fails here, before a book build would. The oracles are independent of the
registry: the bibliography files, the chapters' labels, the glossary's table, and
the list of trec_eval's measure files (usnistgov/trec_eval).
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from rankmetrics.registry import METRICS
from rankmetrics.teaching.catalogue import Reference, entry, symbol

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"

# trec_eval's measure files (m_*.c) in usnistgov/trec_eval, copied from its source tree.
TREC_EVAL_FILES = {
    "m_11pt_avg.c", "m_G.c", "m_P.c", "m_P_avgjg.c", "m_Rndcg.c", "m_Rprec.c", "m_Rprec_mult.c",
    "m_Rprec_mult_avgjg.c", "m_binG.c", "m_bpref.c", "m_gm_bpref.c", "m_gm_map.c", "m_infap.c",
    "m_iprec_at_recall.c", "m_map.c", "m_map_avgjg.c", "m_map_cut.c", "m_ndcg.c", "m_ndcg_cut.c",
    "m_ndcg_p.c", "m_ndcg_rel.c", "m_num_nonrel_judged_ret.c", "m_num_q.c", "m_num_rel.c",
    "m_num_rel_ret.c", "m_num_ret.c", "m_rbp.c", "m_rbp_resid.c", "m_recall.c", "m_recip_rank.c",
    "m_rel_P.c", "m_relstring.c", "m_runid.c", "m_set_F.c", "m_set_P.c", "m_set_map.c",
    "m_set_recall.c", "m_set_rel_P.c", "m_success.c", "m_unjudged.c", "m_utility.c", "m_yaap.c",
}  # fmt: skip

# The file of each trec_eval measure name, as trec_eval's measures.c pairs them (name -> file).
TREC_FILE_OF = {
    "ndcg": "m_ndcg.c", "ndcg_cut": "m_ndcg_cut.c", "P": "m_P.c", "recall": "m_recall.c",
    "success": "m_success.c", "Rprec": "m_Rprec.c", "recip_rank": "m_recip_rank.c", "map": "m_map.c",
    "map_cut": "m_map_cut.c", "runid": "m_runid.c", "num_q": "m_num_q.c", "bpref": "m_bpref.c",
    "gm_bpref": "m_gm_bpref.c", "infAP": "m_infap.c", "iprec_at_recall": "m_iprec_at_recall.c",
    "11pt_avg": "m_11pt_avg.c", "Rprec_mult": "m_Rprec_mult.c", "utility": "m_utility.c",
    "binG": "m_binG.c", "G": "m_G.c", "ndcg_rel": "m_ndcg_rel.c", "Rndcg": "m_Rndcg.c",
    "relative_P": "m_rel_P.c", "set_P": "m_set_P.c", "set_relative_P": "m_set_rel_P.c",
    "set_recall": "m_set_recall.c", "set_map": "m_set_map.c", "set_F": "m_set_F.c",
    "num_nonrel_judged_ret": "m_num_nonrel_judged_ret.c", "rbp": "m_rbp.c", "rbp_resid": "m_rbp_resid.c",
    "unj": "m_unjudged.c", "relstring": "m_relstring.c", "num_ret": "m_num_ret.c",
    "num_rel": "m_num_rel.c", "num_rel_ret": "m_num_rel_ret.c", "gm_map": "m_gm_map.c",
    "dcg": "m_ndcg.c", "ideal_dcg": "m_ndcg.c",  # te_meas_dcg and te_meas_ideal_dcg live in m_ndcg.c
}  # fmt: skip


def _bib_keys() -> set[str]:
    keys = set()
    for path in BOOK.glob("*.bib"):
        keys |= set(re.findall(r"^@\w+\{([^,\s]+),", path.read_text(encoding="utf-8"), re.MULTILINE))
    return keys


def _labels() -> set[str]:
    """The MyST targets ``(label)=`` of every page in the book, notebooks and markdown."""
    target = re.compile(r"^\(([\w-]+)\)=\s*$", re.MULTILINE)
    labels = set()
    for path in BOOK.glob("*.md"):
        labels |= set(target.findall(path.read_text(encoding="utf-8")))
    for path in BOOK.glob("*.ipynb"):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "markdown":
                labels |= set(target.findall("".join(cell["source"])))
    return labels


def _glossary() -> dict[str, str]:
    """The glossary's abbreviation (without ``@K``) -> its Korean term, from its table."""
    terms = {}
    for line in (BOOK / "appendix_glossary.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[2] and not cells[2].startswith(("$", "`", "-")):
            terms[re.sub(r"@k$", "", cells[2], flags=re.IGNORECASE).lower()] = cells[0]
    return terms


@pytest.fixture(scope="module")
def reference_page():
    spec = importlib.util.spec_from_file_location("metric_reference", BOOK / "_ext" / "metric_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("metric", METRICS.values(), ids=METRICS)
def test_every_metric_has_its_reference(metric):
    # Optional for a metric, but the book lists every metric of the package: each has its entry.
    ref = entry(metric.name).reference if entry(metric.name) else None
    assert isinstance(ref, Reference), f"{metric.name} has no teaching entry with reference=Reference(...)"
    assert ref.korean.strip() and ref.formula.strip() and ref.conventions.strip()
    assert "$$" not in ref.formula  # the page adds the display-math fence
    assert re.search(r"다(\([^()]*\))?\.$", ref.conventions), "합니다체: the last sentence ends in ...다."
    assert ref.papers and ref.chapter.startswith("ch-")


def test_papers_chapters_and_files_exist():
    keys, labels = _bib_keys(), _labels()
    assert {"jarvelin2002cumulated", "trec_eval", "moffat2008rank"} <= keys and "ch-dcg_ndcg" in labels
    problems = []
    for m in METRICS.values():
        problems += [
            f"{m.name}: no bibliography entry {k!r}" for k in entry(m.name).reference.papers if k not in keys
        ]
        if entry(m.name).reference.chapter not in labels:
            problems.append(f"{m.name}: no chapter label {entry(m.name).reference.chapter!r}")
        problems += [
            f"{m.name}: {f} is not a trec_eval file"
            for f in entry(m.name).reference.trec_files
            if f not in TREC_EVAL_FILES
        ]
    assert problems == []


@pytest.mark.parametrize("metric", METRICS.values(), ids=METRICS)
def test_trec_files_are_those_of_the_trec_eval_names(metric):
    """One file per distinct trec_eval name, and none for a metric trec_eval does not have."""
    names = dict.fromkeys(n for n in (metric.trec_name, metric.trec_cutoff_name) if n)
    assert entry(metric.name).reference.trec_files == tuple(TREC_FILE_OF[n] for n in names)


def test_trec_file_examples():
    by_name = {m.name: entry(m.name).reference.trec_files for m in METRICS.values()}
    assert by_name["ndcg"] == ("m_ndcg.c", "m_ndcg_cut.c")
    assert by_name["inferred_ap"] == ("m_infap.c",)
    assert by_name["relative_precision"] == ("m_rel_P.c",)
    assert by_name["f1"] == by_name["judged_fraction"] == by_name["expected_reciprocal_rank"] == ()


def test_korean_names_are_the_glossarys():
    """Where the glossary has the metric's abbreviation, the page uses the glossary's Korean term."""
    glossary = _glossary()
    assert glossary["ndcg"] == "정규화 할인 누적 이득" and glossary["r"] == "재현율"  # the table was read
    checked = {}
    for m in METRICS.values():
        for name in (symbol(m.name), m.label, m.trec_name, m.ir_name):
            if name and name.lower() in glossary:
                checked[m.name] = (entry(m.name).reference.korean, glossary[name.lower()])
                break
    assert {"ndcg", "precision", "recall", "hit_rate", "average_precision", "mse", "bpref"} <= set(checked)
    assert {name: pair for name, pair in checked.items() if pair[0] != pair[1]} == {}


def test_the_page_lists_every_metric_once(reference_page):
    body = reference_page.page_body()
    assert f"등록된 지표는 모두 {len(METRICS)}개입니다." in body
    for name, m in METRICS.items():
        assert body.count(f"(metric-{name})=\n") == 1
        assert f"$$\n{entry(m.name).reference.formula}\n$$" in body
        assert f"{{ref}}`{entry(m.name).reference.chapter}`" in body
    ndcg = reference_page.entry(METRICS["ndcg"])
    assert "### nDCG: 정규화 할인 누적 이득" in ndcg
    assert "| 함수 | `rm.ndcg(x, k=None, *, gain='linear', ideal=None, relevant=None)` |" in ndcg
    assert "| trec_eval 이름 | `ndcg`, `ndcg_<등급>=<이득>,…`, `ndcg_cut_k` |" in ndcg
    assert "| ir_measures 이름 | `nDCG`, `nDCG@k`; 매개변수 `dcg` |" in ndcg
    assert "| 출처 | {cite:t}`jarvelin2002cumulated`; {cite:t}`burges2005learning` |" in ndcg
    gm_map = reference_page.entry(METRICS["gm_map"])
    assert "$10^{-5}$ 아래로 내리지 않음); `all` 줄에만 나옵니다 |" in gm_map
    assert "| 함수 |" not in gm_map


def test_a_metric_without_a_reference_stops_the_page(reference_page):
    references = {name: entry(name).reference for name in METRICS if name != "ndcg"}
    with pytest.raises(ValueError, match=r"without a Reference record.*'ndcg'"):
        reference_page.page_body(METRICS, references)
