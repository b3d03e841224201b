"""Memory is a tested property: no request leaves anything behind.

In process, each kind of request that once kept something (every 422 code, whole-valued numbers taken by
ruling P5, oversized lists, a royalty table new each time, a new ``Accept-Encoding`` or ``Accept-Language``
each time, a Big Two table of a request's own rules or a Thirteen bonus table new each time) is sent a thousand
times (the costly ones fewer) after a warm-up that fills every bounded cache it touches; the memory
that Python traces may grow by less than ``GROWTH_BOUND`` meanwhile. At gunicorn level, 16 clients flooding
oversized bodies (bench/attack.py's memory rows) leave every worker's resident memory within 20 MiB of its
baseline.
"""

from __future__ import annotations

import gc
import json
import logging
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

import pytest
import yaml
from werkzeug.test import Client

from bench import attack
from bench.common import ROOT, GunicornServer
from service.api import create_app, i18n
from service.api.meta import accepts_gzip
from service.rules.ofc.rules import HOUSE_ROYALTIES, RULE_SETS_KEPT

GROWTH_BOUND = 64 * 1024  # bytes traced after the requests, beyond the warm-up's
WARM_UP = 2 * RULE_SETS_KEPT + 50  # more than the bounded caches the kinds below fill with their own keys
REQUESTS = 1000

Request = tuple[str, str, dict[str, Any]]  # method, path, werkzeug Client keyword arguments


@cache
def example(path: str) -> Any:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    media = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    return media["example"] if "example" in media else next(iter(media["examples"].values()))["value"]


def post(path: str, body: Any, **headers: str) -> Request:
    return "POST", path, {"data": json.dumps(body), "content_type": "application/json", "headers": headers}


def with_item(path: str, key: str, value: Any) -> Any:
    return {**example(path), key: value}


