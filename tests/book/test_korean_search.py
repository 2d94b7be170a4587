"""The Korean search language of the book (book/_ext/korean_search.py), without a browser.

The browser tests (tests/browser/test_book_search.py) run the same rules through the
generated JavaScript on the real search page.
"""

from __future__ import annotations

import json
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st


def test_words_split_hangul_from_latin_and_digits(korean_search):
    assert korean_search.words("nDCG를 구하면 0.91이다. Precision@K와 MRR!") == [
        "nDCG", "를", "구하면", "0", "91", "이다", "Precision", "K", "와", "MRR",
    ]  # fmt: skip


def test_index_holds_the_word_its_stems_and_its_two_syllable_pieces(korean_search):
    # 정밀도는 -> 정밀도 (는 stripped) -> 정밀 (도 stripped, harmless extra); 2-grams 정밀 밀도 도는
    assert korean_search.index_tokens("정밀도는") == ["정밀도는", "정밀도", "정밀", "밀도", "도는"]


@pytest.mark.parametrize(
    ("written", "bare"),
    [
        ("정밀도는", "정밀도"),
        ("정밀도가", "정밀도"),  # 가 is stripped on the index side only
        ("재현율이", "재현율"),
        ("재현율을", "재현율"),
        ("nDCG의", "nDCG"),
        ("이상적인", "이상적"),
        ("이상적으로", "이상적"),
        ("할인된", "할인"),
        ("항목들에서는", "항목"),
        ("경로는", "경로"),  # 로는 is also a particle: the shorter rule keeps 경로
        ("할인율", "할인"),  # inside a compound, through the 2-grams
    ],
)
def test_a_term_is_indexed_whatever_follows_it(korean_search, written, bare):
    assert bare in korean_search.index_tokens(written)


def test_a_long_term_inside_a_compound_is_left_to_the_substring_match(korean_search):
    # searchtools.js looks a 3+ character query up inside every index word ("partial match")
    assert "평균정밀도" in korean_search.index_tokens("평균정밀도는")
    assert "정밀도" not in korean_search.index_tokens("평균정밀도는")


@pytest.mark.parametrize(
    ("query", "looked_up"),
    [
        ("정밀도", ["정밀도"]),  # 도 also ends nouns: never stripped from a query
        ("정밀도는", ["정밀도"]),
        ("재현율을", ["재현율"]),
        ("이상적인", ["이상적"]),
        ("원인", ["원인"]),  # 인 is stripped only after 적
        ("홈페이지", ["홈페이지"]),  # 이지 also ends nouns
        ("평가", ["평가"]),
        ("항목들을", ["항목"]),
        ("할인", ["할인"]),
        ("nDCG를", ["ndcg"]),  # 를 alone is a stopword
        ("Precision@K", ["precis", "k"]),  # Porter stemmer for Latin words, as for English
        ("값이 0.5", ["값이"]),  # digits alone are dropped, as searchtools.js does
    ],
)
def test_queries_are_stripped_cautiously(korean_search, query, looked_up):
    assert korean_search.query_words(query) == looked_up


SYLLABLES = st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3)


@given(noun=st.text(SYLLABLES, min_size=1, max_size=6), data=st.data())
def test_what_a_query_looks_up_is_always_in_the_index(korean_search, noun, data):
    particles = [
        "",
        *korean_search.SAFE_SUFFIXES,
        *korean_search.AMBIGUOUS_SUFFIXES,
        "들",
        "들을",
        "들에서는",
    ]
    written = noun + data.draw(st.sampled_from(particles), label="particle")
    assert korean_search.query_stem(written) in korean_search.index_tokens(written)
    assert noun in korean_search.index_tokens(written)


def test_javascript_rules_are_the_python_rules(korean_search):
    assert (
        f"var KO_QUERY_RULES = {json.dumps(korean_search.QUERY_RULES, ensure_ascii=False)};"
        in korean_search.JS_STEMMER
    )
    assert "function splitQuery(query)" in korean_search.JS_SPLITTER
    assert "var PorterStemmer = function()" in korean_search.JS_STEMMER


def test_definition_words_become_entries_for_the_first_defining_page(tmp_path, extensions_dir):
    """A tiny Sphinx project: 'b' is read first (toctree order) so it owns 정밀도."""
    from sphinx.application import Sphinx

    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(extensions_dir)!r})\n"
        "extensions = ['sphinx_proof', 'korean_search']\nlanguage = 'ko'\n",
        encoding="utf-8",
    )
    (src / "index.rst").write_text("시작\n====\n\n.. toctree::\n\n   b\n   a\n", encoding="utf-8")
    definition = textwrap.dedent(
        """\
        {title}
        ========

        정밀도는 자주 쓰입니다.

        .. prf:definition:: 정밀도 Precision@K
           :label: {label}

           정밀도는 상위 K개 중 관련 항목의 비율.
        """
    )
    (src / "a.rst").write_text(definition.format(title="에이", label="def-a"), encoding="utf-8")
    (src / "b.rst").write_text(definition.format(title="비", label="def-b"), encoding="utf-8")
    out = tmp_path / "html"
    app = Sphinx(src, src, out, tmp_path / "doctrees", "html", status=None, warning=None, freshenv=True)
    app.build()

    text = (out / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[len("Search.setIndex(") : -1])
    docs = index["docnames"]
    assert index["indexentries"]["정밀도"] == [[docs.index("b"), "def-b", True]]
    assert "정밀도는" not in index["indexentries"]  # written forms would outrank the defining page
    assert {"정밀도", "정밀도는", "밀도"} <= set(index["terms"]) | set(index["titleterms"])
    assert "precis" in index["titleterms"]  # Porter-stemmed, lower case
    language_data = (out / "_static" / "language_data.js").read_text(encoding="utf-8")
    assert "function splitQuery(query)" in language_data
    assert 'var KO_READING_ORDER = ["index", "b", "a"];' in language_data
    assert "정밀도" not in (out / "genindex.html").read_text(encoding="utf-8")  # search only


def test_theme_text_is_korean(tmp_path, extensions_dir):
    """A tiny build with book/_ext/korean_theme_text.py: the theme's own labels come out in Korean."""
    from sphinx.application import Sphinx

    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(extensions_dir)!r})\n"
        "extensions = ['korean_theme_text']\nlanguage = 'ko'\nhtml_theme = 'sphinx_book_theme'\n"
        "copyright = '2026'\n",
        encoding="utf-8",
    )
    (src / "index.rst").write_text("시작\n====\n\n본문.\n\n둘째 절\n------\n\n내용.\n", encoding="utf-8")
    out = tmp_path / "html"
    app = Sphinx(src, src, out, tmp_path / "doctrees", "html", status=None, warning=None, freshenv=True)
    app.build()
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "본문으로 건너뛰기" in page and "Skip to main content" not in page
    assert "맨 위로" in page and "Back to top" not in page
    assert "이 제목으로 연결" in page and "Link to this heading" not in page
    assert "© 2026." in page and "Copyright" not in page
