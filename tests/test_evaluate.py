"""The paper's experiments on a synthetic run file: tables, exclusions, agreement, plots."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from test_calibrate import verdict
from typer.testing import CliRunner

from sejury.calibrate import read_run
from sejury.cli import app
from sejury.evaluate import evaluate
from sejury.schema import Strategy, TeamFile


def rows(n: int = 60, seed: int = 5) -> list[dict[str, object]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        h = rng.randint(0, 4)
        v = verdict(i, h, {"direct": h * 25 + rng.uniform(-8, 8), "rethink": rng.uniform(0, 100),
                           "bleu": h * 20 + rng.uniform(-25, 25), "vanilla": rng.choice([0, 100])})
        meta = v["metadata"]
        assert isinstance(meta, dict)
        # rater a copies the grade, rater b is off by one half of the time
        meta["human_scores"] = {"a": h, "b": min(4, h + (i % 2))}
        meta["test_passed"] = h >= 2
        out.append(v)
    return out


@pytest.fixture
def run(tmp_path: Path) -> Path:
    p = tmp_path / "run.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in rows()))
    return p


def test_tables_exclude_the_labelled_samples_and_rank_the_informative_juror(run: Path) -> None:
    records = read_run(run)
    team = TeamFile(task="code_generation", strategies=["direct", "bleu"],
                    calibration={"labelled_ids": [f"s{i}" for i in range(20)]})
    ev = evaluate(records, team=team, ns=[6, 20], seeds=3, resamples=200)
    assert ev.excluded_labelled == 20 and all(r.n == 40 for r in ev.rq1)
    by_name = {r.name: r for r in ev.rq1}
    assert by_name["S1"].mean > 0.8 and abs(by_name["S2"].mean) < 0.4
    assert by_name["calibrated team"].members == [Strategy.DIRECT, Strategy.BLEU]
    assert by_name["S2"].p_vs_team is not None and by_name["S2"].p_vs_team < 0.05  # S2's errors are larger
    # the vanilla baseline is a row of its own, outside "all LLM strategies merged" and every team
    assert "Vanilla (baseline)" in by_name
    assert by_name["all LLM strategies merged"].members == [Strategy.DIRECT, Strategy.RETHINK]
    assert all("Vanilla" not in str(r["most_chosen"]) for r in ev.rq3_n)
    assert [r["N"] for r in ev.rq3_n] == [6, 20] and all(r["seeds"] == 3 for r in ev.rq3_n)
    # RQ2: one human pair, two human-tool pairs; a and b agree exactly on the even half
    assert len(ev.rq2["H-H"]) == 1 and len(ev.rq2["H-T"]) == 2
    # RQ4: the informative juror tracks test outcomes
    assert {r.name: r for r in ev.rq4}["S1"].mean > 0.6


def test_outputs_and_the_cli(run: Path, tmp_path: Path) -> None:
    out = tmp_path / "ev"
    res = CliRunner().invoke(app, ["evaluate", str(run), "-o", str(out), "--ns", "6", "--seeds", "2"])
    assert res.exit_code == 0, res.output
    text = (out / "report.md").read_text()
    assert "## RQ1" in text and "## RQ2" in text and "## RQ3" in text and "## RQ4" in text
    assert "METEOR" in text  # what is not available is said
    for name in ("rq1.csv", "rq2.csv", "rq3_n.csv", "rq4.csv", "rq1_bars.png", "rq2_kappa_box.png"):
        assert (out / name).stat().st_size > 0, name
    assert (out / "rq1_bars.png").read_bytes()[:4] == b"\x89PNG"
