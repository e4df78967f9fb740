"""``sejury serve`` over real HTTP on 127.0.0.1: uvicorn in a thread (most tests, on a scripted model)
or ``sejury serve`` in a subprocess against a fake OpenAI-compatible server (shutdown, CLI)."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from langchain_core.messages import BaseMessage
from langserve import RemoteRunnable
from typer.testing import CliRunner

from sejury import Judge
from sejury.cli import app as cli
from sejury.errors import InputError
from sejury.models.embedded import pid_alive
from sejury.serve import ServeSettings, create_app
from tests.helpers.fake_openai import FakeOpenAI
from tests.helpers.fakes import ScriptedChatModel, good_script
from tests.helpers.paths import ROOT
from tests.helpers.procs import descendants

KEY = "s3cret-key"
AUTH = {"Authorization": f"Bearer {KEY}"}
MakeJudge = Callable[..., tuple[Judge, ScriptedChatModel]]


@pytest.fixture(autouse=True)
def _no_server_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("SEJURY_SERVE_"):
            monkeypatch.delenv(name)


def sample(i: int = 0, **override: Any) -> dict[str, Any]:
    s = {"id": f"s{i}", "task": "code_generation", "language": "python", "problem": "Write add(a, b).",
         "candidate": "def add(a, b):\n    return a + b\n", "reference": "def add(a, b):\n    return a + b\n"}
    s.update(override)
    return s


@contextmanager
def running(app: FastAPI) -> Iterator[str]:
    """The app under uvicorn on a free loopback port, in a thread; yields its base URL."""
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        assert not thread.is_alive(), "uvicorn did not stop"


@pytest.fixture
def url(make_judge: MakeJudge) -> Iterator[str]:
    """A server with an API key on a scripted model (no cache)."""
    judge, _ = make_judge()
    with running(create_app(judge, ServeSettings(api_key=KEY))) as base:
        yield base


def client(base: str, **kw: Any) -> httpx.Client:
    return httpx.Client(base_url=base, headers=AUTH, timeout=30, **kw)


def sse(text: str) -> list[tuple[str, str]]:
    """(event, data) of a server-sent event stream."""
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            name, _, value = line.partition(":")
            fields[name] = fields.get(name, "") + value.removeprefix(" ")
        if "event" in fields:
            events.append((fields["event"], fields.get("data", "")))
    return events


# --- the routes


def test_invoke_returns_a_verdict(url: str) -> None:
    with client(url) as c:
        r = c.post("/judge/invoke", json={"input": sample()})
    assert r.status_code == 200, r.text
    verdict = r.json()["output"]
    assert verdict["sample_id"] == "s0" and verdict["status"] == "scored"
    assert set(verdict["strategies"]) >= {"direct", "direct_ref", "rethink", "equivalence"}
    assert r.json()["metadata"]["run_id"]
    # the verdict says whether it passes and whether to trust it alone, as the CLI and the agent tool do:
    # judged without execution, it rests on the model's opinion, which needs review
    assert verdict["merge"] == "evidence_first" and verdict["pass_mark"] == 50
    assert verdict["passed"] is (verdict["score"] >= 50) and verdict["grounds"] == "opinion"
    assert verdict["needs_review"] is True and any("opinion" in r for r in verdict["review_reasons"])


def test_batch_returns_verdicts_in_order(url: str) -> None:
    with client(url) as c:
        r = c.post("/judge/batch", json={"inputs": [sample(1), sample(2, reference=None), sample(3)]})
    assert r.status_code == 200, r.text
    out = r.json()["output"]
    assert [v["sample_id"] for v in out] == ["s1", "s2", "s3"]
    assert "equivalence" in out[1]["skipped_members"] and not out[0]["skipped_members"]  # no reference


def test_stream_sends_each_juror_then_the_verdict(url: str) -> None:
    with client(url) as c:
        r = c.post("/judge/stream", json={"input": sample()})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    events = sse(r.text)
    assert events[0][0] == "metadata" and events[-1][0] == "end"
    chunks = [json.loads(data) for kind, data in events if kind == "data"]
    jurors, last = chunks[:-1], chunks[-1]
    assert last["event"] == "verdict" and all(ch["event"] == "juror" for ch in jurors)
    verdict = last["verdict"]
    assert sorted(ch["strategy"] for ch in jurors) == sorted(verdict["strategies"])
    for ch in jurors:  # each juror's result as it landed is the one in the verdict
        assert ch["result"]["score"] == verdict["strategies"][ch["strategy"]]["score"]
    # rethink is fed by direct_ref: it cannot land before it
    order = [ch["strategy"] for ch in jurors]
    assert order.index("direct_ref") < order.index("rethink")


def test_stream_reports_skipped_jurors_too(url: str) -> None:
    with client(url) as c:
        r = c.post("/judge/stream", json={"input": sample(reference=None)})
    chunks = [json.loads(d) for k, d in sse(r.text) if k == "data"]
    skipped = [ch for ch in chunks if ch["event"] == "juror" and ch["result"]["status"] == "skipped"]
    assert {ch["strategy"] for ch in skipped} == set(chunks[-1]["verdict"]["skipped_members"])
    assert skipped


def test_schemas_are_sample_and_verdict(url: str) -> None:
    with client(url) as c:
        inp = c.get("/judge/input_schema").json()
        out = c.get("/judge/output_schema").json()
        event = c.get("/judge/event_schema").json()
        openapi = c.get("/openapi.json").json()
        playground = c.get("/judge/playground/")
    assert {"id", "task", "problem", "candidate", "reference"} <= set(inp["properties"])
    assert {"problem", "candidate"} <= set(inp["required"])
    assert {"score", "strategies", "team", "judgment_id"} <= set(out["properties"])
    assert set(event["properties"]) == {"event", "strategy", "result", "verdict"}
    assert {"/judge/invoke", "/judge/batch", "/judge/stream", "/healthz"} <= set(openapi["paths"])
    assert "/judge/stream_events" not in openapi["paths"]  # LangChain internals stay private
    assert playground.status_code == 200 and "<html" in playground.text


def test_the_langserve_client_gets_verdicts(url: str) -> None:
    remote: RemoteRunnable[Any, Any] = RemoteRunnable(url + "/judge", headers=AUTH, timeout=30)
    verdict = remote.invoke(sample())
    assert isinstance(verdict, dict) and verdict["sample_id"] == "s0" and verdict["score"] is not None
    assert [v["sample_id"] for v in remote.batch([sample(1), sample(2)])] == ["s1", "s2"]
    chunks = list(remote.stream(sample()))
    assert chunks[-1]["event"] == "verdict" and chunks[0]["event"] == "juror"


def test_healthz_says_what_judges(url: str) -> None:
    r = httpx.get(url + "/healthz")  # no key needed
    assert r.status_code == 200
    assert r.json() == {"status": "ok", "model": r.json()["model"], "execute": False}
    assert r.json()["model"].startswith("ScriptedChatModel")


# --- security


def test_the_key_is_required_everywhere_but_healthz(url: str) -> None:
    for method, path in [("POST", "/judge/invoke"), ("GET", "/judge/input_schema"), ("GET", "/openapi.json"),
                         ("GET", "/docs"), ("GET", "/judge/playground/"), ("GET", "/nowhere")]:
        r = httpx.request(method, url + path, json={"input": sample()} if method == "POST" else None)
        assert r.status_code == 401, (path, r.text)
        assert r.headers["www-authenticate"] == "Bearer"
        assert r.json() == {"error": r.json()["error"], "field": None} and "API key" in r.json()["error"]
    wrong = httpx.post(url + "/judge/invoke", json={"input": sample()}, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401 and wrong.json()["error"] == "wrong API key"
    by_header = httpx.post(url + "/judge/invoke", json={"input": sample()}, headers={"X-API-Key": KEY}, timeout=30)
    assert by_header.status_code == 200
    by_bearer = httpx.post(url + "/judge/invoke", json={"input": sample()}, headers=AUTH, timeout=30)
    assert by_bearer.status_code == 200


def test_a_20_mb_body_is_refused(url: str) -> None:
    big = json.dumps({"input": sample(candidate="x" * 20_000_000)}).encode()
    with client(url) as c:
        r = c.post("/judge/invoke", content=big, headers={"Content-Type": "application/json"})
        assert r.status_code == 413
        assert r.json() == {"error": "the request body is over this server's limit of 1048576 bytes", "field": None}

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
            for i in range(0, len(big), 1 << 16):
                yield big[i:i + (1 << 16)]

        assert c.post("/judge/invoke", content=chunks()).status_code == 413
        assert c.post("/judge/invoke", json={"input": sample()}).status_code == 200  # still serving


def test_malformed_requests_are_400_naming_the_field(url: str) -> None:
    with client(url) as c:
        def post(path: str, **kw: Any) -> httpx.Response:
            r = c.post(path, **kw)
            assert r.status_code == 400, r.text
            assert "Traceback" not in r.text
            return r

        r = post("/judge/invoke", content=b'{"input": {"id": "a",}}', headers={"Content-Type": "application/json"})
        assert r.json()["field"] is None and r.json()["error"].startswith("the body is not valid JSON")
        assert post("/judge/invoke", json=[sample()]).json()["error"].startswith("the body must be a JSON object")
        assert post("/judge/invoke", json={"sample": sample()}).json() == {
            "error": "a sample is required", "field": "input"}
        r = post("/judge/invoke", json={"input": sample(task="poetry")})
        assert r.json()["field"] == "input.task" and "code_generation" in r.json()["error"]
        no_candidate = sample()
        del no_candidate["candidate"]
        assert post("/judge/stream", json={"input": no_candidate}).json() == {
            "error": "Field required", "field": "input.candidate"}
        assert post("/judge/batch", json={"inputs": [sample(), sample(problem=3)]}).json()["field"] == \
            "inputs.1.problem"
        assert post("/judge/batch", json={"inputs": sample()}).json()["field"] == "inputs"
        for key in ("model", "base_url", "cache_path", "sandbox_mode", "execute"):
            r = post("/judge/invoke", json={"input": sample(), "config": {"configurable": {key: "x"}}})
            assert r.json()["field"] == f"config.configurable.{key}"
        r = post("/judge/invoke", json={"input": sample(), "config": {"configurable": {"team": ["S1"]}}})
        assert r.json()["field"] == "config.configurable.team" and "--allow-caller-config" in r.json()["error"]


def test_callers_choose_the_team_only_when_allowed(make_judge: MakeJudge) -> None:
    judge, _ = make_judge()
    with running(create_app(judge, ServeSettings(allow_caller_config=True))) as base, client(base) as c:
        r = c.post("/judge/invoke", json={"input": sample(), "config": {"configurable": {"team": ["S1", "S3"]}}})
        assert r.status_code == 200, r.text
        assert r.json()["output"]["team"] == ["direct", "equivalence"]
        r = c.post("/judge/stream", json={"input": sample(), "config": {"configurable": {"team": ["S1"]}}})
        assert json.loads(sse(r.text)[-2][1])["verdict"]["team"] == ["direct"]
        bad = c.post("/judge/invoke", json={"input": sample(), "config": {"configurable": {"team": ["S9"]}}})
        assert bad.status_code == 400 and bad.json()["field"] == "config.configurable.team"
        assert "unknown strategy 'S9'" in bad.json()["error"]
        # a team file is the operator's to give: a caller's path is never read
        path = c.post("/judge/invoke", json={"input": sample(), "config": {"configurable": {"team": "/etc/passwd"}}})
        assert path.status_code == 400 and path.json()["field"] == "config.configurable.team"
        assert c.get("/judge/config_schema").json()["properties"]["configurable"]
        # the model stays the server's
        r = c.post("/judge/invoke", json={"input": sample(), "config": {"configurable": {"model": "openai:x"}}})
        assert r.status_code == 400 and r.json()["field"] == "config.configurable.model"


def test_errors_hide_the_traceback(make_judge: MakeJudge, monkeypatch: pytest.MonkeyPatch,
                                   caplog: pytest.LogCaptureFixture) -> None:
    judge, _ = make_judge()

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("secret detail of the failure")

    async def bad_input(*args: Any, **kwargs: Any) -> Any:
        raise InputError("the team file was calibrated for program_repair", field="task")

    with running(create_app(judge)) as base, client(base) as c, caplog.at_level(logging.ERROR, "sejury.serve"):
        monkeypatch.setattr(judge, "ajudge", broken)
        r = c.post("/judge/invoke", json={"input": sample()})
        assert r.status_code == 500 and set(r.json()) == {"error", "id"} and r.json()["error"] == "internal error"
        assert "secret" not in r.text and "Traceback" not in r.text
        assert any(r.json()["id"] in rec.getMessage() and rec.exc_info for rec in caplog.records)
        monkeypatch.setattr(judge, "ajudge", bad_input)
        r = c.post("/judge/invoke", json={"input": sample()})
        assert r.status_code == 400 and r.json() == {
            "error": "the team file was calibrated for program_repair", "field": "task"}
        assert c.get("/nowhere").status_code == 404 and c.get("/nowhere").json()["field"] is None


def test_a_failure_mid_stream_ends_it_with_an_error_event(make_judge: MakeJudge, monkeypatch: pytest.MonkeyPatch,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    judge, _ = make_judge()
    real = judge.graph.astream

    async def breaks_after_one(*args: Any, **kwargs: Any) -> Any:
        async for update in real(*args, **kwargs):
            yield update
            if "supervisor" not in update:
                raise RuntimeError("secret detail of the failure")

    app = create_app(judge)
    with running(app) as base, client(base) as c, caplog.at_level(logging.ERROR, "sejury.serve"):
        monkeypatch.setattr(judge.graph, "astream", breaks_after_one)
        r = c.post("/judge/stream", json={"input": sample()})
        events = sse(r.text)
        assert [kind for kind, _ in events] == ["metadata", "data", "error"]
        assert json.loads(events[-1][1]) == {"status_code": 500, "message": "Internal Server Error"}
        assert "secret" not in r.text
        assert any("internal error" in rec.getMessage() and rec.exc_info for rec in caplog.records)
        assert app.state.slots.in_use == 0


# --- the bound on judgments in flight


class GatedModel(ScriptedChatModel):
    """Every call waits until the test opens the gate."""

    gate: Any = None

    async def _agenerate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                         run_manager: Any = None, **kwargs: Any) -> Any:
        await asyncio.to_thread(self.gate.wait, 30)
        return self._generate(messages, stop, None, **kwargs)


def test_judgments_beyond_the_bound_get_429(tmp_path: Path) -> None:
    gate = threading.Event()
    judge = Judge(GatedModel(script=good_script, gate=gate), team="S1", cache=False)
    app = create_app(judge, ServeSettings(max_concurrent=2))
    slots = app.state.slots
    with running(app) as base, client(base) as c:
        results: list[httpx.Response] = []
        pending = [threading.Thread(target=lambda i=i: results.append(
            c.post("/judge/invoke", json={"input": sample(i)}))) for i in range(2)]
        for t in pending:
            t.start()
        deadline = time.monotonic() + 20
        while slots.in_use < 2:
            assert time.monotonic() < deadline, f"the judgments never took their slots ({slots.in_use} of 2 in 20 s)"
            time.sleep(0.01)
        busy = c.post("/judge/invoke", json={"input": sample(9)})
        assert busy.status_code == 429 and int(busy.headers["retry-after"]) >= 1
        assert busy.json()["error"].startswith("busy: 2 of 2 judgments in flight")
        assert c.post("/judge/stream", json={"input": sample(9)}).status_code == 429
        assert c.post("/judge/batch", json={"inputs": [sample(9)]}).status_code == 429
        too_big = c.post("/judge/batch", json={"inputs": [sample(i) for i in range(3)]})
        assert too_big.status_code == 413 and too_big.json()["field"] == "inputs"
        gate.set()
        for t in pending:
            t.join(30)
        assert [r.status_code for r in results] == [200, 200]
        assert slots.in_use == 0
        assert c.post("/judge/batch", json={"inputs": [sample(1), sample(2)]}).status_code == 200


def test_a_batch_takes_a_slot_per_judgment_or_none(tmp_path: Path) -> None:
    gate = threading.Event()
    judge = Judge(GatedModel(script=good_script, gate=gate), team="S1", cache=False)
    app = create_app(judge, ServeSettings(max_concurrent=3))
    slots = app.state.slots
    with running(app) as base, client(base) as c:
        held: list[httpx.Response] = []
        t = threading.Thread(target=lambda: held.append(
            c.post("/judge/batch", json={"inputs": [sample(1), sample(2)]})))
        t.start()
        deadline = time.monotonic() + 20
        while slots.in_use < 2:
            assert time.monotonic() < deadline, f"the batch never took its two slots ({slots.in_use} of 2 in 20 s)"
            time.sleep(0.01)
        assert c.post("/judge/batch", json={"inputs": [sample(3), sample(4)]}).status_code == 429
        assert slots.in_use == 2  # refused whole: nothing taken
        gate.set()
        t.join(30)
        assert held[0].status_code == 200 and slots.in_use == 0


def test_a_stream_the_client_drops_gives_its_slot_back(tmp_path: Path) -> None:
    gate = threading.Event()
    judge = Judge(GatedModel(script=good_script, gate=gate), team="S1", cache=False)
    app = create_app(judge, ServeSettings(max_concurrent=1))
    slots = app.state.slots
    with running(app) as base, client(base) as c:
        with c.stream("POST", "/judge/stream", json={"input": sample()}) as r:
            assert r.status_code == 200
            assert slots.in_use == 1
        gate.set()  # the judgment's model call returns into a cancelled request
        deadline = time.monotonic() + 20
        while slots.in_use:
            assert time.monotonic() < deadline, "the dropped stream kept its slot"
            time.sleep(0.02)
        assert c.post("/judge/invoke", json={"input": sample()}).status_code == 200


# --- settings


def test_settings_read_the_environment_and_the_key_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEJURY_SERVE_API_KEY", "from-env")
    monkeypatch.setenv("SEJURY_SERVE_MAX_CONCURRENT", "7")
    s = ServeSettings()
    assert s.key == "from-env" and s.max_concurrent == 7 and s.loopback and s.host == "127.0.0.1"
    assert "from-env" not in repr(s)
    key_file = tmp_path / "key"
    key_file.write_text("  from-file\n")
    with pytest.raises(InputError, match="not both"):
        ServeSettings.build(api_key_file=key_file)
    monkeypatch.delenv("SEJURY_SERVE_API_KEY")
    assert ServeSettings.build(api_key_file=key_file).key == "from-file"
    with pytest.raises(InputError, match="cannot read the API key file"):
        ServeSettings.build(api_key_file=tmp_path / "missing")
    with pytest.raises(InputError, match="the API key is empty"):
        ServeSettings.build(api_key=" ")
    with pytest.raises(InputError, match="max_concurrent"):
        ServeSettings.build(max_concurrent=0)
    assert not ServeSettings(host="0.0.0.0").loopback and ServeSettings(host="::1").loopback


# --- the command: `sejury serve` in a subprocess against a fake OpenAI-compatible server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _handles(pid: int, sig: int) -> bool:
    """Whether process ``pid`` catches ``sig`` with a handler of its own (its /proc status's SigCgt mask)."""
    (caught,) = [line.split()[1] for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                 if line.startswith("SigCgt:")]
    return bool(int(caught, 16) >> (sig - 1) & 1)


def _wait_until_up(proc: subprocess.Popen[str], base: str, *, within: float, poll: float) -> None:
    """Until `sejury serve`'s /healthz answers 200; fails at once if the process exits."""
    deadline = time.monotonic() + within
    while True:
        assert proc.poll() is None, proc.communicate()[1]
        assert time.monotonic() < deadline, "sejury serve did not come up"
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(poll)


@contextmanager
def serve_process(fake: FakeOpenAI | None, *args: str, env: dict[str, str] | None = None,
                  cache: Path | None = None) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """`sejury serve` on ``fake``, or on the embedded model when ``fake`` is None."""
    port = _free_port()
    model = ["--model", "fake", "--base-url", fake.base_url] if fake is not None else ["--model", "embedded"]
    cmd = [sys.executable, "-m", "sejury.cli", "serve", "--port", str(port), *model, "--team", "S1,S3", *args,
           *(["--cache", "--cache-path", str(cache)] if cache else ["--no-cache"])]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})})
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(proc, base, within=60, poll=0.1)
        yield proc, base
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# llama.cpp's llama-server as `sejury serve` sees it: an OpenAI-compatible server on --port (the fake
# model's replies), which writes its pid beside itself
LLAMA_SERVER_STAND_IN = """#!{python}
import os, sys
sys.path.insert(0, {root!r})
from tests.helpers.fake_openai import FakeOpenAI
with open(__file__ + ".pid", "w") as f:
    f.write(str(os.getpid()))
FakeOpenAI(latency=0.05, port=int(sys.argv[sys.argv.index("--port") + 1])).server.serve_forever()
"""


