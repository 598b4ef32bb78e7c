"""Homebrew: `printgen new` copies, `build` and `validate` on the copy, and `printgen schema`."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from ruamel.yaml import YAML

from printgen.games import bundled_definition, registry


def test_new_copies_the_commented_definition_and_it_builds(run_cli, tmp_path):
    folder = tmp_path / "mine"
    result = run_cli("new", "one_minute_war", folder)
    assert result.exit_code == 0, result.output
    copy = folder / "mine.yaml"
    assert copy.read_bytes() == bundled_definition("one_minute_war").read_bytes()  # comments kept
    assert "# image: art/logo.svg" in copy.read_text()  # the art keys are explained in place
    assert f"printgen build {copy}" in result.output or "printgen build" in result.output
    built = run_cli("build", copy, "--out", tmp_path / "o")
    assert built.exit_code == 0, built.output
    assert (tmp_path / "o" / "mine" / "mine.pdf").read_bytes().startswith(b"%PDF-")


def test_a_homebrew_tile_set_builds_and_validates(run_cli, tmp_path):
    folder = tmp_path / "tiles"
    assert run_cli("new", "omiga", folder).exit_code == 0
    copy = folder / "tiles.yaml"
    copy.write_text(copy.read_text().replace("title: Omiga", "title: Garden Duel"))
    result = run_cli("validate", copy, "--games", "40")
    assert result.exit_code == 0, result.output
    built = run_cli("build", copy, "--out", tmp_path / "o")
    assert built.exit_code == 0, built.output
    with pdfplumber.open(tmp_path / "o" / "tiles" / "tiles.pdf") as pdf:
        assert "Garden Duel" in pdf.pages[0].extract_text()


def test_validate_reports_a_broken_copy_with_its_line(run_cli, tmp_path):
    folder = tmp_path / "tiles"
    assert run_cli("new", "omiga", folder).exit_code == 0
    copy = folder / "tiles.yaml"
    lines = copy.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if "{left: green, right: green, top: tip, bottom: tip}" in line)
    lines[at] = lines[at].replace("right: green", "right: purple")
    copy.write_text("\n".join(lines) + "\n")
    result = run_cli("validate", copy, "--games", "40")
    assert result.exit_code == 1, result.output
    assert f"tiles.yaml:{at + 1}:" in result.output and "purple" in result.output


def test_new_with_templates_copies_them_and_the_copy_uses_them(run_cli, tmp_path):
    folder = tmp_path / "mine"
    result = run_cli("new", "one_minute_war", folder, "--templates")
    assert result.exit_code == 0, result.output
    rules = folder / "templates" / "one_minute_war" / "rules.md.j2"
    assert rules.exists() and (folder / "templates" / "one_minute_war" / "reference.md.j2").exists()
    assert re.search(r"^templates: templates/$", (folder / "mine.yaml").read_text(), re.M)
    rules.write_text(rules.read_text() + "\nHouse rule: {{ near.name }} plays at the kitchen table.\n")
    built = run_cli("build", folder / "mine.yaml", "--out", tmp_path / "o")
    assert built.exit_code == 0, built.output
    with pdfplumber.open(tmp_path / "o" / "mine" / "mine.pdf") as pdf:
        text = " ".join(page.extract_text() for page in pdf.pages)
    assert "House rule: Red plays at the kitchen table." in text


def test_new_never_overwrites_without_force(run_cli, tmp_path):
    folder = tmp_path / "mine"
    assert run_cli("new", "fracas", folder).exit_code == 0
    copy = folder / "mine.yaml"
    copy.write_text("game: fracas  # my edits\n")
    again = run_cli("new", "fracas", folder, "--templates")
    assert again.exit_code == 2
    assert "mine.yaml: already exists; pass --force" in again.output
    assert copy.read_text() == "game: fracas  # my edits\n"
    assert not (folder / "templates").exists()  # nothing at all was written
    forced = run_cli("new", "fracas", folder, "--force")
    assert forced.exit_code == 0, forced.output
    assert copy.read_bytes() == bundled_definition("fracas").read_bytes()


def test_new_names_the_bundled_games_for_an_unknown_one(run_cli, tmp_path):
    result = run_cli("new", "chess", tmp_path / "x")
    assert result.exit_code == 2
    assert "one_minute_war" in result.output and "omiga" in result.output
    assert not (tmp_path / "x").exists()


# -- JSON Schema -----------------------------------------------------------------------------------
# jsonschema is not a dependency, so a small checker covers the keywords pydantic emits for these
# models; what matters is that real definitions pass and an unknown key fails.

def check(schema: dict[str, Any], value: Any, root: dict[str, Any], where: str = "") -> list[str]:
    """Problems found validating `value` against `schema` (a subset of JSON Schema draft 7)."""
    if "$ref" in schema:
        name = schema["$ref"].split("/")[-1]
        return check(root["$defs"][name], value, root, where)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            results = [check(option, value, root, where) for option in schema[key]]
            passing = sum(not r for r in results)
            if (key == "anyOf" and passing == 0) or (key == "oneOf" and passing != 1):
                return [f"{where}: matches {passing} of the {key} options"] + min(results, key=len)
            return []
    kinds = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None),
             "integer": int, "number": (int, float)}
    kind = schema.get("type")
    if kind and not (isinstance(value, kinds[kind]) and not (kind in ("integer", "number")
                                                             and isinstance(value, bool))):
        return [f"{where}: expected {kind}"]
    if "const" in schema and value != schema["const"]:
        return [f"{where}: expected {schema['const']!r}"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{where}: expected one of {schema['enum']}"]
    if "pattern" in schema and not re.search(schema["pattern"], value):
        return [f"{where}: does not match {schema['pattern']}"]
    problems: list[str] = []
    if isinstance(value, dict):
        props = schema.get("properties", {})
        problems += [f"{where}.{k}: required" for k in schema.get("required", []) if k not in value]
        for key, item in value.items():
            if key in props:
                problems += check(props[key], item, root, f"{where}.{key}")
            elif schema.get("additionalProperties") is False:
                problems.append(f"{where}.{key}: unknown key")
            elif isinstance(schema.get("additionalProperties"), dict):
                problems += check(schema["additionalProperties"], item, root, f"{where}.{key}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            problems += check(schema["items"], item, root, f"{where}[{i}]")
    return problems


def plain(data: Any) -> Any:
    """ruamel's round-trip containers as plain dicts and lists."""
    return json.loads(json.dumps(data))


