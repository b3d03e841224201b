"""Limits on what one request may ask of the service, beyond the body size (``MAX_CONTENT_LENGTH``, 413)
and the array bounds every request schema enforces.

JSON nesting: no request of the contract nests deeper than a handful of levels, but a 64 KiB body can nest
32,000 arrays, and Python's JSON decoder stops with a RecursionError near 1,000. Any body nested deeper
than ``MAX_JSON_DEPTH`` is a 422 with a clear detail, whatever its depth, before any schema sees it.
"""

from __future__ import annotations

from typing import Any, BinaryIO

from flask import Request
from werkzeug.exceptions import RequestEntityTooLarge

from service.api.errors import TOO_DEEP_CODE, ApiProblem
from service.rules.messages import Message

MAX_JSON_DEPTH = 32  # arrays and objects; the request examples of the contract nest at most 5 levels

TOO_DEEP = Message("http", "detail.too_deep", {"depth": MAX_JSON_DEPTH})


class LimitedRequest(Request):
    """Flask's request with ``MAX_CONTENT_LENGTH`` read once, when the app is made (``limited_request``):
    Flask's property looks up ``current_app`` and its config on every read, a measurable share of loading
    a light operation's body (bench/loading.py; figures in bench/README.md). A limit set on one request
    still wins, as in Flask."""

    body_limit: int | None = None

    @property
    def max_content_length(self) -> int | None:
        found = self._max_content_length
        return self.body_limit if found is None else found

    @max_content_length.setter
    def max_content_length(self, value: int | None) -> None:
        self._max_content_length = value


def limited_request(limit: int | None) -> type[LimitedRequest]:
    """The request class of an app whose ``MAX_CONTENT_LENGTH`` is ``limit``."""
    return type("LimitedRequest", (LimitedRequest,), {"body_limit": limit})


def read_body(req: Request) -> bytes:
    """The body of ``req``, at most ``MAX_CONTENT_LENGTH`` bytes (413
    beyond), whether or not it has a Content-Length.

    Werkzeug refuses a Content-Length above the limit, but reads a chunked body (no Content-Length) only
    up to the limit and stops there without a word: the answer would be a 400 about truncated JSON, not
    the 413 it is. So a chunked body is read here, one byte past the limit to tell."""
    environ = req.environ
    limit = req.max_content_length
    length_text = environ.get("CONTENT_LENGTH")
    if length_text and length_text.isdecimal():  # the usual case, read from the environ: werkzeug's
        length = int(length_text)  # properties cost more than the read on this hot path
        if limit is not None and length > limit:
            raise RequestEntityTooLarge()
        # Exactly Content-Length bytes straight from the server's stream: werkzeug's get_data wraps it in
        # a limited stream first, which costs more than the read itself.
        source: BinaryIO = environ["wsgi.input"]  # the WSGI input stream (PEP 3333)
        return source.read(length)
    if limit is None or "chunked" not in req.headers.get("Transfer-Encoding", "").lower():
        return req.get_data(cache=False)
    stream = environ["wsgi.input"]  # gunicorn has decoded the chunks and ends it at the last one
    body = bytearray()
    try:
        while len(body) <= limit:
            chunk = stream.read(limit + 1 - len(body))
            if not chunk:
                break
            body += chunk
    except Exception:  # a broken chunk or a disconnect, whatever the server raises for it
        raise ApiProblem(400, "detail.chunked_unreadable") from None
    if len(body) > limit:
        raise RequestEntityTooLarge()
    return bytes(body)


def too_deep() -> ApiProblem:
    return ApiProblem(
        422, TOO_DEEP.code, TOO_DEEP.params, [{"pointer": "", "code": TOO_DEEP_CODE, "message": TOO_DEEP}]
    )


def nesting_depth_exceeds(raw: bytes, body: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the parsed ``body`` (from ``raw``) nests arrays and objects more than ``limit`` levels deep.

    A body with at most ``limit`` brackets and braces cannot (one C-speed count answers the usual case);
    otherwise the containers are walked without recursion."""
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    stack = [(body, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        node, depth = pop()
        if depth > limit:
            return True
        for child in node.values() if type(node) is dict else node:
            kind = type(child)
            if kind is list or kind is dict:
                push((child, depth + 1))
    return False


def check_json_depth(raw: bytes, body: Any) -> None:
    if (type(body) is list or type(body) is dict) and nesting_depth_exceeds(raw, body):
        raise too_deep()