@pytest.mark.process
def test_sigterm_shuts_the_server_down_cleanly(tmp_path: Path) -> None:
    """The judge is closed (its cache and trace store too) and no child outlives the server: the
    embedded model's server it started (the watcher ``_serve_child`` and the llama-server it runs,
    here a stand-in answering as the fake model does) is gone once `sejury serve` has exited."""
    stand_in = tmp_path / "llama-server"
    stand_in.write_text(LLAMA_SERVER_STAND_IN.format(python=sys.executable, root=str(ROOT)))
    stand_in.chmod(0o755)
    (tmp_path / "stand-in.gguf").write_bytes(b"not a model")
    env = {"SEJURY_EMBEDDED_RUNTIME": "native", "SEJURY_LLAMA_SERVER": str(stand_in),
           "SEJURY_MODEL_PATH": str(tmp_path / "stand-in.gguf"),
           # a registry (and server logs) of its own: never the machine's model server
           "SEJURY_RUN_DIR": str(tmp_path / "run"), "SEJURY_CACHE_DIR": str(tmp_path / "cache")}
    with serve_process(None, cache=tmp_path / "c.sqlite", env=env) as (proc, base):
        r = httpx.post(base + "/judge/invoke", json={"input": sample()}, timeout=30)
        assert r.status_code == 200 and r.json()["output"]["team"] == ["direct", "equivalence"]
        assert r.json()["output"]["model"].startswith("gguf:stand-in.gguf/llama-server#")
        again = httpx.post(base + "/judge/invoke", json={"input": sample()}, timeout=30).json()["output"]
        assert all(res["cached"] for res in again["strategies"].values())
        children = descendants(proc.pid)
        model_server = int(Path(f"{stand_in}.pid").read_text())
        assert model_server in children and len(children) >= 2, "the model server should be the server's child"
        # a prompt exit, without reading a clock: the watcher the server stops with SIGTERM handles it
        # (leaving at once, the model server along), so the server never waits out the 10 s before its SIGKILL
        (watcher,) = [p for p in children if b"sejury.models._serve_child" in Path(f"/proc/{p}/cmdline").read_bytes()]
        assert _handles(watcher, signal.SIGTERM), "the model server's watcher does not handle SIGTERM"
        proc.send_signal(signal.SIGTERM)
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail("sejury serve did not exit within 30 s of SIGTERM")
        assert proc.returncode == 0, err
        assert "Application shutdown complete" in err and "Traceback" not in err
        assert not [p for p in children if pid_alive(p)], "a child process outlived the server"


