"""``make fuzz``: schemathesis against the production server (gunicorn.conf.py on the loopback), thousands of
examples per operation (CARD_RULES_FUZZ_EXAMPLES, default 2,000) with a fixed seed, positive and negative
data, every default check. The suite's tests/api/test_contract_schemathesis.py is the short version.
As there, a documented 422 is accepted as the answer to schema-valid data the spec cannot rule out (a
card twice on one table, a row of the wrong size); and a 413 to any body over the documented 64 KiB."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given, seed, settings
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig

from bench.common import GunicornServer
from tests.conftest import ROOT

pytestmark = [pytest.mark.fuzz, pytest.mark.xdist_group("fuzz-contract")]

EXAMPLES = int(os.environ.get("CARD_RULES_FUZZ_EXAMPLES", 2000))
SEED = 20260922

config = SchemathesisConfig.from_dict(
    {
        "checks": {
            # 413 is the documented answer to a body over the limit, schema-valid or not
            "positive_data_acceptance": {"expected-statuses": ["2xx", "413", "422"]},
            "negative_data_rejection": {"expected-statuses": ["400", "404", "405", "406", "413", "415", "422"]},
        },
    }
)
schema = schemathesis.openapi.from_path(str(ROOT / "openapi.yaml"), config=config)
OPERATIONS = {result.ok().label: result.ok() for result in schema.get_all_operations()}
# One pytest item per operation and mode, each with its own id. (``schema.parametrize()`` gives every
# item the same node id, and pytest-xdist's scheduling by node id then runs only one of them.)
# Negative data for the operations that take a body (the others have nothing to break).
CASES = [(label, mode) for label, operation in OPERATIONS.items()
         for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE) if mode is GenerationMode.POSITIVE or operation.body]  # fmt: skip


@pytest.fixture(scope="module")
def server() -> Iterator[GunicornServer]:
    with GunicornServer(workers=2, env={"LOG_LEVEL": "warning"}) as running:
        yield running


@pytest.fixture(scope="module")
def session() -> Iterator[requests.Session]:
    with requests.Session() as keep_alive:
        keep_alive.trust_env = False  # the loopback only: no proxy from the environment
        yield keep_alive


@pytest.mark.parametrize(("label", "mode"), CASES, ids=[f"{label} {mode.value}" for label, mode in CASES])
def test_every_operation_conforms(label, mode, server, session):
    operation = OPERATIONS[label]
    base_url = server.metrics_url if operation.path == "/metrics" else server.base_url  # /metrics: its own listener

    @given(case=operation.as_strategy(generation_mode=mode))
    @seed(SEED)
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def conforms(case):
        case.call_and_validate(base_url=base_url, session=session)

    conforms()
