"""No wasted calls: identical samples judged once, calibration once per member and sample, and
``--dry-run`` counting what a run will call before anything is called (issue 15, item 4)."""

from __future__ import annotations

import collections
import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from typer.testing import CliRunner

from sejury import Judge, Sample, Strategy, TeamFile
from sejury.cli import app
from sejury.estimate import CHARS_PER_TOKEN, RunEstimate
from tests.helpers.fake_openai import FakeOpenAI
from tests.helpers.fakes import ScriptedChatModel, good_script, step_of
from tests.helpers.paths import EXAMPLES

MakeJudge = Callable[..., tuple[Judge, ScriptedChatModel]]
FULL_TEAM_CALLS = 8  # code generation with a reference: S1, S1-ref, S2, S3 one call each; S4, S5 two


def record(i: int, content: int | None = None, **override: object) -> dict[str, Any]:
    """Sample ``s{i}``; ``content`` gives it the problem, candidate and reference of sample ``content``."""
    k = i if content is None else content
    rec: dict[str, Any] = {"id": f"s{i}", "task": "code_generation", "language": "python",
                           "problem": f"Write add{k}(a, b).", "candidate": f"def add{k}(a, b):\n    return a + b\n",
                           "reference": f"def add{k}(a, b):\n    return a + b\n", "human_score": i % 5}
    rec.update(override)
    return rec


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def run_cli(*args: str) -> Any:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    return result


def verdicts(path: Path) -> dict[str, dict[str, Any]]:
    return {v["sample_id"]: v for v in map(json.loads, path.read_text().splitlines())}


# --- identical samples are judged once ---------------------------------------------------------

def test_identical_samples_in_a_batch_are_judged_once_even_in_flight(tmp_path: Path) -> None:
    """s2 and s3 have s0's content (not its id or labels); with the cache off and all four in
    flight at once, the copies wait for s0 instead of calling the model."""
    data = write_jsonl(tmp_path / "in.jsonl", [record(0), record(1), record(2, content=0), record(3, content=0)])
    out = tmp_path / "out.jsonl"
    with FakeOpenAI(latency=0.05) as server:
        res = run_cli("batch", str(data), "-o", str(out), "--no-cache", "--no-traces", "--concurrency", "4",
                      "--team", "S1,S3", "--model", "fake", "--base-url", server.base_url)
        assert res.exit_code == 0, res.output
        assert server.requests == 2 * 2  # two distinct contents, S1 and S3 each
    got = verdicts(out)
    assert sorted(got) == ["s0", "s1", "s2", "s3"]
    first = got["s0"]
    assert first["duplicate_of"] is None and first["llm_calls"] == 2 and first["prompt_tokens"] == 20
    for sid in ("s2", "s3"):
        copy = got[sid]
        assert copy["duplicate_of"] == "s0"
        assert copy["metadata"] == {"human_score": int(sid[1])}  # its own labels
        assert (copy["llm_calls"], copy["prompt_tokens"], copy["completion_tokens"]) == (0, 0, 0)
        assert copy["score"] == first["score"] and copy["judgment_id"] == first["judgment_id"]
        for name, r in copy["strategies"].items():  # the jurors, reused like a cache hit: each keeps its cost
            assert r["cached"] and r["score"] == first["strategies"][name]["score"]
            assert r["llm_calls"] == first["strategies"][name]["llm_calls"] == 1


def test_judge_many_judges_a_content_once_and_keeps_every_verdict(make_judge: MakeJudge, codegen: Sample) -> None:
    judge, model = make_judge(team=["direct"], delay=0.02)
    same = [codegen.model_copy(update={"id": f"dup{i}", "metadata": {"n": i}}) for i in range(3)]
    other = codegen.model_copy(update={"id": "other", "candidate": "def add(a, b):\n    return b + a\n"})
    bad = {"id": "bad", "task": "translation"}
    results = judge.judge_many([codegen, *same, other, bad], concurrency=6)
    assert model.calls == 2  # codegen's content once (four samples), other's once
    ids = [getattr(r, "sample_id", None) for r in results]
    assert ids == ["cg-1", "dup0", "dup1", "dup2", "other", None]
    assert isinstance(results[-1], Exception)  # a bad sample is still yielded as its error
    for i, r in enumerate(results[1:4]):
        assert not isinstance(r, BaseException)
        assert r.duplicate_of == "cg-1" and r.metadata == {"n": i} and r.llm_calls == 0


