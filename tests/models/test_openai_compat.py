"""The lean client for OpenAI-compatible servers (``OpenAICompatibleChat``): the request langchain-openai
would send, the reply read the same way, errors classed as the openai SDK's, connections released;
and the run file's background fsync."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from sejury import Judge, Sample
from sejury.api import run_sync
from sejury.errors import ModelError
from sejury.io import RunFile
from sejury.models import ModelSettings, make_client
from sejury.models.openai_compat import OpenAICompatibleChat
from tests.helpers.fake_openai import FakeOpenAI

MESSAGES = [SystemMessage("You judge code."), HumanMessage("Task: is it right?"), AIMessage("Score: ?"),
            HumanMessage("Reply with one line: Score: N")]


def test_it_sends_what_chatopenai_sends_and_reads_the_reply_the_same_way() -> None:
    with FakeOpenAI() as server:
        lean = make_client(ModelSettings(model="fake", base_url=server.base_url, max_tokens=77))
        full = make_client(ModelSettings(model="fake", base_url=server.base_url, max_tokens=77, structured=True))
        assert isinstance(lean.model, OpenAICompatibleChat)
        assert type(full.model).__name__ == "ChatOpenAI"  # structured output keeps langchain-openai's client
        full.structured = False  # the same plain-text request from both
        got = [run_sync(c.complete(MESSAGES)) for c in (lean, full)]
        assert lean.name == full.name  # the cache key's model part does not depend on the client
    assert server.bodies[0] == server.bodies[1]
    assert server.bodies[0]["max_tokens"] == 77 and "max_completion_tokens" not in server.bodies[0]
    assert [m["role"] for m in server.bodies[0]["messages"]] == ["system", "user", "assistant", "user"]
    a, b = got
    assert (a.text, a.finish_reason, a.prompt_tokens, a.completion_tokens, a.cached_prompt_tokens) == \
           (b.text, b.finish_reason, b.prompt_tokens, b.completion_tokens, b.cached_prompt_tokens) == \
           ("Score: 42", "stop", 10, 5, 4)


@pytest.fixture
def status_server() -> Iterator[tuple[str, list[int]]]:
    """Answers every completion with the next status of the list it yields (then 200)."""
    statuses: list[int] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            status = statuses.pop(0) if statuses else 200
            body = (json.dumps({"error": {"message": "no"}}) if status != 200 else json.dumps({
                "choices": [{"finish_reason": "length", "message": {"role": "assistant", "content": "Score: 1"}}]}))
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", statuses
    server.shutdown()
    server.server_close()


def test_errors_are_classed_as_the_sdk_classes_them(status_server: tuple[str, list[int]]) -> None:
    url, statuses = status_server
    client = make_client(ModelSettings(model="fake", base_url=url))
    for status, transient in [(500, True), (503, True), (429, True), (400, False), (404, False)]:
        statuses.append(status)
        with pytest.raises(ModelError) as info:
            run_sync(client.complete(MESSAGES))
        assert info.value.transient is transient, (status, info.value)
        assert f"Error code: {status}" in str(info.value)
    reply = run_sync(client.complete(MESSAGES))  # no usage in the reply: zero tokens, not an error
    assert (reply.text, reply.finish_reason, reply.prompt_tokens) == ("Score: 1", "length", 0)


def test_a_server_that_is_not_there_is_a_transient_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    client = make_client(ModelSettings(model="fake", base_url=f"http://127.0.0.1:{port}/v1"))
    with pytest.raises(ModelError) as info:
        run_sync(client.complete(MESSAGES))
    assert info.value.transient and "APIConnectionError" in str(info.value)


def test_closing_the_judge_releases_the_connections(codegen: Sample) -> None:
    with FakeOpenAI() as server:
        judge = Judge("fake", base_url=server.base_url, cache=False, traces=False, team="S1")
        model = judge.llm.model
        assert isinstance(model, OpenAICompatibleChat)
        assert judge.judge(codegen).status == "scored"
        assert len(model._sessions) == 1
        judge.close()
        assert model._sessions == {}


def test_the_run_file_is_complete_on_disk_before_close_and_after(tmp_path: Path, codegen: Sample,
                                                                 make_judge: Any) -> None:
    judge, _ = make_judge(team="S1", traces=False)
    verdict = judge.judge(codegen)
    run = RunFile(tmp_path / "run.jsonl")
    for i in range(3):
        run.write(verdict.model_copy(update={"sample_id": f"s{i}"}))
        # written and flushed when write returns: a process killed now loses nothing
        assert len((tmp_path / "run.jsonl").read_text().splitlines()) == i + 1
    run.close()
    assert [json.loads(x)["sample_id"] for x in (tmp_path / "run.jsonl").read_text().splitlines()] == ["s0", "s1", "s2"]
    again = RunFile(tmp_path / "run.jsonl")
    again.close()
    assert again.done == {"s0", "s1", "s2"}


def test_callbacks_still_see_every_call(codegen: Sample) -> None:
    """A call nothing observes skips LangChain's run bookkeeping; one a handler (a tracer, a streaming
    consumer) observes goes through it, as with any chat model."""
    from langchain_core.callbacks import BaseCallbackHandler

    seen: list[str] = []

    class Spy(BaseCallbackHandler):
        def on_chat_model_start(self, serialized: Any, messages: Any, **kwargs: Any) -> None:
            seen.append("start")

        def on_llm_end(self, response: Any, **kwargs: Any) -> None:
            seen.append("end")

    with FakeOpenAI() as server:
        judge = Judge("fake", base_url=server.base_url, cache=False, traces=False, team="S1,S3")
        assert not judge.llm.model._observed(None)  # type: ignore[attr-defined]
        quiet = judge.judge(codegen)
        loud = run_sync(judge.graph.ainvoke({"sample": codegen}, config={"callbacks": [Spy()]}))["verdict"]
        judge.close()
    assert sorted(seen) == ["end", "end", "start", "start"]
    assert quiet.score == loud.score and quiet.llm_calls == loud.llm_calls == 2
