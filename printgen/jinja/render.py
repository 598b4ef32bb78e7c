"""Jinja templates for printed text, searched in the user's folders before the bundled ones.

Templates may come from a shared homebrew set, so they run in Jinja's sandbox (no attribute that
starts with `_`, no Python internals), and every value a template inserts is escaped: `.txt`
templates make reportlab paragraph markup, and `.svg`/`.xml` templates make XML, so an `&` or `<` in
a YAML value must never become markup. Any failure while rendering (a syntax error, an undefined
name, a refused attribute, even a division by zero) becomes a `file:line` problem in the template.
"""
from __future__ import annotations

import re
from collections import OrderedDict
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from jinja2 import StrictUndefined, TemplateError, TemplateNotFound, TemplateSyntaxError
from jinja2.bccache import Bucket, BytecodeCache
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup, escape

from printgen.core.bounded import Budget, BudgetExceeded, run_bounded, start_bounded
from printgen.core.bundled import templates_folder
from printgen.core.fingerprint import caching_off
from printgen.drawing.markup import line_of, markup_problem
from printgen.jinja import ahead
from printgen.jinja.plaindata import plain
from printgen.core.problems import DefinitionError, Problem, display_name
from printgen.jinja.sandbox import BoundedSandbox, ConfinedLoader


def bundled_dir() -> Path:
    return templates_folder()  # templates/<game>/: the bundled templates (printgen.core.bundled)


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


def environment(user_dirs: Iterable[Path] = (), inline_values: bool = False) -> SandboxedEnvironment:
    """The sandbox for one render. `inline_values` (printgen's text markup): every inserted value
    stays inside its line and cannot start a heading, bullet or command (see `inline`)."""
    search = [str(p) for p in user_dirs] + [str(bundled_dir())]
    # BoundedSandbox (printgen.jinja.sandbox) also caps steps, sizes and output; it counts per instance,
    # so each render gets a fresh one
    return BoundedSandbox(loader=ConfinedLoader(search, (str(bundled_dir()),)), autoescape=autoescape,
                          undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                          keep_trailing_newline=True, bytecode_cache=None if caching_off() else COMPILED,
                          **({"finalize": inline} if inline_values else {}))


class CompiledTemplates(BytecodeCache):
    """The compiled code of printgen's own templates, kept in this process's memory only (never on
    disk, never from a child: a child's copy goes with it), by the kind of environment, the
    template's name and file, and (Jinja's own check) its source's digest.

    Each render gets a fresh sandbox, so without this every bounded child parsed and compiled its
    template again: some 10 to 25 ms of the child's 20 to 60 ms after an edit in `build --watch`.
    `compile_bundled` fills it before the fork, for templates printgen ships only, so a child
    inherits the code; a user's template is still parsed and compiled in the child, in its budget."""

    MAX_ENTRIES = 64

    def __init__(self) -> None:
        self.kept: OrderedDict[str, bytes] = OrderedDict()

    def get_bucket(self, environment: Any, name: str, filename: str | None, source: str) -> Bucket:
        # the code depends on the environment's options (finalize: printgen's text markup) too
        bucket = Bucket(environment, self.key_for(environment, name, filename), self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def key_for(self, environment: Any, name: str, filename: str | None) -> str:
        kind = (type(environment).__qualname__, environment.finalize is not None, environment.trim_blocks,
                environment.lstrip_blocks, environment.keep_trailing_newline)
        return self.get_cache_key(f"{kind!r}\x00{name}", filename)

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.kept.get(bucket.key)
        if code is not None:
            self.kept.move_to_end(bucket.key)
            bucket.bytecode_from_string(code)  # a checksum that differs leaves the bucket empty

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.kept[bucket.key] = bucket.bytecode_to_string()
        self.kept.move_to_end(bucket.key)
        while len(self.kept) > self.MAX_ENTRIES:
            self.kept.popitem(last=False)


COMPILED = CompiledTemplates()


def compile_bundled(name: str, user_dirs: Iterable[Path] = ()) -> None:
    """Compile template `name` here, before a bounded child renders it, when the search finds it
    among printgen's own templates (trusted code); the child then finds it in COMPILED. Anything
    else, and any failure, is left to the child, which reports it where it happens."""
    if caching_off():
        return
    asked = (name, tuple(str(folder) for folder in user_dirs))
    done = _ASKED.get(asked)
    if done is not None and done[0] is COMPILED and done[1] in COMPILED.kept:
        return  # its code is kept: were the file edited since, the child would compile it itself
    env = environment(user_dirs, inline_values=kind_of(name) == "txt")
    try:
        _, filename, _ = env.loader.get_source(env, name)  # type: ignore[union-attr]
        if not Path(str(filename)).resolve().is_relative_to(bundled_dir().resolve()):
            return
        env.get_template(name)
    except Exception:  # noqa: BLE001 - the child meets the same failure and places it
        return
    if len(_ASKED) >= CompiledTemplates.MAX_ENTRIES:
        _ASKED.clear()
    _ASKED[asked] = (COMPILED, COMPILED.key_for(env, name, filename))


# what compile_bundled compiled in this process: (the memory it went into, the key of its code)
_ASKED: dict[tuple[str, tuple[str, ...]], tuple[Any, str]] = {}


# Line breaks of every kind str.splitlines knows: any of them would end a line of printgen's markup.
LINE_BREAKS = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]+")
# A line of printgen's markup that starts with one of these is a heading, subtitle, bullet or
# command; as a character reference the same character prints, but no longer starts anything.
MARKERS = {"#": "&#35;", "%": "&#37;", "-": "&#45;", "@": "&#64;"}