def test_a_copy_of_a_failed_judgment_gets_its_error(make_judge: MakeJudge, codegen: Sample) -> None:
    judge, model = make_judge(team=TeamFile.model_validate({"task": "program_repair", "strategies": ["direct"]}))
    results = judge.judge_many([codegen, codegen.model_copy(update={"id": "again"})])
    assert all(isinstance(r, Exception) and "calibrated for program_repair" in str(r) for r in results)
    assert model.calls == 0


def test_the_judge_command_judges_identical_samples_once(tmp_path: Path) -> None:
    sample = json.loads((EXAMPLES / "code_generation.json").read_text())
    path = tmp_path / "two.json"
    path.write_text(json.dumps([sample, {**sample, "id": "again"}]))
    with FakeOpenAI() as server:
        res = run_cli("judge", str(path), "--json", "--no-cache", "--team", "S1", "--model", "fake",
                      "--base-url", server.base_url)
        assert res.exit_code == 0, res.output
        assert server.requests == 1
    first, again = (json.loads(x) for x in res.stdout.splitlines())
    assert again["sample_id"] == "again" and again["duplicate_of"] == first["sample_id"] and again["llm_calls"] == 0


# --- calibration: each member once per labelled sample ------------------------------------------

def test_calibration_calls_each_member_once_per_sample_with_the_cache_off(tmp_path: Path) -> None:
    """Every juror on the labelled draw, then the chosen team on the rest: a feeder (S1-ref for S2)
    runs once; a labelled sample repeated in the labelled set and in the held-out set is not
    judged again; a resumed calibration calls nothing."""
    from sejury import calibrate as cal
    from sejury.calibrate import labelled_indices
    from sejury.config import JudgeConfig

    n, labelled_n = 12, 8
    idx = labelled_indices(n, labelled_n, 3)
    others = [i for i in range(n) if i not in idx]
    content = list(range(n))
    content[idx[1]] = idx[0]  # two labelled samples with one content
    content[others[0]] = idx[2]  # a held-out sample with a labelled one's content
    data = write_jsonl(tmp_path / "data.jsonl", [record(i, content[i]) for i in range(n)])

    calls: collections.Counter[tuple[str, str]] = collections.Counter()

    def script(messages: list[BaseMessage]) -> str:
        content_id = re.search(r"add(\d+)\(", str(messages[1].content))
        assert content_id is not None
        calls[(content_id.group(1), step_of(messages))] += 1
        return good_script(messages)

    model = ScriptedChatModel(script=script)
    config = JudgeConfig(cache=False, traces=False)
    result = cal.run(data, config=config, model=model, n=labelled_n, seed=3, rest=n - labelled_n,
                     workdir=tmp_path / "work")
    assert max(calls.values()) == 1, [k for k, c in calls.items() if c > 1]
    labelled_contents = {str(content[i]) for i in idx}
    for c in labelled_contents:  # every LLM juror, once
        assert sum(n for (k, _), n in calls.items() if k == c) == FULL_TEAM_CALLS
    assert model.calls == sum(calls.values())
    assert len(result.labelled_ids) == labelled_n and result.evaluation is not None
    assert result.evaluation.n == n - labelled_n
    rest = verdicts(tmp_path / "work" / "rest.jsonl")
    assert rest[f"s{others[0]}"]["llm_calls"] == 0  # the held-out copy of a labelled sample: reused
    before = model.calls
    cal.run(data, config=config, model=model, n=labelled_n, seed=3, rest=n - labelled_n, workdir=tmp_path / "work")
    assert model.calls == before


# --- --dry-run ---------------------------------------------------------------------------------

def totals(output: str) -> int:
    m = re.search(r"dry run: ([\d,]+) LLM calls?", output)
    assert m is not None, output
    return int(m.group(1).replace(",", ""))


