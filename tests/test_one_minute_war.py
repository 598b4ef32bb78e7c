"""One Minute War: measured from the PDF and SVGs that `printgen build` really writes."""
from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pypdf
import pytest

from building import build as build_into, shared
from pdfmeasure import (CUT_DASH, FOLD_DASH, MM, chars_mm, guides, once_per_file, page_size_mm, reading_text,
                         segments, svg_root)

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CARD_W, CARD_H = 115.0, 96.0  # from one_minute_war.yaml: width 115, 24 + 48 + 24
TAB_H = 24.0


def build(run_cli, out: Path, *args: str, game: str = "one_minute_war") -> Path:
    result = run_cli("build", game, "--out", out, *args)
    assert result.exit_code == 0, result.output
    return out / Path(game).stem / f"{Path(game).stem}.pdf"


@pytest.fixture(scope="module")
def a4_pdf(all_games_built) -> Path:
    """The bundled game built on A4, the default paper (`printgen build`, once for the session)."""
    return all_games_built["a4"] / "one_minute_war" / "one_minute_war.pdf"


@pytest.fixture(scope="module")
def built(all_games_built, tmp_path_factory):
    """`printgen build one_minute_war --paper P --flip F` as `built(paper, flip)`, its PDF: the long
    edge (the default) is the session's build of every game; the short edge is built once for the
    session, on each paper, for the several tests that read it."""
    def pdf(paper: str, flip: str) -> Path:
        if flip == "long":
            return all_games_built[paper] / "one_minute_war" / "one_minute_war.pdf"
        name = f"one-minute-war-short-{paper}"
        folder = shared(tmp_path_factory, {name: lambda out: build_into(out, "one_minute_war", "--paper", paper,
                                                                        "--flip", "short")})[name]
        return folder / "one_minute_war" / "one_minute_war.pdf"
    return pdf


def mirror(seg, flip: str, w: float, h: float, dx: float = 0.0, dy: float = 0.0):
    if flip == "long":
        return type(seg)(w - seg.x1 + dx, seg.y1 + dy, w - seg.x2 + dx, seg.y2 + dy, seg.dash)
    return type(seg)(seg.x1 + dx, h - seg.y1 + dy, seg.x2 + dx, h - seg.y2 + dy, seg.dash)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("flip", ["long", "short"])
def test_back_guides_mirror_front_guides(built, paper, flip):
    pdf_path = built(paper, flip)
    w, h = PAPERS[paper]
    with pdfplumber.open(pdf_path) as pdf:
        assert len(pdf.pages) == 2
        for page in pdf.pages:
            assert page_size_mm(page) == pytest.approx((w, h), abs=1e-3)
        # the legend's sample lines are guides too; compare only what lies on the card
        front = [s for s in guides(pdf.pages[0]) if s.length > 15]
        back = [s for s in guides(pdf.pages[1]) if s.length > 15]
    assert len(front) == len(back) == 4 + 2 * 4 + 2  # outline, 4 cuts per row, 2 folds
    assert sorted(mirror(s, flip, w, h).key() for s in front) == sorted(s.key() for s in back)
    assert {s.dash for s in front} == {CUT_DASH, FOLD_DASH}


def test_back_offset_shifts_back_lines_exactly(run_cli, tmp_path, a4_pdf):
    plain = a4_pdf  # `printgen build one_minute_war`, the session's build
    shifted = build(run_cli, tmp_path / "shifted", "--back-offset", "1.5,-0.5")
    with pdfplumber.open(plain) as a, pdfplumber.open(shifted) as b:
        before = sorted(s.key(3) for s in guides(a.pages[1]))
        after = sorted(s.key(3) for s in guides(b.pages[1]))
        front_a = sorted(s.key(3) for s in guides(a.pages[0]))
        front_b = sorted(s.key(3) for s in guides(b.pages[0]))
    assert front_a == front_b  # the front never moves
    moved = sorted(((round(p[0] + 1.5, 3), round(p[1] - 0.5, 3)), (round(q[0] + 1.5, 3), round(q[1] - 0.5, 3)), d)
                   for p, q, d in before)
    assert [(tuple(p), tuple(q), d) for p, q, d in after] == moved


def test_card_sits_in_upper_right_and_everything_inside_safe_margin(a4_pdf):
    with pdfplumber.open(a4_pdf) as pdf:
        for page in pdf.pages:
            w, h = page_size_mm(page)
            for s in segments(page):
                for x, y in ((s.x1, s.y1), (s.x2, s.y2)):
                    assert 5 <= x <= w - 5 and 5 <= y <= h - 5, s
            for c in chars_mm(page):
                assert 5 <= c["x0"] and c["x1"] <= w - 5 and 5 <= c["y0"] and c["y1"] <= h - 5, c
        outline = [s for s in guides(pdf.pages[0]) if s.dash == CUT_DASH and s.length > 90]
        xs = [v for s in outline for v in (s.x1, s.x2)]
        ys = [v for s in outline for v in (s.y1, s.y2)]
        assert max(xs) - min(xs) == pytest.approx(CARD_W, abs=0.01)
        assert max(ys) - min(ys) == pytest.approx(CARD_H, abs=0.01)
        assert max(xs) > 210 - 15 and max(ys) > 297 - 15  # upper-right corner