def load_yaml(path: Path) -> Any:
    yaml = YAML(typ="safe")
    yaml.version = (1, 2)
    return plain(yaml.load(path.read_text()))


@pytest.mark.parametrize("game", sorted(registry()))
def test_schema_accepts_the_bundled_definition_and_rejects_an_unknown_key(run_cli, game):
    result = run_cli("schema", game)
    assert result.exit_code == 0, result.output
    schema = json.loads(result.stdout)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert "game" in schema["required"] and "templates" in schema["properties"]
    data = load_yaml(bundled_definition(game))
    assert check(schema, data, schema) == []
    assert check(schema, {**data, "colour_scheme": "dark"}, schema) == [".colour_scheme: unknown key"]


def test_schema_of_every_game_chooses_by_the_game_key(run_cli, tmp_path):
    out = tmp_path / "printgen.schema.json"
    result = run_cli("schema", "--out", out)
    assert result.exit_code == 0, result.output
    schema = json.loads(out.read_text())
    assert schema["discriminator"]["propertyName"] == "game"
    assert set(schema["discriminator"]["mapping"]) == set(registry())
    for game in registry():
        assert check(schema, load_yaml(bundled_definition(game)), schema) == [], game
    bad = {**load_yaml(bundled_definition("fracas")), "tokens": {"size": 22, "shape": "round"}}
    assert any(p.endswith(".tokens.shape: unknown key") for p in check(schema, bad, schema))


def test_schema_describes_art_fields(run_cli):
    schema = json.loads(run_cli("schema", "one_minute_war").stdout)
    logo = schema["$defs"]["Logo"]["properties"]
    assert "PNG, JPEG or SVG" in logo["image"]["description"]
    assert "TrueType" in logo["font"]["description"]
