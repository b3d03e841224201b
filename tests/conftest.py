"""Shared fixtures: the app from its factory, a test client, and helpers to call the API."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, settings

from service.api import create_app

ROOT = Path(__file__).resolve().parents[1]

# Property tests run a fixed, modest number of examples so the suite stays fast and repeatable.
settings.register_profile("default", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fuzz", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("default")


def pytest_configure(config: pytest.Config) -> None:
    """Every app's test client checks every answer against openapi.yaml (``tests/response_contract.py``):
    its operation's response schema, and its violation and error codes against those the route declares."""
    from tests.response_contract import ContractCheckingClient

    Flask.test_client_class = ContractCheckingClient


@pytest.fixture(scope="session")
def app():
    return create_app({"TESTING": True})


@pytest.fixture(scope="session")
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def post(client):
    """``post(path, body)`` -> (status, json): the path is relative to ``/v1``."""

    def _post(path: str, body: Any, **kwargs: Any) -> tuple[int, Any]:
        response = client.post("/v1/" + path.lstrip("/"), json=body, **kwargs)
        return response.status_code, response.get_json()

    return _post