def test_rules_text_flows_around_the_card_without_overlap(a4_pdf):
    with pdfplumber.open(a4_pdf) as pdf:
        outline = [s for s in guides(pdf.pages[0]) if s.dash == CUT_DASH and s.length > 90]
        x0 = min(min(s.x1, s.x2) for s in outline)
        y0 = min(min(s.y1, s.y2) for s in outline)
        card_chars = [c for c in chars_mm(pdf.pages[0]) if c["x1"] > x0 and c["y1"] > y0]
        body = [c for c in card_chars if c["x0"] < x0 - 0.01 or c["y0"] < y0 - 0.01]
        assert not body, "rules text runs into the card"
        text = pdf.pages[0].extract_text()
        beside = [c for c in chars_mm(pdf.pages[0]) if c["x1"] < x0 and c["y0"] > y0]
        assert beside, "no text beside the card: it should flow around it"
    for heading in ("Making the card", "Setting up", "A round", "Sacrificing", "Restrictions",
                    "Ending the war", "Tips"):
        assert heading in text


def test_table_and_tabs_follow_the_yaml(run_cli, copy_definition, tmp_path):
    path = copy_definition("one_minute_war", "renamed")
    path.write_text(path.read_text().replace("name: Archer", "name: Bowman"))
    pdf_path = build(run_cli, tmp_path, game=str(path))
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        text = page.extract_text()
        outline = [s for s in guides(page) if s.dash == CUT_DASH and s.length > 90]
        x0 = min(min(s.x1, s.x2) for s in outline)
        y0 = min(min(s.y1, s.y2) for s in outline)
        card_words = [w for w in page.extract_words()
                      if w["x0"] / 2.8346 >= x0 - 0.01 and (page.height - w["bottom"]) / 2.8346 >= y0 - 0.01]
    assert "Archer" not in text
    assert re.search(r"^4 Bowman ", text, re.M), "the ability table row shows the new name"
    assert sum(w["text"] == "Bowman" for w in card_words) >= 1, "the near tab shows the new name"
    # the far row is printed upside down; pdfplumber reads those characters reversed
    assert any(w["text"] in ("Bowman", "namwoB") for w in card_words)


def test_tab_backs_read_upright_for_their_owner_once_folded(built):
    """Simulate the fold: map each logo letter on page 2 back through the duplex flip and the fold.

    Near tabs (bottom row of the front) fold up over the card; their owner reads left to right, so
    after flip and fold the letters must run in +x. The far owner sits opposite and reads in -x.
    """
    for flip in ("long", "short"):
        pdf_path = built("a4", flip)
        with pdfplumber.open(pdf_path) as pdf:
            w, h = page_size_mm(pdf.pages[1])
            front_outline = [s for s in guides(pdf.pages[0]) if s.dash == CUT_DASH and s.length > 90]
            y0 = min(min(s.y1, s.y2) for s in front_outline)
            # the tabs' logo is set at 7.5 pt, in capitals (three lines where two would come within
            # 2.4 mm of the cuts); the page footer, as small, lies below 12 mm
            logo = [c for c in chars_mm(pdf.pages[1]) if c["text"] in "ONEMINUTWAR" and abs(c["size"] - 7.5) < 0.05
                    and min(c["y0"], h - c["y1"]) > 12]
        assert len(logo) == 2 * 5 * len("ONEMINUTEWAR")
        for c in logo:
            a, b = c["dir"]
            ymid = (c["y0"] + c["y1"]) / 2
            front_y = ymid if flip == "long" else h - ymid
            # material direction after undoing the flip, then the fold turns the y component over
            # direction on the paper seen from the front (undo the flip), then the fold turns
            # the tab over about a horizontal line, which reverses the y component
            material = (-a, b) if flip == "long" else (a, -b)
            seen = (material[0], -material[1])
            near_row = front_y < y0 + TAB_H
            assert seen == ((1, 0) if near_row else (-1, 0)), (flip, c)


def test_pdf_preferences_metadata_and_fonts(a4_pdf):
    reader = pypdf.PdfReader(a4_pdf)
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None"
    assert prefs["/Duplex"] == "/DuplexFlipLongEdge"
    assert "One Minute War" in reader.metadata.title
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            assert descriptor is not None, f"{font['/BaseFont']} is not embedded"
            assert "/FontFile2" in descriptor.get_object(), f"{font['/BaseFont']} is not embedded"


def test_short_flip_sets_duplex_preference(built):
    reader = pypdf.PdfReader(built("a4", "short"))
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipShortEdge"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_turned_on_the_short_edge_the_footer_moves_beside_the_cards_back(built, paper):
    """The card's back then lies at the foot of page 2, where the footer was: the footer is set in
    two lines left of the card, and nothing on the page prints over the card."""
    with pdfplumber.open(built(paper, "short")) as pdf:
        page = pdf.pages[1]
        outline = [s for s in guides(page) if s.dash == CUT_DASH and s.length > 90]
        x0 = min(min(s.x1, s.x2) for s in outline)
        y1 = max(max(s.y1, s.y2) for s in outline)
        chars = chars_mm(page)
        lines: dict[float, str] = {}
        for c in sorted(chars, key=lambda c: c["x0"]):
            if c["y0"] < 12 and c["x1"] < x0:
                lines[round(c["y0"], 1)] = lines.get(round(c["y0"], 1), "") + c["text"]
        # every letter of the footer is found left of the card (pdfplumber drops the spaces)
        assert sorted(v.replace(" ", "") for v in lines.values()) == ["AmicrogamebyRansomChristofferson",
                                                                      "OneMinuteWar·rules·page2of2"], lines
        assert all(c["x0"] >= 5 and c["y0"] >= 5 for c in chars)  # the safe margin
        assert y1 > 40  # the card really is at the foot
        # the two columns above the card end level, as the house style asks of a last page
        height = float(page.height) / MM
        above = [c for c in chars if c["y0"] > y1 + 5]
        middle = float(page.width) / MM / 2
        feet = [min(c["y0"] for c in above if (c["x1"] < middle) == left) for left in (True, False)]
        top = max(c["y1"] for c in above)
        assert abs(feet[0] - feet[1]) <= 0.15 * (top - y1), (feet, top, y1, height)


