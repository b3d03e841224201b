"""bench/floor.py's method: every window has a /healthz window near it on both sides, and an
endpoint's ratio is the median of its windows' ratios to their neighbouring /healthz windows, so one
noisy stretch of the shared machine moves neither the endpoint's ratio nor the others'."""

from __future__ import annotations

import pytest

from bench.floor import Target, Window, bracketed, ratios, spread_lines


def target(label: str) -> Target:
    return Target(label, "GET", "/", "service")


@pytest.mark.parametrize("every", [1, 2, 4, 5])
@pytest.mark.parametrize("count", [1, 3, 4, 9, 19])
def test_every_window_has_a_healthz_window_within_every_on_both_sides(every: int, count: int) -> None:
    healthz = target("GET /healthz")
    others = [target(f"op {i}") for i in range(count)]
    order = bracketed(healthz, others, every)
    assert [t for t in order if t is not healthz] == others
    assert order[0] is healthz and order[-1] is healthz
    spots = [i for i, t in enumerate(order) if t is healthz]
    for i, t in enumerate(order):
        if t is not healthz:
            assert min(i - s for s in spots if s < i) <= every
            assert min(s - i for s in spots if s > i) <= every


def test_the_ratio_is_the_median_against_the_neighbouring_healthz_windows() -> None:
    healthz, op = target("GET /healthz"), target("op")
    # /healthz costs 400 us, then the machine slows everything by half for a stretch, then 400 again
    healthz.windows[8] = [Window(0, 0.4, 1000, 1000.0), Window(2, 0.6, 1000, 800.0), Window(4, 0.4, 1000, 1000.0),
                          Window(6, 0.4, 1000, 1000.0)]  # fmt: skip
    # the op: 500 us (0.8x /healthz's 400), and 900 us in the slowest stretch
    op.windows[8] = [Window(1, 0.5, 1000, 800.0), Window(3, 0.9, 1000, 500.0), Window(5, 0.5, 1000, 800.0)]
    by_rate, by_cpu = ratios(healthz, op, 8)
    # per window, against the mean of the /healthz windows on either side: CPU 500/500, 500/900, 400/500;
    # req/s 800/900, 500/900, 800/1000. The median drops the slow window.
    assert by_cpu == pytest.approx(0.8)
    assert by_rate == pytest.approx(0.8)
    assert ratios(healthz, healthz, 8) == (1.0, 1.0)


def test_the_windows_spread_is_shown_for_an_endpoint_near_or_below_its_line() -> None:
    """The verdict reads the median; the lowest and highest window show how far the run scatters around it,
    for every endpoint short of its target or within 0.05 of it, and for no other."""
    healthz, near, clear = target("GET /healthz"), target("near"), target("clear")
    near.goal = clear.goal = 0.8
    healthz.windows[8] = [Window(0, 0.4, 1000, 1000.0), Window(2, 0.4, 1000, 1000.0), Window(4, 0.4, 1000, 1000.0),
                          Window(6, 0.4, 1000, 1000.0)]  # fmt: skip
    # CPU ratios 400/500, 400/800, 400/450: median 0.80, lowest 0.50, highest 0.89
    near.windows[8] = [Window(1, 0.5, 1000, 800.0), Window(3, 0.8, 1000, 500.0), Window(5, 0.45, 1000, 900.0)]
    # 400/400 in every window: 1.00, clear of its line by more than 0.05
    clear.windows[8] = [Window(1, 0.4, 1000, 1000.0), Window(3, 0.4, 1000, 1000.0), Window(5, 0.4, 1000, 1000.0)]
    assert spread_lines([healthz, near, clear], [8]) == ["  near: 8 conn 0.50-0.89 (median 0.80); target 0.80x"]
