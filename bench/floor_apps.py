"""The two floors ``bench/floor.py`` serves beside the service, under the same gunicorn settings:

- ``flask_floor``: a minimal Flask app, ``GET /healthz`` answering ``{"status": "ok"}`` and ``POST /echo``
  reading its JSON body and answering how many keys it has;
- ``wsgi_floor``: a bare WSGI function doing the same without Flask.

What the service costs above them is its own: the request hooks, the observability middleware, i18n,
loading and the rules.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Flask, request

flask_floor = Flask(__name__)


@flask_floor.get("/healthz")
def healthz() -> Any:
    return {"status": "ok"}


@flask_floor.post("/echo")
def echo() -> Any:
    return {"keys": len(request.get_json())}


_OK = b'{"status":"ok"}\n'


def wsgi_floor(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    if environ["REQUEST_METHOD"] == "POST":
        size = int(environ.get("CONTENT_LENGTH") or 0)
        body = json.dumps({"keys": len(json.loads(environ["wsgi.input"].read(size)))}).encode()
    else:
        body = _OK
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]
