"""The `printgen` command line."""
from __future__ import annotations

import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any

import click

from printgen import __version__
from printgen.core.atomic import WriteFailed, write_bytes
from printgen.cli.types import FiniteRange
from printgen.core.build import BuildOptions
from printgen.games import Game, bundled_definition, game_entry, game_ids, output_name, registry
from printgen.core.yamlread import read_yaml
from printgen.core.paper import PAPERS
from printgen.cli.common import EXIT_BAD_INPUT, fail, parse_offset, resolve
from printgen.core.problems import DefinitionError, Problem, display_name
from printgen.cli.workflow import (MAX_BLEED_MM, back_offset_for, build_games, calibrate_command,
                                   export_command, preview_command, write_results)



class Commands(click.Group):
    """printgen's command group: a file that cannot be written (a read-only or missing folder, a
    file in the way, a full disk) is a plain message and exit code 2 from every command."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except WriteFailed as exc:
            click.echo(f"printgen: {exc}; no half-written file was left under its name", err=True)
            ctx.exit(EXIT_BAD_INPUT)


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="printgen")
def cli() -> None:
    """Build print-and-play PDFs and SVGs from YAML game definitions.

    Every PDF prints at exact physical size: print it at "Actual size" (100 %), never "Fit to page".
    """


@cli.command("list")
def list_games() -> None:
    """List the bundled games, the files each one builds, and which ones `export` takes."""
    for game in registry().values():
        click.echo(f"{game.id}  ({game.title})")
        for item in game.makes:
            click.echo(f"    {item}")
        if game.pieces is not None:
            click.echo(f"    printgen export {game.id} --print-shop | --tts: its pieces one by one")
        if game.validator is not None:
            click.echo(f"    printgen validate {game.id}: checks that its tile set plays")


@cli.command()
@click.argument("games", nargs=-1, metavar="[GAME ...]")
@click.option("--paper", type=click.Choice(sorted(PAPERS)), default="a4", show_default=True,
              help="Paper size to print on.")
@click.option("--flip", type=click.Choice(["long", "short"]), default="long", show_default=True,
              help="Which edge your printer turns the sheet over for two-sided printing.")
@click.option("--back-offset", "back_offset", default=None, callback=lambda c, p, v: None if v is None
              else parse_offset(c, p, v), metavar="X,Y",
              help="Shift the back side by X,Y mm (x right, y up, as the back page is viewed) to "
                   "cancel your printer's two-sided misregistration. Default: the offset saved by "
                   "`printgen calibrate --save`, else 0,0.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
              show_default=True, help="Folder to write into; each game gets a sub-folder.")
@click.option("--templates", "template_dirs", multiple=True,
              type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="A folder of your own templates, searched before the bundled ones (repeatable).")
@click.option("--allow-outside", is_flag=True,
              help="Let a definition use art, fonts and templates from outside its own folder.")
@click.option("--bleed", type=FiniteRange(0, MAX_BLEED_MM), default=None, metavar="MM",
              help="Run the art of imposed pieces (Omiga tiles, Fracas tokens) MM past their cut "
                   "lines; the PDF gets a TrimBox and a BleedBox. Overrides the definition's bleed.")
@click.option("--watch", is_flag=True,
              help="Keep running: rebuild whenever the definition, its art or a template changes "
                   "(Ctrl-C stops).")
def build(games: tuple[str, ...], paper: str, flip: str, back_offset: tuple[float, float] | None,
          out_dir: Path, template_dirs: tuple[Path, ...], allow_outside: bool, bleed: float | None,
          watch: bool) -> None:
    """Build GAME (a bundled game id or a definition .yaml); with no GAME, build them all.

    Output goes to OUT/<game>/, the main PDF as <game>.pdf. Nothing is written unless every
    requested game builds.
    """
    paths = [resolve(g) for g in games] or [bundled_definition(g) for g in game_ids()]
    try:
        offset = back_offset_for(back_offset, flip)  # type: ignore[arg-type]
    except DefinitionError as exc:  # a broken config file
        fail(exc)
    options = BuildOptions(PAPERS[paper], flip, offset, template_dirs, bleed)  # type: ignore[arg-type]
    if bleed is not None:
        for path in paths:
            game = game_of(path)
            if game is not None and not game.bleed:
                click.echo(f"printgen: --bleed: {game.title} has no imposed pieces; its files have no "
                           "bleed", err=True)
    if watch:
        watch_builds(paths, options, out_dir, allow_outside)
        return
    try:
        results = build_games(paths, options, allow_outside)
    except DefinitionError as exc:
        fail(exc)
    write_results(results, out_dir)


def game_of(path: Path) -> Game | None:
    """The game a definition names, or None if it cannot tell (the build will say why)."""
    try:
        data, _ = read_yaml(path)
    except DefinitionError:
        return None
    game_id = data.get("game") if isinstance(data, dict) else None
    return game_entry(game_id) if isinstance(game_id, str) and game_id in game_ids() else None


WATCH_INTERVAL = 0.5  # s between looks at the files


def watch_builds(paths: list[Path], options: BuildOptions, out_dir: Path, allow_outside: bool,
                 **loop: Any) -> int:
    """Build now and after every change until Ctrl-C; a broken definition is reported and waited
    on, never the end of the run. `loop` passes test settings (interval, max_rounds, should_stop)
    through to printgen.watch.watch."""
    from printgen.cli.watch import watch, watched

    def rebuild(changed: list[Path]) -> None:
        if changed:
            names = ", ".join(display_name(p) for p in changed[:3]) + (" ..." if len(changed) > 3 else "")
            click.echo(f"printgen: changed: {names}; rebuilding", err=True)
        try:
            write_results(build_games(paths, options, allow_outside), out_dir)
        except DefinitionError as exc:
            report = exc.report()
            click.echo(report, err=True)
            count = report.count("\n") + 1
            click.echo(f"printgen: {count} problem{'s' if count != 1 else ''} found; nothing was written. "
                       "Watching for changes...", err=True)
        else:
            click.echo("printgen: watching for changes (Ctrl-C stops)", err=True)

    loop.setdefault("interval", WATCH_INTERVAL)
    try:
        return watch(lambda: watched(paths, options.templates), rebuild, **loop)
    except KeyboardInterrupt:
        click.echo("printgen: stopped watching.", err=True)
        return 0


EXIT_INVALID = 1
PROGRESS_FROM = 2000  # games; shorter runs finish before a bar would help


@cli.command("validate")
@click.argument("target", metavar="PATH")
@click.option("--games", type=click.IntRange(1, 1_000_000), default=None,
              help="Games to simulate (default: validation.games in the definition).")
@click.option("--seed", type=click.IntRange(0, 2**31), default=None,
              help="Seed for the simulation (default: validation.seed); same seed, same numbers.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON for machines.")
@click.option("--show", is_flag=True, help="Also write an SVG and a PNG of one simulated end position.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
              show_default=True, help="Folder for --show; the pictures go in OUT/<name>/.")
def validate_command(target: str, games: int | None, seed: int | None, as_json: bool, show: bool,
                     out_dir: Path) -> None:
    """Check a tile set (a bundled game id or a definition .yaml) and report every problem.

    Exit status: 0 valid, 1 the set has problems, 2 the definition cannot be read.
    """
    path = resolve(target)
    able = [g for g in registry().values() if g.validator is not None]
    game = game_of(path) or able[0]  # a file that names no game: its validator says what is wrong
    try:
        if game.validator is None:
            raise DefinitionError([Problem(display_name(path), 1, "game", f"validate checks the "
                                           f"sets of {', '.join(g.id for g in able)}; this is a "
                                           f"{game.title} definition")])
        tv = game.validator()  # imported only now: only this command needs the simulation
        defn, source = tv.read(path)
    except DefinitionError as exc:
        if as_json:
            click.echo(json.dumps({"file": str(path), "readable": False, "valid": False, "problems": [
                {"file": p.file, "line": p.line, "path": p.path, "message": p.message} for p in exc.problems]},
                indent=2))
        fail(exc)
    total = games if games is not None else tv.simulated_games(defn)
    if total >= PROGRESS_FROM:
        with click.progressbar(length=total, label="Simulating games", file=sys.stderr) as bar:
            report = tv.check_set(defn, source, games, seed, bar.update)
    else:
        report = tv.check_set(defn, source, games, seed)
    click.echo(report.as_json() if as_json else report.as_text())
    if show:
        from printgen.output.writers import write  # reportlab's canvas, only when a board is drawn

        documents = tv.show_documents(report, seed)
        for doc in documents:
            write_bytes(out_dir / output_name(path) / doc.name, write(doc))
            click.echo(f"wrote {out_dir / output_name(path) / doc.name}", err=True)
        if not documents:
            click.echo("--show: no board drawn; fix the structure problems first", err=True)
    sys.exit(0 if report.valid else EXIT_INVALID)


from printgen.cli.homebrew import new_command, schema_command  # noqa: E402 - they build on this module's group

cli.add_command(new_command)
cli.add_command(schema_command)
cli.add_command(preview_command)
cli.add_command(calibrate_command)
cli.add_command(export_command)


def main() -> None:
    """Entry point: bad input never shows a traceback; a real bug says how to report it."""
    try:
        cli(standalone_mode=True)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        click.echo("printgen: interrupted; files already written are complete.", err=True)
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - the last line of defence for users
        if os.environ.get("PRINTGEN_DEBUG"):
            traceback.print_exc()
        click.echo(f"printgen: internal error: {type(exc).__name__}: {exc}\n"
                   "This is a bug in printgen; set PRINTGEN_DEBUG=1 to see the details.", err=True)
        sys.exit(3)


if __name__ == "__main__":
    main()
