"""Property tests: broken copies of every bundled definition never crash printgen.

Each example takes a bundled definition, applies a few random mutations (delete a key, change a
value's type, insert junk keys, swap numbers for extremes, garble text...), writes it as YAML and
runs what a user would: load, build, and for Omiga the validator. Each must end in files that are
well-formed (PDFs complete, SVGs parse as XML) or in a `DefinitionError` whose problems are located;
any other exception is a crash.

The crash hunt is marked `slow`. `python -m pytest -q` runs it with PRINTGEN_SLOW_EXAMPLES examples
(50 by default, about 20 s); `PRINTGEN_SLOW_EXAMPLES=10000 python -m pytest -m slow` is the full run.
"""
from __future__ import annotations

import copy
import functools
import io
import math
import os
import re
import shutil
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from printgen.core.build import BuildOptions
from printgen.games import bundled_definition, game_ids, load
from printgen.games.omiga import validator as omiga_validate
from printgen.games.omiga.tileset import on_table
from printgen.core.yamlread import read_yaml
from printgen.core.paper import PAPERS
from printgen.drawing.picture import compose, turned
from printgen.core.problems import DefinitionError
from cputime import cpu_seconds

GAMES = tuple(game_ids())  # every game in the registry
SLOW_EXAMPLES = int(os.environ.get("PRINTGEN_SLOW_EXAMPLES", "50"))
TEXTS = {game: bundled_definition(game).read_text() for game in GAMES}

# -- values and mutations ---------------------------------------------------------------------------

numbers = st.one_of(
    st.integers(min_value=-(10**40), max_value=10**40),
    st.sampled_from([0, -1, 1, 2, 3, 7, 8, 9, 10, 12, 40, 100, 200, 201, 1000, 10**6, 2**31, 2**63]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 0.001, 0.5, 1e-300, 1e308, math.inf, -math.inf, math.nan]),
)
texts = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["", " ", "yes", "no", "true", "null", "~", "<b>", "&amp;", '"', "<&\">", "\u202e",
                     "x" * 500, "W" * 60, "\t", "a\nb", "\x00", "\x1b[2J", "#zzzzzz", "#000000", "é",
                     "width", "tip", "notch", "green", "diagonal", "none", "omiga", "fracas", "../x.png"]),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, texts)
junk = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                      st.dictionaries(texts, inner, max_size=3)),
                    max_leaves=6)


def paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    """Every key path in a loaded document, the root included."""
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += paths(value, prefix + (index,))
    return found


def at(node: Any, path: tuple) -> Any:
    for part in path:
        node = node[part]
    return node


def extreme(value: Any, draw: Any) -> Any:
    """A value of the same kind pushed somewhere unusual."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return draw(st.sampled_from([0, -value, value * 1000, value + 0.5, value - 1, 1e9, -1, math.nan,
                                     math.inf, 10**30]))
    if isinstance(value, str):
        return draw(st.sampled_from([value * 30, value[::-1], value.upper(), "", "   ", value + "\u05d0",
                                     value[:1], value + "\x07", "<" + value + "&>", value + "\n" + value]))
    if isinstance(value, list):
        return draw(st.sampled_from([[], value[:1], value * 3, value[::-1]]))
    if isinstance(value, dict):
        return {}
    return draw(junk)


printable = st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF, exclude_categories=("Cc",)),
                  min_size=1, max_size=24)


def gentle(value: Any, draw: Any) -> Any:
    """A value of the same type and of a plausible size, so the definition often still builds and
    the drawing code (not only the schema) meets odd names and numbers."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return max(0, value + draw(st.integers(-3, 3)))
    if isinstance(value, float):
        return round(value * draw(st.floats(0.5, 1.6)), 2)
    if isinstance(value, str) and not value.startswith("#"):
        return draw(st.one_of(printable, st.just(value + draw(printable))))
    return value


