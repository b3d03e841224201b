"""One error handler for every HTTP failure: RFC 9457 problem+json, never HTML, never a stack trace."""

from __future__ import annotations

import difflib
import json
import logging
from collections.abc import Iterator, Mapping
from typing import Any

from flask import Flask, Response, current_app, request
from marshmallow import ValidationError
from werkzeug.exceptions import BadRequest, HTTPException, MethodNotAllowed, NotFound, RequestEntityTooLarge

from service.api import i18n, texts
from service.api.observability import METRICS_PATH, REQUEST_ID_KEY, answers_metrics
from service.api.response import ServiceResponse
from service.api.tracing import TRACE_KEY
from service.rules.errors import InvalidInputError
from service.rules.messages import Message

PROBLEM_JSON = "application/problem+json"
PROBLEM_URN = "urn:card-rules:problem:"
PROBLEM_TYPES = {
    400: PROBLEM_URN + "malformed-json",
    404: PROBLEM_URN + "not-found",
    405: PROBLEM_URN + "method-not-allowed",
    413: PROBLEM_URN + "body-too-large",
    415: PROBLEM_URN + "unsupported-media-type",
    422: PROBLEM_URN + "invalid-input",
    500: PROBLEM_URN + "internal-error",
    503: PROBLEM_URN + "overloaded",  # a heavy operation beyond its worker's cap (service/api/heavy.py)
}
"""The problem types the application answers, by status."""
NOT_READY = PROBLEM_URN + "not-ready"
OTHER_PROBLEM_TYPES = {NOT_READY: 503}  # GET /readyz while the server process stops (service/api/meta.py)
"""The application's problem types that are not their status's (``ApiProblem``'s ``problem_type``) -> status."""
REQUEST_URN = "urn:card-rules:request:"
"""A problem's ``instance``: this prefix and the request id (``X-Request-ID``), which the log line holds."""
SERVER_PROBLEM_TYPES = {
    400: PROBLEM_URN + "malformed-request",
    403: PROBLEM_URN + "forbidden",
    408: PROBLEM_URN + "request-timeout",
    413: PROBLEM_URN + "body-too-large",
    414: PROBLEM_URN + "request-line-too-long",
    417: PROBLEM_URN + "expectation-failed",
    431: PROBLEM_URN + "headers-too-large",
    500: PROBLEM_URN + "internal-error",
    501: PROBLEM_URN + "not-implemented",
    503: PROBLEM_URN + "overloaded",
}
"""The problem types of the answers given before the application, by status: gunicorn's own refusals and
those of the service's worker (``service/gunicorn_worker.py`` reads them here, so that the HTTP layer need
not import the server). ``docs/errors.md`` and ``openapi.yaml`` list these and ``PROBLEM_TYPES``
(``service/api/catalog.py``, and a test that they are complete)."""

SCHEMA_ERROR_CODES = {
    "unknown": "unknown_field",
    "unknown_near": "unknown_field",
    "required": "required",
    "null": "null",
    "type": "wrong_type",
    "root_type": "wrong_type",
    "nested.type": "wrong_type",
    "list.invalid": "wrong_type",
    "string.invalid": "wrong_type",
    "string.invalid_utf8": "wrong_type",
    "integer.invalid": "wrong_type",
    "number.invalid": "wrong_type",
    "boolean.invalid": "wrong_type",
    "length.equal": "wrong_length",
    "length.between": "wrong_length",
    "length.min": "wrong_length",
    "length.max": "wrong_length",
    "one_of": "not_one_of",
    "range.between": "out_of_range",
    "range.min": "out_of_range",
    "range.max": "out_of_range",
    "number.too_large": "out_of_range",
    "validator_failed": "invalid_value",
}
"""The machine ``code`` of a 422 ``errors`` entry for each request-schema message (``texts.SCHEMA``); the
rules core's problems and the game-specific schema checks carry their own codes (``texts.SchemaMessage``
of a game's ``Message``)."""
INVALID = "invalid_value"  # a schema message the catalog does not know (a test keeps this unreachable)
TOO_DEEP_CODE = "too_deep"

log = logging.getLogger(__name__)


class ApiProblem(HTTPException):
    """An HTTP failure: the key of its detail (``texts.HTTP``) with its parameters, and the JSON pointers of
    what caused it (each entry's ``message`` a ``Message``). The error handler renders both, with the
    answer's own ``headers`` (a 503's ``Retry-After``) and, when it is not its status's, its ``problem_type``."""

    code: int  # werkzeug's HTTPException may have none; an ApiProblem always has its status

    def __init__(
        self,
        status: int,
        detail: str,
        params: Mapping[str, Any] | None = None,
        errors: list[dict[str, Any]] | None = None,
        headers: dict[str, str] | None = None,
        problem_type: str | None = None,
    ):
        super().__init__(detail)
        self.code = status
        self.problem_type = problem_type
        self.detail = Message("http", detail, params or {})
        self.errors = errors or []
        self.headers = headers or {}