def test_two_builds_are_byte_identical(run_cli, tmp_path, a4_pdf):
    first = a4_pdf  # the session's build (`printgen build` on A4, the default)
    second = build(run_cli, tmp_path / "b")
    assert first.read_bytes() == second.read_bytes()
    for name in ("one_minute_war-card-front.svg", "one_minute_war-card-back.svg"):
        assert (first.parent / "svg" / name).read_bytes() == (second.parent / "svg" / name).read_bytes()


def test_card_svgs_have_physical_size_and_the_same_guides(a4_pdf):
    ns = "{http://www.w3.org/2000/svg}"
    for side in ("front", "back"):
        root = svg_root(a4_pdf.parent / "svg" / f"one_minute_war-card-{side}.svg")
        assert root.get("width") == f"{CARD_W:g}mm" and root.get("height") == f"{CARD_H:g}mm"
        assert root.get("viewBox") == f"0 0 {CARD_W:g} {CARD_H:g}"
        dashed = [el for el in root.iter(f"{ns}line") if el.get("stroke-dasharray")]
        assert len(dashed) == 14
        texts = "".join(el.text or "" for el in root.iter(f"{ns}text"))
        assert texts.count("Spearman") == 2  # one tab in each row, on both sides
        if side == "back":
            assert "Defeats" not in texts  # abilities stay on the faces


def test_each_folded_tab_shows_its_soldier_upright_for_its_owner(a4_pdf):
    """On the back page the near row is drawn upside down (it turns once folded up), the far row
    upright; each row holds every soldier's number at the number size, 2 mm or more inside its tab."""
    with pdfplumber.open(a4_pdf) as pdf:
        chars = [c for c in chars_mm(pdf.pages[1]) if c["size"] > 14 and c["text"].isdigit()]
    assert len(chars) == 10
    low = sorted(chars, key=lambda c: c["y0"])[:5]
    high = sorted(chars, key=lambda c: c["y0"])[5:]
    assert {c["dir"] for c in low} == {(-1, 0)} and {c["dir"] for c in high} == {(1, 0)}
    assert sorted(c["text"] for c in low) == sorted(c["text"] for c in high) == list("12345")
    # read left to right on the back page: the far row counts up, the near row (upside down) down
    assert [c["text"] for c in sorted(high, key=lambda c: c["x0"])] == list("12345")
    assert [c["text"] for c in sorted(low, key=lambda c: c["x0"])] == list("54321")


def test_svg_card_guides_match_the_pdf_card_guides(a4_pdf):
    """The SVG writer draws the same millimetre geometry as the PDF writer."""
    ns = "{http://www.w3.org/2000/svg}"
    root = svg_root(a4_pdf.parent / "svg" / "one_minute_war-card-front.svg")
    svg = []
    for el in root.iter(f"{ns}line"):
        if el.get("stroke-dasharray"):
            x1, y1, x2, y2 = (float(el.get(k)) for k in ("x1", "y1", "x2", "y2"))
            svg.append(((x1, y1), (x2, y2)))  # card-local, y up (the root group flips y)
    with pdfplumber.open(a4_pdf) as pdf:
        on_card = [s for s in guides(pdf.pages[0]) if s.length > 15]
    x0 = min(min(s.x1, s.x2) for s in on_card)
    y0 = min(min(s.y1, s.y2) for s in on_card)
    pdf_keys = sorted(tuple(sorted(((round(s.x1 - x0, 2), round(s.y1 - y0, 2)),
                                   (round(s.x2 - x0, 2), round(s.y2 - y0, 2))))) for s in on_card)
    svg_keys = sorted(tuple(sorted(((round(a[0], 2), round(a[1], 2)), (round(b[0], 2), round(b[1], 2)))))
                      for a, b in svg)
    assert svg_keys == pdf_keys


def test_reference_sheet_rows_follow_the_yaml(run_cli, copy_definition, tmp_path):
    from ruamel.yaml import YAML
    path = copy_definition("one_minute_war", "ref")
    path.write_text(path.read_text().replace("ability: Defeats the Knight", "ability: Topples the Knight"))
    assert run_cli("build", path, "--out", tmp_path).exit_code == 0
    data = YAML(typ="safe").load(path.read_text())
    names = {s["number"]: s["name"] for s in data["soldiers"]}
    with pdfplumber.open(tmp_path / "ref" / "ref-reference.pdf") as pdf:
        assert len(pdf.pages) == 1
        # a table's rows, each cell's wrapped lines joined (its cells wrap in a column)
        lines = [" ".join(" ".join((cell or "").split()) for cell in row)
                 for table in pdf.pages[0].extract_tables() for row in table]
    for soldier in data["soldiers"]:
        beaten = ", ".join(f"{n} {names[n]}" for n in sorted(soldier.get("beats", []))) or "\u2013"
        row = f"{soldier['number']} {soldier['name']} {beaten} {soldier['ability']}"
        assert row in lines, row
    assert "2 Princess 5 Knight Topples the Knight" in lines


