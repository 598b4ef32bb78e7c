"""Make the guides' pictures from real builds: run printgen, render its PDFs with pypdfium2, crop.

Run from the repository root:  python docs/make_images.py   (or `... deck` for the deck guides' only,
`... pieces` for the piece-template pictures of the art guide)

The before-and-after pictures of docs/print-quality.md need a build made by printgen as it was before
the print-quality work (commit d9317f2), on A4, in a folder of its own:

    git worktree add /tmp/before d9317f2
    PYTHONPATH=/tmp/before python -m printgen.cli.main build --out /tmp/before-out
    python docs/make_images.py quality /tmp/before-out

The pieces section of docs/print-quality.md (issue 35) compares with commit a23bbca the same way:

    git archive a23bbca | tar -x -C /tmp/before35
    cd /tmp/before35 && PYTHONPATH=. python -m printgen.cli.main build omiga quick_violence --out /tmp/b35
    PYTHONPATH=. python -m printgen.cli.main build deck --paper letter --out /tmp/b35/letter
    cd - && python docs/make_images.py pieces-quality /tmp/b35

The ink section (issue 43) compares the component sheets with commit 5134be2 the same way:

    git archive 5134be2 | tar -x -C /tmp/before43
    cd /tmp/before43 && PYTHONPATH=. python -m printgen.cli.main build omiga fracas one_minute_war \
        deck --out /tmp/before43-out
    cd - && python docs/make_images.py ink-quality /tmp/before43-out

The house-style section compares every rules and reference page with commit e15dac4 (main before
issue 35's style work was merged), built on A4 in a folder of its own the same way:

    git archive e15dac4 | tar -x -C /tmp/before-style
    cd /tmp/before-style && PYTHONPATH=. python -m printgen.cli.main build fracas armies omiga \
        one_minute_war quick_violence --out /tmp/before-style-out
    cd - && python docs/make_images.py style-quality /tmp/before-style-out
The one-house-style section (issue 43) compares with main as it was before that work (commit
df0de5d), built on A4 and on Letter into a4/ and letter/ of one folder:

    git archive df0de5d | tar -x -C /tmp/before43
    cd /tmp/before43 && for p in a4 letter; do PYTHONPATH=. python -m printgen.cli.main build fracas \
        armies omiga one_minute_war quick_violence --paper $p --out /tmp/b43/$p; done
    cd - && python docs/make_images.py house-quality /tmp/b43

The words section (issue 43) compares the pages whose words changed with commit df0de5d the same
way: build the five games there into /tmp/before-words, then
`python docs/make_images.py words-quality /tmp/before-words`.
The publisher section (issue 43, stop 46) compares with commit 1ec7a53: build the five games and
the sample deck there into /tmp/b46/a4 (`... build fracas armies omiga one_minute_war quick_violence
card_defs/deck.yaml --no-pictures --out /tmp/b46/a4`), then
`python docs/make_images.py publisher-quality /tmp/b46/a4`.
The Potion Shop section after review 47 compares with commit e4af9d3, the sample deck built there
on A4 and on Letter into a4/ and letter/ of one folder (`... build deck --no-pictures --paper a4
--out /tmp/p47/a4`, the same with letter), then `python docs/make_images.py potion-quality /tmp/p47`.
The Fracas table-page section (issue 43, the fourth Fracas round) compares with commit dbd1a87,
built on A4 and on Letter into a4/ and letter/ of one folder (`... build fracas quick_violence
--paper P --out /tmp/b-table/P`), then `python docs/make_images.py table-quality /tmp/b-table`.
The Fracas review section (issue 43, five-point tokens and the example on one sheet) compares
with commit e4af9d3 built the same way into /tmp/b-fracas/P, then
`python docs/make_images.py fracas-review-quality /tmp/b-fracas`.
The filled reference sheets (issue 43) compare with commit dbd1a87: build the five games there
into /tmp/before-ref, then `python docs/make_images.py reference-quality /tmp/before-ref`.
Every picture is what printgen writes today, so the guides never show a mock-up. Each PNG is
reduced to 256 colours, which keeps it small (well under 250 KB) and sharp for line art.
With MAKE_IMAGES_INTO=DIR in the environment the pictures go to DIR instead of docs/images, which is
how tests/test_docs_images.py remakes them to compare with the committed ones.
With MAKE_IMAGES_BUILT=DIR, the bundled games are read from DIR (`printgen build --paper a4 --out DIR`
made them) rather than built again; the tests pass the build their session already made. The same
with MAKE_IMAGES_DECK_BUILT=DIR for the sample deck (`printgen build deck --png --out DIR`).
"""
from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from functools import partial
from pathlib import Path
from typing import Any, Callable

import pypdf
import pypdfium2
from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
MM = 72 / 25.4
LIMIT = 250 * 1024


def printgen(*args: object) -> None:
    """Run the real command line in this process (each build still runs in a worker of its own),
    with an empty user config (no saved back offset); its report on stdout is not shown."""
    from printgen.cli.main import cli

    os.environ["XDG_CONFIG_HOME"] = str(Path(tempfile.gettempdir()) / "printgen-docs-config")
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            code = cli.main(args=[str(arg) for arg in args], standalone_mode=False)
        except SystemExit as stop:  # a command that ends with its own exit code (validate)
            code = stop.code
    if code:
        raise SystemExit(f"printgen {' '.join(map(str, args))}: exit code {code}")


