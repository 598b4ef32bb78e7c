"""A definition re-read after a one-line edit (core.yamlpatch) equals a full parse of the edited file.

The patch is only worth having if nobody can tell it from a full parse: for every bundled definition
and many one-line edits (good values, values that change type, values YAML rejects, edits that add
or remove lines), `read_yaml` after a read of the original must give the same values with the same
types, the same positions, the same comments and the same SourceMap answers, or the same errors.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Iterator

import pytest
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.tokens import CommentToken

from printgen.core import yamlread
from printgen.core.problems import DefinitionError
from printgen.core.yamlread import parse, read_yaml

GAMES = Path(yamlread.__file__).resolve().parents[1] / "games"
DEFINITIONS = sorted(GAMES.glob("*/*.yaml"))
BAD_INPUTS = sorted((Path(__file__).parent / "bad_inputs").glob("*.yaml"))

REPLACEMENTS = [
    "another", "Omiga 7", "42", "-3.5", "'quoted: with colon'", '"double: quoted"', "yes", "null", "~",
    "true", "0x1F", "0o17", "1e3", ".nan", ".inf", "[a]", "{a: 1}", "&x y", "*x", "!tag v", "| block",
    '"unterminated', "'unterminated", "a #c", "1" * 30, "1_000", "a: b", "- item", "? q", "2024-01-02",
    "'it''s'", '"tab\\there"', "`tick", "@at", "% pct", "x,y", "a]", "b}", "value   ",
]


@pytest.fixture(autouse=True)
def fresh_cache(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("PRINTGEN_NO_CACHE", raising=False)
    yamlread._parsed.clear()
    yield
    yamlread._parsed.clear()


def full_parse_count(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the full parses read_yaml makes from now on."""
    calls = [0]
    original = yamlread.parse

    def counted(raw: bytes, shown: str) -> Any:
        calls[0] += 1
        return original(raw, shown)

    monkeypatch.setattr(yamlread, "parse", counted)
    return calls


def comments(value: Any) -> Any:
    """Comments as text and (line, column) of where they start and end. Not the tokens' character
    offsets: after an edit that changes a line's length, a patched tree keeps the comments read
    from the old text, whose offsets past the edit differ; printgen reads only lines and columns
    (`lc`), never comments or their offsets."""
    if isinstance(value, CommentToken):
        ends = [(mark.line, mark.column) if mark is not None else None for mark in (value.start_mark, value.end_mark)]
        return ("comment", value.value, ends)
    if isinstance(value, (list, tuple)):
        return [comments(item) for item in value]
    if isinstance(value, dict):
        return {key: comments(item) for key, item in value.items()}
    return value


def scalar_attributes(value: Any) -> dict[str, Any]:
    """The extra attributes ruamel keeps on a scalar (a float's precision, a hex int's width...)."""
    found: dict[str, Any] = dict(getattr(value, "__dict__", {}))
    for cls in type(value).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(value, name):
                found[name] = getattr(value, name)
    return {key: repr(item) for key, item in found.items()}


def assert_same(got: Any, want: Any, where: str = "") -> None:
    """The same tree: equal values of identical types, equal positions, comments and formats."""
    assert type(got) is type(want), where
    if isinstance(want, (CommentedMap, CommentedSeq)):
        assert got.lc.data == want.lc.data and (got.lc.line, got.lc.col) == (want.lc.line, want.lc.col), where
        assert comments(got.ca.items) == comments(want.ca.items), where
        assert comments(got.ca.comment) == comments(want.ca.comment), where
        assert comments(got.ca.end) == comments(want.ca.end), where
        assert got.fa.flow_style() == want.fa.flow_style(), where
        assert got.anchor.value == want.anchor.value and got.tag.value == want.tag.value, where
        if isinstance(want, CommentedMap):
            assert [(type(k), k) for k in got] == [(type(k), k) for k in want], where
            assert got._ok == want._ok, where
            for key in want:
                assert_same(got[key], want[key], f"{where}.{key}")
        else:
            assert len(got) == len(want), where
            for index, (a, b) in enumerate(zip(got, want)):
                assert_same(a, b, f"{where}[{index}]")
        return
    if isinstance(want, float) and math.isnan(want):
        assert math.isnan(got), where
    elif type(want).__eq__ is object.__eq__:  # a TaggedScalar: compared by its attributes below
        pass
    else:
        assert got == want, where
    assert scalar_attributes(got) == scalar_attributes(want), where


