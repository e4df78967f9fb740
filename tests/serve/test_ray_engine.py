"""``sejury batch --engine ray`` on a local Ray instance, against a fake OpenAI-compatible server:
the same verdicts, run file, resume and model calls as the local engine.

One Ray instance serves the module (starting one takes seconds): the in-process CLI runs reuse this
process's connection; a separate ``sejury`` process attaches to it with ``--address``.  Skipped
without Ray, unless ``SEJURY_REQUIRE_RAY=1``.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sejury.cli import app
from tests.helpers.fake_openai import FakeOpenAI
from tests.helpers.procs import descendants

try:
    import ray
except ImportError:
    if os.environ.get("SEJURY_REQUIRE_RAY") == "1":
        raise
    ray = None
needs_ray = pytest.mark.skipif(
    ray is None, reason="Ray is not installed (pip install 'sejury[ray]'); SEJURY_REQUIRE_RAY=1 makes this an error")

TEAM = "S1,S2,S3,S4"  # four LLM jurors, S2 fed by S1: a graph with a follower, judged remotely


@pytest.fixture(scope="module")
def ray_address() -> Iterator[str]:
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()


def write_samples(path: Path, n: int, *, duplicate_last: bool = False) -> Path:
    """``n`` samples; with ``duplicate_last`` the last one has the first one's content (another id)."""
    content = list(range(n))
    if duplicate_last:
        content[-1] = 0
    lines = [json.dumps({"id": f"s{i}", "task": "code_generation", "language": "python",
                         "problem": f"Write add{c}(a, b).", "candidate": f"def add{c}(a, b):\n    return a - b\n",
                         "reference": f"def add{c}(a, b):\n    return a + b\n", "human_score": i % 5})
             for i, c in zip(range(n), content, strict=True)]
    path.write_text("\n".join(lines) + "\n")
    return path


def records(path: Path) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for raw in path.read_text().splitlines():
        rec = json.loads(raw)
        assert rec["sample_id"] not in out, "a sample judged twice"
        out[rec["sample_id"]] = rec
    return out


def scores(rec: dict[str, Any]) -> tuple[Any, ...]:
    return (rec["status"], rec["score"], rec["metadata"], rec.get("duplicate_of"),
            {name: (r["status"], r["score"]) for name, r in rec["strategies"].items()})


def batch(data: Path, out: Path, server: FakeOpenAI, *extra: str, team: str = TEAM) -> Any:
    result = CliRunner().invoke(app, ["batch", str(data), "-o", str(out), "--no-cache", "--team", team,
                                      "--model", "fake", "--base-url", server.base_url, *extra])
    assert result.exit_code == 0, result.output
    return result


@needs_ray
@pytest.mark.ray
def test_ray_engine_judges_like_the_local_engine_and_resumes(ray_address: str, tmp_path: Path) -> None:
    data = write_samples(tmp_path / "in.jsonl", 6, duplicate_last=True)  # s5 reads as s0: judged once
    with FakeOpenAI() as server:
        batch(data, tmp_path / "local.jsonl", server)
        local_requests = server.requests
        per_judgment = local_requests // 5
        result = batch(data, tmp_path / "ray.jsonl", server, "--engine", "ray", "--actors", "2", "--concurrency", "2")
        assert "ray: 2 actor(s) on 1 node(s)" in result.output
        assert server.requests - local_requests == local_requests  # the same model calls
        local, remote = records(tmp_path / "local.jsonl"), records(tmp_path / "ray.jsonl")
        assert sorted(remote) == [f"s{i}" for i in range(6)]
        assert {k: scores(v) for k, v in remote.items()} == {k: scores(v) for k, v in local.items()}
        assert remote["s5"]["duplicate_of"] == "s0" and remote["s5"]["llm_calls"] == 0
        assert all(r["strategies"]["direct"]["trace"] for r in remote.values())  # traces kept by default

        # killed after three verdicts: the re-run judges only the three missing samples
        kept = (tmp_path / "ray.jsonl").read_text().splitlines(keepends=True)[:3]
        (tmp_path / "ray.jsonl").write_text("".join(kept))
        missing = {f"s{i}" for i in range(6)} - {json.loads(x)["sample_id"] for x in kept}
        before = server.requests
        result = batch(data, tmp_path / "ray.jsonl", server, "--engine", "ray", "--actors", "2")
        assert "6 samples, 3 already in" in result.output
        distinct = len({"s0" if sid == "s5" else sid for sid in missing})
        assert server.requests - before == distinct * per_judgment
        resumed = records(tmp_path / "ray.jsonl")
        assert sorted(resumed) == [f"s{i}" for i in range(6)]
        assert {k: scores(v)[:2] for k, v in resumed.items()} == {k: scores(v)[:2] for k, v in local.items()}


