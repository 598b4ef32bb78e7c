"""Hostile decks held to counted work (issue 44): numbers in path data within reach, elements counted
before they are drawn, a picture converted once per file, shrink-to-fit by halving, and `extends`
counted on the layouts' graph. Each through the real command: its exit code, message, output, and
the CPU seconds it took (never the wall clock)."""
from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pdfplumber
from reportlab.lib.colors import HexColor

from cputime import cpu_seconds
from printgen.core.paper import font_mm
from printgen.drawing import fonts
from printgen.games.deck import textbox
from printgen.games.deck.budget import MAX_BUILD_ELEMENTS, MAX_SIDE_ELEMENTS
from printgen.games.deck.layouts import MAX_DEPTH

REPO = Path(__file__).resolve().parent.parent


def printgen(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "printgen.launch", *args], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=600)


def deck(folder: Path, body: str, rows: str = "name\nOne\n") -> Path:
    (folder / "cards.csv").write_text(rows)
    path = folder / "deck.yaml"
    path.write_text("game: deck\ntitle: Hostile\ncard:\n  size: poker\ndata: cards.csv\n" + body)
    return path


def refused(result: subprocess.CompletedProcess[str], folder: Path) -> list[str]:
    assert result.returncode == 2, result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert not (folder / "out").exists(), "a refused deck writes nothing"
    return result.stderr.splitlines()


# -- one reach for numbers ---------------------------------------------------------------------------

def test_path_numbers_from_a_cell_and_a_clip_are_held_to_the_reach(tmp_path):
    deck(tmp_path, "face:\n  layout:\n"
                   "    - {type: path, d: 'M 0 0 L {{ far }} 10 L 5 20 Z', fill: '#000000'}\n"
                   "    - {type: rect, x: 5, y: 5, width: 9, height: 9, fill: '#000000',\n"
                   "       clip: {d: 'M 0 0 L 10 0 L 10 {{ far }} Z'}}\n",
         "name,far\nOne,5\nTwo,1e999\nThree,-4e4\nFour,nan\n")
    # a clip's d is not a template: the literal braces are not path data
    lines = refused(printgen(tmp_path, "build", "deck.yaml", "--out", "out"), tmp_path)
    assert lines[0].startswith("deck.yaml:10: face.layout[1].clip.d: expected SVG path data")
    (tmp_path / "deck.yaml").write_text((tmp_path / "deck.yaml").read_text().replace("{{ far }} Z", "1e308 Z"))
    with cpu_seconds() as took:
        lines = refused(printgen(tmp_path, "build", "deck.yaml", "--out", "out"), tmp_path)
    assert lines == ["deck.yaml:10: face.layout[1].clip.d: 'L 10 1e308' (command 3) takes the path to 1e+308 mm; "
                     "expected every point within 1000 mm of the card's corner",
                     "printgen: 1 problem found; nothing was written."]
    (tmp_path / "deck.yaml").write_text((tmp_path / "deck.yaml").read_text().replace("1e308 Z", "20 Z"))
    lines = refused(printgen(tmp_path, "build", "deck.yaml", "--out", "out"), tmp_path)
    assert lines[:2] == [
        "cards.csv:3: row 2: face.layout[0].d (deck.yaml:8): 'L 1e999 10' (command 2) takes the path to inf mm; "
        "expected every point within 1000 mm of the card's corner",
        "cards.csv:4: row 3: face.layout[0].d (deck.yaml:8): 'L -4e4 10' (command 2) takes the path to -40000 mm; "
        "expected every point within 1000 mm of the card's corner"]
    assert "cards.csv:5: row 4: face.layout[0].d" in lines[2]  # nan is no number: not path data at all
    assert took.seconds < 10


def test_a_path_within_reach_prints_where_it_says(tmp_path):
    deck(tmp_path, "face:\n  layout:\n    - {type: path, d: 'M 0 0 l 900 0 l -890 0 l 0 10 Z', x: 5, y: 5, "
                   "fill: '#000000'}\n")
    result = printgen(tmp_path, "build", "deck.yaml", "--out", "out", "--layout", "fronts")
    assert result.returncode == 0, result.stderr
    with pdfplumber.open(tmp_path / "out" / "deck" / "deck.pdf") as pdf:
        assert pdf.pages[0].curves or pdf.pages[0].rects or pdf.pages[0].lines


# -- elements counted ------------------------------------------------------------------------------

