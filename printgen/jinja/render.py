"""Jinja templates for printed text, searched in the user's folders before the bundled ones.

Templates may come from strangers, so they run in the bounded sandbox and every inserted value is
escaped (`.txt` makes paragraph markup, `.svg` XML); any failure becomes a `file:line` problem.
"""
from __future__ import annotations

import re
import signal
import sys
import threading
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from jinja2 import StrictUndefined, TemplateError, TemplateNotFound, TemplateSyntaxError
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup, escape

from printgen.core.bundled import templates_folder
from printgen.drawing.markup import line_of, markup_problem
from printgen.jinja.plaindata import plain
from printgen.core.problems import DefinitionError, Problem, display_name
from printgen.jinja.sandbox import MAX_RENDER_BYTES, BoundedSandbox, ConfinedLoader


def bundled_dir() -> Path:
    return templates_folder()  # templates/<game>/: the bundled templates (printgen.core.bundled)


def autoescape(name: str | None) -> bool:
    """Whether a template's inserted values are escaped: in every kind of file it makes (svg, xml,
    txt, html or any other)."""
    return True


def environment(user_dirs: Iterable[Path] = (), inline_values: bool = False) -> SandboxedEnvironment:
    """The sandbox, one per folders and switch so Jinja's cache parses each template once;
    `inline_values` keeps each inserted value inside its line of printgen's markup (see `inline`)."""
    return sandbox(tuple(str(p) for p in user_dirs), inline_values)


@lru_cache(maxsize=8)
def sandbox(user_dirs: tuple[str, ...], inline_values: bool) -> SandboxedEnvironment:
    search = [*user_dirs, str(bundled_dir())]
    return BoundedSandbox(loader=ConfinedLoader(search, (str(bundled_dir()),)), autoescape=autoescape,
                          undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                          keep_trailing_newline=True, **({"finalize": inline} if inline_values else {}))


# Line breaks of every kind str.splitlines knows: any of them would end a line of printgen's markup.
LINE_BREAKS = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]+")
# Characters that start a markup line, and references that print the same without starting one.
MARKERS = {"#": "&#35;", "%": "&#37;", "-": "&#45;", "@": "&#64;"}


def inline(value: Any) -> Markup:
    """A value escaped, on one line and without a leading marker, so it can never introduce markup
    (a credit holding a line break and '@newpage', a name starting with '# ')."""
    text = LINE_BREAKS.sub(" ", str(value if isinstance(value, Markup) else escape(value)))
    body = text.lstrip()
    if body[:1] in MARKERS:
        text = text[:len(text) - len(body)] + MARKERS[body[0]] + body[1:]
    return Markup(text)


TEMPLATE_SECONDS = 4.0  # one render's time limit; a batch of renders gets a little more for each
TEMPLATE_MEMORY = MAX_RENDER_BYTES  # bytes: what the message for a template out of memory names
SOFT_DEADLINE = 0.85  # of the time limit: the render stops itself then, so the message can name a line


def render(name: str, context: dict[str, Any], user_dirs: Iterable[Path] = ()) -> str:
    """Render `name` with plain data in the sandbox; any problem becomes a located DefinitionError."""
    return render_each(name, [plain(context)], list(user_dirs), TEMPLATE_SECONDS)[0]


def render_each(name: str, contexts: Sequence[dict[str, Any]], user_dirs: list[Path], seconds: float,
                labels: Sequence[str] = (), common: dict[str, Any] | None = None) -> list[str]:
    """Render `name` for every context (over `common`), each with fresh budgets, the batch stopping
    at SOFT_DEADLINE of `seconds`; a failure names the piece (`labels[i]`) it was rendered for."""
    env = environment(user_dirs, inline_values=kind_of(name) == "txt")
    texts: list[str] = []
    with soft_deadline(seconds * SOFT_DEADLINE, seconds):
        for index, context in enumerate(contexts):
            label = labels[index] if index < len(labels) else ""
            with located(env, name, label):
                env.fresh()  # type: ignore[attr-defined]  # BoundedSandbox's per-render budgets
                text = env.get_template(name).render({**(common or {}), **context})  # compiled once
                if kind_of(name) == "txt":  # paragraph markup: only harmless tags may reach reportlab
                    check_markup(env, name, text)  # inside the deadline's reach, so it is located too
            texts.append(text)
    return texts


