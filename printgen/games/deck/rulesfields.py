"""The deck definition's `rules:` and `reference:` keys: a Markdown file beside it, written alone
(`rules: rules.md`) or with how its text is set (`rules: {file: rules.md, columns: 2}`)."""
from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, model_validator

from printgen.art.library import FileName
from printgen.core.fields import Strict
from printgen.drawing import style

Accent = Annotated[str, Field(pattern=r"^#[0-9A-Fa-f]{6}$", description="colour of headings, table heads "
                                                                        "and example bars, #rrggbb")]


class RulesText(Strict):
    """A Markdown file and how it is set; a plain file name is `{file: NAME}`."""

    file: Annotated[FileName, Field(description="a Markdown file beside the definition, such as rules.md; "
                                                "Jinja in it sees the definition and the cards' rows")]
    columns: Annotated[int, Field(ge=1, le=3, description="text columns on each page (or each half)")] = 2
    accent: Accent = style.DEFAULT_ACCENT

    @model_validator(mode="before")
    @classmethod
    def file_alone(cls, value: Any) -> Any:
        return {"file": value} if isinstance(value, str) else value


def file_alone_too(schema: dict[str, Any]) -> None:
    """The key's JSON schema takes a plain file name as well as the mapping, as the model does, so
    editors accept `rules: rules.md`."""
    schema["anyOf"].insert(0, {"type": "string", "minLength": 1, "maxLength": 300,
                               "description": "a Markdown file beside the definition, such as rules.md"})


class RulebookText(RulesText):
    text_size_pt: Annotated[float, Field(ge=9, le=12, allow_inf_nan=False,
                                         description="body text size in points")] = style.RULES_PT


class ReferenceText(RulesText):
    text_size_pt: Annotated[float, Field(ge=9, le=12, allow_inf_nan=False,
                                         description="body text size in points")] = style.REFERENCE_PT