def chain(levels: int, per_layout: int = 200) -> str:
    """Layouts each extending the one before and repeating one list of elements through an alias."""
    items = ", ".join(["{type: rect, x: 5, y: 6, width: 3, height: 3, fill: '#000000'}"] * per_layout)
    return (f"face_layout: l{levels - 1}\nlayouts:\n  l0:\n    layout: &els [{items}]\n"
            + "".join(f"  l{i}:\n    extends: l{i - 1}\n    layout: *els\n" for i in range(1, levels)))


def test_aliases_cannot_make_a_side_draw_thousands_of_elements(tmp_path):
    path = deck(tmp_path, chain(20), "name\n" + "".join(f"c{i}\n" for i in range(2000)))
    assert path.stat().st_size < 16_000
    with cpu_seconds() as took:
        lines = refused(printgen(tmp_path, "build", "deck.yaml", "--out", "out"), tmp_path)
    first_past = MAX_SIDE_ELEMENTS // 200  # l5 draws 1,200
    assert lines == [f"deck.yaml:{8 + 3 * first_past}: layouts.l{first_past}.extends: this layout draws 1,200 "
                     f"elements with those it inherits; one side of a card draws at most {MAX_SIDE_ELEMENTS:,} "
                     "(each takes about 0.1 ms on every card): extend fewer layouts, or draw fewer elements",
                     "printgen: 1 problem found; nothing was written."]
    assert took.seconds < 10


def test_a_build_draws_at_most_a_million_elements(tmp_path):
    per_row = MAX_SIDE_ELEMENTS  # five layouts of 200: the most a side may draw
    rows = MAX_BUILD_ELEMENTS // per_row + 1
    deck(tmp_path, chain(5), "name\n" + "".join(f"c{i}\n" for i in range(rows)))
    with cpu_seconds() as took:
        lines = refused(printgen(tmp_path, "build", "deck.yaml", "--out", "out"), tmp_path)
    assert lines == [f"cards.csv:{rows + 1}: row {rows}: the faces and backs of the rows up to this one draw "
                     f"{rows * per_row:,} elements; one build draws at most {MAX_BUILD_ELEMENTS:,} (about 0.1 ms "
                     "each): draw fewer elements on each card, or split the deck",
                     "printgen: 1 problem found; nothing was written."]
    assert took.seconds < 10  # refused before a card is drawn: drawing them would take minutes


# -- a picture converted once per file ---------------------------------------------------------------

def test_one_svg_under_many_names_is_converted_once(tmp_path):
    squares = "".join(f'<rect x="{i % 50}" y="{i // 50}" width="1" height="1" fill="#000"/>' for i in range(2500))
    (tmp_path / "i.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="50" height="50" '
                                    f'viewBox="0 0 50 50">{squares}</svg>')
    icons = "".join(f"  i{k}: {'./' * k}i.svg\n" for k in range(100))  # 100 spellings of one file
    text = " ".join(f":i{k}:" for k in range(0, 100, 10))
    deck(tmp_path, f"icons:\n{icons}face:\n  layout:\n    - {{type: text, text: '{text}', x: 5, y: 5, "
                   "width: 50, height: 30, size: 8}\n")
    with cpu_seconds() as took:
        result = printgen(tmp_path, "build", "deck.yaml", "--out", "out", "--layout", "fronts")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "deck" / "deck.pdf").stat().st_size > 0
    # converted once per spelling, this build took 40.6 CPU seconds; once per file 1.2
    assert took.seconds < 8, f"{took.seconds:.1f} CPU seconds"


# -- shrink-to-fit by halving ------------------------------------------------------------------------

def every_step(text: str, kind: textbox.Type, least: float, box: textbox.Box, wrap: bool,
               line_height: float, measure: textbox.TextWidths | None = None) -> float | None:
    """The size the old search found: every 0.5 pt from the element's size down."""
    measure = measure or textbox.text_widths()
    paragraphs = textbox.tokens(text, {})
    size = kind.size
    while size >= least - 1e-9 and size >= fonts.MIN_PT - 1e-9:
        lines = textbox.lines_at(paragraphs, kind, size, box.width, wrap, measure)
        tall = textbox.baselines(lines, font_mm(size), line_height)[1]
        if max((line.width for line in lines), default=0.0) <= box.width + 1e-6 and tall <= box.height + 1e-6:
            return size
        size = round(size - textbox.STEP, 2)
    return None


