"""The service's own read-only resources: liveness, the list of games, the contract itself."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from flask import Blueprint, Flask, Response, current_app, request
from werkzeug.http import parse_etags

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
        "deck": {
            "cards": game.deck.cards,
            "jokers": game.deck.jokers,
            "description": messages.text("games", f"games.{game.id}.deck", language),
        },
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


# --- the contract, served as built once --------------------------------------------------------------
# ``create_app`` builds both documents, so under gunicorn (``preload_app``) the master builds them before
# the workers fork and they share the bytes: no worker parses the YAML on its first request (that was
# 60-340 ms and 25 MiB per worker, again after every recycling), and no request encodes 200 KB.

SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's loader when PyYAML has it: 6x faster


@dataclass(frozen=True)
class Document:
    """One form of the contract: its bytes, its media type and its entity tag (a hash of the bytes)."""

    data: bytes
    mimetype: str
    etag: str  # unquoted

    @classmethod
    def of(cls, data: bytes, mimetype: str) -> Document:
        return cls(data, mimetype, hashlib.sha256(data).hexdigest()[:32])


@dataclass(frozen=True)
class Contract:
    yaml: Document
    json: Document


@cache
def contract(path: str) -> Contract:
    data = Path(path).read_bytes()
    as_json = json.dumps(yaml.load(data, Loader=SafeLoader), ensure_ascii=False).encode()  # noqa: S506 - a safe loader
    return Contract(Document.of(data, "application/yaml"), Document.of(as_json, "application/json"))


CONTRACT_KEY = "card_rules.contract"


def install(app: Flask) -> None:
    """Build the contract's two documents now (in gunicorn's master, before the workers fork)."""
    app.extensions[CONTRACT_KEY] = contract(app.config["OPENAPI_PATH"])


def serve(document: Document) -> Response:
    """The document, or ``304 Not Modified`` when the client's ``If-None-Match`` names its entity tag
    (weak comparison, RFC 9110 13.1.2; ``*`` matches). ``no-cache``: a client may keep it, asking again."""
    given = request.environ.get("HTTP_IF_NONE_MATCH")
    if given and parse_etags(given).contains_weak(document.etag):
        response = Response(status=304)
    else:
        response = Response(document.data, mimetype=document.mimetype)
    response.headers["ETag"] = f'"{document.etag}"'
    response.headers["Cache-Control"] = "no-cache"
    return response


@blueprint.get("/healthz")
def healthz() -> Response:
    return answer({"status": "ok"})


@blueprint.get("/v1/games")
def games() -> Response:
    language = i18n.language()
    if language == messages.EN:
        return answer({"games": GAMES})
    return answer({"games": [game_entry(game, language) for game in registry.GAMES]})


def _contract() -> Contract:
    found = current_app.extensions.get(CONTRACT_KEY)
    return found if found is not None else contract(current_app.config["OPENAPI_PATH"])


@blueprint.get("/openapi.yaml")
def openapi_yaml() -> Response:
    return serve(_contract().yaml)


@blueprint.get("/openapi.json")
def openapi_json() -> Response:
    return serve(_contract().json)
