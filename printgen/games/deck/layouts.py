"""Named layouts: each card type's look written once, a type that differs a little `extends` another.

A layout is resolved into the list of elements a side draws, each kept with the place it is written
in the definition, so a problem with an inherited element is told where the designer wrote it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional

from pydantic import ValidationError

from printgen.core.source import dotted
from printgen.core.validation import explain
from printgen.games.deck.model import OWN_KEYS, Deck, Element, Face, Layout, element_problems
from printgen.games.deck.placing import placing_problems
from printgen.jinja.values import is_template

Loc = tuple[Any, ...]  # where in the definition: ("layouts", "ship", "layout", 2)
MAX_DEPTH = 20  # layouts extending layouts: more is a mistake, not a design


@dataclass(frozen=True)
class Placed:
    """An element of a resolved layout and where it is written: ("layouts", "base", "layout", 2);
    `changes`: each `change:` made to it on the way, where it is written and the keys it gave."""

    element: Element
    where: Loc
    changes: tuple[tuple[Loc, frozenset[str]], ...] = ()

    def where_of(self, key: str) -> Loc:
        """Where the element's `key` is written: the last change giving it, else the element."""
        for at, keys in reversed(self.changes):
            if key in keys:
                return (*at, key)
        return (*self.where, key)


@dataclass(frozen=True)
class Resolved:
    """What one side draws: a background, an SVG template and elements, each with where it is written.
    `prefix` names it in the values' keys: "face" or "back" for the sides written in place, else
    "layouts.<name>"."""

    prefix: str
    name: Optional[str]  # the layout's name; None for `face:` or `back:` written in place
    background: Optional[str]
    background_where: Loc
    template: Optional[str]
    template_where: Loc
    elements: tuple[Placed, ...]


def prefix_of(name: str) -> str:
    return f"layouts.{name}"


def written(side: str, face: Face) -> Resolved:
    """A side written in place (`face:` or `back:`), as a resolved layout."""
    return Resolved(side, None, face.background, (side, "background"), face.template, (side, "template"),
                    tuple(Placed(el, (side, "layout", i)) for i, el in enumerate(face.layout)))


def resolved(defn: Deck) -> tuple[dict[str, Resolved], list[tuple[Loc, str]]]:
    """Every named layout with what it inherits, and the problems met (unknown parents, circles,
    unknown or repeated ids); a layout with a problem is left out."""
    done: dict[str, Resolved] = {}
    problems: list[tuple[Loc, str]] = []
    failed: set[str] = set()
    for name in defn.layouts:
        resolve(defn, name, [], done, failed, problems)
    return done, problems


def resolve(defn: Deck, name: str, chain: list[str], done: dict[str, Resolved], failed: set[str],
            problems: list[tuple[Loc, str]]) -> Optional[Resolved]:
    """Layout `name` resolved (its parents first), or None when it or a parent has a problem."""
    if name in done or name in failed:
        return done.get(name)
    layout = defn.layouts[name]
    at: Loc = ("layouts", name)
    parent: Optional[Resolved] = None
    if layout.extends is not None:
        wrong, circle = None, []
        if layout.extends not in defn.layouts:
            wrong = f"expected the name of another layout: {choices(defn, exclude=name)} (got {layout.extends!r})"
        elif layout.extends in chain or layout.extends == name:
            circle = chain[chain.index(layout.extends):] if layout.extends in chain else []
            path = " \u2192 ".join([*circle, name, layout.extends])
            wrong = f"layouts extend each other in a circle ({path}); one of them must extend none, or another layout"
        elif depth(defn, name) > MAX_DEPTH:
            if depth(defn, layout.extends) > MAX_DEPTH:  # told once, at the first layout past the limit
                failed.add(name)
                return None
            wrong = f"expected at most {MAX_DEPTH} layouts each extending the next"
        if wrong is not None:
            problems.append(((*at, "extends"), wrong))
        else:
            parent = resolve(defn, layout.extends, [*chain, name], done, failed, problems)
        if parent is None:
            failed.update([*circle, name])
            return None
    if name in failed:  # told as part of a circle while its parents were resolved
        return None
    found: list[tuple[Loc, str]] = []
    elements = inherited(layout, at, parent, found, defn.fonts)
    elements += [Placed(el, (*at, "layout", i)) for i, el in enumerate(layout.layout)]
    found += repeated_ids(elements)
    if found:
        problems.extend(found)
        failed.add(name)
        return None
    set_keys = layout.model_fields_set
    background, background_where = layout.background, (*at, "background")
    template, template_where = layout.template, (*at, "template")
    if parent is not None and "background" not in set_keys:
        background, background_where = parent.background, parent.background_where
    if parent is not None and "template" not in set_keys:
        template, template_where = parent.template, parent.template_where
    done[name] = Resolved(prefix_of(name), name, background, background_where, template, template_where,
                          tuple(elements))
    return done[name]


