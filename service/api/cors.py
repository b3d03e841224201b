"""Cross-origin requests (CORS) for browser apps that call the service directly: off unless
``CARD_RULES_CORS_ORIGINS`` lists origins (comma-separated, e.g. ``https://play.example.com``; ``*`` allows
any origin, reasonable only because the service uses no cookies or credentials).

For a listed ``Origin`` every answer (errors too) carries ``Access-Control-Allow-Origin`` with that origin
and exposes ``X-Request-ID`` and ``traceparent``; a preflight (``OPTIONS`` with
``Access-Control-Request-Method``) is answered 204 with the path's methods, the request headers a client
may send (``traceparent`` and ``tracestate`` among them), and a max age. With CORS on, every
answer says ``Vary: Origin`` so no cache hands one origin's answer to another. An unlisted origin gets
no CORS header at all, so the browser blocks the call. ``OPTIONS`` answers 204 with ``Allow``, never a body.
"""

from __future__ import annotations

from flask import Flask, Response, request

ALLOWED_REQUEST_HEADERS = "Content-Type, X-Request-ID, traceparent, tracestate"
EXPOSED_HEADERS = "X-Request-ID, traceparent"
PREFLIGHT_MAX_AGE = "600"


def parse_origins(text: str | None) -> frozenset[str]:
    """``"https://a.example, https://b.example/"`` -> the origins, without a trailing slash."""
    return frozenset(o.strip().rstrip("/") for o in (text or "").split(",") if o.strip())


def install(app: Flask) -> None:
    origins = parse_origins(app.config.get("CORS_ORIGINS"))
    any_origin = "*" in origins
    flask_options = app.make_default_options_response

    def options_answer() -> Response:
        response = flask_options()
        response.status_code = 204  # Flask's automatic OPTIONS answer: no content, so no content type
        del response.headers["Content-Type"]
        return response

    app.make_default_options_response = options_answer  # type: ignore[method-assign]  # this app's alone: no Flask subclass
    if not origins:
        return  # no hook at all: a hook is work on every request

    @app.after_request
    def _cors(response: Response) -> Response:
        response.vary.add("Origin")
        origin = request.headers.get("Origin")
        if origin is None or not (any_origin or origin in origins):
            return response
        response.headers["Access-Control-Allow-Origin"] = origin
        if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
            response.vary.update(("Access-Control-Request-Method", "Access-Control-Request-Headers"))
            if "Allow" in response.headers:
                response.headers["Access-Control-Allow-Methods"] = response.headers["Allow"]
                response.headers["Access-Control-Allow-Headers"] = ALLOWED_REQUEST_HEADERS
                response.headers["Access-Control-Max-Age"] = PREFLIGHT_MAX_AGE
        else:
            response.headers["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
        return response
