"""The HTTP layer: parses requests, calls the rules core, shapes answers. ``create_app`` builds it."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from flask import Flask

from service.api import cors, docs, heavy, i18n, limits, meta, observability, tracing
from service.api.errors import register_error_handlers
from service.api.games import blueprint_for
from service.api.response import ServiceResponse
from service.rules.games import GAMES

DEFAULT_OPENAPI_PATH = str(Path(__file__).resolve().parents[2] / "openapi.yaml")


def config_from_environment() -> dict[str, Any]:
    """Settings from the environment, so one image serves every deployment."""
    return {
        "MAX_CONTENT_LENGTH": int(os.environ.get("CARD_RULES_MAX_BODY_BYTES", 64 * 1024)),
        "OPENAPI_PATH": os.environ.get("CARD_RULES_OPENAPI_PATH", DEFAULT_OPENAPI_PATH),
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "INFO").upper(),
        "CORS_ORIGINS": os.environ.get("CARD_RULES_CORS_ORIGINS", ""),
        heavy.CONFIG_KEY: heavy.concurrency_from_environment(),  # heavy requests at once per worker
        # the only port that answers /metrics (gunicorn.conf.py's metrics listener); empty: every port
        "METRICS_PORT": os.environ.get("METRICS_PORT", "").strip(),
        # each request's span to OpenTelemetry (CARD_RULES_OTEL, service/api/tracing.py); None: off
        "SPAN_EXPORT": tracing.export_from_environment(),
    }


def create_app(config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.response_class = ServiceResponse  # answers in one step (service/api/response.py)
    app.config.update(config_from_environment())
    app.config.update(config or {})
    app.config["DEBUG"] = False  # never reachable: a debugger would run code for anyone
    app.request_class = limits.limited_request(app.config["MAX_CONTENT_LENGTH"])
    logging.getLogger("service").setLevel(app.config["LOG_LEVEL"])
    app.url_map.strict_slashes = True  # paths are exactly the contract's: /healthz/ is a 404 naming /healthz
    for blueprint in (meta.blueprint, docs.blueprint, *(blueprint_for(game) for game in GAMES)):
        app.register_blueprint(blueprint)
    register_error_handlers(app)
    heavy.install(app)  # the cap on the heavy requests running at once (service/api/heavy.py)
    meta.install(app)  # the contract's documents, built once

    cors.install(app)
    # request IDs and trace context, one JSON log line per request, /metrics, the headers of every answer
    observability.install(app, answer_headers, i18n.note_route, app.config["SPAN_EXPORT"])
    return app


def answer_headers(environ: dict[str, Any], status: int, headers: list[tuple[str, str]]) -> None:
    """The headers every answer has, added to its WSGI header list as it starts (one step for all, 404s,
    405s and 500s included, cheaper than Flask's header object): Content-Language and Vary (i18n), nosniff,
    and ``Cache-Control: no-store`` unless the answer says otherwise (the documentation's assets)."""
    i18n.set_headers(environ, status, headers)
    headers.append(("X-Content-Type-Options", "nosniff"))
    if not any(name.lower() == "cache-control" for name, _ in headers):
        headers.append(("Cache-Control", "no-store"))