def depth(defn: Deck, name: str) -> int:
    """How many layouts `name` extends, one through the next, counted on the definition's graph
    whatever order the layouts are written in (at most 100 layouts, so the walk is short); -1 when
    the walk meets a circle, which resolve() tells as one."""
    seen = [name]
    while True:
        parent = defn.layouts[seen[-1]].extends
        if parent is None or parent not in defn.layouts:
            return len(seen) - 1
        if parent in seen:
            return -1
        seen.append(parent)


def inherited(layout: Layout, at: Loc, parent: Optional[Resolved], found: list[tuple[Loc, str]],
              fonts: Mapping[str, Any]) -> list[Placed]:
    """The parent's elements, less those removed, each replaced or changed one in its place."""
    if parent is None:
        for key in ("replace", "remove", "change"):
            if key in layout.model_fields_set and getattr(layout, key):
                found.append(((*at, key), f"'{key}' changes the elements of the layout this one extends, "
                                          "and it extends none: expected 'extends: <layout>' beside it"))
        return []
    ids = {p.element.id: p for p in parent.elements if p.element.id is not None}
    known = ", ".join(ids) or "none: give the elements of that layout an 'id:' first"
    for i, key in enumerate(layout.remove):
        if key not in ids:
            found.append(((*at, "remove", i), f"expected the id of an element of layout '{parent.name}': "
                                              f"{known} (got {key!r})"))
        elif key in layout.replace:
            found.append(((*at, "remove", i), f"'{key}' is both replaced and removed; expected one of them"))
    for key, element in layout.replace.items():
        if key not in ids:
            found.append(((*at, "replace", key), f"expected the id of an element of layout "
                                                 f"'{parent.name}': {known} (got {key!r})"))
        elif element.id is not None and element.id != key:
            found.append(((*at, "replace", key, "id"), f"a replacing element keeps the id it replaces "
                                                       f"('{key}'); leave 'id' out (got {element.id!r})"))
    for key, keys in layout.change.items():
        if key not in ids:
            found.append(((*at, "change", key), f"expected the id of an element of layout "
                                                f"'{parent.name}': {known} (got {key!r})"))
        elif key in layout.replace or key in layout.remove:
            found.append(((*at, "change", key), f"'{key}' is also {'replaced' if key in layout.replace else 'removed'}"
                                                "; expected one of them"))
    result = []
    for placed in parent.elements:
        own = placed.element.id
        if own in layout.remove:
            continue
        if own is not None and own in layout.replace:
            element = layout.replace[own]
            placed = Placed(element if element.id == own else element.model_copy(update={"id": own}),
                            (*at, "replace", own))
        elif own is not None and own in layout.change:
            placed = changed(placed, layout.change[own], (*at, "change", own), found, fonts) or placed
        result.append(placed)
    return result


FIXED = {"type": "to draw another kind of element, replace it", "id": "it keeps the id it has"}


