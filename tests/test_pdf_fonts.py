"""Every font a PDF of printgen's names is embedded in it: a font left to the viewer prints in
whatever the printer has (a print shop's preflight refuses the file), even when no glyph uses it."""
from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from building import build
from printgen.core.bundled import game_ids

FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")


def named_fonts(path: Path) -> list[tuple[str, str, object]]:
    """(where, resource name, font) for every /Font in the resources of every page and of every
    form they draw, forms inside forms too."""
    found: list[tuple[str, str, object]] = []
    seen: set[int] = set()

    def walk(resources, where: str) -> None:
        if resources is None:
            return
        resources = resources.get_object()
        for name, ref in (resources.get("/Font") or {}).items():
            found.append((where, name, ref.get_object()))
        for name, ref in (resources.get("/XObject") or {}).items():
            number = getattr(ref, "idnum", None)
            if number is not None and number in seen:
                continue
            seen.add(number)
            form = ref.get_object()
            if form.get("/Subtype") == "/Form":
                walk(form.get("/Resources"), f"{where} {name}")

    for number, page in enumerate(PdfReader(path).pages, 1):
        walk(page.get("/Resources"), f"page {number}")
    return found


def embedded(font) -> bool:
    """The font's own file is in the PDF (a Type0 font's is its descendant's)."""
    if font.get("/Subtype") == "/Type0":
        font = font["/DescendantFonts"][0].get_object()
    descriptor = font.get("/FontDescriptor")
    return descriptor is not None and any(key in descriptor.get_object() for key in FONT_FILES)


def not_embedded(folder: Path) -> dict[str, set[str]]:
    """Each PDF under `folder` naming a font it does not embed, with those fonts' names."""
    result: dict[str, set[str]] = {}
    for pdf in sorted(folder.rglob("*.pdf")):
        fonts = named_fonts(pdf)
        assert fonts, pdf  # every PDF printgen writes has some text: the check must see its fonts
        missing = {str(font.get("/BaseFont")) for _, _, font in fonts if not embedded(font)}
        if missing:
            result[str(pdf.relative_to(folder))] = missing
    return result


def test_every_bundled_games_pdf_embeds_every_font_it_names(all_games_built):
    folder = all_games_built["a4"]
    assert {p.name for p in folder.iterdir() if p.is_dir()} >= set(game_ids())
    assert len(list(folder.rglob("*.pdf"))) >= 15
    assert not_embedded(folder) == {}


def test_the_starter_deck_and_the_exports_embed_every_font_they_name(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run_cli("new", "deck", "mine")
    assert result.exit_code == 0, result.output
    built = build(tmp_path / "out", "mine/mine.yaml")
    assert (built / "mine" / "mine.pdf").is_file()
    for game in ("mine/mine.yaml", "fracas", "omiga"):
        result = run_cli("export", "--print-shop", game, "--out", tmp_path / "export")
        assert result.exit_code == 0, result.output
    assert len(list((tmp_path / "export").rglob("*.pdf"))) > 80
    assert not_embedded(tmp_path / "out") == {}
    assert not_embedded(tmp_path / "export") == {}
@pytest.mark.parametrize("family", ["Arial", "Times New Roman"])
def test_text_in_a_decks_svg_art_is_drawn_in_an_embedded_font(run_cli, tmp_path, family):
    """An icon with words in it: svglib would set them in Helvetica or Times, named and not embedded."""
    (tmp_path / "badge.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="10mm" viewBox="0 0 20 10">'
        f'<text x="1" y="8" font-family="{family}" font-size="6">HP</text></svg>', encoding="utf-8")
    (tmp_path / "deck.yaml").write_text(
        "game: deck\ntitle: Badges\nicons:\n  badge: badge.svg\nrows:\n  - {title: One}\nface:\n  layout:\n"
        "    - {type: text, text: '{{ title }} :badge:', x: 5, y: 5, width: 50, height: 10}\n"
        "    - {type: image, src: badge.svg, x: 5, y: 20, width: 20, height: 10}\n", encoding="utf-8")
    result = run_cli("build", tmp_path / "deck.yaml", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert not_embedded(tmp_path / "out") == {}