def render(pdf: Path, page: int, dpi: float, box_mm: tuple[float, float, float, float] | None = None) -> Image.Image:
    """One page at `dpi`, cropped to (left, top, right, bottom) in mm from the top-left corner."""
    image = pypdfium2.PdfDocument(pdf)[page].render(scale=dpi / 72).to_pil().convert("RGB")
    if box_mm:
        k = dpi / 25.4
        image = image.crop(tuple(round(v * k) for v in box_mm))
    return image


def images_folder() -> Path:
    """docs/images, or the folder MAKE_IMAGES_INTO names (read when asked, so nothing is cached)."""
    return Path(os.environ.get("MAKE_IMAGES_INTO") or IMAGES)


def save(image: Image.Image, name: str, width: int | None = None) -> None:
    if width and image.width > width:
        image = image.resize((width, round(image.height * width / image.width)), Image.LANCZOS)
    small = image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    target = images_folder() / name
    small.save(target, optimize=True)
    size = target.stat().st_size
    print(f"{target}: {image.width} x {image.height} px, {size // 1024} KB")
    if size > LIMIT:
        raise SystemExit(f"{name} is over {LIMIT // 1024} KB; crop or shrink it")


def with_trim_box(pdf: Path, dpi: float) -> Image.Image:
    """The page with its TrimBox (read from the PDF) outlined in magenta: where the cut falls."""
    image = render(pdf, 0, dpi)
    page = pypdf.PdfReader(pdf).pages[0]
    x0, y0, x1, y1 = (float(v) for v in page.trimbox)
    height, k = float(page.mediabox.height), dpi / 72
    ImageDraw.Draw(image).rectangle((x0 * k, (height - y1) * k, x1 * k, (height - y0) * k),
                                    outline=(230, 0, 140), width=3)
    return image


def outlined(image: Image.Image) -> Image.Image:
    """The page with a thin grey line along its edges, so a white page shows where the paper ends."""
    ImageDraw.Draw(image).rectangle((0, 0, image.width - 1, image.height - 1), outline=(160, 160, 160))
    return image


def side_by_side(left: Image.Image, right: Image.Image, gap: int = 24) -> Image.Image:
    height = max(left.height, right.height)
    out = Image.new("RGB", (left.width + gap + right.width, height), "white")
    out.paste(left, (0, 0))
    out.paste(right, (left.width + gap, 0))
    return out


def sample_deck_build(out: Path) -> Path:
    """The folder holding the bundled sample deck built duplex with its PNGs on A4 (`printgen build
    deck --png`): built into `out` here, or, when MAKE_IMAGES_DECK_BUILT names a folder, read from
    there (tests/test_docs_images.py passes its session's build of the sample, `printgen build
    card_defs/deck.yaml --png`, which writes the same files). Only read, never written into."""
    built = os.environ.get("MAKE_IMAGES_DECK_BUILT")
    if built:
        return Path(built)
    printgen("build", "deck", "--png", "--out", out)
    return out


def deck_images(out: Path) -> None:
    """docs/decks.md: the bundled sample built duplex and gutterfold, the Star Lanes example
    (docs/examples/star_lanes): card types from named layouts, styled words, turns and clips; and
    Sea Glass (docs/examples/sea_glass): lengths with units, named and see-through colours, change:."""
    sample = sample_deck_build(out / "duplex") / "deck"
    sheet = sample / "deck.pdf"
    save(side_by_side(render(sheet, 0, 90), render(sheet, 1, 90)), "deck-sheet-both-sides.png", 1536)
    save(Image.open(sample / "png" / "ember-tonic.png").convert("RGB"), "deck-face.png", 375)
    save(Image.open(sample / "deck-overview.png").convert("RGB"), "deck-overview.png", 880)
    book, card = sample / "deck-rules.pdf", sample / "deck-reference.pdf"
    save(side_by_side(side_by_side(render(book, 0, 60), render(book, 1, 60)), render(card, 0, 60)),
         "deck-sample-rules.png", 1280)
    printgen("build", "deck", "--where", 'kind == "fire" or cost >= 4', "--out", out / "where")
    save(Image.open(out / "where" / "deck" / "deck-overview.png").convert("RGB"), "deck-where.png", 880)
    printgen("build", "deck", "--layout", "gutterfold", "--no-pictures", "--out", out / "fold")
    save(render(out / "fold" / "deck" / "deck.pdf", 0, 65), "deck-gutterfold.png", 536)
    example = ROOT / "docs" / "examples" / "star_lanes" / "star_lanes.yaml"
    printgen("build", example, "--png", "--out", out / "lanes")
    lanes = out / "lanes" / "star_lanes" / "star_lanes.pdf"
    save(side_by_side(render(lanes, 0, 80, (9, 9, 201, 205)), render(lanes, 1, 80, (9, 9, 201, 205))),
         "deck-types.png", 1400)
    pictures = out / "lanes" / "star_lanes" / "png"
    faces = [Image.open(pictures / f"{name}.png").convert("RGB") for name in ("iron-barge", "verdant-prime", "solar-storm")]
    row = faces[0]
    for face in faces[1:]:
        row = side_by_side(row, face, 16)
    save(row, "deck-styled-turned-clipped.png", 1100)
    printgen("build", example, "--guides", "--no-pictures", "--out", out / "guides")
    save(render(out / "guides" / "star_lanes" / "star_lanes.pdf", 0, 160, (6, 6, 77, 102)), "deck-guides.png", 460)
    printgen("build", ROOT / "docs" / "examples" / "sea_glass" / "sea_glass.yaml", "--png", "--out", out / "glass")
    pictures = out / "glass" / "sea_glass" / "png"
    row = Image.open(pictures / "bottle-green.png").convert("RGB")
    for name in ("amber", "cobalt", "back"):
        row = side_by_side(row, Image.open(pictures / f"{name}.png").convert("RGB"), 16)
    save(row, "deck-sea-glass.png", 1100)
    fonts_images(out)


