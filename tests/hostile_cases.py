"""Hostile input for the newer surfaces, made on the spot for the bad-input corpus: decks that
would draw for hours, paths that are not files, CSV cells with control bytes, recorded wars with
absurd numbers, links planted in the output folder, spreadsheet formulas and pickled payloads.

`CASES` maps a corpus name to the function that writes the case into the folder the test builds
from (the case's own `.yaml`, `.args` and `.files/` in tests/bad_inputs/ are copied first);
`AFTERWARDS` maps a name to a check of the output folder once the command has run. Every case runs
in a fresh process whose peak memory is measured (tests/test_bad_inputs.py).
"""
from __future__ import annotations

import os
import pickle
from pathlib import Path
from typing import Callable

from printgen.games import bundled_definition

DECK = """game: deck
title: {title}
card:
  size: poker
data: cards.csv
face:
  layout:
    - type: text
      text: "{{{{ title }}}}"
      x: 5
      y: 5
      width: 40
      height: 8
"""


def deck(folder: Path, name: str, rows: list[str], extra: str = "", title: str = "Hostile Deck") -> None:
    """A small deck definition (plus `extra` YAML) with a CSV of `rows` under a `title,cost` header."""
    (folder / f"{name}.yaml").write_text(DECK.format(title=title) + extra)
    (folder / "cards.csv").write_text("title,cost\n" + "".join(f"{row}\n" for row in rows))


def twenty_million_cards(folder: Path, name: str) -> None:
    """20,000 rows of 1,000 copies each: 230 KB of CSV asking for 20 million cards."""
    deck(folder, name, [])
    (folder / "cards.csv").write_text("title,copies\n" + "".join(f"Card {i},1000\n" for i in range(20_000)))


USE_GRID = """<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     width="{{ card.width }}mm" height="{{ card.height }}mm" viewBox="0 0 {{ card.width }} {{ card.height }}">
<defs><g id="r">{% for i in range(96) %}<rect x="{{ i * 0.6 }}" y="0" width="0.3" height="0.3"/>{% endfor %}</g></defs>
{% for j in range(95) %}<use xlink:href="#r" y="{{ j * 0.9 }}"/>{% endfor %}
<text x="5" y="5">{{ title }}</text>
</svg>
"""


def many_elements_a_row(folder: Path, name: str) -> None:
    """A 0.5 KB back template drawing 9,216 elements through <use>, different on each of 2,000 rows."""
    deck(folder, name, [f"Card {i},1" for i in range(2_000)], "back:\n  template: back.svg.j2\n")
    (folder / "back.svg.j2").write_text(USE_GRID)


def texts_past_the_budget(folder: Path, name: str) -> None:
    """A card name template making 190,000 characters, different on each of 400 rows: 76 million."""
    deck(folder, name, [f"Card {i},1" for i in range(400)], "name: \"{{ number }}{{ 'x' * 190000 }}\"\n")


