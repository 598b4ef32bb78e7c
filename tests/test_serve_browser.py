"""`printgen serve` in a real browser: headless Chromium loads the page, every picture renders, a
broken save shows its file and line over the last pictures, and the fix updates the pictures in the
open page without reloading it. Its screenshot is docs/images/serve-page.png (written there only
when PRINTGEN_RECORD_SCREENSHOT=1; always into the test's own folder)."""
from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest
from PIL import Image

from browser import MISSING, Browser
from serving import Served, save, small_deck, stop_all_in_session

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

ROOT = Path(__file__).resolve().parents[1]
WIDTH, HEIGHT = 1200, 1300

PICTURES = """return [...document.images].map(img => ({src: img.getAttribute("src"), done: img.complete,
    width: img.naturalWidth, height: img.naturalHeight, kept: img.dataset.kept || ""}));"""
ALL_DRAWN = """const imgs = [...document.images];
    return Number(document.body.dataset.version || 0) >= 1 && imgs.length > 0
        && imgs.every(img => img.complete && img.naturalWidth > 0);"""
PROBLEMS = """return [...document.querySelectorAll(".problems li")].map(li => li.textContent);"""


def test_the_page_in_a_browser_renders_and_follows_saves_without_reloading(tmp_path):
    definition = small_deck(tmp_path / "potion")
    server = Served(definition.parent, "potion.yaml")
    browser = None
    try:
        browser = Browser(tmp_path, WIDTH, HEIGHT)
        browser.open(server.url)
        browser.wait_for(ALL_DRAWN, "every picture drawn")
        state = server.state()
        expected = [p for pdf in state["games"][0]["pdfs"] for p in pdf["pages"]]
        deck = state["games"][0]["decks"][0]
        expected += [deck["back"], *deck["faces"]]
        shown = browser.run(PICTURES)
        assert [(p["src"], p["width"], p["height"]) for p in shown] == \
            [(e["src"], e["width"], e["height"]) for e in expected]
        # marks that a reload would wipe: a script variable and the pictures' own elements
        browser.run("window.samePage = true; for (const img of document.images) img.dataset.kept = 'yes';")

        good = definition.read_text()
        save(definition, good.replace("  size: poker ", "  size: pokr  "))
        problems = browser.wait_for(PROBLEMS, "the problem of a broken definition")
        line = next(n for n, text in enumerate(good.splitlines(), start=1) if text.startswith("  size: poker"))
        assert len(problems) == 1 and re.match(rf"potion\.yaml:{line}: card\.size: expected 'poker', ", problems[0])
        assert browser.run(PICTURES) == [{**p, "kept": "yes"} for p in shown]  # the last good pictures stay
        screenshot = browser.screenshot()
        viewport = browser.run("return [window.innerWidth, window.innerHeight];")
        box = browser.run("""const r = document.querySelector(".problems").getBoundingClientRect();
            return [r.left, r.top, r.height];""")

        csv = definition.parent / "cards.csv"
        save(csv, csv.read_text().replace("Deal 2 damage", "Deal 3 damage"))
        save(definition, good)
        browser.wait_for(f"""return document.querySelector(".problems") === null
            && document.images[0].getAttribute("src") !== {shown[0]["src"]!r}
            && [...document.images].every(img => img.complete && img.naturalWidth > 0);""", "the redrawn page")
        assert browser.run("return window.samePage === true;"), "the page was reloaded"
        now = browser.run(PICTURES)
        assert [p["kept"] for p in now] == ["yes"] * len(shown), now  # the same elements, new pictures
        assert [a["src"] != b["src"] for a, b in zip(now, shown)] == [True, False, False, True, False]
    finally:
        if browser is not None:
            browser.close()
        stop_all_in_session(server.process)

    (tmp_path / "serve-page.png").write_bytes(screenshot)
    picture = Image.open(io.BytesIO(screenshot)).convert("RGB")
    if os.environ.get("PRINTGEN_RECORD_SCREENSHOT"):
        picture.quantize(128).save(ROOT / "docs" / "images" / "serve-page.png", optimize=True)
    assert list(picture.size) == viewport
    left, top, height = (round(v) for v in box)
    assert picture.getpixel((left + 2, top + height // 2)) == (0xC0, 0x39, 0x2B)  # the problem box's red edge