FONTS_TEMPLATE = """<svg xmlns="http://www.w3.org/2000/svg" width="{{ card.width }}mm" height="{{ card.height }}mm"
     viewBox="0 0 {{ card.width }} {{ card.height }}">
  <image href="{{ kind }}.svg" x="11.75" y="18" width="40" height="40"/>
  <image href="{{ kind }}.svg" x="3" y="18" width="8" height="40" preserveAspectRatio="xMidYMin slice"/>
  <text x="31.75" y="64" font-size="5" font-family="Display" font-weight="bold" text-anchor="middle">{{ kind | upper }}</text>
</svg>
"""
FONTS_ELEMENT = """    - type: text
      text: "Set in <b>Body</b>, the deck's <i>own</i> family"
      font: Body
      x: 5
      y: 67
      width: 53.5
      height: 5
      size: 8
"""


def fonts_images(out: Path) -> None:
    """docs/decks.md: a face whose template places pictures as SVG says and sets its text in a
    family under `fonts:`, beside a text element whose styled words use that family's faces."""
    import reportlab
    import shutil

    folder = out / "fonts-deck"
    shutil.copytree(ROOT / "card_defs", folder, ignore=shutil.ignore_patterns("*.py", "__pycache__", "starters"))
    vera = Path(reportlab.__file__).parent / "fonts"
    for face, file in (("", "body"), ("Bd", "body-bold"), ("It", "body-italic"), ("BI", "display")):
        shutil.copy(vera / f"Vera{face}.ttf", folder / f"{file}.ttf")
    (folder / "face.svg.j2").write_text(FONTS_TEMPLATE)
    deck = folder / "deck.yaml"
    text = deck.read_text()
    start, end = text.index("\nface:\n"), text.index("\nback:\n")
    face = "\nface:\n  template: face.svg.j2\n  background: '#ffffff'\n  layout:\n" + FONTS_ELEMENT.rstrip("\n")
    deck.write_text(text[:start] + face + text[end:] + "fonts:\n  Body: {regular: body.ttf, bold: body-bold.ttf, "
                    "italic: body-italic.ttf}\n  Display: {regular: body.ttf, bold: display.ttf}\n")
    printgen("build", deck, "--rows", "1", "--png", "--out", out / "fonts")
    save(Image.open(out / "fonts" / "deck" / "png" / "ember-tonic.png").convert("RGB"), "deck-fonts-and-pictures.png", 375)


def found_words(pdf: Path, words: str) -> tuple[int, float, float]:
    """The page and the top-left corner (mm from the page's top-left) of the first line holding `words`."""
    import pdfplumber

    with pdfplumber.open(pdf) as document:
        for number, page in enumerate(document.pages):
            for line in page.extract_text_lines():
                if words in line["text"]:
                    return number, line["x0"] / MM, line["top"] / MM
    raise SystemExit(f"{pdf.name} does not say {words!r}")


def rules_images(out: Path) -> None:
    """docs/rules-documents.md: the starter deck (`printgen new deck`) with the guide's rulebook and
    reference card (docs/examples/deck_rules), built with its cards."""
    import shutil

    home = out / "rules-home"
    home.mkdir()
    before = Path.cwd()
    os.chdir(home)
    try:
        printgen("new", "deck", "mydeck")
    finally:
        os.chdir(before)
    for name in ("rules.md", "reference.md"):
        shutil.copyfile(ROOT / "docs" / "examples" / "deck_rules" / name, home / "mydeck" / name)
    printgen("build", home / "mydeck" / "mydeck.yaml", "--out", out / "rules")
    book = out / "rules" / "mydeck" / "mydeck-rules.pdf"
    pages = [render(book, n, 40) for n in range(4)]
    top, bottom = side_by_side(pages[0], pages[1], 12), side_by_side(pages[2], pages[3], 12)
    both = Image.new("RGB", (top.width, top.height + 12 + bottom.height), "white")
    both.paste(top, (0, 0))
    both.paste(bottom, (0, top.height + 12))
    save(both, "rules-pages.png", 900)
    save(render(book, 0, 110, (12, 10, 200, 150)), "rules-first-page.png", 820)
    page, left, top = found_words(book, "A good opening hand")  # wherever the text puts it
    save(render(book, page, 110, (left - 2, top - 3, left + 92, top + 60)), "rules-card-row.png", 420)
    save(render(out / "rules" / "mydeck" / "mydeck-reference.pdf", 0, 55), "rules-reference-sheet.png", 460)


