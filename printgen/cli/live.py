"""What `printgen serve` shows: the games' pages and pieces, the PDFs, the last build's problems
and the settings the page can change.

What is served is one table from URL path to a file a worker handed back, replaced whole after each
good build; a request can only name an entry of it, so nothing else on disk is ever served.
"""
from __future__ import annotations

import json
import shlex
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

import click

from printgen.cli.common import MAX_SHOWN, report
from printgen.cli.engine import Builds, build_all, say_on_stderr
from printgen.cli.report import Built
from printgen.cli.options import MAX_BACK_OFFSET_MM, FiniteRange, parse_offset
from printgen.cli.pictures import Picture, Served, back_name, face_name, page_name, served_work
from printgen.core.bounded import BadReport
from printgen.core.build import BuildOptions
from printgen.core.config import saved_back_offset
from printgen.core.paper import MAX_BLEED_MM, PAPERS, SHEET_PAPERS, Flip
from printgen.core.plain import as_kind
from printgen.core.problems import DefinitionError, display_name

MAX_QUERY_FIELDS = 8
PNG, PDF = "image/png", "application/pdf"


class SettingRefused(ValueError):
    """A value the page sent that a build cannot take; its message says what would do."""


@dataclass(frozen=True)
class Settings:
    """The build options the page offers: the ones a user switches most."""

    paper: str = "a4"
    flip: Flip = "long"
    back_offset: tuple[float, float] | None = None  # None: the offset saved for this flip, else 0,0
    bleed: float | None = None  # None: each definition's own
    # the command line's alone: a deck's sheet layout, the rows shown and the card guides
    layout: str | None = None
    rows: tuple[int, ...] | None = None
    guides: bool = False
    where: str | None = None

    def options(self, templates: tuple[Path, ...]) -> BuildOptions:
        offset = self.back_offset or saved_back_offset(self.flip) or (0.0, 0.0)
        return BuildOptions(SHEET_PAPERS[self.paper], self.flip, offset, templates, self.bleed,
                            layout=self.layout, rows=self.rows, guides=self.guides, where=self.where)

    def updated(self, query: str) -> "Settings":
        """These settings with the page's changes (`paper=letter&bleed=`); SettingRefused for a bad value."""
        try:
            asked = {k: v[-1].strip() for k, v in parse_qs(query, keep_blank_values=True,
                                                           max_num_fields=MAX_QUERY_FIELDS).items()}
        except ValueError:
            raise SettingRefused("too many settings at once")
        changes: dict[str, Any] = {}
        for key, value in asked.items():
            if value.lower() in {"paper": PAPERS, "flip": ("long", "short")}.get(key, ()):
                changes[key] = value.lower()
            elif key in ("bleed", "back_offset"):
                changes[key] = (bleed_of if key == "bleed" else offset_of)(value)
            else:
                raise SettingRefused(f"{key}: expected paper ({' or '.join(sorted(PAPERS))}), flip (long or "
                                     f"short), bleed or back_offset (got {value[:40]!r})")
        return replace(self, **changes)


def bleed_of(value: str) -> float | None:
    try:
        return FiniteRange(0, MAX_BLEED_MM).convert(value, None, None) if value else None
    except click.BadParameter:
        raise SettingRefused(f"bleed: expected a number of mm from 0 to {MAX_BLEED_MM:g}, or nothing for "
                             f"each definition's own (got {value[:40]!r})") from None


def offset_of(value: str) -> tuple[float, float] | None:
    if not value:
        return None
    try:
        return parse_offset(None, None, value)
    except click.BadParameter as exc:
        raise SettingRefused(f"back offset: {exc.message}")


def path_of(game: int, name: str) -> str:
    """The table's key for a file of the `game`-th definition: a URL path, unquoted."""
    return f"/files/{game}/{name}"


