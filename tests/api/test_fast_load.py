"""Each schema's ``fast_load`` is only a shortcut: whenever it answers, ``load`` answers the same."""
from __future__ import annotations

import copy
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from marshmallow import ValidationError

from service.api import ofc_pineapple
from service.api.common import StrictSchema
from tests.ofc_pineapple.records import BING, JIA, YI

FAST_SCHEMAS = [s for module in (ofc_pineapple,) for s in module.SCHEMAS if s.fast_load is not None]
VALID = {"players": [{"board": JIA}, {"board": YI, "fantasyland": {"active": True, "cards": 15}}, {"board": BING, "fantasyland": {"active": False}}]}

# Values that break a body in the ways the fast path must notice: wrong types, aliases, extra keys.
odd = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 20), st.text(max_size=3), st.sampled_from(["As", "10♠", "jk", "Zz", "as"]),
    st.lists(st.sampled_from(["As", "Kd", "kd", "2c", "x"]), max_size=6), st.dictionaries(st.sampled_from(["top", "x"]), st.none(), max_size=2),
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
    assert {s.__name__ for s in FAST_SCHEMAS} >= {"HandScoreRequest", "ScoredPlayer", "CompleteBoard", "FantasylandState"}


def test_the_fast_path_answers_for_plainly_valid_bodies():
    schema = ofc_pineapple.HandScoreRequest()
    assert schema.fast_load(VALID) is not None
    assert schema.fast_load(VALID) == schema.load(VALID)


@given(st.sampled_from(paths(VALID)), odd, st.booleans())
def test_fast_load_never_accepts_what_load_rejects_or_answers_otherwise(path, value, add_key):
    body = mutate(VALID, path, value, add_key)
    schema = ofc_pineapple.HandScoreRequest()
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
