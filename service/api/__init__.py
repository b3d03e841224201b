"""The HTTP layer: parses requests, calls the rules core, shapes answers. ``create_app`` builds it."""
from __future__ import annotations

import importlib
import logging
import os
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response

from service.api import cors, docs, i18n, meta, observability
from service.api.errors import register_error_handlers
from service.rules.games import GAMES, Game

DEFAULT_OPENAPI_PATH = str(Path(__file__).resolve().parents[2] / "openapi.yaml")


def config_from_environment() -> dict[str, Any]:
    """Settings from the environment, so one image serves every deployment."""
    return {
        "MAX_CONTENT_LENGTH": int(os.environ.get("CARD_RULES_MAX_BODY_BYTES", 64 * 1024)),
        "OPENAPI_PATH": os.environ.get("CARD_RULES_OPENAPI_PATH", DEFAULT_OPENAPI_PATH),
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "INFO").upper(),
        "CORS_ORIGINS": os.environ.get("CARD_RULES_CORS_ORIGINS", ""),
    }


def game_blueprint(game: Game) -> Blueprint:
    """The blueprint serving a game of the registry: its HTTP module ``service.api.<module>`` builds it."""
    return importlib.import_module(f"service.api.{game.module}").blueprint_for(game)


def create_app(config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(config_from_environment())
    app.config.update(config or {})
    app.config["DEBUG"] = False  # never reachable: a debugger would run code for anyone
    logging.getLogger("service").setLevel(app.config["LOG_LEVEL"])
    app.url_map.strict_slashes = True  # paths are exactly the contract's: /healthz/ is a 404 naming /healthz
    for blueprint in (meta.blueprint, docs.blueprint, *(game_blueprint(game) for game in GAMES)):
        app.register_blueprint(blueprint)
    register_error_handlers(app)

    @app.after_request
    def _headers(response: Response) -> Response:
        i18n.set_headers(response)  # Content-Language, Vary: Accept-Language
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers.setdefault("Cache-Control", "no-store")
        return response

    cors.install(app)
    observability.install(app)  # request IDs, one JSON log line per request, /metrics
    return app
