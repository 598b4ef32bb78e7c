"""Jinja templates for printed text, searched in the user's folders before the bundled ones.

Templates may come from a shared homebrew set, so they run in Jinja's sandbox, and every value a
template inserts is escaped (the output is reportlab paragraph markup, which is XML-like).
"""
from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

from jinja2 import FileSystemLoader, StrictUndefined, TemplateError, TemplateSyntaxError
from jinja2.sandbox import SandboxedEnvironment

from .problems import DefinitionError, Problem, display_name


def bundled_dir() -> Path:
    return Path(str(resources.files("printgen.templates")))


def environment(user_dirs: Iterable[Path] = ()) -> SandboxedEnvironment:
    search = [str(p) for p in user_dirs] + [str(bundled_dir())]
    return SandboxedEnvironment(loader=FileSystemLoader(search), autoescape=True,
                                undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                                keep_trailing_newline=True)


def render(name: str, context: dict[str, Any], user_dirs: Iterable[Path] = ()) -> str:
    """Render template `name`; any template problem becomes a located DefinitionError."""
    env = environment(user_dirs)
    try:
        return env.get_template(name).render(**context)
    except TemplateSyntaxError as exc:
        file = display_name(Path(exc.filename)) if exc.filename else name
        raise DefinitionError([Problem(file, exc.lineno or 1, "", f"template error: {exc.message}")])
    except TemplateError as exc:
        file, line = template_frame(name)
        raise DefinitionError([Problem(file, line, "", f"template error: {exc}")])


def template_frame(name: str) -> tuple[str, int]:
    """The template file and line where the current exception was raised (Jinja keeps them)."""
    tb = sys.exc_info()[2]
    found = (name, 1)
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith((".j2", ".jinja")) or name in filename:
            found = (display_name(Path(filename)), tb.tb_lineno)
        tb = tb.tb_next
    return found
