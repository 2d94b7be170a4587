"""A problem and a worksheet: what was drawn, and the files it is written to."""

from __future__ import annotations

import errno
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ... import _validation as v
from ...i18n import _, use_language
from ...registry import METRICS
from ..explain import Explanation
from . import render
from .grading import GradeReport, grade

__all__ = ["Problem", "Worksheet", "write_files"]


@dataclass(frozen=True)
class Problem:
    """One problem: the inputs, the key, and the step table.

    ``recompute()`` calls the public metric again, which is what the tests of
    the answer key do.
    """

    number: int
    metric: str
    x: Any
    k: int | None
    kwargs: dict[str, Any]
    explanation: Explanation = field(repr=False)

    @property
    def answer(self) -> float:
        """The hand-rounded answer, as on the key."""
        return self.explanation.rounded

    @property
    def exact(self) -> float:
        return self.explanation.value

    @property
    def label(self) -> str:
        return self.explanation.label

    def recompute(self) -> float:
        return METRICS[self.metric].function(self.x, self.k, **self.kwargs)


@dataclass(frozen=True)
class Worksheet:
    """A problem sheet for the students and an answer key for the teacher, as Markdown and printable HTML.

    The students' sheet carries a name and class line, the rounding rule, a blank step table
    under every problem and no seed; the key carries the seed, so that the teacher can make
    the same sheet again.

    Everything it shows is in ``language`` (Korean unless :func:`~rankmetrics.make_worksheet`
    was told otherwise), whatever language the rest of the package speaks.
    """

    seed: int
    decimals: int
    problems: tuple[Problem, ...]
    language: str = "ko"
    #: Printed in front of both titles (e.g. the lesson); empty for none.
    label: str = ""

    @property
    def problem_markdown(self) -> str:
        with use_language(self.language):
            return render.markdown(render.sheet_blocks(self))

    @property
    def answer_markdown(self) -> str:
        with use_language(self.language):
            return render.markdown(render.key_blocks(self))

    @property
    def problem_html(self) -> str:
        with use_language(self.language):
            return render.html_page(render.sheet_title(self), render.sheet_blocks(self), self.language)

    @property
    def answer_html(self) -> str:
        with use_language(self.language):
            return render.html_page(render.key_title(self), render.key_blocks(self), self.language)

    def files(self) -> dict[str, str]:
        """File name -> content, for the four files :meth:`write` writes."""
        stem = f"seed{self.seed}"
        return {
            f"worksheet-{stem}.md": self.problem_markdown,
            f"worksheet-{stem}.html": self.problem_html,
            f"answers-{stem}.md": self.answer_markdown,
            f"answers-{stem}.html": self.answer_html,
        }

    def write(self, out: str | Path, *, force: bool = False) -> list[Path]:
        """Write the problem sheet and the answer key (Markdown and HTML) into folder ``out``.

        See :func:`write_files`: an existing file is kept unless ``force=True``, a link is never
        written through, and every name is checked before the first byte is written.
        """
        return write_files(self.files(), out, force=force)

    def grade(self, answers: Mapping[int, Any] | Sequence[Any]) -> GradeReport:
        """Mark a student's answers: {problem number: value} or a list in problem order.

        See :func:`rankmetrics.teaching.worksheet.grading.grade` for what counts as right,
        as a rounding slip ("반올림 차이") and as a blank.
        """
        return grade(self.problems, self.decimals, answers, self.language)


def write_files(files: Mapping[str, str], out: str | Path, *, force: bool = False) -> list[Path]:
    """Write ``files`` (name -> text) into folder ``out``: a worksheet's sheet and key.

    The folder is made when missing. A worksheet never destroys a file: an existing
    file of the same name raises ``FileExistsError`` unless ``force=True``, and a
    file name that is a symbolic link is refused even with ``force`` (writing through
    it could change a file outside ``out``). ``out`` itself may be a link to a folder:
    that is the user's own choice of folder. All the names are checked before the
    first byte is written, so a refusal leaves the folder as it was.
    """
    if isinstance(out, bytes) or not isinstance(out, (str, os.PathLike)):
        raise ValueError(_("out must be a folder name (str or Path); got {value}").format(value=v.show(out)))
    if not str(out).strip():
        # Path("") is the current folder: an empty --out is a missing value, not a choice.
        raise ValueError(
            _("out is empty; name the folder to write into; got {value}").format(value=v.show(out))
        )
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))
    targets = [(folder / name, text) for name, text in files.items()]
    for path, _text in targets:
        if path.is_symlink():
            raise ValueError(
                _(
                    "{path} is a symbolic link; a worksheet is never written through a link "
                    "(it may point outside the folder). Remove the link or choose another folder."
                ).format(path=repr(str(path)))
            )
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if path.exists() and not force:
            raise FileExistsError(errno.EEXIST, _("file exists; pass force=True to overwrite it"), str(path))
    folder.mkdir(parents=True, exist_ok=True)
    # O_EXCL: a file that appeared since the check is still not overwritten;
    # O_NOFOLLOW: a link that appeared since the check is not followed.
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    flags |= os.O_TRUNC if force else os.O_EXCL
    paths = []
    for path, text in targets:
        with os.fdopen(os.open(path, flags, 0o666), "wb") as file:
            file.write(text.encode("utf-8"))  # bytes: the same on every platform
        paths.append(path)
    return paths
