"""The bundled sample deck, Potion Shop, built as it ships on A4 and on Letter: its sheets, its
rulebook and its reference card, read back from the PDFs. The rules explain every mark a card
carries with the mark itself drawn beside its meaning, name every potion, fill their pages, and
say nothing of how they were made; the tinted cards have bleed in the gutters between them and a
dashed cut line round each; no glyph on a card is under 7 pt."""
from __future__ import annotations

import csv
import re
from pathlib import Path

import pdfplumber
import pytest
from ruamel.yaml import YAML

from printgen.games import bundled_definition
from typeset import column_blanks, half_blanks


MM = 72 / 25.4
CARD = (63.5, 88.9)  # poker, mm
MOST_BLANK = 0.25  # of a rules page's column, or of a reference half's, at its foot
TINTS = {"#f6d5c8", "#d6e6f5", "#dcebd2", "#ece6f5"}  # the four kinds' backgrounds (deck.yaml)


@pytest.fixture(scope="module", params=["a4", "letter"])
def built(request, all_games_built):
    """The deck as `printgen build --paper P` writes it on each paper: its output folder in the
    session's build of every bundled game (conftest.all_games_built), which writes the same deck/
    files as `printgen build deck --paper P`. Only read here."""
    return all_games_built[request.param] / "deck"


def text_of(path) -> str:
    with pdfplumber.open(path) as pdf:
        return "\n".join(page.extract_text() for page in pdf.pages)


def columns_text(path) -> str:
    """The document's words column by column (left half, then right, page by page), in one line."""
    with pdfplumber.open(path) as pdf:
        return " ".join(" ".join((page.crop((0, 0, page.width / 2, page.height)).extract_text() + " "
                                  + page.crop((page.width / 2, 0, page.width, page.height)).extract_text()).split())
                        for page in pdf.pages)


def definition() -> dict:
    return YAML(typ="safe").load(bundled_definition("deck").read_text(encoding="utf-8"))


def test_the_sample_deck_ships_a_rulebook_and_a_reference_that_explain_its_cards(built):
    with open(bundled_definition("deck").parent / "cards.csv", newline="", encoding="utf-8") as f:
        titles = [row["title"] for row in csv.DictReader(f)]
    rules, reference = text_of(built / "deck-rules.pdf"), text_of(built / "deck-reference.pdf")
    for text in (rules, reference):
        assert all(title in text for title in titles), [t for t in titles if t not in text]
        assert "printgen" not in text.lower() and "yaml" not in text.lower()
        for mark in ("Red star", "price", "draw the top card of the deck"):  # every symbol on a card explained
            assert mark.lower() in text.lower(), mark
        assert "Buy" in text and "Sell" in text
    with pdfplumber.open(built / "deck-rules.pdf") as pdf:
        assert len(pdf.pages) == 2
        sizes = [c["size"] for page in pdf.pages for c in page.chars]
    assert min(sizes) >= 6.99  # the card it shows part by part at its own size, never shrunk under 7 pt
    with pdfplumber.open(built / "deck-reference.pdf") as pdf:
        assert len(pdf.pages) == 1


def test_every_footer_reads_as_a_published_games(built):
    """The game, the document, page n of m, the edition and who made it, as the other games'
    footers credit their designers: no tagline, nothing about the tool."""
    assert definition()["credit"] and "printgen" not in definition()["credit"].lower()
    for name, kind in (("deck-rules.pdf", "rules"),):  # a reference card carries the credit in its title
        # block instead, and no page footer (tests/test_reference_sheets.py)
        with pdfplumber.open(built / name) as pdf:
            count = len(pdf.pages)
            for number, page in enumerate(pdf.pages, start=1):
                footer = page.extract_text().splitlines()[-1]
                assert footer == (f"Potion Shop \u00b7 {kind} \u00b7 page {number} of {count} \u00b7 version 1.0"
                                  f" \u00b7 {definition()['credit']}"), footer


