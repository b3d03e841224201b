"""What gunicorn answers itself, as the service's worker class answers it (``service/gunicorn_worker.py``):
its refusals as problem+json with the status and the message gunicorn's own ``handle_error`` gives, and the
``Server`` header naming the service; gunicorn's modules are left as shipped. Served end to end by
tests/production/test_server.py and test_attacks.py."""

from __future__ import annotations

import html
import inspect
import json
import socket
import ssl
from typing import Any
from unittest import mock

import gunicorn
import gunicorn.http.errors as gunicorn_errors
import gunicorn.http.wsgi
import gunicorn.util
import pytest
from gunicorn.workers.base import Worker

from service.api.errors import SERVER_PROBLEM_TYPES
from service.gunicorn_worker import SERVER_HEADER, Response, ThreadWorker

TEXT = "a <b> & 'c'"  # what a client sent, quoted back by some messages


def failures() -> list[BaseException]:
    """An instance of every exception gunicorn's parser raises, of the two about the app's headers, and two
    that are no request's fault."""
    found: list[BaseException] = []
    for _, kind in inspect.getmembers(gunicorn_errors, inspect.isclass):
        if issubclass(kind, gunicorn_errors.ParseException):
            own = kind.__init__ is not Exception.__init__  # (InvalidSchemeHeaders takes no argument)
            required = [p for p in inspect.signature(kind).parameters.values() if p.default is p.empty] if own else []
            found.append(kind(*[TEXT] * len(required)))
    return [*found, ssl.SSLError(1, TEXT), RuntimeError(TEXT)]


def answer_of(handle_error: Any, error: BaseException) -> tuple[bytes, mock.Mock]:
    """What ``handle_error`` writes to the client for ``error`` (no request read), and its log."""
    worker = mock.Mock(spec=["log", "cfg"])
    server_side, client_side = socket.socketpair()
    with server_side, client_side:
        with mock.patch("service.gunicorn_worker.observability.CONNECTIONS_CLOSED"):
            handle_error(worker, None, server_side, ("192.0.2.1", 1234), error)
        server_side.shutdown(socket.SHUT_WR)
        data = b""
        while chunk := client_side.recv(65536):
            data += chunk
    return data, worker.log


def gunicorns(error: BaseException) -> tuple[int, str, list[str]]:
    """(status, message, log calls) of gunicorn's own answer: its HTML page, read back."""
    data, log = answer_of(Worker.handle_error, error)
    head, _, page = data.decode("latin-1").partition("\r\n\r\n")
    message = page.split("</h1>\n", 1)[1].rsplit("\n  </body>", 1)[0].strip()
    return int(head.split()[1]), html.unescape(message), [name for name, _, _ in log.method_calls]


def ours(error: BaseException) -> tuple[int, str, list[str], dict[str, str], dict[str, Any]]:
    data, log = answer_of(ThreadWorker.handle_error, error)
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    problem = json.loads(body)
    return int(lines[0].split()[1]), problem["detail"], [name for name, _, _ in log.method_calls], headers, problem


@pytest.mark.parametrize("error", failures(), ids=lambda error: type(error).__name__)
def test_each_refusal_has_gunicorns_status_message_and_log_as_problem_json(error):
    status, message, logged = gunicorns(error)
    got_status, detail, got_logged, headers, problem = ours(error)
    assert (got_status, detail, got_logged) == (status, message[:200], logged)
    assert problem["type"] == SERVER_PROBLEM_TYPES[status] and problem["status"] == status
    assert headers["Content-Type"] == "application/problem+json" and headers["Server"] == SERVER_HEADER
    assert headers["Connection"] == "close" and headers["X-Content-Type-Options"] == "nosniff"


def test_the_check_sees_every_kind_of_refusal():
    statuses = {gunicorns(error)[0] for error in failures()}
    assert statuses == {400, 403, 414, 417, 431, 500, 501}


def test_the_answer_writer_names_the_service():
    req = mock.Mock(version=(1, 1), method="GET", should_close=mock.Mock(return_value=False))
    response = Response(req, mock.Mock(), mock.Mock(protocol="http"))
    response.start_response("200 OK", [("Content-Length", "2")])
    written = "".join(response.default_headers())
    assert f"\r\nServer: {SERVER_HEADER}\r\n" in written and "gunicorn" not in written.lower()


def test_gunicorn_is_left_as_shipped():
    assert gunicorn.http.wsgi.SERVER == gunicorn.SERVER == "gunicorn"
    assert gunicorn.http.wsgi.Response.__init__ is not Response.__init__
    assert gunicorn.util.write_error.__module__ == "gunicorn.util"
