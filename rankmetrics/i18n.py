"""Which language rankmetrics speaks, and the one catalogue of every text a person reads.

Every sentence the package shows a person (error messages, table headers and footers,
step-table labels, command-line help, worksheet texts) is written once, in English, as
a gettext message id wrapped in :func:`_`, and translated in one catalogue:
``rankmetrics/locale/ko/LC_MESSAGES/rankmetrics.po`` (compiled to ``.mo`` beside it).
Babel extracts the ids and compiles the catalogue (``make messages``); a test fails when
the committed catalogue and the code disagree, or when a Korean translation is missing.

The language is fixed, never taken from the machine's locale, so that stored notebook
outputs and doctests do not depend on where they run:

- the Python API speaks English unless told otherwise;
- :func:`set_language` (or :func:`use_language` for a block) chooses one explicitly;
- otherwise the environment variable ``RANKMETRICS_LANG`` (``en`` or ``ko``) does;
- the command line and the book speak Korean (they call ``set_language("ko")``).

>>> import rankmetrics as rm
>>> rm.language()
'en'
>>> with rm.use_language("ko"):
...     rm.language()
'ko'
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "ko")
DEFAULT_LANGUAGE = "en"
ENVIRONMENT_VARIABLE = "RANKMETRICS_LANG"
DOMAIN = "rankmetrics"
LOCALE_DIR = Path(__file__).parent / "locale"

_chosen: list[str] = []  # the explicit choice of set_language, if any (a one-item list)


def _check(language: str) -> str:
    if language not in LANGUAGES:
        # Not translated on purpose: the language itself is what is wrong.
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}; got {language!r}")
    return language


def language() -> str:
    """The language rankmetrics speaks now: ``"en"`` or ``"ko"``.

    The explicit choice of :func:`set_language` wins; then the environment variable
    ``RANKMETRICS_LANG``; then English.
    """
    if _chosen:
        return _chosen[0]
    from_environment = os.environ.get(ENVIRONMENT_VARIABLE, "").strip()
    if from_environment:
        try:
            return _check(from_environment)
        except ValueError:
            raise ValueError(
                f"{ENVIRONMENT_VARIABLE} must be one of {', '.join(LANGUAGES)}; got {from_environment!r}"
            ) from None
    return DEFAULT_LANGUAGE


def set_language(language: str | None) -> None:
    """Speak ``language`` (``"en"`` or ``"ko"``) from now on; ``None`` goes back to the default.

    >>> import rankmetrics as rm
    >>> rm.set_language("ko")
    >>> rm.language()
    'ko'
    >>> rm.set_language(None)
    >>> rm.language()
    'en'
    """
    _chosen.clear()
    if language is not None:
        _chosen.append(_check(language))


@contextmanager
def use_language(language: str) -> Iterator[None]:
    """Speak ``language`` inside a ``with`` block, then whatever was chosen before."""
    before = list(_chosen)
    set_language(language)
    try:
        yield
    finally:
        _chosen[:] = before


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``language`` (English needs none: its texts are the message ids)."""
    if _check(language) == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[language])


def _(message: str) -> str:
    """``message`` (an English message id) in the current language."""
    return translations(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form of a message, in the current language."""
    return translations(language()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it yet (module-level constants).

    Translate it where it is shown, with ``_(constant)``.
    """
    return message
