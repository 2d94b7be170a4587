"""The message catalogue (rankmetrics/i18n.py, tools/messages.py): one home for every text."""

import importlib.util
from pathlib import Path

import pytest

import rankmetrics as rm
from rankmetrics import i18n

ROOT = Path(__file__).resolve().parents[2]


def _messages_tool():
    spec = importlib.util.spec_from_file_location("messages_tool", ROOT / "tools" / "messages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_catalogue_is_in_step_with_the_code():
    # Every _()/N_()/ngettext() id in the package has a Korean translation with the same
    # {fields}, no id is left over, nothing is fuzzy, and the .mo is the compiled .po.
    assert _messages_tool().problems() == []


@pytest.fixture
def no_choice(monkeypatch):
    monkeypatch.delenv(i18n.ENVIRONMENT_VARIABLE, raising=False)
    before = list(i18n._chosen)
    i18n.set_language(None)
    yield monkeypatch
    i18n._chosen[:] = before


def test_the_default_is_fixed_and_never_the_machines_locale(no_choice):
    for variable in ("LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        no_choice.setenv(variable, "ko_KR.UTF-8")
    assert rm.language() == "en"


def test_the_environment_variable_then_the_explicit_choice(no_choice):
    no_choice.setenv("RANKMETRICS_LANG", "ko")
    assert rm.language() == "ko"
    rm.set_language("en")
    assert rm.language() == "en"  # the explicit choice wins over the environment
    with rm.use_language("ko"):
        assert rm.language() == "ko"
    assert rm.language() == "en"
    rm.set_language(None)
    assert rm.language() == "ko"


@pytest.mark.parametrize("bad", ["kr", "KO", "ko_KR", ""])
def test_an_unknown_language_is_refused_by_name(no_choice, bad):
    with pytest.raises(ValueError, match=rf"language must be one of en, ko; got {bad!r}"):
        rm.set_language(bad)


def test_an_unknown_language_in_the_environment_is_refused_by_name(no_choice):
    no_choice.setenv("RANKMETRICS_LANG", "fr")
    with pytest.raises(ValueError, match=r"RANKMETRICS_LANG must be one of en, ko; got 'fr'"):
        rm.language()
