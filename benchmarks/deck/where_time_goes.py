"""Where a deck build's CPU time goes, in one process with no helper: each stage of the build, then
each step of a card's PNG. Run by hand, never as a test (CPU seconds, so a busy machine matters less):

    python benchmarks/deck/make_deck.py 1000 /tmp/deck1000
    python benchmarks/deck/where_time_goes.py /tmp/deck1000/deck.yaml

Nothing is written to disk: the files a build would write cost more on top (creating a file took
about 0.6 ms of CPU on the ext4 disk of the 2026-12-05 notes, and a build of 1,000 cards makes 2,002).
"""
from __future__ import annotations

import io
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

os.environ["PRINTGEN_NO_FORK"] = "1"  # every job in this process, so process_time sees it

started = time.process_time()
from printgen.core.build import BuildOptions  # noqa: E402
from printgen.core.paper import PAPERS  # noqa: E402
from printgen.drawing.checks import unchecked_shapes  # noqa: E402
from printgen.games import load  # noqa: E402
from printgen.output.cellpages import CELLS_PER_PAGE, PNG_LEVEL, Cells, cell_pages  # noqa: E402
from printgen.output.pdf import render_pdf  # noqa: E402
from printgen.output.writers import simple_picture, write  # noqa: E402

import pypdfium2 as pdfium  # noqa: E402


def main(path: Path) -> None:
    stages = {"imports": time.process_time() - started}
    mark = time.process_time()
    loaded = load(path)
    stages["read and validate"] = time.process_time() - mark
    with unchecked_shapes():
        mark = time.process_time()
        docs = loaded.game.build(loaded.definition, BuildOptions(PAPERS["a4"]), loaded)
        stages["lay out"] = time.process_time() - mark
        cards = [doc for doc in docs if simple_picture(doc) and doc.paper.name == "card"]
        pictures = {id(doc) for doc in cards}
        for doc in docs:
            if doc.kind != "svg" and id(doc) not in pictures:
                mark = time.process_time()
                write(doc)
                stages[doc.name] = time.process_time() - mark
        steps = dict.fromkeys(("draw the side, write its SVG", "the PDF, 50 cards a page", "pdfium renders",
                               "to a Pillow image", "Pillow's PNG encoder"), 0.0)
        cells = Cells.of(cards[0].paper.width, cards[0].paper.height, cards[0].dpi, len(cards))
        svgs = {doc.name[4:-4]: doc for doc in docs if doc.kind == "svg"}
        for start in range(0, len(cards), CELLS_PER_PAGE):
            run = cards[start:start + CELLS_PER_PAGE]
            mark = time.process_time()
            for doc in run:  # as the build does: the SVG just before the PNG, the side drawn once
                write(svgs[doc.name[4:-4]])
            pages = list(cell_pages(run, cells))
            steps["draw the side, write its SVG"] += time.process_time() - mark
            mark = time.process_time()
            pdf = render_pdf(replace(run[0], paper=cells.card_paper), pages, [], raster_dpi=cells.dpi)
            steps["the PDF, 50 cards a page"] += time.process_time() - mark
            document = pdfium.PdfDocument(pdf)
            for index in range(len(run)):
                page = document[index]
                mark = time.process_time()
                bitmap = page.render(scale=cells.dpi / 72, may_draw_forms=False, rev_byteorder=True)
                rendered = time.process_time()
                image = bitmap.to_pil()
                image = image if image.mode == "RGB" else image.convert("RGB")
                taken = time.process_time()
                image.save(io.BytesIO(), format="PNG", compress_level=PNG_LEVEL)
                steps["pdfium renders"] += rendered - mark
                steps["to a Pillow image"] += taken - rendered
                steps["Pillow's PNG encoder"] += time.process_time() - taken
                page.close()
            document.close()
    print(f"{len(cards)} card pictures of {image.size[0]} x {image.size[1]} pixels\n")
    print("| stage | CPU s |\n| --- | --- |")
    for name, seconds in stages.items():
        print(f"| {name} | {seconds:.2f} |")
    print(f"| {len(cards)} card pictures and their SVGs | {sum(steps.values()):.2f} |")
    print("\n| a card's picture, step by step | CPU ms a card |\n| --- | --- |")
    for name, seconds in steps.items():
        print(f"| {name} | {seconds / len(cards) * 1000:.2f} |")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
