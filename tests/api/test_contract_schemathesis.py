"""Schemathesis fuzzes every operation of openapi.yaml against the app, positive and negative data,
all default checks. The spec cannot say "no card twice on one table" or "a top row has 3 cards", so a
documented 422 for schema-valid data is accepted as the answer to positive data (those 422s have their
own tests in each game's test_api module)."""
from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from service.api import create_app

config = SchemathesisConfig.from_dict(
    {
        "checks": {"positive_data_acceptance": {"expected-statuses": ["2xx", "422"]}},
        "generation": {"mode": "all"},
    }
)
schema = schemathesis.openapi.from_wsgi("/openapi.json", create_app({"TESTING": True}), config=config)


@schema.parametrize()
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_every_operation_conforms_to_the_contract(case):
    case.call_and_validate()
