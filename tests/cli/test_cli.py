"""The CLI over real HTTP against a fake OpenAI-compatible server: input errors, batch, resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sejury.cli import app
from sejury.io import RunFile, read_jsonl
from tests.helpers.fake_openai import FakeOpenAI
from tests.helpers.paths import EXAMPLES


def line(i: int, **override: object) -> str:
    rec = {"id": f"s{i}", "task": "code_generation", "language": "python",
           "problem": f"Write add{i}(a, b).", "candidate": f"def add{i}(a, b):\n    return a + b\n",
           "reference": f"def add{i}(a, b):\n    return a + b\n", "human_score": i % 5}
    rec.update(override)
    return json.dumps(rec)


def write_jsonl(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n")
    return path


def test_bad_jsonl_names_file_line_and_field(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "in.jsonl", [
        line(1),
        "{not json",
        line(3, task="translation"),
        json.dumps({"id": "s4", "task": "code_generation", "problem": "p"}),
        line(1),
        line(6, candidate=None),
    ])
    samples, errors = read_jsonl(path)
    assert [s.id for s in samples] == ["s1"]
    got = [str(e) for e in errors]
    assert got[0].startswith(f"{path}:2: not valid JSON")
    assert got[1] == (f"{path}:3: field 'task': unknown task 'translation'; use code_generation, "
                      "program_repair or code_summarization")
    assert got[2] == f"{path}:4: field 'candidate': is required but missing"
    assert got[3] == f"{path}:5: field 'id': duplicate id 's1' (first on line 1)"
    assert got[4].startswith(f"{path}:6: field 'candidate': ")


def test_extra_dataset_fields_are_kept_as_metadata(tmp_path: Path) -> None:
    samples, _ = read_jsonl(write_jsonl(tmp_path / "in.jsonl", [line(1)]))
    assert samples[0].metadata == {"human_score": 1}


def test_batch_refuses_bad_input_and_writes_nothing(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "in.jsonl", [line(1), line(2, task="nope")])
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(app, ["batch", str(path), "-o", str(out), "--no-cache"])
    assert result.exit_code == 2
    assert f"{path}:2: field 'task'" in result.output
    assert not out.exists()


def test_judge_unknown_strategy_is_a_clear_error() -> None:
    result = CliRunner().invoke(app, ["judge", str(EXAMPLES / "code_generation.json"), "--team", "S1,S7"])
    assert result.exit_code == 2
    assert "unknown strategy 'S7'" in result.output


def test_judge_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["judge", str(tmp_path / "nope.json")])
    assert result.exit_code == 2 and "nope.json: cannot read" in result.output


def test_judge_examples_over_an_openai_compatible_server(tmp_path: Path) -> None:
    with FakeOpenAI() as server:
        result = CliRunner().invoke(app, [
            "judge", *(str(p) for p in sorted(EXAMPLES.glob("*.json"))), "--json", "--no-cache",
            "--model", "fake", "--base-url", server.base_url, "--scale", "1-5"])
    assert result.exit_code == 0, result.output
    verdicts = [json.loads(x) for x in result.stdout.splitlines()]
    assert {v["task"] for v in verdicts} == {"code_generation", "program_repair", "code_summarization"}
    for v in verdicts:
        assert v["status"] == "scored" and 1 <= v["scaled_score"] <= 5
        assert v["model"].startswith("openai-compatible:fake@")
        # the server says 4 of each call's 10 prompt tokens came from its cache: counted per call,
        # per juror and per verdict
        calls = [e for r in v["strategies"].values() for e in r["trace"] if e["kind"] == "llm_call"]
        assert calls and all(e["cached_prompt_tokens"] == 4 for e in calls)
        assert v["cached_prompt_tokens"] == 4 * v["llm_calls"] == 4 * len(calls)


def test_the_table_and_json_say_pass_or_fail_and_needs_review(tmp_path: Path) -> None:
    """Every verdict, table and JSON, says whether it passes at the pass mark, what it rests on and
    whether to review it; --pass-mark and --merge reach the merge."""
    with FakeOpenAI() as server:
        base = ["judge", str(EXAMPLES / "code_generation.json"), "--team", "S1,S3", "--model", "fake",
                "--base-url", server.base_url, "--no-cache"]
        table = CliRunner().invoke(app, base)
        low = CliRunner().invoke(app, [*base, "--json", "--pass-mark", "1"])
        mean = CliRunner().invoke(app, [*base, "--json", "--merge", "mean", "--pass-mark", "100"])
    assert table.exit_code == 0, table.output
    assert "at pass mark 50 (evidence-first merge; rests on the model's opinion only)" in table.stdout
    assert "needs review:" in table.stdout and "opinion" in table.stdout
    # the fake server reports 4 cached prompt tokens a call; S1 and S3 make one call each
    assert "(8 of the prompt's from the server's cache)" in table.stdout
    v = json.loads(low.stdout)
    assert v["pass_mark"] == 1 and v["passed"] is True and v["grounds"] == "opinion" and v["needs_review"]
    m = json.loads(mean.stdout)
    assert m["merge"] == "mean" and m["passed"] is False and m["pass_mark"] == 100
    bad = CliRunner().invoke(app, [*base, "--merge", "median"])
    assert bad.exit_code == 2 and "merge" in bad.output


def test_the_reply_cap_is_sent_as_max_tokens_to_openai_compatible_servers(tmp_path: Path) -> None:
    """llama.cpp's server reads only ``max_tokens``; langchain-openai would send ``max_completion_tokens``."""
    with FakeOpenAI() as server:
        res = CliRunner().invoke(app, ["judge", str(EXAMPLES / "code_generation.json"), "--team", "S1",
                                       "--model", "fake", "--base-url", server.base_url, "--max-tokens", "77",
                                       "--no-cache", "--json"])
    assert res.exit_code == 0, res.output
    assert server.bodies, "no request reached the server"
    for body in server.bodies:
        assert body["max_tokens"] == 77 and "max_completion_tokens" not in body, body


