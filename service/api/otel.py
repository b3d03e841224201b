"""Export of each request's span to OpenTelemetry, for the operator who turns it on (``tracing.py``).

Imported only then: it needs the ``otel`` extra (``pip install 'card-rules-service[otel]'``). The spans go by
OTLP over HTTP to where the SDK's own variables say (``OTEL_EXPORTER_OTLP_ENDPOINT``, ``OTEL_SERVICE_NAME``,
``OTEL_RESOURCE_ATTRIBUTES``...), in batches from a thread of each worker. A request's span is the one its
``traceparent`` answer names (``tracing.Trace``): built when the answer is done, with its method, route
template, path and status, and handed to the processor.
"""

from __future__ import annotations

import atexit
from importlib import metadata

from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.sdk.util.instrumentation import InstrumentationScope
from opentelemetry.trace import SpanContext, SpanKind, Status, StatusCode, TraceFlags, TraceState

from service.api.tracing import Trace

SCOPE = "card-rules-service"


class SpanExport:
    """Turns a finished request into an OpenTelemetry span and gives it to ``processor`` (batching and the
    exporter are the SDK's)."""

    def __init__(self, processor: SpanProcessor) -> None:
        self.processor = processor
        version = _version()
        self.resource = Resource.create({"service.name": SCOPE, "service.version": version})
        self.scope = InstrumentationScope(SCOPE, version)

    def record(
        self, trace: Trace, method: str, route: str | None, path: str, status: int, start_ns: int, end_ns: int
    ) -> None:
        state = TraceState.from_header([trace.state]) if trace.state else None
        flags = TraceFlags(trace.flags)
        trace_id = int(trace.trace_id, 16)
        parent = None
        if trace.parent_id is not None:
            parent = SpanContext(trace_id, int(trace.parent_id, 16), True, flags, state)
        attributes: dict[str, str | int] = {
            "http.request.method": method,
            "url.path": path,  # cut as the access line's (observability.MAX_LOGGED_PATH)
            "http.response.status_code": status,
        }
        if route is not None:
            attributes["http.route"] = route
        span = ReadableSpan(
            name=f"{method} {route}" if route is not None else method,
            context=SpanContext(trace_id, int(trace.span_id, 16), False, flags, state),
            parent=parent,
            resource=self.resource,
            attributes=attributes,
            kind=SpanKind.SERVER,
            status=Status(StatusCode.ERROR if status >= 500 else StatusCode.UNSET),
            start_time=start_ns,
            end_time=end_ns,
            instrumentation_scope=self.scope,
        )
        self.processor.on_end(span)


def _version() -> str:
    try:
        return metadata.version(SCOPE)
    except metadata.PackageNotFoundError:
        return "unknown"


def otlp() -> SpanExport:
    """Spans batched to the OTLP/HTTP exporter; the batch thread starts again in each forked worker (the
    SDK's fork hook), and what is still batched goes out when a worker exits."""
    processor = BatchSpanProcessor(OTLPSpanExporter())
    atexit.register(processor.shutdown)
    return SpanExport(processor)


EXPORTS = {"otlp": otlp}
"""``CARD_RULES_OTEL``'s values -> the export each makes."""
