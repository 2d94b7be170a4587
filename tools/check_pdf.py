"""Check the PDF that ``make pdf`` built: every page of _toc.yml is in it, in Korean.

A cheap check, run by ``make pdf`` after the build (it needs ``pdftotext`` and
``pdfinfo`` from poppler-utils):

* every chapter's title (the first ``#`` heading of each file in _toc.yml) appears in
  the text, in reading order;
* the text is mostly Hangul, and holds no raw HTML (``<div``) and no unresolved
  reference (LaTeX prints ``??``);
* there are at least as many pictures as the book has figure outputs, and at least
  ``MIN_PAGES`` pages.

Usage: ``python tools/check_pdf.py [_build/latex/book.pdf]``; exit status 1 on a problem.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
MIN_PAGES = 150  # about 260 on 2026-12; a PDF with half the book missing falls far below
RAW_HTML = re.compile(r"</?(div|span|table|tr|td|th|input|button|details|summary|p)[ >]", re.IGNORECASE)


def toc_files(toc: Path) -> list[Path]:
    data = yaml.safe_load(toc.read_text(encoding="utf-8"))
    files = [data["root"]]

    def add(entry: dict) -> None:
        if "file" in entry:
            files.append(entry["file"])
        for key in ("parts", "chapters", "sections"):
            for child in entry.get(key) or []:
                add(child)

    add({k: v for k, v in data.items() if k != "root"})
    found = []
    for name in dict.fromkeys(files):
        for suffix in (".ipynb", ".md"):
            path = ROOT / (str(Path(name).with_suffix("")) + suffix)
            if path.exists():
                found.append(path)
                break
        else:
            raise SystemExit(f"check_pdf: {name} from _toc.yml not found")
    return found


def markdown_of(path: Path) -> list[str]:
    if path.suffix == ".md":
        return [path.read_text(encoding="utf-8")]
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]


def title_of(path: Path) -> str:
    for text in markdown_of(path):
        for line in text.splitlines():
            if line.startswith("# "):
                return re.sub(r"[`*]", "", line[2:]).strip()  # not _: titles hold names like trec_eval
    raise SystemExit(f"check_pdf: {path.relative_to(ROOT)} has no '# ' title")


def figure_outputs(path: Path) -> int:
    if path.suffix != ".ipynb":
        return 0
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return sum(
        1
        for c in cells
        for o in c.get("outputs", [])
        if "image/png" in o.get("data", {}) or "image/svg+xml" in o.get("data", {})
    )


def squeeze(text: str) -> str:
    """pdftotext puts spaces between a word and its particle (MSE 를): compare without spaces."""
    return re.sub(r"\s+", "", text)


def main(pdf: Path) -> list[str]:
    if not pdf.exists():
        return [f"{pdf} does not exist; run make pdf"]
    text = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True).stdout
    pages = int(re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE).group(1))
    images = subprocess.run(
        ["pdfimages", "-list", str(pdf)], check=True, capture_output=True, text=True
    ).stdout.splitlines()[2:]
    problems = []
    files = toc_files(ROOT / "_toc.yml")
    flat, at = squeeze(text), 0
    for path in files:
        title = squeeze(title_of(path))
        found = flat.find(title, at)
        if found < 0:
            where = "anywhere" if title not in flat else "after the previous chapter"
            problems.append(f"title of {path.relative_to(ROOT)} ({title_of(path)!r}) not found {where}")
        else:
            at = found + len(title)
    hangul = len(re.findall(r"[\uac00-\ud7a3]", text))
    letters = len(re.findall(r"[A-Za-z\uac00-\ud7a3]", text))
    if letters == 0 or hangul / letters < 0.3:
        problems.append(
            f"only {hangul} Hangul syllables among {letters} letters: is the Korean font missing?"
        )
    for match in list(RAW_HTML.finditer(text))[:5]:
        problems.append(f"raw HTML in the PDF: {text[max(0, match.start() - 30) : match.end() + 30]!r}")
    if "??" in text:
        index = text.index("??")
        problems.append(f"an unresolved reference (??): {text[max(0, index - 40) : index + 10]!r}")
    figures = sum(figure_outputs(p) for p in files)
    if len(images) < figures:
        problems.append(f"{len(images)} pictures in the PDF, but the notebooks have {figures} figure outputs")
    if pages < MIN_PAGES:
        problems.append(f"{pages} pages, expected at least {MIN_PAGES}")
    summary = (
        f"{pdf}: {pages} pages, {len(files)} chapters found in order, {hangul} Hangul syllables, "
        f"{len(images)} pictures ({figures} figure outputs)"
    )
    print(summary if not problems else summary.replace(" found in order", ""))
    return problems


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "_build" / "latex" / "book.pdf"
    found = main(target)
    for line in found:
        print("check_pdf:", line, file=sys.stderr)
    sys.exit(1 if found else 0)