def test_settings_come_from_the_environment_and_options_win() -> None:
    """JudgeConfig reads SEJURY_<FIELD>; an option given on the command line overrides it."""
    env = {"SEJURY_MODEL": "fake", "SEJURY_TEAM": "S1", "SEJURY_CACHE": "false", "SEJURY_MAX_TOKENS": "55"}
    with FakeOpenAI() as server:
        env["SEJURY_BASE_URL"] = server.base_url
        res = CliRunner().invoke(app, ["judge", str(EXAMPLES / "code_generation.json"), "--json"], env=env)
        assert res.exit_code == 0, res.output
        assert json.loads(res.stdout)["team"] == ["direct"]
        assert {b["max_tokens"] for b in server.bodies} == {55}
        res = CliRunner().invoke(app, ["judge", str(EXAMPLES / "code_generation.json"), "--json",
                                       "--team", "S3", "--max-tokens", "66"], env=env)
        assert res.exit_code == 0, res.output
        assert json.loads(res.stdout)["team"] == ["equivalence"]
        assert server.bodies[-1]["max_tokens"] == 66
    bad = CliRunner().invoke(app, ["judge", str(EXAMPLES / "code_generation.json")], env={"SEJURY_TEAM": "S9"})
    assert bad.exit_code == 2 and "field 'team'" in bad.output and "unknown strategy 'S9'" in bad.output


def test_runfile_cuts_a_torn_last_line(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text('{"sample_id": "a"}\n{"sample_id": "b"}\n{"sample_id": "c", "sco')
    run = RunFile(out)
    run.close()
    assert run.done == {"a", "b"} and run.repaired
    assert out.read_text() == '{"sample_id": "a"}\n{"sample_id": "b"}\n'


def test_runfile_refuses_a_foreign_file(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text('{"id": "a"}\n')
    with pytest.raises(Exception, match=r"out.jsonl:1: field 'sample_id'"):
        RunFile(out)


def test_batch_resumes_after_being_killed(tmp_path: Path) -> None:
    """A 20-line batch is SIGKILLed mid-run; the re-run judges only what is missing."""
    path = write_jsonl(tmp_path / "in.jsonl", [line(i) for i in range(20)])
    out = tmp_path / "out.jsonl"
    with FakeOpenAI(latency=0.05) as server:
        cmd = [sys.executable, "-m", "sejury.cli", "batch", str(path), "-o", str(out), "--no-cache",
               "--concurrency", "2", "--llm-concurrency", "2", "--team", "S1,S3",
               "--model", "fake", "--base-url", server.base_url]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                env={**os.environ, "COLUMNS": "100"})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            done = out.read_text().count("\n") if out.exists() else 0
            if done >= 5:
                break
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        complete = out.read_text().split("\n")[:-1]  # the last piece is "" or a torn line
        first = [json.loads(x)["sample_id"] for x in complete]
        assert 5 <= len(first) < 20, "the kill should land mid-run"
        requests_before = server.requests

        rerun = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        assert rerun.returncode == 0, rerun.stderr
        records = [json.loads(x) for x in out.read_text().splitlines()]
        ids = [r["sample_id"] for r in records]
        assert sorted(ids) == sorted(f"s{i}" for i in range(20))  # every sample exactly once
        assert len(ids) == len(set(ids))
        # the re-run judged only the missing samples (2 calls each: S1 and S3)
        assert server.requests - requests_before == 2 * (20 - len(first))
        assert f"20 samples, {len(first)} already in" in rerun.stderr
        assert all(r["metadata"]["human_score"] == int(r["sample_id"][1:]) % 5 for r in records)