def labelled(image: Image.Image, words: str) -> Image.Image:
    """The picture under a line of words, so a reader knows which side is which."""
    out = Image.new("RGB", (image.width, image.height + 28), "white")
    out.paste(image, (0, 28))
    ImageDraw.Draw(out).text((4, 6), words, fill=(0, 0, 0))
    return out


# (picture, before: (file, page, dpi, crop), after: (file, page, dpi, crop)); files under out/<game>/
BEFORE_AFTER = [
    ("quality-omiga-sheet.png", ("omiga/omiga.pdf", 2, 45, None), ("omiga/omiga.pdf", 4, 45, None)),
    ("quality-omiga-rules.png", ("omiga/omiga.pdf", 6, 45, None), ("omiga/omiga.pdf", 0, 45, None)),
    ("quality-one_minute_war-card.png", ("one_minute_war/one_minute_war.pdf", 1, 110, (3, 5, 112, 100)),
     ("one_minute_war/one_minute_war.pdf", 1, 110, (3, 5, 122, 108))),
    ("quality-quick_violence-measuring.png", ("quick_violence/quick_violence.pdf", 2, 45, None),
     ("quick_violence/quick_violence.pdf", 2, 45, None)),
    ("quality-quick_violence-page-2.png", ("quick_violence/quick_violence.pdf", 1, 45, None),
     ("quick_violence/quick_violence.pdf", 1, 45, None)),
    ("quality-armies-rules.png", ("armies/armies.pdf", 0, 45, None), ("armies/armies.pdf", 0, 45, None)),
    ("quality-fracas-rules.png", ("fracas/fracas.pdf", 0, 45, None), ("fracas/fracas.pdf", 0, 45, None)),
]


# issue 35, the pieces: (picture, file under out/, page, dpi, crop), the same for both builds
PIECES_BEFORE_AFTER = [
    ("quality-pieces-omiga-cuts.png", "omiga/omiga.pdf", 6, 150, (14, 20, 106, 70)),
    ("quality-pieces-measuring-corner.png", "quick_violence/quick_violence.pdf", 2, 200, (0, 0, 75, 32)),
    ("quality-pieces-deck-letter.png", "letter/deck/deck.pdf", 0, 45, None),
]


def pieces_quality_images(before: Path, after: Path) -> None:
    """docs/print-quality.md, the pieces: cut lines, the measuring page's corner, a Letter deck sheet."""
    for name, pdf, page, dpi, box in PIECES_BEFORE_AFTER:
        left = labelled(render(before / pdf, page, dpi, box), "before")
        right = labelled(render(after / pdf, page, dpi, box), "after")
        save(side_by_side(left, right), name, 1200)


# issue 35, the house style: every rules and reference page of the five games, before and after;
# (game, file suffix, pages). The reference cards hold the sheet's two halves, so the sheet stands
# for them; Quick Violence's measuring page is in the pieces pictures.
STYLE_PAGES = [("fracas", "", (0, 1, 2)), ("armies", "", (0, 1)), ("omiga", "", (0, 1)),
               ("one_minute_war", "", (0, 1)), ("quick_violence", "", (0, 1)),
               *((game, "-reference", (0,)) for game in ("fracas", "armies", "omiga", "one_minute_war",
                                                          "quick_violence"))]


def style_quality_images(before: Path, after: Path, pages: list[tuple[str, str, tuple[int, ...]]] = STYLE_PAGES,
                         prefix: str = "style") -> None:
    """docs/print-quality.md, the house style (and the words, with WORDS_PAGES): each page at
    80 dpi, as it was and as it is."""
    for game, suffix, numbers in pages:
        pdf = Path(game) / f"{game}{suffix}.pdf"
        for page in numbers:
            left = labelled(render(before / pdf, page, 80), "before")
            right = labelled(render(after / pdf, page, 80), "after")
            kind = "reference" if suffix else f"rules-{page + 1}"
            save(side_by_side(left, right), f"quality-{prefix}-{game}-{kind}.png")


# issue 43, ink and the house style on component sheets: (picture, file under out/, page, dpi, crop)
INK_BEFORE_AFTER = [
    ("quality-ink-omiga-sheet-2.png", "omiga/omiga.pdf", 4, 45, None),
    ("quality-ink-omiga-sheet-2-backs.png", "omiga/omiga.pdf", 5, 45, None),
    ("quality-ink-omiga-sheet-3.png", "omiga/omiga.pdf", 6, 45, None),
    ("quality-ink-fracas-tokens.png", "fracas/fracas-tokens.pdf", 0, 45, None),
    ("quality-ink-one_minute_war-card.png", "one_minute_war/one_minute_war.pdf", 0, 110, (87, 5, 205, 101)),
    ("quality-ink-one_minute_war-card-back.png", "one_minute_war/one_minute_war.pdf", 1, 110, (3, 5, 122, 101)),
    ("quality-ink-deck-caption.png", "deck/deck.pdf", 0, 150, (40, 280, 170, 297)),
]


