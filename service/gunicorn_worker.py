"""The gunicorn worker the service runs on: gunicorn's threaded worker (``gthread``: keep-alive
connections, a few threads per process) with two production fixes. ``gunicorn.conf.py`` names it.

1. A request that cannot be answered in time is cut off. gunicorn's ``timeout`` kills a worker that has
   stopped telling the master it is alive; the ``sync`` worker stops while it serves a request, so a
   request running past ``timeout`` dies with its worker. The threaded worker's main loop tells the
   master it is alive whatever its threads are doing, so a stuck request would run on forever. Here the
   heartbeat never gets ahead of the oldest request still in the application: once one has run for
   ``timeout`` seconds the master kills the worker (SIGABRT, then SIGKILL) and starts a new one, as with
   ``sync``. The clients of that worker's requests in flight see their connections close unanswered.

2. SIGTERM refuses new connections at once. On SIGTERM the master closes its copy of the listening
   socket, but every worker holds one too until it exits: meanwhile the kernel keeps completing
   handshakes for connections no one will accept, and resets them when the last worker exits (requests
   sent, never answered). Here a stopping worker closes its copy as soon as it stops accepting, so once
   all have, a new connection is refused (nothing was sent: safe for any client to retry elsewhere) while
   the requests in flight finish, within ``graceful_timeout``. Connections already queued when it closes
   its copy are taken and answered first, so that the close resets none of them. What no process can
   prevent: a handshake the kernel completes between the last worker's final accept and its close is reset
   by that close (microseconds; README, "Shutdown and failures").
"""
from __future__ import annotations

import os
import threading
import time
from typing import Any

from gunicorn.workers.gthread import ThreadWorker as GunicornThreadWorker


class ThreadWorker(GunicornThreadWorker):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._running: dict[int, tuple[float, str]] = {}  # thread id -> (start, "METHOD /path")
        self._running_lock = threading.Lock()
        self._overdue_logged = False

    def handle_request(self, req: Any, conn: Any) -> Any:
        thread = threading.get_ident()
        with self._running_lock:
            self._running[thread] = (time.monotonic(), f"{req.method} {req.path}")
        try:
            return super().handle_request(req, conn)
        finally:
            with self._running_lock:
                self._running.pop(thread, None)

    def notify(self) -> None:
        """Heartbeat at the start of the oldest request in the application, or now if none."""
        now = time.monotonic()
        with self._running_lock:
            oldest = min(self._running.values(), default=None)
        heartbeat = now
        if oldest is not None:
            heartbeat = min(now, oldest[0])
            if now - oldest[0] > self.cfg.timeout / 2 and not self._overdue_logged:
                self._overdue_logged = True
                self.log.error("request %s running for %.1f s; past %s s this worker is replaced",
                               oldest[1], now - oldest[0], self.cfg.timeout)  # fmt: skip
        os.utime(self.tmp.fileno(), (heartbeat, heartbeat))

    def handle_abort(self, sig: int, frame: Any) -> None:
        """The master's SIGABRT after ``timeout``: exit now. (gunicorn's ``sys.exit`` would wait for the
        stuck request's thread, until the master's SIGKILL a second later.)"""
        self.alive = False
        self.cfg.worker_abort(self)
        os._exit(1)

    def set_accept_enabled(self, enabled: bool) -> None:
        super().set_accept_enabled(enabled)
        if not enabled and not self.alive:  # stopping (SIGTERM, max_requests): close our listening sockets
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
        while True:
            count = self.nr_conns
            self.accept(listener)  # one connection, or nothing when none is queued
            if self.nr_conns == count:
                return
