"""One error handler for every HTTP failure: RFC 9457 problem+json, never HTML, never a stack trace."""
from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

from flask import Flask, Response
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from service.api import i18n
from service.rules.errors import InvalidInputError
from service.rules.messages import text as catalog_text

PROBLEM_JSON = "application/problem+json"
PROBLEM_TYPES = {
    400: "urn:card-rules:problem:malformed-json",
    404: "urn:card-rules:problem:not-found",
    405: "urn:card-rules:problem:method-not-allowed",
    413: "urn:card-rules:problem:body-too-large",
    415: "urn:card-rules:problem:unsupported-media-type",
    422: "urn:card-rules:problem:invalid-input",
    500: "urn:card-rules:problem:internal-error",
}
TITLES = {status: catalog_text("http", f"title.{status}") for status in PROBLEM_TYPES}
"""The titles in English; answers carry them in the client's language (``i18n.title``)."""

log = logging.getLogger(__name__)


class ApiProblem(HTTPException):
    """An HTTP failure with its detail and the JSON pointers of what caused it."""

    def __init__(self, status: int, detail: str, errors: list[dict[str, str]] | None = None):
        super().__init__(detail)
        self.code = status
        self.detail = detail
        self.errors = errors or []


def escape_pointer(part: object) -> str:
    return str(part).replace("~", "~0").replace("/", "~1")


def pointer(path: tuple[object, ...]) -> str:
    return "".join("/" + escape_pointer(p) for p in path)


def marshmallow_errors(messages: Any, prefix: tuple[object, ...] = ()) -> Iterator[dict[str, str]]:
    """Flatten marshmallow's nested messages into ``{"pointer", "message"}`` entries."""
    if isinstance(messages, dict):
        for key, sub in messages.items():
            yield from marshmallow_errors(sub, prefix if key == "_schema" else prefix + (key,))
    elif isinstance(messages, list):
        for message in messages:
            yield from marshmallow_errors(message, prefix)
    else:
        yield {"pointer": pointer(prefix), "message": i18n.schema_message(messages)}


MAX_ERRORS = 100  # a pathological request could hold thousands; the first hundred locate the fault


def problem(status: int, detail: str, errors: list[dict[str, str]] | None = None) -> Response:
    errors = errors or []
    if len(errors) > MAX_ERRORS:
        detail = i18n.text("detail.truncated", count=len(errors), listed=MAX_ERRORS) + detail[:2000]
        errors = errors[:MAX_ERRORS]
    body: dict[str, Any] = {
        "type": PROBLEM_TYPES.get(status, "about:blank"),
        "title": i18n.title(status),
        "status": status,
        "detail": detail,
        "errors": errors,
    }
    return Response(json.dumps(body), status=status, mimetype=PROBLEM_JSON)


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ApiProblem)
    def _api_problem(error: ApiProblem) -> Response:
        errors = [{**e, "message": i18n.translate(e["message"])} if "message" in e else e for e in error.errors]
        return problem(error.code, i18n.translate(error.detail), errors)

    @app.errorhandler(ValidationError)
    def _invalid(error: ValidationError) -> Response:
        errors = list(marshmallow_errors(error.messages))
        return problem(422, i18n.join_errors("detail.schema", errors), errors)

    @app.errorhandler(InvalidInputError)
    def _impossible(error: InvalidInputError) -> Response:
        errors = [{"pointer": pointer(p.path), "message": i18n.problem_message(p)} for p in error.problems]
        return problem(422, i18n.join_errors("detail.impossible", errors), errors)

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException) -> Response:
        status = error.code or 500
        response = problem(status, i18n.translate(error.description) if error.description else i18n.title(status))
        if status == 405 and error.get_response().headers.get("Allow"):
            response.headers["Allow"] = error.get_response().headers["Allow"]
        return response

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Response:
        # A bug, never the client's fault: log it with the trace, answer without one.
        log.exception("unhandled error")
        return problem(500, i18n.text("detail.internal"))
