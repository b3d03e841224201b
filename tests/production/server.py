"""A real gunicorn for the production tests: ``gunicorn --config gunicorn.conf.py`` on 127.0.0.1 and a free
port (``bench.common.GunicornServer``), always stopped; and raw-socket HTTP helpers."""

from __future__ import annotations

import json
import re
import socket
import time
from typing import Any

LOOPBACK = "127.0.0.1"


def exchange(port: int, raw: bytes, timeout: float = 10.0) -> tuple[int, dict[str, str], bytes]:
    """Send ``raw`` on a new connection; (status, headers with lower-case names, body) of the answer."""
    with socket.create_connection((LOOPBACK, port), timeout=timeout) as sock:
        sock.sendall(raw)
        return read_answer(sock)


def read_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed before an answer: {data!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed inside the body")
        body += chunk
    return int(lines[0].split()[1]), headers, body


def read_answers(sock: socket.socket, count: int) -> list[tuple[int, bytes]]:
    """``count`` answers in a row from ``sock`` (pipelined: one recv may hold several)."""
    data, answers = b"", []
    while len(answers) < count:
        head_end = data.find(b"\r\n\r\n")
        if head_end >= 0:
            length = int(re.search(rb"(?im)^content-length: *(\d+)", data[:head_end]).group(1))
            if len(data) >= head_end + 4 + length:
                answers.append((int(data.split(b" ", 2)[1]), data[head_end + 4 : head_end + 4 + length]))
                data = data[head_end + 4 + length :]
                continue
        chunk = sock.recv(65536)
        assert chunk, (answers, data)
        data += chunk
    return answers


def get(
    port: int, path: str, headers: dict[str, str] | None = None, timeout: float = 10.0
) -> tuple[int, dict[str, str], bytes]:
    extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    return exchange(
        port, f"GET {path} HTTP/1.1\r\nHost: {LOOPBACK}\r\nConnection: close\r\n{extra}\r\n".encode(), timeout
    )


def post_json(
    port: int, path: str, body: Any, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    data = json.dumps(body).encode()
    extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    raw = (f"POST {path} HTTP/1.1\r\nHost: {LOOPBACK}\r\nConnection: close\r\nContent-Type: application/json\r\n"
           f"Content-Length: {len(data)}\r\n{extra}\r\n").encode() + data  # fmt: skip
    return exchange(port, raw)


def wait_until(predicate, timeout: float = 10.0, step: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()
