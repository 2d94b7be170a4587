"""Particles after glued numbers: ``bookstyle.with_particle`` and the build check in
``book/_ext/korean_particles.py`` that scans the built pages with it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parents[2] / "book"
sys.path.insert(0, str(BOOK))

import bookstyle
from bookstyle import with_particle


@pytest.fixture(scope="module")
def particles():
    spec = importlib.util.spec_from_file_location("korean_particles", BOOK / "_ext" / "korean_particles.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("number", "read_as"),
    [
        ("0", "영"),
        ("1", "일"),
        ("2", "이"),
        ("3", "삼"),
        ("4", "사"),
        ("5", "오"),
        ("6", "육"),
        ("7", "칠"),
        ("8", "팔"),
        ("9", "구"),
        ("10", "십"),
        ("20", "십"),
        ("100", "백"),
        ("1,000", "천"),
        ("10000", "만"),
        ("100,000", "만"),  # 십만
        ("1,000,000", "만"),  # 백만
        ("12,340,000", "만"),  # 천이백삼십사만
        ("100000000", "억"),
        ("1000000000000", "조"),
        ("12", "이"),
        ("1,001", "일"),
        ("0.80", "영"),  # 영 점 팔 영: digits after the point are read one by one
        ("0.88", "팔"),
        ("0.8923", "삼"),
        ("0.5000", "영"),
        ("1.0", "영"),
        ("2.6", "육"),
        ("5.1", "일"),
        ("20%", "트"),  # 이십 퍼센트
        ("0.5%", "트"),
        ("1/3", "일"),  # 삼분의 일
        ("2개", "개"),
        ("−0.25", "오"),
    ],
)
def test_last_syllable_as_read(number, read_as):
    assert bookstyle._last_syllable_read(number) == read_as


@pytest.mark.parametrize(
    ("number", "particle", "expected"),
    [
        # 으로/로: a final ㄹ (일, 칠, 팔) takes 로 like a vowel
        ("0.80", "로", "0.80으로"),
        ("0.80", "으로", "0.80으로"),
        ("0.88", "으로", "0.88로"),
        ("0.443", "로", "0.443으로"),
        ("0.8923", "로", "0.8923으로"),
        ("0.765", "으로", "0.765로"),
        ("1.0", "로", "1.0으로"),
        ("0.0010", "로", "0.0010으로"),
        ("2.6", "로", "2.6으로"),
        ("7", "으로", "7로"),
        ("0.1", "으로", "0.1로"),
        ("10", "로", "10으로"),
        ("20%", "으로", "20%로"),
        ("0.5", "로는", "0.5로는"),  # a tail after the particle is kept
        ("3", "로도", "3으로도"),
        # 은/는: any final consonant (ㄹ too) takes 은
        ("5.1", "는", "5.1은"),
        ("4.2", "은", "4.2는"),
        ("0.48", "는", "0.48은"),
        ("0.95748", "는", "0.95748은"),
        ("10", "는", "10은"),
        ("1,000", "는", "1,000은"),
        ("20%", "은", "20%는"),
        # 이/가, 을/를, 과/와
        ("2", "이", "2가"),
        ("3", "가", "3이"),
        ("0.63", "를", "0.63을"),
        ("0.9098", "를", "0.9098을"),
        ("0.5", "을", "0.5를"),
        ("1,000,000", "를", "1,000,000을"),
        ("0.906", "와", "0.906과"),
        ("0.88", "와", "0.88과"),
        ("0.5", "과", "0.5와"),
        ("1", "와도", "1과도"),
        # the copula
        ("3", "이다", "3이다"),
        ("2", "이다", "2다"),
        ("2", "다", "2다"),
        ("3", "이고", "3이고"),
        ("0.5", "이며", "0.5며"),
    ],
)
def test_with_particle(number, particle, expected):
    assert with_particle(number, particle) == expected


def test_with_particle_rejects_what_it_cannot_read():
    with pytest.raises(ValueError, match="particle"):
        with_particle("0.5", "의")  # 의 does not change with the word before it
    with pytest.raises(ValueError, match="read in Korean"):
        with_particle("nDCG", "는")


def test_detection_finds_the_review_examples(particles):
    text = (
        "평균은 0.80로 목표선에 걸리고 0.443로 못 미칩니다. nDCG 0.88으로 적고, 0.906와 0.618로 다릅니다.\n"
        "정의 5.1는 DCG, 정의 4.2은 MAP입니다. 0.48는 0.63를 넘고, 2.6로 나눕니다."
    )
    assert particles.particle_errors(text) == [
        ("0.80로", "0.80으로"),
        ("0.443로", "0.443으로"),
        ("0.88으로", "0.88로"),
        ("0.906와", "0.906과"),
        ("5.1는", "5.1은"),
        ("4.2은", "4.2는"),
        ("0.48는", "0.48은"),
        ("0.63를", "0.63을"),
        ("2.6로", "2.6으로"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "평균은 0.80으로 목표선에 걸립니다.",
        "nDCG 0.88로 적고 0.906과 0.618로 다릅니다.",
        "정의 5.1은 DCG, 정의 4.2는 MAP입니다.",
        "질의 100,000개를 1,000,000으로 나누고 20%는 실패합니다.",
        "2가지 방법, 3이상의 값, 1과목",  # a word, not a particle, follows the number
        "F1는 에프원, log2는 로그 이, GPT-4는 영어로 읽습니다.",  # glued to a Latin letter: skipped
        "2/3를 4/6을 1/0으로",  # a fraction or a division is read either way: skipped
        "2이다, 2다, 3이다",  # the copula may keep 이 after a vowel
        "P@5는 0.6, nDCG@10은 0.9입니다.",
    ],
)
def test_detection_leaves_right_text_alone(particles, text):
    assert particles.particle_errors(text) == []


def test_prose_text_skips_code_math_and_outputs(particles):
    html = (
        '<p>평균은 <span class="pasted-text">0.80</span>로 걸립니다.'
        ' <span class="math notranslate nohighlight">\\(2는 <span>x</span> 3는\\)</span> 끝.</p>'
        "<pre>print(0.5로)</pre><code>1로</code>"
        '<div class="cell_output docutils container"><div class="output">1로</div></div>'
        "<p>다음 문단<br>2는</p>"
    )
    text = particles.prose_text(html)
    assert "평균은 0.80로 걸립니다." in text  # a glued number and its particle are one text
    assert "다음 문단\n2는" in text  # a line break separates blocks
    assert "3는" not in text and "0.5로" not in text and "1로" not in text
    assert particles.particle_errors(text) == [("0.80로", "0.80으로")]


def test_extension_warns_on_a_built_page(particles, tmp_path):
    sphinx_application = pytest.importorskip("sphinx.application")
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(BOOK / '_ext')!r})\n"
        "extensions = ['korean_particles']\nlanguage = 'ko'\n",
        encoding="utf-8",
    )
    (source / "index.rst").write_text(
        "제목\n====\n\n평균은 0.80로 걸리고 0.88로 적습니다.\n", encoding="utf-8"
    )
    warnings = tmp_path / "warnings.txt"
    with warnings.open("w", encoding="utf-8") as stream:
        app = sphinx_application.Sphinx(
            str(source), str(source), str(tmp_path / "out"), str(tmp_path / "doctrees"), "html",
            status=None, warning=stream, freshenv=True,
        )  # fmt: skip
        app.build()
    logged = warnings.read_text(encoding="utf-8")
    assert "'0.80로' → '0.80으로'" in logged
    assert "0.88로" not in logged
