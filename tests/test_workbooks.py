"""A deck's data from a workbook or a TSV file, as people and scripts write them: a formula's saved
result is read, a formula saved without one is told at its cell, a TSV's quoting fault says TSV, and
rows are counted as they are read, whatever the sheet's size header says. Through the real command."""
from __future__ import annotations

import csv
import io
import re
import zipfile
from pathlib import Path

import openpyxl
import pdfplumber
import pytest

from conftest import cards_only


@pytest.fixture
def deck(run_cli, tmp_path) -> Path:
    """`printgen new deck` in tmp_path, its data moved into cards.xlsx (sheet Cards)."""
    assert run_cli("new", "deck", tmp_path / "my-deck").exit_code == 0
    folder = tmp_path / "my-deck"
    definition = folder / "my-deck.yaml"
    definition.write_text(definition.read_text().replace("data: cards.csv", "data: cards.xlsx"))
    return definition


def workbook(deck: Path, cells: dict[str, str], saved: dict[str, str] | None = None, rows: int = 0,
             far: int = 0) -> None:
    """The sample's rows in cards.xlsx, `cells` set to formulas as openpyxl writes them (no saved
    result), then `saved` written in as the result a spreadsheet program saves with each; `rows`
    more rows below (and one at row `far`), under a size header that says only the sample's rows."""
    with open(deck.parent / "cards.csv", newline="", encoding="utf-8") as file:
        sample = list(csv.reader(file))
    book = openpyxl.Workbook()
    book.active.title = "Cards"
    for row in sample:
        book.active.append([int(v) if v.isdigit() else v for v in row])
    for number in range(rows):
        book.active.append(["spell", f"Extra {number}", 1, "", "More.", 1])
    if far:
        for column, value in zip("ABCDEF", ["spell", "Far Below", 1, "", "Lost?", 1]):
            book.active[f"{column}{far}"] = value
    for ref, formula in cells.items():
        book.active[ref] = formula
    buffer = io.BytesIO()
    book.save(buffer)
    with zipfile.ZipFile(buffer) as source, zipfile.ZipFile(deck.parent / "cards.xlsx", "w") as out:
        for item in source.infolist():
            data = source.read(item)
            if item.filename == "xl/worksheets/sheet1.xml":
                text = data.decode()
                for ref, value in (saved or {}).items():
                    text = re.sub(rf'<c r="{ref}"[^>]*><f>(.*?)</f><v></v>',
                                  rf'<c r="{ref}" t="str"><f>\1</f><v>{value}</v>', text)
                if rows or far:  # a size header that understates the sheet, as some writers leave it
                    text = re.sub(r'<dimension ref="[^"]*"', f'<dimension ref="A1:F{len(sample)}"', text)
                data = text.encode()
            out.writestr(item, data)


def test_a_formula_saved_without_its_result_is_told_at_its_cell(run_cli, deck, tmp_path):
    workbook(deck, {"F3": "=C3+1", "B4": '=UPPER("frost")'})
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2
    told = [line.split("my-deck/")[-1] for line in result.output.splitlines() if "cards.xlsx" in line]
    assert told == [f"cards.xlsx:Cards!{ref}: a formula with no saved value ({formula}); open and save the "
                    f"workbook in a spreadsheet program, which saves each formula's result, or type the value "
                    f"in its place" for ref, formula in (("F3", "=C3+1"), ("B4", '=UPPER("frost")'))]
    assert not (tmp_path / "out").exists()


def test_a_formula_with_its_saved_result_reads_as_the_result(run_cli, deck, tmp_path):
    workbook(deck, {"F3": "=C3+1", "B4": '=UPPER("frost")'}, {"F3": "4", "B4": "FROST"})
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "my-deck"
    assert (folder / "svg" / "frost.svg").is_file()
    with pdfplumber.open(folder / "my-deck.pdf") as pdf:
        text = "".join(page.extract_text() for page in pdf.pages)
    assert text.count("FROST") == 2 and text.count("Ember Hound") == 4  # its copies: the formula's 4


