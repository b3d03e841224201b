"""The contract states "no card twice in this list" (``uniqueItems``) exactly where the service refuses it.

For every operation's documented request, each list of cards in it gets its first card again in second
place. In a game of one 52-card deck, a list the contract marks ``uniqueItems`` is then refused with a 422
``duplicate_card`` at that second place, and a list it does not mark is answered (200: a ``validate``
question answers a duplicate as a violation, ruling S2). In a deck holding cards more than once (Joker
Thirteen's second spades and three jokers) no list can be a set, so none is marked."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from service.rules.games import find_game

SPEC = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text(encoding="utf-8"))
CARD = re.compile(r"^(?:[2-9TJQKAtjqka]|10)[cdhsCDHS♣♦♥♠♧♢♡♤]$")
Pointer = tuple[str | int, ...]


def resolve(node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        target: Any = SPEC
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def property_of(node: dict[str, Any], name: str) -> Any:
    """``name`` of an object schema, looking into its ``allOf``/``oneOf``/``anyOf`` branches."""
    if name in node.get("properties", {}):
        return node["properties"][name]
    for branch in (b for key in ("allOf", "oneOf", "anyOf") for b in node.get(key, [])):
        try:
            return property_of(resolve(branch), name)
        except KeyError:
            pass
    raise KeyError(name)


def schema_at(schema: Any, pointer: Pointer) -> dict[str, Any]:
    node = resolve(schema)
    for part in pointer:
        node = resolve(node["items"] if isinstance(part, int) else property_of(node, part))
    return node


def card_lists(value: Any, pointer: Pointer = ()) -> Iterator[Pointer]:
    if isinstance(value, list):
        if len(value) >= 2 and all(isinstance(v, str) and CARD.match(v) for v in value):
            yield pointer
        for i, item in enumerate(value):
            yield from card_lists(item, (*pointer, i))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from card_lists(item, (*pointer, key))


def request_example(operation: dict[str, Any]) -> Any:
    content = operation["requestBody"]["content"]["application/json"]
    return content["example"] if "example" in content else next(iter(content["examples"].values()))["value"]


CASES = [(path, pointer) for path, item in SPEC["paths"].items() if "post" in item
         for pointer in card_lists(request_example(item["post"]))]  # fmt: skip


def test_every_card_list_of_the_examples_is_checked():
    games = {path.split("/")[2] for path, _ in CASES}
    assert games == {"ofc-pineapple", "ofc-classic", "joker-thirteen", "big-two", "thirteen"} and len(CASES) > 100


@pytest.mark.parametrize(("path", "pointer"), CASES, ids=[f"{p} /{'/'.join(map(str, q))}" for p, q in CASES])
def test_unique_items_is_where_a_duplicate_is_refused(client, path, pointer):
    operation = SPEC["paths"][path]["post"]
    body = copy.deepcopy(request_example(operation))
    cards = body
    for part in pointer:
        cards = cards[part]
    cards[1] = cards[0]
    marked = schema_at(operation["requestBody"]["content"]["application/json"]["schema"], pointer).get(
        "uniqueItems", False
    )
    deck = find_game(path.split("/")[2]).deck
    response = client.post(path, json=body)
    if deck.cards > 52 or deck.jokers:
        assert not marked, "a deck with copies of a card has no list that is a set"
    elif marked:
        second = "/" + "/".join(map(str, (*pointer, 1)))
        assert response.status_code == 422
        assert {"pointer": second, "code": "duplicate_card"} in [
            {k: e[k] for k in ("pointer", "code")} for e in response.get_json()["errors"]
        ]
    else:
        assert response.status_code == 200, response.get_json()