def test_no_rules_page_or_reference_half_is_more_than_a_quarter_blank(built):
    """Measured as the house-style tests measure: the blank under each column's last line."""
    rules = column_blanks(built / "deck-rules.pdf")
    assert len(rules) == 2
    for number, page in enumerate(rules, start=1):
        assert len(page) == 2 and max(page) <= MOST_BLANK, (number, page)
    for name in ("deck-reference.pdf", "deck-reference-cards.pdf"):
        for page in half_blanks(built / name):
            for half in page:
                assert len(half) == 2 and max(half) <= MOST_BLANK, (name, page)


def icon_beside(page, words: str) -> bool:
    """True when a picture stands on the line of `words`, just before them (an icon set in the text)."""
    found = page.search(re.escape(words))
    assert found, words
    for hit in found:
        for image in page.images:
            level = image["top"] < (hit["top"] + hit["bottom"]) / 2 < image["bottom"]
            if level and 0 <= hit["x0"] - image["x1"] <= 4 * MM:
                return True
    return False


def test_every_symbol_on_a_card_is_drawn_beside_its_meaning(built):
    """The price disc, the rare star, the flask and the kinds' symbols: each legend line carries the
    icon itself, and the cards draw the very same files."""
    defn = definition()
    icons = defn["icons"]
    assert {"flask", "star", "price", "fire", "ice", "earth", "air"} <= set(icons)
    rare = [e for e in defn["face"]["layout"] if e.get("when") == "cost >= 4"]
    assert [e["type"] for e in rare] == ["image"] and rare[0]["src"] == icons["star"]  # the card's star is the icon
    assert not [e for e in defn["face"]["layout"] if e["type"] == "polygon"]
    with pdfplumber.open(built / "deck-rules.pdf") as pdf:
        page = pdf.pages[0]
        for words in ("Price.", "Red star.", "Flask.", "fire,", "ice,", "air."):
            assert icon_beside(page, words), words
    with pdfplumber.open(built / "deck-reference.pdf") as pdf:
        page = pdf.pages[0]
        for words in ("dark disc", "red star", "flask"):
            assert icon_beside(page, words), words
        row = page.search("the kind: fire, ice, earth, air")[0]
        kinds = [i for i in page.images if i["top"] < (row["top"] + row["bottom"]) / 2 < i["bottom"]
                 and i["x1"] < row["x0"]]
        assert len(kinds) == 4  # the four kinds' symbols on their row


def test_tinted_cards_bleed_into_gutters_with_a_dashed_cut_line_round_each(built):
    """Each card's colour runs past its own cut line by the sheet's bleed, so two cards of different
    colours meet only in the gutter between their cuts; a dashed outline marks every cut, even
    between two cards of one colour, and the caption says how to print and cut. The cut lines do the
    work of marks, so the margins carry none (that is what leaves room for bleed on a full sheet)."""
    with pdfplumber.open(built / "deck.pdf") as pdf:
        page = pdf.pages[0]
        trim, bleed_box = page.page_obj.attrs["TrimBox"], page.page_obj.attrs["BleedBox"]
        bleed = (float(trim[0]) - float(bleed_box[0])) / MM
        assert 1.0 <= bleed <= 2.0 + 1e-6
        tints = [r for r in page.rects if r.get("fill") and "#%02x%02x%02x" % tuple(
            round(v * 255) for v in r["non_stroking_color"]) in TINTS]
        cuts = [c for c in page.curves if c.get("dash") and c["dash"][0]]
        cards = 9 if page.width < page.height else 8  # A4 upright, Letter turned: as many as without bleed
        assert len(tints) == len(cuts) == cards
        for tint in tints:  # the colour reaches `bleed` past the cut on every side
            assert abs(tint["width"] / MM - CARD[0] - 2 * bleed) < 0.05
            assert abs(tint["height"] / MM - CARD[1] - 2 * bleed) < 0.05
            (cut,) = [c for c in cuts if abs(c["x0"] - tint["x0"] - bleed * MM) < 0.2
                      and abs(c["top"] - tint["top"] - bleed * MM) < 0.2]
            assert abs(cut["width"] / MM - CARD[0]) < 0.1 and abs(cut["height"] / MM - CARD[1]) < 0.1
        for a in tints:  # tints meet, never overlap: each cut has its own colour's bleed beyond it
            for b in tints:
                if a is not b:
                    overlap_x = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
                    overlap_y = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
                    assert overlap_x <= 0.05 or overlap_y <= 0.05
        inside = [o for o in page.lines + page.curves if o.get("dash") and o["dash"][0]
                  and any(t["x0"] <= o["x0"] and o["x1"] <= t["x1"] and t["top"] <= o["top"]
                          and o["bottom"] <= t["bottom"] for t in tints)]
        assert len(inside) == cards  # every cut line lies in its card's colour; the rest are margin marks
        caption = page.extract_text().splitlines()[-1]
        assert 'Print at actual size, choosing "Print on both sides, flip on long edge".' in caption
        assert caption.endswith("Cut along the dashed lines.")
        for c in page.chars:  # no text within 5 mm of the paper's edge
            assert 5 * MM <= c["x0"] and c["x1"] <= page.width - 5 * MM
            assert 5 * MM <= c["top"] and c["bottom"] <= page.height - 5 * MM