# -- rules content: the facts and tips the sheet prints, read back from the built PDF ------------

@once_per_file
def sheet_text(pdf_path: Path) -> list[str]:
    """Each page's text in reading order, with line breaks and runs of spaces folded to one space,
    so a sentence that wraps still reads as one string: the column beside the card, then the two
    columns under it (pdfplumber alone would run their lines together). Read once per file for the
    session: several tests read the session's builds."""
    with pdfplumber.open(pdf_path) as pdf:
        return [" ".join(reading_order(page).split()) for page in pdf.pages]


def reading_order(page) -> str:
    outline = [s for s in guides(page) if s.dash == CUT_DASH and s.length > 90]
    x0, x1 = (f(f(s.x1, s.x2) for s in outline) * 72 / 25.4 for f in (min, max))
    from printgen.games.one_minute_war.game import GAP, LEGEND_HEIGHT
    # the frame beside the card runs down past its legend to meet the columns below it
    foot = page.height - (min(min(s.y1, s.y2) for s in outline) - LEGEND_HEIGHT - GAP) * 72 / 25.4
    width, mid = float(page.width), float(page.width) / 2
    beside = (0, 0, x0, foot) if x0 > width - x1 else (x1, 0, width, foot)  # the wider side
    boxes = [beside, (0, foot, mid, page.height), (mid, foot, width, page.height)]
    return " ".join(page.crop(box).extract_text() or "" for box in boxes)


def tips_section(pages: list[str]) -> str:
    """The Tips section's words: it closes page 1 where there is room (A4), else it follows the
    match-up table overleaf (Letter); it ends where the next section begins."""
    text = " ".join(pages)
    assert " Tips " in text, "the sheet has no Tips section"
    tips = text.split(" Tips ", 1)[1]
    return re.split(r" (?:Every match-up|An example war|Questions that come up) ", tips)[0]


def edited_definition(copy_definition, name: str, edit) -> Path:
    from ruamel.yaml import YAML
    yaml = YAML()
    path = copy_definition("one_minute_war", name)
    data = yaml.load(path.read_text())
    edit(data)
    with path.open("w") as out:
        yaml.dump(data, out)
    return path


@pytest.mark.parametrize("paper", PAPERS)
def test_priest_tip_names_exactly_the_soldiers_he_survives(built, paper):
    """The tip is worked out from the beats table: the Priest stands against every soldier whose
    `beats` leaves out number 1, which in the bundled table are the Priest and the Princess."""
    from ruamel.yaml import YAML
    from printgen.games import bundled_definition
    soldiers = YAML(typ="safe").load(bundled_definition("one_minute_war").read_text())["soldiers"]
    spared = [s["name"] for s in sorted(soldiers, key=lambda s: s["number"]) if 1 not in s.get("beats", [])]
    assert spared == ["Priest", "Princess"]
    tips = tips_section(sheet_text(built(paper, "long")))
    assert "Your Priest stands only against the enemy Priest or Princess; anything else, a fist " \
           "included, defeats him." in tips
    assert "While the enemy Knight is down, your Princess defeats nobody and is worth most as a " \
           "sacrifice." in tips
    assert "fought 2 rounds running: he must sit out the next round." in tips
    assert "bait" not in tips and "still useful" not in tips  # the old advice said the opposite


def honest(soldier, victims: list[int]) -> None:
    """Give a soldier new victims and a tab that says so: build refuses a tab that contradicts beats."""
    soldier["beats"] = victims
    if victims:
        soldier["ability"] = "Defeats " + ", ".join(str(n) for n in victims)


def test_tips_follow_a_homebrew_beats_table(run_cli, copy_definition, tmp_path):
    """A different table gets different tips: here only the Spearman defeats the Priest; the Priest
    (who now defeats the Princess), the Princess and the Spearman each have a single victim; and
    soldiers may fight 3 rounds running."""
    beats = {1: [2], 2: [5], 3: [1], 4: [2, 3], 5: [3, 4]}

    def edit(data):
        for soldier in data["soldiers"]:
            honest(soldier, beats[soldier["number"]])
        data["restrictions"]["max_rounds_in_a_row"] = 3
    path = edited_definition(copy_definition, "homebrew", edit)
    pages = sheet_text(build(run_cli, tmp_path, game=str(path)))
    first = pages[0]
    assert "Each time the Priest fights, he must revive a fallen soldier of his side" in first
    assert "The Priest defeats nobody" not in first
    tips = tips_section(pages)
    assert "Your Priest stands only against the enemy Priest, Princess, Archer or Knight;" in tips
    assert "While the enemy Princess is down, your Priest defeats nobody" in tips
    assert "While the enemy Knight is down, your Princess defeats nobody" in tips
    assert "While the enemy Priest is down, your Spearman defeats nobody" in tips
    assert "fought 3 rounds running" in tips and "fought 2 rounds running" not in tips


def test_tips_that_do_not_hold_are_left_out(run_cli, copy_definition, tmp_path):
    """When nothing defeats the Priest, the Priest tip would say nothing true, so it is left out;
    the single-victim tips name this table's pairs, and with one round at most the rest-tip changes."""
    beats = {1: [], 2: [4, 5], 3: [2, 4], 4: [5], 5: [3]}

    def edit(data):
        for soldier in data["soldiers"]:
            honest(soldier, beats[soldier["number"]])
        data["restrictions"]["max_rounds_in_a_row"] = 1
    path = edited_definition(copy_definition, "nothing_beats_him", edit)
    tips = tips_section(sheet_text(build(run_cli, tmp_path, game=str(path))))
    assert "stands only against" not in tips
    assert "While the enemy Knight is down, your Archer defeats nobody" in tips
    assert "While the enemy Spearman is down, your Knight defeats nobody" in tips
    assert "your Princess defeats nobody" not in tips  # she has two victims in this table
    assert "The enemy soldier who fought last round cannot fight in this one." in tips
    assert "rounds running" not in tips


