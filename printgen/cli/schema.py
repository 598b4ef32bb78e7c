"""`printgen schema [GAME]`: the JSON Schema of the definitions, for YAML editors' completion."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Union

import click
from pydantic import Field, TypeAdapter

from printgen.cli.new import game_choice
from printgen.core.atomic import write_bytes
from printgen.core.problems import display_name
from printgen.games import registry

# the newest draft yaml-language-server (VS Code) reads in full; nothing here needs a later one
SCHEMA_DIALECT = "http://json-schema.org/draft-07/schema#"


def schema_for(game_id: str | None) -> dict[str, Any]:
    """The JSON Schema of one game's definition, or of any definition (chosen by its `game` key)."""
    games = registry()
    if game_id is not None:
        schema = games[game_id].model.model_json_schema()
        title = f"printgen definition: {games[game_id].title}"
    else:
        models = tuple(game.model for game in games.values())
        # a union built at run time from the registry, which no static type can name
        union: Any = Annotated[Union[models], Field(discriminator="game")]
        adapter: TypeAdapter[Any] = TypeAdapter(union)
        schema = adapter.json_schema()
        title = "printgen definition (any bundled game, chosen by its `game` key)"
    return {"$schema": SCHEMA_DIALECT, "title": title, **{k: v for k, v in schema.items() if k != "title"}}


@click.command("schema")
@click.argument("game", metavar="[GAME]", required=False)
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the schema to this file instead of printing it.")
def schema_command(game: str | None, out_file: Path | None) -> None:
    """Write the JSON Schema of GAME's definitions (of every game's, without GAME).

    Point your editor's YAML support at it for completion and inline errors, e.g. with a first line
    `# yaml-language-server: $schema=one_minute_war.schema.json` in the definition.
    """
    if game is not None:
        game_choice(game)
    text = json.dumps(schema_for(game), indent=2, ensure_ascii=False) + "\n"
    if out_file is None:
        click.echo(text, nl=False)
    else:
        write_bytes(out_file, text.encode("utf-8"))
        click.echo(f"wrote {display_name(out_file)}", err=True)
