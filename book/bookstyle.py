"""One place for the book's figure style and Korean font.

Every chapter calls ``bookstyle.setup()`` in its first code cell. The font is
NanumGothic, shipped as a file inside the ``koreanize-matplotlib`` wheel. We use
the file only and never import that package (it imports ``distutils``, which
Python 3.12 removed).
"""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path

FONT_FAMILY = "NanumGothic"


def font_files() -> list[Path]:
    spec = importlib.util.find_spec("koreanize_matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("koreanize-matplotlib (the NanumGothic font files) is not installed")
    folder = Path(next(iter(spec.submodule_search_locations))) / "fonts"
    return sorted(folder.glob("NanumGothic*.ttf"))


def setup() -> None:
    """Register the Korean font and the book's plotting defaults."""
    # matplotlib logs "building the font cache" on a fresh machine; keep it out of outputs.
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    import matplotlib as mpl
    from matplotlib import font_manager

    for path in font_files():
        font_manager.fontManager.addfont(str(path))
    mpl.rcParams.update(
        {
            "font.family": FONT_FAMILY,
            "axes.unicode_minus": False,  # NanumGothic has no U+2212 minus sign
            "figure.figsize": (6.4, 3.6),
            "figure.dpi": 100,
            "savefig.dpi": 150,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.grid": True,
            "grid.alpha": 0.3,
        }
    )
