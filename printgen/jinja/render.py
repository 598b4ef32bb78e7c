"""Jinja templates for printed text, searched in the user's folders before the bundled ones.

Templates may come from strangers, so they run in the bounded sandbox and every inserted value is
escaped (`.md` for Markdown, `.svg` for XML); any failure becomes a `file:line` problem.
"""
from __future__ import annotations

import difflib
import re
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from jinja2 import StrictUndefined, TemplateError, TemplateNotFound, TemplateSyntaxError
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup, escape

from printgen.core.bundled import templates_folder
from printgen.jinja.plaindata import plain
from printgen.core.problems import DefinitionError, Problem, display_name
from printgen.jinja.sandbox import MAX_RENDER_BYTES, BoundedSandbox, ConfinedLoader


def bundled_dir() -> Path:
    return templates_folder()  # templates/<game>/: the bundled templates (printgen.core.bundled)


def autoescape(name: str | None) -> bool:
    """Whether a template's inserted values are escaped: in every kind of file it makes (svg, xml,
    txt, html or any other)."""
    return True


def environment(user_dirs: Iterable[Path] = (), markdown_values: bool = False) -> SandboxedEnvironment:
    """A new sandbox over the user's folders, then the bundled ones, made for one render or one batch
    of renders (`render_each`) and dropped after it, so no step counter and no parsed template
    outlives the work it was made for (a build parses a template again in its next render: a few
    milliseconds, where a cache kept across builds saved none a person feels, benchmarks/notes.md);
    `markdown_values` makes each inserted value plain words in Markdown (see `markdown_value`)."""
    search = [*(str(p) for p in user_dirs), str(bundled_dir())]
    return BoundedSandbox(loader=ConfinedLoader(search, (str(bundled_dir()),)), autoescape=autoescape,
                          undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                          keep_trailing_newline=True, **({"finalize": markdown_value} if markdown_values else {}))


# Line breaks of every kind str.splitlines knows: any of them could start a new Markdown block.
LINE_BREAKS = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]+")
PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation mark, which Markdown may read


def markdown_value(value: Any) -> Markup:
    """A value as plain words in Markdown: on one line, every punctuation mark backslash-escaped, so a
    name or credit can never start a heading, list, table, emphasis, link, picture or HTML
    (a credit holding a line break and '# Hacked', a name written '*Ransom*')."""
    text = value.unescape() if isinstance(value, Markup) else str(value)
    return Markup(PUNCTUATION.sub(r"\\\1", LINE_BREAKS.sub(" ", text)))


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
    env = environment(user_dirs, markdown_values=kind_of(name) == "md")
    texts: list[str] = []
    with soft_deadline(seconds * SOFT_DEADLINE, seconds):
        for index, context in enumerate(contexts):
            label = labels[index] if index < len(labels) else ""
            with located(env, name, label):
                env.fresh()  # type: ignore[attr-defined]  # BoundedSandbox's per-render budgets
                text = env.get_template(name).render({**(common or {}), **context})  # compiled once a batch
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


def line_of(source: str, snippet: str) -> int:
    """The 1-based line of the template source where `snippet` (or its first tag) appears, else 1."""
    for probe in (snippet, (TAG.search(snippet) or re.search("", snippet)).group(0)):  # type: ignore[union-attr]
        if probe:
            index = source.find(probe)
            if index >= 0:
                return source.count("\n", 0, index) + 1
    return 1


TAG = re.compile(r"<\s*(/?)\s*([A-Za-z][\w:.-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>")


def source_line(name: str, user_dirs: list[Path], rendered: str, line: int, snippet: str = "") -> tuple[str, int]:
    """Where line `line` of `rendered` (template `name`'s output) was written: the template's file
    and line, found by lining the output up with the source (Jinja keeps no such map)."""
    file, _ = template_file(name, user_dirs)
    env = environment(user_dirs)
    try:
        source = env.loader.get_source(env, name)[0]  # type: ignore[union-attr]
    except Exception:  # noqa: BLE001 - then the rendered line is the best we have
        return file, line
    return file, aligned_line(source, rendered, line, snippet)


def aligned_line(source: str, rendered: str, line: int, snippet: str = "") -> int:
    """The source line that made `rendered`'s line `line` (1-based): the same line where the two
    match; inside a stretch the template changed, the line there that holds `snippet`, else the one
    most like the rendered line."""
    ours, theirs = source.splitlines(), rendered.splitlines()
    literal = re.sub(r"\{#.*?#\}|\{%.*?%\}", lambda m: "\n" * m.group().count("\n"), source, flags=re.S)
    words = [re.sub(r"\{\{.*?\}\}", "", text) for text in literal.split("\n")]  # what a line prints as written
    target = line - 1
    matcher = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if not j1 <= target < max(j2, j1 + 1) or (j1 == j2 and tag != "equal"):
            continue
        if tag == "equal":
            return i1 + (target - j1) + 1
        wanted = theirs[target] if target < len(theirs) else ""
        lines = [i for i in range(i1, max(i2, i1 + 1)) if i < len(ours)]
        hits = [i for i in lines if snippet and snippet.strip() in ours[i]]
        if hits or lines:
            return (hits or sorted(lines, key=lambda i: -likeness(words[i] if i < len(words) else "", wanted)))[0] + 1
        return min(i1, max(len(ours) - 1, 0)) + 1
    return min(line, max(len(ours), 1))


def likeness(words: str, rendered: str) -> float:
    """How much of a source line's own words a rendered line holds (0 for a line that prints nothing)."""
    return difflib.SequenceMatcher(None, words, rendered, autojunk=False).ratio() if words.strip() else -1.0


def kind_of(name: str) -> str:
    return name.lower().removesuffix(".j2").removesuffix(".jinja").rsplit(".", 1)[-1]


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
