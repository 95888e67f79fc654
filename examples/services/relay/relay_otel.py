"""relay.py instrumented with the OpenTelemetry SDK: the same hop, exporting its spans over OTLP.

Each handled request is a SERVER span over the relay's own interval (from the request line to the
answer composed, where relay.py stops its clock: writing the answer falls in its caller's wait),
its context taken from the incoming W3C `traceparent`; the call to NEXT is a CLIENT span over the
relay's wait for it, whose context goes out as `traceparent`. So a span's self time (its length
less its children's) measures what the relay reports as its own time, with its own clock: the
two agree when the benchmark joins and subtracts spans right. Spans go to
OTEL_EXPORTER_OTLP_ENDPOINT (OTLP/HTTP, protobuf) in batches every OTEL_BSP_SCHEDULE_DELAY ms
(100 by default here: the benchmark waits for a run's spans before it joins them). The resource's
service.name is HOP. The answer is relay.py's, hop times included, so the two can be compared.

Needs opentelemetry-sdk and opentelemetry-exporter-otlp-proto-http (requirements-otel.txt);
relay.py itself stays standard library only.
"""

import os
import signal
import sys
import time

os.environ.setdefault("OTEL_BSP_SCHEDULE_DELAY", "100")

from opentelemetry import propagate, trace  # noqa: E402
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter  # noqa: E402
from opentelemetry.sdk.resources import Resource  # noqa: E402
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import BatchSpanProcessor  # noqa: E402
from opentelemetry.trace import SpanKind  # noqa: E402

import relay  # noqa: E402

provider = TracerProvider(resource=Resource.create({"service.name": relay.HOP}))
provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
tracer = provider.get_tracer("relay_otel")


class TracedHop(relay.Hop):
    def parse_request(self):  # the span starts where the relay's own hop time does
        self.start_ns = time.time_ns()
        return super().parse_request()

    def handle_request(self):
        span = tracer.start_span(
            f"{self.command} {relay.HOP}",
            context=propagate.extract(self.headers),
            kind=SpanKind.SERVER,
            start_time=self.start_ns,
        )
        self.done = None
        try:
            with trace.use_span(span, end_on_exit=False):
                super().handle_request()
        finally:
            # Ends where relay.py's clock stopped (on that clock, from where both started).
            done = self.done
            span.end(end_time=None if done is None else self.start_ns + round((done - self.start) * 1e9))

    def forward(self, body):
        # Times taken first and last, so the SDK's own work stays outside the span, as it stays
        # inside relay.py's wait.
        span = tracer.start_span(
            f"{self.command} {relay.NEXT.netloc}", kind=SpanKind.CLIENT, start_time=time.time_ns()
        )
        with trace.use_span(span, end_on_exit=False):
            try:
                return super().forward(body)
            finally:
                span.end(end_time=time.time_ns())

    def outgoing_headers(self):
        headers = super().outgoing_headers()
        propagate.inject(headers)
        return headers

    do_POST = do_PUT = do_PATCH = do_DELETE = handle_request


def stop(*_):
    provider.shutdown()  # exports what is still batched
    sys.exit(0)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, stop)
    server = relay.Server(("", relay.PORT), TracedHop)
    print(f"listening on {server.server_address[1]}", flush=True)
    server.serve_forever()
