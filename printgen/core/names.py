"""Every name printgen writes, made here: the file stems of cards, backs and exports, and the one
check that a name shown as text (a folder, a manifest cell, a Tabletop Simulator deck) can be
written as typed.

A file stem is a user's name made plain (`Fire Back` -> `fire-back`, `Café` -> `cafe`), at most
`MAX_STEM` characters. Every stem of one folder is handed out by one `Stems`, once, compared
without regard to case, so two files can never get one name: a stem already taken gets `-2`, `-3`,
... (the first that is free) rather than an error. docs/decks.md says the scheme for decks.
"""
from __future__ import annotations

import re
import unicodedata

MAX_STEM = 60  # characters of a file stem before any `-2`; long names are shortened, never refused
MAX_NAME = 200  # characters of a name written as text (a back's name in manifest.csv, decks.json)
UNWRITABLE = {"Cc": "a control character", "Cf": "an invisible formatting character (such as a "
              "right-to-left override or a zero-width space)", "Cs": "half of a broken character",
              "Co": "a private-use character", "Cn": "a character Unicode does not define",
              "Zl": "a line separator", "Zp": "a paragraph separator"}


def stem(value: str, fallback: str) -> str:
    """A plain file stem from a user's name: letters without their accents, digits, and `-` for
    everything else, lower case, at most MAX_STEM characters ('Red Army' -> 'red-army')."""
    plain = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
    cleaned = re.sub(r"[^a-z0-9]+", "-", plain.lower())[:MAX_STEM].strip("-")
    return cleaned or fallback


class Stems:
    """The stems of one folder's files, each handed out once. `take` gives the first of the names
    asked for that is free, else the last of them with `-2`, `-3`, ... after it, the first that is
    free; case never tells two apart, so the files stay apart on Windows and macOS too."""

    def __init__(self) -> None:
        self.taken: set[str] = set()

    def take(self, wanted: str, *instead: str) -> str:
        for name in (wanted, *instead):
            if name.casefold() not in self.taken:
                return self.hold(name)
        last, n = (wanted, *instead)[-1], 2
        while f"{last}-{n}".casefold() in self.taken:
            n += 1
        return self.hold(f"{last}-{n}")

    def hold(self, name: str) -> str:
        self.taken.add(name.casefold())
        return name


def unwritable(name: str, most: int = MAX_NAME) -> str | None:
    """Why `name` cannot be written as typed in a file, folder or cell that people read, or None
    (the caller says how to mend it):
    no control, bidi or zero-width character (an ESC, a right-to-left override), at most `most`
    characters. Compared after NFC normalisation, as the name is written."""
    text = name if name.isascii() else unicodedata.normalize("NFC", name)
    for index, char in enumerate("" if text.isprintable() else text):  # printable: none of UNWRITABLE
        kind = UNWRITABLE.get(unicodedata.category(char))
        if kind is not None:
            named = unicodedata.name(char, "")
            return (f"character {index + 1} is U+{ord(char):04X}{' ' + named if named else ''}, {kind}, "
                    f"which printgen does not write in a name")
    if len(text) > most:
        return f"it has {len(text):,} characters, where a name has at most {most:,}"
    return None