def test_no_glyph_on_the_sample_cards_is_under_7_pt_and_every_back_names_the_game(built):
    with pdfplumber.open(built / "deck.pdf") as pdf:
        sizes = [c["size"] for page in pdf.pages for c in page.chars]
        back = pdf.pages[1]  # a full sheet of backs (on Letter turned 180 degrees, as its flip needs)
        titles = [c for c in back.chars if c["text"] == "P" and c["size"] > 12]  # the sign's 13 pt "Potion Shop"
        cards = 9 if back.width < back.height else 8
    assert min(sizes) >= 6.99
    assert len(titles) == cards


def lightness(rgb) -> float:
    """CIE L* of an sRGB colour given as three 0-1 (or 0-255) values."""
    scale = 255.0 if max(rgb) > 1 else 1.0
    linear = [(c / scale / 12.92) if c / scale <= 0.04045 else ((c / scale + 0.055) / 1.055) ** 2.4 for c in rgb]
    y = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return 116 * y ** (1 / 3) - 16 if y > 0.008856 else 903.3 * y


def margin_marks(page) -> list[dict]:
    """The short straight strokes wholly outside every card's bleed: the margins' cut marks."""
    x0, y0, x1, y1 = (float(v) for v in page.page_obj.attrs["BleedBox"])
    outside = []
    for line in page.lines:
        top, bottom = page.height - line["bottom"], page.height - line["top"]  # PDF y, up from the foot
        if line["x1"] <= x0 + 0.01 or line["x0"] >= x1 - 0.01 or bottom <= y0 + 0.01 or top >= y1 - 0.01:
            outside.append(line)
    return outside


def copies() -> int:
    """The sample's cards, copies counted, read from its data."""
    with open(bundled_definition("deck").parent / "cards.csv", newline="", encoding="utf-8") as f:
        return sum(int(row["copies"]) for row in csv.DictReader(f))


def test_every_sheet_is_full_the_last_one_ending_in_blank_cards_with_the_games_back(built):
    """`sheet.fill: blank`, and a deck of 16 cards, a count chosen for both papers: on Letter (8 a
    sheet) they fill two sheets exactly, where 18 put 2 cards on a third sheet of card stock; on A4
    (9 a sheet) they fill the first sheet and leave 2 places on the second, which hold blank cards,
    each with a dashed cut line, a faint frame to write inside and the shop's back behind it."""
    assert definition()["sheet"]["fill"] == "blank"
    cards = copies()
    assert cards == 16
    with pdfplumber.open(built / "deck.pdf") as pdf:
        faces, backs = pdf.pages[0::2], pdf.pages[1::2]
        per_sheet = 9 if faces[0].width < faces[0].height else 8
        assert len(faces) == 2
        for face, back in zip(faces, backs):
            cuts = [c for c in face.curves if c.get("dash") and c["dash"][0]
                    and abs(c["width"] / MM - CARD[0]) < 0.1 and abs(c["height"] / MM - CARD[1]) < 0.1]
            assert len(cuts) == per_sheet  # no empty place on any sheet
            titles = [c for c in back.chars if c["text"] == "P" and c["size"] > 12]
            assert len(titles) == per_sheet  # every place, blank ones too, has the shop's back
        last = faces[-1]
        tinted = [r for r in last.rects if r.get("fill") and "#%02x%02x%02x" % tuple(
            round(v * 255) for v in r["non_stroking_color"]) in TINTS]
        blanks = per_sheet * len(faces) - cards
        assert len(tinted) == per_sheet - blanks
        frames = [c for c in last.curves + last.rects if not c.get("fill") and not (c.get("dash") and c["dash"][0])
                  and abs(c["width"] / MM - (CARD[0] - 6)) < 0.1 and abs(c["height"] / MM - (CARD[1] - 6)) < 0.1]
        assert len(frames) == blanks  # a blank card's writing frame, 3 mm (card.safe) inside its cut
    assert (blanks, per_sheet) in ((2, 9), (0, 8))