@pytest.mark.process
def test_the_model_servers_watcher_leaves_on_sigterm_taking_the_server_along(tmp_path: Path) -> None:
    """What makes the exit above prompt: the watcher (``_serve_child``) that `sejury serve` stops with
    SIGTERM exits by itself, with 0, its llama-server gone; were it to hang, the server would wait
    10 s before its SIGKILL (which a bound on wall time did not see: 10 s < 15 s)."""
    stand_in = tmp_path / "llama-server"
    stand_in.write_text(LLAMA_SERVER_STAND_IN.format(python=sys.executable, root=str(ROOT)))
    stand_in.chmod(0o755)
    home = tmp_path / "registry"
    (home / "users").mkdir(parents=True)
    (home / "users" / str(os.getpid())).touch()  # a live user: the watcher keeps the server
    watcher = subprocess.Popen([sys.executable, "-m", "sejury.models._serve_child", str(home), str(stand_in),
                                "--port", str(_free_port())], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        pid_file = Path(f"{stand_in}.pid")
        deadline = time.monotonic() + 30
        while not pid_file.exists() or not pid_file.read_text():
            assert watcher.poll() is None and time.monotonic() < deadline, "the stand-in model server did not start"
            time.sleep(0.05)
        model_server = int(pid_file.read_text())
        watcher.send_signal(signal.SIGTERM)
        try:
            watcher.wait(timeout=60)  # a deadline against a hang, not a measure of speed
        except subprocess.TimeoutExpired:
            pytest.fail("the watcher hung after SIGTERM (sejury serve would SIGKILL it after 10 s)")
        assert watcher.returncode == 0, watcher.stderr.read() if watcher.stderr else None
        assert not pid_alive(model_server), "the model server outlived its watcher"
    finally:
        if watcher.poll() is None:
            watcher.kill()
            watcher.wait()


@pytest.mark.process
def test_serve_command_takes_its_key_from_a_file(tmp_path: Path) -> None:
    key_file = tmp_path / "key"
    key_file.write_text(KEY + "\n")
    with FakeOpenAI() as fake, serve_process(fake, "--api-key-file", str(key_file), "--max-concurrent", "1",
                                             env={"SEJURY_SERVE_MAX_BODY_BYTES": "2048"}) as (proc, base):
        assert httpx.post(base + "/judge/invoke", json={"input": sample()}).status_code == 401
        r = httpx.post(base + "/judge/invoke", json={"input": sample()}, headers={"X-API-Key": KEY}, timeout=30)
        assert r.status_code == 200, r.text
        big = httpx.post(base + "/judge/invoke", json={"input": sample(candidate="x" * 4096)}, headers=AUTH)
        assert big.status_code == 413
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 0
        assert "API key: required" in err and KEY not in err


def test_serve_command_refuses_bad_settings_and_warns_off_loopback(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # the command sets up logging (its own and uvicorn's) on the stderr it is given: here CliRunner's
    # stream, closed after the call; the handlers would outlive it in this test process (a later
    # record on this worker then met a closed file, and the worker's every later test erred)
    monkeypatch.setattr(logging, "basicConfig", lambda **_: None)
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda self: None)
    missing = CliRunner().invoke(cli, ["serve", "--api-key-file", str(tmp_path / "nope"), "--model", "fake",
                                       "--base-url", "http://127.0.0.1:9/v1"])
    assert missing.exit_code == 2 and "field 'api_key'" in missing.output
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: None)  # do not really listen on every interface
    open_to_all = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0", "--model", "fake",
                                           "--base-url", "http://127.0.0.1:9/v1"])
    assert "WARNING" in open_to_all.output and "no API key" in open_to_all.output


