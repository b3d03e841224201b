"""The gunicorn worker the service runs on: gunicorn's threaded worker (``gthread``: keep-alive
connections, a few threads per process) with three production fixes. ``gunicorn.conf.py`` names it.

1. A request is read whole before a thread sees it, under deadlines. gunicorn's threaded worker hands a
   new connection to a thread, which waits up to 5 s for a first byte and then reads the headers and the
   body on a blocking socket with no deadline: 4 clients sending half a request hold the 4 threads of a
   worker, 20 hold a 2-worker service, forever. Here the worker's main loop reads every
   connection without blocking (one ``recv`` per readiness event, into a buffer per connection) until
   a whole request is there: its head (request line and headers) and, by ``Content-Length`` or the
   chunked framing, its body. Only then does a thread parse it, from the buffer, and run the app (a
   ``Content-Length`` body handed to it as its bytes, ``_hand_over_body``); a thread never waits for a
   client. A slow or silent client costs one socket and its buffer, nothing else. The deadlines (README,
   "Production"):

   * ``keepalive`` (5 s): a connection waiting for a request, new or kept alive, closes after that long
     without a byte (no answer: nothing was asked);
   * ``HEADER_TIMEOUT`` (5 s): the head of a request must arrive within that long of its first byte;
   * ``BODY_TIMEOUT`` (10 s): its body within that long of the end of its head;

   a request that misses either gets a 408 problem+json and its connection closes. A head over
   ``MAX_HEAD_BYTES`` is a 431 when it gets there; a ``Content-Length`` or a declared chunk over the
   body limit is handed over at once, before any of the body is read, and the app answers its 413. A
   chunked framing gunicorn's parser would refuse (a line not ended by CRLF, a size not in hex digits) is
   a 400 as soon as it shows, and chunked over another coding (``gzip, chunked``) a 501 at the head:
   gunicorn's parser would hand the app the coded bytes as they are.
   Every connection closed this way is counted in ``card_rules_connections_closed_total`` (``/metrics``).

2. A request that cannot be answered in time is not answered late. Its time starts when it has arrived
   (its last byte read). A thread that picks it up after ``timeout`` seconds (queued behind others)
   answers 503 problem+json with ``Retry-After`` instead of running it. A request still in the
   application ``timeout`` seconds after it arrived has its worker killed: the heartbeat never gets
   ahead of the arrival of the oldest request in the application, and the master kills a worker whose
   heartbeat is ``timeout`` old (SIGABRT, then SIGKILL) and starts a new one. The requests that worker
   held are logged and counted as lost (``card_rules_requests_lost_total``).

3. SIGTERM refuses new connections at once. On SIGTERM the master closes its copy of the listening
   socket, but every worker holds one too until it exits: meanwhile the kernel keeps completing
   handshakes for connections no one will accept, and resets them when the last worker exits (requests
   sent, never answered). Here a stopping worker closes its copy as soon as it stops accepting, so once
   all have, a new connection is refused (nothing was sent: safe for any client to retry elsewhere) while
   the requests in flight finish, within ``graceful_timeout``. Connections already queued when it closes
   its copy are taken and answered first, so that the close resets none of them. What no process can
   prevent: a handshake the kernel completes between the last worker's final accept and its close is reset
   by that close (microseconds; README, "Shutdown and failures").

4. New connections spread over the workers. The workers share one listening socket and the kernel
   wakes them all for a new connection; the first to call ``accept`` gets it, so one worker could take a
   whole burst of keep-alive connections and keep them while the other idles (bench/floor.py showed it
   under load). Each worker publishes how many connections it holds in a table shared by all (``Spread``:
   a slot per worker, set up by the master before the fork); a worker holding more than the least-loaded
   live worker lets a new connection wait up to ``SPREAD_DEFER`` s for that one to take it, and takes it
   itself after that (a busy or stuck worker never leaves a connection waiting longer).
   One listening socket, as before: a worker that exits or is recycled takes no queued connection with
   it (``SO_REUSEPORT``, a socket per worker, would lose the connections queued on an exiting worker's).

Also here, because they are about HTTP before the app: gunicorn's own refusals (400, 403, 414, 417, 431,
500, 501: ``handle_error``) and this worker's (400, 408, 431, 501, 503) are problem+json with the service's
headers (``problem_bytes``), counted in ``/metrics``, rather than gunicorn's HTML page; every answer names
the server ``card-rules``, without a product name or version (gunicorn's answer writer, ``Response``, says
``gunicorn``); a client's ``SCRIPT_NAME`` header is ignored; an HTTP/1.1 request without exactly one
``Host`` is a 400 (RFC 9112, section 3.2); an ``HTTP/1.2`` request is answered as ``HTTP/1.1``. All of it
by overriding the worker's methods: gunicorn's modules are used as they are.
"""

from __future__ import annotations