@needs_ray
@pytest.mark.ray
def test_ray_engine_attaches_to_a_running_cluster(ray_address: str, tmp_path: Path) -> None:
    """A separate ``sejury`` process joins the cluster at ``--address``, and leaves it running."""
    data = write_samples(tmp_path / "in.jsonl", 4)
    out = tmp_path / "out.jsonl"
    with FakeOpenAI() as server:
        cmd = [sys.executable, "-m", "sejury.cli", "batch", str(data), "-o", str(out), "--no-cache", "--no-trace",
               "--team", "S1", "--model", "fake", "--base-url", server.base_url,
               "--engine", "ray", "--address", ray_address]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "200"})
        assert proc.returncode == 0, proc.stderr
        assert server.requests == 4
    assert f"ray: 2 actor(s) on 1 node(s) of {ray_address}" in proc.stderr  # one actor per CPU by default
    recs = records(out)
    assert sorted(recs) == ["s0", "s1", "s2", "s3"]
    assert all(r["status"] == "scored" and r["strategies"]["direct"]["trace"] == [] for r in recs.values())
    assert ray.cluster_resources().get("CPU") == 2  # the cluster outlived the run that joined it


@needs_ray
@pytest.mark.ray
@pytest.mark.docker
def test_execute_runs_tests_in_each_actors_sandbox_and_removes_its_containers(ray_address: str,
                                                                              tmp_path: Path) -> None:
    """S5-exec on Ray: each actor's sandbox on its node, the same outcomes, no container left behind."""
    import docker
    from sejury.sandbox.docker.config import LABEL, OWNER_LABEL

    def containers() -> dict[str, str]:
        return {c.id: c.labels.get(OWNER_LABEL, "")
                for c in docker.from_env().containers.list(all=True, ignore_removed=True, filters={"label": LABEL})}

    before = containers()
    data = tmp_path / "in.jsonl"
    data.write_text("".join(json.dumps({
        "id": f"x{i}", "task": "code_generation", "language": "python", "problem": "Write add(a, b).",
        "candidate": f"def add(a, b):\n    return a {'+' if i % 2 else '-'} b + {i // 2}\n",
        "reference": "def add(a, b):\n    return a + b\n"}) + "\n" for i in range(4)))
    with FakeOpenAI() as server:
        batch(data, tmp_path / "local.jsonl", server, "--execute", team="S1,S5-exec")
        batch(data, tmp_path / "ray.jsonl", server, "--execute", "--engine", "ray", "--actors", "2", team="S1,S5-exec")
    local, remote = records(tmp_path / "local.jsonl"), records(tmp_path / "ray.jsonl")
    assert {k: scores(v) for k, v in remote.items()} == {k: scores(v) for k, v in local.items()}
    assert [remote[f"x{i}"]["strategies"]["test_pass"]["score"] for i in range(4)] == [0.0, 100.0, 0.0, 0.0]
    # every container the batches started is gone, whether its owner (an actor's worker, the CLI)
    # is still alive or not: a live actor that kept its pool would leave its containers running
    # (and under pytest-xdist, a test on another worker, a descendant of the controller that is not
    # this worker's, may be running its own sandbox: not ours)
    me = os.getpid()
    others = descendants(os.getppid()) - descendants(me) - {me} if "PYTEST_XDIST_WORKER" in os.environ else set()
    left = {cid: owner for cid, owner in containers().items()
            if cid not in before and owner.rpartition(":")[2] != str(me)
            and int(owner.rpartition(":")[2] or 0) not in others}
    assert not left, f"sandbox containers outlived the Ray actors that started them: {left}"


@needs_ray
@pytest.mark.ray
def test_an_actor_that_cannot_start_stops_the_run_with_its_reason(ray_address: str, tmp_path: Path) -> None:
    data = write_samples(tmp_path / "in.jsonl", 2)
    result = CliRunner().invoke(app, ["batch", str(data), "-o", str(tmp_path / "out.jsonl"), "--no-cache",
                                      "--model", "nosuchprovider:model", "--engine", "ray", "--actors", "1"])
    assert result.exit_code == 2, result.output
    assert "cannot build model 'nosuchprovider:model'" in result.output
    assert (tmp_path / "out.jsonl").read_text() == ""


def test_without_ray_the_engine_says_how_to_get_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` fails, as where it is not installed
    data = write_samples(tmp_path / "in.jsonl", 1)
    result = CliRunner().invoke(app, ["batch", str(data), "-o", str(tmp_path / "out.jsonl"), "--no-cache",
                                      "--model", "fake", "--base-url", "http://127.0.0.1:9/v1", "--engine", "ray"])
    assert result.exit_code == 2, result.output
    assert "--engine ray needs Ray: pip install 'sejury[ray]'" in result.output


def test_a_config_crosses_to_the_actors_as_json() -> None:
    """Actors rebuild the driver's JudgeConfig from its JSON: a team file's team and a scale included."""
    from sejury.config import JudgeConfig
    from sejury.schema import TeamFile

    for team in ("S1,S3", TeamFile(task="code_generation", strategies=["direct", "rethink"])):
        config = JudgeConfig.build(model="fake", base_url="http://127.0.0.1:9/v1", team=team, scale="1-5",
                                   cache=False, trace_path="/tmp/traces.sqlite")
        assert JudgeConfig.build(**json.loads(json.dumps(config.model_dump(mode="json")))) == config
