"""W3C Trace Context (https://www.w3.org/TR/trace-context/): every request is a span of a trace.

A request with a valid ``traceparent`` continues its caller's trace; any other (none, or one this
service cannot read) starts a trace of its own. Either way the service makes a span id for its own span
and answers ``traceparent: 00-<trace id>-<span id>-<flags>``, so the caller can tie the answer to its
trace and find the request in the log, where the access line holds ``trace_id`` and ``span_id``; a
problem body holds ``trace_id`` too. ``tracestate`` (the vendors' part) is kept with the trace when it is
well formed, for an exporter to pass on, and never changes an answer.

Export is off unless the operator installs the ``otel`` extra and sets ``CARD_RULES_OTEL=otlp``
(``export_from_environment``, ``service/api/otel.py``); off, nothing of OpenTelemetry is imported and a
request costs the parse and two random ids.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from service.api.otel import SpanExport

TRACEPARENT_HEADER = "traceparent"
TRACE_KEY = "card_rules.trace"  # WSGI environ key of the request's ``Trace``

# version "00": exactly these four fields; a later version may append fields after a dash (section 4.3)
_TRACEPARENT = re.compile(r"([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?", re.S)
_INVALID_VERSION = "ff"
_ZERO_TRACE = "0" * 32
_ZERO_SPAN = "0" * 16
SAMPLED = 0x01  # the only flag of version 00; the others are not passed on (section 3.2.2.5)

# tracestate: at most 32 list members of key=value, commas between them (section 3.3)
MAX_TRACESTATE = 512  # characters kept; a longer header is dropped whole rather than cut
_TRACESTATE_MEMBER = re.compile(
    r"[ \t]*(?:[a-z0-9][a-z0-9_*/-]{0,255}|[a-z0-9][a-z0-9_*/-]{0,240}@[a-z][a-z0-9_*/-]{0,13})"
    r"=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e][ \t]*"
)
MAX_TRACESTATE_MEMBERS = 32


class Trace(NamedTuple):
    """One request's place in a trace: the trace, this service's span in it, the caller's span (None when
    the request started the trace), the flags passed on, and the caller's ``tracestate`` ("" for none)."""

    trace_id: str
    span_id: str
    parent_id: str | None
    flags: int
    state: str

    @property
    def traceparent(self) -> str:
        """The ``traceparent`` of this service's span: what the answer carries."""
        return f"00-{self.trace_id}-{self.span_id}-{self.flags:02x}"

    @property
    def sampled(self) -> bool:
        return bool(self.flags & SAMPLED)


def parent_of(value: str) -> tuple[str, str, int] | None:
    """(trace id, parent span id, flags) of a ``traceparent`` value, or None when the value is not one
    (the specification's parsing rules: lower-case hex, version ``ff`` and all-zero ids invalid, version
    ``00`` exactly 55 characters, a later version read for its first four fields)."""
    found = _TRACEPARENT.fullmatch(value.strip(" \t"))
    if found is None:
        return None
    version, trace_id, parent_id, flags, rest = found.groups()
    if version == _INVALID_VERSION or (version == "00" and rest is not None):
        return None
    if trace_id == _ZERO_TRACE or parent_id == _ZERO_SPAN:
        return None
    return trace_id, parent_id, int(flags, 16) & SAMPLED


def state_of(value: str | None) -> str:
    """The ``tracestate`` value when it is well formed and at most ``MAX_TRACESTATE`` characters, else ""."""
    if not value or len(value) > MAX_TRACESTATE:
        return ""
    members = [m for m in value.split(",") if m.strip(" \t")]
    if len(members) > MAX_TRACESTATE_MEMBERS or not all(_TRACESTATE_MEMBER.fullmatch(m) for m in members):
        return ""
    return ",".join(m.strip(" \t") for m in members)


def new_id(size: int) -> str:
    """``size`` random bytes in hex, never all zeros (an all-zero id is invalid)."""
    while True:
        found = os.urandom(size).hex()
        if found.strip("0"):
            return found


def trace_from(environ: dict[str, Any], sample_new: bool = False) -> Trace:
    """The request's ``Trace``: its caller's continued, or a new one (sampled when ``sample_new``: an
    exporter records the traces that start here)."""
    given = environ.get("HTTP_TRACEPARENT")
    parent = parent_of(given) if given else None
    if parent is None:
        return Trace(new_id(16), new_id(8), None, SAMPLED if sample_new else 0, "")
    trace_id, parent_id, flags = parent
    return Trace(trace_id, new_id(8), parent_id, flags, state_of(environ.get("HTTP_TRACESTATE")))


OTEL_ENVIRONMENT = "CARD_RULES_OTEL"


def export_from_environment() -> SpanExport | None:
    """The span export ``CARD_RULES_OTEL`` asks for: None when it is unset, empty or ``off``. Another value
    than one of ``otel.EXPORTS``, or the extra not installed, stops the start with the reason: a misspelt
    setting must not pass for an export that quietly sends nothing."""
    value = os.environ.get(OTEL_ENVIRONMENT, "").strip().lower()
    if value in ("", "off"):
        return None
    try:
        from service.api import otel
    except ImportError as missing:
        raise RuntimeError(
            f"{OTEL_ENVIRONMENT}={value} needs the otel extra: pip install 'card-rules-service[otel]' ({missing})"
        ) from None
    make = otel.EXPORTS.get(value)
    if make is None:
        raise RuntimeError(f"{OTEL_ENVIRONMENT}={value!r}: the exports are {', '.join(otel.EXPORTS)}, or off")
    return make()