def test_dry_run_calls_nothing_and_takes_off_done_and_duplicate_samples(tmp_path: Path) -> None:
    data = write_jsonl(tmp_path / "in.jsonl", [record(0), record(1), record(2, content=0), record(3)])
    out = tmp_path / "out.jsonl"
    out.write_text('{"sample_id": "s1"}\n')  # a resumed run: s1 is done
    fresh = tmp_path / "fresh.jsonl"
    with FakeOpenAI() as server:
        opts = ["--dry-run", "--no-cache", "--model", "fake", "--base-url", server.base_url]
        res = run_cli("batch", str(data), "-o", str(out), *opts)
        assert res.exit_code == 0, res.output
        assert run_cli("batch", str(data), "-o", str(fresh), *opts).exit_code == 0
        assert server.requests == 0
    assert out.read_text() == '{"sample_id": "s1"}\n' and not fresh.exists()  # no run file touched or made
    assert totals(res.output) == 2 * FULL_TEAM_CALLS  # s0 and s3
    rows = {ln.split()[1]: ln for ln in res.output.splitlines() if re.match(r"│ s\d ", ln)}
    assert "already in" in rows["s1"] and "same content as s0" in rows["s2"]
    assert re.search(rf"│\s+{FULL_TEAM_CALLS} │", rows["s0"]) and "S4 x2*" in rows["s0"]
    assert "1 sample already in" in res.output and "1 duplicate sample" in res.output
    assert "estimate" in res.output and f"~{CHARS_PER_TOKEN} characters a token" in res.output
    assert "counts it as up to 384 tokens" in res.output  # S2, S4 and S5 step 2 read an earlier reply


def test_dry_run_is_exact_before_a_batch_and_on_its_cached_rerun(tmp_path: Path) -> None:
    data = write_jsonl(tmp_path / "in.jsonl", [record(i) for i in range(3)] + [record(3, content=1)])
    cache = ["--cache-path", str(tmp_path / "results.sqlite"), "--no-traces"]
    with FakeOpenAI() as server:
        model = ["--model", "fake", "--base-url", server.base_url, *cache]
        dry = run_cli("batch", str(data), "-o", str(tmp_path / "a.jsonl"), "--dry-run", *model)
        assert dry.exit_code == 0 and server.requests == 0, dry.output
        first = run_cli("batch", str(data), "-o", str(tmp_path / "a.jsonl"), *model)
        assert first.exit_code == 0, first.output
        assert server.requests == totals(dry.output) == 3 * FULL_TEAM_CALLS  # exact (no repair turn here)

        again = run_cli("batch", str(data), "-o", str(tmp_path / "b.jsonl"), "--dry-run", *model)
        assert again.exit_code == 0, again.output
        assert "dry run: 0 LLM calls" in again.output and f"{3 * FULL_TEAM_CALLS} calls cached" in again.output
        rerun = run_cli("batch", str(data), "-o", str(tmp_path / "b.jsonl"), *model)
        assert rerun.exit_code == 0, rerun.output
        assert server.requests == 3 * FULL_TEAM_CALLS  # the real re-run made 0 requests
    assert all(v["llm_calls"] == 0 for v in verdicts(tmp_path / "b.jsonl").values())


def test_dry_run_tokens_are_the_real_prompts_at_four_characters_a_token(tmp_path: Path) -> None:
    """The estimate renders the prompts the strategies send: chars/4 of what the server receives."""
    example = str(EXAMPLES / "code_generation.json")
    with FakeOpenAI() as server:
        opts = ["--team", "S1,S1-ref,S3,vanilla", "--no-cache", "--model", "fake", "--base-url", server.base_url]
        dry = run_cli("judge", example, "--dry-run", "--json", *opts)
        assert dry.exit_code == 0 and server.requests == 0, dry.output
        est = RunEstimate.model_validate_json(dry.stdout)
        real = run_cli("judge", example, "--json", *opts)
        assert real.exit_code == 0, real.output
    sent = [math.ceil(sum(len(m["content"]) for m in body["messages"]) / CHARS_PER_TOKEN) for body in server.bodies]
    assert est.llm_calls == server.requests == 4
    assert est.prompt_tokens == sum(sent) and est.completion_tokens == 4 * 384
    assert not any(c.from_reply for m in est.samples[0].members for c in m.calls)


