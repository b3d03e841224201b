"""No debugger, no stack trace, the safety headers on every answer (errors included), and CORS: off by
default, on for the origins configured."""

from __future__ import annotations

import pytest

from service.api import create_app

ROW = "/v1/ofc-pineapple/rows/evaluate"
ORIGIN = "https://play.example.com"


def app_with_a_bug(**config):
    app = create_app({"TESTING": True, **config})

    @app.get("/test/bug")
    def bug():
        raise RuntimeError("secret internals: /srv/app/service.py line 42")

    return app


# --- debug mode and stack traces ---------------------------------------------------------------------


def test_debug_mode_cannot_be_turned_on(monkeypatch):
    monkeypatch.setenv("FLASK_DEBUG", "1")
    app = create_app({"DEBUG": True, "TESTING": True})
    assert app.debug is False and app.config["DEBUG"] is False


def test_an_unhandled_error_is_a_500_problem_without_trace():
    app = app_with_a_bug(DEBUG=True, PROPAGATE_EXCEPTIONS=False)
    response = app.test_client().get("/test/bug")
    assert response.status_code == 500 and response.mimetype == "application/problem+json"
    text = response.get_data(as_text=True)
    assert "Traceback" not in text and "secret internals" not in text and "service.py" not in text
    assert response.headers["X-Content-Type-Options"] == "nosniff" and response.headers["Cache-Control"] == "no-store"
    assert response.headers["X-Request-ID"]


# --- safety headers on every answer ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "status"),
    [
        ("get", "/healthz", {}, 200),
        ("get", "/metrics", {}, 200),
        ("post", ROW, {"data": "{", "content_type": "application/json"}, 400),
        ("get", "/nowhere", {}, 404),
        ("delete", ROW, {}, 405),
        ("post", ROW, {"data": "[" + " " * 70_000 + "]", "content_type": "application/json"}, 413),
        ("post", ROW, {"data": "x", "content_type": "text/plain"}, 415),
        ("post", ROW, {"json": {"row": "top"}}, 422),
    ],
)
def test_every_answer_has_nosniff_cache_control_and_a_request_id(client, method, path, kwargs, status):
    response = getattr(client, method)(path, **kwargs)
    assert response.status_code == status
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Cache-Control"] == "no-store"
    assert len(response.headers["X-Request-ID"]) == 32
    assert "Access-Control-Allow-Origin" not in response.headers


# --- CORS --------------------------------------------------------------------------------------------


def preflight(client, origin=ORIGIN, path=ROW):
    return client.options(path, headers={"Origin": origin, "Access-Control-Request-Method": "POST",
                                         "Access-Control-Request-Headers": "content-type, x-request-id"})  # fmt: skip


def test_cors_is_off_by_default(client):
    response = client.post(ROW, json={"row": "top", "cards": ["Kh", "Kd", "As"]}, headers={"Origin": ORIGIN})
    assert response.status_code == 200
    assert not [h for h in response.headers.keys() if h.lower().startswith("access-control-")]  # noqa: SIM118 (werkzeug Headers iterate as pairs)
    answer = preflight(client)
    assert answer.status_code == 204 and "POST" in answer.headers["Allow"]
    assert not [h for h in answer.headers.keys() if h.lower().startswith("access-control-")]  # noqa: SIM118 (werkzeug Headers iterate as pairs)


@pytest.fixture(scope="module")
def cors_client():
    return create_app({"TESTING": True, "CORS_ORIGINS": f"{ORIGIN}, https://other.example/"}).test_client()


def test_cors_origins_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("CARD_RULES_CORS_ORIGINS", ORIGIN)
    response = create_app({"TESTING": True}).test_client().get("/healthz", headers={"Origin": ORIGIN})
    assert response.headers["Access-Control-Allow-Origin"] == ORIGIN


def test_a_listed_origin_is_allowed_and_sees_the_request_id(cors_client):
    for origin in (ORIGIN, "https://other.example"):
        response = cors_client.post(ROW, json={"row": "top", "cards": ["Kh", "Kd", "As"]}, headers={"Origin": origin})
        assert response.status_code == 200
        assert response.headers["Access-Control-Allow-Origin"] == origin
        assert "Origin" in response.headers["Vary"]
        assert response.headers["Access-Control-Expose-Headers"] == "X-Request-ID, traceparent"
        assert "Access-Control-Allow-Credentials" not in response.headers


def test_a_listed_origin_reads_error_answers_too(cors_client):
    response = cors_client.post(ROW, json={"row": "top"}, headers={"Origin": ORIGIN})
    assert response.status_code == 422 and response.headers["Access-Control-Allow-Origin"] == ORIGIN


def test_preflight_for_a_listed_origin(cors_client):
    response = preflight(cors_client)
    assert response.status_code == 204 and not response.get_data()
    assert response.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert set(response.headers["Access-Control-Allow-Methods"].replace(" ", "").split(",")) == {"POST", "OPTIONS"}
    assert {h.strip().lower() for h in response.headers["Access-Control-Allow-Headers"].split(",")} >= {
        "content-type",
        "x-request-id",
    }
    assert int(response.headers["Access-Control-Max-Age"]) > 0
    assert "Origin" in response.headers["Vary"]


def test_an_unlisted_origin_gets_no_cors_headers(cors_client):
    response = cors_client.post(
        ROW, json={"row": "top", "cards": ["Kh", "Kd", "As"]}, headers={"Origin": "https://evil.example"}
    )
    assert "Access-Control-Allow-Origin" not in response.headers and "Origin" in response.headers["Vary"]
    answer = preflight(cors_client, origin="https://evil.example")
    assert not [h for h in answer.headers.keys() if h.lower().startswith("access-control-")]  # noqa: SIM118 (werkzeug Headers iterate as pairs)
    assert "Access-Control-Allow-Origin" not in cors_client.get("/healthz", headers={"Origin": "null"}).headers


def test_any_origin_with_a_star():
    client = create_app({"TESTING": True, "CORS_ORIGINS": "*"}).test_client()
    response = client.get("/v1/games", headers={"Origin": "https://anywhere.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "https://anywhere.example"
    assert "Access-Control-Allow-Origin" not in client.get("/v1/games").headers  # not a browser: nothing to say