def changed(placed: Placed, keys: dict[str, Any], at: Loc, found: list[tuple[Loc, str]],
            fonts: Mapping[str, Any]) -> Optional[Placed]:
    """The inherited element with `keys` changed, checked as a whole as any element written out is;
    None, with every problem in `found` (each at its key), when a key or the element it makes is wrong."""
    known = ["when", *sorted(OWN_KEYS[placed.element.type])]
    wrong: list[tuple[Loc, str]] = []
    for key, value in keys.items():
        if key not in Element.model_fields:
            wrong.append(((*at, key), f"unknown key; expected one of: {', '.join(known)}"))
        elif key in FIXED and value != getattr(placed.element, key):
            wrong.append(((*at, key), f"'{key}' cannot be changed: {FIXED[key]} (got {str(value)[:40]!r})"))
    if not keys:
        wrong.append((at, "expected the keys to change, such as {y: 8, colour: '#ffffff'}"))
    usable = {key: value for key, value in keys.items() if key in Element.model_fields and key not in FIXED}
    element, errors = merged(placed.element, usable)
    for err in errors:
        loc = tuple(err["loc"])
        wrong.append(((*at, *loc), explain(err, Element, loc)))
        usable.pop(loc[0], None)
    if errors:  # the other keys still checked, so no problem waits for a rerun
        element, _ = merged(placed.element, usable)
    if element is not None:
        wrong += [((*at, *key), message) for key, message in (*element_problems(element, fonts), *placing_problems(element, fonts))
                  if key and key[0] in usable]  # what the parent wrote is told where it wrote it
    if wrong:
        found.extend(wrong)
        return None
    assert element is not None
    return Placed(element, placed.where, (*placed.changes, (at, frozenset(keys))))


def merged(element: Element, keys: dict[str, Any]) -> tuple[Optional[Element], list[Any]]:
    """`element` with `keys` given instead of its own, validated whole; or None and pydantic's errors."""
    given = {**element.model_dump(exclude_unset=True), "type": element.type, **keys}
    try:
        return Element.model_validate(given), []
    except ValidationError as exc:
        return None, exc.errors(include_url=False)


def repeated_ids(elements: Iterable[Placed]) -> list[tuple[Loc, str]]:
    """An id given twice in one layout (its own, or one it inherits) would make `replace` ambiguous."""
    seen: dict[str, Loc] = {}
    found = []
    for placed in elements:
        key = placed.element.id
        if key is None:
            continue
        if key in seen:
            found.append(((*placed.where, "id"), f"the id '{key}' is already the id of {dotted(seen[key])}; "
                                                 "expected the ids of a layout to differ (to change an "
                                                 f"inherited element, use replace: {{{key}: ...}})"))
        else:
            seen[key] = placed.where
    return found


def choices(defn: Deck, exclude: Optional[str] = None) -> str:
    return ", ".join(name for name in defn.layouts if name != exclude) or "there are none"


def check_layouts(defn: Deck) -> Iterable[tuple[Loc, str]]:
    """`layouts:` resolve, a side is written in place or chosen by name (not both), and a name
    given without a template is a layout's."""
    _, problems = resolved(defn)
    yield from problems
    if defn.face is None and defn.face_layout is None:
        yield ("game",), ("expected 'face:' (one layout for every card) or 'face_layout:' (a layout of "
                          "'layouts:' for each row, such as '{{ type }}')")
    if defn.face is not None and defn.face_layout is not None:
        yield ("face_layout",), "expected 'face' or 'face_layout', not both"
    if "back" in defn.model_fields_set and defn.back_layout is not None:
        yield ("back_layout",), "expected 'back' or 'back_layout', not both"
    if defn.layouts and defn.face_layout is None and defn.back_layout is None:
        yield ("layouts",), ("no card uses these layouts: expected 'face_layout:' (or 'back_layout:') to "
                             "choose among them, such as face_layout: '{{ type }}'")
    for key in ("face_layout", "back_layout"):
        value = getattr(defn, key)
        if value is None:
            continue
        if not defn.layouts:
            yield (key,), f"expected layouts to choose from: '{key}' names one of 'layouts:', but there are none"
        elif not is_template(value) and value not in defn.layouts:
            yield (key,), f"layout {value!r} is not one of {choices(defn)}"



def deck_layouts(defn: Deck) -> dict[str, Resolved]:
    """Every layout a row may draw, by prefix: `face:` and `back:` written in place, unless a
    `face_layout` or `back_layout` chooses among the named layouts instead."""
    found: dict[str, Resolved] = {}
    if defn.face is not None and defn.face_layout is None:
        found["face"] = written("face", defn.face)
    if defn.back_layout is None:
        found["back"] = written("back", defn.back)
    if defn.face_layout is not None or defn.back_layout is not None:
        named, _ = resolved(defn)
        found.update((layout.prefix, layout) for layout in named.values())
    return found
