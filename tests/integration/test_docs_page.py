"""GET /docs in a real browser: headless Chromium (Debian's package) over the DevTools protocol, against
gunicorn on the loopback. The page must list every operation of the contract, load nothing from any other
host, and answer a "Try it out" call with the service's real answer."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest

from tests.integration.chromium import Chromium
from tests.integration.contract import GAME_TAGS, OPERATIONS, SPEC

TRY_IT = "ofcEvaluateRow"
TRY_IT_ANSWER = {
    "hand": {"category": "pair", "label": "Pair", "strength": [2, 13, 14], "cards": ["Kh", "Kd", "As"]},
    "royalty": 8,
}


def test_docs_assets_are_served_by_the_service_itself(client):
    page = client.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    html = page.get_data(as_text=True)
    assert "http://" not in html and "https://" not in html  # every asset is a path on this service
    for asset, mimetype in [("swagger-ui-bundle.js", "text/javascript"), ("docs.js", "text/javascript"),
                            ("swagger-ui.css", "text/css"), ("favicon-32x32.png", "image/png")]:  # fmt: skip
        assert f'"/docs/assets/{asset}"' in html, asset
        response = client.get(f"/docs/assets/{asset}")
        assert response.status_code == 200 and response.mimetype == mimetype, asset
        assert "max-age" in response.headers["Cache-Control"]
    for unknown in ("index.html", "VERSION", "..%2Fdist%2FVERSION", "oauth2-redirect.html"):
        response = client.get(f"/docs/assets/{unknown}")
        assert response.status_code == 404 and response.mimetype == "application/problem+json", unknown


@pytest.mark.usefixtures("tools")
def test_docs_page_lists_every_operation_and_try_it_out_answers(live_server, post):
    origin = live_server.base_url
    with Chromium() as browser:
        for domain in ("Page", "Runtime", "Network", "Log"):
            browser.send(f"{domain}.enable")
        browser.navigate(origin + "/docs")
        browser.wait_for(f"document.querySelectorAll('.opblock').length >= {len(OPERATIONS)}", 30,
                         what="Swagger UI to render every operation")  # fmt: skip
        assert browser.evaluate("document.title") == "Card game rules service: API documentation"
        assert browser.evaluate("document.querySelector('.info .title').textContent").startswith(SPEC["info"]["title"])

        # Every operation of the contract, under its tag, with its path: the three games' and the service's.
        listed = browser.evaluate(
            "Object.fromEntries([...document.querySelectorAll('.opblock')].map("
            "e => [e.id, e.querySelector('.opblock-summary-path').dataset.path]))"
        )
        expected = {f"operations-{op.tag}-{op.operation_id}": op.path for op in OPERATIONS}
        assert listed == expected
        assert {op.tag for op in OPERATIONS} >= set(GAME_TAGS)

        # Try it out, as a person would: open the operation, "Try it out", check the example body, "Execute".
        op = next(op for op in OPERATIONS if op.operation_id == TRY_IT)
        block = f"#operations-{op.tag}-{op.operation_id}"
        browser.click(f"{block} .opblock-summary-control")
        browser.click(f"{block} .try-out__btn")
        body = browser.wait_for(
            f"document.querySelector('{block} textarea.body-param__text')?.value", what="the request body"
        )
        assert json.loads(body) == op.request_example
        browser.click(f"{block} .execute")
        status = browser.wait_for(f"document.querySelector('{block} .live-responses-table tr.response .response-col_status')?.textContent",
                                  what="the live response")  # fmt: skip
        answer = browser.evaluate(
            f"document.querySelector('{block} .live-responses-table tr.response .response-col_description pre.microlight').textContent"
        )
        assert status.strip() == "200"
        assert json.loads(answer) == TRY_IT_ANSWER
        assert post(op.path.removeprefix("/v1"), op.request_example) == (200, TRY_IT_ANSWER)

        # Nothing but this service (and inline data: images) was loaded; no script error, no CSP violation.
        urls = {e["params"]["request"]["url"] for e in browser.events if e["method"] == "Network.requestWillBeSent"}
        elsewhere = {
            u
            for u in urls
            if not u.startswith("data:") and urlsplit(u)._replace(path="", query="", fragment="").geturl() != origin
        }
        assert not elsewhere
        assert {origin + "/docs/assets/swagger-ui-bundle.js", origin + "/openapi.json", origin + op.path} <= urls
        problems = [e["params"] for e in browser.events
                    if e["method"] == "Runtime.exceptionThrown"
                    or (e["method"] == "Log.entryAdded" and e["params"]["entry"]["level"] == "error")
                    or (e["method"] == "Runtime.consoleAPICalled" and e["params"]["type"] == "error")]  # fmt: skip
        assert not problems
