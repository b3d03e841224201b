"""Hypothesis fuzzing of the card parser and of every request schema through the app: only 2xx/4xx answers,
never a 5xx, never an exception other than the parser's own.

The number of examples is the hypothesis profile's: modest in the suite ("default"), far more under
``make fuzz`` ("fuzz"). Every POST operation of openapi.yaml is fuzzed, so a new operation is covered by
being in the spec: with arbitrary JSON, with its request example altered in one place (a part replaced by
anything, removed, an entry added, an array repeated past its bound), and with arbitrary bytes.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from service.api import create_app
from service.rules.cards import CARD_BY_TEXT, DECK, JOKER, Card, parse_card, parse_cards
from service.rules.errors import CardNotationError
from tests.conftest import ROOT

SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
POSTS = [(path, item["post"]["requestBody"]["content"]["application/json"]["example"])
         for path, item in SPEC["paths"].items() if "post" in item]  # fmt: skip
APP = create_app({"TESTING": True})

CARDISH = st.sampled_from(sorted(CARD_BY_TEXT) + ["JK", "jk", "Jk", "10s", "1s", "As ", "", "AS", "♠A", "KK", "Tx"])
TEXT = st.one_of(
    CARDISH, st.text(max_size=12), st.sampled_from(["top", "middle", "bottom", "play", "pass", "high_card"])
)
SCALAR = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70), st.integers(-3, 20),
    st.floats(allow_nan=True, allow_infinity=True), TEXT,
)  # fmt: skip
JSON = st.recursive(
    SCALAR, lambda inner: st.lists(inner, max_size=6) | st.dictionaries(TEXT, inner, max_size=6), max_leaves=30
)


def near(value: Any) -> st.SearchStrategy[Any]:
    """``value`` with one thing changed somewhere: a part replaced by anything or removed, an entry added,
    an array repeated beyond any bound."""
    options = [JSON]
    if isinstance(value, dict) and value:
        keys = sorted(value)
        options += [
            st.sampled_from(keys).flatmap(lambda k: near(value[k]).map(lambda v, k=k: {**value, k: v})),
            st.sampled_from(keys).map(lambda k: {key: v for key, v in value.items() if key != k}),
            st.tuples(TEXT, JSON).map(lambda kv: {**value, kv[0]: kv[1]}),
        ]
    if isinstance(value, list) and value:
        options += [
            st.integers(0, len(value) - 1).flatmap(
                lambda i: near(value[i]).map(lambda v, i=i: value[:i] + [v] + value[i + 1 :])
            ),
            st.integers(0, len(value) - 1).map(lambda i: value[:i] + value[i + 1 :]),
            JSON.map(lambda v: value + [v]),
            st.integers(2, 120).map(lambda n: value * n),
        ]
    return st.one_of(options)


def post(path: str, data: bytes, content_type: str = "application/json") -> int:
    response = APP.test_client().post(path, data=data, content_type=content_type)
    status = response.status_code
    assert status < 500, f"{status} for {data[:300]!r}: {response.get_data(as_text=True)[:500]}"
    if status >= 400:
        assert response.mimetype == "application/problem+json" and response.get_json()["status"] == status
    return status


def dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, allow_nan=True).encode()


# --- the card parser ---------------------------------------------------------------------------------


@given(text=st.one_of(st.text(max_size=8), CARDISH), jokers=st.booleans())
def test_parse_card_answers_a_card_or_its_own_error(text, jokers):
    try:
        card = parse_card(text, jokers=jokers)
    except CardNotationError as error:
        assert error.problems and error.problems[0].message
        return
    assert isinstance(card, Card)
    assert parse_card(card.text, jokers=True) is card  # the canonical text names the same card
    assert card is JOKER and jokers or card in DECK


@given(value=JSON, jokers=st.booleans())
def test_parse_card_of_anything_else(value, jokers):
    if isinstance(value, str):
        return
    with pytest.raises(CardNotationError):
        parse_card(value, jokers=jokers)


@given(texts=st.lists(st.one_of(CARDISH, SCALAR), max_size=20), jokers=st.booleans())
def test_parse_cards_reports_exactly_the_bad_entries(texts, jokers):
    bad = []
    for i, text in enumerate(texts):
        try:
            parse_card(text, jokers=jokers)
        except CardNotationError:
            bad.append(i)
    try:
        cards = parse_cards(texts, jokers=jokers, path=("cards",))
    except CardNotationError as error:
        assert [p.path for p in error.problems] == [("cards", i) for i in bad] and bad
    else:
        assert not bad and len(cards) == len(texts)


# --- every request schema through the app ------------------------------------------------------------


@pytest.mark.parametrize(("path", "example"), POSTS, ids=[p for p, _ in POSTS])
@given(data=st.data())
def test_an_altered_example_is_answered_2xx_or_4xx(path, example, data):
    post(path, dumps(data.draw(near(example), label="body")))


@pytest.mark.parametrize(("path", "example"), POSTS, ids=[p for p, _ in POSTS])
@given(value=JSON)
def test_any_json_is_answered_2xx_or_4xx(path, example, value):
    status = post(path, dumps(value))
    if not isinstance(value, dict):
        assert status == (422 if finite(value) else 400)  # NaN and Infinity are not JSON (docs/rulings.md, P3)


def finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(map(finite, value))
    if isinstance(value, dict):
        return all(map(finite, value.values()))
    return True


@pytest.mark.parametrize(("path", "example"), POSTS, ids=[p for p, _ in POSTS])
@given(
    body=st.binary(max_size=200),
    content_type=st.sampled_from(["application/json", "text/plain", "application/json; charset=utf-8", ""]),
)
def test_any_bytes_are_answered_2xx_or_4xx(path, example, body, content_type):
    post(path, body, content_type)


def test_the_strategies_reach_the_schemas():
    """Not vacuous: a float NaN (400: not JSON), a huge integer and an example repeated past its bounds."""
    path, example = POSTS[0]
    assert post(path, dumps({**example, "row": math.nan})) == 400
    assert post(path, dumps([example] * 200)) == 422
    assert post(path, b'{"row": ' + b"9" * 5000 + b"}") in (400, 422)