@pytest.mark.embedded
@pytest.mark.docker
def test_sigterm_leaves_no_model_server_and_no_container_on_the_real_stack(tmp_path: Path) -> None:
    """`sejury serve` on the embedded model with the Docker sandbox: a real judgment (the sample's
    tests run in a container), then SIGTERM: exit 0, no model server process, no container left."""
    import docker

    port = _free_port()
    cmd = [sys.executable, "-m", "sejury.cli", "serve", "--port", str(port), "--team", "sample_tests,direct",
           "--execute", "--no-cache"]
    # its own model-server registry: on a shared one it would join the server other tests started
    env = {**os.environ, "SEJURY_RUN_DIR": str(tmp_path / "run")}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(proc, base, within=180, poll=0.5)
        s = sample(tests="assert add(1, 2) == 3\nassert add(-1, 1) == 0\n")
        r = httpx.post(base + "/judge/invoke", json={"input": s}, timeout=600)
        assert r.status_code == 200, r.text
        verdict = r.json()["output"]
        assert verdict["strategies"]["sample_tests"]["score"] == 100.0
        assert verdict["strategies"]["direct"]["status"] in ("scored", "unscored")
        owner = f"{socket.gethostname()}:{proc.pid}"
        engine = docker.from_env()
        mine = {"label": [f"org.sejury.owner={owner}"]}
        assert engine.containers.list(filters=mine), "the warm sandbox should be running before SIGTERM"
        children = descendants(proc.pid)
        assert children, "the embedded model server should be a child of the server"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        assert not [p for p in children if pid_alive(p)], "the model server outlived `sejury serve`"
        assert engine.containers.list(all=True, filters=mine) == [], "a sandbox container outlived `sejury serve`"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
