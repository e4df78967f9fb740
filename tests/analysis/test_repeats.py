"""The judge's own variance (issue 16): ``sejury batch --repeats K`` judges each sample K times, each
repeat sampled with its own seed and cached under its own key; ``sejury evaluate`` reports each
juror's test-retest agreement from such a run."""

from __future__ import annotations

import collections
import json
import random
from pathlib import Path
from typing import Any

import pytest

from sejury.calibrate import read_run
from sejury.evaluate import evaluate
from sejury.evaluate_report import write_outputs
from sejury.schema import TeamFile
from tests.analysis.test_calibrate import verdict
from tests.cli.test_dedupe_dryrun import record, run_cli, write_jsonl
from tests.helpers.fake_openai import FakeOpenAI


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_batch_repeats_each_sample_with_its_own_seed_cache_key_and_resume(tmp_path: Path) -> None:
    data = write_jsonl(tmp_path / "in.jsonl", [record(0), record(1)])
    out, cache = tmp_path / "out.jsonl", tmp_path / "cache.sqlite"
    common = ["--team", "S1,S3", "--model", "fake", "--no-traces", "--cache-path", str(cache),
              "--repeats", "3", "--temperature", "0.7"]
    with FakeOpenAI() as server:
        dry = run_cli("batch", str(data), "-o", str(out), "--dry-run", *common, "--base-url", server.base_url)
        assert dry.exit_code == 0, dry.output
        assert "dry run: 12 LLM calls" in dry.output and "s0 (repeat 2)" in dry.output
        res = run_cli("batch", str(data), "-o", str(out), *common, "--base-url", server.base_url)
        assert res.exit_code == 0, res.output
        assert "6 judgments, 0 already in" in res.output
        # two samples x three repeats x two jurors; no repeat served from another's cache
        assert server.requests == 12
        seeds = collections.Counter(b["seed"] for b in server.bodies)
        assert seeds == {0: 4, 1: 4, 2: 4} and {b["temperature"] for b in server.bodies} == {0.7}
        got = lines(out)
        assert sorted((v["sample_id"], v["repeat"]) for v in got) == [(f"s{i}", r) for i in (0, 1) for r in range(3)]
        assert len({v["judgment_id"] for v in got}) == 6 and all(v["llm_calls"] == 2 for v in got)

        # killed after four lines: the re-run judges the two missing repeats, from the cache
        out.write_text("".join(json.dumps(v) + "\n" for v in got[:4]))
        missing = {(v["sample_id"], v["repeat"]) for v in got[4:]}
        again = run_cli("batch", str(data), "-o", str(out), *common, "--base-url", server.base_url)
        assert again.exit_code == 0, again.output
        assert "6 judgments, 4 already in" in again.output and server.requests == 12
        new = lines(out)[4:]
        assert {(v["sample_id"], v["repeat"]) for v in new} == missing
        assert all(r["cached"] for v in new for r in v["strategies"].values())

        # the same run at another temperature is another model setting: nothing cached
        other = run_cli("batch", str(data), "-o", str(tmp_path / "t0.jsonl"), "--dry-run",
                        *common[:-2], "--temperature", "0.2", "--base-url", server.base_url)
        assert "dry run: 12 LLM calls" in other.output

    # an ordinary run reads only the first judgment of each sample (lines come in completion order)
    assert sorted(r.sample_id for r in read_run(out, label="human_score")) == ["s0", "s1"]
    assert len(read_run(out, label="human_score", repeats=True)) == 6


def test_repeats_are_refused_on_ray(tmp_path: Path) -> None:
    data = write_jsonl(tmp_path / "in.jsonl", [record(0)])
    res = run_cli("batch", str(data), "-o", str(tmp_path / "o.jsonl"), "--repeats", "2", "--engine", "ray",
                  "--model", "fake", "--base-url", "http://127.0.0.1:9/v1")
    assert res.exit_code == 2 and "--repeats is not available with --engine ray" in res.output


