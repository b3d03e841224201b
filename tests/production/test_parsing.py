"""How the service reads what it is sent (docs/rulings.md, "Parsing"): JSON exactly as RFC 8259
has it, whole-valued numbers as integers, arrays over their maximum refused before their items are
read, client text quoted and cut in messages, no Python internals in an answer."""

from __future__ import annotations

import json

import pytest
from marshmallow import ValidationError

from service.api.common import check_list_lengths, length_plan
from service.api.games import schemas_for
from service.rules.games import find_game

CLASSIFY = "/v1/big-two/plays/classify"
SCORE = {
    "base": 10,
    "winner": {"last_play": ["2s", "2h"], "grand_slam": False},
    "losers": [
        {"cards": ["3c", "7d", "Jh"]},
        {"cards": ["2c", "4d", "5h", "6s", "8c", "Td", "Th", "Qs", "Kc"]},
        {"cards": ["9s", "9h", "9d", "9c", "3h", "4h", "5d", "6h", "7s", "8h"]},
    ],
}  # the contract's example


def send(client, raw: bytes, content_type: str = "application/json", path: str = CLASSIFY, **kwargs):
    response = client.post(path, data=raw, content_type=content_type, **kwargs)
    return response.status_code, response.get_json()


def test_a_repeated_key_is_400_naming_it(client):
    status, body = send(client, b'{"cards": ["3C"], "cards": ["4C"]}')
    assert status == 400 and body["detail"] == (
        'The body is not valid JSON for this service: the key "cards" appears twice in one object.'
    )


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32", "utf-8-sig"])
def test_a_body_in_another_encoding_than_utf8_is_400(client, encoding):
    status, body = send(client, '{"cards": ["3C"]}'.encode(encoding))
    assert status == 400 and "UTF-8" in body["detail"]


def test_invalid_utf8_is_400(client):
    status, body = send(client, b'{"cards": ["3\xff"]}')
    assert status == 400 and "UTF-8" in body["detail"]


@pytest.mark.parametrize("charset", ["utf-16", "latin-1"])
def test_a_declared_charset_other_than_utf8_is_415(client, charset):
    status, body = send(client, b'{"cards": ["3C"]}', content_type=f"application/json; charset={charset}")
    assert status == 415 and "UTF-8" in body["detail"]


def test_utf8_declared_is_accepted(client):
    status, body = send(client, b'{"cards": ["3C"]}', content_type="application/json; charset=UTF-8")
    assert status == 200 and body["combination"] == "single"


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_malformed_json_400(client, constant):
    status, body = send(client, json.dumps(SCORE).replace('"base": 10', f'"base": {constant}').encode(),
                        path="/v1/big-two/games/score")  # fmt: skip
    assert status == 400 and body["detail"] == f"The body is not valid JSON: {constant} is not a JSON number."


def test_a_number_of_5000_digits_is_400_without_python_internals(client):
    status, body = send(client, json.dumps(SCORE).replace('"base": 10', '"base": ' + "9" * 5000).encode(),
                        path="/v1/big-two/games/score")  # fmt: skip
    assert status == 400
    assert body["detail"] == "The body is not valid JSON for this service: a number has more than 4,300 digits."
    assert "sys." not in json.dumps(body) and "int_max_str_digits" not in json.dumps(body)


def test_unterminated_deep_arrays_are_422_too_deep(client):
    """Nesting is limited as the body is read: 64 KiB of '[' are refused for their depth, not their end."""
    status, body = send(client, b"[" * 65_000)
    assert status == 422 and "deeper than 32 levels" in body["detail"]


def test_malformed_json_is_400_with_its_position(client):
    status, body = send(client, b'{"cards": ["3C"')
    assert status == 400 and "line 1 column" in body["detail"]


@pytest.mark.parametrize("whole", [10.0, 1e1])
def test_a_whole_valued_number_is_that_integer(post, whole):
    game = {**SCORE, "base": whole}
    status, as_float = post("big-two/games/score", game)
    _, as_int = post("big-two/games/score", {**game, "base": 10})
    assert status == 200 and as_float == as_int and as_int["base"] == 10


@pytest.mark.parametrize("value", [10.5, True, "10", float("1e300")])
def test_other_numbers_and_types_are_not_integers(post, value):
    status, body = post("big-two/games/score", {**SCORE, "base": value})
    assert status == 422 and "/base" in [e["pointer"] for e in body["errors"]]


def test_client_text_in_a_message_is_quoted_and_cut(post):
    status, body = post("big-two/plays/classify", {"cards": ["<img src=x onerror=alert(1)>"]})
    assert status == 422
    [error] = body["errors"]
    assert error["message"].startswith('"\\u003cimg src=x onerror=alert…" is not a card')
    assert "<img" not in json.dumps(body)


def test_a_list_over_its_maximum_is_refused_without_reading_its_items(post):
    status, body = post("big-two/plays/classify", {"cards": [0] * 20_000})
    assert status == 422 and body["errors"] == [
        {"pointer": "/cards", "code": "wrong_length", "message": "Length must be between 1 and 13."}
    ]
    status, body = post("joker-thirteen/rounds/score", {"players": [{}] * 15_000})
    assert status == 422 and body["errors"] == [
        {"pointer": "/players", "code": "wrong_length", "message": "Length must be 4."}
    ]


def test_the_length_check_never_touches_the_items_beyond_a_maximum():
    class Untouchable:
        def __getattribute__(self, name):
            raise AssertionError("an item was read")

    schema = schemas_for(find_game("big-two"))["GameValidateRequest"]()
    assert "actions" in length_plan(schema)
    with pytest.raises(ValidationError) as caught:
        check_list_lengths(schema, {"hands": [], "actions": [{"type": "pass"}] * 200 + [Untouchable()] * 10_000})
    assert caught.value.messages["actions"] == ["Longer than maximum length 200."]  # and nothing per item


def test_the_answer_is_the_same_in_every_language(client):
    for language in ("en", "zh-TW"):
        response = client.post(CLASSIFY, json={"cards": [0] * 20_000}, headers={"Accept-Language": language})
        assert response.status_code == 422 and len(response.get_json()["errors"]) == 1
