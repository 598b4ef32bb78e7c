"""Fracas and Armies reference sheets (and the tables their rulebooks share with them), measured
in the PDFs `printgen build` really writes.

The expected tables are worked out here from the YAML itself, not through printgen's code, so a
sheet that drifts from its definition fails.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

import pdfplumber
import pypdf
import pytest
from ruamel.yaml import YAML

from building import build, edited
from pdfmeasure import CUT_DASH, chars_mm, glyph_pt, page_size_mm, reading_text, segments
from printgen.games import bundled_definition

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
GAMES = ("fracas", "armies")
SAFE = 5.0


def yaml_of(path: Path) -> dict:
    return YAML(typ="safe").load(path.read_text())


def expected_tables(game: str, d: dict) -> list[list[list[str]]]:
    """Every data table the sheet must print: header row first, then one row per YAML entry."""
    if game == "fracas":
        return [
            [["Role", "Cards", "What they do"]] + [[r["role"], r["cards"], r["job"]] for r in d["roles"]],
            [["Step", "What you do"]] + [[f"{i}. {s['step']}", s["what"]] for i, s in enumerate(d["turn"], 1)],
            [["When", "Then"]] + [[o["case"], o["result"]] for o in d["skirmish"]],
        ]
    ranks = d["stamina"]
    positions = [[p["name"], str(lost)] + [str(a["stamina"] - lost) if a["stamina"] > lost else "\u2013"
                                            for a in ranks] for lost, p in enumerate(d["positions"])]
    return [
        [["Army card", "Starts with"]] + [[f"{a['rank']} ({a['index']})", f"{a['stamina']} SP"] for a in ranks],
        [["When", "Then"]] + [[r["case"], r["result"]] for r in d["results"]],
        [["Step", "What happens"]] + [[f"{i}. {s['step']}", s["what"]] for i, s in enumerate(d["round"], 1)],
        [["Position", "SP lost"] + [a["index"] for a in ranks]] + positions,
    ]


def norm(text: str | None) -> str:
    return " ".join((text or "").split())


def tables_in(pdf: Path, pages: list[int] | None = None) -> list[list[list[str]]]:
    """Every ruled table pdfplumber finds, in reading order (down the left half of a page, then
    the right), cells with their line breaks joined back up."""
    with pdfplumber.open(pdf) as doc:
        return tables_of(doc, pages)


def tables_of(doc: pdfplumber.PDF, pages: list[int] | None = None) -> list[list[list[str]]]:
    """tables_in, of a PDF already open (its pages parsed once for the tables and the text)."""
    found = []
    for i, page in enumerate(doc.pages):
        if pages is None or i in pages:
            # lines snapped only when they nearly meet: a picture's edges a few points below a
            # table's foot, beside it in the other column, must not move its last rule
            tables = sorted(page.find_tables({"snap_tolerance": 1}),
                            key=lambda t: (t.bbox[0] > page.width / 2, t.bbox[1]))
            found += [[[norm(c) for c in row] for row in t.extract()] for t in tables]
    # an example's pale box with its bar reads as a one-row "table" of an empty cell and the text;
    # it is no ruled table, and must not be joined to the table above it as a row's continuation
    return [t for t in found if not (len(t) == 1 and not t[0][0] and t[0][-1].startswith("Example."))]


def rows_across(tables: list[list[list[str]]]) -> list[list[str]]:
    """Every row of every table, with a row a column or page break cut in two joined up again (its
    continuation starts with an empty first cell, under a repeated header)."""
    rows: list[list[str]] = []
    for table in tables:
        for row in table[1:] if table[0] in rows else table:  # a repeated header is left out
            if rows and row and not row[0] and len(row) == len(rows[-1]):
                rows[-1] = [" ".join(filter(None, (a, b))) for a, b in zip(rows[-1], row)]
            else:
                rows.append(row)
    return rows


@pytest.fixture(scope="module")
def built(card_games_built) -> dict[str, Path]:
    return card_games_built


def pdfs(out: Path, game: str) -> dict[str, Path]:
    """The game's PDFs by kind: "" is the rulebook; Fracas also has its "-tokens"."""
    kinds = ("", "-reference", "-reference-cards") + (("-tokens",) if game == "fracas" else ())
    return {kind: out / game / f"{game}{kind}.pdf" for kind in kinds}


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_every_table_row_is_printed_as_the_yaml_says(built, game, paper):
    expected = expected_tables(game, yaml_of(bundled_definition(game)))
    files = pdfs(built[paper], game)
    sheet = tables_in(files["-reference"])
    cards = tables_in(files["-reference-cards"])
    book = rows_across(tables_in(files[""]))  # the rulebook's tables may break across columns
    for table in expected:
        assert table in sheet, f"{game} sheet lacks {table[0]}"
        assert sum(t == table for t in cards) == 2, f"each of the two cards needs {table[0]}"
        for row in table:
            assert row in book, f"{game}.pdf (the rulebook) lacks {row}"


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_pages_fonts_and_margins(built, game, paper):
    width, height = PAPERS[paper]
    for path in pdfs(built[paper], game).values():
        with pdfplumber.open(path) as pdf:
            for page in pdf.pages:
                w, h = page_size_mm(page)
                assert abs(w - width) < 0.01 and abs(h - height) < 0.01, path.name
                chars = chars_mm(page)
                assert chars, f"{path.name}: a page with no text"
                for c in chars:
                    assert SAFE <= c["x0"] and c["x1"] <= width - SAFE, (path.name, c["text"], c["x0"])
                    assert SAFE <= c["y0"] and c["y1"] <= height - SAFE, (path.name, c["text"], c["y0"])
                    if c["dir"] in ((1, 0), (-1, 0)):  # upright or upside down: size is the height
                        assert c["size"] >= 6.99, (path.name, c["text"], c["size"])
        for page in pypdf.PdfReader(path).pages:
            for font in page["/Resources"]["/Font"].values():
                font = font.get_object()
                assert "Helvetica" not in font["/BaseFont"]
                assert "/FontFile2" in font["/FontDescriptor"].get_object(), f"{font['/BaseFont']} not embedded"