def repeated_run(k: int = 3, n: int = 30, seed: int = 3) -> list[dict[str, object]]:
    """S1 tracks the label and never moves between repeats; S2 is a coin toss on every repeat; S3
    tracks the label with a little noise of its own on each repeat."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        h = rng.randint(0, 4)
        for rep in range(k):
            v = verdict(i, h, {"direct": h * 25, "rethink": rng.choice([0, 100]),
                               "equivalence": min(100.0, max(0.0, h * 25 + rng.uniform(-5, 5)))})
            v["repeat"] = rep
            out.append(v)
    return out


def test_evaluate_reports_each_jurors_test_retest_agreement(tmp_path: Path) -> None:
    p = tmp_path / "run.jsonl"
    p.write_text("".join(json.dumps(v) + "\n" for v in repeated_run()))
    team = TeamFile(task="code_generation", strategies=["direct", "equivalence"], calibration={"labelled_ids": []})
    ev = evaluate(read_run(p, repeats=True), team=team, ns=[], resamples=50)
    assert ev.n_samples == 30 and all(r.n == 30 for r in ev.rq1)  # the tables read one judgment per sample
    got = {x.juror: x for x in ev.repeatability}
    s1, s2, s3 = got["S1"], got["S2"], got["S3"]
    assert s1.repeats == 3 and s1.samples == 30
    assert s1.alpha == 1.0 and s1.sd == 0 and s1.changed == 0 and s1.flipped == 0
    assert s3.alpha > 0.95 and 0 < s3.sd < 6 and s3.changed == 1.0 and s3.range <= 10
    assert abs(s2.alpha) < 0.3 and s2.flipped > 0.5 and s2.alpha_low < s2.alpha < s2.alpha_high
    assert got["calibrated team"].alpha > 0.95
    text = write_outputs(ev, tmp_path / "ev").read_text()
    assert "The judge's own variance (3 judgments per sample" in text
    assert "| S1 | 30 | 1.000 |" in text
    assert (tmp_path / "ev" / "repeatability.png").read_bytes()[:4] == b"\x89PNG"
    assert "alpha_low" in (tmp_path / "ev" / "repeatability.csv").read_text()


def test_no_variance_section_without_repeats(tmp_path: Path) -> None:
    p = tmp_path / "run.jsonl"
    p.write_text("".join(json.dumps(v) + "\n" for v in repeated_run(k=1)))
    ev = evaluate(read_run(p, repeats=True), ns=[], n_labelled=5, resamples=20)
    assert ev.repeatability == [] and "own variance" not in write_outputs(ev, tmp_path / "ev").read_text()


def test_bias_by_author_and_self_preference(tmp_path: Path) -> None:
    """S1 adds 0.25 to every candidate its own model wrote; human-written candidates are scored
    exactly.  The self group shows +0.25 and differs from the others; by author, the model-written
    candidates (own and other) carry the bias, the human ones none."""
    rng = random.Random(2)
    vs = []
    for i in range(45):
        h = rng.randint(0, 2)
        system = ("qwen2.5-coder-1.5b-instruct", "other-model", "people")[i % 3]
        s1 = h * 25 + (25 if i % 3 == 0 else 0)
        v = verdict(i, h, {"direct": s1})
        v["model"] = "gguf:qwen2.5-coder-1.5b-instruct-q4_k_m@0123abcd#00000000"
        v["metadata"].update(system=system, author="human" if system == "people" else "model")  # type: ignore[union-attr]
        vs.append(v)
    p = tmp_path / "run.jsonl"
    p.write_text("".join(json.dumps(v) + "\n" for v in vs))
    team = TeamFile(task="code_generation", strategies=["direct"], calibration={"labelled_ids": []})
    ev = evaluate(read_run(p), team=team, ns=[], resamples=20)
    got = {(b.kind, b.juror, b.system): b for b in ev.bias}
    own = got[("self", "S1", "self: qwen2.5-coder-1.5b-instruct")]
    assert own.n == 15 and own.coefficient == pytest.approx(0.25) and own.vs_others_p < 0.001
    assert got[("self", "S1", "others")].coefficient == 0 and got[("self", "S1", "others")].n == 30
    assert got[("author", "S1", "human")].coefficient == 0
    assert got[("author", "S1", "model")].coefficient == pytest.approx(0.125)
    # naming the judge's generator explicitly: the other model is then "self"
    ev2 = evaluate(read_run(p), team=team, ns=[], resamples=20, self_systems=["other-model"])
    assert ("self", "S1", "self: other-model") in {(b.kind, b.juror, b.system) for b in ev2.bias}
    text = write_outputs(ev, tmp_path / "ev").read_text()
    assert "Self-preference" in text and "Bias per author" in text and "| S1 | self: qwen" in text
