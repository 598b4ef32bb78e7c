"""The keys every game's definition starts with, declared once.

Each game narrows `game` to its id (a `Literal`), so a definition can never validate as another."""
from __future__ import annotations

from typing import Annotated

from pydantic import Field

from printgen.art.library import TemplateFolder
from printgen.core.fields import Name, Strict
from printgen.layout.reference import ReferenceSettings
from printgen.layout.rulebook import RulebookSettings

Credit = Annotated[str, Field(max_length=120, description="who made the game, printed in small type")]


class Definition(Strict):
    game: str
    title: Name
    credit: Credit = ""
    templates: TemplateFolder = None


class WithReference(Definition):
    """A definition whose game prints a reference sheet (printgen.layout.reference)."""

    reference: ReferenceSettings = Field(default_factory=ReferenceSettings)


class WithRulebook(WithReference):
    """A definition whose game prints a rulebook (printgen.layout.rulebook) besides its reference."""

    rules: RulebookSettings = Field(default_factory=RulebookSettings)