def test_print_preferences_and_titles(built):
    duplex = {"": "/DuplexFlipLongEdge", "-tokens": "/Simplex", "-reference": "/Simplex",
              "-reference-cards": "/DuplexFlipLongEdge"}
    for game in GAMES:
        files = pdfs(built["a4"], game)
        for kind, path in files.items():
            reader = pypdf.PdfReader(path)
            prefs = reader.trailer["/Root"]["/ViewerPreferences"]
            assert prefs["/PrintScaling"] == "/None" and prefs["/Duplex"] == duplex[kind], (game, kind)
            assert reader.metadata.title.startswith(game.capitalize())
        assert len(pypdf.PdfReader(files["-reference"]).pages) == 1
        assert len(pypdf.PdfReader(files["-reference-cards"]).pages) == 2
        assert len(pypdf.PdfReader(files[""]).pages) >= 2  # the rulebook
    assert len(pypdf.PdfReader(pdfs(built["a4"], "fracas")["-tokens"]).pages) == 1


def cut_lines(page) -> list:
    return [s for s in segments(page, CUT_DASH) if abs(s.y1 - s.y2) < 0.01]


def first_char(page, text: str) -> dict:
    chars = chars_mm(page)
    joined = "".join(c["text"] for c in chars)
    return chars[joined.index(text)]


def unmoved(tmp_path, request, built, paper: str, flip: str) -> Path:
    """`printgen build armies --paper PAPER --flip FLIP`: flip long is the default, so the session's
    build on the paper; short on A4, the session's `build fracas armies --flip short`
    (conftest.short_flip_built); short on Letter, built here."""
    if flip == "long":
        return built[paper]
    if paper == "a4":
        return request.getfixturevalue("short_flip_built")
    return build(tmp_path / "p", "armies", "--paper", paper, "--flip", flip)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("flip", ["long", "short"])
def test_cards_cut_in_the_middle_and_backs_line_up(tmp_path, request, built, paper, flip):
    width, height = PAPERS[paper]
    plain_out = unmoved(tmp_path, request, built, paper, flip)
    plain = pdfs(plain_out, "armies")["-reference-cards"]
    moved = pdfs(build(tmp_path / "m", "armies", "--paper", paper, "--flip", flip, "--back-offset", "1.5,-0.5"),
                 "armies")["-reference-cards"]
    with pdfplumber.open(plain) as a, pdfplumber.open(moved) as b:
        for page in a.pages:  # one straight cut across the middle, on both sides
            (line,) = cut_lines(page)
            assert abs(line.y1 - height / 2) < 0.01
            assert abs(min(line.x1, line.x2) - SAFE) < 0.01 and abs(max(line.x1, line.x2) - (width - SAFE)) < 0.01
        (back_cut,) = cut_lines(b.pages[1])
        assert abs(back_cut.y1 - (height / 2 - 0.5)) < 0.01
        assert abs(min(back_cut.x1, back_cut.x2) - (SAFE + 1.5)) < 0.01
        # each half of the front has the card's front; behind it, the card's back, moved by the offset
        fronts = [c for c in chars_mm(a.pages[0]) if c["size"] > 15]
        assert {round(c["y0"] > height / 2) for c in fronts} == {0, 1}
        still, shifted = first_char(a.pages[1], "Armies: playing"), first_char(b.pages[1], "Armies: playing")
        assert abs(shifted["x0"] - still["x0"] - 1.5) < 0.01 and abs(shifted["y0"] - still["y0"] + 0.5) < 0.01
        assert first_char(b.pages[0], "Armies")["x0"] == first_char(a.pages[0], "Armies")["x0"]


