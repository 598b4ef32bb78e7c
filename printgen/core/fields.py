"""Field types every game definition shares; `Strict` forbids unknown keys and type coercion."""
from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


HexColour = Annotated[str, Field(pattern=r"^#[0-9A-Fa-f]{6}$",
                                 description="a colour as #rrggbb, e.g. '#b03a2e'")]
Name = Annotated[str, Field(min_length=1, max_length=24)]
Short = Annotated[str, Field(min_length=1, max_length=40)]
Cell = Annotated[str, Field(min_length=1, max_length=400, description="text printed in a table cell")]
