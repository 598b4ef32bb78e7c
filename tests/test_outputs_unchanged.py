"""Every bundled game's files, byte for byte, as recorded before the restructure (issue 13).

Moving code must not move a single byte of output. The recorded sha256 of every file of every
bundled game, on A4 and on US Letter, is compared with a fresh build. The bytes depend on the
libraries that write them too, so the record names their versions and is compared only under the
same ones. PRINTGEN_RECORD_OUTPUTS=1 writes the record anew, for a change meant to alter output.
"""
from __future__ import annotations

import hashlib
import json
import os
from importlib.metadata import version
from pathlib import Path

import pytest

RECORD = Path(__file__).parent / "data" / "output_hashes.json"
LIBRARIES = ("reportlab", "svgwrite", "pypdfium2", "pillow", "jinja2")


def hashes(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_every_bundled_file_is_byte_identical_to_the_record(all_games_built):
    found = {paper: hashes(folder) for paper, folder in all_games_built.items()}
    versions = {name: version(name) for name in LIBRARIES}
    if os.environ.get("PRINTGEN_RECORD_OUTPUTS") == "1":
        RECORD.write_text(json.dumps({"versions": versions, "files": found}, indent=1,
                                     sort_keys=True) + "\n")
    record = json.loads(RECORD.read_text())
    if record["versions"] != versions:
        pytest.skip(f"recorded with {record['versions']}, running {versions}")
    assert sum(len(files) for files in found.values()) == 2 * 105  # 5 + 4 + 3 + 3 + 67 + 23 per paper (a deck's PNGs of cards only with --png)
    for paper, files in record["files"].items():
        changed = sorted(name for name in files if found[paper].get(name) != files[name])
        assert changed == [] and set(found[paper]) == set(files), (paper, changed)
