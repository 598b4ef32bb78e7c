"""The duplex calibration sheet, measured in its PDF: reading the staircases at a simulated printer
misregistration gives back exactly the offset that cancels it, for both flips, both papers and with
or without an offset already applied; the flip arrow only matches on the right edge; the saved
offset reaches `build`.
"""
from __future__ import annotations

import re

import pdfplumber
import pytest

from pdfmeasure import page_size_mm, segments

NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?$")
BAR = 3.0  # mm, the length of one staircase bar


def front_point(x: float, y: float, flip: str, size: tuple[float, float]) -> tuple[float, float]:
    """Where a point of the back page shows through on the front, held up to the light."""
    width, height = size
    return (width - x, y) if flip == "long" else (x, height - y)


def bars(page) -> tuple[list, list]:
    """The x staircase's vertical bars and the y staircase's horizontal bars (solid, BAR long)."""
    solid = [s for s in segments(page, ()) if abs(s.length - BAR) < 1e-3]
    upright = [s for s in solid if abs(s.x1 - s.x2) < 1e-6]
    level = [s for s in solid if abs(s.y1 - s.y2) < 1e-6]
    return upright, level


def x_labels(page, upright) -> dict[float, float]:
    """Bar x (mm) -> the number printed in the same row, to the left of the staircase."""
    height = float(page.height)
    words = [w for w in page.extract_words() if NUMBER.match(w["text"])]
    out = {}
    for bar in upright:
        row = (bar.y1 + bar.y2) / 2
        left = min(b.x1 for b in upright)
        same_row = [w for w in words if abs((height - (w["top"] + w["bottom"]) / 2) * 25.4 / 72 - row) < 1.0
                    and w["x1"] * 25.4 / 72 < left]
        assert len(same_row) == 1, (row, same_row)
        out[round(bar.x1, 3)] = float(same_row[0]["text"])
    return out


def y_labels(page, level) -> dict[float, float]:
    """Bar y (mm) -> the number printed upright-turned below its column."""
    turned = [c for c in page.chars if not c["upright"]]
    out = {}
    for bar in level:
        column = (bar.x1 + bar.x2) / 2
        chars = [c for c in turned if abs((c["x0"] + c["x1"]) / 2 * 25.4 / 72 - column) < 1.5]
        chars.sort(key=lambda c: -c["top"])  # read upwards: the bottom character comes first
        value = "".join(c["text"] for c in chars)
        assert NUMBER.match(value), value
        out[round(bar.y1, 3)] = float(value)
    return out


def back_lines(page) -> tuple[float, float]:
    """The back's long vertical line (its x) and long horizontal line (its y), in back-page mm."""
    long = [s for s in segments(page, ()) if s.length > 50]
    upright = [s for s in long if abs(s.x1 - s.x2) < 1e-6]
    level = [s for s in long if abs(s.y1 - s.y2) < 1e-6]
    assert len(upright) == 1 and len(level) == 1
    return upright[0].x1, level[0].y1


def read_sheet(path, flip: str, misprint: tuple[float, float]) -> tuple[float, float]:
    """What a user reads off the sheet if the printer moves the back by `misprint` mm."""
    with pdfplumber.open(path) as pdf:
        front, back = pdf.pages
        size = page_size_mm(front)
        upright, level = bars(front)
        xs, ys = x_labels(front, upright), y_labels(front, level)
        line_x, line_y = back_lines(back)
    # the printer's error moves everything on the back page, as the back offset does
    seen_x, _ = front_point(line_x + misprint[0], 100.0, flip, size)
    _, seen_y = front_point(100.0, line_y + misprint[1], flip, size)
    hit_x = [value for x, value in xs.items() if abs(x - seen_x) < 0.01]
    hit_y = [value for y, value in ys.items() if abs(y - seen_y) < 0.01]
    assert len(hit_x) == 1 and len(hit_y) == 1, (seen_x, sorted(xs), seen_y, sorted(ys))
    # neighbours are one step away, so a reading is good to 0.5 mm
    assert sorted(round(b, 3) for b in xs)[1] - sorted(xs)[0] == pytest.approx(0.5, abs=1e-3)
    return hit_x[0], hit_y[0]


