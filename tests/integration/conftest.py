"""Fixtures for the integration paths: the tools they drive and a real gunicorn on the loopback.

``tools`` runs ``scripts/install-test-tools`` (idempotent, quick when everything is installed; ``make test``
has already run it). ``live_server`` is the production entry point, ``gunicorn --config gunicorn.conf.py
service.wsgi:app``, on 127.0.0.1 and a free port (``bench.common.GunicornServer``), one per test process,
stopped at the end of the session.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator

import pytest

from bench.common import GunicornServer
from tests.conftest import ROOT

INSTALL_SCRIPT = ROOT / "scripts" / "install-test-tools"


@pytest.fixture(scope="session")
def tools() -> None:
    result = subprocess.run([str(INSTALL_SCRIPT)], cwd=ROOT, capture_output=True, text=True, timeout=1200)
    if result.returncode != 0:
        message = f"scripts/install-test-tools failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
        if os.environ.get("CI") or os.geteuid() == 0:
            pytest.fail(message)
        pytest.skip(message)  # a developer without root: the tests say what to install


@pytest.fixture(scope="session")
def live_server() -> Iterator[GunicornServer]:
    with GunicornServer(workers=1) as server:
        yield server
