"""A full-page screenshot of every page at desktop and phone width, for a person to look at.

Written to _build/screenshots/<page>-desktop.png and <page>-phone.png (long pages are
cut into numbered tiles). While there, check that the page never scrolls sideways:
wide tables, code and formulas must scroll inside their own box, not the whole page.
"""

from __future__ import annotations

import base64
import subprocess
import time
from pathlib import Path

import pytest

TILE = 8000  # px per image file; long pages become numbered tiles


def korean_font_installed() -> bool:
    try:
        out = subprocess.run(
            ["fc-list", ":lang=ko", "family"], check=False, capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        return True  # no fontconfig to ask (not Linux): assume the system has one
    return bool(out.stdout.strip())


@pytest.mark.parametrize("width_name", ["desktop", "phone"])
def test_screenshot_and_no_sideways_scroll(
    page, width_name, driver, open_page, set_viewport, viewports, screenshots_dir
):
    if not korean_font_installed():
        pytest.skip("no Korean font for Chromium: Hangul would be boxes; apt-get install fonts-nanum")
    size = viewports[width_name]
    open_page(f"{page}.html", width_name)
    try:
        height, overflow = driver.execute_script(
            """
            const root = document.documentElement;
            if (root.scrollWidth <= root.clientWidth + 1) return [root.scrollHeight, []];
            // What sticks out of the window without a scrolling box of its own around it.
            const clipped = el => { for (let p = el.parentElement; p; p = p.parentElement)
              if (["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(p).overflowX)) return true;
              return false; };
            const wide = Array.from(document.querySelectorAll("body *"))
              .filter(el => el.getBoundingClientRect().right > root.clientWidth + 1 && !clipped(el)
                            && !["fixed", "absolute"].includes(getComputedStyle(el).position))
              .slice(0, 5).map(el => el.tagName.toLowerCase() + "." + el.className + " "
                                     + el.textContent.trim().slice(0, 40));
            return [root.scrollHeight, wide.length ? wide : ["(unknown element)"]];
            """
        )
        # Make the window as tall as the page and photograph it in tiles. (Chromium's
        # captureBeyondViewport re-lays out the theme's sticky sidebars and shifts the page.)
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": size[0], "height": height, "deviceScaleFactor": 1, "mobile": size[0] < 600},
        )
        time.sleep(0.3)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        screenshots_dir.mkdir(parents=True, exist_ok=True)
        name = f"{Path(page).name}-{width_name}"
        for old in screenshots_dir.glob(f"{name}*.png"):
            old.unlink()
        tiles = range(0, height, TILE)
        for n, top in enumerate(tiles, start=1):
            clip = {"x": 0, "y": top, "width": size[0], "height": min(TILE, height - top), "scale": 1}
            shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "clip": clip})
            suffix = f"-{n}" if len(tiles) > 1 else ""
            (screenshots_dir / f"{name}{suffix}.png").write_bytes(base64.b64decode(shot["data"]))
    finally:
        set_viewport("desktop")
    assert overflow == [], f"the page scrolls sideways at {size[0]} px because of {overflow}"