def escape_pointer(part: object) -> str:
    return str(part).replace("~", "~0").replace("/", "~1")


def pointer(path: tuple[object, ...]) -> str:
    return "".join("/" + escape_pointer(p) for p in path)


class Unlisted(int):
    """How many faults a refusal found beyond those it lists (``schema.StrictSchema`` refusing an object of
    far too many keys), under the key ``UNLISTED`` of marshmallow's messages: counted, never rendered."""


UNLISTED = Unlisted  # the key (not a string: never taken for a field's name)


def schema_faults(messages: Any, prefix: tuple[object, ...] = ()) -> Iterator[tuple[tuple[object, ...], Any]]:
    """Flatten marshmallow's nested messages into (path, message) pairs, unrendered; an ``Unlisted`` count
    is a pair of its own."""
    if isinstance(messages, dict):
        for key, sub in messages.items():
            yield from schema_faults(sub, prefix if key == "_schema" else prefix + (key,))
    elif isinstance(messages, list):
        for message in messages:
            yield from schema_faults(message, prefix)
    else:
        yield prefix, messages


def marshmallow_errors(messages: Any) -> tuple[list[dict[str, str]], int]:
    """The first ``MAX_ERRORS`` of marshmallow's messages as ``{"pointer", "code", "message"}`` entries, and
    how many faults there are in all. Only the entries listed are rendered, each distinct message once: a
    body of thousands of faults costs what a hundred do."""
    listed: list[dict[str, str]] = []
    rendered: dict[tuple[int, bool], tuple[str, str]] = {}  # by the message object and whether at the root
    count = 0
    for path, message in schema_faults(messages):
        if type(message) is Unlisted:
            count += message
            continue
        count += 1
        if len(listed) < MAX_ERRORS:
            key = (id(message), not path)
            if key not in rendered:
                rendered[key] = schema_error(message, path)
            code, text = rendered[key]
            listed.append({"pointer": pointer(path), "code": code, "message": text})
    return listed, count


def schema_error(message: Any, path: tuple[object, ...]) -> tuple[str, str]:
    """(code, text in the answer's language) of one request-schema message at ``path``: each carries its
    key (``texts.SchemaMessage``), a game's own code or marshmallow's message key in ``texts.SCHEMA``."""
    found = texts.schema_message(message)
    if found is None:  # a text of no catalog (a test keeps this unreachable): as it is
        return INVALID, str(message)
    if found.domain != "schema":
        return found.code, i18n.message(found)
    key = found.code
    if key == "type" and not path:  # the body itself is not an object: say so, at the pointer ""
        key = "root_type"
    return SCHEMA_ERROR_CODES.get(key, INVALID), i18n.render("schema", key, found.params)


MAX_ERRORS = 100  # a pathological request could hold thousands; the first hundred locate the fault


def problem(
    status: int,
    detail: str,
    errors: list[dict[str, str]] | None = None,
    problem_type: str | None = None,
    count: int | None = None,
) -> Response:
    """The problem+json answer: its ``type`` (its status's unless given), ``instance`` naming the request
    (its id as a URN) and the request's ``trace_id`` (``observability.Observed`` notes both in the WSGI
    environ), and the first ``MAX_ERRORS`` causes, of ``count`` (by default as many as ``errors``)."""
    errors = errors or []
    count = len(errors) if count is None else count
    if count > MAX_ERRORS:
        detail = i18n.text("detail.truncated", count=count, listed=MAX_ERRORS) + detail[:2000]
        errors = errors[:MAX_ERRORS]
    environ = request.environ
    if problem_type is None:
        problem_type, title = PROBLEM_TYPES.get(status, "about:blank"), i18n.title(status)
    else:  # a type of OTHER_PROBLEM_TYPES: a title of its own
        title = i18n.text("title." + problem_type.removeprefix(PROBLEM_URN))
    body: dict[str, Any] = {
        "type": problem_type,
        "title": title,
        "status": status,
        "detail": detail,
        "instance": REQUEST_URN + environ[REQUEST_ID_KEY],
        "trace_id": environ[TRACE_KEY].trace_id,
        "errors": errors,
    }
    return ServiceResponse(
        json.dumps(body, ensure_ascii=False), status=status, mimetype=PROBLEM_JSON
    )  # UTF-8, like every answer


