"""The table of games printgen can build, each a `GAME` entry with its model, checks and build.

Nothing is written to disk until every game has built, so a bad definition leaves no half output."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Protocol, Sequence

from pydantic import BaseModel

from printgen.core.build import Artifact, BuildOptions, output_name  # output_name: for the commands too
from printgen.core.bundled import GAME_MODULES, bundled_definition, game_ids  # the registry's names too
from printgen.core.problems import DefinitionError, MarkdownProblems, Problem
from printgen.core.source import Loc, SourceMap
from printgen.core.validation import shorten, validate
from printgen.core.yamlread import read_yaml

if TYPE_CHECKING:
    from printgen.art.library import ArtLibrary
    from printgen.drawing.document import Document, Growing


class Validator(Protocol):
    """A game's set validator (the `validate` capability), imported only when the command runs."""

    def read(self, path: Path, allow_outside: bool = False) -> tuple[Any, SourceMap]: ...
    def check_set(self, defn: Any, source: SourceMap, games: int | None = None,
                  seed: int | None = None, progress: Callable[[int], None] | None = None) -> Any: ...
    def show_documents(self, report: Any, seed: int | None = None) -> list[Document]: ...
    def simulated_games(self, defn: Any, games: int | None = None) -> int: ...


class ReplayReport(Protocol):
    """What `printgen replay` prints, and the move the rules refused (None: the record plays)."""

    @property
    def forbidden(self) -> Problem | None: ...
    def as_text(self) -> str: ...
    def as_json(self) -> str: ...


class Replayer(Protocol):
    """A game's replay of recorded games (the `replay` capability), imported only when it runs."""

    def read(self, path: Path) -> tuple[Any, SourceMap]: ...
    def replay(self, defn: Any, record: Path) -> ReplayReport: ...


@dataclass(frozen=True)
class Game:
    """A bundled game; commands ask for a capability (`pieces`, `validator`...), never for an id."""

    id: str
    title: str
    makes: list[str]
    model: type[BaseModel]
    build: Callable[[Any, BuildOptions, "Loaded"], Sequence[Document | Growing]]  # every document, in the order listed
    checks: tuple[Callable[[Any], Iterable[tuple[Loc, str]]], ...] = field(default=())
    # capability: the game's separate pieces for `printgen export` (layout.cards)
    pieces: Callable[["Loaded", BuildOptions], list[Any]] | None = None
    # capability: its imposed sheets take `--bleed`
    bleed: bool = False
    # capability: sheets of cards from rows of data, which take `--layout`, `--rows` and `--guides`
    cards: bool = False
    # the papers its sheets are laid out for (printgen.core.paper.SHEET_PAPERS names them all)
    papers: tuple[str, ...] = ("a4", "letter")
    # capability: `printgen validate` checks its sets; a function importing the validator on demand
    validator: Callable[[], Validator] | None = None
    # capability: `printgen replay` plays its recorded games; a function importing the replayer
    replayer: Callable[[], Replayer] | None = None


def registry() -> dict[str, Game]:
    """Every bundled game, importing all their code (`game_ids` and `game_entry` import less)."""
    return {game_id: game_entry(game_id) for game_id in GAME_MODULES}


def game_entry(game_id: str) -> Game:
    """One bundled game, importing only its own modules (a build of one game loads no other)."""
    return import_module(f"{__name__}.{game_id}.game").GAME


def art_module() -> Any:
    """printgen.art, imported lazily: `printgen --help` and `list` never need reportlab."""
    from printgen.art import library as art

    return art


@dataclass(frozen=True)
class Loaded:
    game: Game
    definition: Any
    path: Path
    name: str  # output folder and file stem
    source: SourceMap  # locates build-time problems (such as text that does not fit) in the YAML
    art: ArtLibrary = field(default_factory=lambda: art_module().ArtLibrary())  # images, fonts, templates
    allow_outside: bool = False  # files outside the definition's folder may be read (--allow-outside)

    @property
    def title(self) -> str:
        """The title the definition gives (a deck's own name), which is the game's for a bundled one."""
        return str(getattr(self.definition, "title", "") or self.game.title)

    def build(self, options: BuildOptions) -> list[Artifact]:
        """The game's documents, laid out and written in memory (printgen.output.writers)."""
        from printgen.drawing.checks import unchecked_shapes
        from printgen.drawing.document import Document
        from printgen.layout.paging import laid_out  # layout and writers import reportlab
        from printgen.output.writers import write_all

        if self.art.templates is not None:  # after --templates folders, before the bundled ones
            options = replace(options, templates=(*options.templates, self.art.templates))
        try:
            with unchecked_shapes():
                documents = self.game.build(self.definition, options, self)
                for item in documents:  # every document of a game names its designer, if any
                    document = item if isinstance(item, Document) else item.document
                    document.author = document.author or str(getattr(self.definition, "designer", ""))
                # each growing document laid out (its pages found), then written, on the core that takes it
                return write_all(documents, self.source, options.scratch, laid_out)
        except MarkdownProblems as exc:  # the one place a rules text's problems are placed in its template
            from printgen.jinja.render import source_line

            folders = list(options.templates)
            raise DefinitionError([Problem(*source_line(exc.source, folders, exc.text, p.line, p.snippet), "",
                                           p.message) for p in exc.problems]) from None


def load(path: Path, allow_outside: bool = False, checks: bool = True) -> Loaded:
    """Read a definition, find its game by `game`, validate it; outside files need `allow_outside`."""
    data, source = read_yaml(path)
    return load_read(path, data, source, allow_outside, checks)


def load_read(path: Path, data: Any, source: SourceMap, allow_outside: bool = False,
              checks: bool = True) -> Loaded:
    """`load` for a definition already read (a command that looked at it first)."""
    if not isinstance(data, dict):
        got = "an empty file" if data is None else shorten(data)
        raise DefinitionError([Problem(source.file, 1, "", f"expected a mapping of keys at the top "
                                       f"level, starting with a line such as 'game: fracas' (got {got})")])
    game_id = data.get("game")
    if not isinstance(game_id, str) or game_id not in GAME_MODULES:  # a list or mapping is not hashable
        got = "nothing" if game_id is None else shorten(game_id)
        raise DefinitionError([source.problem(("game",), f"expected one of: {', '.join(GAME_MODULES)} "
                                              f"(got {got})")])
    game = game_entry(game_id)
    art = art_module().ArtContext(path.parent, allow_outside)  # this build's art, read after validation
    model = validate(game.model, data, source, game.checks if checks else (),
                     load=partial(art_module().load_files, context=art))
    return Loaded(game, model, path, output_name(path), source, art.library, allow_outside)


def read_as(path: Path, game_id: str, purpose: str, allow_outside: bool = False) -> tuple[Any, SourceMap]:
    """A definition for a one-game command, loaded as `build` loads it but without the game's
    checks, which the command reports as findings; another game's file is a located problem."""
    data, source = read_yaml(path)
    if isinstance(data, dict) and data.get("game") != game_id:
        got = "nothing" if data.get("game") is None else shorten(data.get("game"))
        raise DefinitionError([source.problem(("game",), f"{purpose}, so expected game: {game_id} (got {got})")])
    return load_read(path, data, source, allow_outside, checks=False).definition, source


