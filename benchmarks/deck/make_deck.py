"""Write the deck benchmark's inputs: the same poker deck for printgen, for decksmith and for a bare
reportlab script, at any number of cards.

    python benchmarks/deck/make_deck.py 1000 /tmp/deck1000

Each card has a title, a text box that wraps to three lines, a picture shared by every card, an
icon and a cost; all cards share one back. The folder gets deck.yaml + cards.csv (printgen),
peer.yaml + peer.csv (decksmith, drawn at 300 dpi) and art.png + icon.png (both tools).
"""
from __future__ import annotations

import csv
import sys
from pathlib import Path

from PIL import Image, ImageDraw

WORDS = ("ember frost moss storm quiet cinder glass gale river stone ash dawn hollow bright thorn "
         "velvet").split()
DPI = 300
PX = DPI / 25.4

DEFINITION = """\
game: deck
title: Benchmark deck
card: {size: poker, bleed: 2, safe: 3}
data: cards.csv
columns: {cost: whole number}
name: "{{ title }}"
icons: {gem: icon.png}
face:
  background: "#f3efe6"
  layout:
    - {type: rect, x: 3, y: 3, width: 57.5, height: 11, radius: 2, fill: "#ffffff", stroke: "#404040"}
    - {type: text, text: "{{ title }}", x: 5, y: 5, width: 41, height: 7, size: 12, min_size: 8, font: bold, valign: middle}
    - {type: ellipse, x: 48, y: 3.5, width: 10, height: 10, fill: "#404040"}
    - {type: text, text: "{{ cost }}", x: 48, y: 5, width: 10, height: 7, size: 14, font: bold, colour: "#ffffff", align: center, valign: middle}
    - {type: image, src: art.png, x: 11.75, y: 17, width: 40, height: 36}
    - {type: text, text: "{{ text }}", x: 5, y: 58, width: 53.5, height: 22, size: 10}
back:
  background: "#2f3e4e"
  layout:
    - {type: text, text: Benchmark, x: 6, y: 40, width: 51.5, height: 8, size: 14, font: bold, colour: "#ffffff", align: center}
sheet: {layout: duplex, cut: marks}
"""

PEER = """\
width: 750
height: 1050
background_color: [243, 239, 230]
elements:
  - {type: rectangle, size: [679, 130], position: [35, 35], color: [255, 255, 255], outline_color: [64, 64, 64], outline_width: 4, corner_radius: 24}
  - {type: text, text: "%title%", position: [59, 59], font_size: 50, color: [0, 0, 0]}
  - {type: circle, radius: 59, position: [626, 100], color: [64, 64, 64]}
  - {type: text, text: "%cost%", position: [610, 66], font_size: 58, color: [255, 255, 255]}
  - {type: image, path: art.png, position: [139, 201], filters: {resize: [472, 425]}}
  - {type: image, path: icon.png, position: [59, 680], filters: {resize: [40, 40]}}
  - {type: text, text: "%text%", position: [105, 680], font_size: 42, width: 590, color: [0, 0, 0]}
"""


def text_of(n: int) -> str:
    """About three lines of a 53.5 mm box at 10 pt, starting with the icon."""
    words = [WORDS[(n * 7 + k * 3) % len(WORDS)] for k in range(17)]
    return ":gem: " + " ".join(words).capitalize() + "."


def main() -> None:
    count, folder = int(sys.argv[1]), Path(sys.argv[2])
    folder.mkdir(parents=True, exist_ok=True)
    art = Image.new("RGB", (472, 425), (214, 230, 245))
    draw = ImageDraw.Draw(art)
    draw.polygon([(236, 40), (400, 380), (72, 380)], fill=(47, 62, 78))
    art.save(folder / "art.png")
    icon = Image.new("RGB", (64, 64), (176, 58, 46))
    icon.save(folder / "icon.png")
    (folder / "deck.yaml").write_text(DEFINITION, encoding="utf-8")
    (folder / "peer.yaml").write_text(PEER, encoding="utf-8")
    rows = [{"title": f"{WORDS[n % len(WORDS)].capitalize()} card {n + 1}", "cost": n % 6,
             "text": text_of(n)} for n in range(count)]
    with open(folder / "cards.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=["title", "cost", "text"])
        writer.writeheader()
        writer.writerows(rows)
    with open(folder / "peer.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=["title", "cost", "text"], delimiter=";")
        writer.writeheader()
        writer.writerows({**row, "text": row["text"].removeprefix(":gem: ")} for row in rows)


if __name__ == "__main__":
    main()
