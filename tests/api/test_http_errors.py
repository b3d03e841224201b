"""Every HTTP failure is problem+json with a pointer where one applies: never HTML, never a 500."""

from __future__ import annotations

import pytest
from werkzeug.exceptions import RequestEntityTooLarge

PROBLEM_KEYS = {"type", "title", "status", "detail", "instance", "trace_id", "errors"}


def assert_problem(response, status):
    """The problem body of ``response``: its members, its status, and the request it names (``instance``,
    the answer's X-Request-ID as a URN; ``trace_id``, its traceparent's trace)."""
    assert response.status_code == status
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert set(body) == PROBLEM_KEYS and body["status"] == status
    assert body["instance"] == "urn:card-rules:request:" + response.headers["X-Request-ID"]
    assert body["trace_id"] == response.headers["traceparent"].split("-")[1]
    return body


def test_unknown_path_is_404(client):
    assert_problem(client.get("/v1/no-such-game"), 404)


def test_wrong_method_is_405_with_allow(client):
    response = client.get("/v1/ofc-pineapple/hands/score")
    assert_problem(response, 405)
    assert "POST" in response.headers["Allow"]


@pytest.mark.parametrize(
    ("asked", "near"),
    [("/v1/bigtwo/plays/classify", "/v1/big-two/plays/classify"), ("/v1/thirteen/duns/evaluat", "/v1/thirteen/duns/evaluate"),
     ("/healtz", "/healthz")],
)  # fmt: skip
def test_a_404_close_to_a_path_of_ours_names_it(client, asked, near):
    body = assert_problem(client.post(asked, json={}), 404)
    assert body["detail"] == (
        f"There is no operation at {asked}; did you mean {near}? GET /v1/games lists the games and their base paths."
    )


def test_a_404_far_from_every_path_names_none(client):
    body = assert_problem(client.get("/v1/no-such-game"), 404)
    assert "did you mean" not in body["detail"] and body["detail"].startswith(
        "There is no operation at /v1/no-such-game."
    )


def test_an_unknown_field_close_to_a_known_one_names_it(client):
    response = client.post("/v1/ofc-pineapple/rows/evaluate", json={"Row": "top", "cards": ["Kh", "Kd", "As"]})
    assert assert_problem(response, 422)["errors"] == [
        {"pointer": "/row", "code": "required", "message": "Missing data for required field."},
        {"pointer": "/Row", "code": "unknown_field", "message": "Unknown field; did you mean row?"},
    ]


def test_an_unknown_field_in_a_list_of_objects_names_its_objects_field_in_the_answers_language(client):
    players = [
        {"head": ["2c", "3d", "4h"], "midle": ["5c", "6d", "7h", "8s", "9c"], "tail": ["Tc", "Jd", "Qh", "Ks", "Ac"]}
    ]
    response = client.post(
        "/v1/thirteen/rounds/score", json={"players": players * 4}, headers={"Accept-Language": "zh-TW"}
    )
    errors = assert_problem(response, 422)["errors"]
    assert {
        "pointer": "/players/3/midle",
        "code": "unknown_field",
        "message": "未知的欄位；是不是要用 middle？",
    } in errors


def test_an_unknown_field_far_from_every_known_one_is_only_unknown(client):
    response = client.post("/v1/big-two/plays/classify", json={"cards": ["3c"], "zzz": 1})
    assert assert_problem(response, 422)["errors"] == [
        {"pointer": "/zzz", "code": "unknown_field", "message": "Unknown field."}
    ]


def test_at_most_a_hundred_unknown_names_are_compared():
    from marshmallow import ValidationError

    from service.api.common import NEAR_FIELDS_NAMED, name_near_fields
    from service.api.games import schemas_for
    from service.rules.games import find_game

    schema = schemas_for(find_game("ofc-pineapple"))["RowEvaluateRequest"]()
    try:
        schema.load({f"Row{i}": 1 for i in range(3 * NEAR_FIELDS_NAMED)})
    except ValidationError as error:
        messages = error.messages
    name_near_fields(schema, messages)
    named = [key for key, found in messages.items() if "did you mean" in str(found[0])]
    assert len(named) == NEAR_FIELDS_NAMED == 100


