"""In-process figures, printed as JSON for run.py: the validator's static checks and the simulation.

Run in a child process of its own, so the runner's imports and memory never mix with the figures.
Static checks are structure (names, fit table, deck sizes, duplicates) followed by set-up, dead
tiles and sides, balance and mirror: everything `printgen validate` does before it plays.

    python benchmarks/inprocess.py [--quick]
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

try:  # as the `printgen` command does before reportlab is imported, so a rebuild here is one of
    from printgen.drawing.checks import start_unchecked  # `build --watch`: shape checks left out

    start_unchecked()
except ImportError:  # an older tree
    pass

from printgen.core.build import BuildOptions
from printgen.games import bundled_definition
from printgen.games.omiga.checks import dead, setup, structure
try:
    from printgen.games.omiga.balance import balance, mirror
except ImportError:  # an older tree kept them with the other checks
    from printgen.games.omiga.checks import balance, mirror  # type: ignore[attr-defined,no-redef]
from printgen.games.omiga.model import Omiga
from printgen.games.omiga.tileset import compile_set
from printgen.games.omiga.simulation import simulate
from printgen.games.omiga.validator import read
from printgen.core.paper import PAPERS

from synthetic import tile_set


def median_time(action: Callable[[], Any], repeat: int, inner: int = 1) -> float:
    """Median seconds of one call, over `repeat` timings of `inner` calls each."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(inner):
            action()
        times.append((time.perf_counter() - start) / inner)
    return statistics.median(times)


def static_checks(defn: Omiga) -> int:
    """Every check before play; returns the number of findings (so nothing is optimised away)."""
    found = len(structure(defn))
    cs = compile_set(defn)
    for check in (setup, dead, balance, mirror):
        found += len(check(defn, cs)[0])
    return found


def warm_rebuild(out: Path) -> float:
    """Median seconds to load, build and write Omiga again in a process that has built it once,
    which is what every rebuild of `printgen build --watch` costs: no start-up, no imports. The
    drawn pieces and rendered texts of the first build are kept in the process, so this is a
    rebuild where nothing changed; `rebuild_no_cache` draws them all again."""
    options = BuildOptions(PAPERS["a4"])
    paths = [bundled_definition("omiga")]
    try:
        from printgen.cli.engine import build_games, write_results
        try:  # what `build --watch` calls: a kept build is not loaded again
            from printgen.cli.engine import build_files as build_games  # type: ignore[assignment]
        except ImportError:
            pass
    except ImportError:  # an older tree: what its `printgen build` did
        from printgen.core.atomic import write_bytes
        from printgen.games import load

        def build_games(paths: list[Path], options: BuildOptions) -> list[Any]:
            return [(loaded, loaded.build(options)) for loaded in map(load, paths)]

        def write_results(results: list[Any], folder: Path) -> None:
            for loaded, artifacts in results:
                for artifact in artifacts:
                    write_bytes(folder / loaded.name / artifact.name, artifact.data)

    def rebuild() -> None:
        with contextlib.redirect_stdout(io.StringIO()):
            write_results(build_games(paths, options), out)

    return rebuilt(rebuild)


def edited_rebuild(out: Path) -> float:
    """Median seconds of a rebuild after an edit of the definition (a new title each time): what
    reads the title is drawn again (the tile backs, the rules text), the rest comes from memory."""
    import shutil

    options = BuildOptions(PAPERS["a4"])
    from printgen.cli.engine import build_games, write_results

    copy = out / "edited.yaml"
    shutil.copyfile(bundled_definition("omiga"), copy)
    text = copy.read_text()
    count = [0]

    def rebuild() -> None:
        count[0] += 1
        copy.write_text(text.replace("title: Omiga", f"title: Omiga {count[0]}", 1))
        with contextlib.redirect_stdout(io.StringIO()):
            write_results(build_games([copy], options), out)

    return rebuilt(rebuild)


def rebuilt(rebuild: Callable[[], Any]) -> float:
    """Median seconds of `rebuild` after a first one, with documents kept as the watch loop keeps
    them (printgen.cli.watch), one rebuild straight after another, as in a burst of edits: there,
    the copy of a build in the disk cache waits until edits pause (and the loop stops)."""
    try:
        from printgen.output.doccache import keep_documents
    except ImportError:  # an older tree
        def keep_documents(on: bool = True) -> None:
            pass
    try:
        from printgen.core.buildcache import keep_results
    except ImportError:  # a tree without the whole-build cache
        def keep_results(on: bool = True) -> None:
            pass
    keep_documents()
    keep_results()
    try:  # as in a burst of edits: the watch loop stores the latest build on disk once they pause
        rebuild()
        return median_time(rebuild, 5)
    finally:
        keep_documents(False)
        keep_results(False)


def figures(quick: bool) -> dict[str, Any]:
    base, _ = read(bundled_definition("omiga"))
    v = base.validation
    out: dict[str, Any] = {"cores": os.cpu_count() or 1}
    with tempfile.TemporaryDirectory(prefix="printgen-bench-") as folder:
        out["warm_rebuild"] = warm_rebuild(Path(folder))
        os.environ["PRINTGEN_NO_CACHE"] = "1"  # every piece and text drawn again, as after an edit
        out["rebuild_no_cache"] = warm_rebuild(Path(folder))
        del os.environ["PRINTGEN_NO_CACHE"]
        out["rebuild_after_edit"] = edited_rebuild(Path(folder))
    out["structure_72"] = median_time(lambda: structure(base), 5, 50)
    out["static_72"] = median_time(lambda: static_checks(base), 5, 20)
    for tiles in (1_000, 10_000):
        synthetic = tile_set(base, tiles)
        out[f"structure_{tiles}"] = median_time(lambda: structure(synthetic), 3)
        out[f"static_{tiles}"] = median_time(lambda: static_checks(synthetic), 3)
        out[f"findings_{tiles}"] = static_checks(synthetic)
    cs = compile_set(base)
    table = (v.table.columns, v.table.rows)
    one = 1_000 if quick else 4_000
    out["games_one_core"] = one / median_time(lambda: simulate(cs, *table, one, v.seed, workers=1), 3)
    many = 4_000 if quick else 20_000
    out["games_many"] = many
    cores = out["cores"]
    out["games_all_cores"] = many / median_time(lambda: simulate(cs, *table, many, v.seed, workers=cores), 3)
    # what `printgen validate` does with the bundled set's 1,000 games (it picks the cores itself)
    out["games_1000"] = median_time(lambda: simulate(cs, *table, 1_000, v.seed), 3)
    return out


if __name__ == "__main__":
    print(json.dumps(figures("--quick" in sys.argv[1:])))
