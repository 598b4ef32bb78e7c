"""Compare two output folders by what they show, not by their bytes: a refactor that changes how a
file is written but not what it prints passes here, where tests/test_outputs_unchanged.py fails.

    python benchmarks/compare_outputs.py BEFORE AFTER [--dpi 100] [--tolerance 3]

Every PDF page is rasterised with pypdfium2 and compared pixel by pixel (the largest channel
difference must be within the tolerance, for anti-aliased edges); every PNG is compared the same
way; every SVG is parsed and compared as a normalised element tree (tag, attributes with numbers
read as numbers, text, children in order). Run by hand, never as a test. Prints the figures and
exits 1 on any difference beyond the tolerance.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pypdfium2
from PIL import Image, ImageChops


def pages(path: Path, dpi: float) -> list[Image.Image]:
    document = pypdfium2.PdfDocument(str(path))
    try:
        return [page.render(scale=dpi / 72).to_pil().convert("RGB") for page in document]
    finally:
        document.close()


def largest_difference(a: Image.Image, b: Image.Image) -> int:
    """The largest difference of any channel of any pixel (256 when the sizes differ)."""
    if a.size != b.size:
        return 256
    extrema = ImageChops.difference(a, b).getextrema()
    return max(high for _, high in extrema)


def value(text: str) -> Any:
    try:
        return round(float(text), 6)
    except ValueError:
        return " ".join(text.split())


def normalised(element: ElementTree.Element) -> tuple[Any, ...]:
    return (element.tag, tuple(sorted((key, value(v)) for key, v in element.attrib.items())),
            (element.text or "").strip(), tuple(normalised(child) for child in element))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--dpi", type=float, default=100)
    parser.add_argument("--tolerance", type=int, default=3)
    args = parser.parse_args()
    names = {str(p.relative_to(args.before)) for p in args.before.rglob("*") if p.is_file()}
    others = {str(p.relative_to(args.after)) for p in args.after.rglob("*") if p.is_file()}
    problems = [f"only in one folder: {name}" for name in sorted(names ^ others)]
    counts = {"pdf pages": 0, "png": 0, "svg": 0, "identical bytes": 0}
    worst = 0
    for name in sorted(names & others):
        before, after = args.before / name, args.after / name
        counts["identical bytes"] += before.read_bytes() == after.read_bytes()
        if name.endswith(".pdf"):
            old, new = pages(before, args.dpi), pages(after, args.dpi)
            if len(old) != len(new):
                problems.append(f"{name}: {len(old)} pages before, {len(new)} after")
                continue
            for number, (a, b) in enumerate(zip(old, new), 1):
                counts["pdf pages"] += 1
                difference = largest_difference(a, b)
                worst = max(worst, difference)
                if difference > args.tolerance:
                    problems.append(f"{name} page {number}: a channel differs by {difference}")
        elif name.endswith(".png"):
            counts["png"] += 1
            with Image.open(before) as a, Image.open(after) as b:
                difference = largest_difference(a.convert("RGBA"), b.convert("RGBA"))
            worst = max(worst, difference)
            if difference > args.tolerance:
                problems.append(f"{name}: a channel differs by {difference}")
        elif name.endswith(".svg"):
            counts["svg"] += 1
            if normalised(ElementTree.parse(before).getroot()) != normalised(ElementTree.parse(after).getroot()):
                problems.append(f"{name}: the element trees differ")
    print(f"{len(names & others)} files compared: {counts}; largest channel difference {worst}")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