def test_tips_without_a_reviver_and_without_lone_victims(run_cli, copy_definition, tmp_path):
    beats = {1: [], 2: [4, 5], 3: [1, 2], 4: [1, 3], 5: [1, 3, 4]}

    def edit(data):
        for soldier in data["soldiers"]:
            honest(soldier, beats[soldier["number"]])
            soldier.pop("revives", None)
    path = edited_definition(copy_definition, "no_priest", edit)
    pages = sheet_text(build(run_cli, tmp_path, game=str(path)))
    first = pages[0]
    tips = tips_section(pages)
    assert "stands only against" not in tips and "defeats nobody" not in tips
    assert "revive" not in first  # no reviver: no revival paragraph or restriction either
    assert "fought 2 rounds running" in tips


@pytest.mark.parametrize("paper", PAPERS)
def test_the_priests_revival_is_compulsory(built, paper):
    """The revival is not the owner's choice: the rules say it must happen, and nowhere use "may"
    for it. (The sacrifice is a choice, and keeps its "may".)"""
    first, second = sheet_text(built(paper, "long"))
    assert "The Priest defeats nobody, but each time he fights he must revive a fallen soldier of " \
           "his side if there is one: his owner picks which and folds that tab up again †." in first
    sentences = re.split(r"(?<=[.;:?!])\s", first + " " + second)
    about_reviving = [s for s in sentences if re.search(r"reviv|bring\w* (him|one|back)", s)]
    assert len(about_reviving) >= 4
    assert not [s for s in about_reviving if re.search(r"\bmay\b", s)], about_reviving
    assert "you may show a fist" in first


@pytest.mark.parametrize("paper", PAPERS)
def test_the_rules_state_the_aim_before_the_first_round(built, paper):
    """The aim closes "Setting up", just before "A round" (read column by column, since pdfplumber
    would run the columns' lines together)."""
    with pdfplumber.open(built(paper, "long")) as pdf:
        text = " ".join(reading_order(pdf.pages[0]).split())
    setting_up = text.split(" Setting up ", 1)[1].split(" A round ", 1)[0]
    assert setting_up.endswith("Your aim: fold down every enemy soldier, or have more of yours "
                               "standing at the end.")


def test_both_sides_may_sacrifice_answer_makes_sense_when_allowed(run_cli, copy_definition, tmp_path):
    """With sacrifices open to both players, two fists mean no soldier was chosen, so the answer
    cannot say that chosen soldiers fall."""
    path = edited_definition(copy_definition, "open_sacrifice",
                             lambda data: data["restrictions"].__setitem__("sacrifice_only_when_behind", False))
    second = sheet_text(build(run_cli, tmp_path, game=str(path)))[1]
    assert "Can both players sacrifice in the same round? Yes: then neither side has chosen a soldier, " \
           "so each player just folds down one of their own." in second
    assert "both chosen soldiers fall" not in second


@pytest.mark.parametrize("paper", PAPERS)
def test_first_page_is_full_enough(built, paper):
    """The rules continue overleaf, so the first page may not leave more than 40 mm empty above
    its bottom margin (the last page may)."""
    from printgen.games.one_minute_war.game import PAGE_MARGIN
    with pdfplumber.open(built(paper, "long")) as pdf:
        assert len(pdf.pages) == 2
        body = [c for c in chars_mm(pdf.pages[0]) if 8 <= c["size"] < 14 and c["dir"] == (1, 0)]
    blank = min(c["y0"] for c in body) - PAGE_MARGIN
    assert 0 <= blank <= 40, f"{blank:.1f} mm blank at the foot of page 1 on {paper}"


# -- issue 43: a sheet a publisher would print -----------------------------------------------------

def matchup_cells(path: Path) -> list[list[str]]:
    """The match-up table's cells, read from the PDF's ruled grid (the table whose corner says
    'yours v. theirs'); each cell's lines joined by newlines, as pdfplumber reads them."""
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            for table in page.find_tables():
                rows = table.extract()
                if rows and (rows[0][0] or "").replace("\n", " ") == "yours v. theirs":
                    return rows
    raise AssertionError(f"no match-up table in {path.name}")


@pytest.mark.parametrize("paper", PAPERS)
def test_the_match_up_table_never_breaks_inside_a_word(all_games_built, paper):
    """Every line of every cell is made of whole words: the results, the soldiers' numbers and
    names, '+revive' under the Priest; on the rules sheet (a column beside the card) and on the
    reference. Before issue 43 the narrow column printed '+reviv' / 'e' and '3 Spearm' / 'an'."""
    names = ["Priest", "Princess", "Spearman", "Archer", "Knight"]
    whole = {"yours", "v.", "theirs", "wins", "falls", "both", "stand", "+revive", *names,
             *(str(n) for n in range(1, 6))}
    folder = all_games_built[paper] / "one_minute_war"
    for path in (folder / "one_minute_war.pdf", folder / "one_minute_war-reference.pdf"):
        rows = matchup_cells(path)
        assert len(rows) == 6 and all(len(row) == 6 for row in rows), rows
        for row in rows:
            for cell in row:
                for line in (cell or "").split("\n"):
                    assert set(line.split()) <= whole, (path.name, cell)
        heads = [" ".join(row[0].split()) for row in rows[1:]]
        assert heads == ["1 Priest +revive", "2 Princess", "3 Spearman", "4 Archer", "5 Knight"], heads
        results = {" ".join(cell.split()) for row in rows[1:] for cell in row[1:]}
        assert results == {"wins", "falls", "both stand"}