def test_changing_the_fracas_yaml_changes_the_sheet_rules_and_tokens(run_cli, copy_definition, tmp_path):
    path = edited(copy_definition, "fracas", [
        ("what: Take the top card of your deck. You draw on your very first turn as well.",
         "what: Draw two cards from the top of your deck."),
        ("life: 20 ", "life: 24 "),
        ("  - name: Red\n", "  - name: Crimson\n"),
    ])
    result = run_cli("build", path, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    files = pdfs(tmp_path / "out", "fracas")
    with pdfplumber.open(files["-reference"]) as pdf:  # each PDF opened (and parsed) once
        tables = tables_of(pdf)
        sheet = norm(pdf.pages[0].extract_text())
    assert ["2. Draw", "Draw two cards from the top of your deck."] in [r for t in tables for r in t]
    for table in expected_tables("fracas", yaml_of(path)):
        assert table in tables
    assert "start on 24 life" in sheet and "Crimson takes the hearts" in sheet
    assert "Take the top card" not in sheet
    with pdfplumber.open(files[""]) as pdf:
        assert ["2. Draw", "Draw two cards from the top of your deck."] in rows_across(tables_of(pdf))
        book = " ".join(reading_text(page) for page in pdf.pages)
        assert "24 points' worth for each player: 14 one-point and 2 five-point tokens" in book
        assert "Crimson takes all the hearts and diamonds" in book and "Take the top card" not in book
    with pdfplumber.open(files["-tokens"]) as pdf:
        tokens = chars_mm(pdf.pages[0])
        ones = [c for c in tokens if c["text"] == "1" and c["size"] > 12]
        fives = [c for c in tokens if c["text"] == "5" and c["size"] > 12]
        colours = {tuple(ch["non_stroking_color"]) for ch in pdf.pages[0].chars
                   if ch["text"] == "1" and ch["size"] > 12}
        assert len(ones) == 28 and len(fives) == 4 and len(colours) == 2  # 24 life a player, in two colours
        text = norm(pdf.pages[0].extract_text())
        assert "Crimson: 24 life: 14 ones and 2 fives" in text and "Black: 24 life: 14 ones and 2 fives" in text


def test_changing_the_armies_yaml_changes_the_sheet(run_cli, copy_definition, tmp_path):
    path = edited(copy_definition, "armies", [
        ("    index: K\n    stamina: 3\n", "    index: K\n    stamina: 4\n"),
        ("    turn: 45\n", "    turn: 30\n"),
    ])
    result = run_cli("build", path, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "armies" / "armies-reference.pdf") as sheet:
        tables = tables_of(sheet)
        turned = angles_of(sheet)
    rows = [r for t in tables for r in t]
    assert ["King (K)", "4 SP"] in rows and ["face down", "3", "1", "1", "\u2013", "\u2013"] in rows
    for table in expected_tables("armies", yaml_of(path)):
        assert table in tables
    assert turned == {0, -90, -30}  # upright, sideways, and the diagonal now at 30 degrees


def angles(pdf_path: Path) -> set[int]:
    """How the drawn army cards are turned: the angle of the big index letter in each card."""
    with pdfplumber.open(pdf_path) as pdf:
        return angles_of(pdf)


def angles_of(pdf: pdfplumber.PDF) -> set[int]:
    """angles, of a PDF already open."""
    return {round(math.degrees(math.atan2(c["matrix"][1], c["matrix"][0])))
            for c in pdf.pages[0].chars if c["text"] == "A" and math.hypot(*c["matrix"][:2]) > 1.5
            and c["size"] > 12}


def test_the_drawing_shows_each_position(built):
    sheet = pdfs(built["a4"], "armies")["-reference"]
    assert angles(sheet) == {0, -90, -45}  # the face-down card shows no letter at all
    names = " ".join(p["name"] for p in yaml_of(bundled_definition("armies"))["positions"])
    with pdfplumber.open(sheet) as pdf:
        words = pdf.pages[0].extract_words()
    lines: dict[float, list[dict]] = {}
    for w in words:
        lines.setdefault(round(w["top"], 1), []).append(w)
    label_rows = [" ".join(w["text"] for w in sorted(ws, key=lambda w: w["x0"])) for ws in lines.values()]
    assert names in label_rows  # the labels under the cards, left to right in the YAML's order


@pytest.mark.parametrize("paper", PAPERS)
def test_every_corner_index_prints_at_the_labels_size_however_the_card_turns(built, paper):
    """The small letters in the drawn cards' corners, upright, sideways, diagonal and upside down,
    in every Armies document: measured at their true size (pdfplumber's `size` reads a sideways 7 pt
    letter as 5.4), never under the 7.5 pt of the labels beneath the cards."""
    from printgen.games.armies.positions import LABEL_PT

    for path in pdfs(built[paper], "armies").values():
        with pdfplumber.open(path) as pdf:
            corners = [c for page in pdf.pages for c in page.chars
                       if c["text"] == "A" and math.hypot(*c["matrix"][:2]) > 1.5 and glyph_pt(c) < 12]
        turns = {round(math.degrees(math.atan2(c["matrix"][1], c["matrix"][0]))) % 360 for c in corners}
        assert {0, 180, 270, 90, 315, 135} <= turns, (path.name, turns)  # both corners of 3 turned cards
        assert min(glyph_pt(c) for c in corners) >= LABEL_PT - 0.01 >= 7, (path.name, sorted(
            round(glyph_pt(c), 2) for c in corners))


@pytest.mark.parametrize("paper", PAPERS)
def test_the_rulebooks_example_ends_in_a_score_strip_that_fills_its_last_page(built, paper):
    """The worked example's rounds again as a table (cards played; each side's army in front and
    its SP after the round), played out from the definition; the rulebook stays two pages, the
    second's columns ending level within a tenth of their foot."""
    from typeset import column_blanks

    book = pdfs(built[paper], "armies")[""]
    rows = rows_across(tables_in(book))
    assert ["Round", "Cards played", "Armies in front"] in rows
    assert ["1", "red 9 v black 6", "K 3 SP v Q 1 SP"] in rows and ["5", "red 3 v black 2", "K 2 SP v A 4 SP"] in rows
    blanks = column_blanks(book)
    assert len(blanks) == 2 and max(blanks[-1]) <= 0.10, blanks


@pytest.mark.parametrize("game, key, section", [
    ("fracas", "turn", "A turn, in 6 steps"),
    ("armies", "round", "A round"),
])
def test_a_section_that_overflows_is_named_and_located(run_cli, copy_definition, tmp_path, game, key, section):
    path = copy_definition(game)
    text = path.read_text()
    long = "This step goes on and on with far more words than any half page could hold. " * 5
    text = re.sub(r"(\n    what: )(?:>-\n(?:      .*\n)+|.*\n)", lambda m: f"{m.group(1)}{long.strip()}\n", text)
    path.write_text(text)
    result = run_cli("build", path, "--out", tmp_path / "out")
    assert result.exit_code == 2
    line = next(n for n, l in enumerate(text.splitlines(), 1) if l.startswith(f"{key}:"))
    title = game.capitalize()
    assert f"{path.name}:{line}: {key}: the {title} reference sheet (A4), bottom half: section " \
           f"'{section}'" in result.output, result.output
    assert "does not fit its box" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_a_larger_text_size_that_overflows_points_at_the_setting(run_cli, copy_definition, tmp_path):
    path = edited(copy_definition, "fracas", [("  text_size_pt: 9\n", "  text_size_pt: 12\n")])
    result = run_cli("build", path, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "reference.text_size_pt" in result.output and "Fracas reference sheet" in result.output
    assert "7 pt at the least" in result.output
    assert not (tmp_path / "out").exists()


def test_a_text_size_below_7_pt_is_refused(run_cli, copy_definition, tmp_path):
    path = edited(copy_definition, "armies", [("  text_size_pt: 9\n", "  text_size_pt: 6.5\n")])
    result = run_cli("build", path, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert re.search(r"armies\.yaml:\d+: reference\.text_size_pt: expected .*7", result.output), result.output


def test_tokens_are_cut_apart_on_a_grid_of_their_size(built):
    d = yaml_of(bundled_definition("fracas"))
    size, columns = d["tokens"]["size"], d["tokens"]["columns"]
    rows = math.ceil((d["life"] - 4 * d["tokens"]["fives"]) / columns)  # a five stands for five ones
    with pdfplumber.open(pdfs(built["letter"], "fracas")["-tokens"]) as pdf:
        cuts = segments(pdf.pages[0], CUT_DASH)
    xs = sorted({round(s.x1, 2) for s in cuts if abs(s.x1 - s.x2) < 0.01})
    ys = sorted({round(s.y1, 2) for s in cuts if abs(s.y1 - s.y2) < 0.01})
    assert len(xs) == 2 * (columns + 1) and len(ys) == rows + 1
    for block in (xs[:columns + 1], xs[columns + 1:]):
        assert all(abs(b - a - size) < 0.01 for a, b in zip(block, block[1:]))
    assert all(abs(b - a - size) < 0.01 for a, b in zip(ys, ys[1:]))


def test_a_stamina_the_card_cannot_show_is_located(run_cli, copy_definition, tmp_path):
    path = edited(copy_definition, "armies", [("    index: A\n    stamina: 4\n", "    index: A\n    stamina: 5\n")])
    result = run_cli("build", path, "--out", tmp_path / "out")
    assert result.exit_code == 2
    line = next(n for n, l in enumerate(path.read_text().splitlines(), 1) if l == "    stamina: 5")
    assert f"armies.yaml:{line}: stamina[0].stamina: Ace starts with 5 SP" in result.output


def test_a_position_name_too_wide_for_the_drawing_names_each_document_and_its_setting(
        run_cli, copy_definition, tmp_path):
    """A long position name does not fit its share of the drawing: both the rulebook and the
    reference sheet say so at the key, each naming its own columns setting (found by a Hypothesis
    case that once crashed the rulebook)."""
    path = edited(copy_definition, "armies", [("- name: upright\n", "- name: upright and untouched\n")])
    result = run_cli("build", path, "--out", tmp_path / "out")
    assert result.exit_code == 2 and "internal error" not in result.output
    line = next(n for n, l in enumerate(path.read_text().splitlines(), 1) if l == "positions:")
    assert f"armies.yaml:{line}: positions: the Armies rules (A4): the position drawing" in result.output
    assert "shorten the names or use fewer rules.columns" in result.output
    assert "shorten the names or use fewer reference.columns" in result.output
    assert not (tmp_path / "out").exists()


def test_two_builds_are_byte_identical(tmp_path, built):
    first, second = built["a4"], build(tmp_path / "b", *GAMES)  # the session's build, and one more
    for game in GAMES:
        for kind, path in pdfs(first, game).items():
            assert path.read_bytes() == pdfs(second, game)[kind].read_bytes(), path.name


ALL_GAMES = ("armies", "deck", "fracas", "omiga", "one_minute_war", "quick_violence")
FOOT_CLEAR = 7.0  # mm: nothing printed nearer the bottom edge (many Letter printers clip at 6.35 mm)


def lowest_ink_mm(page) -> float:
    """How far above the paper's bottom edge the lowest glyph, rule or line of a page ends, in mm."""
    height = float(page.height)
    bottoms = [c["bottom"] for c in page.chars] + [o["bottom"] for o in page.lines + page.rects + page.curves]
    return (height - max(bottoms)) * 25.4 / 72


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", ALL_GAMES)
def test_reference_cards_have_no_footer_and_each_card_names_who_made_the_game(all_games_built, game, paper):
    """Sheet and cards are cut into two cards: a page footer would be left on the bottom card only,
    and under a full Letter half it ran 0.3 mm under the text (the Potion Shop column rule touched
    it) and 5.3 mm from the edge. So there is none, nothing prints within 7 mm of the bottom edge,
    and every card (each half, on its front or its back) carries the game's credit."""
    d = yaml_of(bundled_definition(game))
    who = d.get("designer") or d["credit"]
    for path in sorted((all_games_built[paper] / game).glob(f"{game}-reference*.pdf")):
        with pdfplumber.open(path) as pdf:
            halves = [[], []]
            for page in pdf.pages:
                assert lowest_ink_mm(page) >= FOOT_CLEAR, (path.name, lowest_ink_mm(page))
                text = " ".join((page.extract_text() or "").split())
                assert " \u00b7 reference \u00b7 page" not in text, path.name
                middle = float(page.height) / 2
                for k, box in enumerate(((0, 0, float(page.width), middle), (0, middle, float(page.width), float(page.height)))):
                    halves[k].append(" ".join((page.crop(box).extract_text() or "").split()))
        cards = halves if path.name.endswith("-cards.pdf") else [halves[0] + halves[1]]  # the sheet: one card
        for sides in cards:
            assert any(who in side for side in sides), (path.name, who)
