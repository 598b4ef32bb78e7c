"""An .xlsx is a zip of XML parts, and openpyxl holds some of them whole in memory (the styles, the
workbook) or one object per shared string; a 300 KB file can unpack to gigabytes of either. So
every part is measured before openpyxl opens the file: its size as unpacked, and for its XML, the
elements counted in one streaming pass (expat, no DTD or entity allowed) that stops at the limit.
The limits are in SECURITY.md."""
from __future__ import annotations

import io
import zipfile
from typing import IO, Callable
from xml.parsers import expat

from printgen.core.problems import DefinitionError, Problem

MAX_UNPACKED = 128 * 1024 * 1024  # the members together, unpacked: a 16 MiB CSV's cells with room for the XML
MAX_MEMBERS = 1_000
MAX_PART = 32 * 1024 * 1024  # any one part but a worksheet or a picture, unpacked
MAX_PART_ELEMENTS = 50_000  # in the styles, the workbook and every other part openpyxl reads whole
MAX_SHARED_STRINGS = 200_000  # a deck's 20,000 rows with ten columns of text, each different
MAX_SHARED_ELEMENTS = 1_000_000  # in the shared strings: each string and its styled runs
MAX_CELLS = 500_000  # in all the worksheets: 20,000 rows of 25 columns
MAX_SHEET_ELEMENTS = 5_000_000  # in all the worksheets: the cells, their values and formulas
NOT_XML = (".bin", ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".emf", ".wmf", ".wdp", ".svg")
SHARED_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
CHUNK = 64 * 1024


class TooMany(Exception):
    """A part holds more elements of a kind than its limit."""


def check_zip(data: bytes, file: str) -> None:
    """Refuse a workbook any of whose parts would unpack or parse past its limit, before openpyxl
    reads one (zipfile stops a member at the size it declares, so the declared sizes bound the work)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise refused(file, f"cannot read this file as an Excel workbook (.xlsx): {exc}; save it from your "
                            f"spreadsheet as .xlsx or as CSV")
    if len(members) > MAX_MEMBERS:
        raise refused(file, f"the workbook holds {len(members):,} files; an .xlsx of card data holds far "
                            f"fewer than {MAX_MEMBERS:,}")
    unpacked = sum(member.file_size for member in members)
    if unpacked > MAX_UNPACKED:
        raise refused(file, f"the workbook unpacks to {unpacked / 2**20:,.0f} MiB; a deck's data may unpack "
                            f"to at most {MAX_UNPACKED // 2**20} MiB")
    counts = Counts(shared_parts(archive, file))
    for member in members:
        name = member.filename
        sheet = name.startswith("xl/worksheets/") and name not in counts.shared
        if not sheet and member.file_size > MAX_PART and not name.lower().endswith(NOT_XML):
            raise refused(file, f"the workbook's part {name} unpacks to {member.file_size / 2**20:,.0f} MiB; a "
                                f"part other than a sheet may unpack to at most {MAX_PART // 2**20} MiB")
        if not name.lower().endswith(NOT_XML) and not name.endswith("/"):
            counts.scan(archive, name, sheet, file)


def shared_parts(archive: zipfile.ZipFile, file: str) -> set[str]:
    """The parts [Content_Types].xml names as shared strings, as openpyxl finds them (no leading /)."""
    found: set[str] = set()

    def start(tag: str, attributes: dict[str, str]) -> None:
        if tag.rpartition("}")[2] == "Override" and attributes.get("ContentType") == SHARED_TYPE:
            found.add(attributes.get("PartName", "").lstrip("/"))

    try:
        with archive.open("[Content_Types].xml") as part:
            parse(part, start, MAX_PART_ELEMENTS)
    except KeyError:
        pass  # no content types: openpyxl refuses the file itself
    except TooMany:
        raise refused(file, f"the workbook's part [Content_Types].xml holds more than {MAX_PART_ELEMENTS:,} "
                            f"elements; save the workbook again as .xlsx, or as CSV")
    except (expat.ExpatError, ValueError, zipfile.BadZipFile, OSError) as exc:
        raise refused(file, f"cannot read this file as an Excel workbook (.xlsx): [Content_Types].xml: {exc}; "
                            f"save it again as .xlsx, or as CSV")
    return found | {"xl/sharedStrings.xml"}


class Counts:
    """The elements counted so far: shared strings and cells across the workbook, each part's own."""

    def __init__(self, shared: set[str]) -> None:
        self.shared = shared
        self.strings = self.cells = self.sheet_elements = 0

    def scan(self, archive: zipfile.ZipFile, name: str, sheet: bool, file: str) -> None:
        part_limit = MAX_SHARED_ELEMENTS if name in self.shared else MAX_PART_ELEMENTS
        what = "shared strings" if name in self.shared else f"part {name}"

        def start(tag: str, attributes: dict[str, str]) -> None:
            local = tag.rpartition("}")[2]
            if local == "si":
                self.strings += 1
                if self.strings > MAX_SHARED_STRINGS:
                    raise TooMany(f"more than {MAX_SHARED_STRINGS:,} shared strings (different texts)")
            elif local == "c" and sheet:
                self.cells += 1
                if self.cells > MAX_CELLS:
                    raise TooMany(f"more than {MAX_CELLS:,} cells in its sheets")
            if sheet:
                self.sheet_elements += 1
                if self.sheet_elements > MAX_SHEET_ELEMENTS:
                    raise TooMany(f"more than {MAX_SHEET_ELEMENTS:,} XML elements in its sheets")

        try:
            with archive.open(name) as part:
                parse(part, start, None if sheet else part_limit)
        except TooMany as exc:
            said = str(exc) or f"more than {part_limit:,} XML elements in its {what}"
            raise refused(file, f"the workbook holds {said}, more than a deck's data needs; keep the cards "
                                f"in a workbook of their own, or save the sheet as CSV")
        except (expat.ExpatError, ValueError, zipfile.BadZipFile, OSError) as exc:
            raise refused(file, f"cannot read this file as an Excel workbook (.xlsx): {name}: {exc}; save it "
                                f"again as .xlsx, or as CSV")


def parse(part: IO[bytes], start: Callable[[str, dict[str, str]], None], most: int | None) -> None:
    """Stream `part` through expat, calling `start(tag, attributes)` for each element; TooMany past
    `most` elements; ValueError at a DTD or an entity, which a workbook never needs."""
    parser = expat.ParserCreate(namespace_separator="}")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    seen = [0]

    def counted(tag: str, attributes: dict[str, str]) -> None:
        seen[0] += 1
        if most is not None and seen[0] > most:
            raise TooMany("")
        start(tag, attributes)

    def no_dtd(*_: object) -> None:
        raise ValueError("it declares a DTD or an entity, which a workbook never needs")

    parser.StartElementHandler = counted
    parser.StartDoctypeDeclHandler = no_dtd
    parser.EntityDeclHandler = no_dtd
    while chunk := part.read(CHUNK):
        parser.Parse(chunk, False)
    parser.Parse(b"", True)


def refused(file: str, message: str) -> DefinitionError:
    return DefinitionError([Problem(file, 1, "", message)])
