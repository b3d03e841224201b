"""openapi.yaml is valid, complete for clients, and mirrors the marshmallow schemas that enforce it."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from hypothesis import given, settings
from hypothesis import strategies as st
from openapi_spec_validator import validate

from service.api import common
from service.api.games import schemas_for
from service.api.schema import CARD_OR_JOKER_PATTERN, CARD_PATTERN
from service.rules.cards import CARD_BY_TEXT, CARD_OR_JOKER_BY_TEXT
from service.rules.games import GAMES
from service.rules.ofc.rules import OfcRules
from tests.conftest import ROOT

SPEC: dict[str, Any] = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
COMPONENTS = SPEC["components"]["schemas"]
GAME_SCHEMAS = {game.id: list(schemas_for(game).values()) for game in GAMES}
OPERATIONS = [(path, method, op) for path, item in SPEC["paths"].items() for method, op in item.items()]


def test_spec_is_valid_openapi_3_1():
    assert SPEC["openapi"].startswith("3.1")
    validate(SPEC)


def test_served_spec_is_the_file(client):
    assert client.get("/openapi.yaml").get_data(as_text=True) == (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    assert client.get("/openapi.json").get_json() == SPEC


@pytest.mark.parametrize(("path", "method", "op"), OPERATIONS, ids=[f"{m} {p}" for p, m, _ in OPERATIONS])
def test_every_operation_has_description_examples_and_declared_errors(path, method, op):
    assert op.get("summary") and op.get("description") and op.get("operationId")
    for status, response in op["responses"].items():
        response = resolve(response)
        for media in response.get("content", {}).values():
            assert "example" in media or "examples" in media, f"{status} has no example"
    if method == "post":
        assert "example" in op["requestBody"]["content"]["application/json"]
        assert {"400", "413", "415", "422"} <= set(op["responses"])


@pytest.mark.parametrize("name", sorted(COMPONENTS))
def test_every_schema_has_description_and_example(name):
    schema = COMPONENTS[name]
    assert schema.get("description") and "example" in schema, name


def test_every_array_is_bounded():
    def arrays(node: Any, where: str):
        if isinstance(node, dict):
            if node.get("type") == "array":
                yield where, node
            for key, value in node.items():
                yield from arrays(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                yield from arrays(value, f"{where}/{i}")

    unbounded = [where for where, node in arrays(SPEC, "") if "maxItems" not in node]
    assert not unbounded


def resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        target: Any = SPEC
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def rendered(schemas: list[type]) -> dict[str, Any]:
    spec = APISpec("drift", "1", "3.1.0", plugins=[MarshmallowPlugin()])
    plugin = spec.plugins[0]
    plugin.map_to_openapi_type(common.CardField, "string", None)
    for schema in schemas:
        spec.components.schema(schema.__name__, schema=schema)
    return spec.to_dict()["components"]["schemas"]


def types(node: dict[str, Any]) -> set[str]:
    kind = node.get("type", [])
    return {kind} if isinstance(kind, str) else set(kind)


def agree(ours: dict[str, Any], theirs: dict[str, Any], where: str) -> None:
    """A property as marshmallow renders it against the contract's: the same nested component, JSON types,
    pattern and items, all the way down (bounds and enums are compared by the caller)."""
    if "$ref" in ours:  # a nested schema: the contract names the same component
        assert theirs.get("$ref") == ours["$ref"], f"{where}: {theirs.get('$ref')} is not {ours['$ref']}"
        return
    theirs = resolve(theirs)
    if types(ours):  # a field of the games' own (the OFC round) renders no type; the contract's stands
        assert types(ours) == types(theirs), f"{where}: {types(theirs)} is not {types(ours)}"
    assert ours.get("pattern") == theirs.get("pattern"), f"{where}: pattern"
    if "items" in ours:
        agree(ours["items"], theirs["items"], f"{where}[]")


@pytest.mark.parametrize("pattern", [CARD_PATTERN, CARD_OR_JOKER_PATTERN])
def test_the_contracts_card_pattern_accepts_exactly_the_cards_the_service_reads(pattern):
    table = CARD_OR_JOKER_BY_TEXT if "[jJ][kK]" in pattern else CARD_BY_TEXT
    assert all(re.match(pattern, text) for text in table)

    @given(st.from_regex(pattern, fullmatch=True))
    @settings(max_examples=300, database=None)
    def read(text: str) -> None:
        assert text in table, text

    read()


@pytest.mark.parametrize("game", GAME_SCHEMAS)
def test_marshmallow_schemas_match_the_spec(game):
    for name, ours in rendered(GAME_SCHEMAS[game]).items():
        theirs = COMPONENTS[name]
        assert set(ours["properties"]) == set(theirs["properties"]), name
        assert set(ours.get("required", [])) == set(theirs.get("required", [])), name
        assert theirs.get("additionalProperties") is False, f"{name} must reject unknown fields like marshmallow"
        for field, prop in ours["properties"].items():
            agree(prop, theirs["properties"][field], f"{name}.{field}")
            spec_prop = resolve(theirs["properties"][field])
            if "enum" in prop:
                assert {e for e in prop["enum"] if e is not None} == {e for e in spec_prop["enum"] if e is not None}, (
                    f"{name}.{field}"
                )
            for bound in ("minItems", "maxItems", "minimum", "maximum"):
                if bound in prop:
                    default = 0 if bound == "minItems" else None
                    assert prop[bound] == spec_prop.get(bound, default), f"{name}.{field} {bound}"


def test_the_contract_lists_the_games_of_the_registry():
    """Game.id's enum and the games list's bound are the registry's (service/rules/games.py)."""
    assert COMPONENTS["Game"]["properties"]["id"]["enum"] == [game.id for game in GAMES]
    assert COMPONENTS["GameList"]["properties"]["games"]["maxItems"] == len(GAMES)
    for game in GAMES:
        assert any(path.startswith(game.base_path + "/") for path in SPEC["paths"]), game.id
    assert {op["tags"][0] for _, _, op in OPERATIONS} - {"service"} == {game.id for game in GAMES}


# The OFC games take ``rule_set`` on every request (ofc-classic too, with its one rule set); Big Two's one
# rule set is an object too (its scoring), but its requests name none.
@pytest.mark.parametrize(
    "game", [g for g in GAMES if len(g.rule_sets) > 1 or isinstance(g.default.rules, OfcRules)], ids=lambda g: g.id
)
def test_the_contract_names_each_games_rule_sets_and_player_bounds(game):
    """Every request that takes ``rule_set`` enumerates exactly the game's rule sets, and every ``players``
    list is bounded by the fewest and most players over them."""
    names = {schema.__name__ for schema in GAME_SCHEMAS[game.id]}
    with_rule_set = [n for n in names if "rule_set" in COMPONENTS[n]["properties"]]
    operations = [path for path in SPEC["paths"] if path.startswith(game.base_path + "/")]
    assert len(with_rule_set) == len(operations), with_rule_set  # one request schema per operation
    for name in with_rule_set:
        assert resolve(COMPONENTS[name]["properties"]["rule_set"])["enum"] == [r.id for r in game.rule_sets], name
        players = COMPONENTS[name]["properties"].get("players")
        if players is not None:
            assert (players["minItems"], players["maxItems"]) == game.seats, name


def test_games_answer_is_the_registry(client):
    listed = client.get("/v1/games").get_json()["games"]
    assert [(g["id"], g["rule_set"], g["players"], g["base_path"]) for g in listed] == [
        (game.id, game.default.source, {"min": game.players[0], "max": game.players[1]}, game.base_path)
        for game in GAMES
    ]