def ink_quality_images(before: Path, after: Path) -> None:
    """docs/print-quality.md, issue 43: light component sheets in the house style, before and after."""
    for name, pdf, page, dpi, box in INK_BEFORE_AFTER:
        left = labelled(render(before / pdf, page, dpi, box), "before")
        right = labelled(render(after / pdf, page, dpi, box), "after")
        save(side_by_side(left, right), name, 1200)


# issue 43, one house style: the pages the title block, the table style, the type scale and
# keep-together changed, (paper, game, file suffix, page, picture name)
HOUSE_PAGES = [("a4", "fracas", "", 0, "fracas-rules-1"), ("a4", "fracas", "", 1, "fracas-rules-2"),
               ("a4", "armies", "", 0, "armies-rules-1"), ("a4", "omiga", "", 0, "omiga-rules-1"),
               ("a4", "one_minute_war", "", 0, "one_minute_war-rules-1"),
               ("a4", "quick_violence", "", 0, "quick_violence-rules-1"),
               *(("a4", game, "-reference", 0, f"{game}-reference")
                 for game in ("fracas", "omiga", "one_minute_war", "quick_violence")),
               ("letter", "fracas", "", 1, "fracas-rules-2-letter"), ("letter", "omiga", "", 0, "omiga-rules-1-letter")]


def house_quality_images(before: Path, after: Path) -> None:
    """docs/print-quality.md, one house style (issue 43): each changed page at 80 dpi, as it was
    (`before`/a4 and `before`/letter) and as it is."""
    for paper, game, suffix, page, name in HOUSE_PAGES:
        pdf = Path(paper) / game / f"{game}{suffix}.pdf"
        left = labelled(render(before / pdf, page, 80), "before")
        right = labelled(render(after / pdf, page, 80), "after")
        save(side_by_side(left, right), f"quality-house-{name}.png")


# issue 43, the words: each page whose words changed (no tool talk, rulings marked, fuller pages),
# (game, file suffix, pages), before and after, as `style_quality_images` shows them
# issue 43, stop 46: the pages a publisher's eye changed, (folder, file, pages)
PUBLISHER_PAGES = [("one_minute_war", "one_minute_war", (0, 1)), ("omiga", "omiga", (0, 1, 2)),
                   ("quick_violence", "quick_violence", (0, 1)), ("fracas", "fracas", (0, 1, 2)),
                   ("fracas", "fracas-tokens", (0,)), ("armies", "armies", (1,)), ("deck", "deck-rules", (0, 1)),
                   ("deck", "deck", (0, 1)), ("one_minute_war", "one_minute_war-reference", (0,))]


def publisher_quality_images(before: Path, after: Path, pages: list = PUBLISHER_PAGES,
                             prefix: str = "publisher") -> None:
    """docs/print-quality.md, issue 43: each of `pages` (folder, file, page numbers) at 80 dpi, as it
    was and as it is, saved as quality-PREFIX-FILE-PAGE.png."""
    for folder, name, numbers in pages:
        for page in numbers:
            left = labelled(render(before / folder / f"{name}.pdf", page, 80), "before")
            right = labelled(render(after / folder / f"{name}.pdf", page, 80), "after")
            save(side_by_side(left, right), f"quality-{prefix}-{name}-{page + 1}.png")


# the fourth Fracas round (issue 43): (paper, folder, file, page); a page the old build lacks shows blank
TABLE_PAGES = [("a4", "fracas", "fracas", 1), ("a4", "fracas", "fracas", 2), ("a4", "fracas", "fracas", 3),
               ("letter", "fracas", "fracas", 2), ("letter", "fracas", "fracas", 3),
               ("a4", "fracas", "fracas-reference", 0), ("a4", "quick_violence", "quick_violence", 1),
               ("a4", "quick_violence", "quick_violence", 2)]


def table_quality_images(before: Path, after: Path) -> None:
    """docs/print-quality.md, the Fracas table page: each changed page at 80 dpi, as it was and as it
    is, on the paper named; where the old rulebook had no such page, a blank sheet (its blank back)."""
    for paper, folder, name, page in TABLE_PAGES:
        old = before / paper / folder / f"{name}.pdf"
        right = render(after / paper / folder / f"{name}.pdf", page, 80)
        if page < len(pypdfium2.PdfDocument(old)):
            left = labelled(render(old, page, 80), "before")
        else:
            left = labelled(Image.new("RGB", right.size, "white"), "before: no such page (a blank back)")
        suffix = "" if paper == "a4" else "-letter"
        save(side_by_side(left, labelled(right, "after")), f"quality-table-{name}-{page + 1}{suffix}.png")


