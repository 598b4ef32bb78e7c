"""Where printgen's bundled files live (card_defs/, templates/), known without importing any game,
so a command resolves GAME to a file before its worker loads anything. They sit at the checkout's
top and inside the package when installed (pyproject.toml maps them).
"""
from __future__ import annotations

import os
from pathlib import Path

GAME_MODULES = ["one_minute_war", "fracas", "quick_violence", "armies", "omiga", "deck"]
DEFINITIONS = "card_defs"  # a bundled game's definition is card_defs/<id>.yaml
TEMPLATES = "templates"  # a bundled game's templates are templates/<id>/*.j2


def game_ids() -> list[str]:
    return list(GAME_MODULES)


def bundled_root() -> Path:
    """The package when installed, else the checkout above it; the package first, so a stray
    `templates` folder in site-packages is never taken for printgen's."""
    import printgen

    package = Path(os.path.dirname(str(printgen.__file__)))
    return package if (package / DEFINITIONS).is_dir() else package.parent


def definitions_folder() -> Path:
    """card_defs/: every bundled definition, and the files they name."""
    return bundled_root() / DEFINITIONS


def templates_folder() -> Path:
    return bundled_root() / TEMPLATES


def bundled_definition(game_id: str) -> Path:
    return definitions_folder() / f"{game_id}.yaml"


def shown_name(path: Path) -> str | None:
    """A bundled file by its place in the repository, wherever installed; None if not bundled."""
    for folder in (DEFINITIONS, TEMPLATES):
        try:
            return f"{folder}/{path.relative_to(bundled_root() / folder).as_posix()}"
        except ValueError:
            continue
    return None
