"""Where One Minute War, Armies and Fracas explain their ruling mark, read from the built PDFs: the rules
open a closing "Notes on this edition" with the key; a reference sheet prints it in caption type
at the foot of its front's last column, never in the title block."""
from __future__ import annotations

import pdfplumber
import pytest

from pdfmeasure import MM, reading_text
from printgen.drawing.style import FOOTER_GREY, SMALL_PT
from printgen.games.header import RULING_KEY, RULING_MARK

GAMES = ("one_minute_war", "armies", "omiga", "quick_violence", "fracas")
PAPERS = ("a4", "letter")


def key_chars(page) -> list[dict]:
    """The characters of the key's line(s): from its dagger to the end of its last word."""
    text = page.extract_text_lines()
    lines = [line for line in text if line["text"].startswith(RULING_MARK + " A clarification")]
    assert len(lines) <= 1
    if not lines:
        return []
    top = lines[0]["top"]
    rest = RULING_KEY.split()[-1]
    last = next(line for line in text if line["top"] >= top and line["text"].endswith(rest))
    return [c for c in page.chars if top - 0.5 <= c["top"] <= last["top"] + 0.5
            and lines[0]["x0"] - 0.5 <= c["x0"] <= max(lines[0]["x1"], last["x1"])]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_the_rules_open_their_closing_notes_with_the_key(all_games_built, game, paper):
    with pdfplumber.open(all_games_built[paper] / game / f"{game}.pdf") as pdf:
        whole = " ".join(reading_text(page) for page in pdf.pages)
    at = whole.index("Notes on this edition")
    assert whole.count(RULING_KEY) == 1 and whole.index(RULING_KEY) == at + len("Notes on this edition ")
    assert "The original rules" not in whole[:at]  # the edition's talk is gathered in the notes
    assert f"? {RULING_MARK}" not in whole, "a dagger opens an answer"


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_the_reference_prints_the_key_as_a_caption_at_the_foot_of_the_front(all_games_built, game, paper):
    with pdfplumber.open(all_games_built[paper] / game / f"{game}-reference.pdf") as pdf:
        whole = pdf.pages[0]
        mid, half = float(whole.width) / 2, float(whole.height) / 2
        # the foot of a column of the front: the last (right) one, or the first where a picture
        # fills the last (Omiga's tiles at actual size)
        columns = [whole.crop((mid, 0, float(whole.width), half - 10 * MM)), whole.crop((0, 0, mid, half - 10 * MM))]
        page = next((column for column in columns if key_chars(column)), columns[0])
        chars = key_chars(page)
        assert chars, game
        grey = tuple(int(FOOTER_GREY[i:i + 2], 16) / 255 for i in (1, 3, 5))
        assert {round(c["size"], 1) for c in chars} == {SMALL_PT}
        assert all("Oblique" in c["fontname"] or "Italic" in c["fontname"] for c in chars if c["text"].strip())
        assert all(tuple(round(float(v), 2) for v in c["non_stroking_color"]) == tuple(round(v, 2) for v in grey)
                   for c in chars if c["text"].strip())
        top = min(c["top"] for c in chars)
        # nothing of the right column below it in the front half: it is the column's foot
        below = [w for w in page.extract_words() if w["top"] > top + 12]
        assert below == [], [w["text"] for w in below]
        assert RULING_KEY not in " ".join((whole.crop((0, 0, whole.width, top - 1)).extract_text() or "").split())
