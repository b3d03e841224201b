"""Answers are JSON in UTF-8 (orjson), with the standard encoder's escapes as the fallback for what
orjson refuses; both decode to the same document."""

from __future__ import annotations

import json

from service.api.common import answer
from service.rules.ofc import Row


def test_answer_is_utf8_json_with_row_keys(app):
    with app.app_context():
        response = answer({Row.TOP: "對子", "n": [1, None, True]})
    assert response.mimetype == "application/json"
    assert response.get_data() == '{"top":"對子","n":[1,null,true]}'.encode()


def test_a_lone_surrogate_falls_back_to_escaped_json(app):
    # orjson refuses a str that is not valid UTF-8; a client's "\ud800" escape decodes to one.
    lone = json.loads('"\\ud800"')
    with app.app_context():
        response = answer({"echo": lone})
    assert response.status_code == 200
    assert response.get_data() == b'{"echo":"\\ud800"}'
    assert json.loads(response.get_data()) == {"echo": lone}


def test_zh_tw_labels_arrive_as_utf8(client):
    response = client.post(
        "/v1/ofc-pineapple/rows/evaluate",
        json={"row": "top", "cards": ["Qs", "Qh", "2c"]},
        headers={"Accept-Language": "zh-TW"},
    )
    assert response.status_code == 200
    assert response.headers["Content-Language"] == "zh-TW"
    label = response.get_json()["hand"]["label"]
    assert label.encode() in response.get_data()  # raw UTF-8, not \u escapes
    assert response.get_json()["hand"]["category"] == "pair"
