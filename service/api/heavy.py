"""A per-worker cap on the heavy requests running at once.

A heavy operation (``boards/outlook``, ``fantasyland/solve``, ``arrangements/suggest``) can spend hundreds
of times what a light one does on a request within the contract's limits (bench/heavy.py measures each
one's heaviest). Its work is bounded per request, but a worker runs its requests on a few threads under
one interpreter lock: with every thread on a heavy request, the requests behind them (``/healthz``, the
orchestrator's probe, among them) wait for a thread, and each heavy request takes as many times longer as
there are beside it, up to the request timeout, past which the worker is killed with every answer it held.

So each worker runs at most ``CARD_RULES_HEAVY_CONCURRENCY`` heavy requests at once (``DEFAULT_CONCURRENCY``
unless set; keep it below ``GUNICORN_THREADS``, so that threads stay free for the light requests). A heavy
request finding them all taken is not queued: it is answered at once with a 503 problem+json of type
``overloaded`` (the type the server answers a request that waited past the timeout for a thread) and
``Retry-After``, which a client retries as it would that one. The cap is a non-blocking semaphore per
app, made by ``install`` when the app is made: gunicorn forks the workers after (``preload_app``), so each
worker has its own. An operation is made heavy once, where it is routed, by the ``heavy`` decorator;
openapi.yaml documents the 503 on exactly those operations (tests/api/test_heavy.py).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from flask import Flask, current_app

from service.api.errors import ApiProblem

ENVIRONMENT = "CARD_RULES_HEAVY_CONCURRENCY"
# Chosen by measurement (bench/heavy.py, its HTTP part): the heavy answers per second are the same with 1, 2 or 3
# at once (one interpreter lock per worker), while each one's latency and /healthz's grow with the count.
DEFAULT_CONCURRENCY = 1
RETRY_AFTER = 1  # seconds, the least the header can say: a slot frees as soon as a running heavy request ends
CONFIG_KEY = "HEAVY_CONCURRENCY"
EXTENSION = "card_rules.heavy"

View = TypeVar("View", bound=Callable[..., Any])


def concurrency_from_environment() -> int:
    """``CARD_RULES_HEAVY_CONCURRENCY`` (a whole number of at least 1), or the default when it is unset or empty."""
    text = os.environ.get(ENVIRONMENT, "").strip()
    if not text:
        return DEFAULT_CONCURRENCY
    if not text.isdecimal():
        raise ValueError(f"{ENVIRONMENT} must be a whole number of at least 1, not {text!r}")
    return int(text)


class HeavyCap:
    """At most ``limit`` heavy requests at once in this process: a slot is taken without waiting, or not at all."""

    def __init__(self, limit: int) -> None:
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError(f"{ENVIRONMENT} must be a whole number of at least 1, not {limit!r}")
        self.limit = limit
        self._slots = threading.BoundedSemaphore(limit)

    def try_enter(self) -> bool:
        return self._slots.acquire(blocking=False)

    def leave(self) -> None:
        self._slots.release()


def install(app: Flask) -> None:
    """The app's cap, from its ``HEAVY_CONCURRENCY`` setting (``config_from_environment``)."""
    app.extensions[EXTENSION] = HeavyCap(app.config.get(CONFIG_KEY, DEFAULT_CONCURRENCY))


def cap_of(app: Flask) -> HeavyCap:
    cap: HeavyCap = app.extensions[EXTENSION]
    return cap


def overloaded(limit: int) -> ApiProblem:
    return ApiProblem(
        503, "detail.overloaded", {"limit": limit, "seconds": RETRY_AFTER}, headers={"Retry-After": str(RETRY_AFTER)}
    )


def heavy(view: View) -> View:
    """Make a route's view heavy: it runs only in a free slot of the app's cap, else the answer is the 503."""

    @wraps(view)
    def capped(*args: Any, **kwargs: Any) -> Any:
        cap = cap_of(current_app)
        if not cap.try_enter():
            raise overloaded(cap.limit)
        try:
            return view(*args, **kwargs)
        finally:
            cap.leave()

    capped.heavy = True  # type: ignore[attr-defined]  # read by is_heavy: the contract's test finds the heavy routes
    return cast(View, capped)  # the same signature: wraps copies what Flask reads


def is_heavy(view: Callable[..., Any] | None) -> bool:
    return bool(getattr(view, "heavy", False))
