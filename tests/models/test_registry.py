"""The model-server registry's join rule, against real processes and a real HTTP server on 127.0.0.1
(no model): a busy server is joined, never doubled; a silent one is a clear error."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from sejury.errors import ModelSetupError
from sejury.models.embedded import EmbeddedServer, ServerConfig


class _Slow(BaseHTTPRequestHandler):
    """Answers its first two requests past the 2 s health check (a server busy with a long prompt),
    then promptly."""

    slow = 2

    def do_GET(self) -> None:
        if _Slow.slow > 0:
            _Slow.slow -= 1
            time.sleep(3.0)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b'{"data": []}')

    def log_message(self, *args: object) -> None:
        pass


class _QuietServer(ThreadingHTTPServer):
    """Its handlers outlive the test (one sleeps past the client's 2 s and then writes to a closed
    socket): the broken pipe is expected, and printed to stderr it landed in a later test's captured
    output (a CLI test read it as its JSON)."""

    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass


@pytest.fixture
def registered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[EmbeddedServer, int]]:
    """A registry entry whose server process is alive (a sleeping stand-in) and whose port answers slowly."""
    monkeypatch.setenv("SEJURY_RUN_DIR", str(tmp_path / "run"))
    monkeypatch.setenv("SEJURY_CACHE_DIR", str(tmp_path / "cache"))
    _Slow.slow = 2
    httpd = _QuietServer(("127.0.0.1", 0), _Slow)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    stand_in = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    model = tmp_path / "m.gguf"
    model.write_bytes(b"not a model")
    server = EmbeddedServer(ServerConfig(model_path=model, startup_timeout=20))
    server.home.mkdir(parents=True)
    (server.home / "server.json").write_text(json.dumps({"pid": stand_in.pid, "port": httpd.server_port}))

    def no_second(self: EmbeddedServer) -> None:
        raise AssertionError("started a second model server beside a live one")

    monkeypatch.setattr(EmbeddedServer, "_spawn", no_second)
    yield server, httpd.server_port
    server.stop()
    stand_in.kill()
    stand_in.wait()
    httpd.shutdown()


def test_a_busy_server_is_joined_not_doubled(registered: tuple[EmbeddedServer, int]) -> None:
    server, port = registered
    server.start()
    assert server.joined and server.port == port


def test_a_silent_server_is_a_clear_error(registered: tuple[EmbeddedServer, int]) -> None:
    server, _ = registered
    _Slow.slow = 1000  # never answers in time
    server.config.startup_timeout = 1.0
    with pytest.raises(ModelSetupError, match="has not answered for 1s"):
        server.start()