def mutate(data: Any, draw: Any) -> None:
    """One random change to the document, in place."""
    path = draw(st.sampled_from(paths(data)))
    target = at(data, path)
    operation = draw(st.sampled_from(["delete", "replace", "insert", "extreme", "retype", "duplicate",
                                      "gentle", "gentle", "gentle"]))
    if not path:  # the root: only keys can be added or removed
        operation = draw(st.sampled_from(["insert", "delete-child"]))
    if operation == "delete-child" and isinstance(target, dict) and target:
        del target[draw(st.sampled_from(list(target)))]
        return
    parent, key = (at(data, path[:-1]), path[-1]) if path else (None, None)
    if operation == "insert" and isinstance(target, dict):
        target[draw(st.one_of(texts, st.integers(-5, 5)))] = draw(junk)
    elif operation == "insert" and isinstance(target, list):
        target.insert(draw(st.integers(0, len(target))), draw(junk))
    elif parent is None:
        return
    elif operation == "delete":
        del parent[key]
    elif operation == "replace":
        parent[key] = draw(junk)
    elif operation == "gentle":
        parent[key] = gentle(target, draw)
    elif operation == "extreme":
        parent[key] = extreme(target, draw)
    elif operation == "retype":
        parent[key] = draw(st.sampled_from([str(target), [target] if not isinstance(target, list) else {},
                                            None, 1.5, True]))
    elif operation == "duplicate" and isinstance(parent, list):
        parent.insert(key, parent[key])


def yaml() -> YAML:
    handler = YAML(typ="rt")
    handler.version = (1, 2)
    return handler


def plain(node: Any) -> Any:
    """The document as plain dicts, lists and strings: ruamel keeps a folded block's style even
    when a value is replaced, and cannot write every character back in that style."""
    if isinstance(node, dict):
        return {key: plain(value) for key, value in node.items()}
    if isinstance(node, list):
        return [plain(value) for value in node]
    if isinstance(node, str):
        return "".join(["", node])  # a plain str, not a ruamel subclass
    return node


@functools.cache
def parsed(game: str) -> Any:
    """A bundled definition as plain data, read once: each example mutates a deep copy of it rather
    than reading the YAML again (as `plain` would have it before the dump anyway)."""
    return plain(yaml().load(TEXTS[game]))


@st.composite
def mutated(draw: Any) -> tuple[str, str]:
    """(game, YAML text) of a bundled definition after one to four mutations."""
    game = draw(st.sampled_from(GAMES))
    data = copy.deepcopy(parsed(game))
    for _ in range(draw(st.integers(1, 4))):
        mutate(data, draw)
    out = io.StringIO()
    yaml().dump(plain(data), out)
    return game, out.getvalue()


# -- what every example must satisfy ----------------------------------------------------------------

def assert_located(error: DefinitionError, path: Path) -> None:
    assert error.problems, "a DefinitionError must carry at least one problem"
    for problem in error.problems:
        assert problem.line >= 0 and problem.message
        text = str(problem)
        assert text.isprintable(), f"unescaped control character in {text!r}"


def assert_well_formed(name: str, data: bytes) -> None:
    if name.endswith(".pdf"):
        assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF"), name
    elif name.endswith(".svg"):
        ET.fromstring(data)  # raises on anything a viewer could not parse
    elif name.endswith(".png"):
        assert data.startswith(b"\x89PNG\r\n\x1a\n"), name