@dataclass(eq=False)
class Live:
    """The served table and the page's state, rebuilt by `rebuild` after every change."""

    paths: list[Path]
    settings: Settings
    templates: tuple[Path, ...] = ()
    allow_outside: bool = False
    dpi: float = 72.0
    files: dict[str, tuple[str, Built, str]] = field(default_factory=dict)  # URL path -> (media, build, file)
    kept: Builds = field(default_factory=Builds)  # the builds whose folders hold the table's files
    games: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    version: int = 0  # goes up after every build, good or not; the page redraws when it does
    status: str = "building"
    pending: bool = False  # the page changed a setting: rebuild now, whatever the files say

    def change(self, query: str) -> None:
        """Take the page's new settings (SettingRefused if one is wrong) and ask for a rebuild."""
        self.settings = self.settings.updated(query)
        self.pending = True

    def rebuild(self, changed: list[Path]) -> set[Path]:
        """Build every game; on success replace the table, else keep it and show the problems.
        Returns the files to watch next."""
        if self.pending and not changed:
            click.echo(f"printgen: the page changed the settings ({self.said()}); rebuilding", err=True)
        self.pending = False
        started = time.monotonic()
        warnings: list[str] = []

        def warn(text: str) -> None:
            warnings.append(text)
            say_on_stderr(text)

        options = self.settings.options(self.templates)
        built = build_all(self.paths, options, self.allow_outside, served_work(self.dpi), watching=True)
        try:
            built.settle(warn)
            shown = [self.shown(index, game) for index, game in enumerate(built)]
        except DefinitionError as exc:
            built.__exit__()
            report(exc, then=" The page keeps the last pages that built.")
            self.problems = exc.report().splitlines()[:MAX_SHOWN]
            self.status = f"{len(exc.problems)} problem{'s' if len(exc.problems) != 1 else ''} found"
        except BaseException:
            built.__exit__()
            raise
        else:
            self.kept.__exit__()
            self.kept = built
            self.files = {path: entry for _, files in shown for path, entry in files.items()}
            self.games = [game for game, _ in shown]
            self.problems = []
            self.status = f"built in {time.monotonic() - started:.1f} s"
            click.echo(f"printgen: {self.status}; watching for changes (Ctrl-C stops)", err=True)
        self.warnings = warnings
        self.version += 1
        return built.watched

    def file(self, path: str) -> tuple[str, bytes] | None:
        if path not in self.files:
            return None
        media, built, name = self.files[path]
        return media, built.data(name)

    def shown(self, index: int, built: Built) -> tuple[dict[str, Any], dict[str, tuple[str, Built, str]]]:
        """One game as the page describes it and the files it serves; BadReport for a bad description."""
        files: dict[str, tuple[str, Built, str]] = {}
        extra = built.extra

        def served(name: str, media: str) -> str:  # the file's URL, once it is in the table
            if name not in built.files:
                raise BadReport(f"serve: the worker did not make {name!r}")
            files[path_of(index, name)] = (media, built, name)
            return quote(path_of(index, name))

        def picture(name: str) -> dict[str, Any]:
            href = served(name, PNG)
            try:
                shown = Picture.of(built.data(name))
            except ValueError:
                raise BadReport(f"serve: the worker's {name!r} is not a PNG picture") from None
            return {"src": f"{href}?v={shown.digest}", "width": shown.width, "height": shown.height}

        try:
            said: Served = as_kind(extra, Served)
        except ValueError:
            raise BadReport("serve: the worker did not describe its pages and pieces") from None
        described = [{"name": pdf.name, "href": served(pdf.name, PDF),
                      "pages": [picture(page_name(pdf.name, n)) for n in range(1, pdf.pages + 1)]} for pdf in said.pdfs]
        decks = [{"name": deck.name, "back": picture(back_name(number)),
                  "faces": [{"name": face.name, "quantity": face.quantity, **picture(face_name(number, i))}
                            for i, face in enumerate(deck.faces)]} for number, deck in enumerate(said.decks)]
        return {"title": built.title, "definition": display_name(built.path), "pdfs": described,
                "decks": decks}, files

    def said(self) -> str:
        """The settings in a few words, as the command line would give them."""
        chosen = self.settings
        words = [f"--paper {chosen.paper}", f"--flip {chosen.flip}"]
        words += [f"--bleed {chosen.bleed:g}"] if chosen.bleed is not None else []
        words += [f"--back-offset {chosen.back_offset[0]:g},{chosen.back_offset[1]:g}"] if chosen.back_offset else []
        words += [f"--layout {chosen.layout}"] if chosen.layout else []
        words += ["--rows " + ",".join(str(row) for row in chosen.rows)] if chosen.rows else []
        words += ["--where " + shlex.quote(chosen.where)] if chosen.where else []
        words += ["--guides"] if chosen.guides else []
        return " ".join(words)

    def state(self) -> dict[str, Any]:
        return {"version": self.version, "status": self.status, "problems": self.problems,
                "warnings": self.warnings, "games": self.games,
                "settings": {**asdict(self.settings), "back_offset": ",".join(
                    f"{v:g}" for v in self.settings.back_offset) if self.settings.back_offset else ""},
                "choices": {"paper": sorted(PAPERS), "flip": ["long", "short"], "max_bleed": MAX_BLEED_MM,
                            "max_back_offset": MAX_BACK_OFFSET_MM}}

    def state_json(self) -> bytes:
        return json.dumps(self.state(), ensure_ascii=True).encode()