def test_judge_estimate_marks_feeders_and_replies_it_cannot_know(make_judge: MakeJudge, codegen: Sample) -> None:
    judge, model = make_judge(team=["S2", "S5"], max_tokens=100)
    est = judge.estimate([codegen])
    assert model.calls == 0
    members = {m.strategy: m for m in est.samples[0].members}
    assert not members[Strategy("direct_ref")].in_team and members[Strategy.RETHINK].fed_by is Strategy("direct_ref")
    assert [c.from_reply for c in members[Strategy.RETHINK].calls] == [True]
    assert [(c.step, c.from_reply) for c in members[Strategy.GENERATE_TESTS].calls] == [("write", False),
                                                                                         ("predict", True)]
    assert est.llm_calls == 4 and est.completion_tokens == 400
    predict = members[Strategy.GENERATE_TESTS].calls[1]
    assert predict.prompt_tokens > 100  # the earlier reply (the tests) counted at its upper bound


def test_dry_run_with_the_default_model_builds_and_starts_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    from sejury.models import embedded

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a dry run must not assemble or start the embedded model")

    monkeypatch.setattr(embedded.EmbeddedServer, "start", refuse)
    monkeypatch.setattr(embedded, "ensure_model", refuse)
    res = run_cli("judge", str(EXAMPLES / "code_generation.json"), "--dry-run", "--no-cache")
    assert res.exit_code == 0, res.output
    assert totals(res.output) == FULL_TEAM_CALLS and f"gguf:{embedded.MODEL_ALIAS}" in res.output


def test_dry_run_counts_a_shared_step_once_for_the_candidates_of_one_problem(tmp_path: Path) -> None:
    """Four candidates of one problem with S1 and S5: S5's tests never see the candidate, so the
    batch asks for them once; the dry run predicts exactly the requests the batch then makes."""
    data = write_jsonl(tmp_path / "in.jsonl", [record(i, candidate=f"def add0(a, b):\n    return a + b + {i}\n",
                                                      problem="Write add0(a, b).",
                                                      reference="def add0(a, b):\n    return a + b\n")
                                               for i in range(4)])
    out, cache = tmp_path / "out.jsonl", tmp_path / "cache.sqlite"
    common = ["--team", "S1,S5", "--model", "fake", "--no-traces", "--cache-path", str(cache), "--concurrency", "4"]
    with FakeOpenAI(latency=0.05) as server:
        dry = run_cli("batch", str(data), "-o", str(out), "--dry-run", *common, "--base-url", server.base_url)
        assert "dry run: 9 LLM calls for 4 samples" in dry.output, dry.output  # 4 x (S1 + S5's prediction) + 1
        res = run_cli("batch", str(data), "-o", str(out), *common, "--base-url", server.base_url)
        assert res.exit_code == 0, res.output
        assert server.requests == 9
        shared = [v for v in verdicts(out).values() if v["llm_calls"] == 2]
        assert len(shared) == 3  # three of them reused the first one's tests


def test_dry_run_names_the_second_rounds_it_cannot_count(tmp_path: Path) -> None:
    """With ``--execute --mutation-check``, a weak suite asks for up to ``--mutation-rounds`` more
    calls, which no plan can know beforehand: the dry run says how many at most, and not otherwise."""
    data = write_jsonl(tmp_path / "in.jsonl", [record(0), record(1)])
    with FakeOpenAI() as server:
        opts = ["--dry-run", "--no-cache", "--model", "fake", "--base-url", server.base_url, "--team", "S1,S5-exec",
                "--execute"]
        res = run_cli("batch", str(data), "-o", str(tmp_path / "o.jsonl"), *opts, "--mutation-check", "6",
                      "--mutation-rounds", "2")
        assert res.exit_code == 0, res.output
        assert "up to 4 second-round calls" in res.output and totals(res.output) == 2 * 3
        plain = run_cli("batch", str(data), "-o", str(tmp_path / "o.jsonl"), *opts)
        assert plain.exit_code == 0 and "second-round" not in plain.output, plain.output
        assert server.requests == 0
