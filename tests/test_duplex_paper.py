"""Duplex follows the paper: every back lands behind its own card on every paper, portrait and
landscape, for both flip edges, with and without a back offset, on a part-filled last sheet too.

The deck's every card carries a mark at its centre on its face and on its back, a rectangle whose
width is its own (2.5, 3, 3.5 ... mm), and each card type has a back of its own colour. Read from
the built PDF, each back's mark must lie within 0.5 mm of its face's mark carried over by the
printer's turn of the paper: a portrait page turns over its sides on the long edge and its top on
the short; a landscape page the other way round. The captions must name the edge to choose."""
from __future__ import annotations

import io
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from printgen.core.build import BuildOptions
from printgen.core.paper import SHEET_PAPERS
from printgen.games import load

MM = 72 / 25.4
CARD_W, CARD_H = 80.0, 110.0  # big: a few cards fill a sheet, so eleven make two or more
CARDS = 11  # prime: a part-filled last sheet whatever a sheet holds (2 to 10 here)
FACE, BACK_A, BACK_B = (1.0, 0.0, 0.0), (0.0, 0.6, 0.0), (0.0, 0.0, 1.0)  # the marks' fills

DECK = """\
%YAML 1.2
---
game: deck
title: Marks
card:
  width: 80
  height: 110
  bleed: 0
data: cards.csv
face:
  background: "#ffffff"
  layout:
    - type: rect
      x: "{{ 40 - (2 + number * 0.5) / 2 }}"
      y: 53.5
      width: "{{ 2 + number * 0.5 }}"
      height: 3
      fill: "#ff0000"
    - type: text
      text: "{{ title }}"
      x: 10
      y: 10
      width: 60
      height: 8
      size: 12
back_layout: "{{ 'back-a' if kind == 'a' else 'back-b' }}"
layouts:
  back-a:
    background: "#ffffff"
    layout:
      - id: mark
        type: rect
        x: "{{ 40 - (2 + number * 0.5) / 2 }}"
        y: 53.5
        width: "{{ 2 + number * 0.5 }}"
        height: 3
        fill: "#009900"
      - type: text
        text: "back of {{ title }}"
        x: 10
        y: 10
        width: 60
        height: 8
        size: 12
  back-b:
    extends: back-a
    replace:
      mark:
        type: rect
        x: "{{ 40 - (2 + number * 0.5) / 2 }}"
        y: 53.5
        width: "{{ 2 + number * 0.5 }}"
        height: 3
        fill: "#0000ff"
sheet:
  orientation: {orientation}
  layout: duplex
"""


@pytest.fixture(scope="module")
def decks(tmp_path_factory) -> dict[str, Path]:
    """The deck twice, laid out portrait and landscape, beside one CSV of eleven cards of two kinds."""
    folder = tmp_path_factory.mktemp("marks")
    rows = "".join(f"Card {n},{'a' if n % 3 else 'b'},1\n" for n in range(1, CARDS + 1))
    (folder / "cards.csv").write_text("title,kind,copies\n" + rows, encoding="utf-8")
    made = {}
    for orientation in ("portrait", "landscape"):
        made[orientation] = folder / f"{orientation}.yaml"
        made[orientation].write_text(DECK.replace("{orientation}", orientation), encoding="utf-8")
    return made


def built_pdf(definition: Path, paper: str, flip: str, offset: tuple[float, float] = (0.0, 0.0)) -> bytes:
    """deck.pdf as `printgen build --paper PAPER --flip FLIP --back-offset X,Y` writes it."""
    options = BuildOptions(SHEET_PAPERS[paper], flip, offset, pictures=False, paper_given=True)  # type: ignore[arg-type]
    return next(a.data for a in load(definition).build(options) if a.name.endswith(".pdf"))


def near(a: float, b: float, tolerance: float = 0.05) -> bool:
    return abs(a - b) < tolerance


def marks(page, fill: tuple[float, ...]) -> dict[int, tuple[float, float]]:
    """The card number each mark of this fill stands for (by its width) -> its centre, mm, y up."""
    found = {}
    for r in page.rects:
        colour = tuple(float(c) for c in (r.get("non_stroking_color") or ()))
        if len(colour) != 3 or any(not near(c, f, 0.01) for c, f in zip(colour, fill)):
            continue
        width, height = (r["x1"] - r["x0"]) / MM, (r["bottom"] - r["top"]) / MM
        if not near(height, 3.0):
            continue
        number = round((width - 2) / 0.5)
        assert near(width, 2 + number * 0.5) and number not in found, (width, found)
        found[number] = ((r["x0"] + r["x1"]) / 2 / MM, (float(page.height) - (r["top"] + r["bottom"]) / 2) / MM)
    return found


def behind(point: tuple[float, float], size: tuple[float, float], flip: str) -> tuple[float, float]:
    """Where the printer puts, on the back page, the point behind `point` of the front: the paper
    turns over on its long or short edge, and a landscape page's long edges are its top and bottom."""
    (x, y), (width, height) = point, size
    landscape = width > height
    if (flip == "long") != landscape:
        return width - x, y  # over the page's sides
    return x, height - y  # over the page's top


