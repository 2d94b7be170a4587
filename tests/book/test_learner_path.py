"""The learner's path (issue 28): the findings of the outside read stay fixed.

Each test reads the committed notebooks (their prose and the values their hidden cells
glue) and recomputes the number the prose rests on by a second route: by hand in a
comment, or with plain ``math``.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import nbformat

BOOK = Path(__file__).resolve().parents[2] / "book"


def glued(name: str) -> dict[str, float]:
    """The numbers a notebook glues: key -> value (``glue(key, value, display=False)``)."""
    values = {}
    for cell in nbformat.read(BOOK / name, as_version=4).cells:
        for out in cell.get("outputs", []):
            scrap = out.get("metadata", {}).get("scrapbook")
            if scrap:
                text = out["data"][scrap["mime_prefix"] + "text/plain"]
                try:
                    values[scrap["name"]] = float(text)
                except ValueError:
                    values[scrap["name"]] = text
    return values


def markdown(name: str) -> str:
    """A page's prose: every markdown cell of a notebook, or a Markdown file."""
    path = BOOK / name
    if path.suffix == ".md":
        return path.read_text(encoding="utf-8")
    cells = nbformat.read(path, as_version=4).cells
    return "\n".join(c.source for c in cells if c.cell_type == "markdown")


def dcg(grades: list[int]) -> float:
    return sum(g / math.log2(i + 1) for i, g in enumerate(grades, start=1))


# ---------------------------------------------------------------- finding 1: rerankers


def test_reranker_counter_example_is_glued_and_true():
    # Candidates 3, 2, 1, 1, 1 and 95 zeros; the reranker shows [1, 1, 1, 0, 0].
    # NDCG-local: the list is already in its best order -> 1.
    # NDCG-recall: DCG 1 + 1/log2 3 + 1/2 = 2.1309 over the candidates' IDCG@5
    # 3 + 2/log2 3 + 1/2 + 1/log2 5 + 1/log2 6 = 5.5795 -> 0.3819.
    values = glued("06_ndcg_variants.ipynb")
    assert values["ndcg_variants_rerank_local"] == 1.0
    recall = dcg([1, 1, 1, 0, 0]) / dcg([3, 2, 1, 1, 1])
    assert abs(values["ndcg_variants_rerank_recall"] - recall) < 1e-12
    assert round(recall, 3) == 0.382


def test_no_page_recommends_ndcg_local_for_rerankers():
    pages = ["06_ndcg_variants.ipynb", "appendix_glossary.md", "07_diagnosis.ipynb", "cheatsheet.ipynb"]
    wrong = re.compile(r"재순위화[^.\n|]*NDCG-local이 (알맞|공정)|NDCG-local[^|\n]*; 재순위화 평가에 알맞")
    for page in pages:
        assert not wrong.search(markdown(page)), page
    glossary = markdown("appendix_glossary.md")
    recall_row = next(line for line in glossary.splitlines() if line.startswith("| NDCG-recall"))
    assert "재순위화" in recall_row


# ---------------------------------------------------------------- finding 2: A/B tests


def test_ab_test_is_not_called_an_offline_paired_comparison():
    chapter = markdown("08_many_queries.ipynb")
    box = chapter[chapter.index("(sec-many_queries-online)=") :]
    box = box[: box.index("```\n", box.index(":class:"))]
    for words in (
        "오프라인 평가",
        "온라인 A/B 테스트",
        "인터리빙",
        "한 시스템만",
        "두 표본 검정",
        "대응 검정",
    ):
        assert words in box, words
    # the seed's "A/B 테스트" numbers are said to be offline ones, in both chapters that use them
    assert "**오프라인** 값" in chapter
    assert '"A/B 테스트로 비교한다"는 말이 뜻을 가지려면' not in chapter
    assert "**넷플릭스 A/B 테스트**" not in markdown("06_ndcg_variants.ipynb")


# ---------------------------------------------------------------- finding 3: the playgrounds

PLAYGROUND = re.compile(r"```\{ranking-playground\}\n((?::\w+:.*\n)+)")