import errno
import io
import json
import logging
import mmap
import os
import re
import selectors
import socket
import sys
import threading
import time
import uuid
import weakref
from datetime import datetime
from functools import partial
from http import HTTPStatus
from ssl import SSLError
from typing import Any

from gunicorn import http, util
from gunicorn.http import wsgi
from gunicorn.http.body import CHUNK_EXT_RE, LengthReader
from gunicorn.http.errors import (
    ChunkMissingTerminator,
    ConfigurationProblem,
    ExpectationFailed,
    ForbiddenProxyRequest,
    InvalidChunkExtension,
    InvalidChunkSize,
    InvalidH2CPreface,
    InvalidHeader,
    InvalidHeaderName,
    InvalidHTTPVersion,
    InvalidProxyLine,
    InvalidRequestLine,
    InvalidRequestMethod,
    InvalidResponseHeader,
    InvalidResponseHeaderName,
    InvalidSchemeHeaders,
    LimitRequestHeaders,
    LimitRequestLine,
    ObsoleteFolding,
    UnsupportedTransferCoding,
)
from gunicorn.http.unreader import Unreader
from gunicorn.workers.gthread import TConn
from gunicorn.workers.gthread import ThreadWorker as GunicornThreadWorker

from service.api import meta, observability
from service.api.errors import REQUEST_URN, SERVER_PROBLEM_TYPES


def _env_seconds(name: str, default: float) -> float:
    value = os.environ.get(name, "").strip()
    return float(value) if value else default


HEADER_TIMEOUT = _env_seconds("CARD_RULES_HEADER_TIMEOUT", 5.0)
BODY_TIMEOUT = _env_seconds("CARD_RULES_BODY_TIMEOUT", 10.0)
MAX_BODY = int(os.environ.get("CARD_RULES_MAX_BODY_BYTES", "").strip() or 64 * 1024)
# Request line (2 KiB) and a browser's headers fit many times over; gunicorn's own limits (50 fields of
# 4 KiB) would let one connection buffer 200 KiB, 1,000 connections 200 MiB.
MAX_HEAD_BYTES = 32 * 1024
# A chunk-size line as gunicorn's parser reads it (RFC 9112, 7.1): hex digits, extensions, CRLF
CHUNK_LINE = re.compile(rb"([0-9A-Fa-f]+)(?:" + CHUNK_EXT_RE.pattern + rb")\r\n")
LINGER = 2.0  # seconds a closing connection is drained of what the client still sends (RFC 9112, 9.6)
SWEEP_EVERY = 0.1  # seconds between two looks for expired connections
RECV_BYTES = 64 * 1024
SWITCH_INTERVAL = float(os.environ.get("CARD_RULES_SWITCH_INTERVAL", "").strip() or 0.0005)

SPREAD_DEFER = _env_seconds("CARD_RULES_SPREAD_DEFER", 0.005)  # longest a new connection waits for a freer worker
SPREAD_SLACK = 16  # a worker defers to one holding fewer than its own count less 1/16 of it (``Spread``)
ACCEPT_BATCH = 32  # most connections taken per readiness event of the listening socket (``ThreadWorker.accept``)


class Spread:
    """How many connections each worker holds, in memory the master maps before forking the workers, so
    every worker reads the others' counts (one aligned int per slot: written by its worker alone, read
    without a lock; a count a moment old only moves a connection by one). A slot is -1 when free."""

    SLOTS = 64  # workers beyond this many (never in practice) take no part: they neither wait nor are waited for

    def __init__(self) -> None:
        self._memory = mmap.mmap(-1, 4 * self.SLOTS)  # anonymous and shared: the forked workers see one table
        self.counts = memoryview(self._memory).cast("i")
        for slot in range(self.SLOTS):
            self.counts[slot] = -1
        self._holders: list[Any] = [None] * self.SLOTS  # master side: slot -> weak reference to its worker

    def claim(self, worker: Any) -> int | None:
        """In the master, as a worker is made: a slot no live worker holds, set to 0 connections."""
        for slot, holder in enumerate(self._holders):
            if holder is None or holder() is None:
                self._holders[slot] = weakref.ref(worker)
                self.counts[slot] = 0
                return slot
        return None

    def release(self, slot: int | None) -> None:
        """The slot's worker is gone or stops accepting: no one waits for it."""
        if slot is not None:
            self.counts[slot] = -1

    def freer_elsewhere(self, slot: int | None, mine: int) -> bool:
        """Whether a live worker other than ``slot``'s holds fewer connections than ``mine`` less
        ``mine // SPREAD_SLACK``: exactly fewer for the few keep-alive connections of a pool (up to 16
        each), within a sixteenth for a burst of hundreds. Deferring on every difference of one made a
        burst alternate between the workers connection by connection, each pausing ``SPREAD_DEFER`` when
        ahead: on a loaded machine a burst of hundreds of connections waited in the kernel's queue until
        past their deadlines (bench/attack.py's "together" row; figures in bench/README.md)."""
        if slot is None:
            return False
        counts = self.counts
        fewer = mine - mine // SPREAD_SLACK
        return any(0 <= counts[other] < fewer for other in range(self.SLOTS) if other != slot)


