"""Korean text for the theme's own buttons and labels.

The book is built with ``language: ko``, but pydata-sphinx-theme (under
sphinx-book-theme) ships no Korean catalogue, so its page chrome stayed in
English ("Skip to main content", "Back to top", the colour-mode menu ...).
This extension writes a small gettext catalogue for those strings at build
time and registers it for the "sphinx" domain, the one pydata-sphinx-theme
translates through (sphinx-book-theme has its own Korean catalogue). A few
sphinx-book-theme tooltips ("Toggle primary sidebar") are hard-coded English
in its templates and stay so. Sphinx's own Korean catalogue still wins where it has a string; ours
is only a fallback, and nothing binary is kept in the repository.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

# msgid (as in the theme's templates) -> Korean
TRANSLATIONS = {
    "Skip to main content": "본문으로 건너뛰기",
    "Back to top": "맨 위로",
    "Color mode": "색 모드",
    "Light": "밝게",
    "Dark": "어둡게",
    "System Settings": "시스템 설정",
    "Link to this heading": "이 제목으로 연결",
    "Link to this image": "이 그림으로 연결",
    "Link to this table": "이 표로 연결",
    "Link to this code": "이 코드로 연결",
    "Link to this definition": "이 정의로 연결",
    "On this page": "이 쪽의 내용",
    "Site navigation": "사이트 탐색",
    "Section Navigation": "절 탐색",
    "previous page": "이전 쪽",
    "next page": "다음 쪽",
    "Version warning": "버전 경고",
    "© Copyright %(copyright)s.": "© %(copyright)s.",
    "&#169; Copyright %(copyright)s.": "&#169; %(copyright)s.",
}


def write_catalog(folder: Path) -> Path:
    """Write ko/LC_MESSAGES/sphinx.mo under `folder` and return `folder`."""
    catalog = Catalog(locale="ko", domain="sphinx")
    for english, korean in TRANSLATIONS.items():
        catalog.add(english, korean)
    target = folder / "ko" / "LC_MESSAGES"
    target.mkdir(parents=True, exist_ok=True)
    with open(target / "sphinx.mo", "wb") as handle:
        write_mo(handle, catalog)
    return folder


def setup(app):
    if app.config.language == "ko":
        app.add_message_catalog("sphinx", str(write_catalog(Path(app.doctreedir) / "korean_theme_text")))
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
