"""The service plus one test-only route, ``GET /test/sleep/<seconds>``, for the shutdown and timeout tests:
gunicorn serves it as ``tests.production.slow_app:app`` with the production gunicorn.conf.py. Never part
of the service itself."""

from __future__ import annotations

import time

from service.api import create_app
from service.api.common import answer

app = create_app()


@app.get("/test/sleep/<float:seconds>")
def sleep(seconds: float):
    time.sleep(seconds)
    return answer({"slept": seconds})