def royalty_table(i: int) -> dict[str, dict[str, int]]:
    """The house middle table with its trips worth ``i % 101`` and its straight ``i // 101`` points: a new
    table for each ``i`` below 10,201."""
    return {"middle": {**HOUSE_ROYALTIES["middle"], "trips": i % 101, "straight": i // 101}}


ROWS = "/v1/ofc-pineapple/rows/evaluate"
OUTLOOK = "/v1/ofc-pineapple/boards/outlook"
CLASSIFY = "/v1/big-two/plays/classify"
GAME = "/v1/big-two/games/validate"
NEAR_COMPLETE = {
    "top": ["Qs", "Qd", "4s"],
    "middle": ["7c", "7d", "4h", "8h", "8d"],
    "bottom": ["9d", "Td", "Jd", "2d"],
}
OVERSIZED_PLAYERS = '{"players":[' + ",".join(["{}"] * 16_000) + "]}"
OVERSIZED_CARDS = '{"cards":[' + ",".join(["0"] * 30_000) + "]}"

KINDS: dict[str, Callable[[int], Request]] = {
    # every kind of 422
    "wrong type": lambda i: post(CLASSIFY, {"cards": i}),
    "unknown field": lambda i: post(CLASSIFY, {"cards": ["3c"], "extra": i}),
    "bad card": lambda i: post(CLASSIFY, {"cards": ["3c", "Zz"]}),
    "unknown rule set": lambda i: post(ROWS, with_item(ROWS, "rule_set", "none")),
    "bad seat in an action": lambda i: post(
        GAME, {**example(GAME), "actions": [{"seat": 9, "type": "pass"}, *example(GAME)["actions"][1:]]}
    ),
    "malformed JSON": lambda i: ("POST", CLASSIFY, {"data": '{"cards": [', "content_type": "application/json"}),
    # valid 200s with whole-valued numbers (ruling P5): the fast path hands them to marshmallow
    "whole-valued base": lambda i: post("/v1/big-two/games/score", with_item("/v1/big-two/games/score", "base", 10.0)),
    "whole-valued dealer": lambda i: post(
        "/v1/ofc-pineapple/hands/validate", with_item("/v1/ofc-pineapple/hands/validate", "dealer", 2.0)
    ),
    "whole-valued limit": lambda i: post(OUTLOOK, {"board": NEAR_COMPLETE, "limit": 50000.0}),
    # oversized lists, refused by their bounds
    "oversized players": lambda i: (
        "POST",
        "/v1/joker-thirteen/rounds/score",
        {"data": OVERSIZED_PLAYERS, "content_type": "application/json"},
    ),  # fmt: skip
    "oversized cards": lambda i: ("POST", CLASSIFY, {"data": OVERSIZED_CARDS, "content_type": "application/json"}),
    # objects of thousands of unknown keys, refused before their keys are read
    **{
        label: lambda i, body=body: ("POST", CLASSIFY, {"data": body, "content_type": "application/json"})
        for label, (_, _, body) in attack.unknown_key_bodies().items()
    },
    # a new royalty table, Big Two table or Thirteen bonus table each time
    "royalty tables, rows": lambda i: post(ROWS, {**example(ROWS), "royalties": royalty_table(i)}),
    "royalty tables, outlook": lambda i: post(OUTLOOK, {"board": NEAR_COMPLETE, "royalties": royalty_table(i)}),
    "Big Two tables": lambda i: post("/v1/big-two/plays/compare", attack.big_two_table(i)),
    "Thirteen bonus tables": lambda i: post("/v1/thirteen/arrangements/suggest", attack.thirteen_bonuses(i)),
    # a new header value each time
    "Accept-Encoding": lambda i: ("GET", "/openapi.json", {"headers": {"Accept-Encoding": f"br;q=0.{i % 10}, x-{i}"}}),
    "Accept-Language": lambda i: post(CLASSIFY, {"cards": ["3c"]}, **{"Accept-Language": f"x-{i}, zh-TW;q=0.5"}),
}
EXPECTED_STATUS = {"whole-valued base": 200, "whole-valued dealer": 200, "whole-valued limit": 200,
                   "royalty tables, rows": 200, "royalty tables, outlook": 200, "Accept-Encoding": 200,
                   "Accept-Language": 200, "Big Two tables": 200, "Thirteen bonus tables": 200,
                   "malformed JSON": 400}  # fmt: skip
# Fewer of the costly kinds, so that the suite stays quick: each new table costs its royalty levels, each
# oversized body its full report, each whole-valued record marshmallow's load of it.
# The kinds that fill a larger cache with keys of their own warm up past its bound.
LONGER_WARM_UP = {
    "Accept-Encoding": accepts_gzip.cache_info().maxsize,
    "Accept-Language": i18n.negotiate.cache_info().maxsize,
}
FEWER = {
    "royalty tables, outlook": 100,
    "Thirteen bonus tables": 100,
    "oversized players": 200,
    "oversized cards": 300,
    **dict.fromkeys(attack.unknown_key_bodies(), 300),
    "whole-valued dealer": 300,
}


class Formatted(logging.Handler):
    """Formats each record, as a production handler does, and keeps nothing (pytest's capture keeps every
    record of a test, which would count as the service's memory)."""

    def emit(self, record: logging.LogRecord) -> None:
        self.format(record)


@contextmanager
def formatted_only() -> Iterator[None]:
    """The service's log records formatted and dropped, pytest's capture handlers set aside meanwhile."""
    logger = logging.getLogger("service")
    handlers, propagate = logger.handlers, logger.propagate
    logger.handlers, logger.propagate = [Formatted()], False
    try:
        yield
    finally:
        logger.handlers, logger.propagate = handlers, propagate


@pytest.fixture(scope="module")
def wsgi() -> Client:
    return Client(create_app({"TESTING": True}))


def send(client: Client, request: Request) -> int:
    method, path, kwargs = request
    response = client.open(path, method=method, **kwargs)
    status = response.status_code
    response.close()
    return status


def traced() -> int:
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


@pytest.mark.parametrize("kind", KINDS)
def test_requests_of_every_kind_leave_nothing_behind(wsgi: Client, kind: str) -> None:
    make = KINDS[kind]
    count = FEWER.get(kind, REQUESTS)
    expected = EXPECTED_STATUS.get(kind, 422)
    with formatted_only():
        tracemalloc.start()
        try:
            warm_up = max(WARM_UP, (LONGER_WARM_UP.get(kind) or 0) + 50)
            for i in range(warm_up):
                assert send(wsgi, make(i)) == expected
            before = traced()
            for i in range(warm_up, warm_up + count):
                assert send(wsgi, make(i)) == expected
            grown = traced() - before
        finally:
            tracemalloc.stop()
    assert grown < GROWTH_BOUND, f"{count} requests of {kind!r} left {grown / 1024:.0f} KiB behind"


def test_equal_royalty_tables_are_one_rule_set() -> None:
    """A rule set with overrides is equal and hashes by its content: the same table twice is one entry of
    every cache keyed by a rule set."""
    from service.rules.ofc.rules import HOUSE

    first, second = (HOUSE.with_royalties(royalty_table(7)) for _ in range(2))
    assert first is not second and first == second and hash(first) == hash(second)
    assert first != HOUSE.with_royalties(royalty_table(8))
    assert len({first, second, HOUSE}) == 2


# --- at gunicorn level ---------------------------------------------------------------------------------

OVERSIZED_ROWS = ["oversized players lists", "oversized cards lists"]


@pytest.mark.xdist_group("production-processes")
def test_bench_attack_memory_rows_pass_at_a_small_scale() -> None:
    """bench/attack.py's memory rows: 16 clients flooding oversized bodies for 5 s, then each other kind for
    1 s, leave every worker within its bound, every answer as expected."""
    failures: list[str] = []
    with GunicornServer(workers=2) as server:
        attack.memory(server, 5.0, failures, only=OVERSIZED_ROWS)
        attack.memory(server, 1.0, failures, only=[row for row in attack.memory_rows() if row not in OVERSIZED_ROWS])
    assert failures == []