# issue 43, the reference sheets filled (fronts within 10 %, backs within 15 %) and the Armies
# rulebook's score strip: (folder, file, pages), as `publisher_quality_images` shows them
REFERENCE_PAGES = [*((game, f"{game}-reference", (0,)) for game in ("one_minute_war", "omiga", "quick_violence",
                                                                   "fracas", "armies")),
                   ("armies", "armies", (1,))]


def changed_quality_images(before: Path, after: Path) -> list[str]:
    """docs/print-quality.md, issue 43 at stop 47: every page of every A4 PDF whose pixels differ
    from the build in `before` (a page the old file lacks shows blank), at 60 dpi; the Markdown
    lines that show them, in file order."""
    lines = []
    for old in sorted(before.rglob("*.pdf")):
        new = after / old.relative_to(before)
        pages = max(len(pypdfium2.PdfDocument(old)), len(pypdfium2.PdfDocument(new)))
        for page in range(pages):
            right = render(new, page, 60) if page < len(pypdfium2.PdfDocument(new)) else None
            left = render(old, page, 60) if page < len(pypdfium2.PdfDocument(old)) else None
            if left is not None and right is not None and left.tobytes() == right.tobytes():
                continue
            size = (right or left).size  # type: ignore[union-attr]
            name = f"quality-changed-{old.stem}-{page + 1}.png"
            blank = Image.new("RGB", size, "white")
            save(side_by_side(labelled(left or blank, "before" if left else "before: no such page"),
                              labelled(right or blank, "after" if right else "after: no such page")), name)
            lines.append(f"![{old.stem}, page {page + 1}, before and after](images/{name})")
    return lines
# review 47 of Potion Shop: (paper, file, page) as built from commit e4af9d3 and as it is now
POTION_PAGES = [("a4", "deck-rules", 0), ("a4", "deck-rules", 1), ("letter", "deck-rules", 1), ("letter", "deck", 1),
                ("letter", "deck", 4), ("a4", "deck", 2), ("a4", "deck-reference", 0)]


def potion_quality_images(before: Path, after: Path) -> None:
    """docs/print-quality.md, Potion Shop after review 47: each changed page at 80 dpi, as it was
    (`before`/a4/deck, `before`/letter/deck) and as it is; a page the new build lacks shows blank."""
    for paper, name, page in POTION_PAGES:
        left = labelled(render(before / paper / "deck" / f"{name}.pdf", page, 80), "before")
        new = after / paper / "deck" / f"{name}.pdf"
        if page < len(pypdfium2.PdfDocument(new)):
            right = labelled(render(new, page, 80), "after")
        else:
            right = labelled(Image.new("RGB", left.size, "white"), "after: no such page (two sheets, not three)")
        save(side_by_side(left, right), f"quality-potion-{paper}-{name}-{page + 1}.png")
# issue 43, the Fracas review (pages balanced, the example beside its picture, five-point tokens):
# (paper, file, page), as `fracas_review_images` shows them
FRACAS_REVIEW_PAGES = [("a4", "fracas", 0), ("a4", "fracas", 1), ("a4", "fracas", 2), ("letter", "fracas", 0),
                       ("letter", "fracas", 2), ("a4", "fracas-tokens", 0)]


def fracas_review_images(before: Path, after: Path) -> None:
    """docs/print-quality.md, the Fracas review: each changed page at 80 dpi, as it was and as it is."""
    for paper, name, page in FRACAS_REVIEW_PAGES:
        left = labelled(render(before / paper / "fracas" / f"{name}.pdf", page, 80), "before")
        right = labelled(render(after / paper / "fracas" / f"{name}.pdf", page, 80), "after")
        suffix = "" if paper == "a4" else "-letter"
        save(side_by_side(left, right), f"quality-review-{name}-{page + 1}{suffix}.png")


WORDS_PAGES = [("fracas", "", (0, 2)), ("armies", "", (1,)), ("omiga", "", (1,)), ("one_minute_war", "", (1,)),
               ("quick_violence", "", (1, 2)),
               *((game, "-reference", (0,)) for game in ("fracas", "armies", "omiga", "one_minute_war",
                                                          "quick_violence"))]


def low_ink_images(out: Path, bundled_out: Path) -> None:
    """docs/print-at-home.md: the Omiga tile sheet with both decks, as bundled (already built into
    `bundled_out`) and with `low_ink: true`."""
    text = (ROOT / "card_defs" / "omiga.yaml").read_text()
    assert "\nlow_ink: false\n" in text
    out.mkdir(parents=True, exist_ok=True)
    low = out / "low_ink.yaml"
    low.write_text(text.replace("\nlow_ink: false\n", "\nlow_ink: true\n"))
    printgen("build", low, "--out", out / "low")
    standard = labelled(render(bundled_out / "omiga" / "omiga.pdf", 4, 40), "standard")
    light = labelled(render(out / "low" / "low_ink" / "low_ink.pdf", 4, 40), "low_ink: true")
    save(side_by_side(standard, light), "home-omiga-low-ink.png", 1000)