SPREAD = Spread()  # made at import: gunicorn imports the worker class in the master, before any fork

# problem+json for the answers the HTTP layer gives before the app: their types are registered with the
# app's in service/api/errors.py (SERVER_PROBLEM_TYPES), which lists them all for docs/errors.md
SERVER_HEADER = "card-rules"
DETAILS = {
    400: "The chunked framing of the body is malformed: a chunk size is hex digits, every line ends with CRLF"
    " (RFC 9112, 7.1).",
    408: "The request did not arrive in time: its headers within {header} s of its first byte, its body"
    " within {body} s of its headers.",
    431: "The request's headers are larger than {limit} bytes.",
    501: "The body has a transfer coding other than chunked; this service decodes none.",
    503: "The service was too busy to start this request within {timeout} s of its arrival; retry.",
}

log = logging.getLogger("service.connections")


def problem_bytes(status: int, detail: str, headers: tuple[tuple[str, str], ...] = ()) -> bytes:
    """A whole HTTP/1.1 answer: problem+json with the headers every answer of the service has (request
    id, language, nosniff, no-store) and the request id as its ``instance``, closing the connection. English: the request's headers, with its
    Accept-Language, may not have been read."""
    request_id = uuid.uuid4().hex
    body = json.dumps(
        {
            "type": SERVER_PROBLEM_TYPES.get(status, "about:blank"),
            "title": HTTPStatus(status).phrase,
            "status": status,
            "detail": detail[:200],
            "instance": REQUEST_URN + request_id,
            "errors": [],
        }
    ).encode()
    lines = [
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}", f"Server: {SERVER_HEADER}", "Connection: close",
        "Content-Type: application/problem+json", "Content-Language: en", "Vary: Accept-Language",
        "X-Content-Type-Options: nosniff", "Cache-Control: no-store", f"X-Request-ID: {request_id}",
        *(f"{name}: {value}" for name, value in headers), f"Content-Length: {len(body)}",
    ]  # fmt: skip  # a table of the head's lines, a few to a line
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


# gunicorn's refusals of a request it cannot take, as its own ``Worker.handle_error`` makes them: the
# exception -> the status and the detail (the exception's text, with the words gunicorn adds to some). A test
# holds this table to gunicorn's handle_error, exception by exception (tests/production/test_worker_errors.py).
REFUSALS: tuple[tuple[type[BaseException] | tuple[type[BaseException], ...], int, str], ...] = (
    (InvalidRequestLine, 400, "Invalid Request Line '{}'"),
    (InvalidRequestMethod, 400, "Invalid Method '{}'"),
    (InvalidHTTPVersion, 400, "Invalid HTTP Version '{}'"),
    (UnsupportedTransferCoding, 501, "{}"),
    (ConfigurationProblem, 500, "{}"),
    (ObsoleteFolding, 400, "{}"),
    ((InvalidHeaderName, InvalidHeader), 400, "{}"),
    (LimitRequestLine, 414, "{}"),
    (ExpectationFailed, 417, "{}"),
    (LimitRequestHeaders, 431, "Error parsing headers: '{}'"),
    (InvalidProxyLine, 400, "'{}'"),
    (ForbiddenProxyRequest, 403, "Request forbidden"),
    (InvalidSchemeHeaders, 400, "{}"),
    ((InvalidChunkSize, ChunkMissingTerminator, InvalidChunkExtension), 400, "{}"),
    (InvalidH2CPreface, 400, "{}"),
    (SSLError, 403, "'{}'"),
)


def refusal(error: BaseException) -> tuple[int, str] | None:
    """(status, detail) of gunicorn's answer to a request it refuses for ``error``; None when ``error`` is not
    the client's fault (gunicorn answers 500 without a detail)."""
    if isinstance(error, (InvalidResponseHeader, InvalidResponseHeaderName)):  # a header the app sent
        return None
    for kinds, status, detail in REFUSALS:
        if isinstance(error, kinds):
            return status, detail.format(error)
    return None


class Response(wsgi.Response):  # type: ignore[misc]  # gunicorn has no stubs: its classes are Any
    """gunicorn's answer writer, with the service's name in the ``Server`` header: gunicorn writes it from
    the ``version`` attribute, which it sets to its own name."""

    def __init__(self, req: Any, sock: Any, cfg: Any) -> None:
        super().__init__(req, sock, cfg)
        self.version = SERVER_HEADER


