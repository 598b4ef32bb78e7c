"""Where `printgen build omiga` spends its time, stage by stage, in one process with no helper.

Printed as JSON for run.py. Each stage is timed once in a fresh interpreter (imports happen once per
process, so repeating them would measure nothing); run.py takes the median over several processes.
The interpreter's own start-up is measured apart, as `python -c pass`.

    python benchmarks/breakdown.py OUT_FOLDER
"""
from __future__ import annotations

import json
import sys
import time
from importlib import import_module

start = time.perf_counter()
for first in ("printgen.cli.main", "printgen.cli.build"):  # what `printgen build` imports first
    import_module(first)

marks = {"import the command line": time.perf_counter()}

from pathlib import Path  # noqa: E402

from printgen.core.atomic import write_all  # noqa: E402
from printgen.core.build import Artifact, BuildOptions  # noqa: E402
from printgen.games import bundled_definition, game_entry  # noqa: E402
from printgen.core.validation import validate  # noqa: E402
from printgen.core.yamlread import read_yaml  # noqa: E402
from printgen.core.paper import PAPERS  # noqa: E402

game = game_entry("omiga")
for later in ("PIL.Image", "pypdfium2"):  # imported inside the build, for the contact sheet
    import_module(later)
from printgen.games.omiga import game as omiga  # noqa: E402
import svgwrite  # noqa: E402,F401 - imported by the first SVG written

marks["import Omiga, svgwrite, Pillow, pypdfium2"] = time.perf_counter()
path = bundled_definition("omiga")
data, source = read_yaml(path)
marks["read the YAML (ruamel, round trip)"] = time.perf_counter()
from functools import partial  # noqa: E402

from printgen.art.library import ArtContext, load_files  # noqa: E402
from printgen.games import Loaded  # noqa: E402

art = ArtContext(path.parent, False)
defn = validate(game.model, data, source, game.checks, load=partial(load_files, context=art))
loaded = Loaded(game, defn, path, path.stem, source, art.library)
marks["validate (pydantic, the art read, the game's checks)"] = time.perf_counter()
from printgen.output.writers import write  # noqa: E402

options = BuildOptions(PAPERS["a4"])
tile_art = omiga.tile_art(defn, options.templates)
tile_art.prepare([defn.card.bleed, 0.0])
marks["tile art: templates rendered and converted"] = time.perf_counter()
pdf = write(omiga.tiles_document(defn, options, loaded, tile_art))
marks["omiga.pdf: faces, backs, marks, rules"] = time.perf_counter()
pictures = [Artifact(doc.name, write(doc)) for doc in omiga.tile_svgs(defn, tile_art)]
marks["72 SVGs"] = time.perf_counter()
png = write(omiga.contact_sheet(defn, tile_art, "omiga-tiles.png"))
marks["the PNG contact sheet (a PDF, rasterised)"] = time.perf_counter()
pictures += [Artifact(doc.name, write(doc))
             for doc in omiga.reference_documents(omiga.reference(defn, tile_art), options, "omiga")]
marks["two reference PDFs"] = time.perf_counter()
out = Path(sys.argv[1])
write_all([(out / "omiga.pdf", pdf), (out / "omiga-tiles.png", png)] + [(out / a.name, a.data) for a in pictures])
marks["write 76 files"] = time.perf_counter()

stages, last = {}, start
for name, at in marks.items():
    stages[name] = at - last
    last = at
print(json.dumps(stages))