def not_found_detail(path: str) -> str:
    """A 404's detail: where the operations are (``GET /v1/games``) and, for a path that only differs by a
    trailing slash from one of ours, that path. A path this request may not read (``/metrics`` on the
    service's port) is never named: a client is pointed to public paths only."""
    bare = path.rstrip("/")
    if bare and bare != path and bare not in hidden_paths():
        adapter = current_app.url_map.bind("localhost")
        try:
            adapter.match(bare, method="POST" if request.method == "POST" else "GET")
        except HTTPException as found:
            if found.code == 405:
                return i18n.text("detail.trailing_slash", path=path, bare=bare)
        else:
            return i18n.text("detail.trailing_slash", path=path, bare=bare)
    near = nearest_path(path)
    if near is not None:
        return i18n.text("detail.no_such_path_near", path=path[:200], near=near)
    return i18n.text("detail.no_such_path", path=path[:200])


NEAR_PATH_CUTOFF = 0.8  # difflib's ratio: a path this close to one of ours is named (a typo, a missing dash)
NEAR_PATH_LENGTH = 100  # characters of the asked path compared: no path of ours is half as long


def nearest_path(path: str) -> str | None:
    """The path of ours closest to ``path`` when it is close (``/v1/bigtwo/plays/classify`` ->
    ``/v1/big-two/plays/classify``), else None. A fixed number of paths, each compared with at most
    ``NEAR_PATH_LENGTH`` characters: the same bounded cost for any path a client sends."""
    found = difflib.get_close_matches(path[:NEAR_PATH_LENGTH], hinted_paths(), n=1, cutoff=NEAR_PATH_CUTOFF)
    return found[0] if found else None


def hidden_paths() -> frozenset[str]:
    """The paths of ours a 404 of this request never names: ``/metrics`` where this request could not read
    it (``observability.answers_metrics``)."""
    return frozenset() if answers_metrics(request.environ) else frozenset({METRICS_PATH})


def hinted_paths() -> list[str]:
    """The fixed paths of ours a 404 of this request may name."""
    hidden = hidden_paths()
    return [r.rule for r in current_app.url_map.iter_rules() if "<" not in r.rule and r.rule not in hidden]


WERKZEUG_DETAILS = {
    BadRequest: "detail.bad_request",
    NotFound: "detail.not_found",
    MethodNotAllowed: "detail.method_not_allowed",
    RequestEntityTooLarge: "detail.too_large",
}
"""werkzeug's own description of a failure it raises outside our routes -> its ``http`` key."""


def werkzeug_detail(error: HTTPException) -> str:
    """The detail of a failure werkzeug raised: its description's text when it is werkzeug's own, the
    status's title otherwise (a description of no catalog is never answered)."""
    for kind, key in WERKZEUG_DETAILS.items():
        if isinstance(error, kind) and error.description == type(error).description:
            return i18n.text(key)
    return i18n.title(error.code or 500)


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ApiProblem)
    def _api_problem(error: ApiProblem) -> Response:
        errors = [{**e, "message": i18n.message(e["message"])} if "message" in e else e for e in error.errors]
        response = problem(error.code, i18n.message(error.detail), errors, error.problem_type)
        response.headers.update(error.headers)
        return response

    @app.errorhandler(ValidationError)
    def _invalid(error: ValidationError) -> Response:
        errors, count = marshmallow_errors(error.messages)
        return problem(422, i18n.join_errors("detail.schema", errors), errors, count=count)

    @app.errorhandler(InvalidInputError)
    def _impossible(error: InvalidInputError) -> Response:
        errors = [
            {"pointer": pointer(p.path), "code": p.code, "message": i18n.problem_message(p)}
            for p in error.problems[:MAX_ERRORS]
        ]
        return problem(422, i18n.join_errors("detail.impossible", errors), errors, count=len(error.problems))

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException) -> Response:
        status = error.code or 500
        allowed = error.get_response().headers.get("Allow") if status == 405 else None
        if allowed:  # werkzeug lists them from a set: in one order, whatever the hash seed
            allowed = ", ".join(sorted(allowed.split(", ")))
        if status == 404:
            detail = not_found_detail(request.path)
        elif status == 413:
            detail = i18n.text("detail.too_large_bytes", limit=current_app.config["MAX_CONTENT_LENGTH"])
        elif allowed:
            path = request.path[:200]
            detail = i18n.text("detail.method_not_allowed_here", path=path, method=request.method, allowed=allowed)
        else:
            detail = werkzeug_detail(error)
        response = problem(status, detail)
        if allowed:
            response.headers["Allow"] = allowed
        return response

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Response:
        # A bug, never the client's fault: log it with the trace, answer without one.
        log.exception("unhandled error")
        return problem(500, i18n.text("detail.internal"))