def quality_images(before: Path, after: Path) -> None:
    """docs/print-quality.md: the same page before the print-quality work and now."""
    for name, (old, old_page, old_dpi, old_box), (new, new_page, new_dpi, new_box) in BEFORE_AFTER:
        left = labelled(render(before / old, old_page, old_dpi, old_box), "before")
        right = labelled(render(after / new, new_page, new_dpi, new_box), "after")
        save(side_by_side(left, right), name, 1200)


# docs/customise-art.md, "Draw the pieces your own way": the edits the guide makes to the copied
# Omiga tile face template, as (what the bundled template says, what the guide writes instead)
FACE_EDITS = [
    ('fill="{{ look.face }}"', 'fill="{{ \'#fdf0d5\' if tile.deck == \'white\' else look.face }}"'),
    ('<circle cx="{{ m.x }}" cy="{{ m.y }}" r="{{ m.size * 0.6 }}" fill="{{ s.ink }}"/>',
     '<polygon points="{{ m.x }},{{ m.y - m.size }} {{ m.x + m.size }},{{ m.y }} {{ m.x }},{{ m.y + m.size }} '
     '{{ m.x - m.size }},{{ m.y }}" fill="{{ s.ink }}"/>'),
]


def bundled_and_edited(out: Path, bundled_out: Path, game: str, name: str, template: str,
                       edits: list[tuple[str, str]]) -> tuple[Path, Path]:
    """`game` as bundled (already built into `bundled_out`) and built as a copy `name` made by
    `new --templates`, with `edits` made to its piece template; the two PDFs."""
    copy = out / name
    printgen("new", game, copy, "--templates")
    path = copy / "templates" / game / template
    text = path.read_text()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    path.write_text(text)
    printgen("build", copy / f"{copy.name}.yaml", "--out", out / "edited")
    return bundled_out / game / f"{game}.pdf", out / "edited" / copy.name / f"{copy.name}.pdf"


def piece_images(out: Path, bundled_out: Path) -> None:
    """The bundled Omiga tiles, and the same tiles from a copied face template with FACE_EDITS."""
    bundled, edited = bundled_and_edited(out, bundled_out, "omiga", "mine", "tile-face.svg.j2", FACE_EDITS)
    box = (14, 20, 106, 112)  # the first sheet's top-left four tiles and their cut lines
    before = labelled(render(bundled, 2, 150, box), "bundled template")
    after = labelled(render(edited, 2, 150, box), "your copy, edited")
    save(side_by_side(before, after), "pieces-omiga-face.png", 1100)


# ... and to the copied One Minute War tab back: a pale gold back with a gold ring round each number
TAB_BACK_EDITS = [
    ('height="{{ box.height }}" fill="{{ side.tint }}"/>',
     'height="{{ box.height }}" fill="#fff3c4"/>\n  <circle cx="{{ tab.width / 2 }}" '
     'cy="{{ rows.number - sizes.number * 0.36 }}" r="3.2" fill="none" stroke="#b8860b" stroke-width="0.4"/>'),
]


def war_images(out: Path, bundled_out: Path) -> None:
    """The bundled One Minute War card's back, and the same from a copied tab-back template."""
    bundled, edited = bundled_and_edited(out, bundled_out, "one_minute_war", "war", "tab-back.svg.j2",
                                         TAB_BACK_EDITS)
    box = (5, 5, 123, 101)  # the card on the back page (the page is turned over, so it sits left)
    before = labelled(render(bundled, 1, 130, box), "bundled template")
    after = labelled(render(edited, 1, 130, box), "your copy, edited")
    save(side_by_side(before, after), "pieces-war-tab-back.png", 1100)


def bundled_build(out: Path) -> Path:
    """The folder holding One Minute War, Quick Violence and Omiga as bundled, on A4: built into
    `out` here, or, when MAKE_IMAGES_BUILT names a folder, read from there (tests/test_docs_images.py
    passes the build of every game its session already made, `printgen build --paper a4`, rather
    than build them a second time). Only read, never written into."""
    built = os.environ.get("MAKE_IMAGES_BUILT")
    if built:
        return Path(built)
    printgen("build", "one_minute_war", "quick_violence", "omiga", "--out", out)
    return out


GAMES = ("fracas", "armies", "omiga", "one_minute_war", "quick_violence")


def on_papers(*args: Any) -> list[tuple[tuple[Any, ...], str]]:
    """`build ARGS` once on A4 and once on Letter, into a4/ and letter/."""
    return [((*args, "--paper", paper), paper) for paper in ("a4", "letter")]


def print_changed(before: Path, after: Path) -> None:
    print("\n\n".join(changed_quality_images(before, after)))


