"""Each rule parameter is declared once, on its field of the game's rules object (service/rules/parameters.py):
the contract, written by hand, is held to those declarations here (every parameter, its place, its JSON type
and values, in the rules ``GET /v1/games`` lists and in the table rules a request writes), and a new parameter
is one declaration from which the description, the reading of a request's rules, the place of a refusal and
the request schema all follow."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import Any

import pytest
import yaml
from marshmallow import ValidationError

from service.api.games import Schemas, schemas_for, table_rules_schema
from service.rules.big_two import TAIWAN, BigTwoRules
from service.rules.errors import InvalidInputError
from service.rules.games import GAMES, find_game
from service.rules.ofc import OfcRules
from service.rules.parameters import Value, count, declared
from service.rules.thirteen import ThirteenRules
from tests.conftest import ROOT

SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
COMPONENTS = SPEC["components"]["schemas"]
DESCRIBED = {OfcRules: "OfcRules", BigTwoRules: "BigTwoRules", ThirteenRules: "JokerThirteenRules"}
"""Each rules class and the contract's component of what ``describe()`` writes (GET /v1/games's ``rules``)."""
WRITTEN = {BigTwoRules: "BigTwoTableRules", ThirteenRules: "ThirteenTableRules"}
"""The rules classes whose requests write table rules, and the contract's component of them."""


def resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = COMPONENTS[node["$ref"].rsplit("/", 1)[1]]
    return node


def at(component: str, place: tuple[str, ...]) -> dict[str, Any] | None:
    """The contract's schema of what is written at ``place`` in ``component`` (None: nothing there)."""
    node = COMPONENTS[component]
    for name in place:
        node = resolve(node).get("properties", {}).get(name)
        if node is None:
            return None
    return resolve(node)


def disagreements(value: Value, theirs: dict[str, Any], where: str, request: bool) -> list[str]:
    """Where the contract's ``theirs`` says otherwise than the declared ``value``: the JSON type, a string's
    values (an enum, or a pattern every value matches), an object's members, an array's items and, in a
    request (``request``) every bound, in the rules listed the bounds it declares of an array."""
    found = []
    kinds = theirs.get("type", [])
    kinds = {kinds} if isinstance(kinds, str) else set(kinds)
    if kinds != {value.type, *(["null"] if value.null else [])}:
        found.append(f"{where}: type {sorted(kinds)}, declared {value.type}")
    if value.enum and "enum" in theirs and [v for v in theirs["enum"] if v is not None] != list(value.enum):
        found.append(f"{where}: values {theirs['enum']}, declared {list(value.enum)}")
    if value.enum and "pattern" in theirs:
        found += [f"{where}: {v} off the pattern" for v in value.enum if not re.fullmatch(theirs["pattern"], v)]
    if value.enum and "enum" not in theirs and "pattern" not in theirs:
        found.append(f"{where}: no values, declared {list(value.enum)}")
    if value.properties:
        names = [name for name, _ in value.properties]
        required = set() if value.optional else set(names)
        if set(theirs.get("properties", {})) != set(names) or set(theirs.get("required", [])) != required:
            found.append(f"{where}: members {sorted(theirs.get('properties', {}))}, declared {names}")
        for name, member in value.properties:
            if name in theirs.get("properties", {}):
                found += disagreements(member, resolve(theirs["properties"][name]), f"{where}.{name}", request)
    if value.items is not None:
        found += disagreements(value.items, resolve(theirs.get("items", {})), f"{where}[]", request)
    bounds = {"minimum": value.minimum, "maximum": value.maximum, "maxItems": value.max_items}
    if value.type == "array":
        bounds["minItems"] = value.min_items or None
    for bound, declared_bound in bounds.items():
        # in the rules listed, an array's declared bounds: the contract bounds every array it answers
        listed = bound.endswith("Items") and declared_bound is not None
        if (request or listed) and theirs.get(bound) != declared_bound:
            found.append(f"{where}: {bound} {theirs.get(bound)}, declared {declared_bound}")
    return found


def contract_disagreements(rules_class: type) -> list[str]:
    """Everything the contract says otherwise than ``rules_class``'s declarations: each parameter at its
    place with its type and values, in the rules listed and in the rules a request writes; and no parameter
    in the contract that the class does not declare."""
    found = []
    described, written = DESCRIBED[rules_class], WRITTEN.get(rules_class)
    for name, parameter in declared(rules_class):
        theirs = at(described, parameter.place)
        if theirs is None:
            found.append(f"{described} has no {'.'.join(parameter.place)} ({name})")
        else:
            found += disagreements(parameter.value, theirs, f"{described}.{'.'.join(parameter.place)}", False)
        if written is None or parameter.read is None:
            continue
        theirs = at(written, parameter.place)
        if theirs is None:
            found.append(f"{written} has no {'.'.join(parameter.place)} ({name})")
        else:
            found += disagreements(parameter.value, theirs, f"{written}.{'.'.join(parameter.place)}", True)
    places = {p.place for _, p in declared(rules_class)}
    for component in (described, *([written] if written else [])):
        for place in _leaves(COMPONENTS[component], (), places):
            if place not in places and place != ("id",):
                found.append(f"{component}.{'.'.join(place)} is no declared parameter")
    return found


