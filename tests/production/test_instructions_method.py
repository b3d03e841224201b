"""bench/instructions.py's arithmetic: an endpoint's instructions per request are its valgrind
process's total less the baseline process's (the same start-up and warm-up, no request counted), over the
requests counted; the summary is read from callgrind's own line, and anything else is refused. Its parse
layer reads every request's own body, with the worker's hand-over and with gunicorn's reader alike."""

from __future__ import annotations

import pytest

from bench.floor import targets
from bench.instructions import BASELINE, collected, measured, parsed_requests, per_request, rows


def test_the_total_is_read_from_callgrinds_summary_line() -> None:
    stderr = b"==4242== Callgrind, a call-graph generating cache profiler\n==4242== Events    : Ir\n==4242== Collected : 4400115613\n==4242==\n==4242== I   refs:      4,400,115,613\n"
    assert collected(stderr) == 4_400_115_613


@pytest.mark.parametrize("stderr", [b"", b"==1== Collected : 12\n==2== Collected : 13\n", b"Collected : 12\n"])
def test_no_single_summary_is_refused(stderr: bytes) -> None:
    with pytest.raises(ValueError, match="no single callgrind summary"):
        collected(stderr)


def test_per_request_subtracts_the_baseline_and_divides_by_the_count() -> None:
    totals = {BASELINE: 1_000_000, "GET /healthz": 1_000_000 + 200 * 400_000, "op": 1_000_000 + 200 * 500_000}
    figures = per_request(totals, 200)
    assert figures == {"GET /healthz": 400_000.0, "op": 500_000.0}
    assert rows(figures) == [["GET /healthz", "400,000", "+0", "1.00x"], ["op", "500,000", "+100,000", "0.80x"]]


def test_healthz_is_always_measured_and_first() -> None:
    picked = measured("hands/score")
    assert [t.label for t in picked] == ["GET /healthz", "ofc-pineapple hands/score"]
    assert all(t.server == "service" for t in measured(""))
    assert measured("")[0].label == "GET /healthz" and len(measured("")) > 10


@pytest.mark.parametrize("gunicorn_body", [False, True])
def test_the_parse_layer_reads_each_requests_own_body(gunicorn_body: bool) -> None:
    request = parsed_requests(gunicorn_body)
    posts = [t for t in targets() if t.server == "service" and t.body]
    assert len(posts) > 10
    for t in posts * 2:  # each parse drains the one before, as on a kept-alive connection
        assert request(t) == t.body