def inline(value: Any) -> Markup:
    """A value inserted into printgen's text markup: escaped, line breaks folded to spaces, and a
    leading marker character written as a character reference, so a value (a credit holding a line
    break and '@newpage', a name starting with '# ') can never introduce markup."""
    text = LINE_BREAKS.sub(" ", str(value if isinstance(value, Markup) else escape(value)))
    body = text.lstrip()
    if body[:1] in MARKERS:
        text = text[:len(text) - len(body)] + MARKERS[body[0]] + body[1:]
    return Markup(text)


TEMPLATE_BUDGET = Budget(seconds=4.0, memory=256 * 1024 * 1024, what="the template")
SOFT_DEADLINE = 0.85  # of the budget: the render stops itself then, so the message can name a line


def render(name: str, context: dict[str, Any], user_dirs: Iterable[Path] = ()) -> str:
    """Render template `name` with plain data only, in a child process under TEMPLATE_BUDGET; any
    template problem, a broken budget included, becomes a located DefinitionError. A text
    rendered before from the same templates and data is taken from `jinja.textcache`."""
    from printgen.jinja import textcache

    folders = list(user_dirs)
    data = plain(context)  # built here, so the child never holds more than plain data either
    key = textcache.key_of(name, data, folders, bundled_dir())
    if key is not None:
        known = textcache.recall(key)
        if known is not None:
            return known
        batch = ahead.waiting(key)
        known = None if batch is None else batch.text(key)
        if known is not None:
            textcache.remember(key, known)
            return known
    compile_bundled(name, folders)
    try:
        text = run_bounded(lambda: render_here(name, data, folders), TEMPLATE_BUDGET)
    except BudgetExceeded as exc:  # the child was killed inside a single long step
        raise DefinitionError([Problem(*template_file(name, folders), "", f"template error: {exc}")])
    if not isinstance(text, str):
        raise RuntimeError(f"the template {name} came back as {type(text).__name__}")
    if key is not None:
        textcache.remember(key, text)
    return text


@contextmanager
def rendering_ahead(requests: Sequence[tuple[str, dict[str, Any]]],
                    user_dirs: Iterable[Path] = ()) -> Iterator[None]:
    """While the `with` body runs, the texts `requests` name (template, context) that are not kept
    yet are rendered in one bounded child beside it (`printgen.jinja.ahead`), so the renders the
    body asks for later wait less, or not at all. The child is ended when the body ends."""
    from printgen.jinja import textcache

    folders = list(user_dirs)
    wanted: list[tuple[str, str, dict[str, Any]]] = []
    for name, context in requests:
        data = plain(context)
        key = textcache.key_of(name, data, folders, bundled_dir())
        if key is None or textcache.recall(key) is not None or ahead.waiting(key) is not None or \
                any(key == k for k, _, _ in wanted):
            continue
        compile_bundled(name, folders)
        wanted.append((key, name, data))
    if not wanted:
        yield
        return
    items = [(name, data) for _, name, data in wanted]
    batch = ahead.Batch(start_bounded(lambda: rendered_or_none(items, folders), batch_budget(len(items))),
                        [key for key, _, _ in wanted])
    ahead.add(batch)
    try:
        yield
    finally:
        batch.close()


def rendered_or_none(items: list[tuple[str, dict[str, Any]]], user_dirs: list[Path]) -> list[str | None]:
    """In the bounded child: each template rendered with its data, or None where it failed (the
    render asked for later meets the failure again, alone, and reports it)."""
    texts: list[str | None] = []
    for name, data in items:
        try:
            texts.append(render_here(name, data, user_dirs))
        except Exception:  # noqa: BLE001 - told by the render that asks for it
            texts.append(None)
    return texts


def render_here(name: str, context: dict[str, Any], user_dirs: list[Path]) -> str:
    """Render in this process (the bounded child); every failure is a located DefinitionError."""
    return render_each(name, [context], user_dirs, TEMPLATE_BUDGET.seconds)[0]