# `make_images.py MODE BEFORE`: the builds of printgen as it is now, each (build arguments, folder
# under the scratch folder), and what makes the mode's before-and-after pictures from BEFORE and them
QUALITY_MODES: dict[str, tuple[list[tuple[tuple[Any, ...], str]], Callable[[Path, Path], None]]] = {
    "pieces-quality": ([(("omiga", "quick_violence"), ""), (("deck", "--paper", "letter"), "letter")],
                       pieces_quality_images),
    "style-quality": ([(GAMES, "")], style_quality_images),
    "ink-quality": ([(("omiga", "fracas", "one_minute_war", "deck"), "")], ink_quality_images),
    "house-quality": (on_papers(*GAMES), house_quality_images),
    "words-quality": ([(GAMES, "")], partial(style_quality_images, pages=WORDS_PAGES, prefix="words")),
    "publisher-quality": ([((*GAMES, "deck", "--no-pictures"), "")], publisher_quality_images),
    "changed-quality": ([((*GAMES, ROOT / "card_defs" / "deck.yaml", "--no-pictures"), "")], print_changed),
    "potion-quality": (on_papers("deck", "--no-pictures"), potion_quality_images),
    "table-quality": (on_papers("fracas", "quick_violence"), table_quality_images),
    "fracas-review-quality": (on_papers("fracas"), fracas_review_images),
    "reference-quality": ([(GAMES, "")], partial(publisher_quality_images, pages=REFERENCE_PAGES, prefix="filled")),
    "quality": ([((), "")], quality_images),
}


def main() -> None:
    from printgen.cli.common import load_build_code

    images_folder().mkdir(parents=True, exist_ok=True)
    load_build_code()  # here once, as `build --watch` does, not again in each build's forked worker
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        if sys.argv[1:] == ["pieces"]:
            printgen("build", "one_minute_war", "omiga", "--out", out)
            piece_images(out / "pieces", out)
            war_images(out / "war-pieces", out)
            return
        if sys.argv[1:2] and sys.argv[1] in QUALITY_MODES:
            builds, make = QUALITY_MODES[sys.argv[1]]
            for args, folder in builds:
                printgen("build", *args, "--out", out / folder)
            make(Path(sys.argv[2]), out)
            return
        deck_images(out)
        rules_images(out)
        if sys.argv[1:] == ["deck"]:
            return
        # print at home: the bundled games as they are (each built once, and shown as bundled below)
        bundled = bundled_build(out)
        piece_images(out / "pieces", bundled)
        war_images(out / "war-pieces", bundled)
        war = bundled / "one_minute_war" / "one_minute_war.pdf"
        save(render(war, 0, 100), "one_minute_war-front.png")  # the README's first picture
        save(Image.open(bundled / "omiga" / "omiga-tiles.png").convert("RGB"), "omiga-tiles.png")
        save(side_by_side(render(war, 0, 60), render(war, 1, 60)), "home-sheet-both-sides.png")
        save(render(war, 0, 200, (87, 5, 205, 101)), "home-card-lines.png", 640)
        book = bundled / "quick_violence" / "quick_violence.pdf"
        pages = len(pypdfium2.PdfDocument(book))
        save(render(book, pages - 1, 70), "home-measuring-page.png")
        low_ink_images(out / "low-ink", bundled)
        printgen("build", "fracas", "--booklet", "--flip", "short", "--out", out / "booklet")
        booklet = out / "booklet" / "fracas" / "fracas-booklet.pdf"
        save(side_by_side(outlined(render(booklet, 0, 60)), outlined(render(booklet, 1, 60))), "home-booklet.png")
        printgen("calibrate", "--out", out)
        sheet = next((out / "calibrate").glob("*.pdf"))
        save(side_by_side(render(sheet, 0, 60), render(sheet, 1, 60)), "home-calibration-sheet.png")

        # customise art: the example in docs/examples/my_war and the garden tile set's backs
        printgen("build", ROOT / "docs/examples/my_war/my_war.yaml", "--out", out / "art")
        mine = out / "art" / "my_war" / "my_war.pdf"
        save(side_by_side(render(mine, 0, 160, (89, 7, 203, 99)), render(mine, 1, 160, (7, 7, 121, 99))),
             "art-card-front-and-back.png", 1000)
        printgen("build", ROOT / "docs/examples/garden_tiles/garden_tiles.yaml", "--out", out / "garden")
        garden = out / "garden" / "garden_tiles" / "garden_tiles.pdf"
        save(render(garden, 3, 110, (12, 102.5, 198, 194.5)), "art-tile-backs.png", 900)

        # homebrew tile set: its contact sheet and a simulated end position
        contact = Image.open(out / "garden" / "garden_tiles" / "garden_tiles-tiles.png").convert("RGB")
        save(contact, "homebrew-contact-sheet.png", 1000)
        printgen("validate", ROOT / "docs/examples/garden_tiles/garden_tiles.yaml", "--games", "200", "--show",
                 "--out", out / "show")
        board = next((out / "show").rglob("*.png"))
        save(Image.open(board).convert("RGB"), "homebrew-board.png", 800)

        # print shop: one exported tile, its trim and bleed
        printgen("export", ROOT / "docs/examples/garden_tiles/garden_tiles.yaml", "--print-shop", "--out", out / "shop")
        shop = out / "shop" / "garden_tiles" / "print-shop"
        face = sorted(shop.glob("white-*.pdf"))[0]
        back = sorted(shop.glob("back-*.pdf"))[0]
        save(side_by_side(with_trim_box(face, 300), with_trim_box(back, 300)), "print-shop-tile.png", 900)


if __name__ == "__main__":
    main()