def _leaves(
    node: dict[str, Any], place: tuple[str, ...], declared_places: set[tuple[str, ...]]
) -> list[tuple[str, ...]]:
    """The places a component describes: each property, or each member of a group (an object that is no
    declared parameter itself)."""
    node = resolve(node)
    if place and (place in declared_places or "properties" not in node):
        return [place]
    return [
        leaf for name, child in node["properties"].items() for leaf in _leaves(child, (*place, name), declared_places)
    ]


@pytest.mark.parametrize("rules_class", list(DESCRIBED), ids=lambda c: c.__name__)
def test_the_contract_holds_every_declared_parameter(rules_class):
    assert contract_disagreements(rules_class) == []


def test_every_rule_set_of_every_game_is_a_declared_rules_class():
    assert {type(r.rules) for game in GAMES for r in game.rule_sets} == set(DESCRIBED)


# --- a new parameter is one declaration ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WithJokerFinish(BigTwoRules):
    """Big Two's rules with one made-up parameter, declared as a new one is: a winner multiplier when the
    last play holds a joker."""

    joker_finish: int = count(("winner_multipliers", "joker_finish"), 1, 4, default=1)


def with_joker_finish(multiplier: int) -> WithJokerFinish:
    return WithJokerFinish(
        **{f.name: getattr(TAIWAN, f.name) for f in fields(TAIWAN) if f.init}, joker_finish=multiplier
    )


def test_a_new_parameter_is_described_and_digested_at_its_place():
    table = with_joker_finish(3)
    described = table.describe()
    assert described["winner_multipliers"]["joker_finish"] == 3
    assert {k: v for k, v in described["winner_multipliers"].items() if k != "joker_finish"} == (
        TAIWAN.describe()["winner_multipliers"]
    )
    assert table.digest not in (TAIWAN.digest, with_joker_finish(1).digest)


@dataclass(frozen=True, slots=True)
class WithImpliedJokerFinish(BigTwoRules):
    """The same made-up parameter declared as one added to a game already served: every table had 1 until then."""

    joker_finish: int = count(("winner_multipliers", "joker_finish"), 1, 4, default=1, implied=1)


def test_a_parameter_added_later_at_its_implied_value_keeps_the_digest_a_client_pinned():
    kept = {f.name: getattr(TAIWAN, f.name) for f in fields(TAIWAN) if f.init}
    served, other = WithImpliedJokerFinish(**kept), WithImpliedJokerFinish(**kept, joker_finish=2)
    assert served.describe()["winner_multipliers"]["joker_finish"] == 1  # listed all the same
    assert (served.digest, served.as_served()) == (TAIWAN.digest, True)
    assert other.digest != TAIWAN.digest and not other.as_served()


def test_a_new_parameter_is_read_from_a_request_and_its_refusals_name_its_place():
    table = with_joker_finish(1).with_description({"winner_multipliers": {"joker_finish": 4, "grand_slam": 3}})
    assert (type(table), table.joker_finish, table.grand_slam) == (WithJokerFinish, 4, 3)
    with pytest.raises(InvalidInputError) as refused:
        with_joker_finish(1).with_description({"winner_multipliers": {"joker_finsh": 4}})
    assert [(p.path, p.params) for p in refused.value.problems] == [
        (
            ("rules", "winner_multipliers", "joker_finsh"),
            {"case": "unknown", "parameter": "winner_multipliers.joker_finsh"},
        )
    ]


def test_a_new_parameter_is_in_the_request_schema_with_its_bounds():
    schemas = Schemas(find_game("big-two"))
    table_rules = table_rules_schema(schemas, WithJokerFinish)()
    assert table_rules.load({"winner_multipliers": {"joker_finish": 4}}) == {"winner_multipliers": {"joker_finish": 4}}
    with pytest.raises(ValidationError) as refused:
        table_rules.load({"winner_multipliers": {"joker_finish": 5}})
    assert list(refused.value.messages) == ["winner_multipliers"]
    assert list(refused.value.messages["winner_multipliers"]) == ["joker_finish"]


def test_the_drift_test_finds_a_new_parameter_the_contract_lacks():
    DESCRIBED[WithJokerFinish], WRITTEN[WithJokerFinish] = "BigTwoRules", "BigTwoTableRules"
    try:
        found = contract_disagreements(WithJokerFinish)
    finally:
        del DESCRIBED[WithJokerFinish], WRITTEN[WithJokerFinish]
    assert found == [
        "BigTwoRules has no winner_multipliers.joker_finish (joker_finish)",
        "BigTwoTableRules has no winner_multipliers.joker_finish (joker_finish)",
    ]


def test_the_served_request_schema_is_compiled_from_the_declarations():
    compiled = table_rules_schema(Schemas(find_game("big-two")), BigTwoRules)
    served = schemas_for(find_game("big-two"))["TableRules"]
    assert compiled.__name__ == served.__name__ == "BigTwoTableRules"
    expected = list(dict.fromkeys(p.place[0] for _, p in declared(BigTwoRules) if p.read is not None))
    assert list(compiled().fields) == list(served().fields) == expected
