"""The service's response class (``create_app`` makes it Flask's): werkzeug's, answered to the server in one
step when the answer is plain bytes of a known length.

werkzeug's ``get_wsgi_response`` copies the headers into a new ``Headers``, looks for ``Location`` and
``Content-Location`` to rewrite, and wraps the body in a ``ClosingIterator``: per answer, about as much
work as a light operation's rules (figures: bench/README.md). An answer of this service is a JSON or
text body set as bytes (``Content-Length`` set with it), with neither header and nothing to run on
close: for it, the same three things are its status line, its header list and its body list, as they are.
Anything else (``HEAD``, 1xx, 204, 304, a stream, a redirect, a close callback) takes werkzeug's way.
"""

from __future__ import annotations

from typing import Any

from flask import Response

_REWRITTEN = frozenset({"location", "content-location"})  # what werkzeug rewrites: its way for these


class ServiceResponse(Response):
    def get_wsgi_response(self, environ: dict[str, Any]) -> tuple[Any, str, list[tuple[str, str]]]:
        body = self.response
        status = self.status_code
        if (
            type(body) is list
            and status >= 200
            and status not in (204, 304)
            and not self.direct_passthrough
            and not self._on_close
            and environ.get("REQUEST_METHOD") != "HEAD"
        ):
            headers = self.headers.to_wsgi_list()
            sized = False
            for name, _ in headers:
                lower = name.lower()
                if lower in _REWRITTEN:
                    break
                sized = sized or lower == "content-length"
            else:
                if sized and all(type(chunk) is bytes for chunk in body):
                    return body, self.status, headers
        return super().get_wsgi_response(environ)
