"""A deck's rows, from a CSV, TSV or .xlsx file or inline, each with where it was written so a bad
value is told at its CSV line and column, or at its spreadsheet cell (`cards.xlsx:Ships!C4`).

An Excel workbook is held to the limits a CSV is held to. An .xlsx is a zip of XML: its parts are
measured before openpyxl reads one (xlsx.py), and a sheet's rows are counted as they are read (and
refused early by a size header that says too many), so a small file cannot make printgen unpack or
walk a huge one."""
from __future__ import annotations

import csv
import datetime
import io
import unicodedata
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping

from printgen.art.library import ArtContext, resolve
from printgen.core.problems import DefinitionError, Problem, display_name
from printgen.core.source import SourceMap, dotted
from printgen.core.textcheck import problem_with
from printgen.games.deck.model import Deck
from printgen.games.deck.xlsx import check_zip
from printgen.jinja.values import MAX_PROBLEMS

MAX_CSV_BYTES = 16 * 1024 * 1024
MAX_ROWS = 20_000
MAX_COLUMNS = 100
MAX_CELL = 4_000
MAX_COPIES = 1_000
MAX_CARDS = 20_000  # cards in all, copies counted: 20,000 rows of 1,000 copies would be 20 million
MAX_SHEET_ROWS = 40_000  # rows the sheet spans, blank ones counted: twice a deck's most rows
NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
YES, NO = {"yes", "y", "true", "1", "x"}, {"no", "n", "false", "0", ""}

Value = Any  # str, int, float, bool or None


@dataclass(frozen=True)
class Row:
    """One row of card data and where it was written (`file:line`, and `key` for inline rows)."""

    index: int  # 0-based, in file order
    values: dict[str, Value]
    copies: int
    file: str
    line: int
    key: tuple[str | int, ...] = ()  # the key path of an inline row; () for a CSV row
    cells: Mapping[str, str] | None = None  # a spreadsheet's row: each column's sheet and letter, 'Ships!C'

    def problem(self, column: str, message: str) -> Problem:
        place = ""
        if self.cells is not None:  # the cell, or the whole row (Ships!4:4) for a column it lacks
            sheet = next(iter(self.cells.values()), "!").rsplit("!", 1)[0]
            place = f"{self.cells[column]}{self.line}" if column in self.cells else f"{sheet}!{self.line}:{self.line}"
        if self.key:
            return Problem(self.file, self.line, dotted((*self.key, column)), message, place)
        return Problem(self.file, self.line, "", f"column '{column}': {message}", place)


def read_rows(defn: Deck, source: SourceMap, base: Path, allow_outside: bool) -> list[Row]:
    """Every row, typed, or one DefinitionError holding every problem found in the data."""
    if defn.rows is not None:
        raw = [(i, dict(row), source.file, source.line_of(("rows", i)), ("rows", i))
               for i, row in enumerate(defn.rows)]
    else:
        assert defn.data is not None
        raw = data_rows(defn.data, source, ArtContext(base, allow_outside))
    rows: list[Row] = []
    problems: list[Problem] = []
    cards = 0
    cells: list[Mapping[str, str]]
    for index, values, file, line, key, *cells in raw:
        row = Row(index, values, 1, file, line, key, *cells)
        typed: dict[str, Value] = {}
        for column, value in values.items():
            # a CSV cell (the definition's own strings were checked when it was read); whether its
            # font has each character is asked where an element prints it, in that element's font
            unprintable = problem_with(value, font_known=False) if isinstance(value, str) and not key else None
            if unprintable:
                problems.append(row.problem(column, unprintable))
                continue
            try:
                typed[column] = convert(value, defn.columns.get(column, "text"))
            except ValueError as exc:
                problems.append(row.problem(column, str(exc)))
        try:
            copies = count(typed.pop(defn.copies, None))
        except ValueError as exc:
            problems.append(row.problem(defn.copies, str(exc)))
            copies = 1
        cards += copies
        if cards > MAX_CARDS:
            problems.append(row.problem(defn.copies, f"this row brings the deck to {cards:,} cards, copies "
                                        f"counted; a deck may print at most {MAX_CARDS:,}"))
            break
        rows.append(Row(index, typed, copies, file, line, key, *cells))
    for column in defn.columns:
        if rows and all(column not in r.values for r in rows) and column != defn.copies:
            problems.append(source.problem(("columns", column), f"no row has a column '{column}'"))
    named = isinstance(source.root, dict) and "copies" in source.root  # `copies:` given, not the default
    if named and raw and all(defn.copies not in values for _, values, *_ in raw):
        problems.append(source.problem(("copies",), f"no row has a column '{defn.copies}', so every card "
                                       f"would print once; name a column the rows have"))
    if problems:
        raise DefinitionError(problems)
    return rows


