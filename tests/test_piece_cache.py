"""The drawn-piece cache (games/piececache.py, core/diskcache.py): a second build reads what the
first drew and writes the same bytes; anything that could change a drawing (an included template,
the data) draws again; a damaged, tampered or foreign entry is ignored; PRINTGEN_NO_CACHE=1 keeps
nothing. Each test has a cache folder of its own, and this process's memory of drawn pieces is
emptied where a test means the disk."""
from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

import pytest

from building import count_children, edit, rgb
from printgen.core import diskcache
from printgen.games import piececache
from printgen.jinja import textcache

PIECES = "the piece template"  # what a piece template's bounded child is budgeted as


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """An empty cache folder for this test, and no pieces remembered from earlier tests."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("PRINTGEN_NO_CACHE", raising=False)
    monkeypatch.setattr(piececache, "MEMORY", type(piececache.MEMORY)())
    monkeypatch.setattr(piececache, "READS", {})
    monkeypatch.setattr(textcache, "MEMORY", type(textcache.MEMORY)())
    return tmp_path / "cache" / "printgen" / piececache.AREA


@pytest.fixture
def children(monkeypatch) -> list[str]:
    """The budgets of the bounded children the piece templates start."""
    return count_children(monkeypatch, "printgen.games.pieces")


def forget() -> None:
    """As a new process: only the disk remembers."""
    piececache.MEMORY.clear()
    piececache.READS.clear()
    textcache.MEMORY.clear()


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def entries(cache: Path) -> list[Path]:
    return sorted(cache.glob("*.entry")) if cache.is_dir() else []


def test_a_second_build_reads_the_cache_and_writes_the_same_bytes(run_cli, cache, children, tmp_path):
    assert run_cli("build", "omiga", "--out", tmp_path / "one").exit_code == 0
    assert children.count(PIECES) == 2 and len(entries(cache)) == 2  # a child and an entry a template
    assert oct(cache.stat().st_mode & 0o777) == "0o700" and oct(cache.parent.stat().st_mode & 0o777) == "0o700"
    forget()  # as a new process: only the disk remembers
    assert run_cli("build", "omiga", "--out", tmp_path / "two").exit_code == 0
    assert children.count(PIECES) == 2  # no child more
    assert files(tmp_path / "one") == files(tmp_path / "two")
    assert run_cli("build", "omiga", "--out", tmp_path / "three").exit_code == 0  # from this process's memory
    assert children.count(PIECES) == 2 and files(tmp_path / "one") == files(tmp_path / "three")


@pytest.fixture
def copied(run_cli, tmp_path) -> Path:
    """Omiga with its templates copied (`printgen new omiga DIR --templates`); the face template."""
    assert run_cli("new", "omiga", tmp_path / "mine", "--templates").exit_code == 0
    return tmp_path / "mine" / "templates" / "omiga" / "tile-face.svg.j2"


OLD, NEW = rgb((0x12 / 255, 0x34 / 255, 0x56 / 255)), rgb((0x65 / 255, 0x43 / 255, 0x21 / 255))


def colours(pdf: Path) -> set[tuple[float, ...]]:
    """The fill colours of the rectangles on the first sheet of tile faces (rounded as rgb does)."""
    import pdfplumber

    with pdfplumber.open(pdf) as document:
        return {rgb(r["non_stroking_color"]) for r in document.pages[2].rects if r.get("fill")}


def test_a_changed_included_template_draws_again(run_cli, cache, children, copied, tmp_path):
    extra = copied.parent / "extra.svg.j2"
    extra.write_text('<rect x="1" y="1" width="2" height="2" fill="#123456"/>\n')
    edit(copied, "</svg>", '{% include "omiga/extra.svg.j2" %}\n</svg>')
    definition = copied.parents[2] / "mine.yaml"
    assert run_cli("build", definition, "--out", tmp_path / "one").exit_code == 0
    assert colours(tmp_path / "one" / "mine" / "mine.pdf") >= {OLD}
    extra.write_text('<rect x="1" y="1" width="2" height="2" fill="#654321"/>\n')  # only the included file
    result = run_cli("build", definition, "--out", tmp_path / "two")  # same process: memory must not serve it
    assert result.exit_code == 0, result.output
    assert children.count(PIECES) == 4  # faces and backs, each in a child of their own, both times
    found = colours(tmp_path / "two" / "mine" / "mine.pdf")
    assert NEW in found and OLD not in found


def test_changed_data_draws_again_and_the_old_entry_still_serves(run_cli, cache, children, copy_definition, tmp_path):
    definition = copy_definition("omiga")
    assert run_cli("build", definition, "--out", tmp_path / "one").exit_code == 0
    edit(definition, "title: Omiga", "title: Omega")  # the back template prints the title
    assert run_cli("build", definition, "--out", tmp_path / "two").exit_code == 0
    assert children.count(PIECES) == 3 and len(entries(cache)) == 3  # the backs again; the faces never read it
    assert files(tmp_path / "one") != files(tmp_path / "two")
    edit(definition, "title: Omega", "title: Omiga")
    forget()
    assert run_cli("build", definition, "--out", tmp_path / "three").exit_code == 0
    assert children.count(PIECES) == 3 and files(tmp_path / "one") == files(tmp_path / "three")


def tamper(entry: Path, content: bytes) -> None:
    """An entry whose stored digest matches `content`: what someone able to write the folder makes."""
    digest = hashlib.sha256(content).hexdigest().encode()
    entry.write_bytes(diskcache.MAGIC + digest + b"\n" + content)


class Boom:
    def __reduce__(self):
        return (os.system, ("touch boom",))


@pytest.mark.parametrize("damage", ["flipped byte", "cut short", "code in the pickle", "foreign drawing",
                                    "empty"])
def test_a_damaged_or_tampered_entry_is_ignored_and_drawn_again(run_cli, cache, children, tmp_path,
                                                                 monkeypatch, damage):
    monkeypatch.chdir(tmp_path)
    assert run_cli("build", "omiga", "--out", tmp_path / "one").exit_code == 0
    entry = max(entries(cache), key=lambda path: path.stat().st_size)  # the faces
    data = entry.read_bytes()
    if damage == "flipped byte":
        entry.write_bytes(data[:-100] + bytes([data[-100] ^ 1]) + data[-99:])
    elif damage == "cut short":
        entry.write_bytes(data[: len(data) // 2])
    elif damage == "code in the pickle":
        tamper(entry, pickle.dumps((Boom(), "[]")))
    elif damage == "foreign drawing":
        from reportlab.graphics.shapes import Drawing

        from printgen.art import drawingdata

        tamper(entry, drawingdata.dumps((Drawing(10, 10), '[{"index": [0], "findings": [[]], "notes": [[]]}]')))
    else:
        entry.write_bytes(b"")
    forget()
    result = run_cli("build", "omiga", "--out", tmp_path / "two")
    assert result.exit_code == 0, result.output
    assert children.count(PIECES) == 3  # the faces drawn again
    assert not (tmp_path / "boom").exists()
    assert files(tmp_path / "one") == files(tmp_path / "two")
    assert diskcache.load(piececache.AREA, entry.name.removesuffix(diskcache.SUFFIX)) is not None  # rewritten


def test_a_cache_folder_others_may_open_is_not_used(run_cli, cache, children, tmp_path):
    cache.mkdir(parents=True, mode=0o755)
    cache.chmod(0o755)
    cache.parent.chmod(0o700)
    assert run_cli("build", "omiga", "--out", tmp_path / "one").exit_code == 0
    assert entries(cache) == []


def test_no_cache_writes_nothing(run_cli, cache, children, tmp_path, monkeypatch):
    monkeypatch.setenv("PRINTGEN_NO_CACHE", "1")
    assert run_cli("build", "omiga", "--out", tmp_path / "one").exit_code == 0
    assert run_cli("build", "omiga", "--out", tmp_path / "two").exit_code == 0
    assert not cache.parent.exists() and children.count(PIECES) == 4  # nor kept in memory
    assert files(tmp_path / "one") == files(tmp_path / "two")


def test_warnings_come_back_with_cached_pieces(run_cli, cache, children, copied, tmp_path):
    edit(copied, 'fill="{{ look.face }}"', 'fill="{{ look.face }}" opacity="0.5"')
    definition = copied.parents[2] / "mine.yaml"
    first = run_cli("build", definition, "--out", tmp_path / "one")
    assert first.exit_code == 0 and "warning: opacity:" in first.output, first.output
    forget()
    second = run_cli("build", definition, "--out", tmp_path / "two")
    assert children.count(PIECES) == 2 and second.exit_code == 0  # the first build's two alone
    assert second.output == first.output.replace(str(tmp_path / "one"), str(tmp_path / "two"))
    third = run_cli("build", definition, "--out", tmp_path / "three")  # from memory
    assert children.count(PIECES) == 2
    assert third.output == first.output.replace(str(tmp_path / "one"), str(tmp_path / "three"))


def test_pruning_keeps_the_folder_under_its_limit(tmp_path):
    folder = tmp_path / "area"
    folder.mkdir()
    for i in range(10):
        path = folder / f"{i:064x}{diskcache.SUFFIX}"
        path.write_bytes(b"x" * 1000)
        os.utime(path, ns=(i * 10**9, i * 10**9))
    diskcache.prune(folder, limit=5000)
    left = sorted(p.name[:64] for p in folder.iterdir())
    assert len(left) <= 3 and left == sorted(left)[-len(left):] and f"{9:064x}" in left  # oldest gone


@pytest.fixture
def drawn_now(monkeypatch) -> list[list[tuple[str, int]]]:
    """For each child the piece templates start: (template, how many pieces it draws)."""
    from printgen.games.pieces import PieceTemplates

    started: list[list[tuple[str, int]]] = []
    original = PieceTemplates.start_child

    def recording(self, jobs):
        started.append([(name, len(wanted)) for name, wanted in jobs])
        return original(self, jobs)

    monkeypatch.setattr(PieceTemplates, "start_child", recording)
    return started


def drawn_by(run_cli, drawn_now, *args) -> list[str]:
    """The templates whose pieces a build drew (each in a child), in order."""
    before = len(drawn_now)
    assert run_cli("build", *args).exit_code == 0
    return [name for child in drawn_now[before:] for name, _ in child]


def test_an_edit_of_the_definition_draws_again_only_the_templates_that_read_it(
        run_cli, cache, drawn_now, copied, tmp_path):
    definition = copied.parents[2] / "mine.yaml"
    both = ["omiga/tile-back.svg.j2", "omiga/tile-face.svg.j2"]  # the backs' child starts first
    assert drawn_by(run_cli, drawn_now, definition, "--out", tmp_path / "one") == both
    # the back is given the title as its own data; the face template never reads `d`
    edit(definition, "title: Omiga", "title: Omega")
    assert drawn_by(run_cli, drawn_now, definition, "--out", tmp_path / "two") == ["omiga/tile-back.svg.j2"]
    forget()  # a new process learns from the disk which names each template reads
    edit(definition, "title: Omega", "title: Omaga")
    assert drawn_by(run_cli, drawn_now, definition, "--out", tmp_path / "three") == ["omiga/tile-back.svg.j2"]
    # once the face template reads the definition, an edit of it draws every face again
    edit(copied, "</svg>", "<desc>{{ d.title }}</desc>\n</svg>")
    assert run_cli("build", definition, "--out", tmp_path / "four").exit_code == 0
    edit(definition, "title: Omaga", "title: Omiga")
    assert drawn_by(run_cli, drawn_now, definition, "--out", tmp_path / "five") == both


def test_a_template_naming_what_it_includes_by_a_value_reads_everything(run_cli, cache, drawn_now, copied, tmp_path):
    (copied.parent / "extra.svg.j2").write_text("<desc>extra</desc>\n")
    edit(copied, "</svg>", '{% set part = "omiga/" ~ "extra.svg.j2" %}{% include part %}\n</svg>')
    definition = copied.parents[2] / "mine.yaml"
    assert run_cli("build", definition, "--out", tmp_path / "one").exit_code == 0
    edit(definition, "title: Omiga", "title: Omega")
    assert drawn_by(run_cli, drawn_now, definition, "--out", tmp_path / "two") == \
        ["omiga/tile-back.svg.j2", "omiga/tile-face.svg.j2"]


@pytest.fixture
def renders(monkeypatch) -> list[str]:
    """The templates `render` (rules and reference texts) starts a child for."""
    return count_children(monkeypatch, "printgen.jinja.render")


def test_rendered_texts_come_from_the_cache_until_a_template_changes(run_cli, cache, renders, copied, tmp_path):
    import pdfplumber

    definition = copied.parents[2] / "mine.yaml"
    assert run_cli("build", definition, "--out", tmp_path / "one").exit_code == 0
    first = len(renders)
    assert first >= 1 and (cache.parent / textcache.AREA).is_dir()
    forget()
    assert run_cli("build", definition, "--out", tmp_path / "two").exit_code == 0
    assert len(renders) == first and files(tmp_path / "one") == files(tmp_path / "two")
    rules = copied.parent / "rules.txt.j2"
    text = rules.read_text()
    rules.write_text(text.replace("{{ d.title", "Zanzibar {{ d.title", 1))
    assert "Zanzibar" in rules.read_text()
    assert run_cli("build", definition, "--out", tmp_path / "three").exit_code == 0
    assert len(renders) > first
    with pdfplumber.open(tmp_path / "three" / "mine" / "mine.pdf") as pdf:
        assert "Zanzibar" in "".join(page.extract_text() or "" for page in pdf.pages)


def test_pruning_removes_temporaries_a_killed_writer_left(tmp_path):
    folder = tmp_path / "area"
    folder.mkdir()
    old, fresh, entry = folder / ".tmp-old", folder / ".tmp-fresh", folder / f"{1:064x}{diskcache.SUFFIX}"
    for path in (old, fresh, entry):
        path.write_bytes(b"x")
    os.utime(old, (0, 0))
    os.utime(entry, (1, 1))  # used long ago, but the folder is far under its limit: kept
    diskcache.prune(folder)
    assert not old.exists() and fresh.exists() and entry.exists()


def test_a_cache_location_that_cannot_be_used_is_no_error(run_cli, cache, children, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    result = run_cli("build", "omiga", "--out", tmp_path / "one")
    assert result.exit_code == 0, result.output
    assert blocker.read_text() == "not a folder"


def built_without_cache(run_cli, monkeypatch, out: Path, *args) -> dict[str, bytes]:
    with monkeypatch.context() as inner:
        inner.setenv("PRINTGEN_NO_CACHE", "1")
        assert run_cli("build", *args, "--out", out).exit_code == 0
    return files(out)


def test_after_each_kind_of_template_edit_a_new_process_writes_what_no_cache_writes(
        run_cli, cache, copied, tmp_path, monkeypatch):
    """A --templates folder's template shadowing the bundled one, then removed; an included file
    edited to the same size with its time put back: each next build (a new process, only the disk
    remembering) writes the bytes a build without any cache writes."""
    definition = copied.parents[2] / "mine.yaml"
    extra = copied.parent / "extra.svg.j2"
    extra.write_text('<rect x="1" y="1" width="2" height="2" fill="#123456"/>\n')
    edit(copied, "</svg>", '{% include "omiga/extra.svg.j2" %}\n</svg>')
    mine = tmp_path / "user" / "omiga"
    mine.mkdir(parents=True)
    back = (copied.parent / "tile-back.svg.j2").read_text()
    (mine / "tile-back.svg.j2").write_text(back.replace("</svg>", '<circle cx="5" cy="5" r="2" fill="#0f0"/>\n</svg>'))
    steps = [("plain", lambda: None, ()),
             ("shadowed", lambda: None, ("--templates", mine.parent)),
             ("unshadowed", lambda: (mine / "tile-back.svg.j2").unlink(), ("--templates", mine.parent))]

    def same_size_same_time() -> None:
        stamp = extra.stat()
        extra.write_text('<rect x="1" y="1" width="2" height="2" fill="#654321"/>\n')
        os.utime(extra, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
        assert extra.stat().st_size == stamp.st_size

    steps.append(("included file edited in place", same_size_same_time, ()))
    written: list[dict[str, bytes]] = []
    for label, change, args in steps:
        change()
        forget()
        out = tmp_path / f"cached-{len(written)}"
        assert run_cli("build", definition, *args, "--out", out).exit_code == 0
        written.append(files(out))
        assert written[-1] == built_without_cache(run_cli, monkeypatch, tmp_path / f"fresh-{len(written)}",
                                                  definition, *args), label
    assert written[1] != written[0] and written[2] == written[0] and written[3] != written[0]