def exercise(game: str, text: str, paper: str, flip: str) -> str:
    """Load, build and (for Omiga) validate one definition; return how it ended."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{game}.yaml"
        path.write_text(text)
        for beside in bundled_definition(game).parent.iterdir():  # a deck's CSV, pictures, templates, texts
            if beside.is_dir():  # such as the sample deck's potions/ pictures
                shutil.copytree(beside, Path(folder) / beside.name)
            elif beside.suffix in (".csv", ".svg", ".png", ".j2", ".md"):
                (Path(folder) / beside.name).write_bytes(beside.read_bytes())
        try:
            loaded = load(path)
        except DefinitionError as error:
            assert_located(error, path)
            outcome = "refused"
        else:
            try:
                artifacts = loaded.build(BuildOptions(PAPERS[paper], flip))  # type: ignore[arg-type]
            except DefinitionError as error:
                assert_located(error, path)
                outcome = "refused at build"
            else:
                for artifact in artifacts:
                    assert_well_formed(artifact.name, artifact.data)
                outcome = "built"
        if game == "omiga":
            try:
                defn, source = omiga_validate.read(path)
            except DefinitionError as error:
                assert_located(error, path)
            else:
                report = omiga_validate.check_set(defn, source, games=5, seed=1)
                assert report.as_text() and report.as_json()
        return outcome


@pytest.mark.slow
@settings(max_examples=SLOW_EXAMPLES, deadline=None, print_blob=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=mutated(), paper=st.sampled_from(["a4", "letter"]), flip=st.sampled_from(["long", "short"]))
def test_mutated_definitions_build_or_are_refused(case, paper, flip):
    game, text = case
    event(f"{game}: {exercise(game, text, paper, flip)}")


@pytest.mark.parametrize("game", GAMES)
def test_every_bundled_definition_builds_through_the_same_checks(game):
    assert exercise(game, TEXTS[game], "a4", "long") == "built"


# -- round trip and symmetry ------------------------------------------------------------------------

def round_trip(text: str, passes: int = 3) -> list[tuple[Any, str]]:
    """Read `text` and write it back, `passes` times: [(data read, YAML written), ...]."""
    found = []
    with tempfile.TemporaryDirectory() as folder:
        for number in range(passes):
            path = Path(folder) / f"pass{number}.yaml"
            path.write_text(text)
            data, _ = read_yaml(path)
            out = io.StringIO()
            yaml().dump(data, out)
            text = out.getvalue()
            found.append((data, text))
    return found


def same(a: Any, b: Any) -> bool:
    """Equality, with NaN equal to itself and floats equal to 14 significant digits: ruamel writes a
    float back in the notation it was read in, cutting rather than rounding the last digit, so
    2.752803784832882e+17 becomes ...881e+17 and 4.40797239733625e+16 becomes ...624e+16 (an error of
    2.3e-15); printgen itself never writes a definition back."""
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-14, abs_tol=0.0)
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


@pytest.mark.parametrize("game", GAMES)
def test_load_dump_load_keeps_every_bundled_definition(game):
    (first, dumped), (second, again) = round_trip(TEXTS[game], passes=2)
    assert same(first, second)
    assert dumped == again
    with tempfile.TemporaryDirectory() as folder:
        a, b = Path(folder) / "a" / f"{game}.yaml", Path(folder) / "b" / f"{game}.yaml"
        for path, text in ((a, TEXTS[game]), (b, dumped)):
            path.parent.mkdir()
            path.write_text(text)
        assert load(a).definition.model_dump() == load(b).definition.model_dump()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=mutated())
def test_load_dump_load_is_stable_for_mutated_definitions(case):
    _, text = case
    try:
        (first, _), (second, dumped), (third, again) = round_trip(text)
    except DefinitionError:
        return  # a mutation can make an alias bomb or similar; refusing it is the right answer
    assert same(first, second) and same(second, third)
    assert LONG_FLOAT.sub("<float>", dumped) == LONG_FLOAT.sub("<float>", again)


LONG_FLOAT = re.compile(r"\d\.\d{12,}e[+-]\d+")  # ruamel re-rounds their last digit on each write


edges = st.tuples(*[st.integers(0, 20)] * 4)


@given(deck=st.sampled_from([0, 1]), tile=edges)
def test_turning_a_tile_twice_gives_the_same_tile(deck, tile):
    once = on_table(deck, tile)
    assert on_table(deck, once) == tile
    if deck == 1:  # black's tiles lie turned 180 degrees: left and right swap, top and bottom swap
        assert once == (tile[1], tile[0], tile[3], tile[2])


@given(width=st.floats(1, 300), height=st.floats(1, 300))
def test_a_drawing_turned_twice_lies_where_it_started(width, height):
    from reportlab.graphics.shapes import Group

    inner = turned(Group(), width, height)
    outer = turned(inner, width, height)
    matrix = compose(tuple(outer.transform), tuple(inner.transform))
    assert matrix == pytest.approx((1, 0, 0, 1, 0, 0), abs=1e-9)


# -- templates: random Jinja never crashes or escapes the sandbox -------------------------------------

atoms = st.sampled_from(["d.title", "d.soldiers", "d.soldiers[0].name", "d.card.width", "1", "7", "10**6",
                         "999999999", "-1", "2.5", "'x'", "'%999999999d'", "'{:>99999999}'", "[1, 2, 3]",
                         "range(5)", "range(10**9)", "none", "true", "d.__class__", "d.model_dump",
                         "'<img src=x>'", "'&'", "lipsum", "namespace(a=1)", "d.soldiers|length"])
operators = st.sampled_from(["*", "**", "+", "~", "%", "//", "-"])
filters = st.sampled_from(["upper", "length", "list", "join", "center(999999)", "replace('', 'yy')",
                           "batch(99999, 0)", "format(1)", "int", "string", "first", "sort", "unique",
                           "random", "indent(999999)", "wordwrap(3)", "truncate(5)", "sum", "tojson",
                           "e", "safe", "pprint", "map('upper')", "attr('__class__')"])


@st.composite
def expressions(draw: Any, depth: int = 0) -> str:
    """A random Jinja expression: atoms joined by operators, with filters on top."""
    if depth > 2 or draw(st.booleans()):
        text = draw(atoms)
    else:
        text = f"({draw(expressions(depth + 1))} {draw(operators)} {draw(expressions(depth + 1))})"
    for _ in range(draw(st.integers(0, 2))):
        text = f"({text})|{draw(filters)}"
    return text


@st.composite
def templates(draw: Any) -> str:
    lines = ["# Rules"]
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["output", "loop", "set", "macro"]))
        expr = draw(expressions())
        if kind == "output":
            lines.append(f"{{{{ {expr} }}}}")
        elif kind == "loop":
            lines.append(f"{{% for i in {expr} %}}{{% for j in {draw(expressions())} %}}{{{{ i }}}}"
                         f"{{% endfor %}}{{% endfor %}}")
        elif kind == "set":
            lines.append(f"{{% set a %}}{{{{ {expr} }}}}{{{{ {expr} }}}}{{% endset %}}{{{{ a }}}}")
        else:
            lines.append(f"{{% macro m(n) %}}{{{{ {expr} }}}}{{% if n %}}{{{{ m(n - 1) }}}}{{{{ m(n - 1) }}}}"
                         f"{{% endif %}}{{% endmacro %}}{{{{ m({draw(st.integers(0, 30))}) }}}}")
    return "\n\n".join(lines) + "\n"


WAR = load(bundled_definition("one_minute_war")).definition


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=templates())
def test_random_templates_render_or_give_a_located_error(source):
    from printgen.jinja.render import render

    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "one_minute_war" / "rules.md.j2"
        target.parent.mkdir()
        target.write_text(source)
        with cpu_seconds() as took:
            try:
                text = render("one_minute_war/rules.md.j2", {"d": WAR}, [Path(folder)])
            except DefinitionError as error:
                assert error.problems and "rules.md.j2" in error.problems[0].file
            else:
                assert isinstance(text, str) and len(text) <= 200_000
                assert not re.search(r"(?<!\\)<img", text)  # a value's tag prints as text: escaped, never HTML
        assert took.seconds < 10
