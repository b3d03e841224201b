"""The service's own read-only resources: liveness, readiness, the list of games, the contract itself."""

from __future__ import annotations

import gzip
import hashlib
import json
import threading
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import yaml
from flask import Blueprint, Flask, Response, current_app, request
from werkzeug.http import parse_accept_header, parse_etags

from service.api import cors, i18n
from service.api.common import answer
from service.api.errors import NOT_READY, ApiProblem
from service.api.observability import ROUTE_KEY
from service.api.response import ServiceResponse
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
    """One form of the contract: its bytes, its media type and its entity tag (a hash of the bytes), and
    the same gzip-compressed (``Content-Encoding: gzip``, a fifth of the bytes) with a tag of its own: a
    different representation has a different tag (RFC 9110, 8.8.3)."""

    data: bytes
    mimetype: str
    etag: str  # unquoted
    gzipped: bytes
    gzip_etag: str

    @classmethod
    def of(cls, data: bytes, mimetype: str) -> Document:
        packed = gzip.compress(data, compresslevel=9, mtime=0)  # mtime 0: the same bytes on every start
        return cls(data, mimetype, _tag(data), packed, _tag(packed))


def _tag(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


@dataclass(frozen=True)
class Contract:
    yaml: Document
    json: Document


@cache
def contract(path: str) -> Contract:
    data = Path(path).read_bytes()
    # compact: the JSON form is for programs (7% fewer bytes than with spaces)
    as_json = json.dumps(yaml.load(data, Loader=SafeLoader), ensure_ascii=False, separators=(",", ":")).encode()
    return Contract(Document.of(data, "application/yaml"), Document.of(as_json, "application/json"))


CONTRACT_KEY = "card_rules.contract"


def install(app: Flask) -> None:
    """Build the contract's two documents now (in gunicorn's master, before the workers fork), and put
    ``ContractLane`` in front of Flask's dispatch (inside the middleware that ``observability.install`` adds
    later, so the lane's answers have the request ID, access line, metrics and headers of every answer).
    With CORS on, Flask's hook adds headers per origin: then Flask serves the documents, as every answer."""
    found = app.extensions[CONTRACT_KEY] = contract(app.config["OPENAPI_PATH"])
    if not cors.parse_origins(app.config.get("CORS_ORIGINS")):
        app.wsgi_app = ContractLane(app.wsgi_app, found)  # type: ignore[method-assign]  # Flask documents wrapping wsgi_app


@lru_cache(maxsize=64)
def accepts_gzip(header: str) -> bool:
    """Whether an ``Accept-Encoding`` value takes gzip: named (or ``x-gzip``, or ``*`` when gzip is not
    named) with a weight above 0 (RFC 9110, 12.5.3). Cached, for the most recent few values (clients send a
    handful; a client sending a new one each time must not grow the cache: at most 256 characters each)."""
    accepted = [(value.lower(), q) for value, q in parse_accept_header(header)]
    named = [q for value, q in accepted if value in ("gzip", "x-gzip")]
    if named:
        return max(named) > 0
    return any(value == "*" and q > 0 for value, q in accepted)


def negotiate(document: Document, environ: dict[str, Any]) -> tuple[bool, str, bool]:
    """(gzip, entity tag, not modified) of the answer with ``document`` to the request of ``environ``: gzip
    when the client's ``Accept-Encoding`` takes it; not modified (``304``) when its ``If-None-Match`` names
    the chosen form's entity tag (weak comparison, RFC 9110 13.1.2; ``*`` matches)."""
    encoding: str | None = environ.get("HTTP_ACCEPT_ENCODING")
    packed = bool(encoding and len(encoding) <= 256 and accepts_gzip(encoding))
    etag = document.gzip_etag if packed else document.etag
    given = environ.get("HTTP_IF_NONE_MATCH")
    return packed, etag, bool(given) and parse_etags(given).contains_weak(etag)


def serve(document: Document) -> Response:
    """The document as ``negotiate`` chooses. ``no-cache``: a client may keep it, asking again."""
    packed, etag, not_modified = negotiate(document, request.environ)
    if not_modified:
        response = Response(status=304)
    else:
        response = ServiceResponse(document.gzipped if packed else document.data, mimetype=document.mimetype)
        if packed:
            response.headers["Content-Encoding"] = "gzip"
    response.headers["ETag"] = f'"{etag}"'
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Vary"] = "Accept-Encoding"  # the i18n layer adds Accept-Language
    return response


class ContractLane:
    """WSGI layer in front of Flask: a plain ``GET`` or ``HEAD`` of ``/openapi.json`` or ``/openapi.yaml``
    answered from the built bytes and header lists, as ``serve`` answers it, without Flask's request
    context, URL matching, hooks and response object (as WhiteNoise serves static files in front of a
    framework). Those cost more than the rest of the answer: through Flask, serving the document took about
    as much server CPU as ``/healthz`` (bench/floor.py; figures in bench/README.md). Anything else (a body,
    another method or path) goes to Flask; tests/api/test_contract_lane.py holds the lane's answers equal to
    Flask's."""

    def __init__(self, app: Any, found: Contract) -> None:
        self.app = app
        self.routes = {
            f"/openapi.{form}": (document, f"meta.openapi_{form}", _answers(document))
            for form, document in (("json", found.json), ("yaml", found.yaml))
        }

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        route = self.routes.get(environ.get("PATH_INFO", ""))
        method = environ.get("REQUEST_METHOD")
        if (
            route is None
            or method not in ("GET", "HEAD")
            or environ.get("CONTENT_LENGTH")
            or (environ.get("HTTP_TRANSFER_ENCODING"))
        ):
            return self.app(environ, start_response)
        document, endpoint, answers = route
        environ[ROUTE_KEY] = environ["PATH_INFO"]  # what observability's hook notes from the URL rule
        i18n.note_endpoint(environ, endpoint)
        packed, _, not_modified = negotiate(document, environ)
        status, headers = answers[packed, not_modified]
        start_response(status, list(headers))
        if not_modified or method == "HEAD":
            return []
        return [document.gzipped if packed else document.data]


def _answers(document: Document) -> dict[tuple[bool, bool], tuple[str, list[tuple[str, str]]]]:
    """The status line and headers ``serve``'s response gives the server for each (gzip, not modified)."""
    found = {}
    for packed, etag, body in ((False, document.etag, document.data), (True, document.gzip_etag, document.gzipped)):
        tail = [("ETag", f'"{etag}"'), ("Cache-Control", "no-cache"), ("Vary", "Accept-Encoding")]
        head = [("Content-Type", document.mimetype), ("Content-Length", str(len(body)))]
        found[packed, True] = "304 NOT MODIFIED", tail
        found[packed, False] = "200 OK", head + ([("Content-Encoding", "gzip")] if packed else []) + tail
    return found


@blueprint.get("/healthz")
def healthz() -> Response:
    return answer({"status": "ok"})


DRAINING = threading.Event()
"""Set when this server process has been told to stop (the worker's SIGTERM: ``service/gunicorn_worker.py``):
it finishes what it holds and takes nothing new, so it is no longer ready."""


@blueprint.get("/readyz")
def readyz() -> Response:
    """Ready: the process serves every operation (the app is built whole before it answers at all) and is
    not stopping. A stopping one answers 503 ``not-ready``, so that a load balancer's readiness probe takes
    it out of rotation while its last requests finish; liveness (``/healthz``) stays 200 meanwhile."""
    if DRAINING.is_set():
        raise ApiProblem(503, "detail.draining", problem_type=NOT_READY)
    return answer({"status": "ready"})


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
