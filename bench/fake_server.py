"""A fast fixed-latency OpenAI-compatible chat server for benchmarks: plain asyncio (uvloop when
installed), HTTP/1.1 keep-alive, any number of requests in flight, each answered after exactly
``latency`` seconds of ``asyncio.sleep`` with the scripted, parseable replies of the tests' fake
(``tests/helpers/fakes.py``: the reply is chosen from the prompt, so every step gets the right kind).

    .venv/bin/python bench/fake_server.py --latency 0.2 [--port 0]

It prints its base URL (``http://127.0.0.1:PORT/v1``) on the first line, then serves until killed.
``GET /stats`` gives what the benchmark needs to time a run from the server's side: requests,
the peak in flight, the first request's arrival and the last reply's departure (``time.monotonic``,
the same clock in every process on the machine) and this process's CPU seconds; ``POST /reset``
zeroes them.  Each request costs it ~0.1 ms of CPU, so it is never the bottleneck.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository: tests is a package

from tests.helpers.fakes import GOOD_REPLIES, step_of_text


class Stats:
    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.requests = 0
        self.in_flight = 0
        self.peak_in_flight = 0
        self.first_request: float | None = None
        self.last_reply: float | None = None
        self.cpu_at_reset = time.process_time()

    def as_dict(self) -> dict[str, Any]:
        return {"requests": self.requests, "peak_in_flight": self.peak_in_flight,
                "first_request": self.first_request, "last_reply": self.last_reply,
                "cpu_seconds": time.process_time() - self.cpu_at_reset}


def _response(payload: dict[str, Any]) -> bytes:
    body = json.dumps(payload).encode()
    head = (f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            "Connection: keep-alive\r\n\r\n").encode()
    return head + body


def _completion(request: dict[str, Any]) -> dict[str, Any]:
    msgs = request["messages"]
    user = next(m["content"] for m in msgs if m["role"] == "user")
    text = GOOD_REPLIES[step_of_text(user, len(msgs))]
    return {"id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": request.get("model", "fake"),
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}


class FakeServer:
    def __init__(self, latency: float) -> None:
        self.latency = latency
        self.stats = Stats()

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.split(b"\r\n")
                method, path, _ = lines[0].split(b" ", 2)
                length = 0
                for h in lines[1:]:
                    name, _, value = h.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                body = await reader.readexactly(length) if length else b""
                writer.write(await self.answer(method, path, body))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def answer(self, method: bytes, path: bytes, body: bytes) -> bytes:
        st = self.stats
        if path.endswith(b"/chat/completions"):
            st.requests += 1
            st.in_flight += 1
            st.peak_in_flight = max(st.peak_in_flight, st.in_flight)
            if st.first_request is None:
                st.first_request = time.monotonic()
            try:
                payload = _completion(json.loads(body))
                if self.latency:
                    await asyncio.sleep(self.latency)
            finally:
                st.in_flight -= 1
            st.last_reply = time.monotonic()
            return _response(payload)
        if path == b"/stats":
            return _response(st.as_dict())
        if path == b"/reset" and method == b"POST":
            st.reset()
            return _response({"ok": True})
        return _response({"object": "list", "data": [{"id": "fake", "object": "model"}]})


async def serve(latency: float, port: int) -> None:
    fake = FakeServer(latency)
    server = await asyncio.start_server(fake.handle, "127.0.0.1", port, backlog=1024)
    bound = server.sockets[0].getsockname()[1]
    print(f"http://127.0.0.1:{bound}/v1", flush=True)
    async with server:
        await server.serve_forever()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--latency", type=float, default=0.2, help="seconds per chat completion")
    ap.add_argument("--port", type=int, default=0)
    args = ap.parse_args()
    try:
        import uvloop

        uvloop.run(serve(args.latency, args.port))
    except ImportError:
        asyncio.run(serve(args.latency, args.port))


if __name__ == "__main__":
    main()