def test_the_rules_speak_of_blank_cards_only_where_the_sheets_have_them(built):
    """The rules are told how many blank cards this paper's sheets end in (`blank_cards`): on A4 the
    two are named, with what they are for; on Letter, whose sheets come out full, no blank card is
    mentioned. The reference counts the deck from its rows too."""
    rules = columns_text(built / "deck-rules.pdf")
    with pdfplumber.open(built / "deck.pdf") as pdf:
        a4 = pdf.pages[0].width < pdf.pages[0].height
    assert f"the {copies()} cards on the card sheets" in rules
    if a4:
        assert ("The two blank cards at the end of the last sheet are not part of the game: keep them to write "
                "potions of your own.") in rules
    else:
        assert "blank" not in rules.lower()
    kinds = "The deck holds four fire, four ice, five earth and three air potions"
    assert kinds in rules and kinds in columns_text(built / "deck-reference.pdf")
    assert f"Shuffle the {copies()} cards" in text_of(built / "deck-reference.pdf")


def test_cut_lines_sheets_carry_marks_in_the_margins_clear_of_the_edge_and_the_art(built):
    """Dashed outlines round every card, and for a guillotine or a ruler, marks in the margins at
    both ends of every vertical cut: each at least 7 mm from every edge of the paper, on the line of a
    card's cut, clear of every card's bleed; the backs carry them mirrored, and the caption stays
    clear of them."""
    with pdfplumber.open(built / "deck.pdf") as pdf:
        for page in pdf.pages:
            marks = margin_marks(page)
            cuts_x = sorted({round(v / MM, 1) for c in page.curves if c.get("dash") and c["dash"][0]
                             for v in (c["x0"], c["x1"])}) if page.page_number % 2 else None
            verticals = [m for m in marks if m["width"] < 0.01]
            # Letter (turned): all 8 cut lines across, at both ends; A4: the 4 inner ones, the outer two
            # standing 6.75 mm from the sides, nearer than a mark may
            assert len(verticals) == (16 if page.width > page.height else 8), page.page_number
            for mark in marks:
                assert mark["x0"] >= 7 * MM - 0.01 and mark["x1"] <= page.width - 7 * MM + 0.01
                assert mark["top"] >= 7 * MM - 0.01 and mark["bottom"] <= page.height - 7 * MM + 0.01
                assert max(mark["width"], mark["height"]) >= 2 * MM - 0.01  # long enough to lay a ruler on
            if cuts_x is not None:  # a face: every mark on the line of a cut
                for mark in verticals:
                    assert any(abs(mark["x0"] / MM - x) < 0.15 for x in cuts_x), mark["x0"] / MM
            caption = [c for c in page.chars if c["size"] < 8]
            for mark in verticals:
                for c in caption:
                    apart = c["x1"] < mark["x0"] or c["x0"] > mark["x1"] or c["bottom"] <= mark["top"] - 0.1 * MM \
                        or c["top"] >= mark["bottom"] + 0.1 * MM
                    assert apart, (page.page_number, c["text"])