def read_beside(name: str, context: ArtContext, limit: int, what: str) -> tuple[Path, bytes]:
    """A file the definition names, found as art is; ValueError when over `limit` bytes."""
    path = resolve(name, context)
    if path.stat().st_size > limit:
        shown = f"{limit // 2**20} MiB" if limit >= 2**20 else f"{limit // 1024} KiB"
        raise ValueError(f"{display_name(path)} is over {shown}, the most {what} may be")
    return path, path.read_bytes()


def data_rows(name: str, source: SourceMap, context: ArtContext) -> list[tuple[Any, ...]]:
    """The rows of the file `data` names: .xlsx (a sheet as 'cards.xlsx#Ships'), .tsv, else CSV."""
    file_name, sheet = split_sheet(name)
    kind = Path(file_name).suffix.lower()
    if kind in (".xls", ".ods", ".numbers"):
        raise DefinitionError([source.problem(("data",), f"cannot read {kind} files; save the sheet as "
                                              f".xlsx, or as CSV (UTF-8)")])
    try:
        path, data = read_beside(file_name, context, MAX_CSV_BYTES, "a deck's data")
    except (ValueError, OSError) as exc:
        raise DefinitionError([source.problem(("data",), str(exc))])
    if kind == ".xlsx":
        return sheet_rows(data, display_name(path), sheet)
    return csv_rows(data, display_name(path), source, "\t" if kind == ".tsv" else ",")


def split_sheet(name: str) -> tuple[str, str | None]:
    """'cards.xlsx#Ships' -> ('cards.xlsx', 'Ships'); any other name is a file name as it is."""
    stem, mark, sheet = name.partition("#")
    if mark and stem.lower().endswith(".xlsx"):
        return stem, sheet
    return name, None


def sheet_ref(sheet: str) -> str:
    """A sheet's name as a cell reference writes it: quoted when it holds more than letters and digits."""
    return sheet if sheet.replace("_", "").isalnum() else "'" + sheet.replace("'", "''") + "'"


