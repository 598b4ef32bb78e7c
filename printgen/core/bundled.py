"""The bundled games' ids and definition files, known without importing any game or the registry
(printgen.games, which brings in pydantic and the YAML reader): a command resolves GAME to a file
before its worker loads anything."""
from __future__ import annotations

import os
from pathlib import Path

GAME_MODULES = ["one_minute_war", "fracas", "quick_violence", "armies", "omiga", "deck"]


def game_ids() -> list[str]:
    """The bundled games' ids: each game's module under printgen.games is named after it."""
    return list(GAME_MODULES)


def games_folder() -> Path:
    """printgen/games, as the import system found it (the same path importlib.resources gives)."""
    import printgen

    return Path(os.path.dirname(str(printgen.__file__))) / "games"


def bundled_definition(game_id: str) -> Path:
    return games_folder() / game_id / f"{game_id}.yaml"
