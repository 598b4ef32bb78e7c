"""The keys every game's definition starts with, declared once.

Each game narrows `game` to its id (a `Literal`), so a definition can never validate as another."""
from __future__ import annotations

from typing import Annotated

from pydantic import Field, computed_field

from printgen.art.library import TemplateFolder
from printgen.core.fields import Name, Strict
from printgen.layout.reference import ReferenceSettings
from printgen.layout.rulebook import RulebookSettings

Credit = Annotated[str, Field(max_length=120, description="who made the game, printed in small type")]
Booklet = Annotated[bool, Field(description="also make <name>-booklet.pdf: the rulebook as an A5 (on "
                                "Letter, half-Letter) booklet to print on both sides, fold and staple; "
                                "as --booklet")]


class Definition(Strict):
    game: str
    title: Name
    credit: Credit = ""
    templates: TemplateFolder = None


RULING_MARK = "\u2020"  # a dagger: in every face of the embedded font, and never part of a seed's rules
# Worded as a publisher marks an edition's clarifications: a player holds a game, not a tool's output.
RULING_KEY = f"{RULING_MARK} A clarification of this edition: the original rules leave this point open."


class WithReference(Definition):
    """A definition whose game prints a reference sheet (printgen.layout.reference).

    `designer` and `publisher` are who the game's source rules name (empty when they name nobody):
    every document prints them (`credit_line`) and a PDF's Author is the designer."""

    designer: Annotated[str, Field(max_length=80, description="who the source rules name as the game's "
                                   "designer; empty when they name nobody")] = ""
    publisher: Annotated[str, Field(max_length=80, description="the publisher the source rules name, "
                                    "with its year; empty when they name none")] = ""
    credited_as: Annotated[str, Field(max_length=40, description="the words before the designer's name, "
                                      "in the source's own terms: 'Game design:' or 'Contributed by'")] = "Game design:"
    reference: ReferenceSettings = Field(default_factory=ReferenceSettings)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def credit_line(self) -> str:
        """Who made the game, as every document of it prints it."""
        if not self.designer:  # nothing to print: a player needs no note that the source names nobody
            return ""
        made = f"{self.credited_as} {self.designer}."
        return f"{made} Published by {self.publisher}." if self.publisher else made

    @computed_field  # type: ignore[prop-decorator]
    @property
    def ruling_key(self) -> str:
        """The one line each document prints, once, to explain the mark on the edition's clarifications."""
        return RULING_KEY


class WithRulebook(WithReference):
    """A definition whose game prints a rulebook (printgen.layout.rulebook) besides its reference."""

    rules: RulebookSettings = Field(default_factory=RulebookSettings)
    booklet: Booklet = False
