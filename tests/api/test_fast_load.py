"""Each schema's ``fast_load`` is only a shortcut: whenever it answers, ``load`` answers the same."""
from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from marshmallow import ValidationError

from service.api import joker_thirteen, ofc_pineapple
from service.api.common import StrictSchema
from tests.joker_thirteen.test_api import worked_table
from tests.ofc_pineapple.records import BING, JIA, YI

FAST_SCHEMAS = [s for module in (ofc_pineapple, joker_thirteen) for s in module.SCHEMAS if s.fast_load is not None]
FAST_SCHEMAS += [s for schemas in ofc_pineapple.SCHEMAS_BY_GAME.values() for s in schemas.values() if s.fast_load is not None]
VALID = {"players": [{"board": JIA}, {"board": YI, "fantasyland": {"active": True, "cards": 15}}, {"board": BING, "fantasyland": {"active": False}}]}
# Each top-level schema with a fast path, and a plainly valid body for it to be mutated.
HOT = {
    "ofc hands/score": (ofc_pineapple.HandScoreRequest, VALID),
    "ofc hands/score, rule set standard": (ofc_pineapple.HandScoreRequest, {"players": VALID["players"][:2], "rule_set": "standard"}),
    "ofc-classic hands/score": (ofc_pineapple.SCHEMAS_BY_GAME["ofc-classic"]["HandScoreRequest"], {"players": [{"board": JIA}, {"board": YI}, {"board": BING}, {"board": BING}]}),
    "joker-thirteen rounds/score": (joker_thirteen.JokerThirteenRoundScoreRequest, {"players": worked_table(True)}),
}

# Values that break a body in the ways the fast path must notice: wrong types, aliases, extra keys.
odd = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 20), st.text(max_size=3), st.sampled_from(["As", "10♠", "jk", "JKR", "Zz", "as"]),
    st.lists(st.sampled_from(["As", "Kd", "kd", "2c", "x", "JK", "jK"]), max_size=18),
    st.dictionaries(st.sampled_from(["top", "head", "hand", "x"]), st.none(), max_size=2),
)


def paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, prefix + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += paths(value, prefix + (i,))
    return found


def mutate(body: Any, path: tuple, value: Any, add_key: bool) -> Any:
    body = copy.deepcopy(body)
    if not path:
        return value
    parent = body
    for part in path[:-1]:
        parent = parent[part]
    if add_key and isinstance(parent, dict):
        parent["extra"] = value
    else:
        parent[path[-1]] = value
    return body


def agree(schema: StrictSchema, body: Any) -> None:
    fast = schema.fast_load(body)
    if fast is None:
        return
    assert schema.load(body) == fast


def test_there_are_fast_schemas():
    assert {s.__name__ for s in FAST_SCHEMAS} >= {"HandScoreRequest", "ScoredPlayer", "CompleteBoard", "FantasylandState", "JokerThirteenRoundScoreRequest"}


@pytest.mark.parametrize("operation", HOT)
def test_the_fast_path_answers_for_plainly_valid_bodies(operation):
    schema_class, valid = HOT[operation]
    schema = schema_class()
    assert schema.fast_load(valid) is not None
    assert schema.fast_load(valid) == schema.load(valid)


@pytest.mark.parametrize("operation", HOT)
@given(data=st.data())
def test_fast_load_never_accepts_what_load_rejects_or_answers_otherwise(operation, data):
    schema_class, valid = HOT[operation]
    body = mutate(valid, data.draw(st.sampled_from(paths(valid))), data.draw(odd), data.draw(st.booleans()))
    schema = schema_class()
    fast = schema.fast_load(body)
    if fast is None:
        return
    try:
        loaded = schema.load(body)
    except ValidationError as error:
        raise AssertionError(f"fast_load accepted {body!r}, load rejects it: {error.messages}") from None
    assert loaded == fast


@given(st.sampled_from([JIA, YI, BING]), st.sampled_from(["top", "middle", "bottom"]), odd)
def test_board_fast_load_agrees(board, row, value):
    for body in (board, dict(board, **{row: value})):
        agree(ofc_pineapple.CompleteBoard(), body)