def test_the_back_is_light_on_ink_and_still_the_shops(built):
    """A sheet of backs is mostly the back's background: near white (L* at least 96), the sheet
    as printed at least L* 90 on average (it was 88.6 on A4); the shop's sign, in dark brown, still names
    the game on every back."""
    import pypdfium2

    defn = definition()
    colour = defn["back"]["background"].lstrip("#")
    assert lightness([int(colour[i:i + 2], 16) for i in (0, 2, 4)]) >= 96
    document = pypdfium2.PdfDocument(built / "deck.pdf")
    try:
        image = document[1].render(scale=20 / 72).to_pil().convert("RGB")
    finally:
        document.close()
    data = image.tobytes()
    pixels = [data[i:i + 3] for i in range(0, len(data), 3)]
    mean = sum(lightness(list(p)) for p in pixels) / len(pixels)
    assert mean >= 90, mean
    with pdfplumber.open(built / "deck.pdf") as pdf:
        back = pdf.pages[1]
        signs = [c for c in back.chars if c["text"] == "P" and c["size"] > 12]  # "Potion Shop" on every sign
        brown = [c for c in signs if lightness(c["non_stroking_color"]) < 40]
        assert len(signs) == len(brown) == (9 if back.width < back.height else 8)


def test_the_rules_columns_start_level_on_every_page(built):
    """Each page's two columns begin within 1 mm of each other (a table ending the first column
    leaves no space at the top of the next)."""
    with pdfplumber.open(built / "deck-rules.pdf") as pdf:
        for page in pdf.pages:
            band = [r for r in page.rects + page.lines if r["width"] > 0.7 * page.width]
            below = max((r["bottom"] for r in band if r["top"] < page.height / 3), default=0.0)
            body = [c for c in page.chars if c["top"] > below and c["bottom"] < page.height - 20 * MM]
            left = min(c["top"] for c in body if c["x1"] < page.width / 2)
            right = min(c["top"] for c in body if c["x0"] > page.width / 2)
            assert abs(left - right) <= 1 * MM, (page.page_number, (left - right) / MM)


def test_a_deck_that_leaves_fill_unsaid_is_warned_of_a_mostly_empty_last_sheet(run_cli, tmp_path):
    """The starter deck's 9 cards fill one A4 sheet of 9 but put 1 card on a second Letter sheet of 8:
    with `fill` left out, Letter's build says so at the `sheet` line and how to use the 7 places;
    `fill: blank` prints blank cards there, and `fill: none` keeps the places empty without a word."""
    folder = tmp_path / "mine"
    assert run_cli("new", "deck", folder).exit_code == 0
    definition = folder / "mine.yaml"
    text = definition.read_text()
    assert "\n  fill: blank" in text
    unsaid = re.sub(r"\n  fill: blank[^\n]*", "\n  cut: marks", text)
    definition.write_text(unsaid)
    line = unsaid.splitlines().index("sheet:") + 1
    letter = run_cli("build", definition, "--paper", "letter", "--no-pictures", "--out", tmp_path / "letter")
    assert letter.exit_code == 0, letter.output
    assert (f"{definition}:{line}: warning: sheet.fill: the last US Letter sheet holds 1 of 8 cards; "
            "`fill: blank` puts blank cards to write on in its 7 spare places") in letter.output
    with pdfplumber.open(tmp_path / "letter" / "mine" / "mine.pdf") as pdf:
        last = [w["text"] for w in pdf.pages[2].extract_words()]
        assert len(pdf.pages) == 4 and last.count("Mind") == 1 and "Toad" not in last  # the ninth card alone
    a4 = run_cli("build", definition, "--paper", "a4", "--no-pictures", "--out", tmp_path / "a4")
    assert a4.exit_code == 0 and "warning" not in a4.output, a4.output
    definition.write_text(unsaid.replace("\nsheet:\n", "\nsheet:\n  fill: none\n"))
    kept = run_cli("build", definition, "--paper", "letter", "--no-pictures", "--out", tmp_path / "kept")
    assert kept.exit_code == 0 and "warning" not in kept.output, kept.output