@contextmanager
def located(env: Any, name: str, label: str = "") -> Iterator[None]:
    """Any failure of a render as a DefinitionError at the template's file and line."""
    to = f" (for {label})" if label else ""
    try:
        yield
    except DefinitionError:
        raise
    except TemplateSyntaxError as exc:
        file = display_name(Path(exc.filename)) if exc.filename else name
        raise DefinitionError([Problem(file, exc.lineno or 1, "", f"template error: {exc.message}")])
    except Exception as exc:  # noqa: BLE001 - a user's template may fail in any way; say where
        file, line = template_frame(name)
        if isinstance(exc, TemplateNotFound):
            message = f"template error: no template called '{exc.name}' in {searched(env.loader.searchpath)}"
        elif isinstance(exc, RecursionError):
            message = f"template error{to}: the template calls itself without end"
        elif isinstance(exc, MemoryError):
            message = (f"template error: the template needed more than {TEMPLATE_MEMORY // 2**20} MiB of "
                       "memory, the most printgen allows; make it smaller")
        else:
            message = f"template error{to}: {describe(exc)}"
        raise DefinitionError([Problem(file, line, "", message)])


class OutOfTime(TemplateError):
    """Raised inside a render when its soft deadline passes, so the traceback names the line."""


@contextmanager
def soft_deadline(seconds: float, budget: float = TEMPLATE_SECONDS) -> Iterator[None]:
    """Interrupt Python-level work after `seconds` of processor time (not wall time, so a busy
    machine never cuts a render short that an idle one finishes); the message names `budget`."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise OutOfTime(f"the template took more than {budget:g} s, the most "
                        f"printgen allows; make it simpler")

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def template_file(name: str, user_dirs: list[Path], snippet: str = "") -> tuple[str, int]:
    """Where template `name` lives, as a message's file and line: the line holding `snippet`, or 1."""
    env = environment(user_dirs)
    try:
        source, filename, _ = env.loader.get_source(env, name)  # type: ignore[union-attr]
    except Exception:  # noqa: BLE001 - then the name as written is the best we have
        return name, 1
    return display_name(Path(str(filename))), line_of(source, snippet) if snippet else 1


def kind_of(name: str) -> str:
    return name.lower().removesuffix(".j2").removesuffix(".jinja").rsplit(".", 1)[-1]


def check_markup(env: Any, name: str, text: str) -> None:
    """A located template error for markup reportlab must not see (printgen.drawing.markup says why)."""
    found = markup_problem(text)
    if found is None:
        return
    snippet, reason = found
    source, filename, _ = env.loader.get_source(env, name)
    raise DefinitionError([Problem(display_name(Path(filename)), line_of(source, snippet), "",
                                   f"template error: {reason}")])


def searched(folders: list[str]) -> str:
    """The template folders for a message, the bundled one by name (its path differs by machine)."""
    bundled = str(bundled_dir())
    return ", ".join("printgen's own templates" if f == bundled else display_name(Path(f)) for f in folders)


def describe(exc: Exception) -> str:
    """Jinja's own message, or the kind of Python error for anything else (1/0, 'a' + 1)."""
    if isinstance(exc, TemplateError):  # "'printgen.games.m.Omiga object' has" -> "'Omiga' has"
        return re.sub(r"'(?:\w+\.)+(\w+) object'", r"'\1'", str(exc))
    return f"{type(exc).__name__}: {exc}"


def template_frame(name: str) -> tuple[str, int]:
    """The template file and line of the current exception: the innermost frame Jinja marks as a
    template's, even inside an included template."""
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