class _Buffered(Unreader):  # type: ignore[misc]  # gunicorn has no stubs: its classes are Any
    """The parser's source for one request: the bytes the main loop read, then nothing. A thread never
    reads the socket; what the request did not use (a pipelined next request) is ``leftover``."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        self._data: bytes | None = data

    def chunk(self, size_hint: int | None = None) -> bytes:
        data, self._data = self._data or b"", None
        return data

    def leftover(self) -> bytes:
        buffered: bytes = self.buf.getvalue()  # what the parser read and gave back (Unreader's BytesIO)
        return buffered + (self._data or b"")


def _hand_over_body(req: Any, unreader: _Buffered) -> None:
    """Give the app a ``Content-Length`` body that is all in the buffer as the bytes themselves.

    gunicorn's ``Body`` over its ``LengthReader`` reads through three layers of Python per call (and the
    parser drains it after the answer the same way), a sizeable share of a light operation's whole request
    (``bench/instructions.py --layer parse``; figures in bench/README.md). The main loop hands a request
    over only once its whole body has arrived (``_advance``), so after the head is parsed the buffer holds
    the body and then whatever the client pipelined; the body becomes a ``BytesIO`` of exactly
    ``Content-Length`` bytes (every read a WSGI app makes: ``read``, ``readline``, iteration) and the rest
    stays for the next request. A chunked body, and one the main loop did not read (over the limit: the
    app answers 413 from the header), keep gunicorn's reader."""
    if type(req.body.reader) is not LengthReader:
        return
    length = req.body.reader.length
    held = unreader.take_buffered()
    if len(held) < length:
        unreader.unread(held)
        return
    req.body = io.BytesIO(held[:length])
    if len(held) > length:
        unreader.unread(held[length:])


# The stages of a connection in the main loop
IDLE, HEAD, BODY, CHUNKED, LINGERING = "idle", "head", "body", "chunked", "lingering"


