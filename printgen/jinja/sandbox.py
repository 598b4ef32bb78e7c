"""A Jinja sandbox with limits, for templates that come from strangers.

Jinja's sandbox blocks Python internals but not `range(10**9)`-style work or `'x' * 10**9`-style
data. This one bounds steps, value sizes, output, template size and location, and what a template
sees of the definition; a breach raises `SecurityError`. Limits are in SECURITY.md.
"""
from __future__ import annotations

import inspect
import os
import re
from pathlib import Path
from functools import wraps
from string import Formatter
from typing import Any, Callable, Iterable, Iterator

from jinja2 import Environment, FileSystemLoader, nodes, pass_eval_context
from jinja2.exceptions import SecurityError, TemplateNotFound
from jinja2.nodes import EvalContext
from jinja2.runtime import Context, markup_join, str_join
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.visitor import NodeTransformer
from pydantic import BaseModel

from printgen.core.bounded import memory_in_use

MAX_STEPS = 1_000_000  # loop iterations, calls, filters and operators in one render
MAX_TEXT = 200_000  # characters in any one value and in the output (a rules text is ~20,000)
MAX_ITEMS = 10_000  # items in a list, a range or a padded width
MAX_BITS = 4096  # an integer result larger than this many bits is surely a mistake
MAX_TEMPLATE_BYTES = 256 * 1024
MAX_RENDER_BYTES = 256 * 1024 * 1024  # how far one render may grow the process's resident memory
PROBE_STEPS = 100  # steps between two looks at the resident memory (some 10 us each, on Linux)
UNSAFE_MODULES = ("os", "posix", "io", "pathlib", "shutil", "subprocess", "socket", "sys")
WIDTH_METHODS = {"center", "ljust", "rjust", "zfill"}  # str methods whose argument is a width
FORMAT_NUMBER = re.compile(r"\d+")
PERCENT_SPEC = re.compile(r"%(?:\([^)]*\))?([-#0 +]*[\d*]*(?:\.[\d*]*)?)[a-zA-Z%]")

# filter -> its parameters that count items or characters of the result
FILTER_COUNTS = {"center": ("width",), "indent": ("width",), "batch": ("linecount",),
                 "slice": ("slices",), "truncate": ("length", "leeway"), "wordwrap": ("width",),
                 "tojson": ("indent",), "replace": ("count",)}
CONTEXT_PARAMETERS = ("environment", "env", "eval_ctx", "context")


def user_signature(function: Callable[..., Any]) -> inspect.Signature | None:
    """A filter's parameters as a template passes them, without Jinja's environment or context."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    parameters = list(signature.parameters.values())
    if parameters and parameters[0].name in CONTEXT_PARAMETERS:
        signature = signature.replace(parameters=parameters[1:])
    return signature


def bind(signature: inspect.Signature | None, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    """Arguments by parameter name; empty when they do not fit (the filter then refuses them)."""
    if signature is None:
        return dict(kwargs)
    try:
        return dict(signature.bind(*args, **kwargs).arguments)
    except TypeError:
        return {}


def refuse(message: str) -> SecurityError:
    return SecurityError(f"{message} (a limit of printgen's template sandbox)")


class Guarded(NodeTransformer):
    """Routes every for-loop's items and every `~` concatenation through the environment."""

    def visit_For(self, node: nodes.For) -> nodes.Node:
        self.generic_visit(node)
        node.iter = nodes.Call(nodes.EnvironmentAttribute("pg_loop"), [node.iter], [], None, None,
                               lineno=node.lineno)
        return node

    def visit_Concat(self, node: nodes.Concat) -> nodes.Node:
        self.generic_visit(node)
        return nodes.Call(nodes.EnvironmentAttribute("pg_join"), [nodes.List(node.nodes, lineno=node.lineno)],
                          [], None, None, lineno=node.lineno)


class ConfinedLoader(FileSystemLoader):
    """Reads only real files inside its folders, up to a size; in `code_folders` (printgen's own
    templates/) only `.j2` files are templates."""

    def __init__(self, searchpath: list[str], code_folders: tuple[str, ...] = ()) -> None:
        super().__init__(searchpath)
        self.code_folders = tuple(os.path.realpath(folder) for folder in code_folders)

    def get_source(self, environment: Any, template: str) -> tuple[str, str, Callable[[], bool]]:
        if not template.endswith(".j2"):
            for folder in self.code_folders:
                if os.path.isfile(os.path.join(folder, template)):
                    raise TemplateNotFound(template)
        source, filename, uptodate = super().get_source(environment, template)
        real = os.path.realpath(filename)
        folders = [os.path.realpath(folder) for folder in self.searchpath]
        if not any(os.path.commonpath([real, folder]) == folder for folder in folders):
            raise refuse(f"{unresolved(filename)} is a link to a file outside the template "
                         f"folders; copy the file into the folder instead")
        if len(source.encode("utf-8")) > MAX_TEMPLATE_BYTES:
            raise refuse(f"the template {template} is over {MAX_TEMPLATE_BYTES // 1024} KiB")
        return source, filename, lambda: uptodate() and unchanged(filename, source)


