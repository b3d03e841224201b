"""The service's own read-only resources: liveness, the list of games, the contract itself."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from flask import Blueprint, Response, current_app

from service.api import i18n
from service.api.common import answer
from service.rules import games as registry
from service.rules import messages

blueprint = Blueprint("meta", __name__)

def game_entry(game: registry.Game, language: str = messages.EN) -> dict[str, Any]:
    """One game of ``GET /v1/games``, from the registry."""
    low, high = game.players
    return {
        "id": game.id,
        "name": game.name,
        "native_name": game.native_name,
        "rule_set": game.default.source,
        "players": {"min": low, "max": high},
        "deck": {"cards": game.deck.cards, "jokers": game.deck.jokers, "description": messages.text("games", f"games.{game.id}.deck", language)},
        "base_path": game.base_path,
        "rule_sets": [rule_set_entry(game, r, language) for r in game.rule_sets],
    }


def rule_set_entry(game: registry.Game, rule_set: registry.RuleSet, language: str) -> dict[str, Any]:
    """One rule set: names, source, description, players and, where the game's rules are an object, every
    parameter and their digest."""
    entry: dict[str, Any] = {
        "id": rule_set.id,
        "name": rule_set.name,
        "native_name": rule_set.native_name,
        "source": rule_set.source,
        "description": messages.text("games", f"rule_sets.{game.id}.{rule_set.id}", language),
        "default": rule_set is game.default,
        "players": {"min": rule_set.players[0], "max": rule_set.players[1]},
    }
    if rule_set.rules is not None:
        entry["rules_digest"] = rule_set.rules.digest
        entry["rules"] = rule_set.rules.describe()
    return entry


GAMES = [game_entry(game) for game in registry.GAMES]
"""The English list (the other languages are built per request: only the deck's description changes)."""


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
    return answer({"games": [game_entry(game, language) for game in registry.GAMES]})


@blueprint.get("/openapi.yaml")
def openapi_yaml() -> Response:
    return Response(spec_text(current_app.config["OPENAPI_PATH"]), mimetype="application/yaml")


@blueprint.get("/openapi.json")
def openapi_json() -> Response:
    return Response(spec_json(current_app.config["OPENAPI_PATH"]), mimetype="application/json")
