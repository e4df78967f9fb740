"""End to end on the real embedded model: CLI -> graph -> llama.cpp's OpenAI-compatible server.

Checks the structure of the verdict, not a particular score: the 1.5B model's opinions are weak,
but every call must really happen, be traced, and be read or marked unscored honestly.
Slow (about a minute per sample for the full team on 2 cores); marked ``embedded``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sejury.models.embedded import MODEL_ALIAS
from tests.helpers.paths import EXAMPLES

pytestmark = pytest.mark.embedded


def run_cli(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sejury.cli", *args, "--cache-path", str(cache)],
                          capture_output=True, text=True, timeout=900)


def test_full_team_on_the_embedded_model_then_cached(tmp_path: Path) -> None:
    cache = tmp_path / "cache.sqlite"
    first = run_cli("judge", str(EXAMPLES / "code_generation.json"), "--json", "--scale", "1-5", cache=cache)
    assert first.returncode == 0, first.stderr
    v = json.loads(first.stdout)
    assert MODEL_ALIAS in v["model"]
    assert set(v["strategies"]) == {"direct", "direct_ref", "rethink", "equivalence",
                                    "reference_analysis", "generate_tests"}
    assert v["llm_calls"] >= 8  # 8, plus a repair turn per unreadable reply
    for name, r in v["strategies"].items():
        assert r["status"] in ("scored", "unscored"), (name, r["detail"])
        if r["status"] == "scored":
            assert 0 <= r["score"] <= 100
        else:
            assert r["score"] is None and r["detail"]
        calls = [e for e in r["trace"] if e["kind"] == "llm_call"]
        assert calls, name
        for e in calls:
            assert e["reply"] is not None and e["prompt_tokens"] > 0 and e["seconds"] > 0
    # llama-server reports the prompt tokens it reused: every juror's prompt starts with the same
    # sample blocks, so after the first call part of each prompt comes from its cache
    reused = [e["cached_prompt_tokens"] for r in v["strategies"].values() for e in r["trace"]
              if e["kind"] == "llm_call"]
    assert v["cached_prompt_tokens"] == sum(reused) and 0 < v["cached_prompt_tokens"] < v["prompt_tokens"]
    tests = v["strategies"]["generate_tests"]["artifacts"]
    assert tests["n_tests"] >= 1 and tests["tests"]
    scored = [r["score"] for r in v["strategies"].values() if r["status"] == "scored"]
    if scored:
        assert v["status"] == "scored"
        assert v["score"] == pytest.approx(sum(scored) / len(scored), abs=0.01)
        assert v["scaled_score"] == pytest.approx(v["score"] / 100 * 4 + 1, abs=0.01)
    else:
        assert v["status"] == "unscored" and v["score"] is None

    # the same sample again: every strategy comes from the cache, no LLM call
    again = run_cli("judge", str(EXAMPLES / "code_generation.json"), "--json", cache=cache)
    assert again.returncode == 0, again.stderr
    w = json.loads(again.stdout)
    assert w["llm_calls"] == 0 and w["score"] == v["score"]
    assert all(r["cached"] for r in w["strategies"].values())


def test_readable_verdict_for_a_summary(tmp_path: Path) -> None:
    res = run_cli("judge", str(EXAMPLES / "code_summarization.json"), "--team", "S1,S3", cache=tmp_path / "c.sqlite")
    assert res.returncode == 0, res.stderr
    assert "S1 direct" in res.stdout and "S3 equivalence" in res.stdout
    assert ("merged score:" in res.stdout) or ("unscored" in res.stdout)
    assert "LLM calls" in res.stdout


@pytest.mark.docker
def test_execute_in_five_languages_on_the_embedded_model(tmp_path: Path) -> None:
    """`sejury judge --execute`: the embedded model writes tests, they run in Docker on the reference
    and then on the candidate, and the verdict says how many were generated, discarded, passed."""
    files = sorted(str(p) for p in (EXAMPLES / "execute").glob("*.json"))
    assert len(files) == 5
    res = run_cli("judge", *files, "--team", "S5", "--execute", "--json", cache=tmp_path / "c.sqlite")
    assert res.returncode == 0, res.stderr
    verdicts = {json.loads(x)["sample_id"].split("-")[1]: json.loads(x) for x in res.stdout.splitlines()}
    assert set(verdicts) == {"python", "javascript", "java", "cpp", "go"}
    ran = set()
    for lang, v in verdicts.items():
        r = v["strategies"]["generate_tests"]
        ex = r["artifacts"]["execution"]
        assert ex["status"] in ("ran", "skipped"), (lang, ex)
        if ex["status"] == "skipped":
            assert ex["reason"], lang
            continue
        ran.add(lang)
        assert ex["generated"] == ex["invalid_on_reference"] + ex["valid"] and ex["valid"] >= 1, (lang, ex)
        assert ex["candidate"]["total"] == ex["valid"] and isinstance(ex["executable"], bool)
        assert 0 <= ex["pass_ratio"] <= 1 and "no network" in ex["sandbox"]
        assert [e["step"] for e in r["trace"] if e["kind"] == "sandbox_run"] == [
            "validate_on_reference", "run_candidate"]
    # temperature 0 makes the model's tests repeatable: measured here, all five languages ran; where a
    # language's run is skipped, it must be for the model's tests (all wrong on the reference), never the harness
    for lang in set(verdicts) - ran:
        reason = verdicts[lang]["strategies"]["generate_tests"]["artifacts"]["execution"]["reason"]
        assert "failed on the reference" in reason, (lang, reason)
    assert len(ran) >= 4, ran


SERVER_USER = (
    "import sys, time\n"
    "from sejury.models.embedded import EmbeddedServer, ServerConfig, ensure_model\n"
    "s = EmbeddedServer.shared(ServerConfig(model_path=ensure_model()))  # SEJURY_EMBEDDED_RUNTIME's runtime\n"
    "print(s.pid, s.port, s.joined, flush=True)\n"
    "sys.stdin.readline()\n")  # holds the server until told to go (a line on stdin) or killed


def _user(run_dir: Path, runtime: str = "auto") -> tuple[subprocess.Popen[str], int, int, bool]:
    import os

    proc = subprocess.Popen([sys.executable, "-c", SERVER_USER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, env={**os.environ, "SEJURY_RUN_DIR": str(run_dir),
                                            "SEJURY_EMBEDDED_RUNTIME": runtime})
    assert proc.stdout is not None
    pid, port, joined = proc.stdout.readline().split()
    return proc, int(pid), int(port), joined == "True"


def _gone(pid: int, within: float = 15.0) -> bool:
    import time

    from sejury.models.embedded import pid_alive

    deadline = time.monotonic() + within
    while pid_alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


def _children(pid: int) -> list[int]:
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _runtimes() -> list[Any]:
    """Both embedded runtimes; the native one (llama.cpp's llama-server, which setup.sh builds) is
    required where SEJURY_REQUIRE_NATIVE_SERVER=1 (CI), skipped with the reason elsewhere."""
    import importlib.util
    import os

    from sejury.models.embedded import native_server_binary

    native: Any = "native"
    if native_server_binary() is None:
        if os.environ.get("SEJURY_REQUIRE_NATIVE_SERVER") == "1":
            raise AssertionError("SEJURY_REQUIRE_NATIVE_SERVER=1 but llama-server is not installed (setup.sh)")
        native = pytest.param("native", marks=pytest.mark.skip(reason="no llama-server: run scripts/setup.sh"))
    python: Any = "python"  # llama-cpp-python, built only when asked for (SEJURY_PYTHON_RUNTIME=1 scripts/setup.sh)
    if importlib.util.find_spec("llama_cpp") is None:
        if os.environ.get("SEJURY_REQUIRE_PYTHON_RUNTIME") == "1":
            raise AssertionError("SEJURY_REQUIRE_PYTHON_RUNTIME=1 but llama-cpp-python is not installed")
        python = pytest.param("python", marks=pytest.mark.skip(
            reason="no llama-cpp-python: run SEJURY_PYTHON_RUNTIME=1 scripts/setup.sh"))
    return [native, python]


@pytest.mark.parametrize("runtime", _runtimes())
def test_the_model_server_dies_with_a_killed_parent(tmp_path: Path, runtime: str) -> None:
    """A run killed with SIGKILL (no atexit) must not leave its model server behind, nor, for the
    native runtime, the llama-server process the watcher runs."""
    import os
    import signal

    parent, server_pid, _, joined = _user(tmp_path, runtime)  # its own registry: it starts the server
    assert not joined
    os.kill(server_pid, 0)  # the server is up
    native = _children(server_pid)
    if runtime == "native":
        assert len(native) == 1 and "llama-server" in Path(f"/proc/{native[0]}/cmdline").read_text()
    else:
        assert native == []  # llama-cpp-python's server runs in the watcher's own process
    parent.send_signal(signal.SIGKILL)
    parent.wait(timeout=10)
    for pid in (server_pid, *native):
        if not _gone(pid):
            os.kill(pid, signal.SIGKILL)
            pytest.fail(f"the model server ({pid}) outlived its SIGKILLed parent")


@pytest.mark.parametrize("runtime", _runtimes()[:1])  # llama-cpp-python's server is the watcher's own process
def test_the_native_server_dies_with_its_watcher(tmp_path: Path, runtime: str) -> None:
    """The watcher SIGKILLed itself (no chance to clean up): the kernel takes llama-server along."""
    import os
    import signal

    parent, server_pid, _, _ = _user(tmp_path, runtime)
    try:
        (native,) = _children(server_pid)
        os.kill(server_pid, signal.SIGKILL)
        if not _gone(native):
            os.kill(native, signal.SIGKILL)
            pytest.fail("llama-server outlived its SIGKILLed watcher")
    finally:
        parent.kill()
        parent.wait(timeout=10)


@pytest.mark.parametrize("runtime", _runtimes())
def test_concurrent_runs_share_one_model_server(tmp_path: Path, runtime: str) -> None:
    """Two sejury processes on one machine use one llama.cpp server (two would fight for the
    cores); it outlives the one that started it while the other still uses it, and the last user
    out stops it."""
    import os
    import signal

    import httpx

    first, pid, port, joined = _user(tmp_path, runtime)
    second, pid2, port2, joined2 = _user(tmp_path, runtime)
    native = _children(pid)
    try:
        assert not joined and joined2 and (pid2, port2) == (pid, port)
        first.send_signal(signal.SIGKILL)  # the starter dies the hard way
        first.wait(timeout=10)
        import time

        time.sleep(2)  # the server's watcher looks every 0.5 s
        assert httpx.get(f"http://127.0.0.1:{port}/v1/models", timeout=5).status_code == 200
        assert second.stdin is not None
        second.stdin.write("\n")  # the last user leaves normally: it stops the server at once
        second.stdin.flush()
        second.wait(timeout=30)
        assert _gone(pid, within=3.0), "the last user's exit did not stop the server"
        assert all(_gone(c, within=3.0) for c in native), "llama-server outlived its watcher"
        assert not (Path(tmp_path) / next(iter(os.listdir(tmp_path))) / "server.json").exists()
    finally:
        for p in (first, second):
            if p.poll() is None:
                p.kill()


RAMBLE = "Count from 1 to 2000, one number per line, and write nothing else."


@pytest.mark.parametrize("runtime", _runtimes())
@pytest.mark.parametrize("path", ["embedded", "base_url"])
def test_the_reply_cap_holds_on_the_real_server(path: str, runtime: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """llama-cpp-python's server ignores ``max_completion_tokens`` (what langchain-openai sends) and
    would count to 2000; the cap must stop it at the limit, on every OpenAI-compatible path and both
    embedded runtimes, and the cut-off reply must say so (``finish_reason == "length"``, a parse
    failure for a score)."""
    monkeypatch.setenv("SEJURY_EMBEDDED_RUNTIME", runtime)
    from langchain_core.messages import HumanMessage

    from sejury.api import run_sync  # the sync API's one loop: langchain-openai's pooled client is per loop
    from sejury.models import ModelSettings, make_client
    from sejury.models.embedded import EmbeddedServer, ServerConfig, ensure_model

    cap = 24
    if path == "embedded":
        client = make_client(ModelSettings(max_tokens=cap))
    else:
        server = EmbeddedServer.shared(ServerConfig(model_path=ensure_model()))
        client = make_client(ModelSettings(model=MODEL_ALIAS, base_url=server.base_url, max_tokens=cap))
    reply = run_sync(client.complete([HumanMessage(RAMBLE)]))
    assert reply.finish_reason == "length", reply
    assert 0 < reply.completion_tokens <= cap, reply


def test_repeats_sample_with_their_own_seeds_on_the_real_server() -> None:
    """``--repeats``: repeat r asks llama.cpp's server for seed + r at the run's temperature; the
    server takes both, so three repeats of one prompt at temperature 1 do not all reply alike."""
    from langchain_core.messages import HumanMessage

    from sejury.api import run_sync
    from sejury.llm import ChatClient, Reply, repeat_scope
    from sejury.models import ModelSettings, make_client

    client = make_client(ModelSettings(max_tokens=24, temperature=1.0))

    async def ask(c: ChatClient, repeat: int) -> Reply:
        with repeat_scope(repeat):
            return await c.complete([HumanMessage("Invent a name for a cat and one sentence about it.")])

    replies = [run_sync(ask(client, r)) for r in range(3)]
    assert all(r.completion_tokens > 0 for r in replies), replies
    assert len({r.text for r in replies}) >= 2, replies
    assert [getattr(client.seeded_model(r), "seed", None) for r in range(3)] == [0, 1, 2]


COUNT_PROBLEM = 'def count_above(xs: list, t: int) -> int:\n    """How many of xs are above t."""\n'
COUNT_REF = "    n = 0\n    for x in xs:\n        if x > t:\n            n += 1\n    return n\n"


@pytest.mark.docker
async def test_a_second_round_asks_the_real_model_for_tests_against_a_survivor(sandbox: Any) -> None:
    """S5's second round on the real server: a suite of one weak test (an empty list) kills 2 of
    6 mutants; the model is shown a survivor's change and its reply is read, validated on the
    reference in the sandbox and counted, or the round says why nothing was added."""
    from sejury import Sample
    from sejury.context import JudgeContext
    from sejury.execution.evidence import check_on_reference, run_on_candidate
    from sejury.execution.mutation import mutation_check
    from sejury.execution.runner import assemble_program
    from sejury.models import ModelSettings, make_client
    from sejury.roster import Strategy
    from sejury.strategies._calls import Recorder
    from sejury.strategies._sharpen import Programs, sharpen

    wrong = COUNT_REF.replace("x > t", "x >= t")
    sample = Sample(id="s", task="code_generation", language="python", problem=COUNT_PROBLEM, candidate=wrong,
                    reference=COUNT_REF)
    ref, cand = (assemble_program("python", COUNT_PROBLEM, c) for c in (COUNT_REF, wrong))
    ex, valid, _ = await check_on_reference(sandbox, "python", ref, "assert count_above([], 0) == 0")
    ex = await run_on_candidate(sandbox, ex, valid, cand)
    mutation, survivors = await mutation_check(sandbox, "python", ref, COUNT_REF, valid, 6)
    assert mutation is not None and (mutation.killed, mutation.run) == (2, 6)
    ctx = JudgeContext(llm=make_client(ModelSettings()), sandbox=sandbox, execute=True, mutation_check=6)
    rec = Recorder(Strategy.GENERATE_TESTS)
    done = await sharpen(sample, ctx, rec, ex.model_copy(update={"mutation": mutation}), valid,
                         Programs(ref, cand), survivors)
    assert done.mutation is not None
    (round_,) = done.mutation.rounds
    (ask,) = [e for e in rec.events if e.step == "sharpen_tests"]
    assert rec.calls == 1 and ask.reply and "[BEGIN CHANGED LINES]" in ask.messages[1]["content"]  # type: ignore[index]
    assert round_.score_before == pytest.approx(2 / 6) and round_.shown == survivors[0].label
    if round_.valid:  # the new tests joined the suite and ran on the candidate and the survivors
        assert done.valid == 1 + round_.valid == done.candidate.total  # type: ignore[union-attr]
        assert done.mutation.killed == 2 + round_.killed and done.pass_ratio is not None
    else:
        assert round_.reason, round_
    print(round_, done.pass_ratio)


def test_a_multi_model_jury_of_the_embedded_model_and_a_second_endpoint(tmp_path: Path) -> None:
    """``--team S1,S1@second --jury-model second=fake@URL``: S1 asks the embedded model through
    its real server, S1@second a second OpenAI-compatible server (a fake one on 127.0.0.1, which
    answers 80); the verdict keeps them apart and merges both."""
    from tests.helpers.fake_openai import FakeOpenAI

    with FakeOpenAI() as second:
        res = run_cli("judge", str(EXAMPLES / "code_generation.json"), "--json", "--team", "S1,S1@second",
                      "--jury-model", f"second=fake@{second.base_url}", "--no-traces", cache=tmp_path / "c.sqlite")
        assert res.returncode == 0, res.stderr
        assert second.requests == 1
    v = json.loads(res.stdout)
    mine, theirs = v["strategies"]["direct"], v["strategies"]["direct@second"]
    assert theirs["score"] == 80 and theirs["llm_calls"] == 1
    assert mine["llm_calls"] >= 1 and mine["status"] in ("scored", "unscored")
    assert MODEL_ALIAS in v["model"] and "fake@" in v["jury_models"]["second"]
    if mine["status"] == "scored":
        assert v["score"] == pytest.approx((mine["score"] + 80) / 2, abs=0.01)
    else:  # an unreadable reply is unscored, never 0: the team is the other member
        assert v["score"] == 80


@pytest.mark.docker
def test_a_team_that_makes_no_model_call_never_starts_the_model_server(tmp_path: Path) -> None:
    """`sejury judge --team Ex-fuzz --execute` on the embedded model (the default): the verdict
    comes from the problem's example and the sandbox alone, and no llama.cpp server is started
    (none registered in the run directory) — an agent loop pays nothing for the model."""
    import os

    problem = COUNT_PROBLEM.replace('above t."""', 'above t.\n    >>> count_above([1, 5, 7], 4)\n    2\n    """')
    run_dir = tmp_path / "run"
    out = subprocess.run(
        [sys.executable, "-m", "sejury.cli", "judge", "--team", "Ex-fuzz", "--execute", "--json", "--no-cache",
         "--task", "code_generation", "--problem", problem,
         "--candidate", COUNT_REF.replace("x > t", "x >= t"), "--reference", COUNT_REF],
        capture_output=True, text=True, timeout=300, env={**os.environ, "SEJURY_RUN_DIR": str(run_dir)})
    assert out.returncode == 0, out.stderr
    verdict = json.loads(out.stdout.splitlines()[-1])
    ex = verdict["strategies"]["example_fuzz"]
    assert ex["status"] == "scored" and ex["score"] < 100 and ex["llm_calls"] == 0
    assert not run_dir.exists() or not any(run_dir.iterdir()), "a model server was started"
