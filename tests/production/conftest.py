"""The ``fuzz`` marker: long runs for ``make fuzz`` only. Deselected unless CARD_RULES_FUZZ=1 (which
``make fuzz`` sets), so ``make test`` stays within its time."""

from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "fuzz: long fuzzing run, for `make fuzz` only (CARD_RULES_FUZZ=1)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("CARD_RULES_FUZZ") == "1":
        return
    kept = [item for item in items if item.get_closest_marker("fuzz") is None]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item.get_closest_marker("fuzz") is not None])
        items[:] = kept