def icon_outside(folder: Path, name: str) -> None:
    (folder.parent / "gem.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>\n')
    deck(folder, name, ["Ruby,1"], "icons:\n  gem: ../gem.svg\n")


def icon_fifo(folder: Path, name: str) -> None:
    deck(folder, name, ["Ruby,1"], "icons:\n  gem: gem.svg\n")
    os.mkfifo(folder / "gem.svg")


def data_fifo(folder: Path, name: str) -> None:
    deck(folder, name, [])
    (folder / "cards.csv").unlink()
    os.mkfifo(folder / "cards.csv")


def omw(folder: Path, name: str) -> None:
    """The bundled One Minute War definition, for the recorded wars to be replayed against."""
    (folder / f"{name}.yaml").write_bytes(bundled_definition("one_minute_war").read_bytes())


def record(text: str) -> Callable[[Path, str], None]:
    def make(folder: Path, name: str) -> None:
        omw(folder, name)
        (folder / "war.record").write_text(text)
    return make


def linked_output(inside: str) -> Callable[[Path, str], None]:
    """A small deck whose output folder `out/<inside>` is a link to a folder elsewhere."""
    def make(folder: Path, name: str) -> None:
        deck(folder, name, ["Ruby,1"])
        elsewhere = folder.parent / "elsewhere"
        elsewhere.mkdir()
        link = folder.parent / "out" / inside.format(name=name)
        link.parent.mkdir(parents=True)
        link.symlink_to(elsewhere, target_is_directory=True)
    return make


def nothing_elsewhere(out: Path) -> None:
    elsewhere = out.parent / "elsewhere"
    assert list(elsewhere.iterdir()) == [], "a file went through the planted link"


class Payload:
    """Unpickling this runs a command that leaves a mark: proof that something unpickled the file."""

    def __init__(self, mark: Path) -> None:
        self.mark = mark

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.system, (f"touch {self.mark}",)


def pickled(where: str) -> Callable[[Path, str], None]:
    """A small deck naming a file whose bytes are a pickle that would run a command if loaded."""
    def make(folder: Path, name: str) -> None:
        mark = folder.parent / "ran"
        if where == "data":
            deck(folder, name, [])
            (folder / "cards.csv").write_bytes(pickle.dumps(Payload(mark), protocol=0))
        else:
            deck(folder, name, ["Ruby,1"], "icons:\n  gem: gem.png\n")
            (folder / "gem.png").write_bytes(pickle.dumps(Payload(mark)))
    return make


def never_ran(out: Path) -> None:
    assert not (out.parent / "ran").exists(), "a pickled payload ran"


def formulas_neutralised(out: Path) -> None:
    """Every manifest cell a spreadsheet would read as a formula starts with an apostrophe."""
    import csv

    (manifest,) = out.rglob("manifest.csv")
    cells = [cell for row in csv.reader(manifest.open(newline="")) for cell in row]
    risky = [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]
    assert risky == [], risky
    assert any(cell.startswith(("'=", "'@")) for cell in cells), cells


def formula_titles(folder: Path, name: str, title: str, rows: list[str]) -> None:
    deck(folder, name, rows, title=title)


def with_rows(rows: list[str], extra: str = "", folder_named: str = "") -> Callable[[Path, str], None]:
    def make(folder: Path, name: str) -> None:
        deck(folder, name, rows, extra)
        if folder_named:
            (folder / folder_named).mkdir()
            (folder / folder_named / "inside.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>\n')
    return make


def workbook(folder: Path, name: str, part: str = "", text: str = "", cells: dict[str, str] | None = None,
             dimension: str = "") -> None:
    """A deck reading cards.xlsx: two rows written by openpyxl, `cells` set (a formula is saved, as
    openpyxl saves it, without its result), then `part` of the file replaced by `text` and the
    sheet's size header said to be `dimension`."""
    import io
    import re
    import zipfile

    import openpyxl

    (folder / f"{name}.yaml").write_text(DECK.format(title="Workbook Deck").replace("cards.csv", "cards.xlsx"))
    book = openpyxl.Workbook()
    book.active.title = "Cards"
    for row in (["title", "cost"], ["Ruby", 1], ["Jade", 2]):
        book.active.append(row)
    for ref, value in (cells or {}).items():
        book.active[ref] = value
    written = io.BytesIO()
    book.save(written)
    with zipfile.ZipFile(written) as source, zipfile.ZipFile(folder / "cards.xlsx", "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            data = source.read(item)
            if item.filename == "xl/worksheets/sheet1.xml" and dimension:
                data = re.sub(rb'<dimension ref="[^"]*"', f'<dimension ref="{dimension}"'.encode(), data)
            out.writestr(item.filename, text.encode() if item.filename == part else data)
        if part and part not in source.namelist():
            out.writestr(part, text.encode())


def styles_expand(folder: Path, name: str) -> None:
    """A 300 KB workbook whose styles part unpacks to 2 million cell formats (openpyxl: 1.9 GiB)."""
    head = '<?xml version="1.0"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    formats = '<xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>' * 500_000
    workbook(folder, name, "xl/styles.xml", f'{head}<cellXfs count="500000">{formats}</cellXfs></styleSheet>')


def shared_strings(folder: Path, name: str) -> None:
    """A workbook of 1.5 million shared strings in 60 KB (openpyxl: some 30 s and 700 MiB)."""
    head = '<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    workbook(folder, name, "xl/sharedStrings.xml", head + "<si><t>a</t></si>" * 1_500_000 + "</sst>")


def wide_row(folder: Path, name: str) -> None:
    """A 30 KB workbook whose second row holds 1.2 million empty cells (openpyxl parses each one)."""
    workbook(folder, name, cells={"A2": "Ruby"})
    import zipfile

    with zipfile.ZipFile(folder / "cards.xlsx") as source:
        parts = {item.filename: source.read(item) for item in source.infolist()}
    sheet = parts["xl/worksheets/sheet1.xml"].decode()
    second = sheet.index("</row>", sheet.index('<row r="2"'))
    parts["xl/worksheets/sheet1.xml"] = (sheet[:second] + "<c/>" * 1_200_000 + sheet[second:]).encode()
    with zipfile.ZipFile(folder / "cards.xlsx", "w", zipfile.ZIP_DEFLATED) as out:
        for part, data in parts.items():
            out.writestr(part, data)


def far_below(folder: Path, name: str) -> None:
    """A card at row 45,000 of a sheet whose size header says it has 3 rows (it was lost unread)."""
    workbook(folder, name, cells={"A45000": "Opal", "B45000": "3"}, dimension="A1:B3")


CASES: dict[str, Callable[[Path, str], None]] = {
    "deck_icon_missing": with_rows(["Ruby,1"], "icons:\n  gem: gem.svg\n"),
    "deck_icon_folder": with_rows(["Ruby,1"], "icons:\n  gem: gem.svg\n", folder_named="gem.svg"),
    "deck_csv_nul_cell": with_rows(["Ru\0by,1", "Jade,2"]),
    "deck_csv_control_character": with_rows(["Ruby,1", "Ja\x07de,2"]),
    "deck_cards_20_million": twenty_million_cards,
    "deck_template_9216_elements_a_row": many_elements_a_row,
    "deck_name_texts_past_64_mib": texts_past_the_budget,
    "deck_icon_outside": icon_outside,
    "deck_icon_fifo": icon_fifo,
    "deck_data_fifo": data_fifo,
    "deck_xlsx_styles_expand_to_gigabytes": styles_expand,
    "deck_xlsx_1500000_shared_strings": shared_strings,
    "deck_xlsx_row_45000_under_a_3_row_header": far_below,
    "deck_xlsx_row_of_1200000_cells": wide_row,
    "deck_xlsx_formula_without_result": lambda folder, name: workbook(folder, name, cells={"B3": "=B2+1"}),
    "replay_move_5000_digits": record("# a war\n" + "4 " + "9" * 5000 + "\n"),
    "replay_word_500000_characters": record("4 " + "x" * 500_000 + "\n"),
    "out_game_folder_is_a_link": linked_output("{name}"),
    "out_svg_folder_is_a_link": linked_output("{name}/svg"),
    "code_pickle_as_csv": pickled("data"),
    "code_pickle_as_png": pickled("icon"),
    "export_formula_title_harmless": lambda folder, name: formula_titles(
        folder, name, "\"=cmd|' /C calc'!A0\"", ["\"=cmd|' /C calc'!A0\",1", "+SUM(A1:A9),2"]),
    "export_formula_cells_harmless": lambda folder, name: formula_titles(
        folder, name, "\"@SUM(1)+2\"", ["@SUM(1),1", "-2+3,1"]),
}

AFTERWARDS: dict[str, Callable[[Path], None]] = {
    "out_game_folder_is_a_link": nothing_elsewhere,
    "out_svg_folder_is_a_link": nothing_elsewhere,
    "code_pickle_as_csv": never_ran,
    "code_pickle_as_png": never_ran,
    "export_formula_title_harmless": formulas_neutralised,
    "export_formula_cells_harmless": formulas_neutralised,
}