def unchanged(filename: str, source: str) -> bool:
    """Whether the file still holds `source` (Jinja's mtime check misses an edit in the same tick)."""
    try:
        with open(filename, encoding="utf-8") as file:
            return file.read(MAX_TEMPLATE_BYTES + 1) == source
    except (OSError, ValueError):
        return False


def unresolved(filename: str) -> str:
    """The path as the user wrote it (relative to the working folder when inside it), links kept."""
    path = Path(filename).absolute()
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox plus the budgets above; `fresh()` resets them before a render."""

    intercepted_binops = frozenset({"*", "**", "+", "%"})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.steps = 0
        self.base = 0  # the resident memory when the render began (see `charge`)
        self.probe = PROBE_STEPS  # the step at which the memory is looked at next
        self.globals["range"] = self.bounded_range
        self.globals.pop("lipsum", None)
        self.filters = {name: self.guard_filter(name, f) for name, f in self.filters.items()}
        self.filters["random"] = self.no_random
        self.concat = self.bounded_concat  # type: ignore[method-assign]
        self.pg_loop = self.counted
        self.pg_join = self.make_join()

    # -- the budget -------------------------------------------------------------------------------
    def fresh(self) -> None:
        self.steps = 0
        self.base = memory_in_use(resident=True)
        self.probe = PROBE_STEPS

    def charge(self, steps: int = 1) -> None:
        """Count steps; every PROBE_STEPS, a MemoryError if the render grew the process past
        MAX_RENDER_BYTES (values each within MAX_TEXT can still add up)."""
        self.steps += steps
        if self.steps > MAX_STEPS:
            raise refuse(f"the template ran more than {MAX_STEPS:,} steps (loops inside loops?)")
        if self.steps >= self.probe:
            self.probe = self.steps + PROBE_STEPS
            if memory_in_use(resident=True) - self.base > MAX_RENDER_BYTES:
                raise MemoryError(f"the template grew printgen by more than {MAX_RENDER_BYTES // 2**20} MiB")

    def check(self, value: Any) -> Any:
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise refuse(f"the template made a text of {len(value):,} characters; at most {MAX_TEXT:,}")
        if isinstance(value, (list, tuple, dict, set)) and len(value) > MAX_ITEMS:
            raise refuse(f"the template made {len(value):,} items; at most {MAX_ITEMS:,}")
        if isinstance(value, int) and value.bit_length() > MAX_BITS:
            raise refuse(f"the template made a number of {value.bit_length():,} bits; at most {MAX_BITS}")
        return value

    def counted(self, iterable: Iterable[Any]) -> Iterator[Any]:
        for item in iterable:
            self.charge()
            yield item

    def bounded_range(self, *args: int) -> range:
        numbers = range(*args)
        if len(numbers) > MAX_ITEMS:
            raise refuse(f"range() of {len(numbers):,} numbers; at most {MAX_ITEMS:,}")
        return numbers

    def bounded_concat(self, parts: Iterable[str]) -> str:
        """Every buffer Jinja joins (the output, macros, `{% set %}` blocks), checked as it grows."""
        kept, total = [], 0
        for part in parts:
            total += len(part)
            if total > MAX_TEXT:
                raise refuse(f"the template makes more than {MAX_TEXT:,} characters of text")
            kept.append(part)
        return "".join(kept)

    def make_join(self) -> Callable[..., str]:
        @pass_eval_context
        def join(eval_ctx: Any, parts: list[Any]) -> str:
            texts = [str(part) for part in parts]
            self.check("".join(texts) if sum(map(len, texts)) <= MAX_TEXT else "x" * (MAX_TEXT + 1))
            return markup_join(parts) if eval_ctx.autoescape else str_join(parts)
        return join

    @staticmethod
    def no_random(*args: Any, **kwargs: Any) -> Any:
        raise refuse("the random filter is not available: a build must give the same file every time")

    # -- operators, calls and filters -------------------------------------------------------------
    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        self.charge()
        if operator == "**" and isinstance(left, int) and isinstance(right, int) and abs(left) > 1:
            if right > 0 and right * left.bit_length() > MAX_BITS:
                raise refuse(f"{left} ** {right} is too large a number")
        if operator == "*":
            for seq, count in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(count, int):
                    self.check_size(seq, len(seq) * max(count, 0))
            if isinstance(left, int) and isinstance(right, int) \
                    and left.bit_length() + right.bit_length() > MAX_BITS:
                raise refuse("the product is too large a number")
        if operator == "%" and isinstance(left, str):
            self.check_format(left)
        return self.check(super().call_binop(context, operator, left, right))

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        __self.charge()
        target = getattr(__obj, "__wrapped__", __obj)  # str.format arrives wrapped by the sandbox
        owner = getattr(target, "__self__", None)
        if isinstance(owner, str):
            __self.check_str_method(owner, getattr(target, "__name__", ""), args, kwargs)
        return __self.check(super().call(__context, __obj, *args, **kwargs))

    def check_str_method(self, text: str, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Refuse a str method whose result would be too long, before it runs (keywords too)."""
        if name in WIDTH_METHODS and args and isinstance(args[0], int):
            self.check_size(text, args[0])
        elif name == "expandtabs":
            size = args[0] if args else kwargs.get("tabsize", 8)
            self.check_size(text, len(text) * (size if isinstance(size, int) else 8))
        elif name == "translate" and args and isinstance(args[0], dict):
            longest = max((len(v) if isinstance(v, str) else 1 for v in args[0].values()), default=1)
            self.check_size(text, len(text) * longest)
        elif name == "replace" and len(args) >= 2:
            self.check_size(text, len(text) + (len(text) + 1) * len(str(args[1])))
        elif name == "join" and args:
            parts = list(args[0])
            self.check_size(text, sum(len(str(p)) for p in parts) + len(text) * len(parts))
        elif name in ("format", "format_map"):
            self.check_format(text)

    def check_size(self, value: Any, size: int) -> None:
        limit = MAX_TEXT if isinstance(value, str) else MAX_ITEMS
        if size > limit:
            raise refuse(f"the result would be {size:,} {'characters' if isinstance(value, str) else 'items'} "
                         f"long; at most {limit:,}")

    def check_format(self, text: str) -> None:
        """A format string may not pad to huge widths: '%999999999d' or '{:>999999999}'."""
        specs = [m.group(1) for m in PERCENT_SPEC.finditer(text)]
        try:
            specs += [spec for _, _, spec, _ in Formatter().parse(text) if spec]
        except ValueError:
            pass  # not a valid {} format; str.format will say so itself
        for spec in specs:
            if "*" in spec or "{" in spec:
                raise refuse("a format may not take its width from an argument")
            widths = FORMAT_NUMBER.findall(spec)
            if any(len(n) > 5 or int(n) > MAX_ITEMS for n in widths):
                raise refuse(f"a format asks for a width of {max(widths, key=len)}; at most {MAX_ITEMS:,}")

    def guard_filter(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        """`function` charged and size-checked first, arguments bound by name so that
        `center(width=10**9)` is checked like `center(10**9)`. The parameters are read at the
        filter's first call: a sandbox is made for each render, and most use no filter or two."""
        signatures: list[inspect.Signature | None] = []

        @wraps(function)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            self.charge()
            values = [a for a in args if not isinstance(a, (Context, EvalContext, Environment))]
            if not signatures:
                signatures.append(user_signature(function))
            named = bind(signatures[0], values, kwargs)
            if values and hasattr(values[0], "__len__"):
                self.charge(min(len(values[0]), MAX_STEPS))
            if values:
                args = self.check_filter(name, values[0], named, args)
            return self.check(function(*args, **kwargs))
        return guarded

    def check_filter(self, name: str, subject: Any, named: dict[str, Any],
                     args: tuple[Any, ...]) -> tuple[Any, ...]:
        """Refuse a filter call whose result would break a limit, before it runs."""
        for parameter in FILTER_COUNTS.get(name, ()):
            count = named.get(parameter)
            if isinstance(count, int) and count > MAX_ITEMS:
                raise refuse(f"|{name}({parameter}={count}): at most {MAX_ITEMS:,}")
        if name == "indent" and isinstance(subject, str) and "width" in named:
            width = named["width"]
            width = width if isinstance(width, int) else len(str(width))
            self.check_size(subject, len(subject) + (subject.count("\n") + 1) * width)
        if name == "format" and isinstance(subject, str):
            self.check_format(subject)
        if name == "replace" and isinstance(subject, str) and "new" in named:
            self.check_size(subject, len(subject) + (len(subject) + 1) * len(str(named["new"])))
        if name == "join" and not isinstance(subject, str):
            parts = list(subject)
            self.check_size("", sum(len(str(p)) for p in parts) + len(str(named.get("d", ""))) * len(parts))
            return tuple(parts if a is subject else a for a in args)
        if name == "sum" and not isinstance(named.get("start", 0), (int, float)):
            parts = list(subject)  # adding lists or texts copies the total so far at every step
            self.charge(min(len(parts) ** 2, MAX_STEPS + 1))
            return tuple(parts if a is subject else a for a in args)
        return args

    # -- what a template may see ------------------------------------------------------------------
    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if not super().is_safe_attribute(obj, attr, value):
            return False
        if type(obj).__module__.split(".")[0] in UNSAFE_MODULES:
            return False
        if isinstance(obj, BaseModel):  # the model's fields and the game's methods, not pydantic's
            return attr in type(obj).model_fields or not hasattr(BaseModel, attr)
        return True

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        tree = super()._parse(source, name, filename)
        return Guarded().visit(tree)