def test_a_405_names_the_methods_the_path_answers(client):
    response = client.get("/v1/thirteen/rounds/score", headers={"Accept-Language": "zh-TW"})
    body = assert_problem(response, 405)
    assert response.headers["Allow"] == "OPTIONS, POST"  # sorted: one order whatever the hash seed
    assert body["detail"] == "/v1/thirteen/rounds/score 不接受 GET，只接受 OPTIONS, POST。"
    english = client.delete("/healthz").get_json()
    assert english["detail"] == "/healthz does not answer DELETE; it answers GET, HEAD, OPTIONS."


@pytest.mark.parametrize("raw", [b"", b" \r\n\t "], ids=["nothing", "whitespace"])
def test_an_empty_body_is_400_saying_it_is_empty(client, raw):
    response = client.post("/v1/big-two/plays/classify", data=raw, content_type="application/json")
    body = assert_problem(response, 400)
    assert body["type"] == "urn:card-rules:problem:malformed-json"
    assert (
        body["detail"] == "The body is empty: send the operation's JSON object (/openapi.json has an example of each)."
    )


def test_unparseable_json_is_400(client):
    response = client.post("/v1/ofc-pineapple/hands/score", data="{not json", content_type="application/json")
    assert_problem(response, 400)


def test_not_json_is_415(client):
    response = client.post(
        "/v1/ofc-pineapple/hands/score", data="players=3", content_type="application/x-www-form-urlencoded"
    )
    assert_problem(response, 415)


def test_too_large_body_is_413(client, app):
    response = client.post(
        "/v1/ofc-pineapple/hands/score",
        data="[" + " " * app.config["MAX_CONTENT_LENGTH"] + "]",
        content_type="application/json",
    )
    assert_problem(response, 413)


def test_unknown_field_is_422_naming_it(client):
    body = assert_problem(
        client.post(
            "/v1/ofc-pineapple/rows/evaluate", json={"row": "top", "cards": ["As", "Ks", "Qs"], "colour": "red"}
        ),
        422,
    )
    assert body["errors"] == [{"pointer": "/colour", "code": "unknown_field", "message": "Unknown field."}]


def test_body_not_an_object_is_422_at_the_root(client):
    body = assert_problem(client.post("/v1/ofc-pineapple/rows/evaluate", json=["As"]), 422)
    assert body["errors"] == [{"pointer": "", "code": "wrong_type", "message": "Must be a JSON object."}]
    assert body["detail"] == 'The request does not match the schema: "" (the body): Must be a JSON object.'
    assert "/:" not in body["detail"]


def test_body_not_an_object_in_chinese_names_the_whole_body(client):
    response = client.post("/v1/big-two/plays/classify", json="As", headers={"Accept-Language": "zh-TW"})
    body = assert_problem(response, 422)
    assert body["errors"] == [{"pointer": "", "code": "wrong_type", "message": "必須是 JSON 物件"}]
    assert body["detail"] == '請求內容不符合結構定義：""（整個請求內容）：必須是 JSON 物件'


# --- a machine code on every 422 error: a client tells the causes apart without reading text ------------

ROW = "/v1/ofc-pineapple/rows/evaluate"


