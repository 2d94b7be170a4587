"""argparse's own words (usage, options, its errors) from rankmetrics' catalogue.

argparse translates its texts with the module-global ``_`` and ``ngettext`` that it imports
from :mod:`gettext`, and looks them up each time it speaks. While the command line runs,
:func:`argparse_in_our_language` points those two names at :mod:`rankmetrics.i18n`, so
"usage:", "options", "the following arguments are required", "invalid choice", ... come
from our catalogue, and puts argparse's own back afterwards.

Babel cannot see the message ids inside argparse, so they are declared here, copied exactly
from argparse in Python 3.10, 3.11, 3.12 and 3.13 (the union: an id one version lacks is
never asked for by it). :func:`_declared` is never called: it only marks the ids.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager

from .i18n import N_, _, ngettext

_ARGUMENT = N_("argument %(argument_name)s: %(message)s")  # argparse 3.11+; 3.10 writes it untranslated


def _declared() -> None:  # pragma: no cover - never called; it marks argparse's ids for the catalogue
    # The help text and its headings.
    N_("usage: ")
    N_("positional arguments")
    N_("options")
    N_("subcommands")
    N_("%(heading)s:")
    N_(" (default: %(default)s)")
    N_("show this help message and exit")
    N_("show program's version number and exit")
    # Errors while reading the command line.
    N_("%(prog)s: error: %(message)s\n")
    N_("%(prog)s: warning: %(message)s\n")
    N_("the following arguments are required: %s")
    N_("one of the arguments %s is required")
    N_("unrecognized arguments: %s")
    N_("invalid choice: %(value)r (choose from %(choices)s)")
    N_("invalid %(type)s value: %(value)r")
    N_("expected one argument")
    N_("expected at most one argument")
    N_("expected at least one argument")
    ngettext("expected %s argument", "expected %s arguments", 1)
    N_("ambiguous option: %(option)s could match %(matches)s")
    N_("not allowed with argument %s")
    N_("ignored explicit argument %r")
    N_("unknown parser %(parser_name)r (choices: %(choices)s)")
    N_("can't open '%(filename)s': %(error)s")
    N_("argument '%(argument_name)s' is deprecated")
    N_("option '%(option)s' is deprecated")
    N_("command '%(parser_name)s' is deprecated")
    # Mistakes in building a parser (a programmer's, but argparse words them through _ too).
    N_("%r is not callable")
    N_("'required' is an invalid argument for positionals")
    ngettext("conflicting option string: %s", "conflicting option strings: %s", 1)
    N_(".__call__() not defined")
    N_('argument "-" with mode %r')
    N_("cannot have multiple subparser arguments")
    N_("cannot merge actions - two groups are named %r")
    N_("conflicting subparser alias: %s")
    N_("conflicting subparser: %s")
    N_("dest= is required for options like %r")
    N_("invalid conflict_resolution value: %r")
    N_("invalid option string %(option)r: must start with a character %(prefix_chars)r")
    N_("mutually exclusive arguments must be optional")
    N_("unexpected option string: %s")


def argument_error(message: str) -> str:
    """An ArgumentError's text in our language, also where argparse (3.10) leaves its prefix untranslated."""
    head = "argument "
    if message.startswith(head) and ": " in message:
        name, rest = message[len(head) :].split(": ", 1)
        return _(_ARGUMENT) % {"argument_name": name, "message": rest}
    return message


@contextmanager
def argparse_in_our_language() -> Iterator[None]:
    """Inside the block, argparse speaks through rankmetrics' catalogue (in the current language)."""
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._, argparse.ngettext = _, ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]