def test_halving_finds_the_size_trying_every_step_found():
    chance = random.Random(44)
    words = "the a sword shield of attack defend moving Wizards extraordinary x III <b>bold</b> <i>it</i>".split()
    measure = textbox.text_widths()  # one cache of word widths for every case, as a deck shares one
    for _ in range(1500):
        text = " ".join(chance.choice(words + ["\n"]) for _ in range(chance.randint(1, 120)))
        kind = textbox.Type(lambda style: fonts.BOLD if style.bold else fonts.REGULAR,
                            chance.choice([12, 20, 33.5, 72]), HexColor("#000000"))
        box = textbox.Box(0, 0, chance.uniform(5, 60), chance.uniform(3, 80))
        least, wrap, line_height = chance.choice([7, 8, 10.5]), chance.random() < 0.8, chance.choice([1.0, 1.2, 1.5])
        found = textbox.fit(text, {}, kind, least, box, wrap, line_height, measure)
        assert (found and found[0]) == every_step(text, kind, least, box, wrap, line_height, measure), (text, box)


def test_long_texts_shrink_in_few_tries(tmp_path):
    long = " ".join(["Deal three damage to every card in play and then draw two."] * 12)
    deck(tmp_path, "face:\n  layout:\n    - {type: text, text: '{{ text }}', x: 5, y: 5, width: 53, height: 78, "
                   "size: 72, min_size: 7}\n",
         "name,text\n" + "".join(f"c{i},{long} {i}\n" for i in range(200)))
    with cpu_seconds() as took:
        result = printgen(tmp_path, "build", "deck.yaml", "--out", "out", "--layout", "fronts")
    assert result.returncode == 0, result.stderr
    expected = every_step(long + " 0", textbox.Type(lambda style: fonts.REGULAR, 72, HexColor("#000000")), 7,
                          textbox.Box(5, 5, 53, 78), True, 1.2)
    assert expected is not None and 7 < expected < 12
    with pdfplumber.open(tmp_path / "out" / "deck" / "deck.pdf") as pdf:
        sizes = {round(char["size"], 2) for char in pdf.pages[0].chars if char["text"] == "D"}
    assert sizes == {round(expected, 2)}
    # trying every size from 72 pt down took 21.5 CPU seconds for this build; halving 3.8
    assert took.seconds < 12, f"{took.seconds:.1f} CPU seconds"


# -- extends counted on the graph --------------------------------------------------------------------

def test_extends_depth_is_counted_whatever_the_order(tmp_path):
    levels = MAX_DEPTH + 10
    said = {}
    for order in ("base first", "base last"):
        items = [f"  l{i}:\n" + (f"    extends: l{i - 1}\n" if i else "")
                 + f"    layout:\n      - {{type: rect, id: r{i}, x: 5, y: 5, width: 9, height: 9}}\n"
                 for i in range(levels)]
        if order == "base last":
            items.reverse()
        deck(tmp_path, f"face_layout: l{levels - 1}\nlayouts:\n" + "".join(items))
        lines = refused(printgen(tmp_path, "build", "deck.yaml", "--out", "out"), tmp_path)
        assert len(lines) == 2 and lines[1] == "printgen: 1 problem found; nothing was written."
        said[order] = lines[0].split(": ", 1)[1]
    assert said["base first"] == said["base last"] == (
        f"layouts.l{MAX_DEPTH + 1}.extends: expected at most {MAX_DEPTH} layouts each extending the next")


def test_a_path_past_reach_saved_while_serving_is_shown_and_the_server_goes_on(tmp_path):
    from serving import Served, save, small_deck, stop_all_in_session

    definition = small_deck(tmp_path / "potion")
    server = Served(definition.parent, "potion.yaml", "--dpi", "40")
    try:
        first = server.wait(lambda s: s["version"] >= 1, "the first build")
        text = definition.read_text()
        anchor = "\n  layout:\n"  # the face's, the first
        assert anchor in text
        save(definition, text.replace(anchor, anchor + "    - {type: path, d: 'M 0 0 L 1e300 5 Z', fill: '#000000'}\n", 1))
        state = server.wait(lambda s: s["problems"], "the problems of the saved definition")
        assert state["problems"][0].endswith("'L 1e300 5' (command 2) takes the path to 1e+300 mm; expected every "
                                             "point within 1000 mm of the card's corner"), state["problems"]
        assert server.get("/state")[0] == 200  # still serving, the last good build kept
        assert server.process.poll() is None and first["version"] >= 1
        code, err = server.stop()
        assert code == 130 and "internal error" not in err and "Traceback" not in err
    finally:
        stop_all_in_session(server.process)
