"""Spans go to an OpenTelemetry collector when the user sets the variables (LangSmith's OTel mode,
no LangSmith key), and nowhere when they do not.  A real OTLP/HTTP receiver on 127.0.0.1 decodes
what arrives; the model is the fake OpenAI-compatible server (wiring, not quality)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.fake_openai import FakeOpenAI
from tests.helpers.paths import ROOT

SEJURY = Path(sys.executable).parent / "sejury"
pytestmark = pytest.mark.process  # `sejury judge` in a subprocess


@pytest.fixture
def collector() -> Iterator[tuple[str, list[bytes]]]:
    bodies: list[bytes] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            if self.path == "/v1/traces":
                bodies.append(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", bodies
    server.shutdown()


def judge_once(env: dict[str, str], fake: FakeOpenAI) -> None:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("LANGSMITH_", "LANGCHAIN_", "OTEL_"))}
    r = subprocess.run([str(SEJURY), "judge", str(ROOT / "examples" / "code_generation.json"), "--model", "fake",
                        "--base-url", fake.base_url, "--team", "S1", "--no-cache", "--json"],
                       env={**clean, **env}, capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr[-2000:]


def span_names(bodies: list[bytes]) -> set[str]:
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    names: set[str] = set()
    for body in bodies:
        req = ExportTraceServiceRequest.FromString(body)
        names |= {span.name for rs in req.resource_spans for ss in rs.scope_spans for span in ss.spans}
    return names


def test_spans_reach_an_otlp_collector_when_asked(collector: tuple[str, list[bytes]]) -> None:
    url, bodies = collector
    with FakeOpenAI() as fake:
        judge_once({"LANGSMITH_TRACING": "true", "LANGSMITH_TRACING_MODE": "otel",
                    "OTEL_EXPORTER_OTLP_ENDPOINT": url}, fake)
    names = span_names(bodies)
    assert {"sejury", "supervisor", "direct", "merge"} <= names, names


def test_nothing_is_sent_unless_tracing_is_turned_on(collector: tuple[str, list[bytes]]) -> None:
    url, bodies = collector
    with FakeOpenAI() as fake:
        judge_once({"OTEL_EXPORTER_OTLP_ENDPOINT": url}, fake)  # an endpoint alone turns nothing on
        assert fake.requests == 1
    assert bodies == []
