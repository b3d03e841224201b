"""The service's own read-only resources: liveness, the list of games, the contract itself."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import yaml
from flask import Blueprint, Response, current_app

from service.api import i18n
from service.api.common import answer
from service.rules import messages

blueprint = Blueprint("meta", __name__)

GAMES = [
    {
        "id": "ofc-pineapple",
        "name": "Pineapple Open-Face Chinese Poker",
        "native_name": "大菠蘿",
        "rule_set": "ofc-pineapple/ultimate-fantasyland/2026-09-22",
        "players": {"min": 3, "max": 3},
        "deck": {"cards": 52, "jokers": 0, "description": messages.text("http", "games.ofc-pineapple.deck")},
        "base_path": "/v1/ofc-pineapple",
    },
    {
        "id": "joker-thirteen",
        "name": "Joker Thirteen with an extra spade suit",
        "native_name": "鬼牌十三支加一色",
        "rule_set": "joker-thirteen/gscas",
        "players": {"min": 4, "max": 4},
        "deck": {"cards": 68, "jokers": 3, "description": messages.text("http", "games.joker-thirteen.deck")},
        "base_path": "/v1/joker-thirteen",
    },
    {
        "id": "big-two",
        "name": "Taiwanese Big Two",
        "native_name": "台灣大老二",
        "rule_set": "big-two/taiwan",
        "players": {"min": 4, "max": 4},
        "deck": {"cards": 52, "jokers": 0, "description": messages.text("http", "games.big-two.deck")},
        "base_path": "/v1/big-two",
    },
]


@cache
def spec_text(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


@cache
def spec_json(path: str) -> str:
    return json.dumps(yaml.safe_load(spec_text(path)), ensure_ascii=False)


@blueprint.get("/healthz")
def healthz() -> Response:
    return answer({"status": "ok"})


@blueprint.get("/v1/games")
def games() -> Response:
    language = i18n.language()
    if language == messages.EN:
        return answer({"games": GAMES})
    translated = [
        {**game, "deck": {**game["deck"], "description": messages.text("http", f"games.{game['id']}.deck", language)}}
        for game in GAMES
    ]
    return answer({"games": translated})


@blueprint.get("/openapi.yaml")
def openapi_yaml() -> Response:
    return Response(spec_text(current_app.config["OPENAPI_PATH"]), mimetype="application/yaml")


@blueprint.get("/openapi.json")
def openapi_json() -> Response:
    return Response(spec_json(current_app.config["OPENAPI_PATH"]), mimetype="application/json")