def cell_text(value: Any) -> str:
    """A cell's value as the text a CSV would hold, so both are read by the same rules: 3.0 is '3'
    (a whole number), 3.5 stays '3.5', TRUE is 'true', a date is '2024-05-01' (ISO 8601)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, datetime.datetime):
        return value.date().isoformat() if value.time() == datetime.time() else value.isoformat(sep=" ")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return unicodedata.normalize("NFC", str(value))  # `é` however it was typed, as a CSV's


def workbook_rows(data: bytes, file: str, sheet: str | None) -> tuple[list[str], list[tuple[int, list[str]]], str]:
    """The header, each non-blank row as (sheet row number, texts), and the sheet's name, within a
    CSV's limits (its most bytes as the most characters in all, so a workbook holds no more text than
    a CSV may). Read once with formulas as written: only a sheet holding formulas is read again for
    their saved results. DefinitionError names the cell at fault."""
    check_zip(data, file)
    book = open_book(data, file, formulas=True)
    try:
        chosen = chosen_sheet(book, file, sheet)
        title = chosen.title
        try:
            header, found, formulas = sheet_texts(chosen.iter_rows(max_row=MAX_SHEET_ROWS + 1, max_col=MAX_COLUMNS + 1,
                                                                   values_only=True), file, sheet_ref(title))
        except DefinitionError:
            raise
        except Exception as exc:  # noqa: BLE001 - a sheet's XML can be broken in many ways
            raise DefinitionError([Problem(file, 1, "", f"cannot read the sheet '{title}' ({type(exc).__name__}: "
                                           f"{exc}); save the workbook again as .xlsx, or as CSV")])
    finally:
        book.close()
    if formulas:
        saved_results(data, file, title, found, formulas)
    return header, found, title


def open_book(data: bytes, file: str, formulas: bool) -> Any:
    """The workbook read-only, its cells as written (`formulas`) or as last saved (each formula's result)."""
    from openpyxl import load_workbook  # here: only a deck with .xlsx data needs it

    try:
        with warnings.catch_warnings():  # openpyxl's remarks on styles it ignores are not the user's business
            warnings.simplefilter("ignore")
            return load_workbook(io.BytesIO(data), read_only=True, data_only=not formulas, keep_links=False)
    except Exception as exc:  # noqa: BLE001 - a broken workbook fails in openpyxl in many ways
        raise DefinitionError([Problem(file, 1, "", f"cannot read this file as an Excel workbook (.xlsx) "
                                       f"({type(exc).__name__}: {exc}); save it again as .xlsx, or as CSV")])


def chosen_sheet(book: Any, file: str, sheet: str | None) -> Any:
    """The sheet `data` names (else the first), refused when its size header spans too many rows."""
    names = book.sheetnames
    if sheet is not None and sheet not in names:
        raise DefinitionError([Problem(file, 1, "", f"no sheet named '{sheet}'; the workbook's sheets are "
                                       f"{', '.join(repr(n) for n in names)}")])
    chosen = book[sheet] if sheet is not None else book.worksheets[0]
    spans = chosen.max_row  # from the sheet's <dimension>, read before any row; rows are counted too
    if isinstance(spans, int) and spans > MAX_SHEET_ROWS:
        raise DefinitionError([Problem(file, 1, "", f"the sheet '{chosen.title}' spans {spans:,} rows; a deck may "
                                       f"have at most {MAX_ROWS:,} rows (and the sheet at most "
                                       f"{MAX_SHEET_ROWS:,}, blank ones counted): delete the rows below the data")])
    return chosen


def sheet_texts(rows: Iterator[tuple[Any, ...]], file: str, place: str) -> tuple[
        list[str], list[tuple[int, list[str]]], dict[tuple[int, int], str]]:
    """The header, the non-blank rows' texts and each formula cell's formula by (row, column), the
    rows counted as they are read (never taken from the sheet's size header)."""
    from openpyxl.utils.cell import get_column_letter  # openpyxl is loaded: the workbook was read

    found: list[tuple[int, list[str]]] = []
    header: list[str] = []
    formulas: dict[tuple[int, int], str] = {}
    held = 0
    for number, values in enumerate(rows, start=1):
        if number > MAX_SHEET_ROWS:
            raise DefinitionError([Problem(file, number, "", f"the sheet has rows past row {MAX_SHEET_ROWS:,}; "
                                           f"a deck may have at most {MAX_ROWS:,} rows (and the sheet at most "
                                           f"{MAX_SHEET_ROWS:,}, blank ones counted): delete the rows below the data",
                                           place=f"{place}!{number}:{number}")])
        if values.count(None) == len(values):
            continue  # a blank row (many, where a sheet's rows skip ahead): no card, nothing held
        texts = [cell_text(v) for v in values]
        for column, value in enumerate(values):
            if is_formula(value):
                formulas[(number, column)] = texts[column] = formula_text(value)
        long = next((i for i, t in enumerate(texts) if len(t) > MAX_CELL), None)
        if long is not None:
            named = f"column '{header[long]}': " if long < len(header) else ""
            raise DefinitionError([Problem(file, number, "", f"{named}a value may have at most "
                                           f"{MAX_CELL:,} characters",
                                           place=f"{place}!{get_column_letter(long + 1)}{number}")])
        held += sum(len(t) for t in texts)
        if held > MAX_CSV_BYTES:
            raise DefinitionError([Problem(file, number, "", f"the cells up to this row hold more than "
                                           f"{MAX_CSV_BYTES // 2**20} MiB of text, the most a deck's data "
                                           f"may hold", place=f"{place}!{number}:{number}")])
        while texts and not texts[-1].strip():
            texts.pop()
        if number == 1:
            header = texts
        elif texts:
            if len(found) == MAX_ROWS:
                raise DefinitionError([Problem(file, number, "", f"more than {MAX_ROWS:,} rows; a deck "
                                               f"may have at most {MAX_ROWS:,}",
                                               place=f"{place}!{number}:{number}")])
            found.append((number, texts))
    return header, found, formulas


def is_formula(value: Any) -> bool:
    """A cell read with formulas as written: `=B3*2`, or an array or data-table formula."""
    return (isinstance(value, str) and value.startswith("=")) or hasattr(value, "ref")


def formula_text(value: Any) -> str:
    return value if isinstance(value, str) else str(getattr(value, "text", "") or "=")


def saved_results(data: bytes, file: str, title: str, found: list[tuple[int, list[str]]],
                  formulas: dict[tuple[int, int], str]) -> None:
    """Each formula cell's text replaced by the result the workbook saved with it; a formula with
    none (as scripts such as openpyxl write them) is a problem at its cell, never a blank."""
    from openpyxl.utils.cell import get_column_letter

    place = sheet_ref(title)
    book = open_book(data, file, formulas=False)
    texts = dict(found)
    problems: list[Problem] = []
    try:
        last = max(number for number, _ in formulas)
        rows = book[title].iter_rows(max_row=last, max_col=MAX_COLUMNS + 1, values_only=True)
        for number, values in enumerate(rows, start=1):
            for column, value in enumerate(values):
                if (number, column) not in formulas:
                    continue
                cell = f"{place}!{get_column_letter(column + 1)}{number}"
                if value is None and len(problems) < MAX_PROBLEMS:
                    problems.append(Problem(file, number, "", f"a formula with no saved value "
                                            f"({formulas[number, column][:40]}); open and save the workbook in "
                                            f"a spreadsheet program, which saves each formula's result, or type "
                                            f"the value in its place", place=cell))
                elif value is not None and number in texts and column < len(texts[number]):
                    text = cell_text(value)
                    if len(text) > MAX_CELL:
                        problems.append(Problem(file, number, "", f"a formula's result may have at most "
                                                f"{MAX_CELL:,} characters", place=cell))
                    texts[number][column] = text
    finally:
        book.close()
    if problems:
        raise DefinitionError(problems)


def sheet_rows(data: bytes, file: str, sheet: str | None) -> list[tuple[Any, ...]]:
    """(index, {column: text}, file, sheet row, (), cells) for each non-blank row of the sheet."""
    header, records, title = workbook_rows(data, file, sheet)
    from openpyxl.utils.cell import get_column_letter  # openpyxl is loaded: the workbook was read
    columns = check_header(header, file, f"{sheet_ref(title)}!1:1")
    cells = {column: f"{sheet_ref(title)}!{get_column_letter(i + 1)}" for i, column in enumerate(columns)}
    found: list[tuple[Any, ...]] = []
    for number, texts in records:
        if len(texts) > len(columns):
            raise DefinitionError([Problem(file, number, "", f"a value in column {get_column_letter(len(texts))}, "
                                           f"but the header names {len(columns)} columns",
                                           place=f"{sheet_ref(title)}!{get_column_letter(len(texts))}{number}")])
        found.append((len(found), dict(zip(columns, texts)), file, number, (), cells))
    return found


def csv_rows(data: bytes, file: str, source: SourceMap, delimiter: str = ",") -> list[tuple[Any, ...]]:
    """(index, {column: text}, file, line, ()) for each CSV record; the line is where it starts."""
    kind = "CSV" if delimiter == "," else "TSV"
    try:
        text = unicodedata.normalize("NFC", data.decode("utf-8-sig"))  # `é` however it was typed
    except UnicodeDecodeError as exc:
        raise DefinitionError([source.problem(("data",), f"expected a UTF-8 file, but byte {exc.start} "
                                              f"is not UTF-8; save the {kind} as UTF-8")])
    reader = csv.reader(io.StringIO(text, newline=""), strict=True, delimiter=delimiter)
    try:
        columns = check_header(next(reader, None), file)
        found: list[tuple[Any, ...]] = []
        start = reader.line_num + 1
        for record in reader:
            line, start = start, reader.line_num + 1
            if not any(cell.strip() for cell in record):
                continue  # a blank line is no card
            if len(found) == MAX_ROWS:
                raise DefinitionError([Problem(file, line, "", f"more than {MAX_ROWS:,} rows; a deck may "
                                               f"have at most {MAX_ROWS:,}")])
            if len(record) > len(columns):
                raise DefinitionError([Problem(file, line, "", f"{len(record)} values but the header names "
                                               f"{len(columns)} columns; quote values holding a "
                                               f"{'comma' if delimiter == ',' else 'tab'}")])
            long = next((c for c, v in zip(columns, record) if len(v) > MAX_CELL), None)
            if long:
                raise DefinitionError([Problem(file, line, "", f"column '{long}': a value may have at most "
                                               f"{MAX_CELL:,} characters")])
            found.append((len(found), dict(zip(columns, record)), file, line, ()))
    except csv.Error as exc:
        raise DefinitionError([Problem(file, reader.line_num or 1, "", f"cannot read this {kind} line: {exc}")])
    return found


def check_header(header: list[str] | None, file: str, place: str = "") -> list[str]:
    """The columns the header names; DefinitionError when they are missing or not names."""
    if not header or not any(h.strip() for h in header):
        raise DefinitionError([Problem(file, 1, "", "expected a header row naming the columns", place=place)])
    names = [h.strip() for h in header]
    problems = []
    if len(names) > MAX_COLUMNS:
        problems.append(f"{len(names)} columns; a deck may have at most {MAX_COLUMNS}")
    for name in names:
        if not name or name[0].isdigit() or any(c not in NAME_CHARS for c in name):
            problems.append(f"column '{name}': expected a name of letters, digits and _ that does not "
                            f"start with a digit, so templates can use it")
    duplicates = sorted({n for n in names if names.count(n) > 1})
    problems += [f"column '{name}' appears twice" for name in duplicates]
    if problems:
        raise DefinitionError([Problem(file, 1, "", message) for message in problems])
    return names


def convert(value: Value, kind: str) -> Value:
    """A cell read as its column's kind; ValueError says what was expected."""
    if not isinstance(value, str):  # an inline row's value, already typed by YAML
        if kind == "whole number" and not (isinstance(value, int) and not isinstance(value, bool)):
            raise ValueError(f"expected a whole number (got {value!r})")
        if kind == "number" and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise ValueError(f"expected a number (got {value!r})")
        if kind == "yes/no" and not isinstance(value, bool):
            raise ValueError(f"expected yes or no (got {value!r})")
        return value
    cell = value.strip()
    if kind == "text":
        return value
    if kind == "yes/no":
        if cell.lower() in YES | NO:
            return cell.lower() in YES
        raise ValueError(f"expected yes or no (got '{cell}')")
    if cell == "":
        return None
    try:
        if kind == "whole number":
            return int(cell.replace("_", "x"))  # int() would take 1_000; a CSV cell should not
        number = float(cell.replace("_", "x"))
    except ValueError:
        raise ValueError(f"expected a {'whole number' if kind == 'whole number' else 'number'} "
                         f"(got '{cell}')") from None
    if number != number or number in (float("inf"), float("-inf")):
        raise ValueError(f"expected a finite number (got '{cell}')")
    return number


def count(value: Value) -> int:
    if value is None or value == "":
        return 1
    if isinstance(value, str):
        value = convert(value, "whole number")
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_COPIES:
        raise ValueError(f"expected a whole number of copies from 0 to {MAX_COPIES} (got {value!r})")
    return value
