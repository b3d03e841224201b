"""The worker hands the app a ``Content-Length`` body as its bytes (``_hand_over_body``): exactly the
declared bytes, whatever follows them kept for the next request, and gunicorn's own reader for anything
else (a chunked body, a body the main loop did not read whole)."""

from __future__ import annotations

import io

from gunicorn import http
from gunicorn.config import Config
from gunicorn.http.body import Body, ChunkedReader

from service.gunicorn_worker import _Buffered, _hand_over_body

BODY = b'{"cards": ["3C", "3D"]}'
NEXT = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"


def parsed(raw: bytes):
    """The first request of ``raw`` as the worker's thread parses it, and the parser's buffer."""
    parser = http.get_parser(Config(), [], ("127.0.0.1", 40000))
    parser.unreader = _Buffered(raw)
    req = next(parser)
    _hand_over_body(req, parser.unreader)
    return parser, req


def post(body: bytes, length: int | None = None) -> bytes:
    declared = len(body) if length is None else length
    return b"POST /v1/big-two/plays/classify HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (declared, body)


def test_the_body_is_exactly_the_declared_bytes_and_a_pipelined_request_stays_buffered():
    parser, req = parsed(post(BODY) + NEXT)
    assert type(req.body) is io.BytesIO
    assert req.body.read(len(BODY) + 100) == BODY  # a read past the end stops at the body's end
    assert parser.unreader.leftover() == NEXT
    following = next(parser)  # the next request parses from what was left
    assert (following.method, following.path) == ("GET", "/healthz")


def test_the_body_reads_by_lines_as_a_wsgi_app_may():
    _, req = parsed(post(b"[1,\n2]") + NEXT)
    assert req.body.readline() == b"[1,\n" and list(req.body) == [b"2]"]


def test_a_body_the_app_never_read_is_skipped_and_the_next_request_parses():
    parser, _ = parsed(post(BODY) + NEXT)
    following = next(parser)  # the parser drains the unread body first
    assert (following.method, following.path) == ("GET", "/healthz")


def test_a_request_without_a_body_reads_empty():
    parser, req = parsed(NEXT + NEXT)
    assert req.body.read() == b""
    assert parser.unreader.leftover() == NEXT


def test_a_body_not_all_buffered_keeps_gunicorns_reader():
    raw = post(BODY[:5], length=len(BODY))  # the main loop hands over early only for a body over the limit
    parser, req = parsed(raw)
    assert type(req.body) is Body
    assert req.body.read() == BODY[:5]  # what there is, through gunicorn's reader as before


def test_a_chunked_body_keeps_gunicorns_reader():
    raw = b"POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n" + NEXT
    parser, req = parsed(raw)
    assert type(req.body) is Body and type(req.body.reader) is ChunkedReader
    assert req.body.read() == b"hello"
    assert (next(parser).method, parser.mesg.path) == ("GET", "/healthz")
