"""``GET /docs``: interactive API documentation (Swagger UI) rendered from the served ``/openapi.json``.

Everything the page loads comes from this service — deployments are often offline, so no CDN:

- The Swagger UI files come from the PyPI package ``flask-swagger-ui``, pinned exactly in pyproject.toml.
  It ships Swagger UI's ``dist/`` files (the same files as npm's ``swagger-ui-dist`` of that version, about
  660 kB as a wheel), so the repository vendors no multi-megabyte JavaScript and an upgrade is a one-line
  pin change. Only its ``dist/`` folder is used, not its blueprint: the page and the initializer are ours,
  so the initializer is a file rather than an inline script and the page can send a strict
  Content-Security-Policy (``script-src 'self'``, ``connect-src 'self'``), and the settings that would
  call other hosts are off (``validatorUrl: null``; no top bar to load another spec).
- Only the assets the page uses are served, under ``/docs/assets/``; anything else there is a 404.
"""

from __future__ import annotations

from html import escape
from importlib.resources import files
from pathlib import Path

from flask import Blueprint, Response, abort, request, send_from_directory

blueprint = Blueprint("docs", __name__)

SWAGGER_UI_DIST = Path(str(files("flask_swagger_ui") / "dist"))
SWAGGER_UI_ASSETS = frozenset({"swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png", "favicon-16x16.png"})
ASSET_MAX_AGE = 24 * 3600  # the files change only with the pinned package version

INITIALIZER_JS = """\
"use strict";
// Starts Swagger UI on this service's own contract. Nothing here reaches another host.
window.addEventListener("load", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.dataset.specUrl,
    dom_id: "#swagger-ui",
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
    displayOperationId: true,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
    docExpansion: "list",
    validatorUrl: null,
    supportedSubmitMethods: ["get", "post"]
  });
});
"""

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

PAGE = """\
<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Card game rules service: API documentation</title>
  <link rel="stylesheet" href="{root}/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" sizes="32x32" href="{root}/docs/assets/favicon-32x32.png">
  <link rel="icon" type="image/png" sizes="16x16" href="{root}/docs/assets/favicon-16x16.png">
</head>
<body>
  <noscript>This page needs JavaScript. The contract itself is <a href="{root}/openapi.yaml">openapi.yaml</a>.</noscript>
  <div id="swagger-ui" data-spec-url="{root}/openapi.json"></div>
  <script src="{root}/docs/assets/swagger-ui-bundle.js"></script>
  <script src="{root}/docs/assets/docs.js"></script>
</body>
</html>
"""


@blueprint.get("/docs")
def docs_page() -> Response:
    response = Response(PAGE.format(root=escape(request.script_root)), mimetype="text/html")
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@blueprint.get("/docs/assets/<name>")
def docs_asset(name: str) -> Response:
    if name == "docs.js":
        response = Response(INITIALIZER_JS, mimetype="text/javascript")
        response.cache_control.public = True
        response.cache_control.max_age = ASSET_MAX_AGE
        return response
    if name not in SWAGGER_UI_ASSETS:
        abort(404)
    return send_from_directory(SWAGGER_UI_DIST, name, max_age=ASSET_MAX_AGE)
