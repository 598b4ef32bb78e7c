"""Jinja templates for printed text, searched in the user's folders before the bundled ones.

Templates may come from a shared homebrew set, so they run in Jinja's sandbox (no attribute that
starts with `_`, no Python internals), and every value a template inserts is escaped: `.txt`
templates make reportlab paragraph markup, and `.svg`/`.xml` templates make XML, so an `&` or `<` in
a YAML value must never become markup. Any failure while rendering (a syntax error, an undefined
name, a refused attribute, even a division by zero) becomes a `file:line` problem in the template.
"""
from __future__ import annotations

import re
import sys
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

from jinja2 import StrictUndefined, TemplateNotFound, TemplateSyntaxError
from jinja2.sandbox import SandboxedEnvironment

from .problems import DefinitionError, Problem, display_name
from .markup import line_of, markup_problem
from .sandbox import BoundedSandbox, ConfinedLoader


def bundled_dir() -> Path:
    return Path(str(resources.files("printgen.templates")))


# Whether values are escaped, by the kind of file a template makes (its name without `.j2`).
# `.txt` templates make reportlab paragraph markup, which is XML-like, so all of these escape;
# a kind not listed escapes too, so leaving values raw would take a deliberate entry here.
AUTOESCAPE = {"svg": True, "xml": True, "txt": True, "html": True}


def autoescape(name: str | None) -> bool:
    """Jinja's autoescape switch, decided by the template's file kind (see AUTOESCAPE)."""
    if name is None:
        return True
    kind = name.lower().removesuffix(".j2").removesuffix(".jinja").rsplit(".", 1)[-1]
    return AUTOESCAPE.get(kind, True)


def environment(user_dirs: Iterable[Path] = ()) -> SandboxedEnvironment:
    search = [str(p) for p in user_dirs] + [str(bundled_dir())]
    # BoundedSandbox (printgen.sandbox) also caps steps, sizes and output; it counts per instance,
    # so each render gets a fresh one
    return BoundedSandbox(loader=ConfinedLoader(search), autoescape=autoescape,
                          undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                          keep_trailing_newline=True)


def render(name: str, context: dict[str, Any], user_dirs: Iterable[Path] = ()) -> str:
    """Render template `name`; any template problem becomes a located DefinitionError."""
    env = environment(user_dirs)
    try:
        text = env.get_template(name).render(**context)
    except TemplateSyntaxError as exc:
        file = display_name(Path(exc.filename)) if exc.filename else name
        raise DefinitionError([Problem(file, exc.lineno or 1, "", f"template error: {exc.message}")])
    except TemplateNotFound as exc:
        file, line = template_frame(name)
        raise DefinitionError([Problem(file, line, "", f"template error: no template called "
                                       f"'{exc.name}' in {searched(env.loader.searchpath)}")])  # type: ignore[union-attr]
    except RecursionError:
        file, line = template_frame(name)
        raise DefinitionError([Problem(file, line, "", "template error: the template calls itself "
                                       "without end")])
    except Exception as exc:  # noqa: BLE001 - a user's template may fail in any way; say where
        file, line = template_frame(name)
        raise DefinitionError([Problem(file, line, "", f"template error: {describe(exc)}")])
    if kind_of(name) == "txt":  # paragraph markup: only harmless tags may reach reportlab
        check_markup(env, name, text)
    return text


def kind_of(name: str) -> str:
    return name.lower().removesuffix(".j2").removesuffix(".jinja").rsplit(".", 1)[-1]


def check_markup(env: Any, name: str, text: str) -> None:
    """A located template error for markup reportlab must not see (printgen.markup says why)."""
    found = markup_problem(text)
    if found is None:
        return
    snippet, reason = found
    source, filename, _ = env.loader.get_source(env, name)
    raise DefinitionError([Problem(display_name(Path(filename)), line_of(source, snippet), "",
                                   f"template error: {reason}")])


def searched(folders: list[str]) -> str:
    """The template folders for a message: the user's as given, the bundled one by name (not by a
    path that differs from machine to machine)."""
    bundled = str(bundled_dir())
    return ", ".join("printgen's own templates" if f == bundled else display_name(Path(f)) for f in folders)


def describe(exc: Exception) -> str:
    """Jinja's own message, or the kind of Python error for anything else (1/0, 'a' + 1)."""
    from jinja2 import TemplateError

    if isinstance(exc, TemplateError):  # "'printgen.games.m.Omiga object' has" -> "'Omiga' has"
        return re.sub(r"'(?:\w+\.)+(\w+) object'", r"'\1'", str(exc))
    return f"{type(exc).__name__}: {exc}"


def template_frame(name: str) -> tuple[str, int]:
    """The template file and line where the current exception was raised.

    Jinja rewrites the traceback so each template frame carries the template's file name and line
    (its fake frames hold `__jinja_exception__`; compiled template code holds `__jinja_template__`).
    The innermost one is where the problem is, even inside an included template.
    """
    tb = sys.exc_info()[2]
    found = (name, 1)
    while tb is not None:
        frame = tb.tb_frame
        if "__jinja_exception__" in frame.f_globals or "__jinja_template__" in frame.f_globals:
            filename = frame.f_code.co_filename
            if filename and not filename.startswith("<"):
                found = (display_name(Path(filename)), tb.tb_lineno)
        tb = tb.tb_next
    return found
