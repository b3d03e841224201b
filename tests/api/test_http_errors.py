"""Every HTTP failure is problem+json with a pointer where one applies: never HTML, never a 500."""
from __future__ import annotations

import pytest

PROBLEM_KEYS = {"type", "title", "status", "detail", "errors"}


def assert_problem(response, status):
    assert response.status_code == status
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert set(body) == PROBLEM_KEYS and body["status"] == status
    return body


def test_unknown_path_is_404(client):
    assert_problem(client.get("/v1/no-such-game"), 404)


def test_wrong_method_is_405_with_allow(client):
    response = client.get("/v1/ofc-pineapple/hands/score")
    assert_problem(response, 405)
    assert "POST" in response.headers["Allow"]


def test_unparseable_json_is_400(client):
    response = client.post("/v1/ofc-pineapple/hands/score", data="{not json", content_type="application/json")
    assert_problem(response, 400)


def test_not_json_is_415(client):
    response = client.post("/v1/ofc-pineapple/hands/score", data="players=3", content_type="application/x-www-form-urlencoded")
    assert_problem(response, 415)


def test_too_large_body_is_413(client, app):
    response = client.post("/v1/ofc-pineapple/hands/score", data="[" + " " * app.config["MAX_CONTENT_LENGTH"] + "]", content_type="application/json")
    assert_problem(response, 413)


def test_unknown_field_is_422_naming_it(client):
    body = assert_problem(client.post("/v1/ofc-pineapple/rows/evaluate", json={"row": "top", "cards": ["As", "Ks", "Qs"], "colour": "red"}), 422)
    assert body["errors"] == [{"pointer": "/colour", "message": "Unknown field."}]


def test_body_not_an_object_is_422_at_the_root(client):
    body = assert_problem(client.post("/v1/ofc-pineapple/rows/evaluate", json=["As"]), 422)
    assert body["errors"][0]["pointer"] == ""


@pytest.mark.parametrize("path", ["/healthz", "/v1/games", "/openapi.yaml", "/openapi.json"])
def test_service_reads_answer_200(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_games_lists_the_four_games(client):
    games = client.get("/v1/games").get_json()["games"]
    assert [(g["id"], g["players"]["min"], g["deck"]["cards"]) for g in games] == [
        ("ofc-pineapple", 3, 52), ("joker-thirteen", 4, 68), ("big-two", 4, 52), ("ofc-classic", 2, 52),
    ]  # fmt: skip


def test_pointer_escapes_slash_and_tilde():
    from service.api.errors import pointer

    assert pointer(("a/b", "c~d", 0)) == "/a~1b/c~0d/0"
