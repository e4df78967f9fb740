"""A fixed-latency OpenAI-compatible chat server on loopback, for CLI tests over real HTTP.

It answers /v1/chat/completions with the scripted replies of ``fakes.GOOD_REPLIES`` and counts
requests.  Test-only: the judge's real model path is tested against llama.cpp's server.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.helpers.fakes import GOOD_REPLIES, step_of_text


class FakeOpenAI:
    def __init__(self, latency: float = 0.0,
                 replies: dict[str, str | Callable[[str], str]] | None = None, port: int = 0) -> None:
        self.latency = latency
        # by step (``fakes.step_of_text``): the reply, or a function of the user prompt giving it
        self.replies: dict[str, str | Callable[[str], str]] = {**GOOD_REPLIES, **(replies or {})}
        self.requests = 0
        self.bodies: list[dict[str, Any]] = []  # every request body, as sent
        self._lock = threading.Lock()
        parent = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                self._send({"object": "list", "data": [{"id": "fake", "object": "model"}]})

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with parent._lock:
                    parent.requests += 1
                    parent.bodies.append(body)
                time.sleep(parent.latency)
                msgs = body["messages"]
                user = next(m["content"] for m in msgs if m["role"] == "user")
                reply = parent.replies[step_of_text(user, len(msgs))]
                text = reply if isinstance(reply, str) else reply(user)
                self._send({
                    "id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": body["model"],
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": text}}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15,
                              "prompt_tokens_details": {"cached_tokens": 4}},
                })

            def _send(self, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)  # port 0: a free one
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