def test_rows_past_the_size_header_are_counted_not_lost(run_cli, deck, tmp_path):
    workbook(deck, {}, far=45_000)  # a card at row 45,000 under a header saying 5 rows
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert ("cards.xlsx:Cards!40001:40001: the sheet has rows past row 40,000; a deck may have at most "
            "20,000 rows") in result.output
    workbook(deck, {}, rows=30)  # a few past the header: every one of them built
    cards_only(deck)  # the starter's reference lists its cards; 30 more would overfill its section
    result = run_cli("build", deck, "--out", tmp_path / "out", "--no-pictures")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "my-deck" / "my-deck.pdf") as pdf:
        text = "".join(page.extract_text() for page in pdf.pages)
    assert all(f"Extra {n}" in text for n in range(30))


def test_a_tsv_quoting_fault_says_tsv(run_cli, deck, tmp_path):
    (deck.parent / "cards.tsv").write_text('type\ttitle\tcost\tcopies\nspell\t"Frost\t1\t1\n')
    deck.write_text(deck.read_text().replace("data: cards.xlsx", "data: cards.tsv"))
    result = run_cli("build", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "cards.tsv:2: cannot read this TSV line: unexpected end of data" in result.output


MEASURE = """import json, os, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
err = child.stderr.read().decode()
_, status, usage = os.wait4(child.pid, 0)
print(json.dumps([os.waitstatus_to_exitcode(status), err, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024]))
"""


def measured(args: list[str], cwd: Path) -> tuple[int, str, float, float]:
    """`printgen ARGS` in a fresh process: its exit code, its stderr, the CPU seconds it and its
    worker took, and the largest resident size of either in MiB (counted, not timed on the wall).
    A small Python starts it and reads the kernel's figures, so the test's own memory (copied into
    a process it forks) is not counted."""
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    command = args if args[0] == "-c" else ["-m", "printgen.launch", *args]
    answer = subprocess.run([sys.executable, "-c", MEASURE, sys.executable, *command],
                            cwd=cwd, env=env, capture_output=True, text=True, check=True)
    code, err, cpu, mib = json.loads(answer.stdout)
    return code, err, cpu, mib


READ = """import sys
from printgen.games.deck.rows import sheet_rows
print(len(sheet_rows(open("cards.xlsx", "rb").read(), "cards.xlsx", None)), "rows", file=sys.stderr)
"""


def test_a_megabyte_workbook_of_any_shape_is_read_in_bounded_work(deck, tmp_path):
    """The hostile shapes are refused, located, early; a deck's largest sheet (20,000 rows of ten
    columns, 860 KB) reads, in a few CPU seconds and under 200 MiB. Baseline: the same command on a
    five-row workbook, so the start-up of Python and printgen is not counted against the reading."""
    from hostile_cases import shared_strings, styles_expand

    args = ["build", deck.name, "--rows", "1", "--no-pictures", "--out", str(tmp_path / "out")]
    workbook(deck, {})
    code, err, base_cpu, base_mib = measured(args, deck.parent)
    assert code == 0, err
    for make, told in ((styles_expand, "more than 50,000 XML elements in its part xl/styles.xml"),
                       (shared_strings, "more than 200,000 shared strings")):
        make(deck.parent, "hostile")
        assert (deck.parent / "cards.xlsx").stat().st_size < 400_000
        code, err, cpu, mib = measured(["build", "hostile.yaml", "--out", str(tmp_path / "out")], deck.parent)
        assert code == 2 and told in err, err
        assert cpu < base_cpu + 2.0 and mib < base_mib + 50, (cpu, base_cpu, mib, base_mib)
    book = openpyxl.Workbook()
    book.active.append(["type", "title", "cost", "strength", "text", "copies", "a", "b", "c", "d"])
    for i in range(20_000):
        book.active.append(["spell", f"Card {i}", i % 9, "", f"The text of card {i}, " * 3, 1, "x", "y", 2, 3])
    book.save(deck.parent / "cards.xlsx")
    assert (deck.parent / "cards.xlsx").stat().st_size < 2**20
    code, err, cpu, mib = measured(["-c", READ], deck.parent)  # the reading alone: a deck's rows cost more
    assert code == 0 and err == "20000 rows\n", err
    assert cpu < 5.0 and mib < 200, (cpu, mib)
