"""`printgen new GAME DIR`: start a game of your own from a bundled one.

The copy is named after DIR so it builds into output/<DIR's name>/, never over the bundled game's files.
"""
from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import click

from printgen.cli.common import EXIT_BAD_INPUT
from printgen.core.atomic import write_bytes
from printgen.core.bundled import definitions_folder
from printgen.core.problems import display_name
from printgen.games import bundled_definition, game_entry, game_ids, output_name, registry
from printgen.jinja.render import bundled_dir

TEMPLATE_FOLDER = "templates"
TEMPLATES_LINE = re.compile(r"^#\s?templates:.*$", re.M)  # the commented-out key in bundled YAMLs
# a game whose copy starts from a smaller definition than its bundled sample (in card_defs/)
STARTERS = {"deck": "starters/deck.yaml"}


def game_choice(value: str) -> str:
    games = registry()
    if value not in games:
        raise click.BadParameter(f"expected a bundled game: {', '.join(games)} (got '{value}')",
                                 param_hint="GAME")
    return value


def starter(game_id: str) -> Path:
    """The definition `new` copies: the game's starter when it has one, else its bundled definition."""
    if game_id in STARTERS:
        return definitions_folder() / STARTERS[game_id]
    return bundled_definition(game_id)


def own_name_in_header(text: str, bundled: str, own: str) -> str:
    """The leading comment names the copy's own file, not the bundled one it was made from."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if not line.startswith(("#", "%")) and line.strip() not in ("", "---"):
            break
        if line.startswith("#"):  # `printgen build deck.yaml` quoted for a shell if need be
            lines[i] = re.sub(rf"(printgen build )?(?<![\w.-]){re.escape(bundled)}",
                              lambda m: f"printgen build {shlex.quote(own)}" if m.group(1) else own, line)
    return "".join(lines)


def copied_definition(game_id: str, with_templates: bool, own: str | None = None) -> bytes:
    """The bundled YAML (or the game's starter), unchanged except that its header names `own`, the
    copy's file name, and that `--templates` switches its `templates:` key on."""
    definition = starter(game_id)
    text = definition.read_text(encoding="utf-8")
    if own is not None:
        text = own_name_in_header(text, definition.name, own)
    if with_templates:
        key = f"templates: {TEMPLATE_FOLDER}/"
        text, found = TEMPLATES_LINE.subn(key, text, count=1)
        if not found:
            text = text.rstrip("\n") + ("\n\n# Your own copies of the templates; a file there "
                                        f"replaces the bundled one.\n{key}\n")
    return text.encode("utf-8")


def copy_name(folder: Path) -> str:
    """The copy's file stem, which names its output folder: DIR's own name."""
    return folder.resolve().name


def planned_files(game_id: str, folder: Path, with_templates: bool) -> list[tuple[Path, bytes]]:
    """Every file `new` writes, decided before anything is written: the definition, the files beside
    it that it names, and with `--templates` the game's templates."""
    definition = starter(game_id)
    own = f"{copy_name(folder)}.yaml"
    files = [(folder / own, copied_definition(game_id, with_templates, own))]
    named = files_named_beside(definition)
    files += [(folder / path.name, path.read_bytes()) for path in named]
    if with_templates:
        source = bundled_dir() / game_id
        for template in sorted(set(source.glob("*.j2")) - {p for p in named}):
            files.append((folder / TEMPLATE_FOLDER / game_id / template.name, template.read_bytes()))
    return files


def files_named_beside(definition: Path) -> list[Path]:
    """The files beside a bundled definition that it names: its art, its rows of data (a workbook
    named with its sheet, `cards.xlsx#Ships`, too)."""
    from printgen.core.textcheck import strings
    from printgen.core.yamlread import read_yaml

    home = definition.parent.resolve()
    names = {value.partition("#")[0] for _, value in strings(read_yaml(definition)[0])
             if len(value) < 100 and value.isprintable()}
    return sorted(home / name for name in names if name and not name.endswith(".py") and "/" not in name
                  and (home / name).is_file())


@click.command("new")
@click.argument("game", metavar="GAME")
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=False, path_type=Path))
@click.option("--templates", "with_templates", is_flag=True,
              help="Also copy the game's templates (rules, reference and piece drawings) into "
                   "DIR/templates/ and use them.")
@click.option("--force", is_flag=True, help="Replace files that already exist in DIR.")
def new_command(game: str, folder: Path, with_templates: bool, force: bool) -> None:
    """Start your own version of GAME in DIR: a copy of its definition, ready to edit.

    The copy, DIR/<DIR's name>.yaml, keeps the comments that explain each key; it builds into
    output/<DIR's name>/. Existing files are never replaced unless --force is given.
    """
    game_choice(game)
    name = copy_name(folder)
    if output_name(Path(f"{name}.yaml")) in game_ids():
        raise click.BadParameter(f"a copy in a folder named '{name}' would build into "
                                 f"output/{name}/, over the bundled game's files; choose another "
                                 "name, such as my_" + name, param_hint="DIR")
    files = planned_files(game, folder, with_templates)
    taken = [path for path, _ in files if path.exists()]
    if taken and not force:
        for path in taken:
            click.echo(f"{display_name(path)}: already exists; pass --force to replace it", err=True)
        click.echo("printgen: nothing was written.", err=True)
        sys.exit(EXIT_BAD_INPUT)
    for path, data in files:
        write_bytes(path, data)
        click.echo(f"wrote {display_name(path)}")
    definition = display_name(files[0][0])
    click.echo(f"Edit {definition}, then: printgen build {definition}")
    if game_entry(game).validator is not None:
        click.echo(f"Check that it plays, before you print it: printgen validate {definition}")