def card_box(page) -> tuple[float, float, float, float]:
    """The card's outline on a page (mm, y up): x0, y0, x1, y1 of its long dashed cut lines."""
    outline = [s for s in guides(page) if s.dash == CUT_DASH and s.length > 90]
    xs = [v for s in outline for v in (s.x1, s.x2)]
    ys = [v for s in outline for v in (s.y1, s.y2)]
    return min(xs), min(ys), max(xs), max(ys)


@pytest.mark.parametrize("paper", PAPERS)
def test_the_cards_words_are_set_at_7_5_pt_or_more(all_games_built, paper):
    """On both faces of the card: the abilities at 8 pt, the names at 9, the tab backs' logo at
    7.5 (in three lines where two would come within 2.4 mm of the cuts); before issue 43 the
    abilities and logo were 7 pt."""
    from pdfmeasure import glyph_pt
    with pdfplumber.open(all_games_built[paper] / "one_minute_war" / "one_minute_war.pdf") as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            x0, y0, x1, y1 = card_box(page)
            height = float(page.height)
            on_card = [c for c in page.chars if x0 <= c["x0"] / MM and c["x1"] / MM <= x1
                       and y0 <= (height - c["bottom"]) / MM and (height - c["top"]) / MM <= y1]
            sizes = {round(glyph_pt(c), 1) for c in on_card}
            assert on_card and min(sizes) >= 7.5, (number, sorted(sizes))
            if number == 1:  # the faces: abilities at 8 pt, names at 9
                assert {8.0, 9.0} <= sizes, sorted(sizes)


@pytest.mark.parametrize("paper", PAPERS)
def test_both_faces_of_the_card_bleed_and_carry_the_mark(all_games_built, paper):
    """The tabs' tints run 2 mm past the card's outline on the front as on the back (before, the
    front's stopped on the dashed cut), and the stopwatch mark stands twice on each face."""
    with pdfplumber.open(all_games_built[paper] / "one_minute_war" / "one_minute_war.pdf") as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            x0, y0, x1, y1 = card_box(page)
            height = float(page.height)
            tints = [(r["x0"] / MM, (height - r["bottom"]) / MM, r["x1"] / MM, (height - r["top"]) / MM)
                     for r in page.rects if r["fill"] and r["width"] > 10 * MM
                     and x0 - 3 <= r["x0"] / MM and r["x1"] / MM <= x1 + 3
                     and y0 - 3 <= (height - r["bottom"]) / MM and (height - r["top"]) / MM <= y1 + 3]
            assert tints, number
            reach = (x0 - min(t[0] for t in tints), y0 - min(t[1] for t in tints),
                     max(t[2] for t in tints) - x1, max(t[3] for t in tints) - y1)
            assert all(1.9 <= r <= 2.1 for r in reach), (number, reach)
            rims = [c for c in page.curves if 9.5 <= c["width"] / MM <= 10.5 and 9.5 <= c["height"] / MM <= 10.5
                    and x0 <= c["x0"] / MM and c["x1"] / MM <= x1]
            assert len(rims) == 2, (number, len(rims))


@pytest.mark.parametrize("paper", PAPERS)
def test_the_cards_back_is_light_ink(all_games_built, paper):
    """The tab rows on the card's back are the sides' light tints, not floods of their colours:
    every filled area on the back's card is at least L* 80 (a home printer's ink), and its words
    are the sides' own dark colours, still readable (L* at most 50)."""
    from printgen.drawing.style import lightness
    with pdfplumber.open(all_games_built[paper] / "one_minute_war" / "one_minute_war.pdf") as pdf:
        page = pdf.pages[1]
        x0, y0, x1, y1 = card_box(page)
        height = float(page.height)
        fills = [r for r in page.rects if r["fill"] and r["width"] > 10
                 and x0 - 3 <= r["x0"] / MM and r["x1"] / MM <= x1 + 3
                 and y0 - 3 <= (height - r["bottom"]) / MM and (height - r["top"]) / MM <= y1 + 3]
        colours = {tuple(round(float(v), 3) for v in r["non_stroking_color"]) for r in fills}
        numbers = [c for c in page.chars if c["text"] in "12345" and c["size"] > 12]
    hexes = ["#" + "".join(f"{round(v * 255):02x}" for v in colour) for colour in colours]
    assert len(fills) >= 10 and all(lightness(h) >= 80 for h in hexes), hexes
    for c in numbers:
        colour = "#" + "".join(f"{round(float(v) * 255):02x}" for v in c["non_stroking_color"])
        assert lightness(colour) <= 50, colour