def test_the_rules_card_carries_numbered_callouts_matching_its_list(built):
    """"Reading a card": the Storm Flask has five numbered discs beside it (white bold numbers, 8 pt),
    each joined by a leader line to a point on the card, and the list under it numbers the same
    five parts in the same order; disc 1 points at the price disc, 4 at the star, 3 at the kind."""
    with pdfplumber.open(built / "deck-rules.pdf") as pdf:
        page = pdf.pages[0]
        grey = [r for r in page.rects + page.curves if r.get("stroking_color")
                and all(abs(v - 0x9a / 255) < 0.01 for v in r["stroking_color"])]
        (outline,) = [r for r in grey if abs(r["width"] / MM - CARD[0] - 1.2) < 0.2]  # the hairline round the card
        numbers = sorted((c for c in page.chars if abs(c["size"] - 8) < 0.01 and c["non_stroking_color"] == (1.0, 1.0, 1.0)
                          and "Bold" in c["fontname"]), key=lambda c: c["text"])
        assert [c["text"] for c in numbers] == ["1", "2", "3", "4", "5"]
        leaders = [line for line in page.lines if line["top"] > outline["top"] and line["bottom"] < outline["bottom"]
                   and (line["x0"] < outline["x0"] or line["x1"] > outline["x1"])]
        points = {}
        for number in numbers:
            beside = number["x1"] <= outline["x0"] or number["x0"] >= outline["x1"]  # outside the card ...
            near = min(abs(number["x1"] - outline["x0"]), abs(number["x0"] - outline["x1"])) < 8 * MM  # ... by it
            assert beside and near, number["text"]
            middle, left = (number["top"] + number["bottom"]) / 2, number["x1"] <= outline["x0"]
            (leader,) = [line for line in leaders if abs(line["top"] - middle) < 1.5 * MM
                         and (line["x0"] < outline["x0"] if left else line["x1"] > outline["x1"])]
            inner = leader["x1"] if left else leader["x0"]  # its end on the card
            assert outline["x0"] < inner < outline["x1"]
            points[number["text"]] = ((inner - outline["x0"]) / MM, (leader["top"] - outline["top"]) / MM)
        assert points["1"][0] > CARD[0] * 0.8 and points["1"][1] < 12  # the price, top right
        assert points["3"][0] < 8 and points["3"][1] > CARD[1] - 10  # the kind, foot left
        assert points["4"][0] > CARD[0] * 0.85 and points["4"][1] > CARD[1] - 10  # the star, foot right
        words = page.extract_words()
        labels = []
        for number in "12345":
            item = [w for w in words if w["text"] == f"{number}." and w["top"] < outline["top"]]
            assert item, number
            line = sorted((w for w in words if abs(w["top"] - item[0]["top"]) < 1 and w["x0"] > item[0]["x1"]
                           and w["x0"] - item[0]["x1"] < 60 * MM), key=lambda w: w["x0"])
            labels.append(line[0]["text"])
        assert labels == ["Price.", "Text.", "Kind.", "Red", "Flask."]


def feet(page) -> tuple[float, float]:
    """mm from the paper's top to the lowest text or drawing of each column, the footer left out."""
    ends = [0.0, 0.0]
    for thing in page.chars + page.rects + page.images + page.curves:
        if thing["bottom"] < page.height - 20 * MM:
            side = 0 if thing["x0"] < page.width / 2 - 2 else 1
            ends[side] = max(ends[side], thing["bottom"] / MM)
    return ends[0], ends[1]


def test_the_rules_last_page_ends_level_with_its_example_whole(built):
    """Page 2's columns end within 8 mm of each other (they were 36 mm apart on A4, 40 on Letter), and
    the five-turn example "A first round" stays in one column."""
    with pdfplumber.open(built / "deck-rules.pdf") as pdf:
        last = pdf.pages[-1]
        left, right = feet(last)
        assert abs(left - right) <= 8, (left, right)
        start, end = last.search("A first round")[0], last.search("Ann leads by 9 points to 1")[0]
        assert (start["x0"] < last.width / 2) == (end["x0"] < last.width / 2) and start["top"] < end["top"]