@pytest.mark.parametrize(("body", "errors"), [
    ({"row": "top", "cards": ["As", "Ks", "Xx"]}, [("/cards/2", "not_a_card")]),
    ({"row": "top", "cards": ["As", "Ks", "JK"]}, [("/cards/2", "joker_not_allowed")]),
    ({"row": "top", "cards": ["As", "Ks", "As"]}, [("/cards/2", "duplicate_card")]),
    ({"row": "top", "cards": ["As", "Ks"]}, [("/cards", "wrong_length")]),
    ({"row": "top", "cards": ["As", "Ks", "Qs", "Js", "Ts"]}, [("/cards", "wrong_row_size")]),
    ({"row": "top"}, [("/cards", "required")]),
    ({"row": "top", "cards": None}, [("/cards", "null")]),
    ({"row": "top", "cards": "As Ks Qs"}, [("/cards", "wrong_type")]),
    ({"row": "side", "cards": ["As", "Ks", "Qs"]}, [("/row", "not_one_of")]),
    ({"row": "top", "cards": ["As", "Ks", "Qs"], "colour": "red"}, [("/colour", "unknown_field")]),
    ({"row": 3, "cards": ["As", 7, "Qs"]}, [("/row", "wrong_type"), ("/cards/1", "not_a_card")]),
])  # fmt: skip
def test_every_422_error_has_a_machine_code(client, body, errors):
    answer = assert_problem(client.post(ROW, json=body), 422)
    assert sorted((e["pointer"], e["code"]) for e in answer["errors"]) == sorted(errors)
    chinese = client.post(ROW, json=body, headers={"Accept-Language": "zh-TW"}).get_json()
    assert [(e["pointer"], e["code"]) for e in chinese["errors"]] == [
        (e["pointer"], e["code"]) for e in answer["errors"]
    ]
    assert [e["message"] for e in chinese["errors"]] != [e["message"] for e in answer["errors"]]


@pytest.mark.parametrize(("path", "body", "pointer", "code"), [
    ("/v1/big-two/games/score", {"base": 0, "winner": {"last_play": ["3c"], "grand_slam": False}, "losers": []}, "/base", "out_of_range"),
    ("/v1/big-two/plays/classify", {"cards": ["3c", True]}, "/cards/1", "not_a_card"),
    ("/v1/ofc-pineapple/moves/validate", {"board": {}, "round": 7, "dealt": ["As"], "placement": {}}, "/round", "invalid_round"),
    ("/v1/joker-thirteen/duns/evaluate", {"dun": "head", "cards": ["As", "As", "As"]}, "/cards/2", "duplicate_card"),
    ("/v1/ofc-pineapple/boards/evaluate", {"board": {"top": ["As"] * 3, "middle": [], "bottom": []}, "fantasyland": {"active": "yes"}}, "/fantasyland/active", "wrong_type"),
])  # fmt: skip
def test_422_codes_in_every_game(client, path, body, pointer, code):
    answer = assert_problem(client.post(path, json=body), 422)
    assert (pointer, code) in [(e["pointer"], e["code"]) for e in answer["errors"]]


def test_too_deep_body_has_its_code(client):
    answer = assert_problem(client.post(ROW, data="[" * 40 + "]" * 40, content_type="application/json"), 422)
    assert [(e["pointer"], e["code"]) for e in answer["errors"]] == [("", "too_deep")]


# --- UTF-8 problems, the limit in bytes, where to look after a 404, trailing slashes ---------------------


def test_problem_bodies_are_utf8_not_escaped(client):
    response = client.post(
        ROW, json={"row": "top", "cards": ["As", "Ks", "Qs", "Js", "Ts"]}, headers={"Accept-Language": "zh-TW"}
    )
    raw = response.get_data()
    assert "頭道剛好是 3 張".encode() in raw and b"\\u" not in raw
    assert response.get_json()["title"] == "輸入無效"


def test_413_says_the_limit_in_bytes(client, app):
    limit = app.config["MAX_CONTENT_LENGTH"]
    body = assert_problem(client.post(ROW, data="[" + " " * limit + "]", content_type="application/json"), 413)
    assert body["type"] == "urn:card-rules:problem:body-too-large"
    assert body["detail"] == f"The request body is larger than the limit of {limit} bytes."
    zh = client.post(
        ROW, data="[" + " " * limit + "]", content_type="application/json", headers={"Accept-Language": "zh-TW"}
    )
    assert zh.get_json()["detail"] == f"請求內容超過上限 {limit} 位元組。"