@pytest.mark.parametrize("paper", PAPERS)
def test_the_sheets_back_is_full_and_tells_an_example_war(all_games_built, paper):
    """The back carries a round step by step and an example war whose outcomes are the soldier
    table's: six rounds on Letter, and on A4, whose back has the room, played on to the end of the
    war in round 10 (before, A4's back columns ended 52 and 56 mm above the footer). Its two
    columns under the card end within a quarter of a column of the foot (38 % of the page was blank
    before issue 43 on A4)."""
    from typeset import column_blanks
    path = all_games_built[paper] / "one_minute_war" / "one_minute_war.pdf"
    front, back = column_blanks(path)
    assert max(back) <= 0.25 and max(front) <= 0.25, (front, back)
    assert max(back) <= 0.15, back  # A4's back: 0.20 and 0.21 when its example stopped after six rounds
    with pdfplumber.open(path) as pdf:
        text = words_beside_card(pdf)
    assert "A round, step by step" in text and "An example war" in text
    assert "Round 1. Red 4 (Archer), Blue 3 (Spearman). Blue's Spearman falls. Standing: Red 5, Blue 4." in text
    assert "Round 4. Red 5 (Knight), Blue a fist (behind 4 to 5). Blue folds down the Princess to pay " \
           "for the fist; Red's Knight falls." in text
    assert "Red's Princess has fought 2 rounds running and sits out the next." in text
    if paper == "a4":  # the back has room to play the war on to its end
        assert "Round 7. Red 1 (Priest), Blue 4 (Archer). Red's Priest falls, but still brings the Knight " \
               "back. Standing: Red 4, Blue 3." in text  # he falls and revives in the same round (p1's rule)
        assert "Round 10. Red 3 (Spearman), Blue a fist (behind 1 to 4). Blue folds down the Priest to pay " \
               "for the fist (given up, he does not fight, so he brings nobody back); Red's Spearman falls. " \
               "Standing: Red 3, Blue 0." in text
        assert "After 10 rounds Blue has no soldier left standing, so the war is over: Red wins, 3 to 0." in text
        assert "After 6 rounds" not in text
    else:
        assert "After 6 rounds Red leads 4 to 3" in text and "Round 7." not in text


def words_beside_card(pdf) -> str:
    """The rules sheet's words in reading order without the card's (long-edge duplex: the card sits
    top right on the front, top left on the back), so text set beside the card reads whole."""
    def off_card(page, left: bool):
        width = float(page.width) / MM
        x0 = 9.0 if left else width - 9.0 - CARD_W
        inside = lambda o: (o.get("object_type") == "char" and x0 - 1 <= float(o["x0"]) / MM <= x0 + CARD_W + 1
                            and float(o["top"]) / MM <= 9.0 + CARD_H + 8.0)
        return page.filter(lambda o: not inside(o))
    return " ".join(reading_text(off_card(page, left=n == 1)) for n, page in enumerate(pdf.pages))


def test_the_example_war_follows_a_homebrew_table(run_cli, copy_definition, tmp_path):
    """The example's moves are fixed, its outcomes worked out from the table, and it stops before
    the first move the table forbids: here the Archer no longer defeats the Spearman, so round 1
    leaves both standing, and Blue, never behind, cannot show the fist of round 4."""
    beats = {1: [], 2: [5], 3: [1, 2], 4: [1, 2], 5: [1, 3, 4]}

    def edit(data):
        for soldier in data["soldiers"]:
            honest(soldier, beats[soldier["number"]])
    path = edited_definition(copy_definition, "archer_equal", edit)
    with pdfplumber.open(build(run_cli, tmp_path, game=str(path))) as pdf:
        text = words_beside_card(pdf)
    assert "Round 1. Red 4 (Archer), Blue 3 (Spearman). Neither soldier beats the other, so both stand. " \
           "Standing: Red 5, Blue 5." in text
    assert "Round 3. Red 1 (Priest), Blue 2 (Princess)." in text and "Round 4." not in text
    assert "After 3 rounds the sides stand level at 5 each" in text


def test_an_example_the_table_cuts_short_is_left_out(run_cli, copy_definition, tmp_path):
    """With a Spearman who defeats the Archer, Red's Archer falls in round 1 and cannot fight round
    2: one round is too short an example, so the sheet prints none."""
    beats = {1: [], 2: [5], 3: [1, 4], 4: [2], 5: [1, 3, 4]}

    def edit(data):
        for soldier in data["soldiers"]:
            honest(soldier, beats[soldier["number"]])
    path = edited_definition(copy_definition, "archer_weak", edit)
    with pdfplumber.open(build(run_cli, tmp_path / "weak", game=str(path))) as pdf:
        text = " ".join(reading_text(page) for page in pdf.pages)
    assert "An example war" not in text and "Round 1." not in text
    assert "A round, step by step" in text


def tab_boxes(page) -> list[tuple[float, float, float, float, str]]:
    """Each tab of the card (mm, y up) and which of its horizontal sides is the outer cut ("b" or
    "t"; the other is its fold): the outline, the short cuts between tabs and the two folds."""
    x0, y0, x1, y1 = card_box(page)
    cuts = [s for s in segments(page, CUT_DASH) if abs(s.x1 - s.x2) < 1e-6 and x0 + 1 < s.x1 < x1 - 1]
    xs = sorted({x0, x1} | {round(s.x1, 3) for s in cuts})
    low, high = sorted({round(s.y1, 3) for s in segments(page, FOLD_DASH) if abs(s.length - (x1 - x0)) < 0.01})
    return [(a, c, b, d, side) for a, b in zip(xs, xs[1:]) for c, d, side in ((y0, low, "b"), (high, y1, "t"))]