@pytest.mark.parametrize("paper,flip,printed_with", [
    ("a4", "long", (0.0, 0.0)), ("a4", "short", (0.0, 0.0)),
    ("letter", "long", (1.5, -2.0)), ("letter", "short", (-1.0, 0.5)),
])
def test_reading_the_sheet_gives_the_offset_that_cancels_the_misprint(run_cli, tmp_path, paper, flip,
                                                                        printed_with):
    offset = f"{printed_with[0]:g},{printed_with[1]:g}"
    result = run_cli("calibrate", "--paper", paper, "--flip", flip, "--back-offset", offset, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    path = tmp_path / "calibrate" / f"calibration-{paper}-{flip}.pdf"
    assert result.stdout.strip() == str(path)
    for misprint in [(0.0, 0.0), (1.0, -0.5), (-2.5, 3.0), (0.5, 4.5)]:
        # the printer moves the back by `misprint` on top of the offset the sheet was printed with
        # (already in the PDF); whatever that offset, the sheet reads the one that cancels the misprint
        reading = read_sheet(path, flip, misprint)
        assert reading == (-misprint[0] + 0.0, -misprint[1] + 0.0), (misprint, reading)


def arrows(path) -> tuple[list, list]:
    with pdfplumber.open(path) as pdf:
        front, back = pdf.pages
        height = float(front.height)

        def points(page, filled: bool) -> list[tuple[float, float]]:
            shapes = [c for c in page.curves if bool(c.get("fill")) == filled and len(c["pts"]) >= 7]
            assert len(shapes) == 1
            return [(x * 25.4 / 72, (height - y) * 25.4 / 72) for x, y in shapes[0]["pts"]]

        return points(front, False), points(back, True)


@pytest.mark.parametrize("flip", ["long", "short"])
def test_the_flip_arrow_points_up_only_on_the_right_edge(run_cli, tmp_path, flip):
    assert run_cli("calibrate", "--flip", flip, "--out", tmp_path).exit_code == 0
    outline, filled = arrows(tmp_path / "calibrate" / f"calibration-a4-{flip}.pdf")
    size = (210.0, 297.0)
    other = "short" if flip == "long" else "long"

    def tip_up(points) -> bool:
        top = max(points, key=lambda p: p[1])
        return top[1] - min(p[1] for p in points) > 25 and abs(top[0] - 105) < 0.01 and \
            sum(p[1] for p in points) / len(points) < top[1] - 10  # the point is at the top

    assert tip_up(outline)
    right = [front_point(x, y, flip, size) for x, y in filled]
    wrong = [front_point(x, y, other, size) for x, y in filled]
    assert tip_up(right)
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    assert all(min(xs) < x < max(xs) and min(ys) < y < max(ys) for x, y in right)  # inside the outline
    assert not tip_up(wrong)
    assert min(wrong, key=lambda p: p[1])[0] == pytest.approx(105, abs=0.01)  # the tip is now at the bottom


def test_sheet_names_the_other_flip_and_the_commands(run_cli, tmp_path):
    assert run_cli("calibrate", "--out", tmp_path).exit_code == 0
    with pdfplumber.open(tmp_path / "calibrate" / "calibration-a4-long.pdf") as pdf:
        text = pdf.pages[0].extract_text()
        assert pdf.pages[0].width == pytest.approx(210 * 72 / 25.4)
    assert "--flip short" in text and "--back-offset X,Y" in text and "--save X,Y" in text


def test_saved_offset_is_used_by_build_and_said_so(run_cli, tmp_path):
    saved = run_cli("calibrate", "--save", "1.5,-0.5")
    assert saved.exit_code == 0, saved.output
    config = tmp_path / "config" / "printgen" / "config.toml"
    assert "long = [1.5, -0.5]" in config.read_text()
    used = run_cli("build", "one_minute_war", "--out", tmp_path / "saved")
    assert used.exit_code == 0
    assert "using the saved back offset 1.5,-0.5 mm" in used.stderr
    given = run_cli("build", "one_minute_war", "--back-offset", "1.5,-0.5", "--out", tmp_path / "given")
    assert "saved back offset" not in given.stderr
    pdf = "one_minute_war/one_minute_war.pdf"
    assert (tmp_path / "saved" / pdf).read_bytes() == (tmp_path / "given" / pdf).read_bytes()
    # short-edge printing has no saved offset yet, so it builds with none
    short = run_cli("build", "one_minute_war", "--flip", "short", "--out", tmp_path / "short")
    assert "saved back offset" not in short.stderr
    assert run_cli("calibrate", "--save", "-2,1", "--flip", "short").exit_code == 0
    text = config.read_text()
    assert "long = [1.5, -0.5]" in text and "short = [-2.0, 1.0]" in text


@pytest.mark.parametrize("content,line,message", [
    ("[back_offset]\nlong = [1.5, \"a\"]\n", 2, "back_offset.long: expected two numbers"),
    ("[back_offset]\nlong = [1.5, 40]\n", 2, "between -20 and 20"),
    ("# mine\n[back_offset\nlong = 1\n", 2, "not valid TOML"),
])
def test_broken_config_is_a_located_error_and_nothing_is_written(run_cli, tmp_path, content, line, message):
    config = tmp_path / "config" / "printgen" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(content)
    result = run_cli("build", "one_minute_war", "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert re.search(rf"config\.toml:{line}: .*{re.escape(message)}", result.stderr), result.stderr
    assert "Traceback" not in result.output
    assert not (tmp_path / "o").exists()


def test_saving_keeps_the_rest_of_the_config_file_as_written(run_cli, tmp_path):
    config = tmp_path / "config" / "printgen" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('# my printer at home\ntheme = "dark"\n\n[back_offset]\nshort = [0.5, 0.5]  # measured in May\n\n'
                      '[printers.office.tray]\nname = "bypass"\nsizes = ["a4", "letter"]\n')
    assert run_cli("calibrate", "--save", "1.5,-0.5").exit_code == 0
    text = config.read_text()
    for kept in ("# my printer at home", 'theme = "dark"', "short = [0.5, 0.5]  # measured in May",
                 "[printers.office.tray]", 'name = "bypass"', 'sizes = ["a4", "letter"]'):
        assert kept in text
    assert "long = [1.5, -0.5]" in text
    from printgen.core.config import toml_parser  # tomli before Python 3.11
    data = toml_parser().loads(text)
    assert data["printers"]["office"]["tray"]["sizes"] == ["a4", "letter"]
    assert data["back_offset"] == {"short": [0.5, 0.5], "long": [1.5, -0.5]}