def upside_down(page) -> set[bool]:
    """For the cards' 12 pt text (not the caption): is it drawn turned 180 degrees?"""
    return {c["matrix"][0] < 0 and c["matrix"][3] < 0 for c in page.chars if c["size"] > 10}


def caption_chars(page, at_top: bool = False) -> list[dict]:
    height = float(page.height)
    return [c for c in page.chars if (c["top"] if at_top else height - c["bottom"]) / MM < 9]


def crossing(page, chars: list[dict]) -> list[dict]:
    """The lines (cut marks) that run into the box round `chars`."""
    x0, x1 = min(c["x0"] for c in chars), max(c["x1"] for c in chars)
    top, bottom = min(c["top"] for c in chars), max(c["bottom"] for c in chars)
    return [line for line in page.lines
            if line["x0"] <= x1 and line["x1"] >= x0 and line["top"] <= bottom and line["bottom"] >= top]


def caption(page, at_top: bool = False) -> str:
    """The page's caption: the text in its bottom margin (or its top margin)."""
    return "".join(c["text"] for c in caption_chars(page, at_top))


CASES = [(paper, orientation, flip, (0.0, 0.0)) for paper in ("a4", "letter", "a3", "tabloid")
         for orientation in ("portrait", "landscape") for flip in ("long", "short")]
CASES += [("letter", "landscape", "long", (1.5, -0.75)), ("a4", "portrait", "short", (-1.0, 0.5))]


@pytest.mark.parametrize("paper, orientation, flip, offset", CASES,
                         ids=[f"{p}-{o}-{f}" + ("-offset" if any(d) else "") for p, o, f, d in CASES])
def test_every_back_lies_behind_its_own_card(decks, paper, orientation, flip, offset):
    data = built_pdf(decks[orientation], paper, flip, offset)
    assert f"/DuplexFlip{flip.capitalize()}Edge" in str(PdfReader(io.BytesIO(data)).trailer["/Root"]["/ViewerPreferences"])
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        pages = pdf.pages
        size = (float(pages[0].width) / MM, float(pages[0].height) / MM)
        assert (size[0] > size[1]) == (orientation == "landscape")
        assert len(pages) >= 4 and len(pages) % 2 == 0  # two sheets or more, each a front and its back
        seen, per_sheet = [], []
        for front, back in zip(pages[0::2], pages[1::2]):
            faces = marks(front, FACE)
            backs = {**marks(back, BACK_A), **marks(back, BACK_B)}
            assert set(backs) == set(faces) and faces, (sorted(faces), sorted(backs))
            for number, centre in faces.items():
                kind = BACK_A if number % 3 else BACK_B  # the card's own back, of its own kind
                assert number in marks(back, kind), number
                want = behind(centre, size, flip)
                want = (want[0] + offset[0], want[1] + offset[1])  # x right, y up, as the back is viewed
                got = backs[number]
                assert abs(got[0] - want[0]) <= 0.5 and abs(got[1] - want[1]) <= 0.5, (number, got, want)
            turned = (flip == "long") == (orientation == "landscape")  # over the page's top: upside down
            assert upside_down(back) == {turned}
            assert upside_down(front) == {False}
            seen += faces
            per_sheet.append(len(faces))
            edge = f"Print on both sides, flip on {flip} edge"
            # a sheet turned top to bottom: its caption speaks of the cards, which turn like a page
            turn = "turn its card over like a page" if turned else "turns over side to side"
            # the back's caption lies behind the front's: at the back page's top when turned top to bottom
            assert edge in caption(front) and edge in caption(back, at_top=turned), caption(front)
            assert turn in caption(back, at_top=turned), caption(back, at_top=turned)
            assert not caption(back, at_top=not turned)
            assert not crossing(front, caption_chars(front)) and not crossing(back, caption_chars(back, turned))
        assert sorted(seen) == list(range(1, CARDS + 1))
        assert 0 < per_sheet[-1] < per_sheet[0]  # the last sheet is part-filled, and checked as the others


@pytest.mark.parametrize("flip", ["long", "short"])
def test_the_backs_caption_lies_behind_the_fronts_clear_of_every_cut_mark(decks, tmp_path, flip):
    # 90.67 mm cards: three rows on A4 only with the caption's room at the foot, so the sheet's top
    # margin is too narrow for a caption beside the marks that the back mirrors down from it
    definition = tmp_path / "tight.yaml"
    definition.write_text(decks["portrait"].read_text().replace("height: 110", "height: 90.67"), encoding="utf-8")
    (tmp_path / "cards.csv").write_bytes((decks["portrait"].parent / "cards.csv").read_bytes())
    with pdfplumber.open(io.BytesIO(built_pdf(definition, "a4", flip))) as pdf:
        front, back = pdf.pages[0], pdf.pages[1]
        assert len(marks(front, FACE)) == 6  # two columns, three rows
        turned = flip == "short"
        assert caption_chars(back, at_top=turned) and not caption_chars(back, at_top=not turned)
        assert not crossing(front, caption_chars(front)) and not crossing(back, caption_chars(back, turned))