@pytest.mark.parametrize("paper", PAPERS)
def test_the_tabs_text_keeps_more_than_2_mm_from_every_cut(all_games_built, paper):
    """Every glyph on a tab's face keeps TAB_PAD (2.4 mm) from the tab's three cut lines: the print
    rule's 2 mm with room for a cut a little off. Before, the words stood exactly 2.00 mm from the
    cut on their left (or right, on the far row): at the rule's floor, with no room. On the backs
    the words are centred and the logo, at 7.5 pt, keeps LOGO_PAD (2.1 mm)."""
    from printgen.games.one_minute_war.card import LOGO_PAD, TAB_PAD
    with pdfplumber.open(all_games_built[paper] / "one_minute_war" / "one_minute_war.pdf") as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            tabs, nearest = tab_boxes(page), []
            assert len(tabs) == 10
            for c in (c for c in chars_mm(page) if c["text"].strip()):
                cx, cy = (c["x0"] + c["x1"]) / 2, (c["y0"] + c["y1"]) / 2
                for a, b, p, q, side in tabs:
                    if a < cx < p and b < cy < q:
                        outer = c["y0"] - b if side == "b" else q - c["y1"]
                        nearest.append((round(min(c["x0"] - a, p - c["x1"], outer), 2), c["text"]))
            assert len(nearest) > 100, number  # the number, name and words of ten tabs
            assert min(nearest)[0] >= (TAB_PAD if number == 1 else LOGO_PAD) - 0.01, (number, sorted(nearest)[:5])
    assert TAB_PAD >= 2.4 and LOGO_PAD > 2.0


def left_column_lines(page) -> list[tuple[float, float, bool]]:
    """The lines of the page's left column, from the title down past the card: (top, bottom) in
    mm from the page's top and whether the line is a heading (bold, in the accent); the running
    footer is left out."""
    from printgen.games.one_minute_war.game import FOOT
    x0, foot = card_box(page)[0], float(page.height) / MM - FOOT
    rows: dict[float, list[dict]] = {}
    for c in page.chars:
        if c["x1"] / MM < x0 - 1 and c["text"].strip() and c["upright"] and c["size"] < 14 and c["top"] / MM < foot:
            rows.setdefault(round(c["top"] / MM, 1), []).append(c)
    lines = []
    for top in sorted(rows):
        chars = rows[top]
        heading = all("Bold" in c["fontname"] for c in chars) and chars[0]["non_stroking_color"] not in ((0,), (0, 0, 0))
        lines.append((top, max(c["bottom"] for c in chars) / MM, heading))
    return lines


@pytest.mark.parametrize("paper", PAPERS)
def test_no_gap_inside_a_section_where_the_text_leaves_the_cards_side(all_games_built, paper):
    """The left column reads on from beside the card to below it: between two lines of one section
    no more room than a paragraph's spacing (a heading may stand lower). Before, the column beside
    the card stopped 5 mm above the text below it, and on A4 the aim's paragraph, too long for the
    room left, stood 12 mm under the setting up."""
    with pdfplumber.open(all_games_built[paper] / "one_minute_war" / "one_minute_war.pdf") as pdf:
        lines = left_column_lines(pdf.pages[0])
        card_foot = (float(pdf.pages[0].height) / MM) - card_box(pdf.pages[0])[1]
    assert any(top > card_foot for top, _, _ in lines) and any(top < card_foot for top, _, _ in lines)
    gaps = [(round(b[0] - a[1], 1), round(a[1], 1)) for a, b in zip(lines, lines[1:]) if not b[2]]
    assert gaps and max(gaps)[0] < 3.0, sorted(gaps)[-3:]


# -- REVIEW-47: page 1's columns end level, the example war reads as one block ----------------------

@pytest.mark.parametrize("paper", PAPERS)
def test_the_first_pages_columns_under_the_card_end_near_level(all_games_built, paper):
    """'A round, step by step' closes page 1, so its two columns under the card end within a tenth
    of the text height of each other and neither leaves more than 15 % blank. Before, the right
    column stopped 30 mm short of the left on A4 (22 % blank) and 26 mm on Letter."""
    from typeset import column_blanks
    path = all_games_built[paper] / "one_minute_war" / "one_minute_war.pdf"
    left, right = column_blanks(path, slice(0, 1))[0]
    assert abs(left - right) <= 0.10 and max(left, right) <= 0.15, (left, right)
    with pdfplumber.open(path) as pdf:
        first = " ".join(reading_text(pdf.pages[0]).split())
    assert "A round, step by step" in first and first.index("Ending the war") < first.index("A round, step by step")


@pytest.mark.parametrize("paper", PAPERS)
def test_the_example_war_is_one_block_below_the_card(all_games_built, paper):
    """Every round of the example war and its summary lie in one column below the card's back,
    in order: before, Round 1 sat beside the card and Rounds 2-6 in the column under it."""
    with pdfplumber.open(all_games_built[paper] / "one_minute_war" / "one_minute_war.pdf") as pdf:
        page = pdf.pages[1]
        card_foot = float(page.height) / MM - card_box(page)[1]  # mm from the top
        words = page.extract_words()
    starts = [w for w in words if w["text"] in ("Round", "After")]
    rounds = 10 if paper == "a4" else 6  # A4's back has room to play the war on to its end
    assert len(starts) == rounds + 1, [(w["text"], w["x0"] / MM) for w in starts]  # and the summary
    assert len({round(w["x0"] / MM, 1) for w in starts}) == 1  # one column, every line flush left
    tops = [w["top"] / MM for w in starts]
    assert tops == sorted(tops) and min(tops) > card_foot, (tops, card_foot)
