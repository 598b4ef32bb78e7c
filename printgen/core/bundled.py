"""Where printgen's bundled files live: the games' ids, their definitions (card_defs/) and their
templates (templates/), known without importing any game or the registry (printgen.games, which
brings in pydantic and the YAML reader): a command resolves GAME to a file before its worker loads
anything.

This is the one module that knows the layout. In the source checkout (and an editable install,
which runs it) card_defs/ and templates/ sit at the repository's top, beside printgen/, where a
person changing a card's art or a rules text looks for them; an installed printgen has them inside
the package (card_defs/ and templates/ in its folder), because pyproject.toml maps the packages
`printgen.card_defs` and `printgen.templates` onto those top-level folders.
"""
from __future__ import annotations

import os
from pathlib import Path

GAME_MODULES = ["one_minute_war", "fracas", "quick_violence", "armies", "omiga", "deck"]
DEFINITIONS = "card_defs"  # a bundled game's definition is card_defs/<id>.yaml
TEMPLATES = "templates"  # a bundled game's templates are templates/<id>/*.j2


def game_ids() -> list[str]:
    """The bundled games' ids: each game's module under printgen.games is named after it."""
    return list(GAME_MODULES)


def bundled_root() -> Path:
    """The folder holding card_defs/ and templates/: the package itself when installed, else (the
    source checkout) the folder above it. The package is looked in first, so a stray top-level
    `templates` folder in site-packages is never taken for printgen's."""
    import printgen

    package = Path(os.path.dirname(str(printgen.__file__)))
    return package if (package / DEFINITIONS).is_dir() else package.parent


def definitions_folder() -> Path:
    """card_defs/: every bundled definition, and beside them the files they name (the sample
    deck's cards.csv, flask.svg and back.svg.j2), found as a user's definition finds its own."""
    return bundled_root() / DEFINITIONS


def templates_folder() -> Path:
    """templates/: the bundled templates, one folder per game, searched after the user's."""
    return bundled_root() / TEMPLATES


def bundled_definition(game_id: str) -> Path:
    return definitions_folder() / f"{game_id}.yaml"


def shown_name(path: Path) -> str | None:
    """A bundled file as messages show it, by its place in the repository (`templates/fracas/
    token-back.svg.j2`), wherever printgen is installed; None for a file that is not bundled."""
    for folder in (DEFINITIONS, TEMPLATES):
        try:
            return f"{folder}/{path.relative_to(bundled_root() / folder).as_posix()}"
        except ValueError:
            continue
    return None
