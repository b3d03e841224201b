"""New connections spread over the workers (``service/gunicorn_worker.py``, point 4): a worker
holding more connections than another live one leaves a new connection to it for a moment, and takes it
itself when that one does not. The table the workers share is tested in process; the spreading and its
bound on a real gunicorn."""

from __future__ import annotations

import os
import signal
import socket
import time

import pytest

from bench.common import GunicornServer
from bench.floor import CLOSE_WAIT, ESTABLISHED, connections_by_worker, server_inodes
from service.gunicorn_worker import Spread
from tests.production.server import LOOPBACK, read_answer, wait_until

pytestmark = pytest.mark.xdist_group("production-processes")

KEEP_ALIVE_GET = f"GET /healthz HTTP/1.1\r\nHost: {LOOPBACK}\r\n\r\n".encode()


class Holder:
    """Stands for a worker object (the table keeps a weak reference to it)."""


def test_a_worker_defers_only_to_a_live_worker_holding_fewer_connections():
    spread = Spread()
    first, second = Holder(), Holder()
    a, b = spread.claim(first), spread.claim(second)
    assert (a, b) == (0, 1)
    spread.counts[a], spread.counts[b] = 3, 2
    assert spread.freer_elsewhere(a, 3) and not spread.freer_elsewhere(b, 2)
    spread.counts[a] = 2
    assert not spread.freer_elsewhere(a, 2)  # a tie: take it
    spread.release(b)  # stopping, or gone: no one waits for it
    assert not spread.freer_elsewhere(a, 5)
    assert not spread.freer_elsewhere(None, 5)  # a worker without a slot never waits


def test_a_worker_holding_many_connections_defers_only_beyond_a_sixteenth_of_them():
    # a burst of hundreds is taken by both workers at once, not alternately connection by connection
    spread = Spread()
    first, second = Holder(), Holder()
    a, b = spread.claim(first), spread.claim(second)
    spread.counts[a], spread.counts[b] = 320, 301
    assert not spread.freer_elsewhere(a, 320)  # 301 is within 320 // 16 = 20 of 320
    spread.counts[b] = 299
    assert spread.freer_elsewhere(a, 320)
    spread.counts[a], spread.counts[b] = 15, 14
    assert spread.freer_elsewhere(a, 15)  # a pool's few connections: exactly fewer


def test_a_slot_is_reused_once_its_worker_is_gone():
    spread = Spread()
    first = Holder()
    assert spread.claim(first) == 0
    assert spread.claim(Holder()) == 1  # this one is gone at once, its slot free again
    del first
    assert spread.claim(Holder()) == 0
    assert spread.counts[0] == 0


def _window(port: int, connections: int) -> list[socket.socket]:
    """Open ``connections`` keep-alive connections one after the other, each answered once."""
    socks = []
    for _ in range(connections):
        sock = socket.create_connection((LOOPBACK, port), timeout=10)
        sock.sendall(KEEP_ALIVE_GET)
        assert read_answer(sock)[0] == 200
        socks.append(sock)
    return socks


def _closes_counted(port: int) -> bool:
    """No server-side connection of ``port`` is left open: none established, none closed by the client but
    not yet by its worker (CLOSE_WAIT). A worker publishes its new count before it closes a connection
    (``ThreadWorker._close``), so then every worker's count is current; a fixed sleep was too short on a
    loaded machine (a window came out 9/7)."""
    return not server_inodes(port, (ESTABLISHED, CLOSE_WAIT))


def _close_all(port: int, socks: list[socket.socket]) -> None:
    for sock in socks:
        sock.close()
    assert wait_until(lambda: _closes_counted(port), timeout=10, step=0.02)


def _both_workers_take_connections(server: GunicornServer) -> None:
    """Wait until each of the two workers takes a connection (on a loaded machine a worker may still be
    starting when the master answers its first request, and the other would take everything meanwhile)."""

    def one_each() -> bool:
        socks = _window(server.port, 2)
        time.sleep(0.05)
        split = connections_by_worker(server)
        _close_all(server.port, socks)
        return split == [1, 1]

    assert wait_until(one_each, timeout=30, step=0.2)


def test_keep_alive_connections_spread_evenly_over_the_workers():
    # A generous wait for the freer worker, so that a loaded test machine does not decide the split.
    with GunicornServer(workers=2, env={"CARD_RULES_SPREAD_DEFER": "0.2"}) as server:
        _both_workers_take_connections(server)
        splits = []
        for connections in (8, 8, 8, 9, 16):
            socks = _window(server.port, connections)
            time.sleep(0.05)
            splits.append(connections_by_worker(server))
            _close_all(server.port, socks)
    assert splits == [[4, 4], [4, 4], [4, 4], [5, 4], [8, 8]]


def test_a_worker_that_cannot_accept_delays_a_connection_by_the_wait_only():
    defer = 0.2
    with GunicornServer(workers=2, env={"CARD_RULES_SPREAD_DEFER": str(defer)}) as server:
        _both_workers_take_connections(server)
        held = _window(server.port, 2)  # one each: a tie
        time.sleep(0.05)
        assert connections_by_worker(server) == [1, 1]
        stopped = server.worker_pids()[0]
        os.kill(stopped, signal.SIGSTOP)  # it cannot take the connections left to it
        try:
            waits = []
            for _ in range(3):
                started = time.monotonic()
                held += _window(server.port, 1)
                waits.append(time.monotonic() - started)
        finally:
            os.kill(stopped, signal.SIGCONT)
        split = connections_by_worker(server)
        for sock in held:
            sock.close()
    # the first new connection is a tie (1 and 1): taken at once; the next two wait for the stopped worker
    # (it holds fewer) for ``defer`` s, then the running one takes them
    assert split == [4, 1]
    assert waits[0] < defer and all(defer * 0.9 < wait < defer + 1.0 for wait in waits[1:])