def playground_configs(name: str) -> list[dict]:
    """The {ranking-playground} directives of a notebook as the directive reads them."""
    configs = []
    for options in PLAYGROUND.findall(markdown(name)):
        found = dict(re.findall(r":(\w+):[ \t]*(.*)", options))
        grades = [float(g) for g in found["grades"].split()]
        relevant = max(int(found.get("relevant") or 0), sum(g > 0 for g in grades))
        configs.append({"grades": grades, "k": int(found["k"]), "relevant": relevant})
    return configs


def widget_start_values(configs: list[dict]) -> list[dict]:
    """What the playground script shows before a click, computed by the script itself in Node."""
    import importlib.util
    import shutil
    import subprocess

    import pytest

    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed: no JavaScript engine to run ranking_playground.js")
    spec = importlib.util.spec_from_file_location("rankexplain_data", BOOK / "_ext" / "rankexplain_data.py")
    data = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(data)
    program = "\n".join(
        [
            "globalThis.window = globalThis;",
            data.script(),
            (BOOK / "_static" / "rankexplain.js").read_text(encoding="utf-8"),
            (BOOK / "_static" / "ranking_playground.js").read_text(encoding="utf-8"),
            f"console.log(JSON.stringify({json.dumps(configs)}.map(RankingPlayground.startValues)));",
        ]
    )
    done = subprocess.run([node, "-"], input=program, capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def test_playgrounds_start_from_the_chapters_values():
    # O X O X O (and five X) with R = 4 relevant items, one outside the list:
    # R@5 = 3/4; AP = (1/1 + 2/3 + 3/5) / 4 = 0.5667;
    # nDCG = (1 + 1/2 + 1/log2 6) / (1 + 1/log2 3 + 1/2 + 1/log2 5) = 0.7366.
    ap = (1 + 2 / 3 + 3 / 5) / 4
    ndcg = dcg([1, 0, 1, 0, 1]) / dcg([1, 1, 1, 1])
    ch2, ch4, ch5 = glued("02_precision_recall.ipynb"), glued("04_map.ipynb"), glued("05_dcg_ndcg.ipynb")
    (two,), (four,) = playground_configs("02_precision_recall.ipynb"), playground_configs("04_map.ipynb")
    assert two["relevant"] == four["relevant"] == ch2["precision_recall_ox_total"] == ch4["map_R"] == 4
    shown_two, shown_four = widget_start_values([two, four])
    assert shown_two["recall"] == ch2["precision_recall_ox_r5"] == 0.75
    assert abs(shown_four["average_precision"] - ch4["map_ap_all"]) < 1e-12
    assert abs(shown_four["average_precision"] - ap) < 1e-12
    for shown in (shown_two, shown_four):
        assert abs(shown["ndcg"] - ch5["dcg_ndcg_ox_ndcg4"]) < 1e-12
        assert abs(shown["ndcg"] - ndcg) < 1e-12


def test_making_j_relevant_raises_ap_with_four_relevant():
    # J at rank 10 becomes the fourth relevant item: AP = (1 + 2/3 + 3/5 + 4/10) / 4 = 0.6667,
    # up from 0.5667. Divided by the three in the list instead, the start would be 0.7556.
    ch4 = glued("04_map.ipynb")
    (four,) = playground_configs("04_map.ipynb")
    with_j = dict(four, grades=four["grades"][:-1] + [1.0])
    before, after = widget_start_values([four, with_j])
    assert abs(before["average_precision"] - ch4["map_j_before"]) < 1e-12
    assert abs(after["average_precision"] - ch4["map_j_after"]) < 1e-12
    assert abs(ch4["map_j_after"] - (1 + 2 / 3 + 3 / 5 + 4 / 10) / 4) < 1e-12
    assert abs(ch4["map_j_in_list"] - (1 + 2 / 3 + 3 / 5) / 3) < 1e-12
    assert ch4["map_j_before"] < ch4["map_j_after"] < ch4["map_j_in_list"]
    prose = markdown("04_map.ipynb")
    assert "AP는 {glue:text}`map_j_before:.3f`에서 {glue:text}`map_j_after:.3f`로 오릅니다" in prose


# ---------------------------------------------------------------- finding 4: quiz 9


def test_quiz_9_says_when_only_the_moved_precision_changes():
    # [0, 1, 1, 0, 1] -> rank 5 to rank 1 -> [1, 0, 1, 1, 0]: the item at rank 2 goes to rank 3,
    # P 1/2 -> 2/3; the one at rank 3 to rank 4, P 2/3 -> 3/4. Neither item moved itself.
    values = glued("quiz.ipynb")
    assert values["quiz_ex9_between_p2"] == 1 / 2
    assert abs(values["quiz_ex9_between_p3_after"] - 2 / 3) < 1e-12
    assert abs(values["quiz_ex9_between_p3"] - 2 / 3) < 1e-12
    assert values["quiz_ex9_between_p4_after"] == 3 / 4
    prose = markdown("quiz.ipynb")
    assert "관련 문서 하나를 옮기면 바뀌는 것은 **옮긴 문서 자신의 정밀도**뿐입니다" not in prose
    assert "그 사이에 다른 관련 문서가 없으면" in prose


# ---------------------------------------------------------------- finding 5: chapter 8's caption


def test_chapter_8_quotes_the_caption_it_shows():
    nb = nbformat.read(BOOK / "08_many_queries.ipynb", as_version=4)
    captions = "".join(
        "".join(out.get("data", {}).get("text/html", ""))
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
    )
    prose = markdown("08_many_queries.ipynb")
    assert "Note for" not in prose and "Note for" not in captions
    quoted = re.search(r'표 설명 끝의 주\("([^"]+?) …"\)', prose).group(1)
    assert quoted in captions  # the note the prose points to is on the page
    if "two-sided" in captions:  # the caption prints compare's alternative= as given
        assert "`two-sided`는" in prose and "양쪽 검정" in prose


# ---------------------------------------------------------------- finding 7: chapter 1's RMSE drop


def test_rmse_drop_is_explained_by_the_two_errors():
    # Only items 6 and 7 change, so n * (RMSE_A^2 - RMSE_A'^2) is exactly the drop of their squared
    # errors: (0.85^2 + 0.9^2) - (0.3^2 + 0.4^2) = 1.2825 over the chapter's 10 items.
    v = glued("01_rating_errors.ipynb")
    squares = (v["rating_errors_ex4_err6_a"] ** 2 + v["rating_errors_ex4_err7_a"] ** 2) - (
        v["rating_errors_ex4_err6_a2"] ** 2 + v["rating_errors_ex4_err7_a2"] ** 2
    )
    assert abs(squares - 1.2825) < 1e-9
    n_items = squares / (v["rating_errors_ex4_rmse_a"] ** 2 - v["rating_errors_ex4_rmse_a2"] ** 2)
    assert abs(n_items - 10) < 1e-9
    prose = markdown("01_rating_errors.ipynb")
    assert "물러난 덕분" not in prose
    assert "RMSE는 목록을 보지 않으므로" in prose


# ---------------------------------------------------------------- finding 8: lost in the middle


def test_lost_in_the_middle_is_cited():
    prose = markdown("12_rag.ipynb")
    sentence = next(line for line in prose.splitlines() if "컨텍스트의 가운데" in line)
    assert "{cite}`liu2024lost`" in sentence
    bib = (BOOK / "references.bib").read_text(encoding="utf-8")
    entry = bib[bib.index("@article{liu2024lost,") :].split("\n}\n", 1)[0]
    assert (
        "Lost in the Middle" in entry
        and "Transactions of the Association for Computational Linguistics" in entry
    )
    assert "year      = {2024}" in entry


# ---------------------------------------------------------------- "분수로 끝까지" (the rounding rule)


def test_no_page_asks_for_fractions_to_the_end():
    # log2 3 has no fraction: the rule is "반올림하지 않고 끝까지" (round only at the end).
    pages = (
        sorted(BOOK.glob("*.ipynb")) + sorted(BOOK.glob("*.md")) + sorted((BOOK / "worksheets").rglob("*.md"))
    )
    for path in pages:
        text = (
            markdown(path.relative_to(BOOK).as_posix())
            if path.suffix == ".ipynb"
            else path.read_text("utf-8")
        )
        assert "분수로 끝까지" not in text, path.name


# ---------------------------------------------------------------- finding 6: the -1 message


def test_negative_grade_message_says_what_each_measure_does():
    import pytest

    import rankmetrics as rm

    with pytest.raises(ValueError) as raised:
        rm.ndcg([3, -1, 2])
    message = str(raised.value)
    assert "bpref" in message and "infAP" in message
    # What the message claims, checked on a query where d2 has grade -1: bpref scores as if d2
    # were not judged at all, infAP differently from both, MAP and P@5 as if d2 were non-relevant.
    run = {"q": {"d2": 3.0, "d3": 2.5, "d1": 2.0, "d4": 1.0, "d5": 0.5}}
    judged = {"d1": 1, "d3": 0, "d4": 0, "d5": 1}
    measures = ["bpref", "infAP", "map", "P_5"]
    pooled = rm.evaluate({"q": {**judged, "d2": -1}}, run, measures).summary
    nonrelevant = rm.evaluate({"q": {**judged, "d2": 0}}, run, measures).summary
    absent = rm.evaluate({"q": judged}, run, measures).summary
    assert pooled["bpref"] == absent["bpref"] != nonrelevant["bpref"]
    assert pooled["infAP"] not in (absent["infAP"], nonrelevant["infAP"])
    assert pooled["map"] == nonrelevant["map"] and pooled["P_5"] == nonrelevant["P_5"]


# ---------------------------------------------------------------- terms


def visible_code(name: str) -> list[str]:
    """The code cells a reader can see (shown, or folded behind a button)."""
    cells = nbformat.read(BOOK / name, as_version=4).cells
    hidden = {"remove-cell", "remove-input"}
    return [c.source for c in cells if c.cell_type == "code" and not hidden & set(c.metadata.get("tags", []))]


def test_visible_code_comments_are_korean():
    comment = re.compile(r'(?:^|\s)#\s+(.+)$|"""(.+?)(?:"""|$)')  # not "#1f77b4" or "# ..." in a string
    for path in sorted(BOOK.glob("*.ipynb")):
        for source in visible_code(path.name):
            for line in source.splitlines():
                found = comment.search(line)
                text = found and (found.group(1) or found.group(2))
                in_string = found and line[: found.start()].count('"') % 2 == 1
                words = r"[A-Za-z']{2,}"  # English prose: three words in a row (not code such as gamma=0.1)
                english = (
                    text and re.search(rf"{words} {words} {words}", text) and not re.search(r"[가-힣]", text)
                )
                english = english and not in_string
                assert not english, f"{path.name}: English comment {line.strip()!r}"


def test_one_spelling_of_hit_rate_and_no_signature_calque():
    for path in sorted(BOOK.glob("*.ipynb")) + sorted(BOOK.glob("*.md")):
        if path.name == "appendix_glossary.md":  # it names the synonyms
            continue
        text = markdown(path.name)
        assert not re.search(r"Hit ?Rate@", text), path.name  # the glossary's HR@K
        assert "결함 서명" not in text, path.name
    glossary = markdown("appendix_glossary.md")
    rows = {line.split("|")[1].strip(): line for line in glossary.splitlines() if line.startswith("| ")}
    assert "HitRate@K" in rows["적중률"] and "HR@K" in rows["적중률"]  # the synonyms are named
    assert "결함 서명" in rows["고장 패턴"]
    assert "정답" in rows["관련 문서(관련 항목)"]


def test_graded_examples_say_relevant_documents():
    # Graded lists (chapters 5, 6 and 12) say 관련 문서, not 정답 (kept for the O/X exercises).
    for page, gone in [
        ("05_dcg_ndcg.ipynb", ["정답이 많은 질의", "목록 안의 정답으로만"]),
        ("06_ndcg_variants.ipynb", ["유일한 정답", "질의 2의 정답"]),
        ("12_rag.ipynb", ["정답 문서"]),
    ]:
        prose = markdown(page)
        for words in gone:
            assert words not in prose, (page, words)


# ---------------------------------------------------------------- the measured goals

HANGUL = re.compile("[가-힣]")
CHAPTER_LIMIT = 5_000  # Hangul syllables of prose per chapter on the learner's main path
INTRO_LIMIT = 2_500
RECOMMENDER_FROM = 13  # chapters 13 and on (the recommender part) are not measured here


def prose_syllables(name: str) -> int:
    """Hangul syllables of the prose a reader sees: markdown cells, without MyST comment lines."""
    lines = markdown(name).splitlines()
    return sum(len(HANGUL.findall(line)) for line in lines if not line.lstrip().startswith("%"))


def main_path() -> list[str]:
    """The chapters of the book's parts 1 and 2 (기본 지표, 실무) in _toc.yml, recommender chapters left out."""
    import yaml

    toc = yaml.safe_load((BOOK.parent / "_toc.yml").read_text(encoding="utf-8"))
    files = [chapter["file"] for part in toc["parts"][:2] for chapter in part["chapters"]]
    names = [Path(file).name for file in files]
    number = re.compile(r"(\d+)_")
    return [
        f"{name}.ipynb"
        for name in names
        if not (number.match(name) and int(number.match(name).group(1)) >= RECOMMENDER_FROM)
    ]


def test_main_path_chapters_are_short_enough():
    chapters = main_path()
    assert "01_rating_errors.ipynb" in chapters and "08_many_queries.ipynb" in chapters
    sizes = {name: prose_syllables(name) for name in chapters}
    over = {name: size for name, size in sizes.items() if size > CHAPTER_LIMIT}
    assert not over, f"over {CHAPTER_LIMIT:,} syllables of prose: {over}"


def test_intro_is_short():
    assert prose_syllables("intro.ipynb") < INTRO_LIMIT


def test_the_counter_counts_syllables_only():
    assert len(HANGUL.findall("재현율(recall)은 0.75입니다.")) == 7  # 재 현 율 은 입 니 다


def test_no_ssiat_and_no_unknown_year_inline():
    undated = re.findall(
        r"@\w+\{(\w+),[^@]*?year\s*=\s*\{연도 미상\}", (BOOK / "references.bib").read_text("utf-8")
    )
    assert undated  # the Korean source posts have no year
    plain_cite = re.compile(r"\{cite(?::p|:t|:ps|:ts)?\}`([^`]*)`")
    pages = sorted(BOOK.glob("*.ipynb")) + sorted(BOOK.glob("*.md"))
    for path in pages:
        nb_text = path.read_text(encoding="utf-8")
        assert "씨앗" not in nb_text, path.name  # 시드
        text = markdown(path.name)
        assert "연도 미상" not in text, path.name
        for keys in plain_cite.findall(text):  # these styles print the year; {cite:authorpar} does not
            assert not {k.strip() for k in keys.split(",")} & set(undated), (path.name, keys)


def test_playground_without_scripts_shows_the_scripts_start():
    # The directive prints the start values for readers without scripts (and on paper); they are
    # the values the script starts from, for every playground in the book.
    import importlib.util

    spec = importlib.util.spec_from_file_location("try_in_page", BOOK / "_ext" / "try_in_page.py")
    directive = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(directive)
    pages = ["02_precision_recall.ipynb", "03_rank_position.ipynb", "04_map.ipynb", "05_dcg_ndcg.ipynb"]
    configs = [config for page in pages for config in playground_configs(page)]
    assert len(configs) == len(pages)
    for config, script in zip(configs, widget_start_values(configs)):
        k = min(config["k"], len(config["grades"]))
        static = [value for _, value in directive._playground_values(config["grades"], k, config["relevant"])]
        order = ["precision", "recall", "reciprocal_rank", "average_precision", "ndcg"]
        assert all(abs(a - script[m]) < 1e-12 for a, m in zip(static, order)), config
