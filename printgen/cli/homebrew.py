"""Homebrew: start a game of your own from a bundled one, and describe definitions for editors.

`printgen new GAME DIR` copies the bundled definition byte for byte (its comments explain every
key), and with `--templates` the game's rules templates too, switching on the definition's
`templates:` key so the copies are used. `printgen schema [GAME]` writes the JSON Schema of the
definitions, which YAML editors use for completion and inline errors.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Annotated, Any, Union

import click
from pydantic import Field, TypeAdapter

from printgen.core.atomic import write_bytes
from printgen.games import bundled_definition, game_entry, registry
from printgen.core.problems import display_name
from printgen.jinja.render import bundled_dir

EXIT_BAD_INPUT = 2
TEMPLATE_FOLDER = "templates"
# Draft 7: the newest draft yaml-language-server (VS Code's YAML support) reads in full; nothing
# pydantic emits for these models needs a later one ($defs is only where the $refs point).
SCHEMA_DIALECT = "http://json-schema.org/draft-07/schema#"
TEMPLATES_LINE = re.compile(r"^#\s?templates:.*$", re.M)  # the commented-out key in bundled YAMLs


def game_choice(value: str) -> str:
    games = registry()
    if value not in games:
        raise click.BadParameter(f"expected a bundled game: {', '.join(games)} (got '{value}')",
                                 param_hint="GAME")
    return value


def copied_definition(game_id: str, with_templates: bool) -> bytes:
    """The bundled YAML, unchanged except that `--templates` switches its `templates:` key on."""
    text = bundled_definition(game_id).read_text(encoding="utf-8")
    if with_templates:
        key = f"templates: {TEMPLATE_FOLDER}/"
        text, found = TEMPLATES_LINE.subn(key, text, count=1)
        if not found:
            text = text.rstrip("\n") + ("\n\n# Your own copies of the rules templates; a file there "
                                        f"replaces the bundled one.\n{key}\n")
    return text.encode("utf-8")


def planned_files(game_id: str, folder: Path, with_templates: bool) -> list[tuple[Path, bytes]]:
    """Every file `new` writes, and its content, decided before anything is written."""
    files = [(folder / f"{game_id}.yaml", copied_definition(game_id, with_templates))]
    if with_templates:
        source = bundled_dir() / game_id
        for template in sorted(source.glob("*.j2")):
            files.append((folder / TEMPLATE_FOLDER / game_id / template.name, template.read_bytes()))
    return files


@click.command("new")
@click.argument("game", metavar="GAME")
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=False, path_type=Path))
@click.option("--templates", "with_templates", is_flag=True,
              help="Also copy the game's rules templates into DIR/templates/ and use them.")
@click.option("--force", is_flag=True, help="Replace files that already exist in DIR.")
def new_command(game: str, folder: Path, with_templates: bool, force: bool) -> None:
    """Start your own version of GAME in DIR: a copy of its definition, ready to edit.

    The copy keeps the comments that explain each key. Build it with
    `printgen build DIR/GAME.yaml`. Existing files are never replaced unless --force is given.
    """
    game_choice(game)
    files = planned_files(game, folder, with_templates)
    taken = [path for path, _ in files if path.exists()]
    if taken and not force:
        for path in taken:
            click.echo(f"{display_name(path)}: already exists; pass --force to replace it", err=True)
        click.echo("printgen: nothing was written.", err=True)
        sys.exit(EXIT_BAD_INPUT)
    for path, data in files:
        write_or_fail(path, data)
        click.echo(f"wrote {display_name(path)}")
    definition = display_name(files[0][0])
    click.echo(f"Edit {definition}, then: printgen build {definition}")
    if game_entry(game).validator is not None:
        click.echo(f"Check your tile set with: printgen validate {definition}")


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
        write_or_fail(out_file, text.encode("utf-8"))
        click.echo(f"wrote {display_name(out_file)}", err=True)


def write_or_fail(path: Path, data: bytes) -> None:
    """Write a file atomically; a folder that cannot be written is a plain message, exit 2."""
    try:
        write_bytes(path, data)
    except OSError as exc:
        click.echo(f"{display_name(path)}: cannot write ({exc.strerror or exc})", err=True)
        sys.exit(EXIT_BAD_INPUT)