def key_paths(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from key_paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from key_paths(value, (*path, index))


def outcome(read: Any) -> Any:
    """(data, source) or the DefinitionError's report."""
    try:
        return read()
    except DefinitionError as exc:
        return exc.report()


def check_edit(path: Path, original: str, edited: str) -> None:
    """read_yaml of `edited` right after a read of `original` equals a fresh full parse of it."""
    path.write_bytes(original.encode("utf-8"))
    read_yaml(path)  # the parse the edit may be patched from is now the latest of this file
    path.write_bytes(edited.encode("utf-8"))
    got = outcome(lambda: read_yaml(path))
    want = outcome(lambda: parse(edited.encode("utf-8"), yamlread.display_name(path)))
    if isinstance(want, str) or isinstance(got, str):
        assert got == want
        return
    (data, source), (fresh, fresh_source) = got, want
    assert_same(data, fresh)
    assert source.lines == fresh_source.lines and source.file == fresh_source.file
    assert source.hints == fresh_source.hints
    for loc in key_paths(fresh):
        assert answer(source.line_of, loc) == answer(fresh_source.line_of, loc), loc


def answer(line_of: Any, loc: tuple[Any, ...]) -> Any:
    """A SourceMap's line for `loc`, or the kind of exception it raises (the same either way)."""
    try:
        return line_of(loc)
    except Exception as exc:
        return type(exc).__name__


def value_lines(text: str) -> list[int]:
    """Lines that hold a key and something after it: the lines an edit of a value touches."""
    return [number for number, line in enumerate(text.split("\n"))
            if ":" in line and line.split(":", 1)[1].strip() and not line.lstrip().startswith("#")]


def edits_of(text: str, limit: int) -> Iterator[str]:
    """Each chosen value line's value replaced by each of REPLACEMENTS (at most `limit` lines,
    spread over the file), and a few edits that move, add or remove lines."""
    lines = text.split("\n")
    chosen = value_lines(text)
    step = max(1, len(chosen) // limit)
    for number in chosen[::step][:limit]:
        key, _ = lines[number].split(":", 1)
        for value in REPLACEMENTS:
            yield "\n".join([*lines[:number], f"{key}: {value}", *lines[number + 1:]])
        yield "\n".join([*lines[:number], f"{key}x: 1", *lines[number + 1:]])  # another key
        yield "\n".join([*lines[:number], f" {lines[number]}", *lines[number + 1:]])  # indented
        yield "\n".join([*lines[:number], lines[number], lines[number], *lines[number + 1:]])  # twice
        yield "\n".join([*lines[:number], *lines[number + 1:]])  # removed
        yield "\n".join([*lines[:number], f"{lines[number]}\n", *lines[number + 1:]])  # a blank line


@pytest.mark.parametrize("definition", DEFINITIONS, ids=lambda p: p.stem)
def test_one_line_edits_of_bundled_definitions_read_as_a_full_parse(definition: Path, tmp_path: Path) -> None:
    original = definition.read_text(encoding="utf-8")
    for edited in edits_of(original, limit=4):
        check_edit(tmp_path / definition.name, original, edited)


def test_every_value_line_of_omiga_once(tmp_path: Path) -> None:
    original = (GAMES / "omiga" / "omiga.yaml").read_text(encoding="utf-8")
    lines = original.split("\n")
    for count, number in enumerate(value_lines(original)):
        key, value = lines[number].split(":", 1)
        new = "7" if count % 3 == 2 else f"{value.strip()}z"
        edited = "\n".join([*lines[:number], f"{key}: {new}", *lines[number + 1:]])
        check_edit(tmp_path / "omiga.yaml", original, edited)


def test_edits_of_the_bad_inputs_that_parse(tmp_path: Path) -> None:
    for case in BAD_INPUTS[::15]:  # a sample: each full parse of a case costs tens of milliseconds
        raw = case.read_bytes()
        try:
            original = raw.decode("utf-8")
            parse(raw, "x")
        except (UnicodeDecodeError, DefinitionError):
            continue
        for edited in edits_of(original, limit=1):
            check_edit(tmp_path / case.name, original, edited)


TRICKY = {
    "a key inside a block scalar": "rules: |\n  title: Omiga\n  more\nother: 1\n",
    "a flow mapping over lines": "x: {a: 1,\n    b: 2,\n    c: 3}\ny: 2\n",
    "a mapping in a flow list": "x: [a,\n  b: c\n  ]\ny: 2\n",
    "an anchored mapping": "base: &b\n  size: 3\n  name: card\nother: *b\n",
    "a merge": "base: &b\n  size: 3\nother:\n  <<: *b\n  name: x\n",
    "a plain scalar over lines": "a: one\n  two\nb: 3\n",
    "a quoted scalar over lines": "a: \"one\n  two\"\nb: 3\n",
    "Windows line ends": "a: 1\r\nb: 2\r\n",
    "a comment after": "a: 1\n\n# note\nb: 2\n",
    "nested": "a:\n  b:\n    - c: 1\n      d: 2\n    - e: 3\nf: 4\n",
    "a tag on the mapping": "a: !!map\n  b: 1\n  c: 2\n",
    "a YAML directive": "%YAML 1.2\n---\na: 1\nb: 2\n",
    "a runaway quote elsewhere": "a: 'x\nb: 1\n  c'\nd: 2\n",
    "last line without a break": "a: 1\nb: 2",
}


@pytest.mark.parametrize("name", sorted(TRICKY))
@pytest.mark.filterwarnings("ignore:\\s*found duplicate anchor")  # an anchor's line twice: ruamel warns
def test_tricky_documents(name: str, tmp_path: Path) -> None:
    original = TRICKY[name]
    for edited in edits_of(original, limit=20):
        check_edit(tmp_path / "t.yaml", original, edited)


def test_the_title_edit_is_patched_and_leaves_the_old_data_alone(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    original = (GAMES / "omiga" / "omiga.yaml").read_text(encoding="utf-8")
    path = tmp_path / "omiga.yaml"
    path.write_text(original, encoding="utf-8")
    old, old_source = read_yaml(path)
    calls = full_parse_count(monkeypatch)
    for number in range(1, 4):
        edited = original.replace("title: Omiga", f"title: Omiga {number}", 1)
        path.write_text(edited, encoding="utf-8")
        data, source = read_yaml(path)
        assert data["title"] == f"Omiga {number}" and source.text_of(7) == f"title: Omiga {number}"
        assert data is not old and data["palettes"] is old["palettes"]  # only the path is copied
    assert calls[0] == 0
    assert old["title"] == "Omiga" and old_source.text_of(7) == "title: Omiga"
    assert_same(old, parse(original.encode("utf-8"), "x")[0])


def test_an_edit_of_a_nested_value_is_patched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    original = "a:\n  b:\n    - c: 1\n      d: 2\n    - e: 3\nf: 4\n"
    path = tmp_path / "n.yaml"
    path.write_text(original, encoding="utf-8")
    read_yaml(path)
    calls = full_parse_count(monkeypatch)
    edited = original.replace("d: 2", "d: two")
    path.write_text(edited, encoding="utf-8")
    data, _ = read_yaml(path)
    assert calls[0] == 0 and data["a"]["b"][1]["e"] == 3 and data["a"]["b"][0]["d"] == "two"
    assert_same(data, parse(edited.encode("utf-8"), "x")[0])


def test_an_integer_out_of_range_is_reported_as_a_full_parse_would(tmp_path: Path) -> None:
    original = (GAMES / "omiga" / "omiga.yaml").read_text(encoding="utf-8")
    check_edit(tmp_path / "omiga.yaml", original, original.replace("title: Omiga", "title: " + "9" * 20, 1))
    path = tmp_path / "omiga.yaml"
    with pytest.raises(DefinitionError, match=r"omiga.yaml:7: title: the number 9+ is out of range"):
        read_yaml(path)


def test_no_patch_when_caching_is_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    original = (GAMES / "omiga" / "omiga.yaml").read_text(encoding="utf-8")
    path = tmp_path / "omiga.yaml"
    path.write_text(original, encoding="utf-8")
    read_yaml(path)
    monkeypatch.setenv("PRINTGEN_NO_CACHE", "1")
    calls = full_parse_count(monkeypatch)
    path.write_text(original.replace("title: Omiga", "title: Omiga 2", 1), encoding="utf-8")
    assert read_yaml(path)[0]["title"] == "Omiga 2"
    assert calls[0] == 1


def test_edits_one_after_another_each_read_as_a_full_parse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each patched tree is the base of the next edit, as in a long `build --watch` session."""
    text = (GAMES / "deck" / "deck.yaml").read_text(encoding="utf-8")
    path = tmp_path / "deck.yaml"
    path.write_text(text, encoding="utf-8")
    read_yaml(path)
    calls = full_parse_count(monkeypatch)
    lines = text.split("\n")
    edited_lines = 0
    for number in value_lines(text)[::4]:
        key, value = lines[number].split(":", 1)
        if value.strip()[:1] in ("'", '"', "[", "{", "&", "*", "!", "|", ">", "#", ""):
            continue
        lines[number] = f"{key}: {value.strip()}x"
        text = "\n".join(lines)
        path.write_text(text, encoding="utf-8")
        data, source = read_yaml(path)
        fresh, fresh_source = parse(text.encode("utf-8"), yamlread.display_name(path))
        assert_same(data, fresh)
        assert source.lines == fresh_source.lines
        edited_lines += 1
    assert edited_lines >= 5 and calls[0] < edited_lines  # most were patched