def test_the_reference_card_fills_its_front_and_back_alike(built):
    """Each column of both halves ends within 8 mm of every other: the back ("The potions") no longer
    stops 24 mm (A4) above the footer while the front is full, nor the front's right column 21 mm short
    of its left."""
    for name in ("deck-reference.pdf", "deck-reference-cards.pdf"):
        blank = [side for page in half_blanks(built / name) for half in page for side in half]
        with pdfplumber.open(built / name) as pdf:
            box = pdf.pages[0].height / MM / 2 - 16  # a half's text box, mm (typeset.HALF_INSET)
        assert len(blank) in (4, 8) and (max(blank) - min(blank)) * box <= 8, (name, blank)


def card_image(page, box: tuple[float, float, float, float], dpi: int = 40):
    """The rendered area `box` (x, y from the top, w, h in mm) of a pypdfium2 page, grey."""
    x, y, w, h = box
    image = page.render(scale=dpi / 72).to_pil().convert("L")
    px = dpi / 25.4
    return image.crop((round(x * px), round(y * px), round((x + w) * px), round((y + h) * px)))


def difference(a, b) -> float:
    """Mean absolute difference of two grey images of (nearly) one size, 0-255, each first averaged
    over 4 x 4 pixels so that a shift of under a pixel between two papers' grids counts for little."""
    from PIL import Image, ImageChops

    size = (a.size[0] // 4, a.size[1] // 4)
    a, b = a.resize(size, Image.Resampling.BOX), b.resize(size, Image.Resampling.BOX)
    data = ImageChops.difference(a, b).tobytes()
    return sum(data) / len(data)


def test_the_backs_read_upright_when_a_card_is_turned_like_a_page_as_the_caption_says(built, all_games_built):
    """The flip simulated on the rendered pages: each front card's place, turned over as the printer
    turns the sheet for "flip on long edge" (A4 upright: side to side, x -> W - x; Letter turned: over its
    top, y -> H - y), holds a back; turning that card over like a page instead (on Letter a further
    180 degrees) shows the back as the upright back a side-to-side sheet prints, and only so. The
    Letter caption says just that, and no longer that the sheet "turns over top to bottom"."""
    import pypdfium2

    with pdfplumber.open(built / "deck.pdf") as pdf:
        front, back = pdf.pages[0], pdf.pages[1]
        width, height = front.width / MM, front.height / MM
        cuts = [(c["x0"] / MM, c["top"] / MM) for c in front.curves if c.get("dash") and c["dash"][0]
                and abs(c["width"] / MM - CARD[0]) < 0.1]
        caption = " ".join(back.extract_text().split())
    turned = width > height  # Letter, landscape
    said = 'printed with "Print on both sides, flip on long edge"'
    assert said in caption and "top to bottom" not in caption
    assert ("Each back reads upright when you turn its card over like a page." in caption) == turned
    assert ("the sheet turns over side to side, like a page." in caption) == (not turned)
    document = pypdfium2.PdfDocument(built / "deck.pdf")
    try:
        upright = None
        for x, top in cuts:
            behind = (width - x - CARD[0], top) if not turned else (x, height - top - CARD[1])
            seen = card_image(document[1], (*behind, *CARD))
            page_turned = seen.rotate(180) if turned else seen  # the card turned like a page
            if upright is None:
                upright = upright_back(all_games_built["a4"] / "deck" / "deck.pdf") if turned else page_turned
            assert difference(page_turned, upright) < 5, (x, top)  # 3 at most, measured
            assert difference(page_turned.rotate(180), upright) > 10  # the other way round reads wrong (14)
    finally:
        document.close()


def upright_back(path: Path):
    """One back as an upright, side-to-side sheet prints it: the sample built on A4 (`path`, its
    deck.pdf), its first back."""
    import pypdfium2

    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        cut = next(c for c in page.curves if c.get("dash") and c["dash"][0] and abs(c["width"] / MM - CARD[0]) < 0.1)
        box = (page.width / MM - cut["x1"] / MM, cut["top"] / MM, *CARD)
    document = pypdfium2.PdfDocument(path)
    try:
        return card_image(document[1], box)
    finally:
        document.close()
