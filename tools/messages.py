"""Keep rankmetrics' message catalogue in step with the code (Babel: extract, update, compile).

    python tools/messages.py          # extract every _()/N_()/ngettext() text, update the Korean
                                      # catalogue (new ids get an empty translation to fill in),
                                      # drop ids the code no longer has, compile the .mo
    python tools/messages.py --check  # change nothing; exit 1 and list what is out of step

The catalogue is ``rankmetrics/locale/ko/LC_MESSAGES/rankmetrics.po``: English message ids
(what the code writes) with their Korean translations. ``--check`` is what the test suite
runs (tests/package/test_messages.py): every id in the code is in the catalogue with a
Korean translation, no id is left over, no entry is fuzzy, placeholders agree, and the
committed ``.mo`` is the compiled ``.po``.
"""

from __future__ import annotations

import argparse
import io
import string
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "rankmetrics"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
LANGUAGE = "ko"
PO = PACKAGE / "locale" / LANGUAGE / "LC_MESSAGES" / "rankmetrics.po"
MO = PO.with_suffix(".mo")
HEADER = (
    "# Korean texts of rankmetrics: English message ids (as the code writes them) and their translations.\n"
    "# Edit the msgstr lines; run tools/messages.py to add new ids and compile the .mo."
)


def extracted() -> Catalog:
    """Every message id the package's code marks, with where it stands."""
    catalog = Catalog(project="rankmetrics", domain="rankmetrics")
    for filename, lineno, message, comments, context in extract_from_dir(
        PACKAGE, method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
    ):
        catalog.add(
            message, locations=[(f"rankmetrics/{filename}", lineno)], auto_comments=comments, context=context
        )
    return catalog


def committed() -> Catalog:
    with PO.open("rb") as f:
        return read_po(f, locale=LANGUAGE, domain="rankmetrics")


def compiled(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def _placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a format string (``{{`` and ``}}`` are literal braces)."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def problems() -> list[str]:
    """What is out of step between the code, the .po and the .mo (empty when all agree)."""
    code, po = extracted(), committed()
    found = []
    code_ids = {m.id for m in code if m.id}
    po_ids = {m.id for m in po if m.id}
    for missing in sorted(code_ids - po_ids, key=str):
        found.append(f"not in the catalogue (run tools/messages.py): {missing!r}")
    for stale in sorted(po_ids - code_ids, key=str):
        found.append(f"in the catalogue but no longer in the code: {stale!r}")
    for message in po:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            found.append(f"fuzzy translation (check it, then remove the fuzzy flag): {message.id!r}")
        if not all(texts):
            found.append(f"no Korean translation: {message.id!r}")
            continue
        if any(_placeholders(text) != _placeholders(ids[0]) for text in texts):
            found.append(f"the translation's {{fields}} differ from the id's: {message.id!r}")
    if not MO.exists() or MO.read_bytes() != compiled(po):
        found.append(f"{MO.relative_to(ROOT)} is not the compiled {PO.name} (run tools/messages.py)")
    return found


def update() -> None:
    """Merge the code's ids into the .po (keeping every translation), then compile the .mo."""
    po = committed() if PO.exists() else Catalog(locale=LANGUAGE, project="rankmetrics", domain="rankmetrics")
    created = po.creation_date
    po.update(extracted(), no_fuzzy_matching=True)
    po.obsolete.clear()
    # The header stays as it was, so that running this twice changes nothing.
    po.creation_date, po.fuzzy = created, False
    po.header_comment = HEADER
    po.last_translator = po.language_team = "rankmetrics"
    PO.parent.mkdir(parents=True, exist_ok=True)
    with PO.open("wb") as f:
        write_po(f, po, width=0, omit_header=False, sort_output=True, no_location=True)
    MO.write_bytes(compiled(committed()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; report what is out of step")
    args = parser.parse_args(argv)
    if not args.check:
        update()
    found = problems()
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