class ThreadWorker(GunicornThreadWorker):  # type: ignore[misc]  # gunicorn has no stubs: its classes are Any
    alive: bool  # gunicorn's Worker: True until the worker stops (SIGTERM, max_requests, the master gone)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._running: dict[int, tuple[float, str]] = {}  # thread id -> (arrival, "METHOD /path")
        self._running_lock = threading.Lock()
        self._overdue_logged: set[tuple[float, str]] = set()  # the (arrival, label) of requests logged overdue
        self._waiting: dict[Any, None] = {}  # connections being read (or lingering) by the main loop
        self._next_sweep = 0.0
        self._local = threading.local()
        self.slot = SPREAD.claim(self)  # in the master, before the fork (``Spread``)
        self._paused_until = 0.0  # accepting paused until then: a freer worker may take the connection
        self._listener_names: dict[Any, Any] = {}  # listening socket -> its address (``_take``)

    # --- the main loop: reading requests whole ----------------------------------------------------

    def init_process(self) -> None:
        # The main loop needs the GIL for every socket event, and a thread computing an answer keeps it
        # for up to the switch interval (5 ms by default) each time the main loop asks: with four busy
        # threads the loop, and every request waiting on it, crawls. 0.5 ms hands it over sooner.
        sys.setswitchinterval(SWITCH_INTERVAL)
        observability.hold_access_lines()  # written by the main loop, a batch per turn (observability.py)
        super().init_process()

    def accept(self, listener: Any) -> None:
        """The connections queued on ``listener``, up to ``ACCEPT_BATCH``, while no live worker holds
        fewer (``Spread.freer_elsewhere``): each readiness event costs the main loop a wait for the GIL
        that the threads hold, so a burst is taken in a few turns, and still shared with the other workers.
        Without the spread check a batch let one worker take a whole burst of clients, and the workload
        behind hundreds of idle connections starved on that worker.

        A worker holding more connections than another live one first leaves the connection to it for
        up to ``SPREAD_DEFER`` s (point 4 above): it stops watching the listening socket meanwhile, and
        takes the connection itself when the pause ends if it is still queued (``set_accept_enabled``)."""
        if self._accepting_for_good and SPREAD.freer_elsewhere(self.slot, self.nr_conns):
            self._paused_until = time.monotonic() + SPREAD_DEFER
            self.set_accept_enabled(False)
            return
        for _ in range(ACCEPT_BATCH):
            if not self._take(listener) or self.nr_conns >= self.worker_connections:
                return
            if self._accepting_for_good and SPREAD.freer_elsewhere(self.slot, self.nr_conns):
                return

    def _take(self, listener: Any) -> bool:
        """Accept one connection queued on ``listener``; False when none is queued."""
        try:
            client, address = listener.accept()
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return False
        self.nr_conns += 1
        self._publish()
        name = self._listener_names.get(listener)
        if name is None:  # the address never changes: one system call per listening socket, not per connection
            name = self._listener_names[listener] = listener.getsockname()
        conn = TConn(self.cfg, client, address, name)  # TConn makes the socket non-blocking
        conn.initialized = True  # no TLS, no HTTP/2: the parser is ours (``handle``)
        self._wait_for_request(conn, b"", accepted=True)
        return True

    def _wait_for_request(self, conn: Any, data: bytes, accepted: bool = False) -> None:
        """Read ``conn``'s next request, starting with ``data`` (pipelined bytes already read)."""
        conn.front = bytearray(data)
        conn.head_end = -1
        conn.need = 0
        conn.oversized = False
        conn.expect_continue = False
        now = time.monotonic()
        conn.stage, conn.deadline = IDLE, now + (self.cfg.keepalive if self.alive else LINGER)
        if not accepted:  # after a thread's answer (its write timeout); a new socket is non-blocking already
            conn.sock.setblocking(False)
        self._watch(conn)
        if data:
            conn.stage, conn.deadline = HEAD, now + HEADER_TIMEOUT
            self._advance(conn)

    def _watch(self, conn: Any) -> None:
        if conn not in self._waiting:
            self._waiting[conn] = None
            self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._on_readable, conn))

    def _on_readable(self, conn: Any, _sock: Any) -> None:
        try:
            data = conn.sock.recv(RECV_BYTES)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if conn.stage == LINGERING:
            if not data:
                self._close(conn)
            return
        if not data:  # the client closed (or reset) without finishing a request: nothing to answer
            if conn.stage != IDLE:
                observability.CONNECTIONS_CLOSED.labels("incomplete").inc()
            self._close(conn)
            return
        conn.front += data
        if conn.stage == IDLE:
            conn.stage, conn.deadline = HEAD, time.monotonic() + HEADER_TIMEOUT
        self._advance(conn)

    def _advance(self, conn: Any) -> bool:
        """Look at what ``conn`` has sent: hand it to a thread when a whole request is there, refuse it,
        or wait for more. True when it is no longer being read."""
        front = conn.front
        if conn.stage == HEAD:
            end = front.find(b"\r\n\r\n", max(0, conn.head_end))
            if end < 0:
                if len(front) > MAX_HEAD_BYTES:
                    return self._refuse(conn, 431, DETAILS[431].format(limit=MAX_HEAD_BYTES), "head_too_large")
                conn.head_end = max(0, len(front) - 3)
                return False
            conn.head_end = end + 4
            if conn.head_end > MAX_HEAD_BYTES:
                return self._refuse(conn, 431, DETAILS[431].format(limit=MAX_HEAD_BYTES), "head_too_large")
            kind, length, conn.expect_continue = self._body_kind(bytes(front[:end]))
            if kind == "length" and length > MAX_BODY:  # the app's 413, before any byte of the body
                conn.oversized = True
                return self._dispatch(conn)
            if kind == "length" and length > 0:
                conn.stage, conn.need = BODY, conn.head_end + length
                conn.deadline = time.monotonic() + BODY_TIMEOUT
            elif kind == "chunked":
                conn.stage, conn.need, conn.body_bytes = CHUNKED, conn.head_end, 0
                conn.deadline = time.monotonic() + BODY_TIMEOUT
            elif kind == "coded":  # gunicorn's parser would hand the app the gzip (or other) bytes undecoded
                return self._refuse(conn, 501, DETAILS[501], "malformed")
            else:  # no body, or a framing gunicorn's parser refuses (its 400 or 501): hand it over now
                return self._dispatch(conn)
            if conn.expect_continue and len(front) == conn.head_end:
                self._send(conn, b"HTTP/1.1 100 Continue\r\n\r\n")
        if conn.stage == BODY:
            return self._dispatch(conn) if len(front) >= conn.need else False
        if conn.stage == CHUNKED:
            return self._advance_chunks(conn)
        return False

    def _advance_chunks(self, conn: Any) -> bool:
        """Follow the chunked framing as far as it has arrived; hand over at its end, or as soon as the
        declared sizes (or the trailers) pass the body limit. A framing error (a chunk-size line gunicorn's
        parser refuses, a line or a chunk's data not ended by CRLF) is a 400 here as soon as it shows,
        rather than reaching the app, waiting for the body's deadline or passing for an oversized body.
        The trailer fields themselves are gunicorn's to parse."""
        front, pos = conn.front, conn.need
        while True:
            line_end = front.find(b"\n", pos, pos + 1024)  # a chunk-size line of a kilobyte: not a chunk size
            if line_end < 0:
                if len(front) - pos >= 1024:
                    return self._refuse(conn, 400, DETAILS[400], "malformed")
                conn.need = pos
                return False
            line = CHUNK_LINE.fullmatch(front, pos, line_end + 1)
            if line is None:
                return self._refuse(conn, 400, DETAILS[400], "malformed")
            size = int(line[1], 16)
            if conn.body_bytes + size > MAX_BODY:
                conn.oversized = True
                return self._dispatch(conn)
            if size == 0:  # the last chunk, then trailer lines up to an empty one, counted in the body
                end = front.find(b"\r\n\r\n", line_end - 1)
                trailers = front[line_end + 1 : end + 4 if end >= 0 else len(front)]
                if trailers.count(b"\n") != trailers.count(b"\r\n"):
                    return self._refuse(conn, 400, DETAILS[400], "malformed")
                if end >= 0:
                    return self._dispatch(conn)
                if conn.body_bytes + len(trailers) > MAX_BODY:
                    conn.oversized = True
                    return self._dispatch(conn)
                conn.need = pos
                return False
            chunk_end = line_end + 1 + size + 2
            if len(front) < chunk_end:
                conn.need = pos
                return False
            if front[chunk_end - 2 : chunk_end] != b"\r\n":
                return self._refuse(conn, 400, DETAILS[400], "malformed")
            conn.body_bytes += size
            pos = chunk_end

    @staticmethod
    def _body_kind(head: bytes) -> tuple[str, int, bool]:
        """("length", n), ("chunked", 0), ("coded", 0) (chunked over another coding, which gunicorn's
        parser lets through undecoded), ("none", 0) or ("bad", 0) from the head's framing headers, and
        whether it asks for a 100 Continue. gunicorn's parser checks the head properly later."""
        kind, length, expect = "none", 0, False
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                value = value.strip()
                if not value.isdigit() or kind != "none":
                    return "bad", 0, expect
                kind, length = "length", int(value)
            elif name == b"transfer-encoding":
                if kind != "none":
                    return "bad", 0, expect
                codings = value.lower().split(b",")
                kind = "bad" if codings[-1].strip() != b"chunked" else "coded" if len(codings) > 1 else "chunked"
            elif name == b"expect":
                expect = value.strip().lower() == b"100-continue"
        return kind, length, expect

    def _dispatch(self, conn: Any) -> bool:
        self._unwatch(conn)
        conn.arrived = time.monotonic()
        self.enqueue_req(conn)
        return True

    def _refuse(self, conn: Any, status: int, detail: str, reason: str) -> bool:
        """Answer ``status`` from the main loop and close ``conn`` (after a linger)."""
        observability.CONNECTIONS_CLOSED.labels(reason).inc()
        log.info("connection closed", extra={"fields": {"status": status, "reason": reason, "pid": os.getpid()}})
        self._send(conn, problem_bytes(status, detail))
        if self.alive:
            self._linger(conn)
        else:  # stopping: no linger, the worker is about to exit
            self._close(conn)
        return True

    @staticmethod
    def _send(conn: Any, data: bytes) -> None:
        try:
            conn.sock.send(data)  # non-blocking; a few hundred bytes fit any socket buffer
        except OSError:
            pass

    def _linger(self, conn: Any) -> None:
        """Half-close, then let the client's remaining bytes drain for ``LINGER`` s before closing, so the
        answer is not cut by a reset (RFC 9112, 9.6), without a thread or the main loop waiting."""
        try:
            conn.sock.shutdown(socket.SHUT_WR)
        except OSError:
            self._close(conn)
            return
        conn.stage, conn.deadline, conn.front = LINGERING, time.monotonic() + LINGER, bytearray()
        conn.sock.setblocking(False)
        self._watch(conn)

    def _unwatch(self, conn: Any) -> None:
        if self._waiting.pop(conn, 0) is None:
            try:
                self.poller.unregister(conn.sock)
            except (KeyError, ValueError, OSError):
                pass

    def _close(self, conn: Any) -> None:
        self._unwatch(conn)
        self.nr_conns -= 1
        self._publish()
        conn.close()

    def _publish(self) -> None:
        if self.slot is not None and self._accepting_for_good:
            SPREAD.counts[self.slot] = self.nr_conns

    def _sweep(self, force: bool = False) -> None:
        """Close the connections whose deadline has passed (all, with ``force``)."""
        now = time.monotonic()
        if not force and now < self._next_sweep:
            return
        self._next_sweep = now + SWEEP_EVERY
        for conn in [c for c in self._waiting if force or c.deadline <= now]:
            if conn.stage in (HEAD, BODY, CHUNKED) and not force:
                reason = "header_timeout" if conn.stage == HEAD else "body_timeout"
                self._refuse(conn, 408, DETAILS[408].format(header=HEADER_TIMEOUT, body=BODY_TIMEOUT), reason)
            else:
                if conn.stage == IDLE:
                    observability.CONNECTIONS_CLOSED.labels("idle_timeout").inc()
                self._close(conn)

    def wait_for_and_dispatch_events(self, timeout: float) -> None:
        # Connections being read (or stopping): look at their deadlines every SWEEP_EVERY, not only when the
        # wait for events (a second) ends, so that each is closed a sweep after its deadline at most.
        timeout = min(timeout, SWEEP_EVERY) if self._waiting or not self.alive else timeout
        if self._paused_until:  # wake when the pause for a freer worker ends (``accept``)
            timeout = max(0.0, min(timeout, self._paused_until - time.monotonic()))
        super().wait_for_and_dispatch_events(timeout)
        observability.write_held_lines()

    # gthread's own bookkeeping of waiting connections, replaced by ``_waiting``
    def murder_keepalived(self, force: bool = False) -> None:
        self._sweep(force)

    def murder_pending(self) -> None:
        pass

    def _cap_keepalive(self, deadline: float) -> None:
        """Stopping: every connection being read closes by ``deadline`` (a request completed before
        then is still answered, with "Connection: close")."""
        for conn in self._waiting:
            conn.deadline = min(conn.deadline, deadline)
        self._next_sweep = 0.0

    def finish_request(self, conn: Any, fs: Any) -> None:
        """A thread is done with ``conn`` (main loop): read its next request, or close it."""
        try:
            keep = fs.result() if not fs.cancelled() else False
            if keep:
                self._wait_for_request(conn, conn.parser.unreader.leftover())
            else:
                self._linger(conn)
        except Exception:  # whatever went wrong, the connection goes
            self._close(conn)

    # --- a thread: one request, from the buffer -------------------------------------------------------

    def handle(self, conn: Any) -> Any:
        req = None
        try:
            conn.sock.settimeout(self.cfg.timeout)  # writing the answer: a client that never reads it
            if conn.parser is None:
                conn.parser = http.get_parser(self.cfg, [], conn.client)
            conn.parser.unreader = _Buffered(bytes(conn.front))
            conn.front = bytearray()
            req = next(conn.parser)
            if not req:
                return False
            _hand_over_body(req, conn.parser.unreader)
            return self._keepalive_after(conn, self.handle_request(req, conn))
        except (http.errors.NoMoreData, StopIteration):
            pass
        except OSError as error:
            if error.errno not in (errno.EPIPE, errno.ECONNRESET, errno.ENOTCONN, None):
                self.log.exception("Socket error processing request.")
        except Exception as error:  # gunicorn's answer for a malformed request
            self.handle_error(req, conn.sock, conn.client, error)
        return False

    def handle_request(self, req: Any, conn: Any) -> Any:
        arrived = getattr(conn, "arrived", time.monotonic())
        if time.monotonic() - arrived > self.cfg.timeout:
            observability.CONNECTIONS_CLOSED.labels("expired").inc()
            log.warning(
                "request expired in the queue",
                extra={"fields": {"method": req.method, "path": req.path[:256], "status": 503, "pid": os.getpid()}},
            )
            conn.sock.sendall(
                problem_bytes(503, DETAILS[503].format(timeout=self.cfg.timeout), (("Retry-After", "1"),))
            )
            return False
        if req.version == (1, 1) and sum(name == "HOST" for name, _ in req.headers) != 1:
            conn.sock.sendall(problem_bytes(400, "An HTTP/1.1 request has exactly one Host header (RFC 9112, 3.2)."))
            return False
        if req.version > (1, 1):  # RFC 9110, 2.5: served as the highest minor version this server speaks
            req.version = (1, 1)
        req.headers = [(name, value) for name, value in req.headers if name != "SCRIPT_NAME"]
        if conn.oversized:
            req.headers = [(n, v) for n, v in req.headers if n not in ("CONTENT-LENGTH", "TRANSFER-ENCODING")]
            req.headers.append(("CONTENT-LENGTH", str(MAX_BODY + 1)))  # the app answers 413, reads nothing
            req.must_close = True
        # The main loop sends the 100 Continue when it waits for a body it will read; none for a body it
        # refused unread (over the limit) or already has.
        req._expected_100_continue = False
        if len(self._waiting) >= self.max_keepalived:
            req.must_close = True
        thread = threading.get_ident()
        with self._running_lock:
            self._running[thread] = (arrived, f"{req.method} {req.path[:256]}")
        try:
            return self._serve(req, conn)
        finally:
            with self._running_lock:
                self._running.pop(thread, None)

    def _serve(self, req: Any, conn: Any) -> bool:
        """gunicorn's threaded worker's ``handle_request``, answering through this module's ``Response``
        (``wsgi.create`` takes the answer writer's class): run the app and write its answer; whether the
        connection stays open. (The check of gthread's kept-alive connections is ``handle_request``'s above,
        on ``_waiting``, which replaces them.)"""
        environ: dict[str, Any] = {}
        resp = None
        try:
            self.cfg.pre_request(self, req)
            request_start = datetime.now()
            resp, environ = wsgi.create(req, conn.sock, conn.client, conn.server, self.cfg, response_class=Response)
            environ["wsgi.multithread"] = True
            self.nr += 1
            if self.nr >= self.max_requests:
                if self.alive:
                    self.log.info("Autorestarting worker after current request.")
                    self.alive = False
                resp.force_close()
            if not self.alive or not self.cfg.keepalive:
                resp.force_close()
            respiter = self.wsgi(environ, resp.start_response)
            try:
                if isinstance(respiter, environ["wsgi.file_wrapper"]):
                    resp.write_file(respiter)
                else:
                    for item in respiter:
                        resp.write(item)
                resp.close()
            finally:
                self.log.access(resp, req, environ, datetime.now() - request_start)
                if hasattr(respiter, "close"):
                    respiter.close()
            if resp.should_close():
                self.log.debug("Closing connection.")
                return False
        except OSError:
            raise
        except (Exception, SystemExit):
            if resp and resp.headers_sent:  # a second answer on the same socket would corrupt the first
                self.log.exception("Error handling request")
                util.close_graceful(conn.sock)
                raise StopIteration() from None
            raise
        finally:
            try:
                self.cfg.post_request(self, req, environ, resp)
            except Exception:  # gunicorn's own handling of its hook
                self.log.exception("Exception in post_request hook")
        return True

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        """gunicorn's answer to a request it cannot take (or to an error before the app answered), logged as
        gunicorn logs it, but as problem+json with the service's headers (``problem_bytes``) instead of its
        HTML page, and counted (``card_rules_connections_closed_total{reason="malformed"}``). gunicorn's access
        log is off (gunicorn.conf.py: the service writes its own lines), so none is written here."""
        addr = addr or ("", -1)  # a Unix socket
        found = refusal(exc)
        if found is not None:
            status, detail = found
            self.log.warning(f"Invalid request from ip={addr[0]}: {exc}")
        else:
            status, detail = 500, ""
            if hasattr(req, "uri") and hasattr(req, "method"):
                self.log.exception("Error handling request %s %s", req.method, req.uri)
            elif hasattr(req, "uri"):
                self.log.exception("Error handling request %s", req.uri)
            else:
                self.log.exception("Error handling request (no URI read)")
        observability.CONNECTIONS_CLOSED.labels("malformed").inc()
        try:
            util.write_nonblock(client, problem_bytes(status, detail))
        except Exception:  # the client may be gone
            self.log.debug("Failed to send error message.")

    # --- the heartbeat: a request past ``timeout`` takes its worker down ----------------------------

    def notify(self) -> None:
        """Heartbeat at the arrival of the oldest request in the application, or now if none."""
        now = time.monotonic()
        with self._running_lock:
            oldest = min(self._running.values(), default=None)
            running = set(self._running.values())
        heartbeat = now
        if oldest is not None:
            heartbeat = min(now, oldest[0])
            if now - oldest[0] > self.cfg.timeout / 2 and oldest not in self._overdue_logged:
                self._overdue_logged.add(oldest)
                self.log.error(
                    "request %s running for %.1f s; past %s s this worker is replaced",
                    oldest[1],
                    now - oldest[0],
                    self.cfg.timeout,
                )
        self._overdue_logged &= running  # once per request, not once per worker
        os.utime(self.tmp.fileno(), (heartbeat, heartbeat))

    def handle_abort(self, sig: int, frame: Any) -> None:
        """The master's SIGABRT after ``timeout``: log and count the requests lost with this worker, then
        exit now. (gunicorn's ``sys.exit`` would wait for the stuck request's thread, until the master's
        SIGKILL a second later.)"""
        self.alive = False
        now = time.monotonic()
        with self._running_lock:
            running = list(self._running.values())
        observability.WORKER_TIMEOUTS.inc()
        observability.REQUESTS_LOST.inc(len(running))
        for arrived, label in running:
            log.error(
                "request lost: its worker was killed after the timeout",
                extra={"fields": {"request": label, "running_s": round(now - arrived, 3), "pid": os.getpid()}},
            )
        self.cfg.worker_abort(self)
        observability.write_held_lines()
        os._exit(1)

    # --- SIGTERM: stop accepting at once ----------------------------------------------------------------

    def handle_exit(self, sig: int, frame: Any) -> None:
        """gunicorn's SIGTERM (the worker stops when its requests are done), and ``GET /readyz`` answers 503
        from now on: a request on a connection still open is served, but the process is no longer ready."""
        meta.DRAINING.set()
        super().handle_exit(sig, frame)

    @property
    def _accepting_for_good(self) -> bool:
        return self.alive and not getattr(self, "_closed_listeners", False)

    def set_accept_enabled(self, enabled: bool) -> None:
        if enabled and self._paused_until:  # gunicorn's loop re-enables at once: not before the pause ends
            if time.monotonic() < self._paused_until:
                return
            self._paused_until = 0.0
            super().set_accept_enabled(True)
            for listener in self.sockets:  # what no freer worker took meanwhile is this one's
                self._take(listener)
            return
        super().set_accept_enabled(enabled)
        if not enabled and not self.alive and not getattr(self, "_closed_listeners", False):
            # stopping (SIGTERM, max_requests): no one waits for this worker, and its listening sockets close
            self._closed_listeners = True
            SPREAD.release(self.slot)
            for listener in self.sockets:
                self._accept_pending(listener)
                listener.close()

    def _accept_pending(self, listener: Any) -> None:
        """Take the connections already queued on ``listener`` (they are served, with "Connection:
        close"), so that closing it resets none: only a connection arriving after the close is refused."""
        try:
            listener.setblocking(False)
        except OSError:
            return
        while self._take(listener):
            pass