def test_413_names_a_configured_limit():
    from service.api import create_app

    small = create_app({"TESTING": True, "MAX_CONTENT_LENGTH": 100}).test_client()
    body = assert_problem(small.post(ROW, data="[" + " " * 100 + "]", content_type="application/json"), 413)
    assert "100 bytes" in body["detail"]
    fits = small.post(ROW, data='{"row":"top","cards":["As","Ks","Qs"]}' + " " * 50, content_type="application/json")
    assert fits.status_code == 200 and fits.get_json()["hand"]["category"] == "high_card"


def test_the_limit_is_the_apps_and_a_limit_set_on_one_request_wins():
    """``limits.LimitedRequest`` reads the app's MAX_CONTENT_LENGTH once, when the app is made; as in Flask,
    a view may set another limit on its own request (Flask 3.1), and the body is read under that one."""
    from service.api import create_app
    from service.api.limits import read_body

    small, tiny = (create_app({"TESTING": True, "MAX_CONTENT_LENGTH": limit}) for limit in (100, 7))
    with tiny.test_request_context("/", method="POST", data=b"x" * 20) as context:
        assert context.request.max_content_length == 7
        with pytest.raises(RequestEntityTooLarge):
            read_body(context.request)
    with small.test_request_context("/", method="POST", data=b"x" * 20) as context:
        assert context.request.max_content_length == 100 and read_body(context.request) == b"x" * 20
    with small.test_request_context("/", method="POST", data=b"x" * 20) as context:
        context.request.max_content_length = 10
        assert context.request.max_content_length == 10
        with pytest.raises(RequestEntityTooLarge):
            read_body(context.request)


def test_404_points_to_the_list_of_games(client):
    body = assert_problem(client.get("/v1/no-such-game/rows/evaluate"), 404)
    assert body["type"] == "urn:card-rules:problem:not-found"
    assert "GET /v1/games" in body["detail"] and "/v1/no-such-game/rows/evaluate" in body["detail"]
    zh = client.get("/nothing", headers={"Accept-Language": "zh-TW"}).get_json()
    assert "GET /v1/games" in zh["detail"] and "沒有任何操作" in zh["detail"]


@pytest.mark.parametrize(("method", "path"), [
    ("get", "/healthz/"), ("get", "/v1/games/"), ("get", "/openapi.json/"),
    ("post", "/v1/ofc-pineapple/rows/evaluate/"), ("post", "/v1/big-two/plays/classify/"),
    ("post", "/v1/joker-thirteen/duns/evaluate/"),
])  # fmt: skip
def test_a_trailing_slash_is_404_naming_the_path_without_it(client, method, path):
    """Paths are exactly the contract's (README, "Paths"): one spelling, no redirect, no second answer."""
    response = getattr(client, method)(path, json={"row": "top", "cards": ["As", "Ks", "Qs"]})
    body = assert_problem(response, 404)
    assert body["detail"] == f"There is no operation at {path}: paths have no trailing slash; use {path.rstrip('/')}."
    assert "Location" not in response.headers
    assert (
        getattr(client, method)(path.rstrip("/"), json={"row": "top", "cards": ["As", "Ks", "Qs"]}).status_code != 404
    )


def test_trailing_slash_rule_is_in_the_readme_and_the_contract():
    from tests.conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "### Paths" in readme and "trailing slash" in readme[readme.index("### Paths") :]
    spec = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    assert "trailing slash" in spec


@pytest.mark.parametrize("path", ["/healthz", "/v1/games", "/openapi.yaml", "/openapi.json"])
def test_service_reads_answer_200(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_games_lists_the_five_games(client):
    games = client.get("/v1/games").get_json()["games"]
    assert [(g["id"], g["players"]["min"], g["deck"]["cards"], g["deck"]["jokers"]) for g in games] == [
        ("ofc-pineapple", 3, 52, 0), ("joker-thirteen", 4, 68, 3), ("big-two", 4, 52, 0), ("ofc-classic", 2, 52, 0),
        ("thirteen", 4, 52, 0),
    ]  # fmt: skip


def test_pointer_escapes_slash_and_tilde():
    from service.api.errors import pointer

    assert pointer(("a/b", "c~d", 0)) == "/a~1b/c~0d/0"
