"""A deck's rows from an Excel workbook (.xlsx), held to the limits a CSV is held to, with every
problem told at its cell (`cards.xlsx:Ships!C4`). An .xlsx is a zip of XML: the sizes its members
say they unpack to are checked before openpyxl reads one, and a sheet is refused by its dimension
before its rows are read, so a small file cannot make printgen unpack or walk a huge one."""
from __future__ import annotations

import datetime
import io
import warnings
import zipfile
from typing import Any

from printgen.core.problems import DefinitionError, Problem

MAX_UNPACKED = 128 * 1024 * 1024  # the members together, unpacked: a 16 MiB CSV's cells with room for the XML
MAX_MEMBERS = 1_000
MAX_SHEET_ROWS = 40_000  # rows the sheet spans, blank ones counted: twice a deck's most rows


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
    return str(value)


def check_zip(data: bytes, file: str) -> None:
    """Refuse a workbook whose members would unpack past MAX_UNPACKED, before any is unpacked
    (zipfile stops a member at the size it declares, so the declared sizes bound the work)."""
    try:
        members = zipfile.ZipFile(io.BytesIO(data)).infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise DefinitionError([Problem(file, 1, "", f"cannot read this file as an Excel workbook (.xlsx): "
                                       f"{exc}; save it from your spreadsheet as .xlsx or as CSV")])
    if len(members) > MAX_MEMBERS:
        raise DefinitionError([Problem(file, 1, "", f"the workbook holds {len(members):,} files; an .xlsx "
                                       f"of card data holds far fewer than {MAX_MEMBERS:,}")])
    unpacked = sum(member.file_size for member in members)
    if unpacked > MAX_UNPACKED:
        raise DefinitionError([Problem(file, 1, "", f"the workbook unpacks to {unpacked / 2**20:,.0f} MiB; "
                                       f"a deck's data may unpack to at most {MAX_UNPACKED // 2**20} MiB")])


def workbook_rows(data: bytes, file: str, sheet: str | None, limits: tuple[int, int, int, int]) -> tuple[
        list[str], list[tuple[int, list[str]]], str]:
    """The header, each non-blank row as (sheet row number, texts), and the sheet's name; `limits` are
    a deck's most rows, columns, characters a cell and characters in all (a CSV's most bytes, so a
    workbook holds no more text than a CSV may). DefinitionError names the cell at fault."""
    check_zip(data, file)
    from openpyxl import load_workbook  # here: only a deck with .xlsx data needs it
    from openpyxl.utils.cell import get_column_letter

    most_rows, most_columns, most_chars, most_text = limits
    try:
        with warnings.catch_warnings():  # openpyxl's remarks on styles it ignores are not the user's business
            warnings.simplefilter("ignore")
            book = load_workbook(io.BytesIO(data), read_only=True, data_only=True, keep_links=False)
    except Exception as exc:  # noqa: BLE001 - a broken workbook fails in openpyxl in many ways
        raise DefinitionError([Problem(file, 1, "", f"cannot read this file as an Excel workbook (.xlsx) "
                                       f"({type(exc).__name__}: {exc}); save it again as .xlsx, or as CSV")])
    try:
        names = book.sheetnames
        if sheet is not None and sheet not in names:
            raise DefinitionError([Problem(file, 1, "", f"no sheet named '{sheet}'; the workbook's sheets are "
                                           f"{', '.join(repr(n) for n in names)}")])
        chosen = book[sheet] if sheet is not None else book.worksheets[0]
        title = chosen.title
        spans = chosen.max_row  # from the sheet's <dimension>, read before any row
        if isinstance(spans, int) and spans > MAX_SHEET_ROWS:
            raise DefinitionError([Problem(file, 1, "", f"the sheet '{title}' spans {spans:,} rows; a deck may "
                                           f"have at most {most_rows:,} rows (and the sheet at most "
                                           f"{MAX_SHEET_ROWS:,}, blank ones counted): delete the rows below the data")])
        place = sheet_ref(title)
        found: list[tuple[int, list[str]]] = []
        header: list[str] = []
        held = 0
        try:
            rows = chosen.iter_rows(max_row=MAX_SHEET_ROWS, max_col=most_columns + 1, values_only=True)
            for number, values in enumerate(rows, start=1):
                texts = [cell_text(v) for v in values]
                long = next((i for i, t in enumerate(texts) if len(t) > most_chars), None)
                if long is not None:
                    named = f"column '{header[long]}': " if long < len(header) else ""
                    raise DefinitionError([Problem(file, number, "", f"{named}a value may have at most "
                                                   f"{most_chars:,} characters",
                                                   place=f"{place}!{get_column_letter(long + 1)}{number}")])
                held += sum(len(t) for t in texts)
                if held > most_text:
                    raise DefinitionError([Problem(file, number, "", f"the cells up to this row hold more than "
                                                   f"{most_text // 2**20} MiB of text, the most a deck's data "
                                                   f"may hold", place=f"{place}!{number}:{number}")])
                while texts and not texts[-1].strip():
                    texts.pop()
                if number == 1:
                    header = texts
                elif texts:
                    if len(found) == most_rows:
                        raise DefinitionError([Problem(file, number, "", f"more than {most_rows:,} rows; a deck "
                                                       f"may have at most {most_rows:,}",
                                                       place=f"{place}!{number}:{number}")])
                    found.append((number, texts))
        except DefinitionError:
            raise
        except Exception as exc:  # noqa: BLE001 - a sheet's XML can be broken in many ways
            raise DefinitionError([Problem(file, 1, "", f"cannot read the sheet '{title}' ({type(exc).__name__}: "
                                           f"{exc}); save the workbook again as .xlsx, or as CSV")])
        return header, found, title
    finally:
        book.close()
