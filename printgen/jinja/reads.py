"""Which names of its context a template can read: its own free names and those of every template
it includes, imports or extends, found from the parsed text without rendering it.

A drawn piece is kept by what decides it (games.piececache). Every piece template is given the
whole definition as `d`, and most never read it: keying their pieces on the definition would draw
every piece again after any edit of it. A template that names other templates only by a fixed
string can be followed to the end; one that computes a name (`{% include name %}`) could reach any
template, so then the answer is "anything" (None). Called in the bounded child that renders.
"""
from __future__ import annotations

from pathlib import Path

MAX_TEMPLATES = 100  # followed from one template; past that, anything may be read


def names_read(name: str, user_dirs: list[Path]) -> list[str] | None:
    """The free names template `name` and everything it reaches may read; None when that cannot
    be told (a computed template name, a template that does not parse, too many templates)."""
    from jinja2 import meta

    from printgen.jinja.render import environment

    env = environment(user_dirs)
    seen: set[str] = set()
    names: set[str] = set()
    todo = [name]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        if len(seen) > MAX_TEMPLATES:
            return None
        try:
            source, _, _ = env.loader.get_source(env, current)  # type: ignore[union-attr]
            tree = env.parse(source)
        except Exception:  # noqa: BLE001 - whatever it is, the render itself reports it
            return None
        names |= meta.find_undeclared_variables(tree)
        for reference in meta.find_referenced_templates(tree):
            if reference is None:
                return None
            todo.append(reference)
    return sorted(names)
