"""The thirteen game's answers have component names of their own (a generated client types them as thirteen's,
not Joker Thirteen's) and exactly Joker Thirteen's shapes: the same properties, bounds and parts, but what only
one 52-card deck has (special hands: an arrangement's, and the operation that reads them)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.contract import SPEC

COMPONENTS: dict[str, Any] = SPEC["components"]["schemas"]
THIRTEEN_ANSWERS = {
    "thirteenEvaluateDun": "ThirteenDunValue",
    "thirteenCompareDuns": "ThirteenDunComparison",
    "thirteenValidateArrangement": "ThirteenArrangementValidation",
    "thirteenScoreRound": "ThirteenRoundScore",
    "thirteenSuggestArrangement": "ThirteenSuggestion",
}
SPECIALS_ONLY = {"ThirteenArrangementValidation": {"specials"}, "ThirteenSuggestion": {"special"}}
"""The properties of a thirteen answer that Joker Thirteen's lacks: special hands are of one 52-card deck."""
SPECIALS_OPERATIONS = {"thirteenSpecialHands"}


def answer_schema(operation_id: str) -> dict[str, Any]:
    op = next(op for item in SPEC["paths"].values() for op in item.values() if op["operationId"] == operation_id)
    return op["responses"]["200"]["content"]["application/json"]["schema"]


def test_every_thirteen_operation_is_listed():
    thirteen = {op["operationId"] for path, item in SPEC["paths"].items() if path.startswith("/v1/thirteen/")
                for op in item.values()}  # fmt: skip
    assert thirteen == set(THIRTEEN_ANSWERS) | SPECIALS_OPERATIONS


@pytest.mark.parametrize(("operation_id", "name"), THIRTEEN_ANSWERS.items())
def test_a_thirteen_answer_is_its_own_component_of_joker_thirteens_shape(operation_id, name):
    assert answer_schema(operation_id) == {"$ref": f"#/components/schemas/{name}"}
    joker_name = "Joker" + name
    assert answer_schema("joker" + operation_id[0].upper() + operation_id[1:]) == {
        "$ref": f"#/components/schemas/{joker_name}"
    }
    ours, joker = COMPONENTS[name], COMPONENTS[joker_name]
    renamed = {"#/components/schemas/ThirteenDunValue": "#/components/schemas/JokerThirteenDunValue"}

    def as_joker(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: renamed.get(v, v) if k == "$ref" else as_joker(v) for k, v in node.items()}
        return [as_joker(v) for v in node] if isinstance(node, list) else node

    for key in ("type", "required", "additionalProperties"):
        assert ours[key] == joker[key], key
    only = SPECIALS_ONLY.get(name, set())
    assert only <= set(ours["properties"])
    assert as_joker({k: v for k, v in ours["properties"].items() if k not in only}) == joker["properties"]