PER_RENDER = 0.02  # s each further render of one template adds to a batch's budget (a piece: ~1 ms)
MAX_BATCH_SECONDS = 60.0


def batch_budget(count: int, per_item: float = PER_RENDER, what: str = "the template") -> Budget:
    """The budget of one child rendering a template `count` times: the single render's budget plus a
    little for each further one, never more than a minute."""
    seconds = min(MAX_BATCH_SECONDS, TEMPLATE_BUDGET.seconds + max(count - 1, 0) * per_item)
    return Budget(seconds=seconds, memory=TEMPLATE_BUDGET.memory, what=what)


def render_many(name: str, contexts: Sequence[dict[str, Any]], user_dirs: Iterable[Path] = (),
                labels: Sequence[str] = (), common: dict[str, Any] | None = None) -> list[str]:
    """Template `name` rendered once for each context (plain data only), all in ONE bounded child:
    the pieces of a game (72 tiles, faces and backs) cost one fork, not one each. `common` is data
    every render sees too (the definition as `d`), copied once. A failure is a located
    DefinitionError, its message naming the piece (`labels[i]`) it was rendered for."""
    folders = list(user_dirs)
    data = [plain(context) for context in contexts]
    shared = plain(common or {})
    budget = batch_budget(len(data))
    compile_bundled(name, folders)
    try:
        texts = run_bounded(lambda: render_each(name, data, folders, budget.seconds, labels, shared), budget)
    except BudgetExceeded as exc:
        raise DefinitionError([Problem(*template_file(name, folders), "", f"template error: {exc}")])
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise RuntimeError(f"the template {name} came back as {type(texts).__name__}")
    return texts


def render_each(name: str, contexts: Sequence[dict[str, Any]], user_dirs: list[Path], seconds: float,
                labels: Sequence[str] = (), common: dict[str, Any] | None = None) -> list[str]:
    """Render `name` for every context (over `common`) in this process (a bounded child); the
    sandbox's step budget starts afresh for each, and the whole batch stops itself at
    SOFT_DEADLINE of `seconds`."""
    env = environment(user_dirs, inline_values=kind_of(name) == "txt")
    texts: list[str] = []
    with soft_deadline(seconds * SOFT_DEADLINE, seconds):
        for index, context in enumerate(contexts):
            label = labels[index] if index < len(labels) else ""
            with located(env, name, label):
                env.steps = 0  # type: ignore[attr-defined]  # BoundedSandbox's per-render budget
                text = env.get_template(name).render({**(common or {}), **context})  # compiled once
                if kind_of(name) == "txt":  # paragraph markup: only harmless tags may reach reportlab
                    check_markup(env, name, text)  # inside the deadline's reach, so it is located too
            texts.append(text)
    return texts


@contextmanager
def located(env: Any, name: str, label: str = "") -> Iterator[None]:
    """Turn any failure of a render into a DefinitionError at the template's file and line; `label`
    names the piece being rendered, when there are many."""
    to = f" (for {label})" if label else ""
    try:
        yield
    except DefinitionError:
        raise
    except TemplateSyntaxError as exc:
        file = display_name(Path(exc.filename)) if exc.filename else name
        raise DefinitionError([Problem(file, exc.lineno or 1, "", f"template error: {exc.message}")])
    except TemplateNotFound as exc:
        file, line = template_frame(name)
        raise DefinitionError([Problem(file, line, "", f"template error: no template called "
                                       f"'{exc.name}' in {searched(env.loader.searchpath)}")])
    except RecursionError:
        file, line = template_frame(name)
        raise DefinitionError([Problem(file, line, "", f"template error{to}: the template calls itself "
                                       "without end")])
    except MemoryError:
        file, line = template_frame(name)
        raise DefinitionError([Problem(file, line, "", "template error: the template needed more "
                                       f"than {TEMPLATE_BUDGET.memory // 2**20} MiB of memory, the "
                                       "most printgen allows; make it smaller")])
    except Exception as exc:  # noqa: BLE001 - a user's template may fail in any way; say where
        file, line = template_frame(name)
        raise DefinitionError([Problem(file, line, "", f"template error{to}: {describe(exc)}")])


class OutOfTime(TemplateError):
    """Raised inside a render when its soft deadline passes, so the traceback names the line."""


@contextmanager
def soft_deadline(seconds: float, budget: float = TEMPLATE_BUDGET.seconds) -> Iterator[None]:
    """Interrupt Python-level work after `seconds` (the parent's hard deadline, `budget`, still
    stands, and is the figure the message gives)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise OutOfTime(f"the template took more than {budget:g} s, the most "
                        f"printgen allows; make it simpler")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


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
