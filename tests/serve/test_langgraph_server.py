"""The judge graph under the LangGraph server (`langgraph dev`, from the repository's
langgraph.json), judged through a RemoteGraph over real HTTP on 127.0.0.1, offline, with no
LangSmith key.  The model behind it is the fake OpenAI-compatible server (wiring, not quality)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.fake_openai import FakeOpenAI
from tests.helpers.paths import ROOT

LANGGRAPH = Path(sys.executable).parent / "langgraph"

_MISSING = not LANGGRAPH.exists() and shutil.which("langgraph") is None
if _MISSING and os.environ.get("SEJURY_REQUIRE_LANGGRAPH") == "1":
    raise pytest.UsageError("SEJURY_REQUIRE_LANGGRAPH=1 but langgraph-cli[inmem] is not installed (setup.sh)")
pytestmark = [pytest.mark.langgraph,
              pytest.mark.skipif(_MISSING, reason="langgraph-cli[inmem] is not installed (the 'langgraph' extra)")]


@pytest.fixture
def langgraph_dev(tmp_path: Path) -> Iterator[tuple[str, Path, FakeOpenAI]]:
    traces = tmp_path / "traces.sqlite"
    with FakeOpenAI() as fake:
        env = {**os.environ, "SEJURY_MODEL": "fake", "SEJURY_BASE_URL": fake.base_url, "SEJURY_CACHE": "false",
               "SEJURY_TRACE_PATH": str(traces), "LANGGRAPH_CLI_NO_ANALYTICS": "1", "LANGSMITH_TRACING": "false",
               "LANGSMITH_API_KEY": ""}
        log = tmp_path / "langgraph.log"
        with log.open("w") as out:
            proc = subprocess.Popen(
                [str(LANGGRAPH if LANGGRAPH.exists() else "langgraph"), "dev", "--no-browser", "--no-reload",
                 "--config", str(ROOT / "langgraph.json"), "--host", "127.0.0.1"],
                cwd=ROOT, env=env,  # langgraph.json's paths are relative to the repository
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            url = None
            deadline = time.monotonic() + 90
            while url is None and time.monotonic() < deadline and proc.poll() is None:
                time.sleep(0.5)
                text = log.read_text(errors="replace")
                if "Application started up" in text and (m := re.search(r"API: \S*(http://127\.0\.0\.1:\d+)", text)):
                    url = m.group(1)
            assert url is not None, f"langgraph dev did not start:\n{log.read_text(errors='replace')[-3000:]}"
            yield url, traces, fake
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)


def test_a_remote_graph_judges_through_langgraph_dev(langgraph_dev: tuple[str, Path, FakeOpenAI]) -> None:
    from langgraph.pregel.remote import RemoteGraph

    from sejury.schema import Verdict
    from sejury.traces.store import TraceStore

    url, traces, fake = langgraph_dev
    remote = RemoteGraph("sejury", url=url)
    sample = {"id": "remote-1", "task": "code_generation", "problem": "add a and b",
              "candidate": "def add(a, b): return a + b", "reference": "def add(a, b): return a + b"}
    out = remote.invoke({"sample": sample, "team": ["S1", "S3"]})
    verdict = Verdict.model_validate(out["verdict"])
    assert verdict.sample_id == "remote-1" and [t.value for t in verdict.team] == ["direct", "equivalence"]
    assert verdict.score == 85.0  # the fake's direct 80 and equivalence 90
    assert fake.requests == 2
    # the judgment's trace is stored under its id, like any other judgment
    assert verdict.judgment_id is not None
    stored = TraceStore(traces).get(verdict.judgment_id)
    assert stored.sample.id == "remote-1"

    # streamed: a node update per member as it lands, the verdict last
    nodes = [next(iter(chunk)) for chunk in remote.stream({"sample": sample, "team": ["S1", "S2"]},
                                                          stream_mode="updates")]
    assert nodes[0] == "supervisor" and nodes[-1] == "merge" and {"direct", "rethink"} <= set(nodes)


def test_bad_input_is_an_error_naming_the_field(langgraph_dev: tuple[str, Path, FakeOpenAI]) -> None:
    from langgraph.pregel.remote import RemoteException, RemoteGraph

    url, _, fake = langgraph_dev
    with pytest.raises(RemoteException, match=r"sample\.candidate"):
        RemoteGraph("sejury", url=url).invoke({"sample": {"id": "x", "task": "code_generation", "problem": "p"}})
    assert fake.requests == 0
